//! Redirections and what a command reads: the files a redirection writes, a heredoc or
//! here-string, what the pipeline element before it prints, and the `<` file a patch reads.

use super::{Frame, Input, MAX_TREE_DEPTH, Redirections, Walk, Walker, command_words, word_groups};
use crate::analysis::scope::Scope;
use crate::bash::Unscannable;
use crate::bash::printed;
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::bash::words::Arg;
use crate::commands;
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
            let text = match body {
                Some((body, _)) => Some(self.heredoc_text(body, walk, scope)?),
                None => None,
            };
            return Ok(Input { text, producer: Vec::new() });
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
        let Some(last) = earlier.pop() else { return Ok(walk.inherited_input()) };
        let mut producer = Vec::new();
        let mut decoding = 0;
        match self.stage_words(last, walk, scope)? {
            Some(argv) => {
                // `cat | sh`: what the script reads passes on.
                if let [cat] = argv.as_slice()
                    && cat.text == "cat"
                    && !cat.dynamic
                    && earlier.is_empty()
                {
                    return Ok(walk.inherited_input());
                }
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
                let coded = coding(&argv);
                producer = argv;
                match coded {
                    Coding::Drops | Coding::Encodes => return Ok(Input { text: None, producer }),
                    Coding::Decodes => decoding = 1,
                    Coding::Passes => {}
                }
            }
            None => {
                // The first word names the producer; a compound stage has no name to give.
                producer.push(Arg::literal(node_kind(last)));
                self.printed_words(last, walk, scope, &mut producer, 0)?;
            }
        }
        // `find plans | sort | xargs rm`: a stage may pass on lines of what it reads, so the words
        // of the stages before it may reach the command too.
        self.stages_printed(earlier, walk, scope, &mut producer, decoding, 0)?;
        Ok(Input { text: None, producer })
    }

    /// The expanded words of one pipeline stage, when it is a simple command the walk counts,
    /// with the file its `<` reads (`cat < plan.md` prints what `cat plan.md` does).
    fn stage_words(&self, stage: Node, walk: &Walk, scope: &Scope<Bash>) -> Result<Option<Vec<Arg>>, Unscannable> {
        let (command, statement) = match node_kind(stage) {
            "redirected_statement" => (stage.child_by_field_name("body"), Some(stage)),
            _ => (Some(stage), None),
        };
        let Some(command) = command.filter(|c| node_kind(c) == "command" && walk.counts(*c)) else { return Ok(None) };
        let mut argv = self.expand_words(&command_words(command), walk, scope)?;
        // A count or digest of its standard input prints no name (`wc -l < plan.md`).
        if let Some(statement) = statement.filter(|_| !matches!(coding(&argv), Coding::Drops))
            && let Some((file, _)) = self.input_file(&self.redirections(statement, walk).files, walk, scope)?
        {
            argv.push(file);
        }
        Ok(Some(argv))
    }

    /// The stages of a pipeline, from the last back for as long as a stage may pass on what the
    /// one before it prints: the words of each, for a command they feed. `decoding` counts the
    /// decoders met on the way back, each undoing an encoder before it (`base64 | base64 -d`).
    fn stages_printed(
        &self,
        mut stages: Vec<Node>,
        walk: &Walk,
        scope: &Scope<Bash>,
        words: &mut Vec<Arg>,
        mut decoding: usize,
        depth: usize,
    ) -> Result<(), Unscannable> {
        while let Some(stage) = stages.pop() {
            if words.len() >= MAX_PRODUCER_WORDS {
                break;
            }
            match self.stage_words(stage, walk, scope)? {
                Some(argv) => {
                    let passes_on = match coding(&argv) {
                        Coding::Decodes => {
                            decoding += 1;
                            true
                        }
                        Coding::Encodes if decoding > 0 => {
                            decoding -= 1;
                            true
                        }
                        Coding::Encodes | Coding::Drops => false,
                        Coding::Passes => true,
                    };
                    words.extend(argv);
                    if !passes_on {
                        break;
                    }
                }
                // A group, a subshell or a loop may print what it reads too.
                None => self.printed_words(stage, walk, scope, words, depth + 1)?,
            }
        }
        Ok(())
    }

    /// The words of the commands whose output `node` may print, for a command it feeds
    /// (`for f in …; do echo "$f"; done | mytool`): a simple command's, a pipeline's last stages
    /// as [`Self::stages_printed`] follows them, every statement of a group, subshell, loop or
    /// branch, and the values a `for` loop gives its variable.
    fn printed_words(
        &self,
        node: Node,
        walk: &Walk,
        scope: &Scope<Bash>,
        words: &mut Vec<Arg>,
        depth: usize,
    ) -> Result<(), Unscannable> {
        if depth >= MAX_TREE_DEPTH || words.len() >= MAX_PRODUCER_WORDS || !walk.counts(node) {
            return Ok(());
        }
        match node_kind(node) {
            "command" | "redirected_statement" => {
                if let Some(argv) = self.stage_words(node, walk, scope)? {
                    words.extend(argv);
                } else if let Some(body) = node.child_by_field_name("body") {
                    self.printed_words(body, walk, scope, words, depth + 1)?;
                }
            }
            "pipeline" => self.stages_printed(node.named_children().collect(), walk, scope, words, 0, depth + 1)?,
            "for_statement" => {
                let values: Vec<Node> =
                    node.children().filter(|(_, field)| *field == Some("value")).map(|(value, _)| value).collect();
                words.extend(self.expand_words(&values, walk, scope)?);
                if let Some(body) = node.child_by_field_name("body") {
                    self.printed_words(body, walk, scope, words, depth + 1)?;
                }
            }
            kind if PRINT_WHAT_THEIR_STATEMENTS_PRINT.contains(&kind) => {
                for child in node.named_children() {
                    self.printed_words(child, walk, scope, words, depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
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

    /// The file a command's `<` redirection reads, with the node it is spelled by (a process
    /// substitution, `< <(…)`): of several, the last, as bash reads.
    pub(super) fn input_file<'t>(
        &self,
        files: &[Node<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Option<(Arg, Node<'t>)>, Unscannable> {
        let reads = |file: &&Node| walk.counts(**file) && file.children().any(|(child, _)| node_kind(child) == "<");
        let Some(file) = files.iter().filter(reads).max_by_key(|file| file.start_byte()) else { return Ok(None) };
        let destinations: Vec<Node> =
            file.children().filter(|(_, field)| *field == Some("destination")).map(|(child, _)| child).collect();
        let Some(group) = word_groups(&destinations, walk.source).next() else { return Ok(None) };
        let mut args = Vec::new();
        self.expand(group, walk, scope, &mut args)?;
        Ok(args.into_iter().next().zip(group.first().copied()))
    }

    /// What a command reads from its `<` file: the program it runs (`python3 < s.py`), the text a
    /// process substitution prints, or else the file or the substitution's commands as a producer
    /// whose output is unknown (`mytool < plan.md` reads what `cat plan.md | mytool` would).
    pub(super) fn read_from(
        &self,
        (file, spelled): (&Arg, Node),
        argv: &[Arg],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Input, Unscannable> {
        if file.pipe && !file.dynamic {
            return Ok(Input { text: Some(file.text.clone()), producer: Vec::new() });
        }
        if file.pipe {
            let mut producer = vec![Arg::literal("<(…)")];
            if node_kind(spelled) == "process_substitution" {
                self.printed_words(spelled, walk, scope, &mut producer, 0)?;
            }
            return Ok(Input { text: None, producer });
        }
        // What runs its input reads the file as it is; any command reads one the line wrote with
        // text it shows (`echo plans/p.md > l; xargs rm < l`).
        if !file.dynamic && !file.glob {
            let text = match self.runs_its_input(argv) {
                true => self.file_text(&file.text, &scope.base),
                false => self.shown_text(&paths::absolute(&file.text, &scope.base)).map(str::to_string),
            };
            if let Some(text) = text {
                return Ok(Input { text: Some(text), producer: Vec::new() });
            }
        }
        Ok(Input { text: None, producer: vec![Arg::literal("<"), file.clone()] })
    }

    /// What a command reads from the process substitutions among its words (`mytool <(ls plans)`):
    /// the words of the commands each runs, added to its producer's, as it reads what they print.
    pub(super) fn substitutions_read(
        &self,
        words: &[Node],
        walk: &Walk,
        scope: &Scope<Bash>,
        producer: &mut Vec<Arg>,
    ) -> Result<(), Unscannable> {
        let reads = |node: &Node| {
            node_kind(node) == "process_substitution" && node.child(0).is_some_and(|open| node_kind(open) == "<(")
        };
        for word in words {
            for substitution in std::iter::once(*word).chain(word.named_children()).filter(reads) {
                if producer.is_empty() {
                    producer.push(Arg::literal("<(…)"));
                }
                self.printed_words(substitution, walk, scope, producer, 0)?;
            }
        }
        Ok(())
    }

    /// A heredoc body as it reaches the command, or a here-string's word.
    pub(super) fn stdin_text<'t>(
        &self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<String, Unscannable> {
        if node_kind(node) == "heredoc_body" {
            return self.heredoc_text(node, walk, scope);
        }
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

    /// A heredoc body as the command reads it: with a quoted delimiter as written, else with its
    /// expansions' values in place (`<<E` … `$out` … `E`).
    pub(super) fn heredoc_text(&self, body: Node, walk: &Walk, scope: &Scope<Bash>) -> Result<String, Unscannable> {
        if quoted_heredoc(body, walk) || body.child_count() == 0 {
            return Ok(walk.text(body).to_string());
        }
        let mut text = String::with_capacity(body.end_byte() - body.start_byte());
        let mut from = body.start_byte();
        for (child, _) in body.children() {
            if !matches!(
                node_kind(child),
                "simple_expansion" | "expansion" | "command_substitution" | "arithmetic_expansion"
            ) {
                continue;
            }
            text.push_str(walk.source.get(from..child.start_byte()).unwrap_or_default());
            let mut values = Vec::new();
            self.expand(&[child], walk, scope, &mut values)?;
            for (at, value) in values.iter().enumerate() {
                text.push_str(if at == 0 { "" } else { " " });
                text.push_str(&value.text);
            }
            from = child.end_byte();
        }
        text.push_str(walk.source.get(from..body.end_byte()).unwrap_or_default());
        Ok(text)
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
                self.write(&arg, walk, scope);
            }
        }
        Ok(())
    }
}

/// Whether the heredoc `body` belongs to has a quoted delimiter (`<<'E'`, `<<\E`): then its
/// body is plain data, with nothing expanded or run.
pub(super) fn quoted_heredoc(body: Node, walk: &Walk) -> bool {
    body.parent().is_some_and(|heredoc| {
        heredoc
            .children()
            .any(|(child, _)| node_kind(child) == "heredoc_start" && walk.text(child).contains(['\'', '"', '\\']))
    })
}

/// Statements whose output is what the statements inside them print.
const PRINT_WHAT_THEIR_STATEMENTS_PRINT: [&str; 13] = [
    "c_style_for_statement",
    "case_item",
    "case_statement",
    "compound_statement",
    "do_group",
    "elif_clause",
    "else_clause",
    "if_statement",
    "list",
    "negated_command",
    "process_substitution",
    "subshell",
    "while_statement",
];

/// The most words a command's producer is followed back through filters for.
const MAX_PRODUCER_WORDS: usize = 256;

/// What a pipeline stage does to the lines it reads, as far as a path in them may come out.
enum Coding {
    /// A filter, or a command the walk does not know: a path a stage before it printed may come out.
    Passes,
    /// Counts and digests: `cat plan.md | wc -l` prints a number.
    Drops,
    /// An encoding, which only a later decoder undoes.
    Encodes,
    /// A decoder prints what an encoder before it read (`ls plans | gzip | gzip -d | xargs rm`).
    Decodes,
}

fn coding(argv: &[Arg]) -> Coding {
    const DIGESTS: [&str; 8] = ["b2sum", "cksum", "md5sum", "od", "sha1sum", "sha256sum", "sha512sum", "wc"];
    const CODECS: [&str; 7] = ["base32", "base64", "bzip2", "gzip", "xxd", "xz", "zstd"];
    let Some((name, args)) = argv.split_first() else { return Coding::Passes };
    let name = name.text.rsplit('/').next().unwrap_or(&name.text);
    if DIGESTS.contains(&name) {
        return Coding::Drops;
    }
    if !CODECS.contains(&name) {
        return Coding::Passes;
    }
    // `-d`/`--decode` (`-D` on macOS's base64), and xxd's `-r`, possibly in a bundle (`-dc`).
    let decode = if name == "xxd" { 'r' } else { 'd' };
    let decodes = args.iter().any(|arg| match arg.text.strip_prefix("--") {
        Some(long) => matches!(long, "decode" | "decompress" | "uncompress" | "revert"),
        None => arg
            .text
            .strip_prefix('-')
            .is_some_and(|short| short.contains(decode) || (name == "base64" && short.contains('D'))),
    });
    if decodes { Coding::Decodes } else { Coding::Encodes }
}
