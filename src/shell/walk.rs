//! The walk over a bash syntax tree: one `TreeCursor`, no recursion over the tree (nesting can
//! be thousands deep). Commands are judged when the cursor leaves them, after the substitutions
//! in their words; redirections are judged in the directory they open in. `cd`, `pushd`,
//! `popd` and variable assignments change the scope in sequence; subshells, substitutions and
//! pipeline elements get a copy that is dropped when they end. Scripts nested in strings
//! (`bash -c`, `eval`) are parsed again, at most [`MAX_SCRIPT_NESTING`] deep.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use tree_sitter::{Node, TreeCursor};

use super::parse::{Budget, field_name, node_kind, parse};
use super::words::{self, Arg, Context, MAX_VALUES, TextBudget, Value, Vars};
use super::writers::{self, Cd, Effect};
use super::{
    MAX_COMMAND_WORDS, MAX_EXPANDED_BYTES, MAX_PARSE_CHECKS, MAX_SCRIPT_NESTING, MAX_TARGETS, MAX_TREE_DEPTH,
    Unscannable,
};
use crate::paths;

pub fn targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    let mut walker = Walker {
        budget: Budget::new(MAX_PARSE_CHECKS),
        found: Vec::new(),
        seen: HashSet::new(),
        too_many: false,
        text: TextBudget::new(MAX_EXPANDED_BYTES),
        home: std::env::var("HOME").ok().filter(|home| home.starts_with('/')),
    };
    let mut scope = Scope { base: base.to_path_buf(), oldpwd: None, dirs: Vec::new(), vars: Rc::default() };
    walker.script(command, &mut scope, 0)?;
    if walker.too_many {
        return Err(Unscannable::TooManyTargets);
    }
    Ok(walker.found)
}

/// What a shell carries from one command to the next.
#[derive(Clone)]
struct Scope {
    base: PathBuf,
    oldpwd: Option<PathBuf>,
    /// `pushd`'s stack.
    dirs: Vec<PathBuf>,
    vars: Rc<Vars>,
}

impl Scope {
    fn forget(&mut self, name: &str) {
        if self.vars.contains_key(name) {
            Rc::make_mut(&mut self.vars).remove(name);
        }
    }

    fn assign(&mut self, name: &str, values: Vec<Value>) {
        if values.is_empty() || values.len() > MAX_VALUES || values.iter().all(|v| v.dynamic) {
            self.forget(name);
        } else {
            Rc::make_mut(&mut self.vars).insert(name.to_string(), values);
        }
    }

    fn cd(&mut self, to: PathBuf) {
        let from = std::mem::replace(&mut self.base, to);
        self.oldpwd = Some(from);
    }
}

struct Walker {
    budget: Budget,
    found: Vec<PathBuf>,
    seen: HashSet<PathBuf>,
    /// More than [`MAX_TARGETS`] were found: each costs the gates a real-path lookup.
    too_many: bool,
    /// The text the command, its nested scripts and its expansions may amount to.
    text: TextBudget,
    home: Option<String>,
}

/// A node the cursor is inside of.
struct Frame<'t> {
    node: Node<'t>,
    field: Option<&'t str>,
    /// The scope to restore when the node ends (a subshell).
    restore: Option<Scope>,
    /// Nothing in it counts (after an unterminated quote, or data).
    skip: bool,
}

/// One script's walk: its source and where an unterminated quote starts.
struct Walk<'s> {
    source: &'s str,
    nesting: usize,
    /// Everything from here on is inside an unterminated quote: bash reads it as data.
    cutoff: usize,
}

impl Walk<'_> {
    fn text(&self, node: Node) -> &str {
        self.source.get(node.byte_range()).unwrap_or_default()
    }

    fn counts(&self, node: Node) -> bool {
        node.start_byte() < self.cutoff
    }
}

const QUOTES: [&str; 5] = ["'", "\"", "`", "$'", "$\""];

fn children<'t>(node: Node<'t>, cursor: &mut TreeCursor<'t>) -> Vec<(Node<'t>, Option<&'t str>)> {
    let mut out = Vec::new();
    cursor.reset(node);
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.node(), field_name(cursor)));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// A command's name and argument nodes, in order.
fn command_words<'t>(command: Node<'t>, cursor: &mut TreeCursor<'t>) -> Vec<Node<'t>> {
    let mut words = Vec::new();
    for (child, field) in children(command, cursor) {
        match field {
            Some("name") => words.extend(child.named_child(0)),
            Some("argument") => words.push(child),
            _ => {}
        }
    }
    words
}

fn is_device(path: &Path) -> bool {
    matches!(path.to_str(), Some("/dev/null" | "/dev/stdin" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"))
        || path.starts_with("/dev/fd")
        || path.starts_with("/proc/self/fd")
}

/// Literal nodes that bash reads as one word: adjacent, or separated only by backslash escapes
/// (tree-sitter splits `a\<newline>b` in two, and drops the escaped blank of `'a'\ b`).
fn word_groups<'n, 't>(nodes: &'n [Node<'t>], source: &str) -> Vec<&'n [Node<'t>]> {
    let joined = |before: Node, after: Node| {
        let gap = source.get(before.end_byte()..after.start_byte()).unwrap_or(" ");
        let mut chars = gap.chars();
        while let Some(c) = chars.next() {
            match (c, chars.next()) {
                ('\\', Some('\r')) => {
                    if chars.next() != Some('\n') {
                        return false;
                    }
                }
                ('\\', Some(_)) => {}
                _ => return false,
            }
        }
        true
    };
    let mut groups = Vec::new();
    let mut start = 0;
    for at in 1..=nodes.len() {
        let split = match (nodes.get(at - 1), nodes.get(at)) {
            (Some(&before), Some(&after)) => !joined(before, after),
            _ => true,
        };
        if split {
            if let Some(group) = nodes.get(start..at).filter(|g| !g.is_empty()) {
                groups.push(group);
            }
            start = at;
        }
    }
    groups
}

/// The parts of a statement's redirections that belong to its command.
#[derive(Default)]
struct Redirections<'t> {
    files: Vec<Node<'t>>,
    /// Words after a heredoc start (`tee <<EOF out.md`): arguments of the command.
    words: Vec<Node<'t>>,
    /// The heredoc body or here-string the command reads.
    stdin: Option<Node<'t>>,
}

impl Walker {
    fn script(&mut self, source: &str, scope: &mut Scope, nesting: usize) -> Result<(), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        // Nested scripts (`eval`, `bash -c`) are text the command grew into; the command itself
        // has its own cap.
        if nesting > 0 && !self.text.charge(source.len()) {
            return Err(Unscannable::TooMuchText);
        }
        let tree = parse(source, &mut self.budget)?;
        let root = tree.root_node();
        let mut cursor = root.walk();
        let mut scratch = root.walk();
        let mut walk = Walk { source, nesting, cutoff: usize::MAX };
        let mut frames: Vec<Frame> = Vec::new();
        loop {
            if frames.len() >= MAX_TREE_DEPTH {
                return Err(Unscannable::TooDeep);
            }
            if self.text.exhausted() {
                return Err(Unscannable::TooMuchText);
            }
            let frame = self.enter(cursor.node(), field_name(&cursor), &frames, &mut walk, scope, &mut scratch)?;
            let descend = !frame.skip;
            frames.push(frame);
            if descend && cursor.goto_first_child() {
                continue;
            }
            loop {
                let Some(frame) = frames.pop() else { return Ok(()) };
                self.leave(&frame, &frames, &mut walk, scope, &mut scratch)?;
                if frames.is_empty() {
                    return Ok(());
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                cursor.goto_parent();
            }
        }
    }

    fn enter<'t>(
        &mut self,
        node: Node<'t>,
        field: Option<&'t str>,
        frames: &[Frame<'t>],
        walk: &mut Walk,
        scope: &mut Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<Frame<'t>, Unscannable> {
        let kind = node_kind(node);
        let parent = frames.last().map(|frame| frame.node);
        let parent_kind = parent.map(node_kind);
        let start = node.start_byte();
        // Where bash would meet a quote it never sees closed.
        let unterminated = match kind {
            "ERROR" if node.child_count() == 0 => QUOTES.iter().any(|q| walk.text(node).starts_with(q)),
            "\"" | "`" => parent_kind == Some("ERROR") && !closed_later(walk.source, node.end_byte(), kind),
            "string" | "command_substitution" if node.has_error() => node
                .child(node.child_count().saturating_sub(1))
                .is_some_and(|last| last.is_missing() && matches!(node_kind(last), "\"" | "`")),
            _ => false,
        };
        if unterminated {
            walk.cutoff = walk.cutoff.min(start);
        }
        let mut frame = Frame { node, field, restore: None, skip: !walk.counts(node) };
        if frame.skip {
            return Ok(frame);
        }
        match kind {
            // A function body is walked where it is defined (its writes count), but defining it
            // runs nothing: its `cd` stays inside.
            "subshell" | "command_substitution" | "process_substitution" | "function_definition" => {
                frame.restore = Some(scope.clone())
            }
            _ if parent_kind == Some("pipeline") && node.is_named() => frame.restore = Some(scope.clone()),
            _ => {}
        }
        match kind {
            "heredoc_body" => {
                // A quoted delimiter makes the body plain data; otherwise its substitutions run.
                let quoted = parent.is_some_and(|heredoc| {
                    children(heredoc, scratch).iter().any(|(child, _)| {
                        node_kind(child) == "heredoc_start" && walk.text(*child).contains(['\'', '"', '\\'])
                    })
                });
                frame.skip = quoted;
                // A body without `$(…)` is one token: its backquotes are scanned here.
                if !quoted && node.child_count() == 0 {
                    for inner in backquoted(walk.text(node)) {
                        let mut child = scope.clone();
                        self.script(inner, &mut child, walk.nesting + 1)?;
                    }
                }
            }
            // tree-sitter leaves backquotes in a heredoc body unparsed.
            "heredoc_content" => {
                for inner in backquoted(walk.text(node)) {
                    let mut child = scope.clone();
                    self.script(inner, &mut child, walk.nesting + 1)?;
                }
            }
            "for_statement" => self.for_loop(node, walk, scope, scratch)?,
            "redirected_statement" => {
                let body = node.child_by_field_name("body");
                if !body.is_some_and(|b| matches!(node_kind(b), "command" | "list" | "pipeline")) {
                    let parts = self.redirections(node, walk, scratch);
                    let mut ignored = Vec::new();
                    for file in parts.files {
                        self.redirect(file, walk, scope, scratch, &mut ignored)?;
                    }
                }
            }
            "file_redirect"
                if !matches!(parent_kind, Some("command" | "redirected_statement" | "heredoc_redirect")) =>
            {
                let mut ignored = Vec::new();
                self.redirect(node, walk, scope, scratch, &mut ignored)?;
            }
            // `[ a > b ]` is a redirection in bash (unlike `[[ a > b ]]`).
            "test_command" if node.child(0).is_some_and(|open| node_kind(open) == "[") => {
                for (child, _) in children(node, scratch) {
                    if node_kind(child) == "binary_expression"
                        && child.child_by_field_name("operator").is_some_and(|op| matches!(node_kind(op), ">" | ">>"))
                        && let Some(right) = child.child_by_field_name("right")
                    {
                        let mut args = Vec::new();
                        self.expand(&[right], walk, scope, scratch, &mut args)?;
                        for arg in args {
                            self.add(&arg.text, &scope.base);
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(frame)
    }

    fn leave<'t>(
        &mut self,
        frame: &Frame<'t>,
        ancestors: &[Frame<'t>],
        walk: &mut Walk,
        scope: &mut Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<(), Unscannable> {
        if frame.skip {
            return Ok(());
        }
        let node = frame.node;
        let parent = ancestors.last();
        match node_kind(node) {
            "command" => {
                let statement =
                    parent.filter(|p| node_kind(p.node) == "redirected_statement" && frame.field == Some("body"));
                // The element of a pipeline this command is (with its redirections).
                let depth = ancestors.len().saturating_sub(usize::from(statement.is_some()));
                let element = statement.map_or(node, |s| s.node);
                let upstream = match (
                    depth.checked_sub(1).and_then(|d| ancestors.get(d)),
                    depth.checked_sub(2).and_then(|d| ancestors.get(d)),
                ) {
                    (Some(pipeline), grand) if node_kind(pipeline.node) == "pipeline" => {
                        self.upstream(element, pipeline.node, grand.map(|g| g.node), walk, scope, scratch)?
                    }
                    _ => None,
                };
                self.command(node, statement.map(|p| p.node), upstream, walk, scope, scratch)?;
            }
            "variable_assignment" if parent.is_some_and(|p| node_kind(p.node) != "command") => {
                self.assignment(node, walk, scope, scratch);
            }
            "unset_command" => {
                for (child, _) in children(node, scratch) {
                    if matches!(node_kind(child), "word" | "variable_name") {
                        scope.forget(walk.text(child));
                    }
                }
            }
            "redirected_statement" => {
                // `a && b > f`: tree-sitter hangs the redirection on the list; bash gives it to
                // the last command, which runs after the others.
                if let Some(body) =
                    node.child_by_field_name("body").filter(|b| matches!(node_kind(b), "list" | "pipeline"))
                {
                    let parts = self.redirections(node, walk, scratch);
                    let mut ignored = Vec::new();
                    for file in &parts.files {
                        self.redirect(*file, walk, scope, scratch, &mut ignored)?;
                    }
                    if let (Some(stdin), Some(command)) = (parts.stdin, last_command(body, scratch)) {
                        self.fed_command(command, stdin, walk, scope, scratch)?;
                    }
                }
            }
            _ => {}
        }
        if let Some(saved) = &frame.restore {
            *scope = saved.clone();
        }
        Ok(())
    }

    /// The redirections of a `redirected_statement`, those inside its heredocs included.
    fn redirections<'t>(&self, statement: Node<'t>, walk: &Walk, scratch: &mut TreeCursor<'t>) -> Redirections<'t> {
        let mut parts = Redirections::default();
        for (child, field) in children(statement, scratch) {
            if field != Some("redirect") || !walk.counts(child) {
                continue;
            }
            match node_kind(child) {
                "file_redirect" => parts.files.push(child),
                "herestring_redirect" => parts.stdin = Some(child),
                "heredoc_redirect" => {
                    for (part, field) in children(child, scratch) {
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

    /// What the element before `element` in `pipeline` prints, when it is plain text: a
    /// heredoc (`cat <<EOF | sh`) or `echo`/`printf` of static words.
    fn upstream<'t>(
        &self,
        element: Node<'t>,
        pipeline: Node<'t>,
        outer: Option<Node<'t>>,
        walk: &Walk,
        scope: &Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<Option<String>, Unscannable> {
        if let Some(heredoc) = outer.filter(|outer| node_kind(outer) == "heredoc_redirect") {
            let body = children(heredoc, scratch).into_iter().find(|(child, _)| node_kind(child) == "heredoc_body");
            return Ok(body.map(|(body, _)| walk.text(body).to_string()));
        }
        let mut previous = None;
        for (child, _) in children(pipeline, scratch) {
            if child.id() == element.id() {
                break;
            }
            if child.is_named() {
                previous = Some(child);
            }
        }
        let Some(previous) = previous.filter(|p| node_kind(p) == "command" && walk.counts(*p)) else { return Ok(None) };
        let words = command_words(previous, scratch);
        let argv = self.expand_words(&words, walk, scope, scratch)?;
        let Some((name, args)) = argv.split_first().filter(|(name, _)| matches!(name.text.as_str(), "echo" | "printf"))
        else {
            return Ok(None);
        };
        let skip = if name.text == "echo" {
            args.iter().take_while(|a| matches!(a.text.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en")).count()
        } else {
            0
        };
        let texts: Vec<&str> = args.iter().skip(skip).map(|a| a.text.as_str()).collect();
        Ok(Some(texts.join(" ")))
    }

    /// The words bash would pass, after grouping the nodes of each word and expanding them.
    fn expand_words<'t>(
        &self,
        words: &[Node<'t>],
        walk: &Walk,
        scope: &Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<Vec<Arg>, Unscannable> {
        let mut argv = Vec::with_capacity(words.len());
        for group in word_groups(words, walk.source) {
            self.expand(group, walk, scope, scratch, &mut argv)?;
        }
        Ok(argv)
    }

    #[allow(clippy::too_many_arguments)]
    fn command<'t>(
        &mut self,
        node: Node<'t>,
        statement: Option<Node<'t>>,
        upstream: Option<String>,
        walk: &mut Walk,
        scope: &mut Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<(), Unscannable> {
        let mut words = Vec::new();
        let mut files = Vec::new();
        let mut stdin = None;
        for (child, field) in children(node, scratch) {
            match field {
                Some("name") => {
                    if let Some(literal) = child.named_child(0) {
                        words.push(literal);
                    }
                }
                Some("argument") => words.push(child),
                Some("redirect") if node_kind(child) == "file_redirect" => files.push(child),
                Some("redirect") if node_kind(child) == "herestring_redirect" => stdin = Some(child),
                _ => {}
            }
        }
        if let Some(statement) = statement {
            let parts = self.redirections(statement, walk, scratch);
            files.extend(parts.files);
            words.extend(parts.words);
            stdin = parts.stdin.or(stdin);
        }
        // Redirections open before the command runs, in the directory it starts in.
        for file in files.iter().filter(|f| walk.counts(**f)) {
            self.redirect(*file, walk, scope, scratch, &mut words)?;
        }
        words.retain(|word| walk.counts(*word));
        words.sort_by_key(Node::start_byte);
        let argv = self.expand_words(&words, walk, scope, scratch)?;
        let stdin_text = match stdin {
            Some(node) => Some(self.stdin_text(node, walk, scope, scratch)?),
            None => upstream,
        };
        let mut effects = Vec::new();
        writers::analyze(&argv, stdin_text.as_deref(), &mut effects);
        self.apply(effects, walk, scope, false)
    }

    /// `cd x && bash <<'EOF' … EOF` as tree-sitter reads it: the heredoc on the list. The last
    /// command reads it; only what it runs or writes is new.
    fn fed_command<'t>(
        &mut self,
        command: Node<'t>,
        stdin: Node<'t>,
        walk: &mut Walk,
        scope: &mut Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<(), Unscannable> {
        let mut words = command_words(command, scratch);
        words.retain(|word| walk.counts(*word));
        let argv = self.expand_words(&words, walk, scope, scratch)?;
        let text = self.stdin_text(stdin, walk, scope, scratch)?;
        let mut effects = Vec::new();
        writers::analyze(&argv, Some(&text), &mut effects);
        self.apply(effects, walk, scope, true)
    }

    /// A heredoc body as it reaches the command, or a here-string's word.
    fn stdin_text<'t>(
        &self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<String, Unscannable> {
        if node_kind(node) != "herestring_redirect" {
            return Ok(walk.text(node).to_string());
        }
        let mut args = Vec::new();
        let word = node.named_children(scratch).find(|child| node_kind(child) != "file_descriptor");
        if let Some(word) = word {
            self.expand(&[word], walk, scope, scratch, &mut args)?;
        }
        Ok(args.into_iter().map(|arg| arg.text).collect::<Vec<_>>().join(" "))
    }

    /// A file redirection: its target when it writes; words after the target (`echo > f x`) are
    /// the command's arguments and go to `extra`.
    fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope,
        scratch: &mut TreeCursor<'t>,
        extra: &mut Vec<Node<'t>>,
    ) -> Result<(), Unscannable> {
        let mut writes = false;
        let mut duplicates = false;
        let mut reads = false;
        let mut destinations = Vec::new();
        // Where tree-sitter lost the statement: `cat <<EOF > a.md | tee b.md` puts `| tee b.md`
        // inside the redirection.
        let mut broken_at = None;
        for (child, field) in children(node, scratch) {
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
        let Some(first_group) = word_groups(&destinations, walk.source).first().copied() else { return Ok(()) };
        extra.extend(destinations.get(first_group.len()..).unwrap_or_default());
        if !(writes || duplicates) {
            return Ok(());
        }
        let mut args = Vec::new();
        self.expand(first_group, walk, scope, scratch, &mut args)?;
        for arg in args {
            // `>&2`, `>&-`, `2>&1-` duplicate descriptors; `>& file` writes the file.
            let descriptor = !arg.dynamic && {
                let digits = arg.text.strip_suffix('-').unwrap_or(&arg.text);
                digits.is_empty() || digits.bytes().all(|b| b.is_ascii_digit())
            };
            if !(arg.pipe || duplicates && descriptor) {
                self.add(&arg.text, &scope.base);
            }
        }
        Ok(())
    }

    /// What word expansion sees at this point of the walk.
    fn context<'a>(&'a self, walk: &Walk<'a>, scope: &'a Scope) -> Context<'a> {
        Context {
            source: walk.source,
            budget: &self.text,
            vars: &scope.vars,
            pwd: &scope.base,
            oldpwd: scope.oldpwd.as_deref(),
            home: self.home.as_deref(),
        }
    }

    fn expand<'t>(
        &self,
        group: &[Node<'t>],
        walk: &Walk,
        scope: &Scope,
        scratch: &mut TreeCursor<'t>,
        out: &mut Vec<Arg>,
    ) -> Result<(), Unscannable> {
        words::expand(group, &self.context(walk, scope), scratch, out)?;
        if self.text.exhausted() {
            return Err(Unscannable::TooMuchText);
        }
        // Each word is capped on its own; this caps them together, before any path work.
        if out.len() > MAX_COMMAND_WORDS {
            return Err(Unscannable::TooManyWords);
        }
        Ok(())
    }

    fn for_loop<'t>(
        &mut self,
        node: Node<'t>,
        walk: &Walk,
        scope: &mut Scope,
        scratch: &mut TreeCursor<'t>,
    ) -> Result<(), Unscannable> {
        let mut name = None;
        let mut values = Vec::new();
        let mut listed = false;
        for (child, field) in children(node, scratch) {
            match field {
                Some("variable") => name = Some(walk.text(child)),
                Some("value") => values.push(child),
                _ => listed |= node_kind(child) == "in",
            }
        }
        let Some(name) = name else { return Ok(()) };
        let mut args = Vec::new();
        for group in word_groups(&values, walk.source) {
            self.expand(group, walk, scope, scratch, &mut args)?;
        }
        if listed {
            scope.assign(name, args.into_iter().map(|arg| Value { text: arg.text, dynamic: arg.dynamic }).collect());
        } else {
            scope.forget(name);
        }
        Ok(())
    }

    fn assignment<'t>(&self, node: Node<'t>, walk: &Walk, scope: &mut Scope, scratch: &mut TreeCursor<'t>) {
        let Some(name) = node.child_by_field_name("name").filter(|n| node_kind(n) == "variable_name") else { return };
        let name = walk.text(name);
        let appends = children(node, scratch).iter().any(|(child, _)| node_kind(child) == "+=");
        if appends {
            scope.forget(name);
            return;
        }
        let values = match node.child_by_field_name("value") {
            Some(value) => words::value(value, &self.context(walk, scope), scratch),
            None => vec![Value { text: String::new(), dynamic: false }],
        };
        scope.assign(name, values);
    }

    fn apply(
        &mut self,
        effects: Vec<Effect>,
        walk: &Walk,
        scope: &mut Scope,
        only_new: bool,
    ) -> Result<(), Unscannable> {
        for effect in effects {
            match effect {
                Effect::Write(arg) => self.add(&arg.text, &scope.base),
                Effect::WriteInto { dir, name, known_dir } => {
                    let dir = paths::absolute(&dir.text, &scope.base);
                    if known_dir || dir.is_dir() {
                        self.add(&name.text, &dir);
                    }
                }
                Effect::Script(script) => {
                    let mut child = scope.clone();
                    self.script(&script, &mut child, walk.nesting + 1)?;
                }
                Effect::PowerShell(script) => {
                    for target in crate::powershell::write_targets(&script, &scope.base)? {
                        self.add(&target.to_string_lossy(), &scope.base);
                    }
                }
                _ if only_new => {}
                Effect::Eval(script) => self.script(&script, scope, walk.nesting + 1)?,
                Effect::Forget(name) => scope.forget(&name),
                Effect::Cd(cd) => self.cd(cd, scope),
            }
        }
        Ok(())
    }

    fn cd(&self, cd: Cd, scope: &mut Scope) {
        match cd {
            Cd::To(dir) => {
                let to = paths::absolute(&dir.text, &scope.base);
                scope.cd(to);
            }
            Cd::Home => {
                if let Some(home) = &self.home {
                    scope.cd(PathBuf::from(home));
                }
            }
            Cd::Back => {
                if let Some(back) = scope.oldpwd.clone() {
                    scope.cd(back);
                }
            }
            Cd::Push(Some(dir)) => {
                let to = paths::absolute(&dir.text, &scope.base);
                scope.dirs.push(scope.base.clone());
                scope.cd(to);
            }
            Cd::Push(None) => {
                if let Some(top) = scope.dirs.pop() {
                    scope.dirs.push(scope.base.clone());
                    scope.cd(top);
                }
            }
            Cd::Pop => {
                if let Some(top) = scope.dirs.pop() {
                    scope.cd(top);
                }
            }
        }
    }

    fn add(&mut self, text: &str, base: &Path) {
        if text.is_empty() {
            return;
        }
        let path = paths::absolute(text, base);
        if is_device(&path) {
            return;
        }
        if self.found.len() >= MAX_TARGETS {
            self.too_many = true;
        } else if self.seen.insert(path.clone()) {
            self.found.push(path);
        }
    }
}

/// The command that runs last in a list or pipeline.
fn last_command<'t>(mut node: Node<'t>, scratch: &mut TreeCursor<'t>) -> Option<Node<'t>> {
    for _ in 0..MAX_TREE_DEPTH {
        match node_kind(node) {
            "command" => return Some(node),
            "list" | "pipeline" => node = node.named_children(scratch).last()?,
            "redirected_statement" => node = node.child_by_field_name("body")?,
            _ => return None,
        }
    }
    None
}

/// Whether `quote` appears again, unescaped, after byte `from`: a quote tree-sitter could not
/// place is unterminated only when bash would never see it closed.
fn closed_later(source: &str, from: usize, quote: &str) -> bool {
    let Some(rest) = source.get(from..) else { return false };
    let mut escaped = false;
    for c in rest.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if quote.starts_with(c) => return true,
            _ => {}
        }
    }
    false
}

/// The commands between backquotes in a heredoc body (`\`` escapes one).
fn backquoted(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut open = None;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '`' => match open.take() {
                Some(start) => found.extend(text.get(start..at)),
                None => open = Some(at + 1),
            },
            _ => {}
        }
    }
    found
}
