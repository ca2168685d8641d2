//! The state persistent shells keep between calls (P-15), in this process's memory.
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
//! The store is keyed by the caller's name for the shell and holds one kind of state per kind of
//! shell ([`States`]): bash scopes, or PowerShell states ([`crate::powershell::State`]: locations,
//! variables, functions, aliases). A
//! name recorded with one kind and asked for with the other starts fresh and overflowed.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::analysis::scope::Scope;
use crate::bash::Bash;
use crate::powershell::PowerShell;

type PwshState = Scope<PowerShell>;

/// The most persistent shells remembered at once.
pub const MAX_SHELLS: usize = 64;
/// The most possible states one shell keeps.
pub const MAX_STATES: usize = 32;
/// The most bytes (directories, variables, functions, aliases) one shell's states may hold: 512 KiB.
pub const MAX_SHELL_BYTES: usize = 512 << 10;
/// The most names of dropped shells remembered; past it every unknown name counts as dropped.
const MAX_DROPPED_NAMES: usize = 4_096;

/// The states of one kind of shell.
#[derive(Clone)]
pub enum States {
    Bash(Vec<Scope<Bash>>),
    PowerShell(Vec<PwshState>),
}

/// What a call is judged against.
#[derive(Clone)]
pub struct Known {
    pub states: States,
    /// Over a cap: commands naming guarded locations are refused.
    pub overflowed: bool,
}

struct Shell {
    known: Known,
    used: u64,
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

/// The bash states of shell `name`; a shell never seen starts as `fresh` alone. A name whose
/// state was evicted comes back overflowed.
pub fn bash_states(name: &str, fresh: &Scope<Bash>) -> Known {
    // The store is unreachable only while the thread ends: nothing is known, so fail closed.
    let fresh = States::Bash(vec![fresh.clone()]);
    with_store(|store| store.known(name, &fresh)).unwrap_or(Known { states: fresh, overflowed: true })
}

/// The PowerShell states of shell `name`, as [`bash_states`].
pub fn pwsh_states(name: &str, fresh: &PwshState) -> Known {
    let fresh = States::PowerShell(vec![fresh.clone()]);
    with_store(|store| store.known(name, &fresh)).unwrap_or(Known { states: fresh, overflowed: true })
}

/// Records what an allowed call of PowerShell shell `name` may have left: `states`, folded where
/// they are in the same place ([`PwshState::fold`]: a function or alias only one defines is kept
/// as maybe-defined, so a shell that defines one per call does not double its states each time),
/// capped as bash states are (a variable with more than [`crate::powershell::MAX_VALUES`] values
/// overflows the shell too).
pub fn record_pwsh(name: &str, states: Vec<PwshState>, overflowed: bool) {
    let (kept, capped) = merge_capped_pwsh(states);
    let known = Known { states: States::PowerShell(kept), overflowed: overflowed || capped };
    with_store(|store| store.record(name, known));
}

fn merge_capped_pwsh(states: Vec<PwshState>) -> (Vec<PwshState>, bool) {
    let mut kept: Vec<PwshState> = Vec::new();
    let mut capped = false;
    for state in states {
        match kept.iter_mut().find_map(|kept| kept.fold(&state)) {
            Some(within) => capped |= !within,
            None => kept.push(state),
        }
    }
    capped |= kept.len() > MAX_STATES;
    kept.truncate(MAX_STATES);
    let weight = |states: &[PwshState]| states.iter().map(PwshState::weight).sum::<usize>();
    if weight(&kept) > MAX_SHELL_BYTES {
        capped = true;
        kept = kept.iter().map(PwshState::without_vars).collect();
        kept.dedup();
        while weight(&kept) > MAX_SHELL_BYTES && kept.pop().is_some() {}
    }
    (kept, capped)
}

/// Records what an allowed call of bash shell `name` may have left: `states`, merged and capped.
pub fn record_bash(name: &str, states: Vec<Scope<Bash>>, overflowed: bool) {
    let (states, capped) = merge_capped(states);
    let known = Known { states: States::Bash(states), overflowed: overflowed || capped };
    with_store(|store| store.record(name, known));
}

/// Forgets shell `name` (its session ended). Returns whether it was known.
pub fn drop_shell(name: &str) -> bool {
    with_store(|store| store.forget(name)).unwrap_or(false)
}

impl Store {
    fn known(&mut self, name: &str, fresh: &States) -> Known {
        self.clock += 1;
        let clock = self.clock;
        if let Some(shell) = self.shells.get_mut(name) {
            shell.used = clock;
            if std::mem::discriminant(&shell.known.states) == std::mem::discriminant(fresh) {
                return shell.known.clone();
            }
            // The same name for two kinds of shell: the other kind's state says nothing here.
            return Known { states: fresh.clone(), overflowed: true };
        }
        let evicted = self.evicted_too_many || self.evicted.contains(&name_hash(name));
        Known { states: fresh.clone(), overflowed: evicted }
    }

    fn record(&mut self, name: &str, known: Known) {
        self.clock += 1;
        let used = self.clock;
        if !self.shells.contains_key(name) && self.shells.len() >= MAX_SHELLS {
            self.evict_oldest();
        }
        self.shells.insert(name.to_string(), Shell { known, used });
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
/// or [`MAX_SHELL_BYTES`] the rest is dropped (then variables) and the result is capped.
fn merge_capped(states: Vec<Scope<Bash>>) -> (Vec<Scope<Bash>>, bool) {
    let mut merged: Vec<Scope<Bash>> = Vec::new();
    for state in states {
        if !merged.iter_mut().any(|kept| kept.fold(&state).is_some()) {
            merged.push(state);
        }
    }
    let mut capped = merged.len() > MAX_STATES;
    merged.truncate(MAX_STATES);
    if merged.iter().map(Scope::<Bash>::weight).sum::<usize>() > MAX_SHELL_BYTES {
        capped = true;
        merged = merged.iter().map(Scope::<Bash>::without_vars).collect();
        merged.dedup_by(|a, b| a == b);
    }
    (merged, capped)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn states_in_the_same_place_merge_and_the_count_is_capped() {
        let states: Vec<Scope<Bash>> = (0..MAX_STATES + 5).map(|n| Scope::<Bash>::fresh(Path::new(&format!("/d{n}")))).collect();
        let (kept, capped) = merge_capped(states);
        assert_eq!(kept.len(), MAX_STATES);
        assert!(capped);
        let same = vec![Scope::<Bash>::fresh(Path::new("/a")), Scope::<Bash>::fresh(Path::new("/a"))];
        let (kept, capped) = merge_capped(same);
        assert!(kept == vec![Scope::<Bash>::fresh(Path::new("/a"))] && !capped);
    }

    #[test]
    fn the_least_recently_used_shell_is_evicted_and_comes_back_overflowed() {
        let mut store = Store::default();
        let fresh = States::Bash(vec![Scope::<Bash>::fresh(Path::new("/repo"))]);
        let known = || Known { states: States::Bash(vec![Scope::<Bash>::fresh(Path::new("/repo"))]), overflowed: false };
        for n in 0..=MAX_SHELLS {
            store.record(&format!("s{n}"), known());
        }
        assert_eq!(store.shells.len(), MAX_SHELLS);
        assert!(store.known("s0", &fresh).overflowed);
        assert!(!store.known("s1", &fresh).overflowed);
        assert!(!store.known("never-seen", &fresh).overflowed);
        store.forget("s0");
        assert!(!store.known("s0", &fresh).overflowed);
    }
}
