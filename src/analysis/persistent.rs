//! The state persistent shells keep between calls (`docs/decisions.md#p-15`), in this process's
//! memory.
//!
//! The guard cannot know which of a shell's earlier commands ran to the end, so a shell keeps a
//! set of possible states: the fresh shell (a persistent shell is reset after a timeout or an
//! exit), each state an allowed call started from (it may have failed at once), and each state
//! it may have reached (after each `cd` of the shell itself, and at its end; for PowerShell, after
//! each change of its location, variables, functions or aliases). States in the same directories
//! are merged (a variable keeps the values of both; PowerShell states that differ only in a
//! function or alias one of them defined fold too, the name kept as maybe-defined). A refused call
//! never ran and changes nothing.
//!
//! Memory is bounded: [`MAX_SHELLS`] shells (the least recently used is dropped, and its name
//! remembered so it cannot come back fresh), [`MAX_STATES`] states and [`MAX_SHELL_BYTES`] per
//! shell. A shell over a cap is *overflowed*: it keeps what fits, and from then on every command
//! of it whose text names a guarded location is refused (fail closed), the rest judged against
//! what it kept.
//!
//! A host that reports how each call ended names the call ([`ShellCall::call_id`]): the states
//! it started from, the states it only passes through ([`Left::passed`]: a `pushd` a sure `popd`
//! undoes) and the fresh shell (a reset) are then kept aside as the call's *unsettled* states
//! until the host reports that it ran to its end without a reset ([`settle`]), and folded back in
//! if the next call comes first. A host that does not report keeps them all.
//!
//! The store is keyed by the caller's name for the shell and holds one kind of state per shell,
//! any [`ShellState`] (bash's and PowerShell's [`crate::analysis::scope::Scope`]). A name recorded
//! with one kind and asked for with the other starts fresh and overflowed.

use std::any::Any;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use super::scope::{Dialect, Scope};

/// One possible state of a persistent shell, as the store keeps it.
pub trait ShellState: Clone + PartialEq + 'static {
    /// A shell that has just started in `cwd`.
    fn fresh(cwd: &Path) -> Self;
    /// Folds `other` into this state when they are in the same place: `None` when they are not,
    /// `Some(false)` when the fold lost values (the state is no longer whole).
    fn merge(&mut self, other: &Self) -> Option<bool>;
    /// Roughly the bytes it holds.
    fn weight(&self) -> usize;
    /// The same place, no variables.
    fn without_vars(&self) -> Self;
}

impl<D: Dialect> ShellState for Scope<D> {
    fn fresh(cwd: &Path) -> Self {
        Scope::fresh(cwd)
    }

    fn merge(&mut self, other: &Self) -> Option<bool> {
        self.fold(other)
    }

    fn weight(&self) -> usize {
        Scope::weight(self)
    }

    fn without_vars(&self) -> Self {
        Scope::without_vars(self)
    }
}

/// What a call of a persistent shell may leave: the files it writes, the states it may leave the
/// shell in, and whether that list is complete.
pub type Walked<S> = (Vec<PathBuf>, Left<S>, bool);

/// The states a call may leave its shell in: where it may end when it runs to its end, and the
/// states it only passes through (a `pushd` that a sure `popd` later in the call undoes), which
/// it leaves the shell in only when it stops before its end.
#[derive(Debug, Clone, PartialEq)]
pub struct Left<S> {
    pub ended: Vec<S>,
    pub passed: Vec<S>,
}

impl<S> Left<S> {
    /// Every state counts as one the call may end in.
    pub fn ended(ended: Vec<S>) -> Self {
        Left { ended, passed: Vec::new() }
    }
}

/// The most persistent shells remembered at once.
pub const MAX_SHELLS: usize = 64;
/// The most possible states one shell keeps.
pub const MAX_STATES: usize = 32;
/// The most bytes (directories, variables, functions, aliases) one shell's states may hold: 512 KiB.
pub const MAX_SHELL_BYTES: usize = 512 << 10;
/// The most names of dropped shells remembered; past it every unknown name counts as dropped.
const MAX_DROPPED_NAMES: usize = 4_096;

/// A call of a persistent shell: the shell's name, and the host's id for the call when the host
/// reports how its calls end ([`settle`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ShellCall {
    pub shell: String,
    pub call_id: Option<String>,
}

impl ShellCall {
    /// A call of a host that does not report how its calls end.
    pub fn unreported(shell: String) -> Self {
        ShellCall { shell, call_id: None }
    }
}

/// What a call is judged against.
#[derive(Clone)]
pub struct Known<S> {
    pub states: Vec<S>,
    /// Over a cap: commands naming guarded locations are refused.
    pub overflowed: bool,
}

struct Shell {
    /// A `Vec` of one kind of [`ShellState`].
    states: Box<dyn Any>,
    overflowed: bool,
    used: u64,
    /// The last allowed call whose end the host will report, and the states (a `Vec` of the same
    /// kind) it stood on before it ran.
    unsettled: Option<(String, Box<dyn Any>)>,
}

#[derive(Default)]
struct Store {
    shells: HashMap<String, Shell>,
    clock: u64,
    /// Hashes of names whose state was evicted to make room: they come back overflowed.
    evicted: HashSet<u64>,
    evicted_too_many: bool,
}

thread_local! {
    /// One store per thread: N-API calls of one JS realm run on its thread, so a Node worker has
    /// shells of its own.
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

fn with_store<T>(body: impl FnOnce(&mut Store) -> T) -> Option<T> {
    STORE.try_with(|store| store.try_borrow_mut().ok().map(|mut store| body(&mut store))).ok().flatten()
}

fn name_hash(name: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    name.hash(&mut hasher);
    hasher.finish()
}

/// The states of shell `name`; a shell never seen starts as `fresh` alone. A name whose state
/// was evicted, or that was recorded with another kind of state, comes back overflowed. The
/// states of a call not yet settled are among them, and so is `fresh` (it may have been reset).
pub fn states<S: ShellState>(name: &str, fresh: &S) -> Known<S> {
    // The store is unreachable only while the thread ends: nothing is known, so fail closed.
    with_store(|store| store.known(name, fresh))
        .unwrap_or_else(|| Known { states: vec![fresh.clone()], overflowed: true })
}

/// Records what an allowed call of shell `name` may have left: `states`, folded where they are
/// in the same place ([`ShellState::merge`]: a PowerShell function or alias only one defines is
/// kept as maybe-defined, so a shell that defines one per call does not double its states each
/// time), and capped; when the host will report how the call ends, `unsettled` holds the call's
/// id with the states it started from, kept aside until [`settle`].
pub fn record<S: ShellState>(name: &str, states: Vec<S>, overflowed: bool, unsettled: Option<(String, Vec<S>)>) {
    let (kept, capped) = merge_capped(states);
    let known = Known { states: kept, overflowed: overflowed || capped };
    with_store(|store| store.record(name, known, unsettled));
}

/// The host reports that call `call_id` of shell `name` ran to its end without resetting the
/// shell: the states kept aside for it are let go. Returns whether they were.
pub fn settle(name: &str, call_id: &str) -> bool {
    with_store(|store| store.settle(name, call_id)).unwrap_or(false)
}

/// Forgets shell `name` (its session ended). Returns whether it was known.
pub fn drop_shell(name: &str) -> bool {
    with_store(|store| store.forget(name)).unwrap_or(false)
}

impl Store {
    fn known<S: ShellState>(&mut self, name: &str, fresh: &S) -> Known<S> {
        self.clock += 1;
        let clock = self.clock;
        if let Some(shell) = self.shells.get_mut(name) {
            shell.used = clock;
            if let Some(states) = shell.states.downcast_ref::<Vec<S>>() {
                let mut states = states.clone();
                if let Some((_, before)) = &shell.unsettled {
                    // It may not have run, or run into a reset.
                    let before = before.downcast_ref::<Vec<S>>().into_iter().flatten();
                    for state in before.chain(std::iter::once(fresh)) {
                        if !states.contains(state) {
                            states.push(state.clone());
                        }
                    }
                }
                return Known { states, overflowed: shell.overflowed };
            }
            // The same name for two kinds of shell: the other kind's state says nothing here.
            return Known { states: vec![fresh.clone()], overflowed: true };
        }
        let evicted = self.evicted_too_many || self.evicted.contains(&name_hash(name));
        Known { states: vec![fresh.clone()], overflowed: evicted }
    }

    fn record<S: ShellState>(&mut self, name: &str, known: Known<S>, unsettled: Option<(String, Vec<S>)>) {
        self.clock += 1;
        let used = self.clock;
        if !self.shells.contains_key(name) && self.shells.len() >= MAX_SHELLS {
            self.evict_oldest();
        }
        let unsettled = unsettled.map(|(call_id, before)| (call_id, Box::new(before) as Box<dyn Any>));
        let shell = Shell { states: Box::new(known.states), overflowed: known.overflowed, used, unsettled };
        self.shells.insert(name.to_string(), shell);
    }

    fn settle(&mut self, name: &str, call_id: &str) -> bool {
        let Some(shell) = self.shells.get_mut(name) else { return false };
        if shell.unsettled.as_ref().is_some_and(|(id, _)| id == call_id) {
            shell.unsettled = None;
            return true;
        }
        false
    }

    fn evict_oldest(&mut self) {
        let Some(oldest) = self.shells.iter().min_by_key(|(_, shell)| shell.used).map(|(name, _)| name.clone()) else {
            return;
        };
        self.shells.remove(&oldest);
        if self.evicted.len() >= MAX_DROPPED_NAMES {
            self.evicted_too_many = true;
        } else {
            self.evicted.insert(name_hash(&oldest));
        }
    }

    fn forget(&mut self, name: &str) -> bool {
        self.evicted.remove(&name_hash(name));
        self.shells.remove(name).is_some()
    }
}

/// States in the same place folded together, in order of first appearance; past [`MAX_STATES`]
/// or [`MAX_SHELL_BYTES`] the rest is dropped (variables first, then the last states) and the
/// result is capped.
fn merge_capped<S: ShellState>(states: Vec<S>) -> (Vec<S>, bool) {
    let mut kept: Vec<S> = Vec::new();
    let mut capped = false;
    for state in states {
        match kept.iter_mut().find_map(|kept| kept.merge(&state)) {
            Some(within) => capped |= !within,
            None => kept.push(state),
        }
    }
    capped |= kept.len() > MAX_STATES;
    kept.truncate(MAX_STATES);
    let weight = |states: &[S]| states.iter().map(S::weight).sum::<usize>();
    if weight(&kept) > MAX_SHELL_BYTES {
        capped = true;
        kept = kept.iter().map(S::without_vars).collect();
        kept.dedup();
        while weight(&kept) > MAX_SHELL_BYTES && kept.pop().is_some() {}
    }
    (kept, capped)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// A shell whose state is only its directory; `KIND` tells two kinds of shell apart.
    #[derive(Clone, Debug, PartialEq)]
    struct Directory<const KIND: u8>(PathBuf);

    type Dir = Directory<0>;
    /// Another kind of shell, also only a directory.
    type OtherDir = Directory<1>;

    impl<const KIND: u8> ShellState for Directory<KIND> {
        fn fresh(cwd: &Path) -> Self {
            Directory(cwd.to_path_buf())
        }
        fn merge(&mut self, other: &Self) -> Option<bool> {
            (self == other).then_some(true)
        }
        fn weight(&self) -> usize {
            self.0.as_os_str().len()
        }
        fn without_vars(&self) -> Self {
            self.clone()
        }
    }

    #[test]
    fn states_in_the_same_place_merge_and_the_count_is_capped() {
        let states: Vec<Dir> = (0..MAX_STATES + 5).map(|n| Dir::fresh(Path::new(&format!("/d{n}")))).collect();
        let (kept, capped) = merge_capped(states);
        assert_eq!(kept.len(), MAX_STATES);
        assert!(capped);
        let same = vec![Dir::fresh(Path::new("/a")), Dir::fresh(Path::new("/a"))];
        let (kept, capped) = merge_capped(same);
        assert!(kept == vec![Dir::fresh(Path::new("/a"))] && !capped);
    }

    #[test]
    fn the_least_recently_used_shell_is_evicted_and_comes_back_overflowed() {
        let mut store = Store::default();
        let fresh = Dir::fresh(Path::new("/repo"));
        let known = || Known { states: vec![fresh.clone()], overflowed: false };
        for n in 0..=MAX_SHELLS {
            store.record(&format!("s{n}"), known(), None);
        }
        assert_eq!(store.shells.len(), MAX_SHELLS);
        assert!(store.known("s0", &fresh).overflowed);
        assert!(!store.known("s1", &fresh).overflowed);
        assert!(!store.known("never-seen", &fresh).overflowed);
        store.forget("s0");
        assert!(!store.known("s0", &fresh).overflowed);
    }

    #[test]
    fn a_name_recorded_with_another_kind_of_state_comes_back_fresh_and_overflowed() {
        let mut store = Store::default();
        store.record("s", Known { states: vec![Dir::fresh(Path::new("/a"))], overflowed: false }, None);
        let other = store.known("s", &OtherDir::fresh(Path::new("/b")));
        assert!(other.overflowed);
        assert!(other.states == vec![OtherDir::fresh(Path::new("/b"))]);
        assert!(!store.known("s", &Dir::fresh(Path::new("/b"))).overflowed, "its own kind is kept");
    }
}
