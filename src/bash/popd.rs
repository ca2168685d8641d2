//! A persistent shell's call that begins by moving the shell for sure
//! ([P-15](docs/decisions.md#p-15)): `popd` of a stack the shell holds fails only when the
//! directory it returns to is gone, and `cd`/`pushd` into a directory that exists and anyone may
//! enter cannot fail, so the shell no longer is where the call found it; likewise a call that
//! only assigns variables leaves no state without them.

use std::rc::Rc;

use super::parse::parse;
use super::state::rebound;
use super::words::Value;
use super::{Bash, MAX_COMMAND_BYTES, MAX_PARSE_CHECKS};
use crate::analysis::budget::Budget;
use crate::analysis::fs;
use crate::analysis::scope::Scope;
use crate::paths;

/// The variable, named as no shell variable can be, that says the stack may not be what the walk
/// keeps: `dirs -c`, `pushd -n`, `pushd +1`, `popd +1` or `DIRSTACK` changed it.
const STACK_UNKNOWN: &str = " the pushd stack is unknown";

/// The stack changed in a way the walk does not follow: no later `popd` is sure to return.
pub(crate) fn forget_stack(scope: &mut Scope<Bash>) {
    Rc::make_mut(&mut scope.vars).insert(STACK_UNKNOWN.to_string(), vec![Value::literal("")]);
}

/// Whether the walk keeps the stack as the shell has it, as far as `popd` goes.
pub(crate) fn stack_known(scope: &Scope<Bash>) -> bool {
    !scope.vars.keys().any(|key| key == STACK_UNKNOWN || key.starts_with("DIRSTACK"))
}

/// Whether `command`, run by a shell in `scope`, first of all moves to another directory for sure
/// (alone, or first in an `&&`/`||`/`;` list): the builtin `popd` without arguments with a
/// directory on the stack to pop, `cd -` with an `$OLDPWD` the walk set (only a `cd` that
/// succeeded sets it, so it fails only when that directory is gone, like `popd`), or the builtin
/// `cd`/`pushd` of one plain directory that exists now and anyone may enter, typed or the value
/// of an expansion the shell knows ([`known_directory`]).
pub fn begins_by_moving(command: &str, scope: &Scope<Bash>) -> bool {
    if command.len() > MAX_COMMAND_BYTES {
        return false;
    }
    let Ok(tree) = parse(command, &Budget::new(MAX_PARSE_CHECKS)) else { return false };
    let root = tree.root_node();
    if root.has_error() {
        return false;
    }
    let mut first = root.named_child(0);
    let mut enclosing = Vec::new();
    // Into lists, and past redirections that cannot fail (`popd >/dev/null && ls`).
    while let Some(outer) = first.filter(|node| {
        node.kind() == "list" || node.kind() == "redirected_statement" && redirections_cannot_fail(*node, command)
    }) {
        enclosing.push(outer);
        first = outer.child_by_field_name("body").or_else(|| outer.named_child(0));
    }
    let Some(popd) = first.filter(|node| node.kind() == "command" && moves(*node, command, scope)) else {
        return false;
    };
    // `popd &`, `popd && x &`, `popd | x`: run by a subshell, which is gone afterwards. What
    // follows the body of a redirected statement is its redirections.
    std::iter::once(popd)
        .chain(enclosing)
        .filter(|node| node.parent().is_none_or(|parent| parent.kind() != "redirected_statement"))
        .all(|node| in_the_shell(command.get(node.end_byte()..).unwrap_or_default()))
}

/// Whether every redirection of `statement`, a redirected statement, [`cannot_fail`].
fn redirections_cannot_fail(statement: tree_sitter::Node, command: &str) -> bool {
    let mut cursor = statement.walk();
    let mut redirects = statement.children_by_field_name("redirect", &mut cursor).peekable();
    redirects.peek().is_some() && redirects.all(|redirect| command.get(redirect.byte_range()).is_some_and(cannot_fail))
}

/// Whether `node`, a command, is a bare `popd` of a stack the walk keeps, `cd -` back to an
/// `$OLDPWD` the walk set, or `cd`/`pushd` into an existing directory, each the builtin.
fn moves(node: tree_sitter::Node, command: &str, scope: &Scope<Bash>) -> bool {
    let text = |node: tree_sitter::Node| command.get(node.byte_range());
    let Some(name) = node.child_by_field_name("name").and_then(text) else { return false };
    let builtin = scope.function(name).is_none() && scope.alias(name).is_none();
    // Its redirections (`popd >/dev/null`) must not fail, and are no words of it.
    let mut cursor = node.walk();
    let (redirects, words): (Vec<_>, Vec<_>) =
        node.named_children(&mut cursor).partition(|child| child.kind().ends_with("_redirect"));
    if !redirects.iter().all(|redirect| text(*redirect).is_some_and(cannot_fail)) {
        return false;
    }
    match (name, words.len()) {
        ("popd", 1) => builtin && !scope.stack.is_empty() && stack_known(scope),
        ("cd", 2) if words.get(1).copied().and_then(text) == Some("-") => {
            builtin && scope.oldpwd.is_some() && !scope.vars.contains_key("OLDPWD")
        }
        ("cd" | "pushd", 2) => {
            let directory = words.get(1).and_then(|word| match word.kind() {
                "word" => text(*word).map(str::to_string),
                _ => text(*word).and_then(|word| known_directory(word, scope)),
            });
            builtin && directory.is_some_and(|directory| paths::sure_to_enter(&directory, &scope.base))
        }
        _ => false,
    }
}

/// The absolute directory a word of one expansion the shell knows names (P-18): `"$ROOT"` set
/// from `$PWD` by an earlier call, `"$OLDPWD"` as a `cd` of the shell set it, `"$(git rev-parse
/// --show-toplevel)"`.
fn known_directory(word: &str, scope: &Scope<Bash>) -> Option<String> {
    let word = word.strip_prefix('"').and_then(|quoted| quoted.strip_suffix('"')).unwrap_or(word);
    let name =
        word.strip_prefix("${").and_then(|braced| braced.strip_suffix('}')).or_else(|| word.strip_prefix('$'))?;
    let directory = match scope.vars.get(name).map(Vec::as_slice) {
        Some([value]) if !value.dynamic => value.text.clone(),
        Some(_) => return None,
        None => match name {
            "OLDPWD" => scope.oldpwd.as_ref()?.to_string_lossy().into_owned(),
            "PWD" => scope.base.to_string_lossy().into_owned(),
            "(git rev-parse --show-toplevel)" if !rebound(&scope.defined, &scope.vars, "git") => {
                fs::repository_top(&scope.base)?.to_string_lossy().into_owned()
            }
            _ => return None,
        },
    };
    directory.starts_with('/').then_some(directory)
}

/// Whether `command` only assigns variables (`ROOT=$PWD`, `A=1; B="$(date)"`), each of which a
/// shell that runs the call does whatever the values: the state it started from, without them,
/// is not one it leaves. Not arithmetic (`$((1/0))` fails) nor `${x?}`, which may stop it.
pub fn only_assigns(command: &str) -> bool {
    if command.len() > MAX_COMMAND_BYTES || command.contains("$((") || command.contains("$[") || command.contains('?') {
        return false;
    }
    let Ok(tree) = parse(command, &Budget::new(MAX_PARSE_CHECKS)) else { return false };
    let root = tree.root_node();
    let mut cursor = root.walk();
    let mut statements = root.named_children(&mut cursor).filter(|node| node.kind() != "comment").peekable();
    !root.has_error() && statements.peek().is_some() && statements.all(|node| node.kind() == "variable_assignment")
}

/// Whether a redirection cannot fail, so that the command it hangs on runs whatever it is:
/// output thrown away (`>/dev/null`, `2>/dev/null`, `&>/dev/null`) or an open descriptor copied
/// (`2>&1`, `>&2`, `>&-`).
pub(crate) fn cannot_fail(redirect: &str) -> bool {
    let redirect = redirect.trim_start_matches(|c: char| c.is_ascii_digit());
    let Some(operator_end) = redirect.find(|c: char| !matches!(c, '>' | '&' | '|')) else { return false };
    let (operator, target) = redirect.split_at(operator_end);
    let target = target.trim_start_matches([' ', '\t']);
    match operator {
        ">" | ">>" | ">|" | "&>" | "&>>" => target == "/dev/null",
        ">&" => target == "-" || !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

/// Whether what follows a command or list leaves it to the shell itself: nothing, `;`, a
/// newline, `&&` or `||`.
pub(crate) fn in_the_shell(after: &str) -> bool {
    let after = after.trim_start_matches([' ', '\t']);
    after.is_empty() || after.starts_with([';', '\n']) || after.starts_with("&&") || after.starts_with("||")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_redirection_cannot_fail_only_when_it_throws_output_away_or_copies_a_descriptor() {
        for redirect in [">/dev/null", "2>/dev/null", "&>/dev/null", ">> /dev/null", "2>&1", ">&2", "1>&-"] {
            assert!(cannot_fail(redirect), "{redirect}");
        }
        for redirect in [">/tmp/log", "2>err.txt", "</dev/null", ">/dev/null2", ">&", "2>&x", "> $f"] {
            assert!(!cannot_fail(redirect), "{redirect}");
        }
    }

    #[test]
    fn a_popd_whose_redirections_cannot_fail_moves_the_shell_for_sure() {
        let mut scope = Scope::<Bash>::fresh(Path::new("/repo/docs/superpowers/plans"));
        scope.stack.push("/repo".into());
        for command in ["popd", "popd >/dev/null", "popd 2>/dev/null && ls", "popd &>/dev/null; ls"] {
            assert!(begins_by_moving(command, &scope), "{command}");
        }
        for command in ["popd >/tmp/log", "popd 2>/dev/null &", "popd >/dev/null | cat", "ls; popd >/dev/null"] {
            assert!(!begins_by_moving(command, &scope), "{command}");
        }
    }
}
