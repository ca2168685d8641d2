//! approval.md on disk: read for the gates, written atomically under an exclusive lock (P-9).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::record::{self, ApprovalRecord};
use crate::paths;

/// The record of change `change_id` under `root`; missing or unreadable reads as empty.
pub fn read_record(root: &Path, change_id: &str) -> ApprovalRecord {
    fs::read(paths::approval_file(root, change_id)).map(|bytes| ApprovalRecord::parse(&bytes)).unwrap_or_default()
}

/// Why approval.md of a change may not be written through the path it is reached by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsafeLocation {
    pub path: PathBuf,
    pub reason: &'static str,
}

/// P-9: every step from the root to approval.md must be a real directory (or, for the file, a
/// regular file or nothing), so a symlink can never carry the write somewhere else.
pub fn check_write_location(root: &Path, change_id: &str) -> Result<(), UnsafeLocation> {
    let mut path = root.to_path_buf();
    for segment in paths::CHANGES_DIR.iter().copied().chain([change_id]) {
        path.push(segment);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(UnsafeLocation { path, reason: "it is a symlink" });
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(UnsafeLocation { path, reason: "it is not a directory" });
            }
            Ok(_) => {}
            Err(_) => return Err(UnsafeLocation { path, reason: "it does not exist" }),
        }
    }
    path.push(paths::APPROVAL_FILE);
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(UnsafeLocation { path, reason: "it is a symlink" }),
        Ok(meta) if !meta.is_file() => Err(UnsafeLocation { path, reason: "it is not a regular file" }),
        _ => Ok(()),
    }
}

/// An exclusive lock over the approvals of one change, held until dropped.
pub struct ChangeLock {
    _file: File,
}

impl ChangeLock {
    /// Blocks until no other writer (thread or process) holds the change.
    pub fn acquire(change_dir: &Path) -> io::Result<Self> {
        let file = lock_file(change_dir)?;
        file.lock()?;
        Ok(ChangeLock { _file: file })
    }
}

// The directory itself is locked on Unix, so no lock file is left in the repository.
#[cfg(unix)]
fn lock_file(change_dir: &Path) -> io::Result<File> {
    File::open(change_dir)
}

#[cfg(not(unix))]
fn lock_file(change_dir: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).truncate(false).write(true).open(change_dir.join(".approval.md.lock"))
}

/// Replaces section `name` of approval.md in `change_dir` with `section_text`, keeping every other
/// byte, via a temporary file renamed into place. The caller holds the [`ChangeLock`].
pub fn write_section(change_dir: &Path, name: &str, section_text: &str) -> io::Result<()> {
    let target = change_dir.join(paths::APPROVAL_FILE);
    let original = match fs::read(&target) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(error),
    };
    let updated = record::replace_section(&original, name, section_text);
    replace_file(change_dir, &target, &updated, paths::APPROVAL_FILE, None)
}

/// `bytes` become `target` (in `dir`) through a new temporary file `.<stem>.….tmp` in `dir` (never
/// an existing path, so never a symlink), created with `mode` on Unix, synced, renamed over
/// `target`; then `dir` is synced. A failed write removes the temporary file.
pub fn replace_file(dir: &Path, target: &Path, bytes: &[u8], stem: &str, mode: Option<u32>) -> io::Result<()> {
    let temp = temp_path(dir, stem);
    let result = write_synced(&temp, bytes, mode).and_then(|()| fs::rename(&temp, target));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result?;
    sync_dir(dir)
}

fn temp_path(dir: &Path, stem: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{stem}.{}.{nanos}.{count}.tmp", std::process::id()))
}

fn write_synced(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(root: &Path, id: &str) -> PathBuf {
        let dir = paths::change_dir(root, id);
        fs::create_dir_all(&dir).expect("test fixture");
        dir
    }

    #[test]
    fn writes_a_section_and_keeps_the_rest() {
        let tmp = tempfile::tempdir().expect("test fixture");
        let dir = change(tmp.path(), "c");
        fs::write(dir.join("approval.md"), "design:\n  by: owner\n  at: T0\nextra:\n  k: v\n").expect("test fixture");
        let _lock = ChangeLock::acquire(&dir).expect("test fixture");
        write_section(&dir, "plan", "plan:\n  by: owner\n  at: T1\n  sha256: ab\n").expect("test fixture");
        let text = fs::read_to_string(dir.join("approval.md")).expect("test fixture");
        assert_eq!(
            text,
            "design:\n  by: owner\n  at: T0\nextra:\n  k: v\nplan:\n  by: owner\n  at: T1\n  sha256: ab\n"
        );
        let leftovers: Vec<_> =
            fs::read_dir(&dir).expect("test fixture").filter_map(Result::ok).map(|e| e.file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("approval.md")]);
        assert_eq!(read_record(tmp.path(), "c").plan_sha256(), Some("ab"));
    }

    #[test]
    fn missing_record_reads_empty() {
        let tmp = tempfile::tempdir().expect("test fixture");
        assert_eq!(read_record(tmp.path(), "nope"), ApprovalRecord::default());
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_steps_are_refused() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().expect("test fixture");
        let root = tmp.path();
        let outside = tempfile::tempdir().expect("test fixture");

        change(root, "ok");
        assert_eq!(check_write_location(root, "ok"), Ok(()));

        symlink(outside.path(), paths::change_dir(root, "linked")).expect("test fixture");
        let refused = check_write_location(root, "linked").unwrap_err();
        assert_eq!(refused.reason, "it is a symlink");

        let dir = change(root, "file-link");
        symlink(outside.path().join("a.md"), dir.join("approval.md")).expect("test fixture");
        assert_eq!(check_write_location(root, "file-link").unwrap_err().reason, "it is a symlink");

        let elsewhere = tempfile::tempdir().expect("test fixture");
        fs::create_dir_all(outside.path().join("changes/c")).expect("test fixture");
        symlink(outside.path(), elsewhere.path().join("openspec")).expect("test fixture");
        assert_eq!(check_write_location(elsewhere.path(), "c").unwrap_err().path, elsewhere.path().join("openspec"));

        assert_eq!(check_write_location(root, "missing").unwrap_err().reason, "it does not exist");
    }
}
