//! A persistent PowerShell's call that begins by returning from a `Push-Location`
//! ([P-15](docs/decisions.md#p-15)): `Pop-Location` of a stack the shell holds fails only when
//! the location it returns to is gone, so the shell no longer is where the call found it.

use std::rc::Rc;

use super::PowerShell;
use crate::analysis::values::Value;
use crate::analysis::scope::Scope;

/// The variable, named as no PowerShell variable can be, that says the default stack may not be
/// the one the walk keeps: a `-StackName` pushed, popped or made another stack the default.
const STACK_UNKNOWN: &str = " the location stack is unknown";

/// The stack changed in a way the walk does not follow: no later `Pop-Location` is sure.
pub(crate) fn forget_stack(scope: &mut Scope<PowerShell>) {
    Rc::make_mut(&mut scope.vars).insert(STACK_UNKNOWN.to_string(), vec![Value::literal("")]);
}

/// Whether the walk keeps the default stack as the shell has it.
pub(crate) fn stack_known(scope: &Scope<PowerShell>) -> bool {
    !scope.vars.contains_key(STACK_UNKNOWN)
}

/// Whether the first statement of `command`, run by a shell in `scope`, is a bare `Pop-Location`
/// (or `popd`) that neither a function nor an alias of the shell stands for, with a location on
/// the stack to pop.
pub fn begins_with_pop_location(command: &str, scope: &Scope<PowerShell>) -> bool {
    const NAMES: [&str; 2] = ["popd", "pop-location"];
    let defined = &scope.defined;
    if scope.stack.is_empty()
        || !stack_known(scope)
        || defined.any_alias
        || NAMES.iter().any(|name| defined.functions.contains_key(*name) || defined.aliases.contains_key(*name))
    {
        return false;
    }
    let line = command.trim_start();
    let first = line.split([';', '\n', '\r']).next().unwrap_or_default().trim();
    NAMES.iter().any(|name| first.eq_ignore_ascii_case(name))
}
