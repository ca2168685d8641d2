//! The write targets of a bash command line (docs/decisions.md#bash, P-2, P-5): the native replacement
//! of `harness_target.py targets`.
//!
//! The command is parsed with a real bash grammar (tree-sitter-bash) and the tree is walked
//! iteratively with a cursor ([`walk`]); words are unquoted and expanded the way bash would as far
//! as they are static ([`words`]); which argument of which command is written lives in one table
//! ([`crate::commands`]). Every target comes back absolute and lexically normalized against the base
//! directory in effect where it is written (`cd`, `pushd`, `popd`, subshells, `git -C`).
//!
//! A command bash itself would reject fails open: what follows an unterminated quote is never a
//! target, but a write that parsed cleanly elsewhere in the same command still is. A command over
//! one of the caps below is [`Unscannable`]; the gates then judge its raw text with
//! [`crate::paths::names_guarded`].

pub(crate) mod cache;
mod fields;
mod lists;
mod parse;
mod patsub;
mod popd;
mod printed;
mod state;
mod tree;
mod walk;
mod words;

use std::path::{Path, PathBuf};

use crate::analysis::answer::{Answer, Proof};
use crate::analysis::handoff::Analyses;
use crate::analysis::persistent::Left;
use crate::analysis::scope::Scope;
pub use popd::{begins_by_moving, only_assigns};
pub use state::Bash;

/// Why a command is not parsed; the gates fall back to [`crate::paths::names_guarded`].
pub use crate::analysis::Unscannable;
pub use crate::analysis::moves::MAX_MOVES;

/// Commands longer than this are not parsed (1 MiB).
pub const MAX_COMMAND_BYTES: usize = 1 << 20;
/// The parser's work budget for one command, nested scripts included, in tree-sitter progress
/// checks (each is 100 parser operations): about 60 KB of dense shell code. Deterministic, unlike a
/// timeout; it bounds the parser's time and memory (a long pipeline costs the most).
pub const MAX_PARSE_CHECKS: usize = 2_000;
/// The deepest syntax tree walked (nested substitutions, subshells, groups, `&&` chains).
pub const MAX_TREE_DEPTH: usize = 1_000;
/// How deep `bash -c`, `eval` and the like may nest inside one another.
pub const MAX_SCRIPT_NESTING: usize = 8;
/// The most words one shell word may expand to (brace expansion, `{1..9}`).
pub const MAX_WORD_EXPANSION: usize = 1_024;
/// The most text one command line may grow into through its nested scripts and expansions,
/// 256 KiB (found by fuzzing: `eval eval …` with brace words grew 108 bytes into a 212 KB script
/// whose words would have expanded to gigabytes; 6 s and 470 MB before this cap, 2 ms after).
pub const MAX_EXPANDED_BYTES: usize = 256 << 10;
/// The most words one command may expand to, all its words together (found by fuzzing: five
/// brace-expanded words made 5,000 paths before any cap applied).
pub const MAX_COMMAND_WORDS: usize = 2_048;
/// The most distinct files one command line may write (the gates resolve each one's real path).
pub use crate::analysis::targets::MAX_TARGETS;

/// What `command` writes when run in `base` (absolute), as the answer every analysis gives: the
/// files of [`write_targets`], or the cap that stopped the parse.
pub fn analyze(command: &str, base: &Path, analyses: &dyn Analyses) -> Answer<Unscannable> {
    cache::through(command, base, || Answer::of(write_targets_uncached(command, base, analyses)))
}

/// [`analyze`] for a persistent shell in state `scope`, with every state the command may leave
/// it in and whether that list is complete (none, and incomplete, when a cap stopped the parse).
pub fn analyze_from(
    command: &str,
    scope: &Scope<Bash>,
    analyses: &dyn Analyses,
) -> (Answer<Unscannable>, Left<Scope<Bash>>, bool) {
    match write_targets_from(command, scope, analyses) {
        Ok((targets, left)) => (Answer::proven(targets), left, true),
        Err(limit) => (Answer::stopped(limit), Left::ended(Vec::new()), false),
    }
}

/// The files `command` writes when run in `base` (absolute), absolute and lexically normalized,
/// without duplicates, in the order they appear.
///
/// A repeated command whose inputs have not changed is answered from [`cache`].
pub fn write_targets(command: &str, base: &Path, analyses: &dyn Analyses) -> Result<Vec<PathBuf>, Unscannable> {
    let answer = analyze(command, base, analyses);
    match answer.proof {
        Proof::Stopped { limit } => Err(limit),
        Proof::Proven | Proof::Unproven { .. } => {
            Ok(answer.locations.into_iter().map(|location| location.path).collect())
        }
    }
}

/// [`write_targets`] without the cache.
pub(crate) fn write_targets_uncached(
    command: &str,
    base: &Path,
    analyses: &dyn Analyses,
) -> Result<Vec<PathBuf>, Unscannable> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Unscannable::TooLarge);
    }
    walk::targets(command, base, analyses)
}

/// [`write_targets`] for a persistent shell in state `scope`: also every state the command may
/// leave the shell in (P-15). Not cached: the state is an input no key holds.
pub fn write_targets_from(
    command: &str,
    scope: &Scope<Bash>,
    analyses: &dyn Analyses,
) -> Result<(Vec<PathBuf>, Left<Scope<Bash>>), Unscannable> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Unscannable::TooLarge);
    }
    walk::targets_from(command, scope, analyses)
}

#[cfg(test)]
mod approval_wrapping;
#[cfg(test)]
mod tests;
