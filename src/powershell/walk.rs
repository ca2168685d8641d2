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

mod calls;
mod cmdlet;
mod definitions;
mod hashtables;
mod targets;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use tree_sitter::{Node, Tree};

use super::cmdlets::Element;
use super::parse;
use super::state::{Definitions, Function, PowerShell};
use super::words::{self, Context};
use super::{MAX_NODES, MAX_PARSE_CHECKS, MAX_SCRIPT_BYTES, MAX_SCRIPT_NESTING, MAX_TREE_DEPTH};
use crate::analysis::Unscannable;
use crate::analysis::budget::Budget;
use crate::analysis::handoff::Analyses;
use crate::analysis::moves::{self, Move};
use crate::analysis::persistent::{Left, Walked};
use crate::analysis::scope::{Scope, vars_weight};
use crate::analysis::targets::Targets;
use crate::analysis::values::{MAX_VALUES, Value};
use definitions::{function_key, parameters};

pub fn targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    targets_from(command, &Scope::fresh(base), analyses).map(|(targets, _, _)| targets)
}

/// [`targets`] of a script another command line runs (`pwsh -c` from bash): what the line did
/// before it, the filesystem the walk looks at does not show yet.
pub fn nested_targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    walk_from(command, &Scope::fresh(base), false, analyses).map(|(targets, _, _)| targets)
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
pub fn targets_from(
    command: &str,
    state: &Scope<PowerShell>,
    analyses: &dyn Analyses,
) -> Result<Walked<Scope<PowerShell>>, Unscannable> {
    walk_from(command, state, true, analyses)
}

fn walk_from(
    command: &str,
    state: &Scope<PowerShell>,
    whole_call: bool,
    analyses: &dyn Analyses,
) -> Result<Walked<Scope<PowerShell>>, Unscannable> {
    let mut walker = Walker {
        analyses,
        whole_call,
        targets: Targets::default(),
        home: std::env::var("HOME").ok().filter(|home| home.starts_with('/')),
        checks: Budget::new(MAX_PARSE_CHECKS),
        nodes_left: MAX_NODES,
        text_left: MAX_SCRIPT_BYTES,
        reached: Vec::new(),
        reaches: Vec::new(),
        reach_count: 0,
        pushed: Vec::new(),
        moved_in_block: false,
        lost_states: false,
        reached_bytes: 0,
        last_place: None,
        calling: Vec::new(),
        copy_left: MAX_REACHED_COPY_BYTES,
        conditional: 0,
        moves: Vec::new(),
        command,
        everything_named: OnceCell::new(),
        chained: 0,
        walked_sibling: None,
        stack_unsure: false,
        start_base: state.base.clone(),
        uncomputed_locations: Vec::new(),
        made_dirs: Vec::new(),
        dirs_unseen: false,
    };
    let mut scope = Session { scope: state.clone(), own: true };
    walker.script(command, &mut scope, 0)?;
    if walker.targets.over_cap() || !moves::from_every_directory(&mut walker.targets, &walker.moves) {
        return Err(Unscannable::TooManyTargets);
    }
    walker.reach(&scope);
    let complete = !walker.moved_in_block && !walker.lost_states;
    let mut left = Left::ended(Vec::new());
    for (state, reach) in walker.reached.into_iter().zip(walker.reaches) {
        if reach.passed { left.passed.push(state) } else { left.ended.push(state) }
    }
    Ok((walker.targets.into_paths(), left, complete))
}

/// The most distinct places one call records (the persistent store folds them and keeps at
/// most [`crate::analysis::persistent::MAX_STATES`]); past it the list is incomplete.
pub const MAX_REACHED: usize = 8 * crate::analysis::persistent::MAX_STATES;
/// The most bytes the states one call records may hold when first reached.
pub const MAX_REACHED_BYTES: usize = 2 * crate::analysis::persistent::MAX_SHELL_BYTES;
/// The most bytes of scope one call copies to record the states it reaches: 16 MiB.
pub const MAX_REACHED_COPY_BYTES: usize = 16 << 20;

/// Variables a pipeline or a function call sets for a while: not the shell's between calls.
const TRANSIENT_VARS: [&str; 4] = ["_", "psitem", "args", "input"];

/// What a PowerShell session carries from one statement to the next: its [`Scope`], and
/// whether the location is the shell's own (not a nested `pwsh -c`, `Start-Process` or `cmd /c`).
#[derive(Clone)]
struct Session {
    scope: Scope<PowerShell>,
    own: bool,
}

impl std::ops::Deref for Session {
    type Target = Scope<PowerShell>;
    fn deref(&self) -> &Scope<PowerShell> {
        &self.scope
    }
}

impl std::ops::DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Scope<PowerShell> {
        &mut self.scope
    }
}

impl Session {
    /// A new PowerShell process in `base` (`pwsh -c`): nothing of this one's.
    fn process(base: &Path) -> Session {
        Session { scope: Scope::fresh(base), own: false }
    }

    /// The shell's scope now, without the variables a pipeline or call sets for a while.
    fn state(&self) -> Scope<PowerShell> {
        let mut state = self.scope.clone();
        if state.vars.keys().any(|name| TRANSIENT_VARS.contains(&name.as_str())) {
            Rc::make_mut(&mut state.vars).retain(|name, _| !TRANSIENT_VARS.contains(&name.as_str()));
        }
        state
    }
}

struct Walker<'a> {
    /// The other analyses, for what a command hands them (`bash -c`, a program run).
    analyses: &'a dyn Analyses,
    /// The script is the whole tool call: its first command sees the filesystem as it is now.
    whole_call: bool,
    targets: Targets,
    home: Option<String>,
    /// The parser's work budget, shared by nested scripts.
    checks: Budget,
    /// Nodes the walk may still visit.
    nodes_left: usize,
    /// Bytes of script text (nested scripts included) that may still be parsed.
    text_left: usize,
    /// The states the shell's own location changes reached, at most [`MAX_REACHED`].
    reached: Vec<Scope<PowerShell>>,
    /// For each reached state, when it was first reached and whether it is only passed through.
    reaches: Vec<Reach>,
    /// How many times the walk reached a state so far.
    reach_count: usize,
    /// The shell's own `Push-Location`s whose location is still on its stack: the stack's depth
    /// after each, the reach count then, and how many targets were recorded before it.
    pushed: Vec<(usize, usize, usize)>,
    /// A script block left the shell's location elsewhere than it found it, or a command the
    /// walk could not name ran where functions or aliases could have moved it.
    moved_in_block: bool,
    /// A reached state could not be kept whole: past [`MAX_REACHED`] places or
    /// [`MAX_REACHED_BYTES`], or a variable with more than [`MAX_VALUES`] values.
    lost_states: bool,
    /// Bytes the reached states held when they were first reached.
    reached_bytes: usize,
    /// The reached state the shell's definitions last folded into, and those definitions.
    last_place: Option<(Rc<Definitions>, usize)>,
    /// The functions being called, innermost last: a recursive call is not walked again.
    calling: Vec<String>,
    /// The location changes the script made, (from, to), each once.
    moves: Vec<Move>,
    /// Bytes of scope the reached states may still copy ([`MAX_REACHED_COPY_BYTES`]).
    copy_left: usize,
    /// How many blocks (branches, loops, script blocks, function bodies) the walk is in: an
    /// assignment there may not run, so the variable keeps its earlier values too.
    conditional: usize,
    /// The whole call's text.
    command: &'a str,
    /// Every guarded location the call names ([`crate::paths::everything_named`]): where a write
    /// the walk cannot compute may land (P-18). Read once it is needed: most calls write nothing
    /// uncomputed.
    everything_named: OnceCell<Rc<[PathBuf]>>,
    /// How many pipeline chains after `&&` or `||` the walk is in: they may not run.
    chained: usize,
    /// The child [`Self::children`] hands to [`Self::node`] next, and whether a `&&`/`||` comes
    /// before it; taken by that call.
    walked_sibling: Option<(usize, bool)>,
    /// The location stack changed where the walk cannot tell whether it ran (a block, a nested
    /// script, a chain after `&&`/`||`, another process): a `Pop-Location` is no longer sure.
    stack_unsure: bool,
    /// Where the call starts.
    start_base: PathBuf,
    /// Locations the walk went to through a value it could not compute whose text does not show
    /// it (`Set-Location ((Get-Content f) + 'docs')`): what is relative there is uncomputed too.
    uncomputed_locations: Vec<PathBuf>,
    /// Directories the call made so far (`mkdir`, `New-Item -ItemType Directory`), at most
    /// [`MAX_MADE_DIRS`]: a copy into one lands inside it.
    made_dirs: Vec<PathBuf>,
    /// A command ran that may have made any directory (a program, a command the walk does not
    /// know, a method that creates): a copy's destination may be one.
    dirs_unseen: bool,
}

/// When a reached state was first reached, and whether a sure `Pop-Location` left it again.
struct Reach {
    first: usize,
    passed: bool,
}
/// The most directories the call makes that the walk keeps; past them any may be one.
const MAX_MADE_DIRS: usize = 64;

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

/// Does the word so far end with an unescaped backtick, so the blank after it belongs to it?
fn escapes_blank(group: Option<(usize, usize)>, walk: &Walk) -> bool {
    let Some((start, end)) = group else { return false };
    let text = walk.source.get(start..end).unwrap_or_default();
    text.chars().rev().take_while(|&c| c == '`').count() % 2 == 1
}

/// The grammar's number for `pipeline_chain_tail` (`&& b`), compared as a number: asking each
/// node for its kind's name costs more than the look back it saves.
fn chain_tail_kind() -> u16 {
    static KIND: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    *KIND.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_powershell::LANGUAGE.into();
        language.id_for_node_kind("pipeline_chain_tail", true)
    })
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    children(node).into_iter().find(|child| child.kind() == kind)
}

/// Roughly the bytes [`Session::state`] copies: variables and locations (definitions are shared).
fn scope_weight(scope: &Session) -> usize {
    let stack: usize = scope.stack.iter().map(|dir| dir.as_os_str().len()).sum();
    scope.base.as_os_str().len() + stack + vars_weight::<PowerShell>(&scope.vars) + 64
}

/// Methods whose first argument is script text they make into code that may run:
/// `[scriptblock]::Create(text)`, `$ExecutionContext.InvokeCommand.NewScriptBlock(text)` and
/// `.InvokeScript(text)`, `[powershell]::Create().AddScript(text)`.
fn takes_script_text(target: &str, member: &str) -> bool {
    const SCRIPTBLOCK_TYPES: [&str; 2] = ["[scriptblock]", "[system.management.automation.scriptblock]"];
    match member {
        "create" => SCRIPTBLOCK_TYPES.contains(&target),
        "newscriptblock" | "invokescript" | "addscript" => true,
        _ => false,
    }
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

impl Walker<'_> {
    /// Records the state the shell is in now, if `scope` is the shell's: folded into a state
    /// already reached in the same location (see [`Scope::fold`]), if any. Past [`MAX_REACHED`]
    /// places or [`MAX_REACHED_BYTES`] the state is lost and the list incomplete.
    fn reach(&mut self, scope: &Session) {
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
        let exact = self.reached.iter().position(|kept| scope.same_place(kept));
        let folded = exact.or_else(|| self.reached.iter().position(|kept| kept.folds_with(&state)));
        self.reach_count += 1;
        if let Some(at) = folded {
            if let Some(kept) = self.reached.get_mut(at) {
                self.lost_states |= kept.fold(&state) != Some(true);
            }
            if let Some(reach) = self.reaches.get_mut(at) {
                reach.passed = false;
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
        self.reaches.push(Reach { first: self.reach_count, passed: false });
    }

    /// A `Push-Location` of the shell's own stack: what a sure `Pop-Location` undoes.
    fn pushed_location(&mut self, scope: &Session) {
        if scope.own {
            self.pushed.push((scope.stack.len(), self.reach_count, self.targets.len()));
        }
    }

    /// After a sure `Pop-Location` back to `to` from a stack `depth` deep, which reached the
    /// state at `own`: the states first reached since the `Push-Location` it undoes are only
    /// passed through, unless the call wrote `to` or a folder above it since (it may be gone, and
    /// the pop fail).
    fn popped_location(&mut self, depth: usize, to: &Path, own: Option<usize>) {
        let Some(&(_, since, targets)) = self.pushed.iter().rev().find(|(at, _, _)| *at == depth) else { return };
        self.pushed.retain(|(at, _, _)| *at < depth);
        if self.targets.since(targets).iter().any(|written| to.starts_with(written)) {
            return;
        }
        for (at, reach) in self.reaches.iter_mut().enumerate() {
            if reach.first > since && Some(at) != own {
                reach.passed = true;
            }
        }
    }

    /// Records that variable `key` of the shell changed: its new values join those of the state
    /// reached in this place (one variable, not the whole scope, so a long script stays linear).
    fn reach_var(&mut self, scope: &Session, key: &str) {
        if !scope.own || TRANSIENT_VARS.contains(&key) {
            return;
        }
        let values = scope.vars.get(key).map(Vec::as_slice).unwrap_or_default();
        let last =
            self.last_place.as_ref().filter(|(defined, _)| Rc::ptr_eq(defined, &scope.defined)).map(|(_, at)| *at);
        let place = last
            .filter(|&at| self.reached.get(at).is_some_and(|kept| kept.base == scope.base && kept.stack == scope.stack))
            .or_else(|| self.reached.iter().position(|kept| scope.same_place(kept)));
        match place.and_then(|at| self.reached.get_mut(at)) {
            Some(kept) => self.lost_states |= !kept.add_values(key, values),
            None => self.reach(scope),
        }
    }

    /// Sets variable `key`: in a block that may not run, it keeps its earlier values too.
    fn assign(&mut self, scope: &mut Session, key: String, mut values: Vec<Value>) -> Result<(), Unscannable> {
        if self.conditional > 0 {
            let earlier = scope.vars.get(&key).cloned().unwrap_or_else(|| vec![Value::unset(&key)]);
            for value in earlier {
                if !values.contains(&value) {
                    values.push(value);
                }
            }
            if values.len() > MAX_VALUES {
                return Err(Unscannable::ExpansionTooLarge);
            }
        }
        Rc::make_mut(&mut scope.vars).insert(key.clone(), values);
        self.reach_var(scope, &key);
        Ok(())
    }

    fn script(&mut self, source: &str, scope: &mut Session, nesting: usize) -> Result<(), Unscannable> {
        let (tree, respelled) = self.parse(source, nesting)?;
        self.walk_tree(respelled.as_deref().unwrap_or(source), &tree, scope, nesting)
    }

    /// A script `nesting` deep parsed, from the call's budgets (its text, the parser's work).
    /// Where the grammar misread a path typed as a command name (`./x.ps1 $p`, see
    /// [`parse::misread_path_names`]) the script is parsed again spelled `& ./x.ps1 $p`, which
    /// PowerShell runs the same way: the tree is then of that text, returned with it.
    fn parse(&mut self, source: &str, nesting: usize) -> Result<(Tree, Option<String>), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        self.text_left = self.text_left.checked_sub(source.len()).ok_or(Unscannable::TooMuchText)?;
        let tree = parse::parse(source, &self.checks)?;
        let misread = parse::misread_path_names(source, &tree);
        if misread.is_empty() {
            return Ok((tree, None));
        }
        let respelled = parse::with_call_operators(source, &misread);
        self.text_left = self.text_left.checked_sub(respelled.len()).ok_or(Unscannable::TooMuchText)?;
        let tree = parse::parse(&respelled, &self.checks)?;
        Ok((tree, Some(respelled)))
    }

    /// A script [`Self::parse`] read, walked.
    fn walk_tree(&mut self, source: &str, tree: &Tree, scope: &mut Session, nesting: usize) -> Result<(), Unscannable> {
        let walk = Walk { source, nesting };
        self.node(tree.root_node(), &walk, scope, 0)
    }

    fn context<'a>(&'a self, scope: &'a Session) -> Context<'a> {
        Context { vars: &scope.vars, base: &scope.base, home: self.home.as_deref() }
    }

    fn node(&mut self, node: Node, walk: &Walk, scope: &mut Session, depth: usize) -> Result<(), Unscannable> {
        if depth > MAX_TREE_DEPTH {
            return Err(Unscannable::TooDeep);
        }
        self.nodes_left = self.nodes_left.checked_sub(1).ok_or(Unscannable::TooComplex)?;
        let after_tail = self.walked_sibling.take().filter(|(id, _)| *id == node.id()).map(|(_, after)| after);
        match node.kind() {
            "pipeline_chain" => self.pipeline_chain(node, after_tail, walk, scope, depth),
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
                // Inside a command's arguments an error node is argument text (`$env:X\y`,
                // `$PWD.Path/x.md`), unless it lies in statements of their own (`$(…)`, `{…}`).
                if !in_arguments(node) {
                    self.unparsed(node, walk, scope)?;
                }
                self.children(node, walk, scope, depth)
            }
            _ => self.children(node, walk, scope, depth),
        }
    }

    /// A block that may run once, many times or never: a branch, a loop's body, a script block.
    fn block(&mut self, node: Node, walk: &Walk, scope: &mut Session, depth: usize) -> Result<(), Unscannable> {
        self.conditional += 1;
        let result = self.children(node, walk, scope, depth);
        self.conditional -= 1;
        result
    }

    fn children(&mut self, node: Node, walk: &Walk, scope: &mut Session, depth: usize) -> Result<(), Unscannable> {
        let mut after_tail = false;
        for child in children(node) {
            self.walked_sibling = Some((child.id(), after_tail));
            after_tail = child.kind_id() == chain_tail_kind();
            self.node(child, walk, scope, depth + 1)?;
        }
        Ok(())
    }

    /// A pipeline: what each element receives is what the one before it produced, where known.
    fn pipeline_chain(
        &mut self,
        node: Node,
        after_tail: Option<bool>,
        walk: &Walk,
        scope: &mut Session,
        depth: usize,
    ) -> Result<(), Unscannable> {
        // `a && b`, `a || b`: `b` may not run.
        // Known from the walk over the parent's children when it came that way: tree-sitter finds
        // a previous sibling by walking down from the parent again (a third of a chain's cost).
        let tail = after_tail
            .unwrap_or_else(|| node.prev_sibling().is_some_and(|before| before.kind_id() == chain_tail_kind()));
        self.chained += usize::from(tail);
        let result = self.pipeline_elements(node, walk, scope, depth);
        self.chained -= usize::from(tail);
        result
    }

    fn pipeline_elements(
        &mut self,
        node: Node,
        walk: &Walk,
        scope: &mut Session,
        depth: usize,
    ) -> Result<(), Unscannable> {
        let mut piped: Option<Vec<Value>> = None;
        let mut after_pipe = false;
        for child in children(node) {
            // What an element passes on where the walk does not know it: a value it cannot compute.
            if after_pipe && piped.is_none() {
                piped = Some(vec![Value::unset("input")]);
            }
            match child.kind() {
                "|" => after_pipe = true,
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

    /// `>`, `>>`, `2>`, `*>`, `N>>`: the file written; `2>&1` merges streams.
    fn redirection(&mut self, node: Node, walk: &Walk, scope: &mut Session) -> Result<(), Unscannable> {
        if child_of_kind(node, "file_redirection_operator").is_none() {
            return Ok(());
        }
        let Some(file) = child_of_kind(node, "redirected_file_name") else { return Ok(()) };
        for value in words::argument(walk.text(file).trim(), &self.context(scope))? {
            self.add(&value.text, &scope.base.clone(), false);
        }
        Ok(())
    }

    fn assignment(&mut self, node: Node, walk: &Walk, scope: &mut Session, depth: usize) -> Result<(), Unscannable> {
        let value = node.child_by_field_name("value");
        let left = child_of_kind(node, "left_assignment_expression");
        let defines_function = left.is_some_and(|left| walk.text(left).to_ascii_lowercase().contains("function:"));
        if let Some(value) = value {
            if defines_function {
                // A function's body does not run where it is defined.
                self.block(value, walk, &mut Session { own: false, ..scope.clone() }, depth + 1)?;
            } else {
                self.node(value, walk, scope, depth + 1)?;
            }
        }
        let Some(left) = left else { return Ok(()) };
        let left = walk.text(left).trim();
        // `[string]$p = …`: the cast does not change the text.
        let uncast = match left.strip_prefix('[') {
            Some(_) => left.find('$').and_then(|at| left.get(at..)).unwrap_or(left),
            None => left,
        };
        let braced = uncast.strip_prefix("${").and_then(|n| n.strip_suffix('}')).map(|n| format!("${n}"));
        let name = braced.as_deref().unwrap_or(uncast);
        let operator = child_of_kind(node, "assignement_operator").map(|op| walk.text(op)).unwrap_or("=");
        let Some(name) = name.strip_prefix('$').filter(|n| !n.is_empty()) else { return Ok(()) };
        if let Some((variable, keys)) = self.entry_keys(name, scope)? {
            // `$h[key] = value`, `$h.key = value`: an entry of a hashtable.
            let values = match value {
                Some(value) if operator == "=" => words::expression(walk.text(value), &self.context(scope))?,
                _ => vec![Value::unset(name)],
            };
            return self.add_entry(scope, &variable, &keys, &values);
        }
        if name.contains(['.', '[']) {
            return Ok(());
        }
        let key = words::variable_key(name);
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
        let entries = match value {
            Some(value) => words::hashtable(walk.text(value), &self.context(scope))?,
            None => None,
        };
        match (operator, entries) {
            ("+=", Some(entries)) => {
                for (keys, values) in entries {
                    self.add_entry(scope, &key, &keys, &values)?;
                }
            }
            ("+=", None) => {}
            (_, entries) => {
                let text = value.map(|value| walk.text(value)).unwrap_or_default();
                self.assign_entries(scope, &key, text, entries)?;
            }
        }
        self.assign(scope, key, values)
    }

    /// `h[key]` or `h.key` (after `$`): the variable `h` and the keys, when `h` holds a hashtable
    /// the walk follows or is `$PSDefaultParameterValues`.
    fn entry_keys(&self, name: &str, scope: &Session) -> Result<Option<(String, Vec<Value>)>, Unscannable> {
        let Some(at) = name.find(['.', '[']) else { return Ok(None) };
        let (variable, rest) = name.split_at(at);
        let variable = words::variable_key(variable);
        if !self.follows_entries(&variable, scope) {
            return Ok(None);
        }
        let cx = self.context(scope);
        let keys = match rest.strip_prefix('[').and_then(|inner| inner.strip_suffix(']')) {
            Some(inner) => words::expression(inner, &cx)?,
            None => words::argument(rest.trim_start_matches('.'), &cx)?,
        };
        Ok(Some((variable, keys)))
    }

    /// `foreach ($x in list) { … }`: the body is walked once with `$x` taking every value.
    fn foreach(&mut self, node: Node, walk: &Walk, scope: &mut Session, depth: usize) -> Result<(), Unscannable> {
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
    fn invocation(&mut self, node: Node, walk: &Walk, scope: &mut Session) -> Result<(), Unscannable> {
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
        if let Some(variable) = target.strip_prefix('$').map(words::variable_key)
            && member == "add"
            && self.follows_entries(&variable, scope)
            && let [keys, values] = args.as_slice()
        {
            return self.add_entry(scope, &variable, keys, values);
        }
        if takes_script_text(&target, &member) {
            return self.created_block(args.first().map(Vec::as_slice).unwrap_or_default(), walk, scope);
        }
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
            self.dirs_unseen = true;
            for value in args.iter().flatten() {
                self.add_if_guarded(&value.text, &base);
            }
        }
        Ok(())
    }

    /// Text the grammar could not place (it reads Windows PowerShell best: `/bin/cp a b` is an
    /// error to it): cut into commands at `;`, `|`, line breaks, each run as a command line when
    /// it starts with a command name, else judged like an unknown command on its words.
    fn unparsed(&mut self, node: Node, walk: &Walk, scope: &mut Session) -> Result<(), Unscannable> {
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
                self.unknown_command(&all, scope);
            }
        }
        Ok(())
    }
}

/// Whether `node` lies in a command's arguments, not in statements nested there.
fn in_arguments(node: Node) -> bool {
    let mut up = node.parent();
    while let Some(parent) = up {
        match parent.kind() {
            "command_elements" => return true,
            "statement_list" | "script_block" | "sub_expression" | "program" | "script_block_expression" => {
                return false;
            }
            _ => up = parent.parent(),
        }
    }
    false
}
