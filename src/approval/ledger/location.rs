//! Where the ledger lives: the state folder outside every workspace (spelled, as every guarded
//! location, in [`crate::paths::ledger`]), one file per repository root, named by the root's last
//! component and a hash of the whole canonical root.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use crate::paths;
use crate::paths::ledger::folded;
#[cfg(test)]
pub use crate::paths::ledger::with_folder;
pub use crate::paths::ledger::{
    CallScope, FOLDER, call_scope, folder_from, ledger_folder, reaches_ledger, with_current_folder,
};
use crate::plan;

/// The folder of the repositories' ledgers inside the ledger's folder.
pub const REPOS: &str = "repos";
pub const EXTENSION: &str = "ledger";

/// Hex digits of the root's sha256 in a ledger's file name (the file also holds the root itself).
const HASH_DIGITS: usize = 20;
/// Characters of the root's last component kept in the file name, for the owner's eyes only.
const NAME_CHARS: usize = 40;

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

/// Whether `folder` lies inside `workspace` (both absolute), compared as [`reaches_ledger`] does,
/// lexically and by real path.
pub fn inside(folder: &Path, workspace: &Path) -> bool {
    let beneath = |folder: &Path, workspace: &Path| {
        let (folder, workspace) = (folded(folder), folded(workspace));
        folder.len() >= workspace.len() && folder[..workspace.len()] == workspace[..]
    };
    beneath(folder, workspace) || beneath(&paths::real_path(folder), &canonical_root(workspace))
}
