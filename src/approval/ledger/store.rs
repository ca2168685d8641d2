//! The ledger on disk: read without following a symlink, updated under an exclusive lock through
//! a temporary file renamed into place (P-9), in folders this module made or checked itself.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::format::{Ledger, MAX_APPROVALS, MAX_BYTES, Unreadable};
use super::location::{self, REPOS};

/// Why the ledger of a repository does not count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The file is a symlink, or not a regular file: nothing this package wrote.
    NotAFile {
        reason: &'static str,
    },
    /// It cannot be read (permissions, I/O).
    Io {
        reason: String,
    },
    Unreadable(Unreadable),
}

/// A ledger that does not count: which file, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    pub file: PathBuf,
    pub problem: Problem,
}

/// The ledger file of one repository as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Absent,
    Read(Ledger),
    Broken(Broken),
}

/// Reads the ledger `file` of `root` (canonical). A symlink or another kind of file is broken,
/// never followed.
pub fn read(file: &Path, root: &Path) -> Found {
    let broken = |problem| Found::Broken(Broken { file: file.to_path_buf(), problem });
    // The file looked at must be the file opened; a writer's rename in between replaces it, so
    // look again (a few renames in a row are a busy ledger, not a swapped one).
    for _ in 0..REREADS {
        let meta = match fs::symlink_metadata(file) {
            // A file where a folder on the way should be: there can be no ledger there.
            Err(error) if matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => {
                return Found::Absent;
            }
            Err(error) => return broken(Problem::Io { reason: error.to_string() }),
            Ok(meta) if meta.file_type().is_symlink() => {
                return broken(Problem::NotAFile { reason: "it is a symlink" });
            }
            Ok(meta) if !meta.is_file() => return broken(Problem::NotAFile { reason: "it is not a regular file" }),
            Ok(meta) => meta,
        };
        let opened = match File::open(file) {
            Ok(opened) => opened,
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => return broken(Problem::Io { reason: error.to_string() }),
        };
        match opened.metadata() {
            Ok(now) if same_file(&meta, &now) => {}
            Ok(_) => continue,
            Err(error) => return broken(Problem::Io { reason: error.to_string() }),
        }
        // At most one byte over the cap, so a huge file costs no more than the cap to refuse.
        let mut bytes = Vec::new();
        if let Err(error) = opened.take(MAX_BYTES as u64 + 1).read_to_end(&mut bytes) {
            return broken(Problem::Io { reason: error.to_string() });
        }
        return match Ledger::parse(&bytes, root) {
            Ok(ledger) => Found::Read(ledger),
            Err(unreadable) => broken(Problem::Unreadable(unreadable)),
        };
    }
    broken(Problem::Io { reason: format!("it was replaced {REREADS} times while it was read") })
}

/// How many times [`read`] looks again at a ledger replaced while it was opened.
const REREADS: usize = 64;

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.is_file() && b.is_file() && a.len() == b.len()
}

/// Why the ledger could not be updated. Nothing was written in every case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateError {
    /// No absolute `XDG_STATE_HOME`/`HOME` (`LOCALAPPDATA` on Windows).
    NoFolder,
    /// A folder or file on the way is a symlink or not what it should be.
    Unsafe { path: PathBuf, reason: &'static str },
    /// The file system refused (read-only, permissions): typically a sandbox.
    Unwritable { path: PathBuf, reason: String },
    /// The existing ledger does not read: it is left as it is for the owner to look at.
    Broken(Broken),
    /// Past the caps even without the approvals of changes that no longer exist.
    Full { file: PathBuf },
}

/// The lock file beside the ledgers. It is write-only (mode 0200), so only a process that may
/// write the folder can open it, and only such a process can hold the lock: an agent confined to
/// a read-only view of the folder cannot keep the owner waiting.
pub const LOCK_FILE: &str = ".lock";

/// Updates the ledger of `root` (canonical) in `folder` under the lock: `change` gets the ledger
/// as it is (a new, sealed one when there is none; `None` tells `change` it is new) and returns
/// what to report, or an error that leaves the file as it was. `prune` may drop approvals when
/// the result is over the caps. Returns whether the ledger is new, and what `change` returned.
pub fn update<T, E>(
    folder: &Path,
    root: &Path,
    sealed_at: &str,
    change: impl FnOnce(&mut Ledger, bool) -> Result<T, E>,
    prune: impl FnOnce(&mut Ledger),
) -> Result<Result<(bool, T), E>, UpdateError> {
    let repos = prepare_folders(folder)?;
    let _lock = lock(&repos)?;
    let file = repos.join(location::ledger_name(root));
    let (mut ledger, new) = match read(&file, root) {
        Found::Absent => (Ledger::new(root, sealed_at), true),
        Found::Read(ledger) => (ledger, false),
        Found::Broken(broken) => return Err(UpdateError::Broken(broken)),
    };
    let value = match change(&mut ledger, new) {
        Ok(value) => value,
        Err(error) => return Ok(Err(error)),
    };
    let mut text = ledger.render();
    if text.len() > MAX_BYTES || ledger.approvals().len() > MAX_APPROVALS {
        prune(&mut ledger);
        text = ledger.render();
        if text.len() > MAX_BYTES || ledger.approvals().len() > MAX_APPROVALS {
            return Err(UpdateError::Full { file });
        }
    }
    write_atomically(&repos, &file, text.as_bytes())?;
    Ok(Ok((new, value)))
}

/// `folder` and its `repos/` exist as real directories (made here when missing, owner-only on
/// Unix); the parent of `folder` is created when missing, as the owner's state directory.
fn prepare_folders(folder: &Path) -> Result<PathBuf, UpdateError> {
    let unwritable =
        |path: &Path, error: io::Error| UpdateError::Unwritable { path: path.to_path_buf(), reason: error.to_string() };
    if let Some(parent) = folder.parent()
        && !parent.is_dir()
    {
        fs::create_dir_all(parent).map_err(|error| unwritable(parent, error))?;
    }
    let repos = folder.join(REPOS);
    for dir in [folder, repos.as_path()] {
        ensure_dir(dir).map_err(|error| match error {
            DirError::Unsafe(reason) => UpdateError::Unsafe { path: dir.to_path_buf(), reason },
            DirError::Io(error) => unwritable(dir, error),
        })?;
    }
    Ok(repos)
}

enum DirError {
    Unsafe(&'static str),
    Io(io::Error),
}

fn ensure_dir(dir: &Path) -> Result<(), DirError> {
    let check = |meta: fs::Metadata| {
        if meta.file_type().is_symlink() {
            Err(DirError::Unsafe("it is a symlink"))
        } else if !meta.is_dir() {
            Err(DirError::Unsafe("it is not a directory"))
        } else {
            Ok(())
        }
    };
    match fs::symlink_metadata(dir) {
        Ok(meta) => check(meta),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            match make_private_dir(dir) {
                Ok(()) => {}
                // Another owner's process made it first.
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(DirError::Io(error)),
            }
            check(fs::symlink_metadata(dir).map_err(DirError::Io)?)
        }
        Err(error) => Err(DirError::Io(error)),
    }
}

#[cfg(unix)]
fn make_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new().mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn make_private_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir(dir)
}

/// The exclusive lock over every ledger in `repos`, held until dropped.
struct Lock {
    _file: File,
}

fn lock(repos: &Path) -> Result<Lock, UpdateError> {
    let path = repos.join(LOCK_FILE);
    let unwritable = |error: io::Error| UpdateError::Unwritable { path: path.clone(), reason: error.to_string() };
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.is_file() => {
            return Err(UpdateError::Unsafe { path, reason: "it is not a regular file" });
        }
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(unwritable(error)),
    }
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o200);
        #[cfg(target_os = "linux")]
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let file = options.open(&path).map_err(unwritable)?;
    file.lock().map_err(unwritable)?;
    Ok(Lock { _file: file })
}

/// `bytes` become `file` through a new temporary file in the same folder (never an existing
/// path, so never a symlink), renamed over it; the folder is synced after.
fn write_atomically(repos: &Path, file: &Path, bytes: &[u8]) -> Result<(), UpdateError> {
    if let Ok(meta) = fs::symlink_metadata(file)
        && (meta.file_type().is_symlink() || !meta.is_file())
    {
        return Err(UpdateError::Unsafe { path: file.to_path_buf(), reason: "it is not a regular file" });
    }
    let temp = temp_path(repos);
    let result = write_new(&temp, bytes).and_then(|()| fs::rename(&temp, file)).and_then(|()| sync_dir(repos));
    if let Err(error) = result {
        let _ = fs::remove_file(&temp);
        return Err(UpdateError::Unwritable { path: file.to_path_buf(), reason: error.to_string() });
    }
    Ok(())
}

fn temp_path(dir: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".ledger.{}.{nanos}.{count}.tmp", std::process::id()))
}

fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
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
