//! The walk over a PowerShell syntax tree. Statements are read in order; `Set-Location`, `cd`,
//! `Push-Location`, `Pop-Location`, assignments, `Set-Variable`, `Set-Alias` and function
//! definitions change the scope as they come (an assignment in a branch, loop or script block
//! keeps the earlier values too); script blocks and sub-expressions are walked where they stand
//! (as if they ran). A function body is walked where it is defined, apart (what it writes), and
//! again where it is called, with its parameters bound. A command name is looked up as PowerShell
//! does: an alias the line (or the shell) defined, then a function, then the cmdlet table
//! ([`super::cmdlets`]); a cmdlet the table does not know writes every guarded location its
//! arguments name; a program is judged by the bash writer table. Nested scripts
//! (`Invoke-Expression`, `pwsh -c`, `cmd /c`) are parsed again, at most [`MAX_SCRIPT_NESTING`]
//! deep.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use tree_sitter::Node;

use super::cmdlets::{self, Bound, Element, Kind};
use super::state::{Defined, Function, Param, State, vars_weight};
use super::words::{self, Context, Value, Vars};
use super::{MAX_NODES, MAX_PARSE_CHECKS, MAX_SCRIPT_BYTES, MAX_SCRIPT_NESTING, MAX_TARGETS, MAX_TREE_DEPTH};
use super::{cmd, invocation, parse};
use crate::commands::cmd_exe::{self, CmdEffect, EntryDir};
use crate::paths;
use crate::bash::{self, Unscannable};

pub fn targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    targets_from(command, &State::fresh(base)).map(|(targets, _, _)| targets)
}

/// The files `command` writes when run by a shell in `state`, and the states it may leave that
/// shell in: after each change of the shell's own location, variables, functions or aliases
/// (the call may stop at any statement), and its end (not the start: the caller keeps that).
/// States in the same place fold (their variables take every value). Past [`MAX_REACHED`]
/// distinct places the list stops growing, already longer than a persistent shell keeps. The
/// third value is false when the list may miss where the shell is: a script block moved the
/// location and the walk cannot tell whether it ran in this shell (`& {…}`, `ForEach-Object`) or
/// elsewhere (`Start-Job`), a command whose name is only known at run time may have been a
/// function or alias that moved it, or a variable had more values than are kept.
pub fn targets_from(command: &str, state: &State) -> Result<(Vec<PathBuf>, Vec<State>, bool), Unscannable> {
    let mut walker = Walker {
        found: Vec::new(),
        seen: HashSet::new(),
        too_many: false,
        home: std::env::var("HOME").ok().filter(|home| home.starts_with('/')),
        checks_left: MAX_PARSE_CHECKS,
        nodes_left: MAX_NODES,
        text_left: MAX_SCRIPT_BYTES,
        reached: Vec::new(),
        moved_in_block: false,
        lost_states: false,
        reached_bytes: 0,
        last_place: None,
        calling: Vec::new(),
        copy_left: MAX_REACHED_COPY_BYTES,
        conditional: 0,
        moves: Vec::new(),
    };
    let mut scope = Scope::from_state(state);
    walker.script(command, &mut scope, 0)?;
    if walker.too_many || !bash::from_every_directory(&mut walker.found, &mut walker.seen, &walker.moves) {
        return Err(Unscannable::TooManyTargets);
    }
    walker.reach(&scope);
    Ok((walker.found, walker.reached, !walker.moved_in_block && !walker.lost_states))
}

/// The most distinct places one call records (the persistent store folds them and keeps at
/// most [`crate::persistent::MAX_STATES`]); past it the list is incomplete.
pub const MAX_REACHED: usize = 8 * crate::persistent::MAX_STATES;
/// The most bytes the states one call records may hold when first reached.
pub const MAX_REACHED_BYTES: usize = 2 * crate::persistent::MAX_SHELL_BYTES;
/// The most bytes of scope one call copies to record the states it reaches: 16 MiB.
pub const MAX_REACHED_COPY_BYTES: usize = 16 << 20;

/// How many aliases one command name is followed through (`Set-Alias a b; Set-Alias b sc`).
const MAX_ALIAS_HOPS: usize = 8;

/// Variables a pipeline or a function call sets for a while: not the shell's between calls.
const TRANSIENT_VARS: [&str; 4] = ["_", "psitem", "args", "input"];

/// What a PowerShell session carries from one statement to the next.
#[derive(Clone)]
struct Scope {
    base: PathBuf,
    /// `Push-Location`'s stack.
    stack: Vec<PathBuf>,
    vars: Vars,
    /// Functions and aliases, shared until one is defined.
    defined: Rc<Defined>,
    /// The location is the shell's own (not a nested `pwsh -c`, `Start-Process` or `cmd /c`).
    own: bool,
}

impl Scope {
    fn from_state(state: &State) -> Scope {
        Scope {
            base: state.base.clone(),
            stack: state.stack.clone(),
            vars: state.vars.clone(),
            defined: state.defined.clone(),
            own: true,
        }
    }

    /// A new PowerShell process in `base` (`pwsh -c`): nothing of this one's.
    fn process(base: &Path) -> Scope {
        Scope { base: base.to_path_buf(), stack: Vec::new(), vars: Vars::new(), defined: Rc::default(), own: false }
    }

    fn state(&self) -> State {
        let mut vars = self.vars.clone();
        vars.retain(|name, _| !TRANSIENT_VARS.contains(&name.as_str()));
        State { base: self.base.clone(), stack: self.stack.clone(), vars, defined: self.defined.clone() }
    }

    /// Is `state` in this scope's place (location, stack, definitions)?
    fn is_at(&self, state: &State) -> bool {
        self.base == state.base
            && self.stack == state.stack
            && (Rc::ptr_eq(&self.defined, &state.defined) || *self.defined == *state.defined)
    }
}

struct Walker {
    found: Vec<PathBuf>,
    seen: HashSet<PathBuf>,
    too_many: bool,
    home: Option<String>,
    /// The parser's work budget, shared by nested scripts.
    checks_left: usize,
    /// Nodes the walk may still visit.
    nodes_left: usize,
    /// Bytes of script text (nested scripts included) that may still be parsed.
    text_left: usize,
    /// The states the shell's own location changes reached, at most [`MAX_REACHED`].
    reached: Vec<State>,
    /// A script block left the shell's location elsewhere than it found it, or a command the
    /// walk could not name ran where functions or aliases could have moved it.
    moved_in_block: bool,
    /// A reached state could not be kept whole: past [`MAX_REACHED`] places or
    /// [`MAX_REACHED_BYTES`], or a variable with more than [`words::MAX_VALUES`] values.
    lost_states: bool,
    /// Bytes the reached states held when they were first reached.
    reached_bytes: usize,
    /// The reached state the shell's definitions last folded into, and those definitions.
    last_place: Option<(Rc<Defined>, usize)>,
    /// The functions being called, innermost last: a recursive call is not walked again.
    calling: Vec<String>,
    /// The location changes the script made, (from, to), each once.
    moves: Vec<bash::Move>,
    /// Bytes of scope the reached states may still copy ([`MAX_REACHED_COPY_BYTES`]).
    copy_left: usize,
    /// How many blocks (branches, loops, script blocks, function bodies) the walk is in: an
    /// assignment there may not run, so the variable keeps its earlier values too.
    conditional: usize,
}

/// One parsed script: its text and how deep it is nested.
struct Walk<'s> {
    source: &'s str,
    nesting: usize,
}

impl Walk<'_> {
    fn text(&self, node: Node) -> &str {
        self.source.get(node.byte_range()).unwrap_or_default()
    }
}

/// Programs PowerShell on Windows runs as a cmdlet alias and elsewhere as the program itself:
/// both are judged.
const NATIVE_ON_UNIX: [&str; 8] = ["cp", "mv", "rm", "rmdir", "tee", "sort", "cat", "ls"];

/// Does the word so far end with an unescaped backtick, so the blank after it belongs to it?
fn escapes_blank(group: Option<(usize, usize)>, walk: &Walk) -> bool {
    let Some((start, end)) = group else { return false };
    let text = walk.source.get(start..end).unwrap_or_default();
    text.chars().rev().take_while(|&c| c == '`').count() % 2 == 1
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    children(node).into_iter().find(|child| child.kind() == kind)
}

/// PowerShell's drives of definitions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drive {
    Alias,
    Function,
    Variable,
    Env,
}

/// Roughly the bytes [`Scope::state`] copies: variables and locations (definitions are shared).
fn scope_weight(scope: &Scope) -> usize {
    let stack: usize = scope.stack.iter().map(|dir| dir.as_os_str().len()).sum();
    scope.base.as_os_str().len() + stack + vars_weight(&scope.vars) + 64
}

/// `alias:w`, `Function:\f`, `variable:/p`, `env:X`: the drive and the item's name.
fn drive_item(text: &str) -> Option<(Drive, &str)> {
    let (drive, name) = text.trim().split_once(':')?;
    let drive = match drive.to_ascii_lowercase().as_str() {
        "alias" => Drive::Alias,
        "function" => Drive::Function,
        "variable" => Drive::Variable,
        "env" => Drive::Env,
        _ => return None,
    };
    Some((drive, name.trim_start_matches(['/', '\\'])))
}

/// A definition in a block that may not run leaves its name maybe-defined; one outside makes it
/// sure.
fn set_maybe(defined: &mut Defined, name: &str, conditional: bool) {
    if conditional {
        defined.maybe.insert(name.to_string());
    } else {
        defined.maybe.remove(name);
    }
}

/// The maybe-defined names running `name` goes through: it, the aliases it leads to, the
/// function it ends at.
fn uncertain_names(defined: &Defined, name: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if defined.maybe.is_empty() {
        return names;
    }
    let mut current = name.to_string();
    for _ in 0..=MAX_ALIAS_HOPS {
        for key in [current.to_lowercase(), function_key(&current)] {
            if defined.maybe.contains(&key) && !names.contains(&key) {
                names.push(key);
            }
        }
        match defined.aliases.get(&current.to_lowercase()) {
            Some(Some(target)) => current = target.clone(),
            _ => break,
        }
    }
    names
}

/// A function's name as the walk keys it: lower case, without `global:`, `script:`, ….
fn function_key(name: &str) -> String {
    words::variable_key(name.trim())
}

/// The script block a `{ … }` expression holds, however deep in expression nodes (searched
/// with a stack of its own, so depth costs no call stack).
fn script_block_in(node: Node) -> Option<Node> {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        if node.kind() == "script_block" {
            return Some(node);
        }
        let mut cursor = node.walk();
        pending.extend(node.named_children(&mut cursor));
    }
    None
}

/// The parameters a `function f(…)` declaration or `param(…)` block declares, in order.
fn parameters(node: Node, walk: &Walk) -> Vec<Param> {
    let Some(list) = child_of_kind(node, "parameter_list") else { return Vec::new() };
    let mut params = Vec::new();
    for param in children(list).into_iter().filter(|child| child.kind() == "script_parameter") {
        let Some(variable) = child_of_kind(param, "variable") else { continue };
        let switch = child_of_kind(param, "attribute_list")
            .is_some_and(|types| walk.text(types).to_ascii_lowercase().contains("[switch]"));
        let default = child_of_kind(param, "script_parameter_default")
            .map(|default| walk.text(default).trim().trim_start_matches('=').trim().to_string());
        params.push(Param { name: words::variable_key(walk.text(variable)), switch, default });
    }
    params
}

/// Is `path` one of the guarded locations of `paths.rs`?
fn is_guarded(path: &Path) -> bool {
    paths::plans_root(path).is_some() || paths::sdd_target(path).is_some() || paths::is_approval_file(path)
}

/// A provider-qualified path (`FileSystem::C:\x`, `Microsoft.PowerShell.Core\FileSystem::/x`)
/// without its provider.
fn without_provider(text: &str) -> &str {
    match text.split_once("::") {
        Some((provider, rest)) if provider.to_ascii_lowercase().ends_with("filesystem") => rest,
        _ => text,
    }
}

/// Where `text`, typed as a PowerShell path, lands; `None` for the null device.
fn resolve(text: &str, base: &Path) -> Option<PathBuf> {
    let text = without_provider(text.trim());
    let lower = text.to_ascii_lowercase();
    if matches!(lower.as_str(), "" | "nul" | "nul:" | "$null" | "/dev/null" | "/dev/stdout" | "/dev/stderr") {
        return None;
    }
    Some(paths::absolute(paths::from_windows(text), base))
}

/// A word for bash: single-quoted.
fn bash_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Arguments as a program receives them; a path typed with `\` reaches it with `/`.
fn program_words(elements: &[Element]) -> Vec<String> {
    let mut words = Vec::new();
    for element in elements {
        match element {
            Element::Param { text, value, .. } => {
                let mut word = text.clone();
                if let Some(values) = value {
                    word.push(':');
                    word.push_str(&values.iter().map(|v| v.text.as_str()).collect::<Vec<_>>().join(","));
                }
                words.push(word);
            }
            Element::Arg(values) => words.extend(values.iter().map(|value| value.text.clone())),
        }
    }
    words
}

fn as_path_word(word: &str) -> String {
    if word.contains('\\') && !word.contains(char::is_whitespace) {
        paths::from_windows(word)
    } else {
        word.to_string()
    }
}

fn texts(values: &[&Value]) -> Vec<String> {
    values.iter().map(|value| value.text.clone()).collect()
}

/// The last component of a path as typed (`\` or `/`).
fn basename(text: &str) -> &str {
    let trimmed = text.trim_end_matches(['/', '\\']);
    trimmed.rsplit(['/', '\\']).next().unwrap_or(trimmed)
}

fn parent(text: &str) -> &str {
    let trimmed = text.trim_end_matches(['/', '\\']);
    match trimmed.rfind(['/', '\\']) {
        Some(0) => "/",
        Some(at) => trimmed.get(..at).unwrap_or_default(),
        None => ".",
    }
}

fn joined(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches(['/', '\\']))
}

impl Walker {
    /// Records the state the shell is in now, if `scope` is the shell's: folded into a state
    /// already reached in the same location (see [`State::fold`]), if any. Past [`MAX_REACHED`]
    /// places or [`MAX_REACHED_BYTES`] the state is lost and the list incomplete.
    fn reach(&mut self, scope: &Scope) {
        if !scope.own {
            return;
        }
        // Each state reached costs a copy of the scope: bounded, so a long script of `cd`s over
        // large variables stays linear.
        let Some(left) = self.copy_left.checked_sub(scope_weight(scope)) else {
            self.lost_states = true;
            return;
        };
        self.copy_left = left;
        let state = scope.state();
        let exact = self.reached.iter().position(|kept| scope.is_at(kept));
        let folded = exact.or_else(|| self.reached.iter().position(|kept| kept.folds_with(&state)));
        if let Some(at) = folded {
            if let Some(kept) = self.reached.get_mut(at) {
                self.lost_states |= kept.fold(&state) != Some(true);
            }
            self.last_place = Some((scope.defined.clone(), at));
            return;
        }
        let weight = state.weight();
        if self.reached.len() >= MAX_REACHED || self.reached_bytes + weight > MAX_REACHED_BYTES {
            self.lost_states = true;
            return;
        }
        self.reached_bytes += weight;
        self.last_place = Some((scope.defined.clone(), self.reached.len()));
        self.reached.push(state);
    }

    /// Records that variable `key` of the shell changed: its new values join those of the state
    /// reached in this place (one variable, not the whole scope, so a long script stays linear).
    fn reach_var(&mut self, scope: &Scope, key: &str) {
        if !scope.own || TRANSIENT_VARS.contains(&key) {
            return;
        }
        let values = scope.vars.get(key).map(Vec::as_slice).unwrap_or_default();
        let last =
            self.last_place.as_ref().filter(|(defined, _)| Rc::ptr_eq(defined, &scope.defined)).map(|(_, at)| *at);
        let place = last
            .filter(|&at| self.reached.get(at).is_some_and(|kept| kept.base == scope.base && kept.stack == scope.stack))
            .or_else(|| self.reached.iter().position(|kept| scope.is_at(kept)));
        match place.and_then(|at| self.reached.get_mut(at)) {
            Some(kept) => self.lost_states |= !kept.add_values(key, values),
            None => self.reach(scope),
        }
    }

    /// Sets variable `key`: in a block that may not run, it keeps its earlier values too.
    fn assign(&mut self, scope: &mut Scope, key: String, mut values: Vec<Value>) -> Result<(), Unscannable> {
        if self.conditional > 0 {
            let earlier = scope.vars.get(&key).cloned().unwrap_or_else(|| vec![Value::unset(&key)]);
            for value in earlier {
                if !values.contains(&value) {
                    values.push(value);
                }
            }
            if values.len() > words::MAX_VALUES {
                return Err(Unscannable::ExpansionTooLarge);
            }
        }
        scope.vars.insert(key.clone(), values);
        self.reach_var(scope, &key);
        Ok(())
    }

    fn script(&mut self, source: &str, scope: &mut Scope, nesting: usize) -> Result<(), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        self.text_left = self.text_left.checked_sub(source.len()).ok_or(Unscannable::TooMuchText)?;
        let tree = parse::parse(source, &mut self.checks_left)?;
        let walk = Walk { source, nesting };
        self.node(tree.root_node(), &walk, scope, 0)
    }

    fn context<'a>(&'a self, scope: &'a Scope) -> Context<'a> {
        Context { vars: &scope.vars, base: &scope.base, home: self.home.as_deref() }
    }

    fn node(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        if depth > MAX_TREE_DEPTH {
            return Err(Unscannable::TooDeep);
        }
        self.nodes_left = self.nodes_left.checked_sub(1).ok_or(Unscannable::TooComplex)?;
        match node.kind() {
            "pipeline_chain" => self.pipeline_chain(node, walk, scope, depth),
            "command" => self.command(node, walk, scope, depth, None).map(drop),
            "assignment_expression" => self.assignment(node, walk, scope, depth),
            "foreach_statement" => self.foreach(node, walk, scope, depth),
            "invokation_expression" => {
                self.invocation(node, walk, scope)?;
                self.children(node, walk, scope, depth)
            }
            "redirection" => self.redirection(node, walk, scope),
            "script_block_expression" if scope.own => {
                let before = (scope.base.clone(), scope.stack.clone());
                self.block(node, walk, scope, depth)?;
                if (&scope.base, &scope.stack) != (&before.0, &before.1) {
                    self.moved_in_block = true;
                }
                Ok(())
            }
            "script_block_expression" | "statement_block" => self.block(node, walk, scope, depth),
            "function_statement" => self.function_statement(node, walk, scope, depth),
            "ERROR" => {
                // Inside a command's arguments an error node is argument text (`$env:X\y`).
                if node.parent().is_none_or(|parent| parent.kind() != "command_elements") {
                    self.unparsed(node, walk, scope)?;
                }
                self.children(node, walk, scope, depth)
            }
            _ => self.children(node, walk, scope, depth),
        }
    }

    /// A block that may run once, many times or never: a branch, a loop's body, a script block.
    fn block(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        self.conditional += 1;
        let result = self.children(node, walk, scope, depth);
        self.conditional -= 1;
        result
    }

    /// `function f($a) { … }`, `filter f { … }`: the body is walked where it stands, in a scope of
    /// its own (what it writes counts wherever it is called from), and kept for its calls.
    fn function_statement(
        &mut self,
        node: Node,
        walk: &Walk,
        scope: &mut Scope,
        depth: usize,
    ) -> Result<(), Unscannable> {
        let mut apart = Scope { own: false, ..scope.clone() };
        self.block(node, walk, &mut apart, depth)?;
        let Some(name) = child_of_kind(node, "function_name").map(|name| function_key(walk.text(name))) else {
            return Ok(());
        };
        let Some(body) = child_of_kind(node, "script_block") else { return Ok(()) };
        let mut params = Vec::new();
        if let Some(declared) = child_of_kind(node, "function_parameter_declaration") {
            params = parameters(declared, walk);
        }
        if let Some(block) = child_of_kind(body, "param_block") {
            params.extend(parameters(block, walk));
        }
        self.define_function(scope, name, Function { params, body: Some(Rc::from(walk.text(body))) });
        Ok(())
    }

    fn define_function(&mut self, scope: &mut Scope, name: String, function: Function) {
        let conditional = self.conditional > 0;
        let defined = Rc::make_mut(&mut scope.defined);
        set_maybe(defined, &name, conditional);
        defined.functions.insert(name, function);
        self.reach(scope);
    }

    fn define_alias(&mut self, scope: &mut Scope, name: &Value, target: Option<&Value>) {
        let defined = Rc::make_mut(&mut scope.defined);
        if name.dynamic {
            defined.any_alias = true;
        } else {
            let target = target.filter(|target| !target.dynamic).map(|target| target.text.trim().to_string());
            let name = name.text.trim().to_lowercase();
            set_maybe(defined, &name, self.conditional > 0);
            defined.aliases.insert(name, target);
        }
        self.reach(scope);
    }

    fn children(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        for child in children(node) {
            self.node(child, walk, scope, depth + 1)?;
        }
        Ok(())
    }

    /// A pipeline: what each element receives is what the one before it produced, where known.
    fn pipeline_chain(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        let mut piped: Option<Vec<Value>> = None;
        for child in children(node) {
            match child.kind() {
                "|" => {}
                "command" => piped = self.command(child, walk, scope, depth + 1, piped.as_deref())?,
                "redirections" => self.node(child, walk, scope, depth + 1)?,
                _ => {
                    self.node(child, walk, scope, depth + 1)?;
                    piped = Some(words::expression(walk.text(child), &self.context(scope))?);
                }
            }
        }
        Ok(())
    }

    /// One command; returns the paths it passes down a pipeline when they are known.
    fn command(
        &mut self,
        node: Node,
        walk: &Walk,
        scope: &mut Scope,
        depth: usize,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        if let Some(piped) = piped {
            for name in ["_", "psitem"] {
                scope.vars.insert(name.to_string(), piped.to_vec());
            }
        }
        let name_node = node.child_by_field_name("command_name");
        let mut names = Vec::new();
        if let Some(name_node) = name_node {
            if name_node.kind() == "command_name_expr" {
                self.children(name_node, walk, scope, depth + 1)?;
                let invoked = children(name_node).into_iter().find(|child| child.is_named());
                if invoked.is_some_and(|child| child.kind() != "script_block_expression") {
                    names = words::argument(walk.text(name_node), &self.context(scope))?;
                }
            } else {
                names.push(Value::literal(walk.text(name_node)));
            }
        }
        let mut elements = Vec::new();
        if let Some(list) = node.child_by_field_name("command_elements") {
            self.elements(list, walk, scope, depth + 1, &mut elements)?;
        }
        if names.len() > 1 {
            return self.any_of(&names, &elements, walk, scope);
        }
        let Some(name) = names.into_iter().next() else { return Ok(None) };
        if name.dynamic {
            self.unknown(&elements, scope);
            // It may have been one of the shell's functions or aliases, which may move it.
            if scope.own && !scope.defined.is_empty() {
                self.moved_in_block = true;
            }
            return Ok(None);
        }
        self.run(&name.text, &elements, walk, scope, piped)
    }

    /// `& $name` where `$name` may hold several commands: each known one runs apart (what it
    /// writes, from here), the arguments are judged as an unknown command's, and where the shell
    /// is afterwards is no longer known.
    fn any_of(
        &mut self,
        names: &[Value],
        elements: &[Element],
        walk: &Walk,
        scope: &mut Scope,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        for name in names.iter().filter(|name| !name.dynamic) {
            let mut apart = Scope { own: false, ..scope.clone() };
            self.run(&name.text, elements, walk, &mut apart, None)?;
        }
        self.unknown(elements, scope);
        if scope.own {
            self.moved_in_block = true;
        }
        Ok(None)
    }

    /// A command's arguments: words separated by blanks, `-Param` and `-Param:value`; the code
    /// inside them (script blocks, sub-expressions) is walked; redirections are judged.
    fn elements(
        &mut self,
        list: Node,
        walk: &Walk,
        scope: &mut Scope,
        depth: usize,
        elements: &mut Vec<Element>,
    ) -> Result<(), Unscannable> {
        let mut group: Option<(usize, usize)> = None;
        let mut attach = false;
        for child in children(list) {
            match child.kind() {
                "command_argument_sep" if escapes_blank(group, walk) => {
                    group = group.map(|(start, _)| (start, child.end_byte()));
                }
                "command_argument_sep" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    attach = walk.text(child).trim() == ":" && matches!(elements.last(), Some(Element::Param { .. }));
                }
                "command_parameter" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    let text = walk.text(child);
                    let name = text.trim_start_matches('-').trim_end_matches(':').to_lowercase();
                    if name.is_empty() {
                        elements.push(Element::Arg(vec![Value::literal(text)]));
                        continue;
                    }
                    attach = text.ends_with(':');
                    elements.push(Element::Param { name, text: text.trim_end_matches(':').to_string(), value: None });
                }
                "redirection" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    self.redirection(child, walk, scope)?;
                }
                "stop_parsing" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    let rest: Vec<char> = walk.text(child).trim_start_matches("--%").chars().collect();
                    for word in words::split_blank(&rest) {
                        elements.push(Element::Arg(vec![Value::literal(&word.iter().collect::<String>())]));
                    }
                }
                kind => {
                    let range = child.byte_range();
                    group = Some(match group {
                        Some((start, _)) => (start, range.end),
                        None => (range.start, range.end),
                    });
                    if kind != "generic_token" {
                        self.node(child, walk, scope, depth + 1)?;
                    }
                }
            }
        }
        self.flush(&mut group, &mut attach, walk, scope, elements)
    }

    fn flush(
        &self,
        group: &mut Option<(usize, usize)>,
        attach: &mut bool,
        walk: &Walk,
        scope: &Scope,
        elements: &mut Vec<Element>,
    ) -> Result<(), Unscannable> {
        let Some((start, end)) = group.take() else { return Ok(()) };
        let values = words::argument(walk.source.get(start..end).unwrap_or_default(), &self.context(scope))?;
        match elements.last_mut() {
            Some(Element::Param { value, .. }) if *attach => *value = Some(values),
            _ => elements.push(Element::Arg(values)),
        }
        *attach = false;
        Ok(())
    }

    /// `>`, `>>`, `2>`, `*>`, `N>>`: the file written; `2>&1` merges streams.
    fn redirection(&mut self, node: Node, walk: &Walk, scope: &mut Scope) -> Result<(), Unscannable> {
        if child_of_kind(node, "file_redirection_operator").is_none() {
            return Ok(());
        }
        let Some(file) = child_of_kind(node, "redirected_file_name") else { return Ok(()) };
        for value in words::argument(walk.text(file).trim(), &self.context(scope))? {
            self.add(&value.text, &scope.base.clone(), false);
        }
        Ok(())
    }

    fn assignment(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        let value = node.child_by_field_name("value");
        let left = child_of_kind(node, "left_assignment_expression");
        let defines_function = left.is_some_and(|left| walk.text(left).to_ascii_lowercase().contains("function:"));
        if let Some(value) = value {
            if defines_function {
                // A function's body does not run where it is defined.
                self.block(value, walk, &mut Scope { own: false, ..scope.clone() }, depth + 1)?;
            } else {
                self.node(value, walk, scope, depth + 1)?;
            }
        }
        let Some(left) = left else { return Ok(()) };
        let left = walk.text(left).trim();
        // `[string]$p = …`: the cast does not change the text.
        let name = left.rsplit(']').next().unwrap_or(left).trim();
        let name = name.strip_prefix("${").and_then(|n| n.strip_suffix('}')).map(|n| format!("${n}"));
        let name = name.as_deref().unwrap_or(left.rsplit(']').next().unwrap_or(left).trim());
        let Some(name) = name.strip_prefix('$').filter(|n| !n.is_empty() && !n.contains(['.', '['])) else {
            return Ok(());
        };
        let key = words::variable_key(name);
        let operator = child_of_kind(node, "assignement_operator").map(|op| walk.text(op)).unwrap_or("=");
        if let Some(function) = key.strip_prefix("function:") {
            // `${function:f} = { … }`: a function definition.
            let body = value.and_then(|value| script_block_in(value)).map(|block| {
                let params = child_of_kind(block, "param_block").map(|b| parameters(b, walk)).unwrap_or_default();
                Function { params, body: Some(Rc::from(walk.text(block))) }
            });
            let name = function_key(function);
            let function = body.unwrap_or(Function { params: Vec::new(), body: None });
            self.define_function(scope, name, function);
            return Ok(());
        }
        let values = match (operator, value) {
            ("=", Some(value)) => words::expression(walk.text(value), &self.context(scope))?,
            // `$p += 'x.md'`: the earlier values with the new part.
            ("+=", Some(value)) => {
                words::expression(&format!("${name} + ({})", walk.text(value)), &self.context(scope))?
            }
            _ => vec![Value::unset(name)],
        };
        if let Some(alias) = key.strip_prefix("alias:") {
            self.define_alias(scope, &Value::literal(alias), values.first());
            return Ok(());
        }
        self.assign(scope, key, values)
    }

    /// `foreach ($x in list) { … }`: the body is walked once with `$x` taking every value.
    fn foreach(&mut self, node: Node, walk: &Walk, scope: &mut Scope, depth: usize) -> Result<(), Unscannable> {
        let variable = child_of_kind(node, "variable").map(|v| walk.text(v).to_string());
        if let Some(list) = child_of_kind(node, "pipeline") {
            self.node(list, walk, scope, depth + 1)?;
            if let Some(variable) = &variable {
                let values = words::expression(walk.text(list), &self.context(scope))?;
                self.assign(scope, words::variable_key(variable), values)?;
            }
        }
        for child in children(node) {
            if child.kind() == "statement_block" {
                self.node(child, walk, scope, depth + 1)?;
            }
        }
        Ok(())
    }

    /// `[IO.File]::WriteAllText(path, …)` and the like; a method of any other object whose name
    /// says it writes is judged like an unknown command on its arguments.
    fn invocation(&mut self, node: Node, walk: &Walk, scope: &mut Scope) -> Result<(), Unscannable> {
        let parts = children(node);
        let Some(member) = parts.iter().find(|part| part.kind() == "member_name") else { return Ok(()) };
        let member = walk.text(*member).to_lowercase();
        let target: String =
            parts.first().map(|first| walk.text(*first)).unwrap_or_default().to_lowercase().replace(' ', "");
        let mut args: Vec<Vec<Value>> = Vec::new();
        if let Some(list) = parts.iter().find(|part| part.kind() == "argument_list")
            && let Some(expressions) = list.child_by_field_name("argument_expression_list")
        {
            for argument in children(expressions).into_iter().filter(|a| a.kind() == "argument_expression") {
                args.push(words::expression(walk.text(argument), &self.context(scope))?);
            }
        }
        let base = scope.base.clone();
        let is_file_type = matches!(target.as_str(), "[io.file]" | "[system.io.file]" | "[file]");
        if is_file_type {
            let written: &[usize] = match member.as_str() {
                m if m.starts_with("read") || m.starts_with("get") || m.starts_with("exists") => &[],
                "openread" | "opentext" | "equals" | "tostring" => &[],
                "copy" => &[1],
                "move" => &[0, 1],
                "replace" => &[0, 1, 2],
                _ => &[0],
            };
            for &at in written {
                for value in args.get(at).into_iter().flatten() {
                    self.add(&value.text, &base, false);
                }
            }
            return Ok(());
        }
        const WRITING: [&str; 14] = [
            "write", "append", "save", "create", "copy", "move", "delete", "replace", "open", "set", "remove",
            "rename", "export", "new",
        ];
        let reads = member == "openread" || member == "opentext";
        if !reads && WRITING.iter().any(|verb| member.starts_with(verb)) {
            for value in args.iter().flatten() {
                self.add_if_guarded(&value.text, &base);
            }
        }
        Ok(())
    }

    /// Text the grammar could not place (it reads Windows PowerShell best: `/bin/cp a b` is an
    /// error to it): cut into commands at `;`, `|`, line breaks, each run as a command line when
    /// it starts with a command name, else judged like an unknown command on its words.
    fn unparsed(&mut self, node: Node, walk: &Walk, scope: &mut Scope) -> Result<(), Unscannable> {
        let mut text = String::new();
        let mut at = node.start_byte();
        for child in children(node).into_iter().filter(|child| child.kind() == "comment") {
            text.push_str(walk.source.get(at..child.start_byte()).unwrap_or_default());
            text.push(' ');
            at = child.end_byte();
        }
        text.push_str(walk.source.get(at..node.end_byte()).unwrap_or_default());
        let chars: Vec<char> = text.chars().collect();
        for piece in words::split_commands(&chars) {
            let parts = words::split_blank(piece);
            let mut elements = Vec::new();
            for part in parts.iter().skip(1) {
                let part: String = part.iter().collect();
                match part.strip_prefix('-').filter(|name| name.chars().next().is_some_and(char::is_alphabetic)) {
                    Some(name) => elements.push(Element::Param {
                        name: name.trim_end_matches(':').to_lowercase(),
                        text: part.trim_end_matches(':').to_string(),
                        value: None,
                    }),
                    None => elements.push(Element::Arg(words::argument(&part, &self.context(scope))?)),
                }
            }
            let Some(first) = parts.first().map(|first| first.iter().collect::<String>()) else { continue };
            let is_name = first.chars().next().is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '\\'))
                && !matches!(
                    first.to_lowercase().as_str(),
                    "if" | "else"
                        | "elseif"
                        | "for"
                        | "foreach"
                        | "while"
                        | "do"
                        | "function"
                        | "filter"
                        | "try"
                        | "catch"
                        | "finally"
                        | "switch"
                        | "param"
                        | "class"
                        | "return"
                        | "throw"
                        | "trap"
                );
            if is_name {
                let mut inner = Walk { source: walk.source, nesting: walk.nesting };
                inner.nesting = walk.nesting;
                self.run(&first, &elements, &inner, scope, None)?;
            } else {
                let mut all = elements;
                all.push(Element::Arg(words::argument(&first, &self.context(scope))?));
                self.unknown(&all, scope);
            }
        }
        Ok(())
    }

    /// Runs the command named `name` (as typed) with `elements`: an alias the shell defined
    /// stands for its command, a function it defined runs its body, else the cmdlet or program.
    fn run(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Scope,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        if scope.defined.is_empty() {
            return self.run_command(name, elements, walk, scope, piped);
        }
        let uncertain = uncertain_names(&scope.defined, name);
        if uncertain.is_empty() {
            return self.run_defined(name, elements, walk, scope, piped);
        }
        // Defined in a block that may not have run: the name as it is without them runs too, apart
        // (what it writes from here); if the two leave the shell in different places, where it is
        // afterwards is no longer known.
        let mut without = (*scope.defined).clone();
        for name in &uncertain {
            without.aliases.remove(name);
            without.functions.remove(name);
            without.maybe.remove(name);
        }
        let mut apart = Scope { own: false, defined: Rc::new(without), ..scope.clone() };
        self.run(name, elements, walk, &mut apart, piped)?;
        let result = self.run_defined(name, elements, walk, scope, piped);
        if scope.own && (apart.base != scope.base || apart.stack != scope.stack) {
            self.moved_in_block = true;
        }
        result
    }

    /// [`Walker::run`] with the shell's aliases and functions taken as defined.
    fn run_defined(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Scope,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let defined = scope.defined.clone();
        if defined.any_alias {
            // Any name may be an alias of anything.
            self.unknown(elements, scope);
        }
        let mut resolved = name;
        for hop in 0..=MAX_ALIAS_HOPS {
            match defined.aliases.get(&resolved.to_lowercase()) {
                None => break,
                Some(Some(target)) if hop < MAX_ALIAS_HOPS => resolved = target,
                // Known only at run time, or a chain too long to follow.
                Some(_) => {
                    self.unknown(elements, scope);
                    if scope.own {
                        self.moved_in_block = true;
                    }
                    return Ok(None);
                }
            }
        }
        let key = function_key(resolved);
        match defined.functions.get(&key) {
            // A function calling itself: its body is being walked already; where the recursion
            // leaves the shell is unknown.
            Some(_) if self.calling.contains(&key) => {
                self.unknown(elements, scope);
                if scope.own {
                    self.moved_in_block = true;
                }
                Ok(None)
            }
            Some(function) => {
                self.calling.push(key);
                let result = self.call(function, elements, walk, scope, piped);
                self.calling.pop();
                result
            }
            None => self.run_command(resolved, elements, walk, scope, piped),
        }
    }

    /// A call of a function the shell defined: its body is walked here, in this location, with
    /// its parameters bound to the call's arguments. Arguments the body reads otherwise
    /// (`$args`, splats), or that bind to no parameter, are judged as an unknown command's.
    fn call(
        &mut self,
        function: &Function,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Scope,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let Some(body) = &function.body else {
            self.unknown(elements, scope);
            if scope.own {
                self.moved_in_block = true;
            }
            return Ok(None);
        };
        let binding = {
            let cx = self.context(scope);
            let default = |text: &str| words::expression(text, &cx).unwrap_or_else(|_| vec![Value::unset(text)]);
            function.bind(elements, default)
        };
        let mut bound = binding.params;
        if let Some(piped) = piped {
            // Any parameter may take the pipeline's input (`ValueFromPipeline`).
            for (name, values) in &mut bound {
                if binding.defaulted.contains(name) {
                    values.extend(piped.iter().cloned());
                }
            }
        }
        bound.push(("args".to_string(), binding.rest));
        bound.push(("input".to_string(), piped.map(<[Value]>::to_vec).unwrap_or_default()));
        let mut earlier = Vec::new();
        for (name, values) in bound {
            earlier.push((name.clone(), scope.vars.insert(name, values)));
        }
        self.conditional += 1;
        let result = self.script(body, scope, walk.nesting + 1);
        self.conditional -= 1;
        // Parameters are the function's own.
        for (name, values) in earlier.into_iter().rev() {
            match values {
                Some(values) => scope.vars.insert(name, values),
                None => scope.vars.remove(&name),
            };
        }
        result?;
        if !binding.clean || function.reads_raw_arguments() {
            self.unknown(elements, scope);
        }
        Ok(None)
    }

    fn run_command(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Scope,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        // `Microsoft.PowerShell.Management\Set-Content`: the module does not change the cmdlet.
        let unqualified = match name.rsplit_once('\\') {
            Some((_, cmdlet)) if cmdlets::is_cmdlet_name(cmdlet) => cmdlet,
            _ => name,
        };
        let program = basename(name).to_ascii_lowercase();
        let program = program.strip_suffix(".exe").unwrap_or(&program).to_string();
        if invocation::is_powershell(name) {
            if let Some(script) = invocation::invoked_script(&program_words(elements), None) {
                let mut child = Scope::process(&scope.base);
                self.script(&script, &mut child, walk.nesting + 1)?;
            }
            return Ok(None);
        }
        if program == "cmd" {
            if let Some(line) = cmd::script(&program_words(elements)) {
                self.cmd_line(&line, scope, walk.nesting + 1)?;
            }
            return Ok(None);
        }
        let cmdlet = cmdlets::canonical(unqualified);
        match cmdlets::lookup(&cmdlet) {
            Some((spec, kind)) => {
                let bound = cmdlets::bind(elements, spec);
                let output = self.cmdlet(&cmdlet, kind, &bound, walk, scope, piped)?;
                if NATIVE_ON_UNIX.contains(&unqualified.to_ascii_lowercase().as_str()) {
                    self.program(name, &program_words(elements), scope)?;
                }
                Ok(output)
            }
            None if cmdlets::is_cmdlet_name(&cmdlet) => {
                self.unknown(elements, scope);
                Ok(None)
            }
            None => {
                self.program(name, &program_words(elements), scope)?;
                Ok(None)
            }
        }
    }

    fn cmdlet(
        &mut self,
        cmdlet: &str,
        kind: Kind,
        bound: &Bound,
        walk: &Walk,
        scope: &mut Scope,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let base = scope.base.clone();
        let whatif = bound.switch("whatif");
        // Only these bind what the pipeline passes to their `-Path`; the others take it as content.
        let takes_piped_path =
            matches!(cmdlet, "remove-item" | "clear-content" | "copy-item" | "move-item" | "rename-item");
        let piped: Vec<&Value> = piped
            .filter(|_| takes_piped_path || kind == Kind::InvokeExpression)
            .map(|v| v.iter().collect())
            .unwrap_or_default();
        // `-Path` (wildcards) or `-LiteralPath`, else what the pipeline passes in.
        let sources = |bound: &Bound| -> Vec<(String, bool)> {
            let mut found: Vec<(String, bool)> = bound.values("path").iter().map(|v| (v.text.clone(), true)).collect();
            found.extend(bound.values("literalpath").iter().map(|v| (v.text.clone(), false)));
            if found.is_empty() {
                found.extend(piped.iter().map(|v| (v.text.clone(), true)));
            }
            found
        };
        match kind {
            Kind::WritesPaths if !whatif => {
                if cmdlet == "remove-item" {
                    let removed: Vec<String> = sources(bound).into_iter().map(|(path, _)| path).collect();
                    self.undefine(scope, &removed);
                }
                let mut written = sources(bound);
                // `alias:w`, `function:f`: no file.
                written.retain(|(path, _)| drive_item(path).is_none());
                for param in ["filepath", "outputmodule"] {
                    written.extend(bound.values(param).iter().map(|v| (v.text.clone(), false)));
                }
                for (path, wildcard) in written {
                    self.add(&path, &base, wildcard);
                }
            }
            Kind::NewItem if !whatif => {
                let item_type = bound.values("itemtype").first().map(|v| v.text.to_lowercase()).unwrap_or_default();
                let mut paths = texts(&bound.values("path"));
                let names = texts(&bound.values("name"));
                if paths.is_empty() {
                    paths.push(".".to_string());
                }
                if paths.iter().any(|path| drive_item(path).is_some()) {
                    let mut items = Vec::new();
                    for path in &paths {
                        items.extend(names.iter().map(|name| joined(path, name)));
                        if names.is_empty() {
                            items.push(path.clone());
                        }
                    }
                    let value = bound.values("value").first().map(|value| (*value).clone());
                    for item in items {
                        self.define_item(scope, &Value::literal(&item), value.as_ref())?;
                    }
                    return Ok(None);
                }
                if item_type.starts_with('d') {
                    return Ok(None);
                }
                for path in &paths {
                    if names.is_empty() {
                        self.add(path, &base, false);
                    }
                    for name in &names {
                        self.add(&joined(path, name), &base, false);
                    }
                }
                if ["symboliclink", "hardlink", "junction"].iter().any(|link| link.starts_with(&item_type))
                    && !item_type.is_empty()
                {
                    for target in bound.values("value") {
                        self.add(&target.text, &base, false);
                    }
                }
            }
            Kind::Copy | Kind::Move if !whatif => {
                let sources = sources(bound);
                let mut destinations = texts(&bound.values("destination"));
                if destinations.is_empty() {
                    destinations.push(".".to_string());
                }
                for destination in &destinations {
                    self.add(destination, &base, false);
                    for (source, _) in &sources {
                        let name = basename(source);
                        if !name.is_empty() && name != "." && name != ".." {
                            self.add(&joined(destination, name), &base, true);
                        }
                    }
                }
                if kind == Kind::Move {
                    for (source, wildcard) in &sources {
                        self.add(source, &base, *wildcard);
                    }
                }
            }
            Kind::Rename if !whatif => {
                let new_names = texts(&bound.values("newname"));
                for (source, wildcard) in sources(bound) {
                    self.add(&source, &base, wildcard);
                    for new_name in &new_names {
                        self.add(&joined(parent(&source), basename(new_name)), &base, false);
                    }
                }
            }
            Kind::SetLocation | Kind::PushLocation => {
                let to = bound.values("path").into_iter().chain(bound.values("literalpath")).next().cloned();
                let to = match to {
                    Some(to) if to.text == "-" || to.text == "+" => return Ok(None),
                    Some(to) => resolve(&to.text, &base),
                    None if kind == Kind::SetLocation => self.home.as_ref().map(PathBuf::from),
                    None => None,
                };
                if let Some(to) = to {
                    if kind == Kind::PushLocation {
                        scope.stack.push(base);
                    }
                    self.moved(&scope.base, &to);
                    scope.base = to;
                    self.reach(scope);
                }
            }
            Kind::PopLocation => {
                if let Some(top) = scope.stack.pop() {
                    self.moved(&scope.base, &top);
                    scope.base = top;
                    self.reach(scope);
                }
            }
            Kind::InvokeExpression => {
                let mut commands = texts(&bound.values("command"));
                if commands.is_empty() {
                    commands.extend(piped.iter().map(|v| v.text.clone()));
                }
                for command in commands {
                    self.script(&command, scope, walk.nesting + 1)?;
                }
            }
            Kind::StartProcess => {
                for param in ["redirectstandardoutput", "redirectstandarderror"] {
                    for file in bound.values(param) {
                        self.add(&file.text, &base, false);
                    }
                }
                let Some(program) = bound.values("filepath").first().map(|v| v.text.clone()) else { return Ok(None) };
                let line = texts(&bound.values("argumentlist")).join(" ");
                let chars: Vec<char> = line.chars().collect();
                let mut elements = Vec::new();
                for word in words::split_blank(&chars) {
                    elements
                        .push(Element::Arg(words::argument(&word.iter().collect::<String>(), &self.context(scope))?));
                }
                let mut child = Scope { own: false, ..scope.clone() };
                if let Some(dir) = bound.values("workingdirectory").first().and_then(|dir| resolve(&dir.text, &base)) {
                    child.base = dir;
                }
                self.run(&program, &elements, walk, &mut child, None)?;
            }
            Kind::SetAlias if !whatif => {
                let target = bound.values("value").first().map(|target| (*target).clone());
                for name in bound.values("name").into_iter().cloned().collect::<Vec<_>>() {
                    self.define_alias(scope, &name, target.as_ref());
                }
            }
            Kind::RemoveAlias if !whatif => {
                let names: Vec<String> =
                    bound.values("name").iter().map(|name| format!("alias:{}", name.text)).collect();
                self.undefine(scope, &names);
            }
            Kind::ReadOnly if cmdlet == "import-alias" => {
                // Aliases from a file: any command may now be one.
                Rc::make_mut(&mut scope.defined).any_alias = true;
                self.reach(scope);
            }
            Kind::SetVariable if !whatif => {
                let values: Vec<Value> = bound.values("value").into_iter().cloned().collect();
                for name in bound.values("name").into_iter().filter(|name| !name.dynamic).cloned().collect::<Vec<_>>() {
                    let values = if values.is_empty() { vec![Value::literal("")] } else { values.clone() };
                    self.assign(scope, words::variable_key(&name.text), values)?;
                }
            }
            Kind::SetItem if !whatif => {
                let value = bound.values("value").first().map(|value| (*value).clone());
                let items: Vec<Value> =
                    bound.values("path").into_iter().chain(bound.values("literalpath")).cloned().collect();
                for item in &items {
                    if drive_item(&item.text).is_some() {
                        self.define_item(scope, item, value.as_ref())?;
                    } else {
                        let all: Vec<Value> = items.iter().chain(value.iter()).cloned().collect();
                        for value in all {
                            self.add_if_guarded(&value.text, &base);
                        }
                    }
                }
            }
            Kind::ReadOnly if matches!(cmdlet, "get-childitem" | "get-item") => {
                let listing = cmdlet == "get-childitem";
                let mut output = Vec::new();
                let mut listed = sources(bound);
                listed.extend(bound.rest.iter().flatten().map(|v| (v.text.clone(), true)));
                for (path, _) in listed {
                    if listing {
                        output.push(Value { text: joined(&path, "*"), dynamic: false });
                    }
                    output.push(Value::literal(&path));
                }
                if output.is_empty() && listing {
                    output.push(Value::literal("*"));
                }
                return Ok(Some(output));
            }
            _ => {}
        }
        Ok(None)
    }

    /// `Remove-Item alias:w`, `Remove-Item function:f`, `Remove-Alias w`: the name is the
    /// command it was before. In a block that may not run, it may also still be defined, and a
    /// function or alias left defined by the walk could move the location where it is called.
    fn undefine(&mut self, scope: &mut Scope, items: &[String]) {
        let mut removed = false;
        for item in items {
            let Some((drive, name)) = drive_item(item) else { continue };
            let name = name.to_lowercase();
            let defined = Rc::make_mut(&mut scope.defined);
            defined.maybe.remove(&name);
            removed |= match drive {
                Drive::Alias => defined.aliases.remove(&name).is_some(),
                Drive::Function => defined.functions.remove(&function_key(&name)).is_some(),
                Drive::Variable | Drive::Env => false,
            };
        }
        if removed {
            if self.conditional > 0 && scope.own {
                self.moved_in_block = true;
            }
            self.reach(scope);
        }
    }

    /// `Set-Item alias:w Set-Content`, `New-Item function:f -Value …`, `variable:p`, `env:X`: a
    /// definition on one of PowerShell's own drives.
    fn define_item(&mut self, scope: &mut Scope, item: &Value, value: Option<&Value>) -> Result<(), Unscannable> {
        let Some((drive, name)) = drive_item(&item.text).filter(|(_, name)| !name.is_empty()) else { return Ok(()) };
        let name = Value { text: name.to_string(), dynamic: item.dynamic };
        match drive {
            Drive::Alias => self.define_alias(scope, &name, value),
            Drive::Function if name.dynamic => Rc::make_mut(&mut scope.defined).any_alias = true,
            Drive::Function => {
                // A string becomes the body; a script block's text is not kept whole in a value.
                let body = value.filter(|value| !value.dynamic).map(|value| Rc::from(value.text.as_str()));
                self.define_function(scope, function_key(&name.text), Function { params: Vec::new(), body });
            }
            Drive::Variable | Drive::Env if name.dynamic => {}
            Drive::Variable | Drive::Env => {
                let key = match drive {
                    Drive::Env => format!("env:{}", name.text.to_lowercase()),
                    _ => words::variable_key(&name.text),
                };
                self.assign(scope, key, vec![value.cloned().unwrap_or_else(|| Value::literal(""))])?;
            }
        }
        Ok(())
    }

    /// A cmdlet this table does not know, or one run through a name only known at run time:
    /// every guarded location its arguments name is written.
    fn unknown(&mut self, elements: &[Element], scope: &Scope) {
        for value in cmdlets::all_values(elements) {
            self.add_if_guarded(&value.text, &scope.base.clone());
        }
    }

    /// A program: judged by the bash writer table on the same words.
    fn program(&mut self, name: &str, args: &[String], scope: &Scope) -> Result<(), Unscannable> {
        let program = basename(name);
        let program = program.strip_suffix(".exe").unwrap_or(program);
        let mut line = bash_quote(program);
        for arg in args {
            line.push(' ');
            line.push_str(&bash_quote(&as_path_word(arg)));
        }
        for target in bash::write_targets(&line, &scope.base)? {
            self.add_absolute(target);
        }
        Ok(())
    }

    /// A `cmd /c` line, run in the current location.
    fn cmd_line(&mut self, line: &str, scope: &Scope, nesting: usize) -> Result<(), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        let mut base = scope.base.clone();
        for step in cmd::steps(line) {
            for file in &step.redirected {
                self.add(file, &base, false);
            }
            let Some(first) = step.words.first() else { continue };
            let program = basename(first).to_ascii_lowercase();
            let program = program.strip_suffix(".exe").unwrap_or(&program).to_string();
            let rest = step.words.get(1..).unwrap_or_default();
            match cmd_exe::effects(&program, rest) {
                Some(effects) => {
                    for effect in effects {
                        self.cmd_effect(effect, rest, &mut base, scope, nesting)?;
                    }
                }
                None if invocation::is_powershell(first) => {
                    if let Some(script) = invocation::invoked_script(rest, None) {
                        let mut child = Scope::process(&base);
                        self.script(&script, &mut child, nesting + 1)?;
                    }
                }
                None => {
                    let mut at_base = Scope { own: false, ..scope.clone() };
                    at_base.base = base.clone();
                    self.program(first, rest, &at_base)?;
                }
            }
        }
        Ok(())
    }

    /// One effect of cmd's own commands ([`cmd_exe`]), from the directory `base`.
    fn cmd_effect(
        &mut self,
        effect: CmdEffect,
        args: &[String],
        base: &mut PathBuf,
        scope: &Scope,
        nesting: usize,
    ) -> Result<(), Unscannable> {
        match effect {
            CmdEffect::Write { path, wildcard } => self.add(path, base, wildcard),
            CmdEffect::WriteEntry { dir, name, wildcard } => {
                let dir = match dir {
                    EntryDir::Is(dir) => dir,
                    EntryDir::ParentOf(path) => parent(path),
                };
                self.add(&joined(dir, basename(name)), base, wildcard);
            }
            CmdEffect::Cd(dir) => {
                if let Some(to) = resolve(dir, base) {
                    *base = to;
                }
            }
            CmdEffect::Cmd => {
                if let Some(inner) = cmd::script(args) {
                    let mut inner_scope = Scope { own: false, ..scope.clone() };
                    inner_scope.base = base.clone();
                    self.cmd_line(&inner, &inner_scope, nesting + 1)?;
                }
            }
        }
        Ok(())
    }

    fn add_if_guarded(&mut self, text: &str, base: &Path) {
        if let Some(path) = resolve(text, base)
            && (is_guarded(&path) || self.wildcard_approval(text, &path).is_some())
        {
            self.add(text, base, true);
        }
    }

    /// A wildcard whose last component could match approval.md names it too.
    fn wildcard_approval(&self, text: &str, path: &Path) -> Option<PathBuf> {
        let name = basename(text);
        (words::has_wildcard(name) && words::wildcard_matches(name, paths::APPROVAL_FILE))
            .then(|| path.parent().map(|dir| dir.join(paths::APPROVAL_FILE)))
            .flatten()
    }

    /// A write of `text` (a PowerShell path) from `base`; a wildcard path writes approval.md too
    /// when its last component could match it.
    fn add(&mut self, text: &str, base: &Path, wildcard: bool) {
        let Some(path) = resolve(text, base) else { return };
        if wildcard && let Some(approval) = self.wildcard_approval(text, &path) {
            self.add_absolute(approval);
        }
        // A path computed at run time (`"{0}\approval.md" -f $d`) that names a guarded location
        // is taken to reach it.
        if text.contains(['$', '('])
            && !is_guarded(&path)
            && let Some(named) = super::guarded_location_named(text)
        {
            self.add_absolute(paths::absolute(named, base));
        }
        self.add_absolute(path);
    }

    /// A location change ([`bash::from_every_directory`]).
    fn moved(&mut self, from: &Path, to: &Path) {
        bash::record_move(&mut self.moves, from, to, self.found.len());
    }

    fn add_absolute(&mut self, path: PathBuf) {
        if self.found.len() >= MAX_TARGETS {
            self.too_many = true;
        } else if self.seen.insert(path.clone()) {
            self.found.push(path);
        }
    }
}
