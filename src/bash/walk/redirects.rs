//! Redirections and what a command reads: the files a redirection writes, a heredoc or
//! here-string, what the pipeline element before it prints, and the `<` file a patch reads.

use super::{Frame, Input, Redirections, Walk, Walker, command_words, word_groups};
use crate::analysis::scope::Scope;
use crate::bash::Unscannable;
use crate::bash::printed;
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::bash::words::Arg;
use crate::commands::{self, Effect};
use crate::paths;

impl Walker<'_> {
    /// The redirections of a `redirected_statement`, those inside its heredocs included.
    pub(super) fn redirections<'t>(&self, statement: Node<'t>, walk: &Walk) -> Redirections<'t> {
        let mut parts = Redirections::default();
        for (child, field) in statement.children() {
            if field != Some("redirect") || !walk.counts(child) {
                continue;
            }
            match node_kind(child) {
                "file_redirect" => parts.files.push(child),
                "herestring_redirect" => parts.stdin = Some(child),
                "heredoc_redirect" => {
                    for (part, field) in child.children() {
                        if !walk.counts(part) {
                            continue;
                        }
                        match (node_kind(part), field) {
                            ("file_redirect", _) => parts.files.push(part),
                            ("herestring_redirect", _) => parts.stdin = Some(part),
                            ("heredoc_body", _) => parts.stdin = Some(part),
                            (_, Some("argument")) => parts.words.push(part),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        parts
    }

    /// What the element before `element` in `pipeline` prints, when it is plain text (a heredoc,
    /// `cat <<EOF | sh`, or `echo`/`printf` of known words); else the words of that command that
    /// name a guarded location, which count as what it may feed (`ls plans/*.md | xargs sed -i`).
    pub(super) fn upstream<'t>(
        &self,
        element: Node<'t>,
        pipeline: Node<'t>,
        outer: Option<Node<'t>>,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Input, Unscannable> {
        if let Some(heredoc) = outer.filter(|outer| node_kind(outer) == "heredoc_redirect") {
            let body = heredoc.children().find(|(child, _)| node_kind(child) == "heredoc_body");
            return Ok(Input { text: body.map(|(body, _)| walk.text(body).to_string()), producer: Vec::new() });
        }
        let mut earlier = Vec::new();
        for (child, _) in pipeline.children() {
            if child.id() == element.id() {
                break;
            }
            if child.is_named() {
                earlier.push(child);
            }
        }
        let Some(argv) = self.stage_words(earlier.pop(), walk, scope)? else { return Ok(Input::default()) };
        // `cat x.patch | git apply`: the file a patch reads through the pipe.
        if let [cat, file] = argv.as_slice()
            && cat.text == "cat"
            && !cat.dynamic
        {
            self.piped_file.replace(Some(file.clone()));
        }
        // Only a line with `echo` or `printf` in it can print known text.
        let prints = argv.iter().any(|arg| matches!(arg.text.rsplit('/').next(), Some("echo" | "printf")));
        let printed = || commands::printing_command(&argv).and_then(|words| printed::printed(&words));
        if let Some(text) = prints.then(printed).flatten() {
            return Ok(Input { text: Some(text), producer: Vec::new() });
        }
        // `find plans | sort | xargs rm`: a stage may pass on lines of what it reads, so the words
        // of the stages before it may reach the command too.
        let mut producer = argv;
        // Where the words of the stage last added start: its name.
        let mut stage = 0;
        while producer.get(stage).is_some_and(|name| passes_lines_on(&name.text)) && producer.len() < MAX_PRODUCER_WORDS
        {
            let Some(before) = self.stage_words(earlier.pop(), walk, scope)? else { break };
            stage = producer.len();
            producer.extend(before);
        }
        Ok(Input { text: None, producer })
    }

    /// The expanded words of one pipeline stage, when it is a simple command the walk counts.
    fn stage_words(
        &self,
        stage: Option<Node>,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Option<Vec<Arg>>, Unscannable> {
        let command = match stage {
            Some(statement) if node_kind(statement) == "redirected_statement" => {
                statement.child_by_field_name("body").filter(|body| node_kind(body) == "command")
            }
            other => other,
        };
        match command.filter(|c| node_kind(c) == "command" && walk.counts(*c)) {
            Some(command) => Ok(Some(self.expand_words(&command_words(command), walk, scope)?)),
            None => Ok(None),
        }
    }

    /// The known text a `while` loop reads: its own here-string or heredoc, or what the pipeline
    /// element before it prints.
    pub(super) fn loop_input<'t>(
        &self,
        node: Node<'t>,
        frames: &[Frame<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Option<String>, Unscannable> {
        let parent = frames.last().map(|frame| frame.node);
        let grand = frames.len().checked_sub(2).and_then(|at| frames.get(at)).map(|frame| frame.node);
        match parent {
            Some(statement) if node_kind(statement) == "redirected_statement" => {
                let mut stdin = self.redirections(statement, walk).stdin;
                for (child, _) in statement.children() {
                    match node_kind(child) {
                        "herestring_redirect" => stdin = Some(child),
                        "heredoc_redirect" => {
                            let body = child.children().find(|(c, _)| node_kind(c) == "heredoc_body");
                            stdin = body.map(|(body, _)| body).or(stdin);
                        }
                        _ => {}
                    }
                }
                match stdin.filter(|stdin| walk.counts(*stdin)) {
                    Some(stdin) => Ok(Some(self.stdin_text(stdin, walk, scope)?)),
                    None => Ok(None),
                }
            }
            Some(pipeline) if node_kind(pipeline) == "pipeline" => {
                let input = self.upstream(node, pipeline, grand, walk, scope)?;
                // An unknown producer feeds the loop the guarded locations it names.
                let fed = commands::fed_words(&input.producer);
                let fed = || fed.iter().map(|arg| arg.text.as_str()).collect::<Vec<_>>().join("\n");
                Ok(input.text.clone().or_else(|| (!input.producer.is_empty()).then(fed).filter(|t| !t.is_empty())))
            }
            _ => Ok(None),
        }
    }

    /// The file a command's `<` redirection reads, when it has one.
    pub(super) fn input_file<'t>(
        &self,
        files: &[Node<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Option<Arg>, Unscannable> {
        for &file in files.iter().filter(|f| walk.counts(**f)) {
            let parts = file.children();
            if !parts.clone().any(|(child, _)| node_kind(child) == "<") {
                continue;
            }
            let destinations: Vec<Node> =
                parts.filter(|(_, field)| *field == Some("destination")).map(|(child, _)| child).collect();
            if let Some(group) = word_groups(&destinations, walk.source).next() {
                let mut args = Vec::new();
                self.expand(group, walk, scope, &mut args)?;
                return Ok(args.into_iter().next());
            }
        }
        Ok(None)
    }

    /// A heredoc body as it reaches the command, or a here-string's word.
    pub(super) fn stdin_text<'t>(
        &self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<String, Unscannable> {
        if node_kind(node) != "herestring_redirect" {
            return Ok(walk.text(node).to_string());
        }
        let mut args = Vec::new();
        let word = node.named_children().find(|child| node_kind(child) != "file_descriptor");
        if let Some(word) = word {
            self.expand(&[word], walk, scope, &mut args)?;
        }
        Ok(args.into_iter().map(|arg| arg.text).collect::<Vec<_>>().join(" "))
    }

    /// A file redirection: its target when it writes; words after the target (`echo > f x`) are
    /// the command's arguments and go to `extra`.
    pub(super) fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope<Bash>,
        extra: &mut Vec<Node<'t>>,
    ) -> Result<(), Unscannable> {
        let mut writes = false;
        let mut duplicates = false;
        let mut reads = false;
        let mut destinations = Vec::new();
        // Where tree-sitter lost the statement: `cat <<EOF > a.md | tee b.md` puts `| tee b.md`
        // inside the redirection.
        let mut broken_at = None;
        for (child, field) in node.children() {
            match (node_kind(child), field) {
                (_, Some("destination")) if broken_at.is_none() && walk.counts(child) => destinations.push(child),
                (_, Some("descriptor")) => {}
                // `<>` is not in the grammar: `<` then an error holding `>`.
                ("ERROR", _) if reads && walk.text(child).trim() == ">" => writes = true,
                ("ERROR", _) => broken_at = broken_at.or(Some(child.end_byte())),
                (">" | ">>" | "&>" | "&>>" | ">|", _) => writes = true,
                (">&", _) => duplicates = true,
                ("<", _) => reads = true,
                _ => {}
            }
        }
        if let Some(rest) = broken_at.and_then(|at| walk.source.get(at..node.end_byte())) {
            let mut child = scope.clone();
            self.script(rest, &mut child, walk.nesting + 1)?;
        }
        let Some(first_group) = word_groups(&destinations, walk.source).next() else { return Ok(()) };
        extra.extend(destinations.get(first_group.len()..).unwrap_or_default());
        if !(writes || duplicates) {
            return Ok(());
        }
        let mut args = Vec::new();
        self.expand(first_group, walk, scope, &mut args)?;
        for arg in args {
            // `>&2`, `>&-`, `2>&1-` duplicate descriptors; `>& file` writes the file.
            let descriptor = !arg.dynamic && {
                let digits = arg.text.strip_suffix('-').unwrap_or(&arg.text);
                digits.is_empty() || digits.bytes().all(|b| b.is_ascii_digit())
            };
            if !(arg.pipe || duplicates && descriptor) {
                if arg.glob {
                    for spelled in paths::guarded_glob_matches(&arg.text) {
                        self.add(&spelled, &scope.base, scope.links());
                    }
                }
                self.add(&arg.text, &scope.base, scope.links());
                self.uncomputed(&arg, walk, scope);
            }
        }
        Ok(())
    }

    /// `cd x && bash <<'EOF' … EOF` as tree-sitter reads it: the heredoc on the list. The last
    /// command reads it; only what it runs or writes is new.
    pub(super) fn fed_command<'t>(
        &mut self,
        command: Node<'t>,
        stdin: Node<'t>,
        walk: &mut Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let mut words = command_words(command);
        words.retain(|word| walk.counts(*word));
        let argv = self.expand_words(&words, walk, scope)?;
        let text = self.stdin_text(stdin, walk, scope)?;
        let mut effects = Vec::new();
        commands::analyze(&argv, Some(&text), self.analyses, &mut effects);
        self.apply(effects, walk, scope, true)
    }

    /// `cd x && patch -p1 < f` as tree-sitter reads it: the `<` on the list. Only a patch the
    /// last command applies is new.
    pub(super) fn fed_patch<'t>(
        &mut self,
        command: Node<'t>,
        files: &[Node<'t>],
        walk: &mut Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let Some(input) = self.input_file(files, walk, scope)? else { return Ok(()) };
        let mut words = command_words(command);
        words.retain(|word| walk.counts(*word));
        let argv = self.expand_words(&words, walk, scope)?;
        let mut effects = Vec::new();
        commands::analyze(&argv, None, self.analyses, &mut effects);
        for effect in effects {
            if let Effect::Patch(mut read) = effect
                && read.file.is_none()
            {
                read.file = Some(input.clone());
                self.patch(read, scope);
            }
        }
        Ok(())
    }
}

/// The most words a command's producer is followed back through filters for.
const MAX_PRODUCER_WORDS: usize = 256;

/// Whether what `name` prints may hold the lines it reads (a filter, or a command the walk does
/// not know), so a path a stage before it printed may come out of it. Counts, digests and
/// encodings do not: `cat plan.md | wc -l` prints a number.
fn passes_lines_on(name: &str) -> bool {
    const DROP_WHAT_THEY_READ: [&str; 13] = [
        "b2sum",
        "base32",
        "base64",
        "cksum",
        "gzip",
        "md5sum",
        "od",
        "sha1sum",
        "sha256sum",
        "sha512sum",
        "wc",
        "xxd",
        "zstd",
    ];
    !DROP_WHAT_THEY_READ.contains(&name.rsplit('/').next().unwrap_or(name))
}
