//! Where the ledger lives: the state folder outside every workspace, one file per repository
//! root, named by the root's last component and a hash of the whole canonical root.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::paths;
use crate::plan;

/// The ledger's folder under the state directory, and the folder of the repositories' ledgers
/// inside it.
pub const FOLDER: &str = "approval-gates";
pub const REPOS: &str = "repos";
pub const EXTENSION: &str = "ledger";

/// Hex digits of the root's sha256 in a ledger's file name (the file also holds the root itself).
const HASH_DIGITS: usize = 20;
/// Characters of the root's last component kept in the file name, for the owner's eyes only.
const NAME_CHARS: usize = 40;

/// The folder of the approval ledger (`…/approval-gates`), from the environment: on Windows
/// `%LOCALAPPDATA%\approval-gates`, elsewhere `$XDG_STATE_HOME/approval-gates`, else
/// `$HOME/.local/state/approval-gates`. Relative values are ignored (as the XDG spec says); `None`
/// when nothing absolute is set.
pub fn ledger_folder() -> Option<PathBuf> {
    #[cfg(test)]
    return TEST_FOLDER
        .with(|folder| folder.borrow().clone())
        .unwrap_or_else(|| TEST_STATE.with(|state| Some(state.path().join(FOLDER))));
    #[cfg(not(test))]
    folder_from(|name| std::env::var_os(name))
}

/// [`ledger_folder`] for a given environment.
pub fn folder_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let base = if cfg!(windows) {
        absolute("LOCALAPPDATA")?
    } else {
        absolute("XDG_STATE_HOME").or_else(|| absolute("HOME").map(|home| home.join(".local").join("state")))?
    };
    Some(paths::normalize(&base.join(FOLDER)))
}

#[cfg(test)]
thread_local! {
    /// Unit tests name their own ledger folder (or none) per thread.
    static TEST_FOLDER: RefCell<Option<Option<PathBuf>>> = const { RefCell::new(None) };
    /// Else each test thread has a state directory of its own, removed with the thread.
    static TEST_STATE: tempfile::TempDir = tempfile::tempdir().expect("test state directory");
}

/// Runs `body` with the ledger folder at `folder` on this thread (unit tests).
#[cfg(test)]
pub fn with_folder<T>(folder: Option<&Path>, body: impl FnOnce() -> T) -> T {
    let previous = TEST_FOLDER.with(|cell| cell.replace(Some(folder.map(Path::to_path_buf))));
    let result = body();
    TEST_FOLDER.with(|cell| *cell.borrow_mut() = previous);
    result
}

/// The repository root as the ledger keys it: its real path (symlinks resolved), else the
/// normalized path when it does not exist.
pub fn canonical_root(root: &Path) -> PathBuf {
    fs::canonicalize(root).unwrap_or_else(|_| paths::normalize(root))
}

/// The file name of `root`'s ledger (`root` canonical): `<last component>-<hash>.ledger`.
pub fn ledger_name(root: &Path) -> String {
    let digest = plan::sha256_hex(root.as_os_str().as_encoded_bytes());
    let last = root.file_name().map(OsStr::to_string_lossy).unwrap_or_default();
    let mut name: String = last
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .take(NAME_CHARS)
        .collect();
    if name.is_empty() {
        name.push_str("root");
    }
    format!("{name}-{}.{EXTENSION}", &digest[..HASH_DIGITS])
}

/// The ledger file of `root` (canonical) in `folder`.
pub fn ledger_file(folder: &Path, root: &Path) -> PathBuf {
    folder.join(REPOS).join(ledger_name(root))
}

/// The normal components of a path, case-folded for comparison (P-7: case-insensitive file
/// systems; a drive or UNC prefix is dropped, as `paths::from_windows` drops it).
fn folded(path: &Path) -> Vec<Vec<u8>> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.as_encoded_bytes().to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Whether a write to `path` (absolute, normalized) reaches the ledger: `path` is the ledger's
/// folder, lies beneath it, or is an ancestor that moving or removing would take the ledger with
/// (the state directory holding the folder, and every directory between it and the home
/// directory; not the home directory or anything above, which ordinary work writes into).
/// Compared with the folder as the environment names it and as it really is.
pub fn reaches_ledger(path: &Path) -> bool {
    let Some(folder) = ledger_folder() else { return false };
    let target = folded(path);
    let home = ["HOME", "USERPROFILE"]
        .iter()
        .find_map(|name| std::env::var_os(name).map(PathBuf::from).filter(|home| home.is_absolute()))
        .map(|home| folded(&paths::normalize(&home)));
    let related = |folder: &[Vec<u8>]| {
        if target.len() >= folder.len() {
            return target[..folder.len()] == folder[..];
        }
        let floor = match &home {
            Some(home) if home.len() < folder.len() && folder[..home.len()] == home[..] => home.len(),
            _ => folder.len().saturating_sub(2),
        };
        target.len() > floor && folder[..target.len()] == target[..]
    };
    if related(&folded(&folder)) {
        return true;
    }
    REAL_FOLDER.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.as_ref().is_none_or(|(named, _)| *named != folder) {
            let real = folded(&paths::real_path(&folder));
            *cache = Some((folder.clone(), real));
        }
        cache.as_ref().is_some_and(|(_, real)| related(real))
    })
}

thread_local! {
    /// The real path of the ledger's folder, by the folder the environment named: computed once
    /// per thread and name, since the agent cannot move the folder and the owner rarely does.
    static REAL_FOLDER: RefCell<Option<(PathBuf, Vec<Vec<u8>>)>> = const { RefCell::new(None) };
}

/// Whether `folder` lies inside `workspace` (both absolute), compared as [`reaches_ledger`] does,
/// lexically and by real path.
pub fn inside(folder: &Path, workspace: &Path) -> bool {
    let beneath = |folder: &Path, workspace: &Path| {
        let (folder, workspace) = (folded(folder), folded(workspace));
        folder.len() >= workspace.len() && folder[..workspace.len()] == workspace[..]
    };
    beneath(folder, workspace) || beneath(&paths::real_path(folder), &canonical_root(workspace))
}
