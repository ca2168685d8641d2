//! Text bash expands again where it uses a value (P-18): a prompt (`PS4`, `PS1`, `${x@P}`) and
//! the subscript of an array named in arithmetic (`x='a[$(cmd)]'; ((x))`) run the `$(…)` and
//! backquotes they hold. A value the walk knows is judged as those commands; one the line gave
//! a value the walk could not compute may hold any: every guarded location the line names.

use super::{Walk, Walker};
use crate::analysis::scope::Scope;
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::bash::{MAX_SCRIPT_NESTING, Unscannable};

/// The most texts of one line judged as expanded again (each once).
const MAX_EXPANDED: usize = 16;

/// The most names the walk remembers as given a value it could not compute; past them every
/// name counts as such.
const MAX_UNCOMPUTED_NAMES: usize = 64;

/// Operators of `[[ … ]]` that evaluate their operands as arithmetic.
const ARITHMETIC_TESTS: [&str; 6] = ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// Commands that take a variable's name, which may be an array's element (`printf -v 'a[i]'`,
/// `test -v 'a[i]'`, `read 'a[i]'`).
const SUBSCRIPTING_COMMANDS: [&str; 4] = ["printf", "read", "test", "unset"];

/// Whether `text` holds a command substitution bash runs when it expands it.
pub(super) fn runs_substitutions(text: &str) -> bool {
    text.contains("$(") || text.contains('`')
}

/// Whether `text` holds a command substitution inside a subscript, which arithmetic that reads
/// it as an array element runs (`a[$(cmd)]`).
fn subscript_runs(text: &str) -> bool {
    text.split_once('[').is_some_and(|(_, subscript)| runs_substitutions(subscript))
}

/// Where a node makes bash evaluate arithmetic.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Arithmetic {
    /// `((…))`, `$((…))`, `for ((…))`, `let`, `[[ a -eq b ]]`: what it names is evaluated.
    Evaluated,
    /// A subscript, a declaration, `${v:offset}`: an array's subscript may be.
    Subscripted,
}

/// What kind of arithmetic `node` makes bash evaluate, if any.
pub(super) fn arithmetic(node: Node, walk: &Walk) -> Option<Arithmetic> {
    let first = || node.child(0).map(|child| node_kind(child));
    match node_kind(node) {
        "arithmetic_expansion" | "c_style_for_statement" => Some(Arithmetic::Evaluated),
        "compound_statement" if first() == Some("((") => Some(Arithmetic::Evaluated),
        "test_command" if first() == Some("[[") => {
            let text = walk.text(node);
            let evaluates = ARITHMETIC_TESTS.iter().any(|operator| text.contains(operator));
            match evaluates {
                true => Some(Arithmetic::Evaluated),
                false => text.contains("-v").then_some(Arithmetic::Subscripted),
            }
        }
        "command" => {
            let name = node.child_by_field_name("name").map(|name| walk.text(name))?;
            match name {
                "let" => Some(Arithmetic::Evaluated),
                _ => (SUBSCRIPTING_COMMANDS.contains(&name) && walk.text(node).contains('['))
                    .then_some(Arithmetic::Subscripted),
            }
        }
        "subscript" | "declaration_command" | "unset_command" => Some(Arithmetic::Subscripted),
        "expansion" => {
            let text = walk.text(node);
            (text.starts_with("${!") || text.contains(':')).then_some(Arithmetic::Subscripted)
        }
        _ => None,
    }
}

impl Walker<'_> {
    /// Arithmetic bash evaluates at `node`: each value the walk knows that holds a command
    /// substitution may be a subscript evaluated there (through the names it reads, which the
    /// walk does not follow), and is judged as run; a name the node reads that the line gave an
    /// uncomputed value may hold one.
    pub(super) fn evaluates(
        &mut self,
        node: Node,
        kind: Arithmetic,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let positional = scope.positional().map(|positional| positional.values.as_slice()).unwrap_or_default();
        let texts: Vec<String> = scope
            .vars
            .values()
            .flatten()
            .chain(positional)
            .filter(|value| !value.dynamic && subscript_runs(&value.text))
            .map(|value| value.text.clone())
            .collect();
        for text in texts {
            self.expanded_runs(&text, walk, scope)?;
        }
        if kind == Arithmetic::Evaluated && self.reads_uncomputed(walk.text(node)) {
            self.add_uncomputed(walk, scope);
        }
        Ok(())
    }

    /// `${x@P}`: `x`'s value expanded as a prompt.
    pub(super) fn prompt_expansion(&mut self, node: Node, walk: &Walk, scope: &Scope<Bash>) -> Result<(), Unscannable> {
        let Some(name) = node.named_children().find(|child| node_kind(child) == "variable_name") else {
            return Ok(());
        };
        let name = walk.text(name);
        let values = scope.vars.get(name).cloned().unwrap_or_default();
        if self.reads_uncomputed(name) || values.iter().any(|value| value.dynamic) {
            self.add_uncomputed(walk, scope);
        }
        for value in values.iter().filter(|value| !value.dynamic) {
            self.expanded_runs(&value.text, walk, scope)?;
        }
        Ok(())
    }

    /// Text bash expands as in double quotes where it uses it: its command substitutions,
    /// walked in a shell apart (each text once a line).
    pub(super) fn expanded_runs(&mut self, text: &str, walk: &Walk, scope: &Scope<Bash>) -> Result<(), Unscannable> {
        if !runs_substitutions(text) || self.expanded.iter().any(|judged| judged == text) {
            return Ok(());
        }
        if self.expanded.len() >= MAX_EXPANDED || walk.nesting >= MAX_SCRIPT_NESTING {
            self.add_uncomputed(walk, scope);
            return Ok(());
        }
        self.expanded.push(text.to_string());
        // An unquoted heredoc's body is expanded as double quotes are.
        let mut delimiter = String::from("AG_EXPANDED");
        while text.lines().any(|line| line == delimiter) {
            delimiter.push('_');
        }
        let script = format!(": <<{delimiter}\n{text}\n{delimiter}\n");
        let mut apart = scope.clone();
        self.script_apart(&script, &mut apart, walk)
    }

    /// The line gave `name` a value the walk could not compute (`read`, `x=$(cat f)`).
    pub(super) fn assigned_uncomputed(&mut self, name: &str) {
        if self.uncomputed_names.len() < MAX_UNCOMPUTED_NAMES {
            if !self.uncomputed_names.iter().any(|known| known == name) {
                self.uncomputed_names.push(name.to_string());
            }
        } else {
            self.uncomputed_names_overflow = true;
        }
    }

    /// Whether `text` names a variable the line gave a value the walk could not compute.
    fn reads_uncomputed(&self, text: &str) -> bool {
        if self.uncomputed_names.is_empty() && !self.uncomputed_names_overflow {
            return false;
        }
        let mut names = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        names.any(|name| {
            let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            is_name && (self.uncomputed_names_overflow || self.uncomputed_names.iter().any(|known| known == name))
        })
    }
}
