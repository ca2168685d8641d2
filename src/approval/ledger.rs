//! The approval ledger (P-17): every approval the owner gives, recorded outside every workspace,
//! one file per repository root. Once a repository has a ledger (its own, or one of a directory
//! it lies in), an approval.md section there counts only when the ledger holds the same approval.
//!
//! Only the owner's channels write it (`/approve` and `request_approval` in the host process, the
//! CLI's `approve` and `seal` in the owner's terminal); an agent whose commands run confined to
//! the workspace cannot, whatever it runs, because the folder is read-only to it.

pub mod format;
pub mod location;
pub mod store;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use format::{Approval, Ledger, PlanBinding, Unreadable};
pub use location::{canonical_root, ledger_folder, reaches_ledger};
pub use store::{Broken, Found, Problem, UpdateError};

/// Whether the approvals of a repository are sealed, and by what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seal {
    /// No ledger for the root or any directory above it: approval.md counts as written.
    Open,
    Sealed(Sealed),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// The repository's own ledger file (it may not exist when a directory above is sealed).
    pub file: PathBuf,
    /// The canonical root of the directory above whose ledger seals this one, if that is why.
    pub by_ancestor: Option<PathBuf>,
    /// What counts: the ledger, or why nothing does.
    pub ledger: Result<Ledger, Broken>,
}

impl Seal {
    pub fn is_sealed(&self) -> bool {
        matches!(self, Seal::Sealed(_))
    }
}

/// The seal of the repository at `root` (any spelling; it is made canonical), as the ledger in
/// the environment's folder says. Reads the repository's ledger, and looks for the ledgers of the
/// directories above it only when it has none.
pub fn seal_of(root: &Path) -> Seal {
    match ledger_folder() {
        Some(folder) => seal_in(&folder, &canonical_root(root)),
        None => Seal::Open,
    }
}

/// [`seal_of`] for the ledger `folder` and a canonical `root`.
pub fn seal_in(folder: &Path, root: &Path) -> Seal {
    let file = location::ledger_file(folder, root);
    let sealed = |by_ancestor, ledger| Seal::Sealed(Sealed { file: file.clone(), by_ancestor, ledger });
    match store::read(&file, root) {
        Found::Read(ledger) => return sealed(None, Ok(ledger)),
        Found::Broken(broken) => return sealed(None, Err(broken)),
        Found::Absent => {}
    }
    for ancestor in root.ancestors().skip(1) {
        let above = location::ledger_file(folder, ancestor);
        match fs::symlink_metadata(&above) {
            Ok(_) => {
                return sealed(Some(ancestor.to_path_buf()), Ok(Ledger::empty(root)));
            }
            Err(error) if matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => {}
            // The folder cannot be looked at: the gates cannot tell, so nothing counts.
            Err(error) => {
                let problem = Problem::Io { reason: error.to_string() };
                return sealed(Some(ancestor.to_path_buf()), Err(Broken { file: above, problem }));
            }
        }
    }
    Seal::Open
}

/// What [`record`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub file: PathBuf,
    /// The ledger did not exist before: this write sealed the repository.
    pub sealed_now: bool,
}

/// Records `approvals` (already checked by the caller) as the latest of their changes and kinds
/// in the ledger of `root` (canonical), sealing it at `at` when it is new. Over the caps, the
/// approvals of changes whose folder is gone from `openspec/changes/` are dropped first.
pub fn record(root: &Path, approvals: Vec<Approval>, at: &str) -> Result<Recorded, UpdateError> {
    let folder = ledger_folder().ok_or(UpdateError::NoFolder)?;
    let file = location::ledger_file(&folder, root);
    let outcome = store::update(
        &folder,
        root,
        at,
        |ledger, _new| {
            approvals.into_iter().for_each(|approval| ledger.put(approval));
            Ok::<(), ()>(())
        },
        |ledger| ledger.retain(|approval| crate::paths::change_dir(root, &approval.change_id).is_dir()),
    )?;
    let (sealed_now, ()) = outcome.unwrap_or((false, ()));
    Ok(Recorded { file, sealed_now })
}

#[cfg(test)]
mod tests;
