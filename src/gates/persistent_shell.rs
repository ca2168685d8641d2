//! A call of a persistent shell (`docs/decisions.md#p-15`), bash or PowerShell: judged against
//! every state its earlier calls may have left; an allowed call records the states it may leave,
//! a refused one changes nothing. Each shell supplies only what differs ([`PersistentShell`]).

use std::path::Path;

use super::{NewTexts, ToolArgs, judge_write};
use crate::analysis::persistent::{self, ShellState, Walked};
use crate::bash::Unscannable;
use crate::texts::Denial;

/// What a kind of persistent shell supplies to [`check`].
pub trait PersistentShell {
    type State: ShellState;

    /// The raw-text fallback: does `command` name a guarded location?
    fn names_guarded(command: &str) -> bool;

    /// The denial for a command too large to read that names a guarded location.
    fn too_large(limit: Unscannable) -> Denial;

    /// The states `state` stands for that `command` can tell apart; `None` past a cap.
    fn expand(state: &Self::State, _command: &str) -> Option<Vec<Self::State>> {
        Some(vec![state.clone()])
    }

    /// The files `command` writes from `state` and the states it may leave.
    fn walk(command: &str, state: &Self::State) -> Result<Walked<Self::State>, Unscannable>;
}

/// A call of persistent shell `shell` of kind `S`, whose command is the `command` field.
pub fn check<S: PersistentShell>(args: &dyn ToolArgs, cwd: &Path, shell: &str) -> Option<Denial> {
    let command = args.string("command")?;
    let fresh = S::State::fresh(cwd);
    let known = persistent::states(shell, &fresh);
    let mut states = known.states;
    if !states.contains(&fresh) {
        // The shell may have been reset (a timeout, an exit): it starts again in the cwd.
        states.push(fresh);
    }
    if known.overflowed && S::names_guarded(&command) {
        return Some(Denial::ShellStateTooLarge);
    }
    let mut overflowed = known.overflowed;
    // A stored state may stand for several that this command tells apart (a PowerShell function
    // one of them defined and another did not).
    let mut walked = Vec::new();
    for state in &states {
        match S::expand(state, &command) {
            Some(expanded) => walked.extend(expanded),
            None if S::names_guarded(&command) => return Some(Denial::ShellStateTooLarge),
            None => {
                overflowed = true;
                walked.push(state.clone());
            }
        }
    }
    let invisible = NewTexts::invisible();
    let mut next = states;
    for state in &walked {
        match S::walk(&command, state) {
            Ok((targets, after, complete)) => {
                if let Some(denial) = targets.iter().find_map(|target| judge_write(target, &invisible)) {
                    return Some(denial);
                }
                next.extend(after);
                overflowed |= !complete;
            }
            Err(limit) => {
                if S::names_guarded(&command) {
                    return Some(S::too_large(limit));
                }
                // Where a command too large to read leaves the shell is unknown.
                overflowed = true;
            }
        }
    }
    persistent::record(shell, next, overflowed);
    None
}
