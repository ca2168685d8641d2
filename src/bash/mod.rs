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
mod parse;
mod state;
mod tree;
mod walk;
mod words;

pub(crate) use parse::parse_within;

use std::path::{Path, PathBuf};

use crate::analysis::answer::{Answer, Proof};
use crate::analysis::scope::Scope;
pub use state::Bash;

/// The program analysis, as the command table asks it: which commands are interpreters, and the
/// script file one runs.
pub(crate) struct ProgramAnalysis;

impl crate::commands::Interpreters for ProgramAnalysis {
    fn runs_programs(&self, name: &str) -> bool {
        crate::programs::language_of(name).is_some()
    }

    fn script_file(&self, argv: &[String], stdin: Option<&str>) -> Option<String> {
        match crate::programs::invocation(argv, stdin)?.source {
            crate::programs::Source::File(file) => Some(file),
            _ => None,
        }
    }
}

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
/// The most distinct files one command line may write: the gates resolve each one's real path
/// (P-8), so this bounds the time of a call.
pub const MAX_TARGETS: usize = 1_024;

/// The most distinct directory changes of one command line ([`from_every_directory`]); past it
/// the line is [`Unscannable::TooManyTargets`].
pub const MAX_MOVES: usize = 16;

/// A change of directory a command line made.
pub(crate) struct Move {
    pub from: PathBuf,
    pub to: PathBuf,
    /// How many targets the line had found before it: only later ones can follow it.
    pub after: usize,
}

/// Records a change from `from` to `to`, made once `found` targets were found: each change once,
/// at its first occurrence; one past [`MAX_MOVES`] is kept so that [`from_every_directory`] refuses.
pub(crate) fn record_move(moves: &mut Vec<Move>, from: &Path, to: &Path, found: usize) {
    if from != to && moves.len() <= MAX_MOVES && !moves.iter().any(|m| m.from == from && m.to == to) {
        moves.push(Move { from: from.to_path_buf(), to: to.to_path_buf(), after: found });
    }
}

/// A `cd` can fail and the line go on (`cd x; …`, `cd x || true`, a `Set-Location` error): each
/// file the line wrote after a change, beneath where it went, is also taken as written, by the
/// same path, beneath where it came from; chains of changes are followed back. A change made by a
/// `cd` whose failure stops an `&&` chain follows only what is written after the chain. `false` when the targets
/// outgrow [`MAX_TARGETS`] or the changes [`MAX_MOVES`].
pub(crate) fn from_every_directory(
    found: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
    moves: &[Move],
) -> bool {
    if moves.len() > MAX_MOVES {
        return false;
    }
    // Where each target came from: a target moved back by a later change is judged by the earlier
    // ones as the write it came from, which is found before or after each of them.
    let mut origins: Vec<usize> = (0..found.len()).collect();
    // Latest first, each once: as when every `cd` of the line fails.
    for change in moves.iter().rev() {
        // The targets found so far, without this change's own additions (the range is taken once).
        for at in 0..found.len() {
            let (Some(target), Some(&origin)) = (found.get(at), origins.get(at)) else { break };
            if origin < change.after {
                continue;
            }
            let Some(rebased) = crate::paths::rebase(target, &change.to, &change.from) else { continue };
            if seen.contains(&rebased) {
                continue;
            }
            if found.len() >= MAX_TARGETS {
                return false;
            }
            seen.insert(rebased.clone());
            found.push(rebased);
            origins.push(origin);
        }
    }
    true
}

/// Why a command is not parsed; the gates fall back to [`crate::paths::names_guarded`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unscannable {
    /// Longer than [`MAX_COMMAND_BYTES`].
    TooLarge,
    /// The parser's work budget ([`MAX_PARSE_CHECKS`]) ran out.
    TooComplex,
    /// A syntax tree deeper than [`MAX_TREE_DEPTH`].
    TooDeep,
    /// `bash -c`/`eval` strings nested deeper than [`MAX_SCRIPT_NESTING`].
    ScriptsTooDeep,
    /// A word that expands to more than [`MAX_WORD_EXPANSION`] words.
    ExpansionTooLarge,
    /// A command whose words expand to more than [`MAX_COMMAND_WORDS`] words together.
    TooManyWords,
    /// More than [`MAX_EXPANDED_BYTES`] of text from nested scripts and expansions.
    TooMuchText,
    /// More than [`MAX_TARGETS`] files written.
    TooManyTargets,
    /// The parser could not be set up (a build defect, not a property of the command).
    ParserUnavailable,
}

/// What `command` writes when run in `base` (absolute), as the answer every analysis gives: the
/// files of [`write_targets`], or the cap that stopped the parse.
pub fn analyze(command: &str, base: &Path) -> Answer<Unscannable> {
    cache::through(command, base, || Answer::of(write_targets_uncached(command, base)))
}

/// [`analyze`] for a persistent shell in state `scope`, with every state the command may leave
/// it in and whether that list is complete (none, and incomplete, when a cap stopped the parse).
pub fn analyze_from(command: &str, scope: &Scope<Bash>) -> (Answer<Unscannable>, Vec<Scope<Bash>>, bool) {
    match write_targets_from(command, scope) {
        Ok((targets, after)) => (Answer::proven(targets), after, true),
        Err(limit) => (Answer::stopped(limit), Vec::new(), false),
    }
}

/// The files `command` writes when run in `base` (absolute), absolute and lexically normalized,
/// without duplicates, in the order they appear.
///
/// A repeated command whose inputs have not changed is answered from [`cache`].
pub fn write_targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    let answer = analyze(command, base);
    match answer.proof {
        Proof::Stopped { limit } => Err(limit),
        Proof::Proven | Proof::Unproven { .. } => {
            Ok(answer.locations.into_iter().map(|location| location.path).collect())
        }
    }
}

/// [`write_targets`] without the cache.
pub(crate) fn write_targets_uncached(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Unscannable::TooLarge);
    }
    walk::targets(command, base)
}

/// [`write_targets`] for a persistent shell in state `scope`: also every state the command may
/// leave the shell in (P-15). Not cached: the state is an input no key holds.
pub fn write_targets_from(command: &str, scope: &Scope<Bash>) -> Result<(Vec<PathBuf>, Vec<Scope<Bash>>), Unscannable> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Unscannable::TooLarge);
    }
    walk::targets_from(command, scope)
}

#[cfg(test)]
mod approval_wrapping;
#[cfg(test)]
mod tests;
