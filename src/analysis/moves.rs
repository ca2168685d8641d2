//! Changes of directory (`cd`, `pushd`, `Set-Location`) and what follows from "a `cd` may fail":
//! a file written after a change is also taken as written from where the line came from.

use std::path::{Path, PathBuf};

use super::targets::{MAX_TARGETS, Targets};

/// The most distinct directory changes of one command line ([`from_every_directory`]); past it
/// the line is [`super::Unscannable::TooManyTargets`].
pub const MAX_MOVES: usize = 16;

/// A change of directory a command line made.
pub struct Move {
    pub from: PathBuf,
    pub to: PathBuf,
    /// How many targets the line had found before it: only later ones can follow it.
    pub after: usize,
    /// Not a change that may have failed but one of the places a change the walk could not
    /// compute may have gone (`to` stands for it, `from` is such a place): it holds whatever
    /// chain the change heads.
    pub uncomputed: bool,
}

/// Records a change from `from` to `to`, made once `found` targets were found: each change once,
/// at its first occurrence; one past [`MAX_MOVES`] is kept so that [`from_every_directory`] refuses.
pub fn record_move(moves: &mut Vec<Move>, from: &Path, to: &Path, found: usize) {
    push_move(moves, from, to, found, false);
}

/// Records that a change the walk could not compute, which it stands for by `to`, may have gone
/// to `place` (P-18): what is written beneath `to` is also taken as written beneath `place`.
pub fn record_uncomputed_move(moves: &mut Vec<Move>, place: &Path, to: &Path, found: usize) {
    push_move(moves, place, to, found, true);
}

fn push_move(moves: &mut Vec<Move>, from: &Path, to: &Path, found: usize, uncomputed: bool) {
    if from != to && moves.len() <= MAX_MOVES && !moves.iter().any(|m| m.from == from && m.to == to) {
        moves.push(Move { from: from.to_path_buf(), to: to.to_path_buf(), after: found, uncomputed });
    }
}

/// `target` beneath `from`, moved to the same place beneath `onto`; `None` when it is not beneath
/// `from`.
pub fn rebase(target: &Path, from: &Path, onto: &Path) -> Option<PathBuf> {
    target
        .strip_prefix(from)
        .ok()
        .map(|rest| if rest.as_os_str().is_empty() { onto.to_path_buf() } else { onto.join(rest) })
}

/// A `cd` can fail and the line go on (`cd x; …`, `cd x || true`, a `Set-Location` error): each
/// file the line wrote after a change, beneath where it went, is also taken as written, by the
/// same path, beneath where it came from; chains of changes are followed back. A change made by a
/// `cd` whose failure stops an `&&` chain follows only what is written after the chain. `false` when the targets
/// outgrow [`MAX_TARGETS`] or the changes [`MAX_MOVES`].
pub fn from_every_directory(targets: &mut Targets, moves: &[Move]) -> bool {
    if moves.len() > MAX_MOVES {
        return false;
    }
    // Where each target came from: a target moved back by a later change is judged by the earlier
    // ones as the write it came from, which is found before or after each of them.
    let mut origins: Vec<usize> = (0..targets.len()).collect();
    // Latest first, each once: as when every `cd` of the line fails.
    for change in moves.iter().rev() {
        // The targets found so far, without this change's own additions (the range is taken once).
        for at in 0..targets.len() {
            let (Some(target), Some(&origin)) = (targets.get(at), origins.get(at)) else { break };
            if origin < change.after {
                continue;
            }
            let Some(rebased) = rebase(target, &change.to, &change.from) else { continue };
            if targets.contains(&rebased) {
                continue;
            }
            if targets.len() >= MAX_TARGETS {
                return false;
            }
            targets.add(rebased);
            origins.push(origin);
        }
    }
    true
}
