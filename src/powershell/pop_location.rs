//! A persistent PowerShell's call that begins by moving the shell for sure
//! ([P-15](docs/decisions.md#p-15)): `Pop-Location` of a stack the shell holds fails only when
//! the location it returns to is gone, and `Set-Location`/`Push-Location` into a directory that
//! exists and anyone may enter cannot fail, so the shell no longer is where the call found it.

use std::rc::Rc;

use super::PowerShell;
use crate::analysis::scope::Scope;
use crate::analysis::values::Value;
use crate::paths;

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

/// Whether the first statement of `command`, run by a shell in `scope`, moves the shell for sure:
/// a bare `Pop-Location` (or `popd`) with a location on the stack to pop, or `Set-Location` (`cd`,
/// `sl`, `chdir`) or `Push-Location` (`pushd`) of one plain directory that exists and anyone may
/// enter; each one that neither a function nor an alias of the shell stands for.
pub fn begins_by_moving(command: &str, scope: &Scope<PowerShell>) -> bool {
    const POPS: [&str; 2] = ["popd", "pop-location"];
    const ENTERS: [&str; 6] = ["set-location", "cd", "sl", "chdir", "push-location", "pushd"];
    let defined = &scope.defined;
    let redefined = |name: &&str| defined.functions.contains_key(*name) || defined.aliases.contains_key(*name);
    if defined.any_alias {
        return false;
    }
    let line = command.trim_start();
    let first = line.split([';', '\n', '\r']).next().unwrap_or_default().trim();
    let words: Vec<&str> = first.split_ascii_whitespace().collect();
    let named =
        |names: &[&str]| names.iter().any(|name| words[0].eq_ignore_ascii_case(name)) && !names.iter().any(redefined);
    match words.as_slice() {
        [_] => named(&POPS) && !scope.stack.is_empty() && stack_known(scope),
        [_, directory] => named(&ENTERS) && paths::sure_to_enter(directory, &scope.base),
        _ => false,
    }
}
