//! The write targets of a PowerShell command line (docs/decisions.md#p-16): DSH's `pwsh` tool, and
//! `pwsh -c`/`powershell -Command`/`-EncodedCommand` run from bash.
//!
//! The command is parsed with a real PowerShell grammar (tree-sitter-powershell, maintained by
//! Airbus CERT) and the tree is walked ([`walk`]); argument values are read the way PowerShell
//! reads them as far as they are static ([`words`]); which parameter of which cmdlet names a
//! written file lives in one table ([`cmdlets`]). Programs (anything not `Verb-Noun` and not an
//! alias) are judged by the bash writer table, `cmd /c` lines by [`cmd`]. Paths typed for
//! Windows are mapped by [`crate::paths::from_windows`]; every target comes back absolute and
//! lexically normalized against the location in effect where it is written.
//!
//! A command over one of the caps below is [`Unscannable`]; the gates then judge its raw text
//! with [`crate::paths::names_guarded`] in the PowerShell dialect.

mod cmd;
mod cmdlets;
mod parse;
mod pop_location;
mod state;
mod walk;
mod words;

use std::path::{Path, PathBuf};

pub use crate::analysis::Unscannable;
use crate::analysis::answer::Answer;
use crate::analysis::handoff::Analyses;
use crate::analysis::persistent::{Left, Walked};
use crate::analysis::scope::Scope;
pub use crate::analysis::values::MAX_VALUES;
use crate::commands::pwsh_host as invocation;
pub use crate::commands::pwsh_host::{decode_utf16_base64, invoked_script, is_powershell};
pub use pop_location::begins_by_moving;
pub use state::PowerShell;

/// Commands longer than this are not parsed (1 MiB).
pub const MAX_COMMAND_BYTES: usize = 1 << 20;
/// The parser's work budget for one command, nested scripts included, in tree-sitter progress
/// checks (each is about 100 parser operations): about 70 KB of PowerShell. The grammar is heavier than
/// bash's (a check costs about 0.1 ms in a release build), so the budget is smaller.
pub const MAX_PARSE_CHECKS: usize = 1_000;
/// The deepest syntax tree walked. The walk recurses; this bounds its stack.
pub const MAX_TREE_DEPTH: usize = 400;
/// The most syntax nodes one command line may make the walk visit, nested scripts included.
pub const MAX_NODES: usize = 500_000;
/// How deep `Invoke-Expression`, `pwsh -c` and `cmd /c` may nest inside one another.
pub const MAX_SCRIPT_NESTING: usize = 8;
/// The most script text one command line may make the walk parse, nested scripts included.
pub const MAX_SCRIPT_BYTES: usize = 2 << 20;
/// The most distinct files one command line may write (as for bash).
pub use crate::analysis::targets::MAX_TARGETS;
/// How deep PowerShell and bash may run one another (`pwsh -c "bash -c 'pwsh -c …'"`), each
/// analysis counting once.
pub const MAX_HOST_NESTING: usize = 4;

/// What `command` writes when run by PowerShell in `base` (absolute), as the answer every
/// analysis gives: the files of [`write_targets`], or the cap that stopped the walk.
pub fn analyze(command: &str, base: &Path, analyses: &dyn Analyses) -> Answer<Unscannable> {
    Answer::of(write_targets(command, base, analyses))
}

/// [`analyze`] for a call of a persistent shell in `state`: also the states the call may leave
/// the shell in and whether that list is complete (none, and incomplete, when a cap stopped it).
pub fn analyze_from(
    command: &str,
    state: &Scope<PowerShell>,
    analyses: &dyn Analyses,
) -> (Answer<Unscannable>, Left<Scope<PowerShell>>, bool) {
    match write_targets_from(command, state, analyses) {
        Ok((targets, after, complete)) => (Answer::proven(targets), after, complete),
        Err(limit) => (Answer::stopped(limit), Left::ended(Vec::new()), false),
    }
}

/// The files `command` writes when run by PowerShell in `base` (absolute), absolute and
/// lexically normalized, without duplicates, in the order they appear.
pub fn write_targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    as_host(command, || walk::targets(command, base, analyses))
}

/// [`write_targets`] of a script another command line runs (`pwsh -c` from bash).
pub fn nested_write_targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    as_host(command, || walk::nested_targets(command, base, analyses))
}

/// [`write_targets`] for a call of a persistent shell in `state`: also the states the call may
/// leave the shell in, and whether that list is complete (see [`walk::targets_from`]).
pub fn write_targets_from(
    command: &str,
    state: &Scope<PowerShell>,
    analyses: &dyn Analyses,
) -> Result<Walked<Scope<PowerShell>>, Unscannable> {
    as_host(command, || walk::targets_from(command, state, analyses))
}

/// One more PowerShell host around `analysis`, within the size and host-nesting caps.
fn as_host<T>(command: &str, analysis: impl FnOnce() -> Result<T, Unscannable>) -> Result<T, Unscannable> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Unscannable::TooLarge);
    }
    crate::analysis::handoff::as_host(MAX_HOST_NESTING, analysis)
}

#[cfg(test)]
mod tests;
