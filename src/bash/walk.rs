//! The walk over a bash syntax tree, read once into a flat array ([`super::tree`]), with no
//! recursion over the tree (nesting can be thousands deep). Commands are judged when the walk
//! leaves them, after the substitutions in their words; redirections are judged in the directory
//! they open in. `cd`, `pushd`, `popd` and variable assignments change the scope in sequence;
//! subshells, substitutions and pipeline elements get a copy that is dropped when they end.
//! Scripts nested in strings (`bash -c`, `eval`) are parsed again, at most
//! [`MAX_SCRIPT_NESTING`] deep.

mod command;
mod effects;
mod evaluated;
mod interpreters;
mod redirects;
mod returns;
mod variables;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::parse::parse;
use super::state::Bash;
use super::tree::{Flat, Node, node_kind};
use super::words::{Arg, Home};
use super::{MAX_EXPANDED_BYTES, MAX_PARSE_CHECKS, MAX_SCRIPT_NESTING, MAX_TREE_DEPTH, Unscannable};
use crate::analysis::budget::Budget;
use crate::analysis::handoff::Analyses;
use crate::analysis::moves::{self, Move};
use crate::analysis::persistent::Left;
use crate::analysis::scope::Scope;
use crate::analysis::targets::Targets;

pub fn targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    let mut walker = Walker::new(false, analyses);
    let mut scope = Scope::<Bash>::fresh(base);
    walker.script(command, &mut scope, 0)?;
    walker.finish().map(|(found, _)| found)
}

/// The files `command` writes when run in `scope` (a persistent shell's state), and every state
/// it may leave: after each `cd` of the shell itself, and at its end. A state a sure `popd` later
/// in the line leaves again is only passed through ([`Left::passed`]).
pub fn targets_from(
    command: &str,
    scope: &Scope<Bash>,
    analyses: &dyn Analyses,
) -> Result<(Vec<PathBuf>, Left<Scope<Bash>>), Unscannable> {
    let mut walker = Walker::new(true, analyses);
    let mut scope = scope.clone();
    walker.script(command, &mut scope, 0)?;
    let (found, states) = walker.finish()?;
    let (passed, mut ended): (Vec<_>, Vec<_>) = states.into_iter().partition(|reached| reached.passed);
    let ended = ended.drain(..).map(|reached| reached.scope).chain(std::iter::once(scope)).collect();
    Ok((found, Left { ended, passed: passed.into_iter().map(|reached| reached.scope).collect() }))
}

/// A state a persistent shell's own `cd` reached during the walk.
struct Reached {
    scope: Scope<Bash>,
    /// A sure `popd` later in the line leaves it again: the shell is left there only if the call
    /// stopped before its end.
    passed: bool,
}

/// A `pushd` of the shell itself: what a sure `popd` of the stack it made undoes.
struct Pushed {
    /// The stack's depth after it.
    depth: usize,
    /// The first state recorded after it (its own).
    first_state: usize,
    /// How many targets were recorded before it.
    targets: usize,
}

struct Walker<'a> {
    /// The other analyses, for what a command hands them (`pwsh -c`, `python3 -c`, a patch).
    analyses: &'a dyn Analyses,
    budget: Budget,
    /// The files written; more than [`super::MAX_TARGETS`] is refused: each costs the gates a
    /// real-path lookup.
    targets: Targets,
    /// The text the command, its nested scripts and its expansions may amount to.
    text: Budget,
    home: Home,
    /// How many scopes that are dropped when they end (subshells, functions, `bash -c`) the walk
    /// is inside of: a `cd` at 0 changes the shell itself.
    isolated: usize,
    /// The shell's states after each of its own `cd`s, kept for a persistent shell.
    states: Option<Vec<Reached>>,
    /// The `pushd`s of the shell itself whose directory is still on its stack.
    pushed: Vec<Pushed>,
    /// The shell's own last change of directory (which sets `$OLDPWD`): the state it reached,
    /// and how many targets were recorded before it.
    last_cd: Option<(usize, usize)>,
    /// The file `cat` feeds the command being judged through a pipe, if that is all it does.
    piped_file: RefCell<Option<Arg>>,
    /// Files this command line wrote with text it shows (`cat > s.py <<EOF`), for a script run
    /// later in the line (a few at most: a list, not a map).
    files: Vec<(PathBuf, String)>,
    /// The directory changes the line made, (from, to), each once ([`moves::from_every_directory`]).
    moves: Vec<Move>,
    /// Changes made by a `cd` whose failure would stop an `&&` chain, until the walk leaves the
    /// chain: (script serial, depth of the chain's outermost list, the changes).
    sure: Vec<(usize, usize, std::ops::Range<usize>)>,
    /// Scripts walked so far (nested ones included).
    scripts: usize,
    /// The guarded locations the last script asked about names, by its serial
    /// ([`Walk::serial`]).
    named: Option<(usize, Rc<[PathBuf]>)>,
    /// The folders the line made git's hooks path (`git config core.hooksPath d`).
    hooks_folders: Vec<PathBuf>,
    /// The walk is inside a hook a git command ran: the hooks that one's git commands run are
    /// those being run already.
    running_hooks: bool,
    /// Directories the line made so far, at most [`MAX_MADE_DIRS`]: a copy into one lands inside
    /// it. `None` once one the walk could not compute (or one too many) was made.
    made_dirs: Option<Vec<PathBuf>>,
    /// The paths git put another version of in its index so far ([`commands::Effect::Stages`]),
    /// at most [`MAX_MADE_DIRS`]: a restore from the index brings back the guarded files under
    /// them. `None` once one too many was: then under any.
    staged: Option<Vec<PathBuf>>,
    /// Symbolic links the line made anywhere, subshells and shells it started included: (link,
    /// what it points to), absolute.
    links: Vec<(PathBuf, PathBuf)>,
    /// Texts judged as expanded again (a prompt, a subscript in arithmetic), each once.
    expanded: Vec<String>,
    /// Names the line gave a value the walk could not compute, for arithmetic that reads them.
    uncomputed_names: Vec<String>,
    /// More such names than are kept: every name counts as one.
    uncomputed_names_overflow: bool,
    /// What the command being judged reads on its standard input, when the line shows anything
    /// of it: the standard input of a script it runs (`echo … | bash -c sh`).
    input: Option<Rc<Input>>,
}

/// The most directories a line makes that the walk keeps; past them any may be one.
const MAX_MADE_DIRS: usize = 64;

impl Walker<'_> {
    fn new(keep_states: bool, analyses: &dyn Analyses) -> Walker<'_> {
        Walker {
            analyses,
            budget: Budget::new(MAX_PARSE_CHECKS),
            targets: Targets::default(),
            text: Budget::new(MAX_EXPANDED_BYTES),
            home: Home::default(),
            isolated: 0,
            states: keep_states.then(Vec::new),
            pushed: Vec::new(),
            last_cd: None,
            piped_file: RefCell::new(None),
            files: Vec::new(),
            moves: Vec::new(),
            sure: Vec::new(),
            scripts: 0,
            named: None,
            hooks_folders: Vec::new(),
            running_hooks: false,
            made_dirs: Some(Vec::new()),
            staged: Some(Vec::new()),
            links: Vec::new(),
            expanded: Vec::new(),
            uncomputed_names: Vec::new(),
            uncomputed_names_overflow: false,
            input: None,
        }
    }

    fn finish(mut self) -> Result<(Vec<PathBuf>, Vec<Reached>), Unscannable> {
        if self.targets.over_cap() || !moves::from_every_directory(&mut self.targets, &self.moves) {
            return Err(Unscannable::TooManyTargets);
        }
        Ok((self.targets.into_paths(), self.states.unwrap_or_default()))
    }
}

/// tree-sitter-bash parses `cd x && a 2>&1 | tee f` as `(cd x && a 2>&1) | tee f`; bash runs the
/// `&&` chain before `a` in the shell itself, so that first stage is not a scope of its own.
fn parsed_list_before_pipe(stage: Node, pipeline: Option<Node>) -> bool {
    node_kind(stage) == "redirected_statement"
        && stage.child_by_field_name("body").is_some_and(|body| node_kind(body) == "list")
        && pipeline.and_then(|pipeline| pipeline.named_children().next()).is_some_and(|first| first.id() == stage.id())
}

/// The depth of the outermost `&&` list around the command element at `depth` whose every level
/// is `&&` (or of the redirection around it): past a `cd` there, the rest of that chain runs only
/// if it succeeded.
fn and_chain_top(depth: usize, ancestors: &[Frame]) -> Option<usize> {
    let is_and = |frame: &Frame| {
        node_kind(frame.node) == "list"
            && frame.node.children().any(|(child, _)| node_kind(child) == "&&")
            && !frame.node.children().any(|(child, _)| node_kind(child) == "||")
    };
    let mut top = None;
    let mut at = depth;
    while let Some(parent) = at.checked_sub(1).and_then(|d| ancestors.get(d)) {
        // `a && b > f && c`: tree-sitter hangs the redirection on the list `a && b`, but bash
        // gives it to `b`, and the chain goes on to `c`.
        let redirected_chain = top.is_some()
            && node_kind(parent.node) == "redirected_statement"
            && at.checked_sub(2).and_then(|d| ancestors.get(d)).is_some_and(is_and);
        if !is_and(parent) && !redirected_chain {
            break;
        }
        at -= 1;
        if !redirected_chain {
            top = Some(at);
        }
    }
    // `a && b > f`: the redirection hangs on the list, but bash gives it to the last command.
    let statement = top.and_then(|top| top.checked_sub(1)).and_then(|d| ancestors.get(d));
    match (top, statement) {
        (Some(top), Some(statement)) if node_kind(statement.node) == "redirected_statement" => Some(top - 1),
        _ => top,
    }
}

/// A node the cursor is inside of.
struct Frame<'t> {
    node: Node<'t>,
    /// The scope to restore when the node ends (a subshell).
    restore: Option<Box<Scope<Bash>>>,
    /// Nothing in it counts (after an unterminated quote, or data).
    skip: bool,
    /// The loop input to restore when the node ends (a loop that reads known text).
    input: Option<Option<Rc<str>>>,
}

/// One script's walk: its source and where an unterminated quote starts.
struct Walk<'s> {
    source: &'s str,
    nesting: usize,
    /// Which script of the line this is (for [`Walker::sure`]).
    serial: usize,
    /// Everything from here on is inside an unterminated quote: bash reads it as data.
    cutoff: usize,
    /// The script's own standard input: what the command that runs it reads, which its commands
    /// read unless they are given another.
    stdin: Option<Rc<Input>>,
}

impl Walk<'_> {
    /// What a command reads that is given no input of its own: the script's.
    fn inherited_input(&self) -> Input {
        self.stdin.as_deref().cloned().unwrap_or_default()
    }

    fn text(&self, node: Node) -> &str {
        self.source.get(node.byte_range()).unwrap_or_default()
    }

    fn counts(&self, node: Node) -> bool {
        node.start_byte() < self.cutoff
    }
}

const QUOTES: [&str; 5] = ["'", "\"", "`", "$'", "$\""];

/// A command's name and argument nodes, in order.
fn command_words(command: Node) -> Vec<Node> {
    let mut words = Vec::with_capacity(usize::try_from(command.child_count()).unwrap_or_default());
    for (child, field) in command.children() {
        match field {
            Some("name") => words.extend(child.named_child(0)),
            Some("argument") => words.push(child),
            _ => {}
        }
    }
    words
}

/// Literal nodes that bash reads as one word: adjacent, or separated only by backslash escapes
/// (tree-sitter splits `a\<newline>b` in two, and drops the escaped blank of `'a'\ b`).
fn word_groups<'n, 't>(nodes: &'n [Node<'t>], source: &'n str) -> impl Iterator<Item = &'n [Node<'t>]> {
    let joined = |before: &Node, after: &Node| {
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
    nodes.chunk_by(joined)
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

impl Walker<'_> {
    /// `source` walked in `scope`; a script with extglob patterns (`@(plans)`), which
    /// tree-sitter-bash reads as subshells, is walked once more with each pattern spelled as a
    /// glob (as bash with `extglob` on reads it), in a scope of its own.
    fn script(&mut self, source: &str, scope: &mut Scope<Bash>, nesting: usize) -> Result<(), Unscannable> {
        let extglob = extglob_as_globs(source);
        let before = extglob.as_ref().map(|_| scope.clone());
        self.walk_script(source, scope, nesting)?;
        if let (Some(globs), Some(mut apart)) = (extglob, before) {
            self.isolated += 1;
            let walked = self.walk_script(&globs, &mut apart, nesting);
            self.isolated = self.isolated.saturating_sub(1);
            walked?;
        }
        Ok(())
    }

    fn walk_script(&mut self, source: &str, scope: &mut Scope<Bash>, nesting: usize) -> Result<(), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        // Nested scripts (`eval`, `bash -c`) are text the command grew into; the command itself
        // has its own cap.
        if nesting > 0 && !self.text.charge(source.len()) {
            return Err(Unscannable::TooMuchText);
        }
        let tree = Flat::new(&parse(source, &self.budget)?)?;
        self.scripts += 1;
        let stdin = self.input.clone();
        let mut walk = Walk { source, nesting, serial: self.scripts, cutoff: usize::MAX, stdin };
        // Deep enough for most lines without growing.
        let mut frames: Vec<Frame> = Vec::with_capacity(16);
        let mut node = tree.root();
        loop {
            if frames.len() >= MAX_TREE_DEPTH {
                return Err(Unscannable::TooDeep);
            }
            if self.text.exhausted() {
                return Err(Unscannable::TooMuchText);
            }
            let frame = self.enter(node, &frames, &mut walk, scope)?;
            let descend = !frame.skip;
            frames.push(frame);
            if let Some((child, _)) = node.children().next().filter(|_| descend) {
                node = child;
                continue;
            }
            loop {
                let Some(frame) = frames.pop() else { return Ok(()) };
                self.leave(&frame, &frames, &mut walk, scope)?;
                if frames.is_empty() {
                    return Ok(());
                }
                if let Some(next) = frame.node.next_sibling() {
                    node = next;
                    break;
                }
            }
        }
    }

    fn enter<'t>(
        &mut self,
        node: Node<'t>,
        frames: &[Frame<'t>],
        walk: &mut Walk,
        scope: &mut Scope<Bash>,
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
        let mut frame = Frame { node, restore: None, skip: !walk.counts(node), input: None };
        if frame.skip {
            return Ok(frame);
        }
        match kind {
            // A function body is walked where it is defined (its writes count), but defining it
            // runs nothing: its `cd` stays inside.
            "subshell" | "command_substitution" | "process_substitution" | "function_definition" => {
                frame.restore = Some(Box::new(scope.clone()))
            }
            _ if parent_kind == Some("pipeline") && node.is_named() && !parsed_list_before_pipe(node, parent) => {
                frame.restore = Some(Box::new(scope.clone()))
            }
            _ => {}
        }
        self.isolated += usize::from(frame.restore.is_some());
        if let Some(arithmetic) = evaluated::arithmetic(node, walk) {
            self.evaluates(node, arithmetic, walk, scope)?;
        }
        if kind == "expansion" && walk.text(node).ends_with("@P}") {
            self.prompt_expansion(node, walk, scope)?;
        }
        match kind {
            "heredoc_body" => {
                // A quoted delimiter makes the body plain data; otherwise its substitutions run.
                let quoted = redirects::quoted_heredoc(node, walk);
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
            "for_statement" => self.for_loop(node, walk, scope)?,
            "while_statement" => {
                let input = self.loop_input(node, frames, walk, scope)?;
                frame.input = Some(scope.input().cloned());
                scope.set_input(input.map(Rc::from));
            }
            "redirected_statement" => {
                let body = node.child_by_field_name("body");
                if !body.is_some_and(|b| matches!(node_kind(b), "command" | "list" | "pipeline")) {
                    let parts = self.redirections(node, walk);
                    let mut ignored = Vec::new();
                    for file in parts.files {
                        self.redirect(file, walk, scope, &mut ignored)?;
                    }
                }
            }
            "file_redirect"
                if !matches!(parent_kind, Some("command" | "redirected_statement" | "heredoc_redirect")) =>
            {
                let mut ignored = Vec::new();
                self.redirect(node, walk, scope, &mut ignored)?;
            }
            // `[ a > b ]` is a redirection in bash (unlike `[[ a > b ]]`).
            "test_command" if node.child(0).is_some_and(|open| node_kind(open) == "[") => {
                for (child, _) in node.children() {
                    if node_kind(child) == "binary_expression"
                        && child.child_by_field_name("operator").is_some_and(|op| matches!(node_kind(op), ">" | ">>"))
                        && let Some(right) = child.child_by_field_name("right")
                    {
                        let mut args = Vec::new();
                        self.expand(&[right], walk, scope, &mut args)?;
                        for arg in args {
                            self.add(&arg.text, &scope.base, scope.links());
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
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        self.leave_node(frame, ancestors, walk, scope)?;
        while let Some((serial, depth, changes)) = self.sure.last().cloned()
            && serial == walk.serial
            && depth == ancestors.len()
        {
            // What ran inside the chain ran only if the `cd` succeeded: only later writes can
            // follow its failure.
            let found = self.targets.len();
            for change in self.moves.get_mut(changes).into_iter().flatten().filter(|change| !change.uncomputed) {
                change.after = change.after.max(found);
            }
            self.sure.pop();
        }
        Ok(())
    }

    fn leave_node<'t>(
        &mut self,
        frame: &Frame<'t>,
        ancestors: &[Frame<'t>],
        walk: &mut Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        if frame.skip {
            return Ok(());
        }
        let node = frame.node;
        let parent = ancestors.last();
        let mut defined = None;
        match node_kind(node) {
            "function_definition" => defined = node.child_by_field_name("name").zip(node.child_by_field_name("body")),
            "command" => {
                let statement = parent
                    .filter(|p| node_kind(p.node) == "redirected_statement" && frame.node.field() == Some("body"));
                // The element of a pipeline this command is (with its redirections).
                let depth = ancestors.len().saturating_sub(usize::from(statement.is_some()));
                let element = statement.map_or(node, |s| s.node);
                let upstream = match (
                    depth.checked_sub(1).and_then(|d| ancestors.get(d)),
                    depth.checked_sub(2).and_then(|d| ancestors.get(d)),
                ) {
                    (Some(pipeline), grand)
                        if node_kind(pipeline.node) == "pipeline" && !ignores_what_it_reads(node, walk) =>
                    {
                        self.upstream(element, pipeline.node, grand.map(|g| g.node), walk, scope)?
                    }
                    _ => walk.inherited_input(),
                };
                let runs_whatever = statement.is_none_or(|s| returns::redirections_cannot_fail(s.node, walk));
                let sure_popd = runs_whatever.then(|| self.sure_popd(node, ancestors, walk, scope)).flatten();
                let sure_cd_back = runs_whatever.then(|| self.sure_cd_back(node, ancestors, walk, scope)).flatten();
                let sure_cd_to = runs_whatever.then(|| self.sure_cd_to(node, ancestors, walk, scope)).flatten();
                let (moves_before, scripts_before) = (self.moves.len(), self.scripts);
                let redirected = statement.map(|p| p.node).or_else(|| redirection_of_its_list(node, ancestors));
                self.command(node, redirected, upstream, walk, scope)?;
                if let Some(sure) = sure_popd {
                    self.popped(sure, moves_before);
                }
                if let Some(back) = sure_cd_back {
                    self.returned(&back);
                }
                if let Some(to) = sure_cd_to {
                    // It cannot fail: what is written after it is not also where the line was.
                    self.moves.truncate(moves_before);
                    self.returned(&to);
                }
                // A `cd` of this script itself (not one inside a script the command ran).
                if self.moves.len() > moves_before
                    && self.scripts == scripts_before
                    && let Some(top) = and_chain_top(depth, ancestors)
                {
                    self.sure.push((walk.serial, top, moves_before..self.moves.len()));
                }
            }
            // `declare -n ref=value`: `$ref` reads another variable by its name, which the walk
            // does not follow; unknown (P-18).
            "variable_assignment" if parent.is_some_and(|p| declares_nameref(p.node, walk)) => {
                if let Some(name) = node.child_by_field_name("name") {
                    scope.forget(walk.text(name));
                    self.assigned_uncomputed(walk.text(name));
                }
            }
            "variable_assignment" if parent.is_some_and(|p| node_kind(p.node) != "command") => {
                self.assignment(node, walk, scope);
                if let Some(name) = node.child_by_field_name("name") {
                    if scope.exports_assignments() {
                        scope.export(walk.text(name));
                    }
                    self.variable_runs(walk.text(name), walk, scope)?;
                    // `declare -i x; x='a[$(cmd)]'`: an integer's value is evaluated as assigned.
                    if declares_integers(walk.source) {
                        self.evaluates(node, evaluated::Arithmetic::Evaluated, walk, scope)?;
                    }
                }
            }
            "declaration_command" if exports(node, walk) => {
                for (child, _) in node.children() {
                    let name = match node_kind(child) {
                        "variable_assignment" => child.child_by_field_name("name"),
                        "variable_name" => Some(child),
                        _ => None,
                    };
                    if let Some(name) = name {
                        scope.export(walk.text(name));
                    }
                }
            }
            "unset_command" => {
                for (child, _) in node.children() {
                    if matches!(node_kind(child), "word" | "variable_name") {
                        scope.forget(walk.text(child));
                        if scope.function(walk.text(child)).is_some() {
                            scope.defined.make_mut().functions.remove(walk.text(child));
                        }
                    }
                }
            }
            _ => {}
        }
        if let Some(saved) = &frame.restore {
            *scope = Scope::<Bash>::clone(saved);
            self.isolated = self.isolated.saturating_sub(1);
        }
        if let Some(input) = &frame.input {
            scope.set_input(input.clone());
        }
        // Defined once its definition is read; its body ran in a scope of its own.
        if let Some((name, body)) = defined {
            scope.defined.make_mut().functions.insert(walk.text(name).to_string(), Rc::from(walk.text(body)));
        }
        Ok(())
    }
}

/// What a command reads on its standard input, as far as the line shows it.
#[derive(Clone, Default)]
struct Input {
    text: Option<String>,
    /// The words of the producer, when what it prints is unknown; the first names it (`<` for a
    /// file, the kind of a compound stage).
    producer: Vec<Arg>,
}

/// Filters whose standard input no analysis reads (it is neither code, nor a patch, nor text a
/// file is shown to get): a pipeline element named so, as typed, needs no look at its producer.
fn ignores_what_it_reads(command: Node, walk: &Walk) -> bool {
    const FILTERS: [&str; 16] = [
        "column", "cut", "egrep", "fgrep", "fold", "grep", "head", "less", "more", "nl", "rg", "sort", "tail", "tr",
        "uniq", "wc",
    ];
    let name = command.child_by_field_name("name").map(|name| walk.text(name)).unwrap_or_default();
    FILTERS.binary_search(&name).is_ok()
}

/// The statement whose redirections tree-sitter hangs on the list or pipeline `command` ends
/// (`a && b < f`, `cd x && a 2>&1 | tee f`): bash gives them to that last command.
fn redirection_of_its_list<'t>(command: Node<'t>, ancestors: &[Frame<'t>]) -> Option<Node<'t>> {
    let mut child = command;
    for frame in ancestors.iter().rev() {
        let node = frame.node;
        match node_kind(node) {
            "list" | "pipeline" if node.named_children().last().is_some_and(|last| last.id() == child.id()) => {
                child = node;
            }
            "redirected_statement" if child.id() != command.id() && child.field() == Some("body") => {
                return Some(node);
            }
            _ => return None,
        }
    }
    None
}

/// `source` with each extglob pattern (within a line) spelled as a glob matching at least what
/// it matches: `@(a|b)` as `{a,b}`, `?(a)` as `{,a}`, `+(a|b)` as `{a,b}*`, `*(…)`, `!(…)` and
/// nested ones as `*`; `None` when it has none.
fn extglob_as_globs(source: &str) -> Option<String> {
    let mut spelled: Option<String> = None;
    let mut copied = 0;
    let mut at = 1;
    while let Some(open) = source.get(at..).and_then(|rest| rest.find('(')).map(|offset| at + offset) {
        at = open + 1;
        let kind = source.as_bytes().get(open - 1).copied();
        if !kind.is_some_and(|kind| b"@+*?!".contains(&kind)) {
            continue;
        }
        let mut depth = 0usize;
        let Some(close) = source.get(open..).unwrap_or_default().char_indices().find_map(|(offset, c)| {
            depth = match c {
                '(' => depth + 1,
                ')' => depth - 1,
                _ => depth,
            };
            (depth == 0 || c == '\n').then_some(open + offset)
        }) else {
            continue;
        };
        if source.as_bytes().get(close) != Some(&b')') {
            continue;
        }
        let inner = source.get(open + 1..close).unwrap_or_default();
        let plain = !inner.contains(['(', ')', ',', '{', '}', '\'', '"', '\\', ' ', '\t']);
        let alternatives = || match inner.contains('|') {
            true => format!("{{{}}}", inner.replace('|', ",")),
            false => inner.to_string(),
        };
        let glob = match kind {
            Some(b'@') if plain => alternatives(),
            Some(b'?') if plain => format!("{{,{}}}", inner.replace('|', ",")),
            Some(b'+') if plain => format!("{}*", alternatives()),
            _ => "*".to_string(),
        };
        let out = spelled.get_or_insert_with(String::new);
        out.push_str(source.get(copied..open - 1).unwrap_or_default());
        out.push_str(&glob);
        copied = close + 1;
        at = close + 1;
    }
    let mut out = spelled?;
    out.push_str(source.get(copied..).unwrap_or_default());
    Some(out)
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

/// Whether `node` is `export`, or `declare`, `typeset` or `local` with the `-x` attribute.
fn exports(node: Node, walk: &Walk) -> bool {
    let mut words = node.children().map(|(child, _)| walk.text(child));
    words.next() == Some("export") || words.any(|word| word.starts_with('-') && word.contains('x'))
}

/// Whether `source` gives a variable the integer attribute (`declare -i`, `local -ai`, …).
fn declares_integers(source: &str) -> bool {
    let mut words = source.split(|c: char| c.is_whitespace() || c == ';');
    while let Some(word) = words.next() {
        if matches!(word, "declare" | "typeset" | "local" | "export" | "readonly")
            && words.clone().take_while(|flags| flags.starts_with(['-', '+'])).any(|flags| flags.contains('i'))
        {
            return true;
        }
    }
    false
}

/// Whether `node` is `declare`, `typeset` or `local` with the `-n` (nameref) attribute.
fn declares_nameref(node: Node, walk: &Walk) -> bool {
    node_kind(node) == "declaration_command"
        && node.children().any(|(child, _)| {
            let text = walk.text(child);
            node_kind(child) == "word" && text.starts_with('-') && text.contains('n')
        })
}
