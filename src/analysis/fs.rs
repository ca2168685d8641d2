//! The file-system questions an analysis asks, each recorded with what it saw, so that a cached
//! analysis can be trusted only while every answer still holds.
//!
//! Every question goes through this module ([`is_dir`], [`read_regular_file`]): whether a path
//! is a directory; for a file, absent or not regular, or its length and SHA-256. While
//! [`recorded`] runs an analysis, this thread records each question with its answer; asking them
//! all again ([`Asked::still_hold`]) tells whether the analysis would see the same now. An
//! analysis asks its questions in an order its earlier answers decide, so the same answers mean
//! the same analysis.
//!
//! Not recordable: more than [`MAX_RECORDED_READS`] questions, or a question that came while the
//! record could not be reached (a re-entrant call); [`recorded`] then says so.

use std::cell::{Cell, RefCell};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// An analysis that asks the file system more questions than this is not recorded (each is asked
/// again on a hit).
pub const MAX_RECORDED_READS: usize = 64;
/// What one recorded question costs beyond its path, for a cache's byte cap.
const QUESTION_OVERHEAD: usize = 64;

/// A question the analysis asks the file system.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Question {
    IsDirectory(PathBuf),
    /// A directory every user may enter.
    Enterable(PathBuf),
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
            Question::Enterable(path) => Answer::Directory(enterable_now(path)),
            Question::RegularFile { path, limit } => Answer::of_file(regular_file_bytes(path, *limit).as_deref()),
        }
    }

    fn path(&self) -> &Path {
        match self {
            Question::IsDirectory(path) | Question::Enterable(path) | Question::RegularFile { path, .. } => path,
        }
    }
}

/// The questions one analysis asked, with the answers it saw.
#[derive(Debug, Default)]
pub struct Asked(Vec<(Question, Answer)>);

impl Asked {
    /// Whether every question has the same answer now.
    pub fn still_hold(&self) -> bool {
        self.0.iter().all(|(question, answer)| question.answer_now() == *answer)
    }

    /// What keeping them costs, for a cache's byte cap.
    pub fn bytes(&self) -> usize {
        self.0.iter().map(|(question, _)| question.path().as_os_str().len() + QUESTION_OVERHEAD).sum()
    }
}

/// The questions of the analysis under way, and whether they can all be asked again.
#[derive(Default)]
struct Recording {
    asked: Vec<(Question, Answer)>,
    unrecordable: bool,
}

thread_local! {
    /// The questions of the outermost analysis under way on this thread, if one is recorded.
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
    /// A question came while the recording could not be reached: the analysis is not recorded.
    static LOST_QUESTION: Cell<bool> = const { Cell::new(false) };
}

/// Whether `path` is a directory, asked by the analysis.
pub fn is_dir(path: &Path) -> bool {
    let is_dir = path.is_dir();
    record(|| (Question::IsDirectory(path.to_path_buf()), Answer::Directory(is_dir)));
    is_dir
}

/// Whether `directory` is a plain name in every shell: letters, digits, `._/+-`, not an option; no
/// expansion, wildcard, `~`, drive or list. A `cd` to such a name goes there, or fails.
pub fn is_plain_directory_name(directory: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._/+-".contains(c);
    !directory.is_empty() && !directory.starts_with('-') && directory.chars().all(plain)
}

/// Whether `path` is a directory that every user may enter (each execute bit set), so that a `cd`
/// there cannot fail, asked by the analysis (or by the persistent shell's judge, outside any).
pub fn anyone_can_enter(path: &Path) -> bool {
    let enterable = enterable_now(path);
    record(|| (Question::Enterable(path.to_path_buf()), Answer::Directory(enterable)));
    enterable
}

fn enterable_now(path: &Path) -> bool {
    let Ok(metadata) = std::fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_dir() && metadata.permissions().mode() & 0o111 == 0o111
    }
    #[cfg(not(unix))]
    {
        metadata.is_dir()
    }
}

/// At most `limit` + 1 bytes of a regular file (one more tells it is larger), asked by the
/// analysis; a FIFO or a terminal would block the check, so anything else is `None`.
pub fn read_regular_file(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let bytes = regular_file_bytes(path, limit);
    record(|| (Question::RegularFile { path: path.to_path_buf(), limit }, Answer::of_file(bytes.as_deref())));
    bytes
}

/// A regular file's text when it is at most `limit` bytes of UTF-8 without a NUL (a script the
/// analysis reads); `None` for a larger, binary or missing file.
pub fn read_text_file(path: &Path, limit: u64) -> Option<String> {
    let bytes = read_regular_file(path, limit)?;
    if bytes.len() as u64 > limit || bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

fn regular_file_bytes(path: &Path, limit: u64) -> Option<Vec<u8>> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).ok()?.take(limit.saturating_add(1)).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The top of the git work tree `dir` lies in: the nearest folder from `dir` up that holds `.git`
/// (a folder, or a worktree's file), as the analysis asks; `None` outside a repository.
pub fn repository_top(dir: &Path) -> Option<PathBuf> {
    let top = dir.ancestors().find(|dir| {
        let git = dir.join(".git");
        is_dir(&git) || read_regular_file(&git, MAX_GIT_FILE_BYTES).is_some()
    })?;
    Some(top.to_path_buf())
}

/// A worktree's `.git` file holds one `gitdir:` line.
const MAX_GIT_FILE_BYTES: u64 = 4096;

/// Whether an analysis is being recorded on this thread (a nested one's questions belong to it).
pub fn recording_under_way() -> bool {
    // Unreachable: treat it as under way, so nothing is recorded twice.
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
pub fn recorded<T>(analyse: impl FnOnce() -> T) -> (T, Option<Asked>) {
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
        Ok(Some(recording)) if !recording.unrecordable && !lost => Some(Asked(recording.asked)),
        _ => None,
    };
    (analysis, asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_question_holds_until_its_answer_changes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("f.txt");
        std::fs::write(&file, "one").expect("writes");
        let (bytes, asked) = recorded(|| read_regular_file(&file, 16));
        assert_eq!(bytes.as_deref(), Some(&b"one"[..]));
        let asked = asked.expect("recorded");
        assert!(asked.still_hold());
        std::fs::write(&file, "two").expect("writes");
        assert!(!asked.still_hold());
    }

    #[test]
    fn too_many_questions_are_not_recorded() {
        let (_, asked) = recorded(|| {
            for _ in 0..=MAX_RECORDED_READS {
                is_dir(Path::new("/"));
            }
        });
        assert!(asked.is_none());
        assert!(!recording_under_way());
    }
}
