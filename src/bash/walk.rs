//! The walk over a bash syntax tree, read once into a flat array ([`super::tree`]), with no
//! recursion over the tree (nesting can be thousands deep). Commands are judged when the walk
//! leaves them, after the substitutions in their words; redirections are judged in the directory
//! they open in. `cd`, `pushd`, `popd` and variable assignments change the scope in sequence;
//! subshells, substitutions and pipeline elements get a copy that is dropped when they end.
//! Scripts nested in strings (`bash -c`, `eval`) are parsed again, at most
//! [`MAX_SCRIPT_NESTING`] deep.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::cache;
use super::parse::{Budget, parse};
use super::tree::{Flat, Node, node_kind};
use super::words::{self, Arg, Context, Home, MAX_VALUES, Positional, TextBudget, Value, Vars};
use super::{
    MAX_COMMAND_WORDS, MAX_EXPANDED_BYTES, MAX_PARSE_CHECKS, MAX_SCRIPT_NESTING, MAX_TARGETS, MAX_TREE_DEPTH,
    ProgramAnalysis, Unscannable,
};
use crate::commands::{self, Cd, Effect, PatchRead};
use crate::paths;
use crate::programs::{self, Invocation, MAX_SCRIPT_FILE_BYTES, Source};

pub fn targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    let mut walker = Walker::new(false);
    let mut scope = Scope::fresh(base);
    walker.script(command, &mut scope, 0)?;
    walker.finish().map(|(found, _)| found)
}

/// The files `command` writes when run in `scope` (a persistent shell's state), and every state
/// it may leave: after each `cd` of the shell itself, and at its end.
pub fn targets_from(command: &str, scope: &Scope) -> Result<(Vec<PathBuf>, Vec<Scope>), Unscannable> {
    let mut walker = Walker::new(true);
    let mut scope = scope.clone();
    walker.script(command, &mut scope, 0)?;
    let (found, mut states) = walker.finish()?;
    states.push(scope);
    Ok((found, states))
}

/// What a shell carries from one command to the next. A persistent shell keeps a set of them
/// between calls (P-15): whatever field is added here must be merged in [`Scope::merge`].
#[derive(Clone, PartialEq)]
pub struct Scope {
    base: PathBuf,
    oldpwd: Option<PathBuf>,
    /// `pushd`'s stack.
    dirs: Vec<PathBuf>,
    vars: Rc<Vars>,
    /// What the line defined beyond variables; shared, and allocated only once it defines one.
    defined: Shared<Defined>,
}

/// The state a line can define besides variables and directories.
#[derive(Clone, Default, PartialEq)]
struct Defined {
    /// `$0`, `$1`, …: known inside a function the line calls or a `bash -c '…' a b` it runs.
    positional: Option<Rc<Positional>>,
    /// Functions the line defined: their bodies, run again where they are called.
    functions: HashMap<String, Rc<str>>,
    aliases: HashMap<String, String>,
    /// Symbolic links the line made, absolute: (link, what it points to).
    links: Vec<(PathBuf, PathBuf)>,
    /// The known text a loop reads (`while read f; do …; done <<< A`, `echo A | while read …`).
    input: Option<Rc<str>>,
}

/// A value scopes share, allocated when first written: most command lines define nothing.
#[derive(Clone)]
struct Shared<T>(Option<Rc<T>>);

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl Defined {
    /// Roughly the bytes these definitions hold (a persistent shell's state cap).
    fn weight(&self) -> usize {
        let functions: usize = self.functions.iter().map(|(name, body)| name.len() + body.len()).sum();
        let aliases: usize = self.aliases.iter().map(|(name, value)| name.len() + value.len()).sum();
        let links: usize =
            self.links.iter().map(|(link, target)| link.as_os_str().len() + target.as_os_str().len()).sum();
        let input = self.input.as_ref().map_or(0, |input| input.len());
        functions + aliases + links + input
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared(None)
    }
}

impl<T: Clone + Default> Shared<T> {
    fn read(&self) -> Option<&T> {
        self.0.as_deref()
    }

    fn make_mut(&mut self) -> &mut T {
        Rc::make_mut(self.0.get_or_insert_with(Rc::default))
    }
}

/// The most links one command line is followed through; later ones are not remembered.
const MAX_LINKS: usize = 64;
/// Link hops followed from one target (a link to a link).
const MAX_LINK_HOPS: usize = 8;
/// Lines of known input that `read` assigns (each is one possible value).
const MAX_READ_LINES: usize = MAX_VALUES;

impl Scope {
    /// A shell that has just started in `base`.
    pub fn fresh(base: &Path) -> Scope {
        Scope {
            base: base.to_path_buf(),
            oldpwd: None,
            dirs: Vec::new(),
            vars: Rc::default(),
            defined: Shared::default(),
        }
    }

    /// A child shell (`bash -c`, a piped script): the same directory, variables and links,
    /// its own parameters, none of the functions or aliases (they are not exported).
    fn child(&self, positional: Option<Positional>) -> Self {
        let mut child = Scope { defined: Shared::default(), ..self.clone() };
        if let Some(positional) = positional {
            child.defined.make_mut().positional = Some(Rc::new(positional));
        }
        if !self.links().is_empty() {
            child.defined.make_mut().links = self.links().to_vec();
        }
        child
    }

    fn links(&self) -> &[(PathBuf, PathBuf)] {
        self.defined.read().map_or(&[], |defined| defined.links.as_slice())
    }

    fn positional(&self) -> Option<&Rc<Positional>> {
        self.defined.read()?.positional.as_ref()
    }

    fn set_positional(&mut self, positional: Option<Rc<Positional>>) {
        if positional.is_some() || self.positional().is_some() {
            self.defined.make_mut().positional = positional;
        }
    }

    fn input(&self) -> Option<&Rc<str>> {
        self.defined.read()?.input.as_ref()
    }

    fn set_input(&mut self, input: Option<Rc<str>>) {
        if input.is_some() || self.input().is_some() {
            self.defined.make_mut().input = input;
        }
    }

    fn function(&self, name: &str) -> Option<Rc<str>> {
        self.defined.read()?.functions.get(name).cloned()
    }

    fn alias(&self, name: &str) -> Option<String> {
        self.defined.read()?.aliases.get(name).cloned()
    }

    /// Whether `other` is in the same directories (`$PWD`, `$OLDPWD`, the `pushd` stack) with the
    /// same functions, aliases and links: only such states fold into one.
    pub fn same_place(&self, other: &Scope) -> bool {
        self.base == other.base
            && self.oldpwd == other.oldpwd
            && self.dirs == other.dirs
            && self.defined == other.defined
    }

    /// Folds `other` (same place) into this one: a variable takes the values of both, or, set in
    /// one only, may also be empty; past [`MAX_VALUES`] it is unknown.
    pub fn merge(&mut self, other: &Scope) {
        if Rc::ptr_eq(&self.vars, &other.vars) || self.vars == other.vars {
            return;
        }
        let unset = Value { text: String::new(), dynamic: false };
        let vars = Rc::make_mut(&mut self.vars);
        let names: Vec<String> = vars.keys().chain(other.vars.keys()).cloned().collect();
        for name in names {
            let mut values = vars.remove(&name).unwrap_or_else(|| vec![unset.clone()]);
            for value in other.vars.get(&name).map_or_else(|| vec![unset.clone()], Clone::clone) {
                if !values.contains(&value) {
                    values.push(value);
                }
            }
            if values.len() <= MAX_VALUES {
                vars.insert(name, values);
            }
        }
    }

    /// Roughly the bytes this state holds.
    pub fn weight(&self) -> usize {
        let dirs: usize = self.dirs.iter().map(|dir| dir.as_os_str().len()).sum();
        let vars: usize = self
            .vars
            .iter()
            .map(|(name, values)| name.len() + values.iter().map(|v| v.text.len() + 8).sum::<usize>())
            .sum();
        let defined = self.defined.read().map_or(0, Defined::weight);
        self.base.as_os_str().len()
            + self.oldpwd.as_ref().map_or(0, |dir| dir.as_os_str().len())
            + dirs
            + vars
            + defined
    }

    /// The same directories, no variables.
    pub fn without_vars(&self) -> Scope {
        Scope { vars: Rc::default(), ..self.clone() }
    }

    fn forget(&mut self, name: &str) {
        if self.vars.contains_key(name) {
            Rc::make_mut(&mut self.vars).remove(name);
        }
        // An array's elements go with it.
        let element = |key: &String| key.strip_prefix(name).is_some_and(|rest| rest.starts_with('['));
        if self.vars.keys().any(element) {
            Rc::make_mut(&mut self.vars).retain(|key, _| !element(key));
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
    home: Home,
    /// How many scopes that are dropped when they end (subshells, functions, `bash -c`) the walk
    /// is inside of: a `cd` at 0 changes the shell itself.
    isolated: usize,
    /// The shell's states after each of its own `cd`s, kept for a persistent shell.
    states: Option<Vec<Scope>>,
    /// The file `cat` feeds the command being judged through a pipe, if that is all it does.
    piped_file: RefCell<Option<Arg>>,
    /// Files this command line wrote with text it shows (`cat > s.py <<EOF`), for a script run
    /// later in the line (a few at most: a list, not a map).
    files: Vec<(PathBuf, String)>,
    /// The directory changes the line made, (from, to), each once ([`super::from_every_directory`]).
    moves: Vec<super::Move>,
    /// Changes made by a `cd` whose failure would stop an `&&` chain, until the walk leaves the
    /// chain: (script serial, depth of the chain's outermost list, the changes).
    sure: Vec<(usize, usize, std::ops::Range<usize>)>,
    /// Scripts walked so far (nested ones included).
    scripts: usize,
}

impl Walker {
    fn new(keep_states: bool) -> Walker {
        Walker {
            budget: Budget::new(MAX_PARSE_CHECKS),
            found: Vec::new(),
            seen: HashSet::new(),
            too_many: false,
            text: TextBudget::new(MAX_EXPANDED_BYTES),
            home: Home::default(),
            isolated: 0,
            states: keep_states.then(Vec::new),
            piped_file: RefCell::new(None),
            files: Vec::new(),
            moves: Vec::new(),
            sure: Vec::new(),
            scripts: 0,
        }
    }

    fn finish(mut self) -> Result<(Vec<PathBuf>, Vec<Scope>), Unscannable> {
        if self.too_many || !super::from_every_directory(&mut self.found, &mut self.seen, &self.moves) {
            return Err(Unscannable::TooManyTargets);
        }
        Ok((self.found, self.states.unwrap_or_default()))
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
    let mut top = None;
    let mut at = depth;
    while let Some(parent) = at.checked_sub(1).and_then(|d| ancestors.get(d)) {
        let is_and = node_kind(parent.node) == "list"
            && parent.node.children().any(|(child, _)| node_kind(child) == "&&")
            && !parent.node.children().any(|(child, _)| node_kind(child) == "||");
        if !is_and {
            break;
        }
        at -= 1;
        top = Some(at);
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
    restore: Option<Box<Scope>>,
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

fn is_device(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    matches!(bytes, b"/dev/null" | b"/dev/stdin" | b"/dev/stdout" | b"/dev/stderr" | b"/dev/tty")
        // Both folders end in a component `fd`; comparing components costs more than finding one.
        || bytes.windows(3).any(|w| w == b"/fd") && (path.starts_with("/dev/fd") || path.starts_with("/proc/self/fd"))
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
        let tree = Flat::new(&parse(source, &mut self.budget)?)?;
        self.scripts += 1;
        let mut walk = Walk { source, nesting, serial: self.scripts, cutoff: usize::MAX };
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
        scope: &mut Scope,
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
        match kind {
            "heredoc_body" => {
                // A quoted delimiter makes the body plain data; otherwise its substitutions run.
                let quoted = parent.is_some_and(|heredoc| {
                    heredoc.children().any(|(child, _)| {
                        node_kind(child) == "heredoc_start" && walk.text(child).contains(['\'', '"', '\\'])
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
        scope: &mut Scope,
    ) -> Result<(), Unscannable> {
        self.leave_node(frame, ancestors, walk, scope)?;
        while let Some((serial, depth, changes)) = self.sure.last().cloned()
            && serial == walk.serial
            && depth == ancestors.len()
        {
            // What ran inside the chain ran only if the `cd` succeeded: only later writes can
            // follow its failure.
            let found = self.found.len();
            for change in self.moves.get_mut(changes).into_iter().flatten() {
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
        scope: &mut Scope,
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
                    _ => Input::default(),
                };
                let (moves_before, scripts_before) = (self.moves.len(), self.scripts);
                self.command(node, statement.map(|p| p.node), upstream, walk, scope)?;
                // A `cd` of this script itself (not one inside a script the command ran).
                if self.moves.len() > moves_before
                    && self.scripts == scripts_before
                    && let Some(top) = and_chain_top(depth, ancestors)
                {
                    self.sure.push((walk.serial, top, moves_before..self.moves.len()));
                }
            }
            "variable_assignment" if parent.is_some_and(|p| node_kind(p.node) != "command") => {
                self.assignment(node, walk, scope);
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
            "redirected_statement" => {
                // `a && b > f`: tree-sitter hangs the redirection on the list; bash gives it to
                // the last command, which runs after the others.
                if let Some(body) =
                    node.child_by_field_name("body").filter(|b| matches!(node_kind(b), "list" | "pipeline"))
                {
                    let parts = self.redirections(node, walk);
                    let mut ignored = Vec::new();
                    for file in &parts.files {
                        self.redirect(*file, walk, scope, &mut ignored)?;
                    }
                    if let (Some(stdin), Some(command)) = (parts.stdin, last_command(body)) {
                        self.fed_command(command, stdin, walk, scope)?;
                    }
                    if let Some(command) = last_command(body) {
                        self.fed_patch(command, &parts.files, walk, scope)?;
                    }
                }
            }
            _ => {}
        }
        if let Some(saved) = &frame.restore {
            *scope = Scope::clone(saved);
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

    /// The redirections of a `redirected_statement`, those inside its heredocs included.
    fn redirections<'t>(&self, statement: Node<'t>, walk: &Walk) -> Redirections<'t> {
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
    fn upstream<'t>(
        &self,
        element: Node<'t>,
        pipeline: Node<'t>,
        outer: Option<Node<'t>>,
        walk: &Walk,
        scope: &Scope,
    ) -> Result<Input, Unscannable> {
        if let Some(heredoc) = outer.filter(|outer| node_kind(outer) == "heredoc_redirect") {
            let body = heredoc.children().find(|(child, _)| node_kind(child) == "heredoc_body");
            return Ok(Input { text: body.map(|(body, _)| walk.text(body).to_string()), producer: Vec::new() });
        }
        let mut previous = None;
        for (child, _) in pipeline.children() {
            if child.id() == element.id() {
                break;
            }
            if child.is_named() {
                previous = Some(child);
            }
        }
        let previous = match previous {
            Some(statement) if node_kind(statement) == "redirected_statement" => {
                statement.child_by_field_name("body").filter(|body| node_kind(body) == "command")
            }
            other => other,
        };
        let Some(previous) = previous.filter(|p| node_kind(p) == "command" && walk.counts(*p)) else {
            return Ok(Input::default());
        };
        let words = command_words(previous);
        let argv = self.expand_words(&words, walk, scope)?;
        // `cat x.patch | git apply`: the file a patch reads through the pipe.
        if let [cat, file] = argv.as_slice()
            && cat.text == "cat"
            && !cat.dynamic
        {
            self.piped_file.replace(Some(file.clone()));
        }
        // Only a line with `echo` or `printf` in it can print known text.
        let prints = argv.iter().any(|arg| matches!(arg.text.rsplit('/').next(), Some("echo" | "printf")));
        let printed = || commands::printing_command(&argv).and_then(|words| words::printed(&words));
        if let Some(text) = prints.then(printed).flatten() {
            return Ok(Input { text: Some(text), producer: Vec::new() });
        }
        Ok(Input { text: None, producer: argv })
    }

    /// The known text a `while` loop reads: its own here-string or heredoc, or what the pipeline
    /// element before it prints.
    fn loop_input<'t>(
        &self,
        node: Node<'t>,
        frames: &[Frame<'t>],
        walk: &Walk,
        scope: &Scope,
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

    /// The words bash would pass, after grouping the nodes of each word and expanding them.
    fn expand_words<'t>(&self, words: &[Node<'t>], walk: &Walk, scope: &Scope) -> Result<Vec<Arg>, Unscannable> {
        let mut argv = Vec::with_capacity(words.len());
        for group in word_groups(words, walk.source) {
            self.expand(group, walk, scope, &mut argv)?;
        }
        Ok(argv)
    }

    #[allow(clippy::too_many_arguments)]
    fn command<'t>(
        &mut self,
        node: Node<'t>,
        statement: Option<Node<'t>>,
        upstream: Input,
        walk: &mut Walk,
        scope: &mut Scope,
    ) -> Result<(), Unscannable> {
        let mut words = Vec::new();
        let mut files = Vec::new();
        let mut stdin = None;
        for (child, field) in node.children() {
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
            let parts = self.redirections(statement, walk);
            files.extend(parts.files);
            words.extend(parts.words);
            stdin = parts.stdin.or(stdin);
        }
        let written_before = self.found.len();
        // Redirections open before the command runs, in the directory it starts in.
        for file in files.iter().filter(|f| walk.counts(**f)) {
            self.redirect(*file, walk, scope, &mut words)?;
        }
        words.retain(|word| walk.counts(*word));
        words.sort_by_key(Node::start_byte);
        let argv = self.expand_words(&words, walk, scope)?;
        let stdin_text = match stdin {
            Some(node) => Some(self.stdin_text(node, walk, scope)?),
            None => upstream.text,
        };
        if self.shell_state(&argv, stdin_text.as_deref(), walk, scope)? {
            return Ok(());
        }
        let mut effects = Vec::new();
        commands::analyze_fed(&argv, stdin_text.as_deref(), &upstream.producer, &ProgramAnalysis, &mut effects);
        let piped = self.piped_file.take();
        if effects.iter().any(|effect| matches!(effect, Effect::Patch(_))) {
            let input = self.input_file(&files, walk, scope)?.or(piped);
            for effect in &mut effects {
                if let Effect::Patch(read) = effect
                    && read.file.is_none()
                    && read.stdin.is_none()
                {
                    read.file = input.clone();
                }
            }
        }
        self.apply(effects, walk, scope, false)?;
        if self.found.len() > written_before
            && let Some(text) = shown_text(&argv, stdin_text.as_deref())
        {
            for path in self.found.get(written_before..).unwrap_or_default() {
                self.files.push((path.clone(), text.clone()));
            }
        }
        Ok(())
    }

    /// What the walk keeps itself: aliases, functions called with their parameters, `set --`,
    /// `shift`, and `read` of known input. `true` when the command is done with here.
    fn shell_state(
        &mut self,
        argv: &[Arg],
        stdin: Option<&str>,
        walk: &Walk,
        scope: &mut Scope,
    ) -> Result<bool, Unscannable> {
        let Some((name, args)) = argv.split_first().filter(|(name, _)| !name.dynamic && !name.pipe) else {
            return Ok(false);
        };
        if let Some(value) = scope.alias(&name.text) {
            let mut text = value.clone();
            for arg in args {
                text.push(' ');
                text.push_str(&commands::quote(&arg.text));
            }
            // An alias is not expanded again inside its own expansion (`alias ls='ls -l'`).
            scope.defined.make_mut().aliases.remove(&name.text);
            self.script(&text, scope, walk.nesting + 1)?;
            scope.defined.make_mut().aliases.entry(name.text.clone()).or_insert(value);
            return Ok(true);
        }
        if let Some(body) = scope.function(&name.text) {
            let values = argv.iter().map(|arg| Value { text: arg.text.clone(), dynamic: arg.dynamic }).collect();
            let called = Positional { values, complete: !args.iter().any(|arg| arg.dynamic) };
            let saved = scope.positional().cloned();
            scope.set_positional(Some(Rc::new(called)));
            self.script(&body, scope, walk.nesting + 1)?;
            scope.set_positional(saved);
            return Ok(true);
        }
        match name.text.as_str() {
            "alias" => {
                for (alias, value) in args.iter().filter_map(|arg| arg.text.split_once('=')) {
                    scope.defined.make_mut().aliases.insert(alias.to_string(), value.to_string());
                }
                Ok(true)
            }
            "unalias" => {
                let aliases = &mut scope.defined.make_mut().aliases;
                for arg in args {
                    if arg.text == "-a" {
                        aliases.clear();
                    }
                    aliases.remove(&arg.text);
                }
                Ok(true)
            }
            "set" => {
                if let Some(at) = args.iter().position(|arg| !arg.dynamic && arg.text == "--") {
                    let zero = scope.positional().and_then(|p| p.values.first().cloned());
                    let mut values = vec![zero.unwrap_or(Value { text: "bash".to_string(), dynamic: false })];
                    let rest = args.get(at + 1..).unwrap_or_default();
                    values.extend(rest.iter().map(|arg| Value { text: arg.text.clone(), dynamic: arg.dynamic }));
                    let complete = !rest.iter().any(|arg| arg.dynamic);
                    scope.set_positional(Some(Rc::new(Positional { values, complete })));
                }
                Ok(false)
            }
            "shift" => {
                let count = args.first().map_or(Some(1), |arg| arg.text.parse::<usize>().ok());
                match (scope.positional().cloned(), count) {
                    (Some(positional), Some(count)) => {
                        let mut positional = Positional::clone(&positional);
                        let end = (count + 1).min(positional.values.len());
                        positional.values.drain(1.min(end)..end);
                        scope.set_positional(Some(Rc::new(positional)));
                    }
                    _ => scope.set_positional(None),
                }
                Ok(true)
            }
            "read" => match stdin.map(str::to_string).or_else(|| scope.input().map(|input| input.to_string())) {
                Some(input) => {
                    read_known(args, &input, scope);
                    Ok(true)
                }
                None => Ok(false),
            },
            _ => Ok(false),
        }
    }

    /// The file a command's `<` redirection reads, when it has one.
    fn input_file<'t>(&self, files: &[Node<'t>], walk: &Walk, scope: &Scope) -> Result<Option<Arg>, Unscannable> {
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

    /// A patch the command applies: read at check time (bounded), each file its headers name is
    /// written; a patch that cannot be read writes what its command's words name of the guarded
    /// locations.
    fn patch(&mut self, read: PatchRead, scope: &Scope) {
        let base = paths::absolute(&read.base, &scope.base);
        let cwd = match &read.chdir {
            Some(dir) => paths::absolute(&dir.text, &base),
            None => base,
        };
        let root = match &read.prefix {
            Some(prefix) => paths::absolute(&prefix.text, &cwd),
            None => cwd.clone(),
        };
        let text = match (&read.stdin, &read.file) {
            (Some(text), None) => Some(text.clone()),
            (_, Some(file)) if !file.dynamic && !file.pipe => read_bounded(&paths::absolute(&file.text, &cwd)),
            _ => None,
        };
        let mut written = Vec::new();
        let parsed = text.is_some_and(|text| {
            read.strips.iter().all(|&strip| match crate::patch::files_written(&text, crate::patch::Strip(strip)) {
                Ok(files) => {
                    written.extend(files.into_iter().map(|file| file.path));
                    true
                }
                Err(_) => false,
            })
        });
        if !parsed {
            // An option's value (`--directory=x`) is the word's path.
            let named = |word: &str| match word.split_once('=') {
                Some((option, value)) if option.starts_with('-') => value.to_string(),
                _ => word.to_string(),
            };
            let seen = read.words.iter().chain(read.file.iter());
            for word in seen.filter(|word| paths::names_guarded_location(&word.text)) {
                self.add(&named(&word.text), &cwd, scope.links());
            }
            return;
        }
        for path in written {
            self.add(&path, &root, scope.links());
        }
    }

    /// `cd x && bash <<'EOF' … EOF` as tree-sitter reads it: the heredoc on the list. The last
    /// command reads it; only what it runs or writes is new.
    fn fed_command<'t>(
        &mut self,
        command: Node<'t>,
        stdin: Node<'t>,
        walk: &mut Walk,
        scope: &mut Scope,
    ) -> Result<(), Unscannable> {
        let mut words = command_words(command);
        words.retain(|word| walk.counts(*word));
        let argv = self.expand_words(&words, walk, scope)?;
        let text = self.stdin_text(stdin, walk, scope)?;
        let mut effects = Vec::new();
        commands::analyze(&argv, Some(&text), &ProgramAnalysis, &mut effects);
        self.apply(effects, walk, scope, true)
    }

    /// `cd x && patch -p1 < f` as tree-sitter reads it: the `<` on the list. Only a patch the
    /// last command applies is new.
    fn fed_patch<'t>(
        &mut self,
        command: Node<'t>,
        files: &[Node<'t>],
        walk: &mut Walk,
        scope: &mut Scope,
    ) -> Result<(), Unscannable> {
        let Some(input) = self.input_file(files, walk, scope)? else { return Ok(()) };
        let mut words = command_words(command);
        words.retain(|word| walk.counts(*word));
        let argv = self.expand_words(&words, walk, scope)?;
        let mut effects = Vec::new();
        commands::analyze(&argv, None, &ProgramAnalysis, &mut effects);
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

    /// A heredoc body as it reaches the command, or a here-string's word.
    fn stdin_text<'t>(&self, node: Node<'t>, walk: &Walk, scope: &Scope) -> Result<String, Unscannable> {
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
    fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        walk: &Walk,
        scope: &Scope,
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
            home: &self.home,
            positional: scope.positional().map(Rc::as_ref),
            outputs: true,
        }
    }

    fn expand<'t>(
        &self,
        group: &[Node<'t>],
        walk: &Walk,
        scope: &Scope,
        out: &mut Vec<Arg>,
    ) -> Result<(), Unscannable> {
        words::expand(group, &self.context(walk, scope), out)?;
        if self.text.exhausted() {
            return Err(Unscannable::TooMuchText);
        }
        // Each word is capped on its own; this caps them together, before any path work.
        if out.len() > MAX_COMMAND_WORDS {
            return Err(Unscannable::TooManyWords);
        }
        Ok(())
    }

    fn for_loop<'t>(&mut self, node: Node<'t>, walk: &Walk, scope: &mut Scope) -> Result<(), Unscannable> {
        let mut name = None;
        let mut values = Vec::new();
        let mut listed = false;
        for (child, field) in node.children() {
            match field {
                Some("variable") => name = Some(walk.text(child)),
                Some("value") => values.push(child),
                _ => listed |= node_kind(child) == "in",
            }
        }
        let Some(name) = name else { return Ok(()) };
        let mut args = Vec::new();
        for group in word_groups(&values, walk.source) {
            self.expand(group, walk, scope, &mut args)?;
        }
        if listed {
            scope.assign(name, args.into_iter().map(|arg| Value { text: arg.text, dynamic: arg.dynamic }).collect());
        } else {
            scope.forget(name);
        }
        Ok(())
    }

    fn assignment<'t>(&self, node: Node<'t>, walk: &Walk, scope: &mut Scope) {
        let Some(target) = node.child_by_field_name("name") else { return };
        let name = match node_kind(target) {
            "variable_name" => walk.text(target).to_string(),
            // `a[1]=x`: that element, and one more possible value of any element.
            "subscript" => {
                let (Some(array), Some(index)) =
                    (target.child_by_field_name("name"), target.child_by_field_name("index"))
                else {
                    return;
                };
                let array = walk.text(array);
                let known = matches!(node_kind(index), "number" | "word");
                let values = match node.child_by_field_name("value") {
                    Some(value) => words::value(value, &self.context(walk, scope)),
                    None => vec![Value { text: String::new(), dynamic: false }],
                };
                let any = words::element_name(array, "@");
                let mut all = scope.vars.get(&any).cloned().unwrap_or_default();
                all.extend(values.iter().cloned());
                if known {
                    scope.assign(&words::element_name(array, walk.text(index)), values);
                }
                scope.assign(&any, all);
                return;
            }
            _ => return,
        };
        let appends = node.children().any(|(child, _)| node_kind(child) == "+=");
        if appends {
            scope.forget(&name);
            return;
        }
        match node.child_by_field_name("value") {
            Some(value) if node_kind(value) == "array" => self.array(&name, value, walk, scope),
            Some(value) => {
                let values = words::value(value, &self.context(walk, scope));
                scope.assign(&name, values);
            }
            None => scope.assign(&name, vec![Value { text: String::new(), dynamic: false }]),
        }
    }

    /// `a=(x y)`: `${a[0]}` is x, `${a[1]}` y, `$a` x, `${a[@]}` both.
    fn array<'t>(&self, name: &str, value: Node<'t>, walk: &Walk, scope: &mut Scope) {
        scope.forget(name);
        let elements: Vec<Node> = value.children().map(|(c, _)| c).filter(Node::is_named).collect();
        let mut args = Vec::new();
        for group in word_groups(&elements, walk.source) {
            if self.expand(group, walk, scope, &mut args).is_err() {
                return;
            }
        }
        if args.len() > MAX_VALUES {
            return;
        }
        let values: Vec<Value> = args.into_iter().map(|arg| Value { text: arg.text, dynamic: arg.dynamic }).collect();
        for (index, value) in values.iter().enumerate() {
            scope.assign(&words::element_name(name, &index.to_string()), vec![value.clone()]);
        }
        if let Some(first) = values.first() {
            scope.assign(name, vec![first.clone()]);
        }
        scope.assign(&words::element_name(name, "@"), values);
    }

    fn apply(
        &mut self,
        effects: Vec<Effect>,
        walk: &Walk,
        scope: &mut Scope,
        only_new: bool,
    ) -> Result<(), Unscannable> {
        // A link exists once its command is done: what the command itself writes is not through it.
        let mut effects = effects;
        if effects.iter().any(|effect| matches!(effect, Effect::Link { .. })) {
            effects.sort_by_key(|effect| matches!(effect, Effect::Link { .. }));
        }
        for effect in effects {
            match effect {
                Effect::Write(arg) => self.add(&arg.text, &scope.base, scope.links()),
                Effect::WriteInto { dir, name, known_dir } => {
                    let dir = paths::absolute(&dir.text, &scope.base);
                    if known_dir || cache::is_dir(&dir) || scope.links().iter().any(|(link, _)| *link == dir) {
                        self.add(&name.text, &dir, scope.links());
                    }
                }
                Effect::WriteNamed(arg) => {
                    // `..` only removes components: no guarded word in either, none in the path.
                    if !paths::may_name_guarded(arg.text.as_bytes())
                        && !paths::may_name_guarded(scope.base.as_os_str().as_encoded_bytes())
                    {
                        continue;
                    }
                    let named = paths::absolute(&arg.text, &scope.base);
                    for target in paths::guarded_beneath(&named, paths::Reach::Named) {
                        self.add(&target.to_string_lossy(), &scope.base, scope.links());
                    }
                }
                Effect::WriteTree { dir, name, known_dir } => {
                    let dir = paths::absolute(&dir.text, &scope.base);
                    let root = match name {
                        Some(name) if known_dir || cache::is_dir(&dir) => paths::absolute(&name.text, &dir),
                        _ => dir,
                    };
                    for target in paths::guarded_beneath(&root, paths::Reach::Tree) {
                        self.add(&target.to_string_lossy(), &scope.base, scope.links());
                    }
                }
                Effect::Script(script) => {
                    let mut child = scope.child(None);
                    self.isolated += 1;
                    let ran = self.script(&script, &mut child, walk.nesting + 1);
                    self.isolated = self.isolated.saturating_sub(1);
                    ran?;
                }
                Effect::Run { script, positional, complete } => {
                    let values = positional.into_iter().map(|arg| Value { text: arg.text, dynamic: arg.dynamic });
                    let mut child = scope.child(Some(Positional { values: values.collect(), complete }));
                    self.isolated += 1;
                    let ran = self.script(&script, &mut child, walk.nesting + 1);
                    self.isolated = self.isolated.saturating_sub(1);
                    ran?;
                }
                Effect::Link { link, target } => {
                    let link = paths::absolute(&link.text, &scope.base);
                    let from = link.parent().map_or_else(|| scope.base.clone(), Path::to_path_buf);
                    let target = paths::absolute(&target.text, &from);
                    if scope.links().len() < MAX_LINKS {
                        scope.defined.make_mut().links.push((link, target));
                    }
                }
                Effect::Patch(read) => self.patch(read, scope),
                Effect::Program { argv, stdin, dir } => {
                    if let Some(invocation) = programs::invocation(&argv, stdin.as_deref()) {
                        self.program(&invocation, &dir, None, walk, scope)?;
                    }
                }
                Effect::RunFile { path, this_shell, by_shebang } => {
                    let this_shell = this_shell && !only_new;
                    self.run_file(&path.text, this_shell, by_shebang, walk, scope)?;
                }
                Effect::PowerShell(script) => {
                    for target in crate::powershell::write_targets(&script, &scope.base)? {
                        self.add(&target.to_string_lossy(), &scope.base, scope.links());
                    }
                }
                _ if only_new => {}
                Effect::Eval(script) => self.script(&script, scope, walk.nesting + 1)?,
                Effect::Forget(name) => scope.forget(&name),
                Effect::Cd(cd) => {
                    self.cd(cd, scope);
                    if self.isolated == 0
                        && let Some(states) = &mut self.states
                    {
                        states.push(scope.clone());
                    }
                }
            }
        }
        Ok(())
    }

    /// An interpreter's program: what its options write, what the program writes (relative to
    /// its directory) and the commands it starts, walked as nested scripts. `text` is a script
    /// file's text already read.
    fn program(
        &mut self,
        invocation: &Invocation,
        dir: &str,
        text: Option<String>,
        walk: &Walk,
        scope: &Scope,
    ) -> Result<(), Unscannable> {
        let base = paths::absolute(dir, &scope.base);
        for write in &invocation.writes {
            self.add(write, &base, scope.links());
        }
        let text = match (&invocation.source, text) {
            (_, Some(text)) => Some(text),
            (Source::Text(text), None) => Some(text.clone()),
            (Source::File(path), None) => self.file_text(path, &base),
            (Source::Nothing, None) => return Ok(()),
        };
        let verdict = programs::judge(invocation.language, text.as_deref(), &invocation.args, &base);
        for write in &verdict.writes {
            self.add(write, &base, scope.links());
        }
        for command in &verdict.commands {
            // A process the program starts: what it does to its shell stays there.
            let mut child = scope.child(None);
            child.base = base.clone();
            self.isolated += 1;
            let ran = self.script(command, &mut child, walk.nesting + 1);
            self.isolated = self.isolated.saturating_sub(1);
            ran?;
        }
        Ok(())
    }

    /// `bash x.sh`, `source x.sh`, `./x`: the file's text walked as a script (in this shell for
    /// `source`), or judged as a program when its `#!` line names another language. A file this
    /// walk cannot read is judged by what the command line shows.
    fn run_file(
        &mut self,
        path: &str,
        this_shell: bool,
        by_shebang: bool,
        walk: &Walk,
        scope: &mut Scope,
    ) -> Result<(), Unscannable> {
        if walk.nesting >= MAX_SCRIPT_NESTING {
            return Ok(());
        }
        let Some(text) = self.file_text(path, &scope.base) else { return Ok(()) };
        if by_shebang {
            if let Some(language) = programs::language_of_shebang(&text) {
                let invocation = Invocation { language, source: Source::Nothing, args: Vec::new(), writes: Vec::new() };
                return self.program(&invocation, "", Some(text), walk, scope);
            }
            let shell = text.lines().next().is_none_or(|line| {
                !line.starts_with("#!") || ["sh", "bash", "zsh", "dash", "ksh"].iter().any(|s| line.contains(s))
            });
            if !shell {
                return Ok(());
            }
        }
        if this_shell {
            self.script(&text, scope, walk.nesting + 1)
        } else {
            let mut child = scope.child(None);
            self.isolated += 1;
            let ran = self.script(&text, &mut child, walk.nesting + 1);
            self.isolated = self.isolated.saturating_sub(1);
            ran
        }
    }

    /// A script file's text at check time: what this line wrote to it, else the file (text, at
    /// most [`MAX_SCRIPT_FILE_BYTES`]). `None` when the line changed it in a way it does not show,
    /// or it is missing, larger or binary.
    fn file_text(&self, path: &str, base: &Path) -> Option<String> {
        let path = paths::absolute(path, base);
        if let Some((_, text)) = self.files.iter().find(|(file, _)| *file == path) {
            return Some(text.clone());
        }
        if self.seen.contains(&path) {
            return None;
        }
        let bytes = cache::read_regular_file(&path, MAX_SCRIPT_FILE_BYTES)?;
        if bytes.len() as u64 > MAX_SCRIPT_FILE_BYTES || bytes.contains(&0) {
            return None;
        }
        String::from_utf8(bytes).ok()
    }

    fn cd(&mut self, cd: Cd, scope: &mut Scope) {
        let from = scope.base.clone();
        self.move_to(cd, scope);
        super::record_move(&mut self.moves, &from, &scope.base, self.found.len());
    }

    fn move_to(&self, cd: Cd, scope: &mut Scope) {
        match cd {
            Cd::To(dir) => {
                let to = paths::absolute(&dir.text, &scope.base);
                scope.cd(to);
            }
            Cd::Home => {
                if let Some(home) = self.home.get() {
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

    /// A file written, as typed and through every link the line made that it passes.
    fn add(&mut self, text: &str, base: &Path, links: &[(PathBuf, PathBuf)]) {
        if text.is_empty() {
            return;
        }
        let mut path = paths::absolute(text, base);
        for _ in 0..=MAX_LINK_HOPS {
            if is_device(&path) {
                return;
            }
            let through = links.iter().rev().find_map(|(link, target)| paths::rebase(&path, link, target));
            let next = through.filter(|next| *next != path);
            // Written again: its text is no longer the one the line showed.
            if !self.files.is_empty() {
                self.files.retain(|(file, _)| *file != path);
            }
            if self.found.len() >= MAX_TARGETS {
                self.too_many = true;
            } else if self.seen.insert(path.clone()) {
                self.found.push(path);
            }
            match next {
                Some(next) => path = next,
                None => return,
            }
        }
    }
}

/// What a command reads on its standard input, as far as the line shows it.
#[derive(Default)]
struct Input {
    text: Option<String>,
    /// The words of the producer, when what it prints is unknown.
    producer: Vec<Arg>,
}

/// `read` of known text: each line is one possible value of the names it reads (`-a`: of the
/// array's elements).
fn read_known(args: &[Arg], input: &str, scope: &mut Scope) {
    let mut names = Vec::new();
    let mut array = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        match arg.text.as_str() {
            "-a" => {
                array = args.get(at).map(|a| a.text.clone());
                at += 1;
            }
            "-d" | "-n" | "-N" | "-p" | "-t" | "-u" | "-i" => at += 1,
            text if text.starts_with('-') && text.len() > 1 => {}
            text => names.push(text.to_string()),
        }
    }
    let lines: Vec<&str> = input.lines().filter(|line| !line.trim().is_empty()).collect();
    if lines.len() > MAX_READ_LINES {
        for name in names.iter().chain(array.iter()) {
            scope.forget(name);
        }
        return;
    }
    if let Some(array) = array {
        scope.forget(&array);
        let mut all = Vec::new();
        for line in &lines {
            for (index, field) in line.split_whitespace().enumerate() {
                let value = Value { text: field.to_string(), dynamic: false };
                scope.assign(&words::element_name(&array, &index.to_string()), vec![value.clone()]);
                all.push(value);
            }
        }
        scope.assign(&words::element_name(&array, "@"), all);
        return;
    }
    if names.is_empty() {
        names.push("REPLY".to_string());
    }
    let last = names.len().saturating_sub(1);
    for (index, name) in names.iter().enumerate() {
        let values = lines
            .iter()
            .map(|line| {
                let line = line.trim();
                let field = if index == last {
                    line.splitn(last + 1, char::is_whitespace).nth(index).unwrap_or_default().trim()
                } else {
                    line.split_whitespace().nth(index).unwrap_or_default()
                };
                Value { text: field.to_string(), dynamic: false }
            })
            .collect();
        scope.assign(name, values);
    }
}

/// A patch file's text, at most [`crate::patch::MAX_PATCH_BYTES`] + 1 bytes of it (the parser
/// refuses the rest); `None` when it cannot be read.
fn read_bounded(path: &Path) -> Option<String> {
    let limit = u64::try_from(crate::patch::MAX_PATCH_BYTES).unwrap_or(u64::MAX);
    cache::read_regular_file(path, limit).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// The text a command writes when the line shows it: `cat` of its heredoc or here-string, `tee`,
/// `echo`/`printf` of static words.
fn shown_text(argv: &[Arg], stdin: Option<&str>) -> Option<String> {
    let (name, args) = argv.split_first()?;
    match name.text.as_str() {
        "cat" if args.is_empty() => stdin.map(str::to_string),
        "tee" => stdin.map(str::to_string),
        "echo" | "printf" if args.iter().all(|arg| !arg.dynamic) => {
            let texts: Vec<&str> = args.iter().map(|arg| arg.text.as_str()).collect();
            Some(texts.join(" "))
        }
        _ => None,
    }
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

/// The command that runs last in a list or pipeline.
fn last_command<'t>(mut node: Node<'t>) -> Option<Node<'t>> {
    for _ in 0..MAX_TREE_DEPTH {
        match node_kind(node) {
            "command" => return Some(node),
            "list" | "pipeline" => node = node.named_children().last()?,
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
