//! A persistent PowerShell's call that begins by returning from a `Push-Location`
//! ([P-15](docs/decisions.md#p-15)): `Pop-Location` of a stack the shell holds fails only when
//! the location it returns to is gone, so the shell no longer is where the call found it.

use super::PowerShell;
use crate::analysis::scope::Scope;

/// Whether the first statement of `command`, run by a shell in `scope`, is a bare `Pop-Location`
/// (or `popd`) that neither a function nor an alias of the shell stands for, with a location on
/// the stack to pop.
pub fn begins_with_pop_location(command: &str, scope: &Scope<PowerShell>) -> bool {
    const NAMES: [&str; 2] = ["popd", "pop-location"];
    let defined = &scope.defined;
    if scope.stack.is_empty()
        || defined.any_alias
        || NAMES.iter().any(|name| defined.functions.contains_key(*name) || defined.aliases.contains_key(*name))
    {
        return false;
    }
    let line = command.trim_start();
    let first = line.split([';', '\n', '\r']).next().unwrap_or_default().trim();
    NAMES.iter().any(|name| first.eq_ignore_ascii_case(name))
}
