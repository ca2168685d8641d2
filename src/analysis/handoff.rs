//! How one analysis hands text to another without importing it.
//!
//! A bash line runs `pwsh -c …` or `python3 -c …`, a PowerShell line runs `bash -c …`, a
//! program starts a shell command: each analysis recognises the hand-over and passes the text to
//! the [`Analyses`] it was given, which the layer above all of them implements
//! (`crate::analyses`). The analyses are siblings: none names another.

use std::cell::Cell;

use super::budget::Unscannable;

thread_local! {
    static HOST_NESTING: Cell<usize> = const { Cell::new(0) };
}

/// How many PowerShell hosts are under way on this thread: an input of a bash analysis, which
/// its cache keys on (bash run by `pwsh -c` counts hosts).
pub fn host_nesting() -> usize {
    HOST_NESTING.get()
}

/// `analysis` as one more host around what it runs, unless `max` hosts are already under way.
pub fn as_host<T>(max: usize, analysis: impl FnOnce() -> Result<T, Unscannable>) -> Result<T, Unscannable> {
    let nesting = HOST_NESTING.get();
    if nesting >= max {
        return Err(Unscannable::ScriptsTooDeep);
    }
    HOST_NESTING.set(nesting + 1);
    let result = analysis();
    HOST_NESTING.set(nesting);
    result
}
