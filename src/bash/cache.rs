//! A bounded cache of the one-shot bash analysis ([`super::write_targets`]), in this thread's
//! memory: agents repeat the same commands (`git status`, `cargo test 2>&1 | tail`), and half of
//! a check is the parse.
//!
//! An entry is keyed by everything the analysis reads: the command text (compared in full; the
//! hash only picks the candidates), the base directory, `HOME` as the process has it, and the
//! PowerShell host nesting it runs at (bash run by `pwsh -c` counts hosts). Every file-system
//! question the analysis asks goes through this module ([`is_dir`], [`read_regular_file`]) and is
//! recorded with what it saw: whether a path is a directory; for a file, absent or not regular,
//! or its length and SHA-256. A hit asks every recorded question again and is a miss if any
//! answer differs. The analysis is a function of its key and of those answers, and it asks its
//! questions in an order its earlier answers decide, so the same answers mean the same analysis:
//! the stored result is what it would return now. Only the lexical analysis is cached: the
//! gates resolve real paths and judge every target on every call.
//!
//! Not cached: commands over [`MAX_CACHED_COMMAND_BYTES`]; an analysis that asked more than
//! [`MAX_RECORDED_READS`] questions or whose questions could not be recorded; a parser that could
//! not be set up ([`Unscannable::ParserUnavailable`] says nothing about the command); an analysis
//! nested in another one (its questions belong to the outer one's entry); persistent shells
//! ([`super::write_targets_from`]: their state is an input of its own).
//!
//! Bounds, deterministic: at most [`MAX_ENTRIES`] entries and [`MAX_CACHE_BYTES`] in all (key,
//! value and recorded questions); past either, entries are dropped by CLOCK (second chance): a
//! hit marks its entry, and to make room a hand sweeps the entries in turn, clearing marks, and
//! drops the first unmarked one. A cache that cannot be borrowed (a re-entrant call) is no cache.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::hash::{DefaultHasher, Hasher};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::Unscannable;

/// The most analyses kept.
pub const MAX_ENTRIES: usize = 256;
/// The most bytes all entries may hold together (commands, directories, targets, questions): 4 MiB.
pub const MAX_CACHE_BYTES: usize = 4 << 20;
/// Longer commands are analysed on every call (64 KiB).
pub const MAX_CACHED_COMMAND_BYTES: usize = 64 << 10;
/// An analysis that asks the file system more questions than this is not cached (each is asked
/// again on a hit).
pub const MAX_RECORDED_READS: usize = 64;
/// What an entry costs beyond its texts, for the byte cap.
const ENTRY_OVERHEAD: usize = 128;
/// What one recorded question or one target costs beyond its path, for the byte cap.
const ITEM_OVERHEAD: usize = 64;

/// Stored as the gates judge it, so a hit is judged without building the answer again.
type Analysis = crate::analysis::answer::Answer<Unscannable>;

/// A question the analysis asks the file system.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Question {
    IsDirectory(PathBuf),
    /// At most `limit` + 1 bytes of a regular file.
    RegularFile {
        path: PathBuf,
        limit: u64,
    },
}

/// The answer the analysis saw.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Directory(bool),
    /// Missing, not a regular file, or unreadable.
    NoFile,
    File {
        len: usize,
        sha256: [u8; 32],
    },
}

impl Answer {
    fn of_file(bytes: Option<&[u8]>) -> Answer {
        match bytes {
            None => Answer::NoFile,
            Some(bytes) => Answer::File { len: bytes.len(), sha256: Sha256::digest(bytes).into() },
        }
    }
}

impl Question {
    fn answer_now(&self) -> Answer {
        match self {
            Question::IsDirectory(path) => Answer::Directory(path.is_dir()),
            Question::RegularFile { path, limit } => Answer::of_file(regular_file_bytes(path, *limit).as_deref()),
        }
    }

    fn path(&self) -> &Path {
        match self {
            Question::IsDirectory(path) | Question::RegularFile { path, .. } => path,
        }
    }
}

/// The questions of the analysis under way, and whether they can all be asked again.
#[derive(Default)]
struct Recording {
    asked: Vec<(Question, Answer)>,
    unrecordable: bool,
}

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
    asked: Vec<(Question, Answer)>,
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
    /// The questions of the outermost analysis under way on this thread, if one is recorded.
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
    /// A question came while the recording could not be reached: the analysis is not cached.
    static LOST_QUESTION: Cell<bool> = const { Cell::new(false) };
}

/// `analyse` (the uncached analysis of `command` in `base`), or its result from the cache when
/// nothing it read has changed.
pub(crate) fn through(command: &str, base: &Path, analyse: impl FnOnce() -> Analysis) -> Analysis {
    if command.len() > MAX_CACHED_COMMAND_BYTES || recording_under_way() {
        return analyse();
    }
    let key = Key {
        command: Cow::Borrowed(command),
        base: Cow::Borrowed(base.as_os_str()),
        home: std::env::var_os("HOME"),
        host_nesting: crate::powershell::host_nesting(),
    };
    let hash = key.hash();
    if let Some(analysis) = with_cache(|cache| cache.hit(hash, &key)).flatten() {
        return analysis;
    }
    let (analysis, recording) = recorded(analyse);
    if let Some(asked) = recording
        && analysis.limit() != Some(&Unscannable::ParserUnavailable)
    {
        with_cache(|cache| cache.insert(hash, key.into_owned(), analysis.clone(), asked));
    }
    analysis
}

/// Whether `path` is a directory, asked by the analysis.
pub(crate) fn is_dir(path: &Path) -> bool {
    let is_dir = path.is_dir();
    record(|| (Question::IsDirectory(path.to_path_buf()), Answer::Directory(is_dir)));
    is_dir
}

/// At most `limit` + 1 bytes of a regular file (one more tells it is larger), asked by the
/// analysis; a FIFO or a terminal would block the check, so anything else is `None`.
pub(crate) fn read_regular_file(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let bytes = regular_file_bytes(path, limit);
    record(|| (Question::RegularFile { path: path.to_path_buf(), limit }, Answer::of_file(bytes.as_deref())));
    bytes
}

fn regular_file_bytes(path: &Path, limit: u64) -> Option<Vec<u8>> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).ok()?.take(limit.saturating_add(1)).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

fn with_cache<T>(body: impl FnOnce(&mut Cache) -> T) -> Option<T> {
    CACHE.try_with(|cache| cache.try_borrow_mut().ok().map(|mut cache| body(&mut cache))).ok().flatten()
}

fn recording_under_way() -> bool {
    // Unreachable: treat it as under way, so nothing is cached.
    RECORDING.try_with(|recording| recording.try_borrow().map_or(true, |recording| recording.is_some())).unwrap_or(true)
}

/// Adds a question and its answer to the recording under way, if any.
fn record(asked: impl FnOnce() -> (Question, Answer)) {
    let recorded = RECORDING.try_with(|recording| {
        let Ok(mut recording) = recording.try_borrow_mut() else { return false };
        if let Some(recording) = recording.as_mut() {
            if recording.asked.len() >= MAX_RECORDED_READS {
                recording.unrecordable = true;
            } else {
                recording.asked.push(asked());
            }
        }
        true
    });
    if recorded != Ok(true) {
        let _ = LOST_QUESTION.try_with(|lost| lost.set(true));
    }
}

/// Ends the recording when the analysis returns or unwinds.
struct RecordingGuard;

impl Drop for RecordingGuard {
    fn drop(&mut self) {
        let _ = RECORDING.try_with(|recording| recording.try_borrow_mut().map(|mut recording| recording.take()));
    }
}

/// Runs `analyse` while recording its questions; `None` for the questions when they cannot all be
/// asked again.
fn recorded(analyse: impl FnOnce() -> Analysis) -> (Analysis, Option<Vec<(Question, Answer)>>) {
    let started = RECORDING
        .try_with(|recording| recording.try_borrow_mut().map(|mut recording| *recording = Some(Recording::default())))
        .is_ok_and(|started| started.is_ok());
    let _ = LOST_QUESTION.try_with(|lost| lost.set(false));
    if !started {
        return (analyse(), None);
    }
    let guard = RecordingGuard;
    let analysis = analyse();
    let recording = RECORDING.try_with(|recording| recording.try_borrow_mut().ok().and_then(|mut r| r.take()));
    drop(guard);
    let lost = LOST_QUESTION.try_with(Cell::get).unwrap_or(true);
    let asked = match recording {
        Ok(Some(recording)) if !recording.unrecordable && !lost => Some(recording.asked),
        _ => None,
    };
    (analysis, asked)
}

fn analysis_bytes(analysis: &Analysis) -> usize {
    analysis.locations.iter().map(|location| location.path.as_os_str().len() + ITEM_OVERHEAD).sum()
}

impl Cache {
    /// The stored analysis for `key`, if every question it asked has the same answer now.
    fn hit(&mut self, hash: u64, key: &Key) -> Option<Analysis> {
        let at = self.find(hash, key)?;
        let entry = self.slots.get_mut(at)?.as_mut()?;
        if !entry.asked.iter().all(|(question, answer)| question.answer_now() == *answer) {
            self.take(at);
            return None;
        }
        entry.referenced = true;
        let analysis = entry.analysis.clone();
        self.hits += 1;
        Some(analysis)
    }

    fn insert(&mut self, hash: u64, key: Key<'static>, analysis: Analysis, asked: Vec<(Question, Answer)>) {
        if let Some(at) = self.find(hash, &key) {
            self.take(at);
        }
        let asked_bytes: usize =
            asked.iter().map(|(question, _)| question.path().as_os_str().len() + ITEM_OVERHEAD).sum();
        let bytes = ENTRY_OVERHEAD + key.bytes() + analysis_bytes(&analysis) + asked_bytes;
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
