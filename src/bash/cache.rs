//! A bounded cache of the one-shot bash analysis ([`super::write_targets`]), in this thread's
//! memory: agents repeat the same commands (`git status`, `cargo test 2>&1 | tail`), and half of
//! a check is the parse.
//!
//! An entry is keyed by everything the analysis reads: the command text (compared in full; the
//! hash only picks the candidates), the base directory, `HOME` as the process has it, and the
//! PowerShell host nesting it runs at (bash run by `pwsh -c` counts hosts). Every file-system
//! question the analysis asks is recorded with what it saw ([`crate::analysis::fs`]); a hit asks
//! every recorded question again and is a miss if any answer differs. The analysis is a function
//! of its key and of those answers, so the stored result is what it would return now. Only the
//! lexical analysis is cached: the gates resolve real paths and judge every target on every call.
//!
//! Not cached: commands over [`MAX_CACHED_COMMAND_BYTES`]; an analysis that asked more than
//! [`MAX_RECORDED_READS`](crate::analysis::fs::MAX_RECORDED_READS) questions or whose questions
//! could not be recorded; a parser that could not be set up ([`Unscannable::ParserUnavailable`]
//! says nothing about the command); an analysis nested in another one (its questions belong to
//! the outer one's entry); persistent shells ([`super::write_targets_from`]: their state is an
//! input of its own).
//!
//! Bounds, deterministic: at most [`MAX_ENTRIES`] entries and [`MAX_CACHE_BYTES`] in all (key,
//! value and recorded questions); past either, entries are dropped by CLOCK (second chance): a
//! hit marks its entry, and to make room a hand sweeps the entries in turn, clearing marks, and
//! drops the first unmarked one. A cache that cannot be borrowed (a re-entrant call) is no cache.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::hash::{DefaultHasher, Hasher};
use std::path::Path;

use super::Unscannable;
#[cfg(test)]
use crate::analysis::fs::MAX_RECORDED_READS;
use crate::analysis::fs::{self, Asked};
use crate::analysis::handoff;

/// The most analyses kept.
pub const MAX_ENTRIES: usize = 256;
/// The most bytes all entries may hold together (commands, directories, targets, questions): 4 MiB.
pub const MAX_CACHE_BYTES: usize = 4 << 20;
/// Longer commands are analysed on every call (64 KiB).
pub const MAX_CACHED_COMMAND_BYTES: usize = 64 << 10;
/// What an entry costs beyond its texts, for the byte cap.
const ENTRY_OVERHEAD: usize = 128;
/// What one target costs beyond its path, for the byte cap.
const ITEM_OVERHEAD: usize = 64;

/// Stored as the gates judge it, so a hit is judged without building the answer again.
type Analysis = crate::analysis::answer::Answer<Unscannable>;

/// Compared byte for byte (`Path` equality would take `/a/` for `/a`); borrowed for a lookup,
/// owned in an entry.
#[derive(PartialEq, Eq)]
struct Key<'a> {
    command: Cow<'a, str>,
    base: Cow<'a, OsStr>,
    home: Option<OsString>,
    host_nesting: usize,
}

impl Key<'_> {
    fn hash(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        for part in [self.command.as_bytes(), self.base.as_encoded_bytes()] {
            hasher.write_usize(part.len());
            hasher.write(part);
        }
        if let Some(home) = &self.home {
            hasher.write(home.as_encoded_bytes());
        }
        hasher.write_usize(self.host_nesting);
        hasher.finish()
    }

    fn bytes(&self) -> usize {
        self.command.len() + self.base.len() + self.home.as_ref().map_or(0, |home| home.len())
    }

    fn into_owned(self) -> Key<'static> {
        Key {
            command: Cow::Owned(self.command.into_owned()),
            base: Cow::Owned(self.base.into_owned()),
            home: self.home,
            host_nesting: self.host_nesting,
        }
    }
}

struct Entry {
    hash: u64,
    key: Key<'static>,
    analysis: Analysis,
    asked: Asked,
    bytes: usize,
    /// Used since the clock hand last passed it.
    referenced: bool,
}

/// The entries in slots a clock hand sweeps (CLOCK, a second chance for each entry used since
/// the hand last passed), found through their keys' hashes.
#[derive(Default)]
struct Cache {
    slots: Vec<Option<Entry>>,
    /// Empty slots.
    free: Vec<usize>,
    by_hash: BTreeSet<(u64, usize)>,
    hand: usize,
    len: usize,
    bytes: usize,
    /// Calls answered from the cache (for the tests).
    hits: u64,
}

thread_local! {
    /// One cache per thread, like the persistent shells' store: N-API calls of one JS realm run on
    /// its thread.
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// `analyse` (the uncached analysis of `command` in `base`), or its result from the cache when
/// nothing it read has changed.
pub(crate) fn through(command: &str, base: &Path, analyse: impl FnOnce() -> Analysis) -> Analysis {
    if command.len() > MAX_CACHED_COMMAND_BYTES || fs::recording_under_way() {
        return analyse();
    }
    let key = Key {
        command: Cow::Borrowed(command),
        base: Cow::Borrowed(base.as_os_str()),
        home: std::env::var_os("HOME"),
        host_nesting: handoff::host_nesting(),
    };
    let hash = key.hash();
    if let Some(analysis) = with_cache(|cache| cache.hit(hash, &key)).flatten() {
        return analysis;
    }
    let (analysis, recording) = fs::recorded(analyse);
    if let Some(asked) = recording
        && analysis.limit() != Some(&Unscannable::ParserUnavailable)
    {
        with_cache(|cache| cache.insert(hash, key.into_owned(), analysis.clone(), asked));
    }
    analysis
}

fn with_cache<T>(body: impl FnOnce(&mut Cache) -> T) -> Option<T> {
    CACHE.try_with(|cache| cache.try_borrow_mut().ok().map(|mut cache| body(&mut cache))).ok().flatten()
}

fn analysis_bytes(analysis: &Analysis) -> usize {
    analysis.locations.iter().map(|location| location.path.as_os_str().len() + ITEM_OVERHEAD).sum()
}

impl Cache {
    /// The stored analysis for `key`, if every question it asked has the same answer now.
    fn hit(&mut self, hash: u64, key: &Key) -> Option<Analysis> {
        let at = self.find(hash, key)?;
        let entry = self.slots.get_mut(at)?.as_mut()?;
        if !entry.asked.still_hold() {
            self.take(at);
            return None;
        }
        entry.referenced = true;
        let analysis = entry.analysis.clone();
        self.hits += 1;
        Some(analysis)
    }

    fn insert(&mut self, hash: u64, key: Key<'static>, analysis: Analysis, asked: Asked) {
        if let Some(at) = self.find(hash, &key) {
            self.take(at);
        }
        let bytes = ENTRY_OVERHEAD + key.bytes() + analysis_bytes(&analysis) + asked.bytes();
        if bytes > MAX_CACHE_BYTES {
            return;
        }
        while self.len >= MAX_ENTRIES || self.bytes + bytes > MAX_CACHE_BYTES {
            if !self.evict_one() {
                return;
            }
        }
        let entry = Entry { hash, key, analysis, asked, bytes, referenced: false };
        let at = self.free.pop().unwrap_or_else(|| {
            self.slots.push(None);
            self.slots.len() - 1
        });
        let Some(slot) = self.slots.get_mut(at) else { return };
        *slot = Some(entry);
        self.len += 1;
        self.bytes += bytes;
        self.by_hash.insert((hash, at));
    }

    /// The slot of the entry for `key`.
    fn find(&self, hash: u64, key: &Key) -> Option<usize> {
        self.by_hash
            .range((hash, 0)..=(hash, usize::MAX))
            .map(|&(_, at)| at)
            .find(|&at| self.slots.get(at).and_then(Option::as_ref).is_some_and(|entry| entry.key == *key))
    }

    /// Moves the hand to the first entry not used since it last passed, clearing the marks it
    /// passes, and drops that entry. `false` when there is none.
    fn evict_one(&mut self) -> bool {
        // Two turns: the first may only clear marks.
        for _ in 0..2 * self.slots.len() {
            let at = self.hand;
            self.hand = if at + 1 >= self.slots.len() { 0 } else { at + 1 };
            match self.slots.get_mut(at).and_then(Option::as_mut) {
                Some(entry) if entry.referenced => entry.referenced = false,
                Some(_) => {
                    self.take(at);
                    return true;
                }
                None => {}
            }
        }
        false
    }

    fn take(&mut self, at: usize) {
        if let Some(entry) = self.slots.get_mut(at).and_then(Option::take) {
            self.len = self.len.saturating_sub(1);
            self.bytes = self.bytes.saturating_sub(entry.bytes);
            self.by_hash.remove(&(entry.hash, at));
            self.free.push(at);
        }
    }
}

/// Calls answered from this thread's cache so far, its entries and its bytes.
#[cfg(test)]
fn usage() -> (u64, usize, usize) {
    with_cache(|cache| (cache.hits, cache.len, cache.bytes)).unwrap_or_default()
}

/// Empties this thread's cache (tests that count entries may share a thread).
#[cfg(test)]
fn clear() {
    with_cache(|cache| *cache = Cache::default());
}

#[cfg(test)]
mod tests;
