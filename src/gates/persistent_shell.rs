//! A call of a persistent shell (`docs/decisions.md#p-15`), bash or PowerShell: judged against
//! every state its earlier calls may have left; an allowed call records the states it may leave,
//! a refused one changes nothing. Each shell supplies only what differs ([`PersistentShell`]).

use std::path::Path;

use super::ToolArgs;
use super::judge::{Judged, RawText, judge};
use crate::analysis::Unscannable;
use crate::analysis::answer::Answer;
use crate::analysis::persistent::{self, Left, ShellCall, ShellState};
use crate::texts::Denial;

/// What a kind of persistent shell supplies to [`check`].
pub trait PersistentShell {
    type State: ShellState;

    /// `command` as the judge reads it when the analysis stopped on a cap: its dialect and the
    /// denial that names the cap.
    fn raw_text(command: &str) -> RawText<'_, Unscannable>;

    /// The states `state` stands for that `command` can tell apart; `None` past a cap.
    fn expand(state: &Self::State, _command: &str) -> Option<Vec<Self::State>> {
        Some(vec![state.clone()])
    }

    /// Whether `command` cannot leave the shell in `state` itself, which every other call may
    /// (its first `cd` failed): it begins by moving for sure (a `popd` of the stack `state`
    /// holds), or only assigns variables.
    fn leaves(_state: &Self::State, _command: &str) -> bool {
        false
    }

    /// What `command` writes from `state`, the states it may leave, and whether that list is
    /// complete.
    fn analyze(command: &str, state: &Self::State) -> (Answer<Unscannable>, Left<Self::State>, bool);
}

/// A call of a persistent shell of kind `S`, whose command is the `command` field.
pub fn check<S: PersistentShell>(args: &dyn ToolArgs, cwd: &Path, call: &ShellCall) -> Option<Denial> {
    let command = args.string("command")?;
    let shell = call.shell.as_str();
    let fresh = S::State::fresh(cwd);
    let known = persistent::states(shell, &fresh);
    let mut states = known.states;
    if call.call_id.is_none() && !states.contains(&fresh) {
        // The shell may have been reset (a timeout, an exit): it starts again in the cwd. A host
        // that reports how calls end says so (the fresh shell is among an unsettled call's states).
        states.push(fresh);
    }
    let raw = S::raw_text(&command);
    if known.overflowed && raw.names_guarded() {
        return Some(Denial::ShellStateTooLarge);
    }
    let mut overflowed = known.overflowed;
    // A stored state may stand for several that this command tells apart (a PowerShell function
    // one of them defined and another did not).
    let mut walked = Vec::new();
    for state in &states {
        match S::expand(state, &command) {
            Some(expanded) => walked.extend(expanded),
            None if raw.names_guarded() => return Some(Denial::ShellStateTooLarge),
            None => {
                overflowed = true;
                walked.push(state.clone());
            }
        }
    }
    let mut next: Vec<S::State> = states.iter().filter(|state| !S::leaves(state, &command)).cloned().collect();
    let mut passed = Vec::new();
    for state in &walked {
        let (answer, after, complete) = S::analyze(&command, state);
        match judge(&answer, &raw) {
            Judged::Denied(denial) => return Some(denial),
            Judged::Allowed => {
                next.extend(after.ended);
                passed.extend(after.passed);
                overflowed |= !complete;
            }
            // Where a command too large to read leaves the shell is unknown.
            Judged::Unread => overflowed = true,
        }
    }
    // Where the call started, and where it only passed through, stay possible until the host
    // reports that it ran to its end.
    let unsettled = match call.call_id.clone() {
        Some(call_id) => Some((call_id, states.into_iter().chain(passed).collect())),
        None => {
            next.extend(passed);
            None
        }
    };
    persistent::record(shell, next, overflowed, unsettled);
    None
}
