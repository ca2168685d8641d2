//! A persistent shell's call that begins by returning from a `pushd`
//! ([P-15](docs/decisions.md#p-15)): `popd` of a stack the shell holds fails only when the
//! directory it returns to is gone, so the shell no longer is where the call found it.

use std::rc::Rc;

use super::parse::parse;
use crate::analysis::budget::Budget;
use super::words::Value;
use super::{Bash, MAX_COMMAND_BYTES, MAX_PARSE_CHECKS};
use crate::analysis::scope::Scope;

/// The variable, named as no shell variable can be, that says the stack may not be what the walk
/// keeps: `dirs -c`, `pushd -n`, `pushd +1`, `popd +1` or `DIRSTACK` changed it.
const STACK_UNKNOWN: &str = " the pushd stack is unknown";

/// The stack changed in a way the walk does not follow: no later `popd` is sure to return.
pub(crate) fn forget_stack(scope: &mut Scope<Bash>) {
    Rc::make_mut(&mut scope.vars)
        .insert(STACK_UNKNOWN.to_string(), vec![Value { text: String::new(), dynamic: false }]);
}

/// Whether the walk keeps the stack as the shell has it, as far as `popd` goes.
pub(crate) fn stack_known(scope: &Scope<Bash>) -> bool {
    !scope.vars.keys().any(|key| key == STACK_UNKNOWN || key.starts_with("DIRSTACK"))
}

/// Whether `command`, run by a shell in `scope`, first of all runs the builtin `popd` without
/// arguments (alone, or first in an `&&`/`||`/`;` list), with a directory on the stack to pop.
pub fn begins_with_popd(command: &str, scope: &Scope<Bash>) -> bool {
    if scope.stack.is_empty()
        || !stack_known(scope)
        || command.len() > MAX_COMMAND_BYTES
        || scope.function("popd").is_some()
        || scope.alias("popd").is_some()
    {
        return false;
    }
    let Ok(tree) = parse(command, &Budget::new(MAX_PARSE_CHECKS)) else { return false };
    let root = tree.root_node();
    if root.has_error() {
        return false;
    }
    let mut first = root.named_child(0);
    let mut enclosing = Vec::new();
    while let Some(list) = first.filter(|node| node.kind() == "list") {
        enclosing.push(list);
        first = list.named_child(0);
    }
    let Some(popd) = first.filter(|node| {
        node.kind() == "command"
            && node.named_child_count() == 1
            && node.child_by_field_name("name").is_some_and(|name| command.get(name.byte_range()) == Some("popd"))
    }) else {
        return false;
    };
    // `popd &`, `popd && x &`, `popd | x`: run by a subshell, which is gone afterwards.
    std::iter::once(popd).chain(enclosing).all(|node| in_the_shell(command.get(node.end_byte()..).unwrap_or_default()))
}

/// Whether what follows a command or list leaves it to the shell itself: nothing, `;`, a
/// newline, `&&` or `||`.
pub(crate) fn in_the_shell(after: &str) -> bool {
    let after = after.trim_start_matches([' ', '\t']);
    after.is_empty() || after.starts_with([';', '\n']) || after.starts_with("&&") || after.starts_with("||")
}
