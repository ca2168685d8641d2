//! `approval-gates seal`: the approvals of a repository that approval.md and the ledger disagree
//! on, and the owner's way to settle them (the upgrade path of P-17).
//!
//! A survey lists, per change and kind, whether approval.md's section is held by the ledger,
//! claimed but not held (sealing records it, once the owner has seen it), or held by the ledger
//! but missing from approval.md (an approval whose approval.md write failed; sealing writes it
//! back). Sealing also creates the ledger when there is none: that is how a repository becomes
//! enforced before its first approval.

use std::fs;
use std::path::{Path, PathBuf};

use super::ledger::{self, Approval, Broken, PlanBinding, Problem, Seal, UpdateError};
use super::sealed::{self, Claim, Standing};
use super::{Kind, read_plans, record, store, timestamp};
use crate::paths;
use crate::texts::{ApprovalText, SealText};

/// Where one change's approval of one kind stands between approval.md and the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// approval.md's section is held by the ledger.
    Recorded,
    /// approval.md claims it and the ledger does not hold it; sealing records it. In a sealed
    /// repository it does not count until then.
    Unrecorded,
    /// approval.md claims a plan approval that cannot be bound to one plan: `reason` says why.
    Unbindable { reason: String },
    /// The ledger holds it and approval.md has no such section; sealing writes it back.
    Missing,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub change_id: String,
    pub kind: Kind,
    pub state: State,
    /// approval.md's claim (absent for `Missing`).
    pub claim: Option<Claim>,
    /// The plan a plan claim is bound to (`docs/superpowers/plans/<name>.md`).
    pub plan: Option<String>,
    /// What the ledger holds for the change and kind.
    pub held: Option<Approval>,
}

impl Item {
    /// The approval sealing would record for an `Unrecorded` item.
    fn approval(&self) -> Option<Approval> {
        let claim = self.claim.as_ref()?;
        let plan = match self.kind {
            Kind::Design => None,
            Kind::Plan => Some(PlanBinding { path: self.plan.clone()?, sha256: claim.sha256.clone()? }),
        };
        let approval = Approval {
            change_id: self.change_id.clone(),
            kind: self.kind,
            by: claim.by.clone(),
            at: claim.at.clone(),
            plan,
        };
        ledger::format::check_approval(&approval).ok().map(|()| approval)
    }
}

/// A repository's approvals, approval.md against the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Survey {
    /// The canonical root the ledger keys.
    pub root: PathBuf,
    /// The ledger's folder, `None` when the environment names none.
    pub folder: Option<PathBuf>,
    /// The repository's ledger file.
    pub file: Option<PathBuf>,
    pub seal: Seal,
    pub items: Vec<Item>,
}

impl Survey {
    pub fn broken(&self) -> Option<&Broken> {
        match &self.seal {
            Seal::Sealed(sealed) => sealed.ledger.as_ref().err(),
            Seal::Open => None,
        }
    }
}

/// Every change directory under `openspec/changes/` (`archive` and dot-folders skipped), sorted.
pub fn change_ids(root: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(paths::change_dir(root, "")) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|id| id != paths::ARCHIVE_DIR && !id.starts_with('.') && paths::is_safe_segment(id))
        .collect();
    ids.sort();
    ids
}

/// The survey of the repository at `root`.
pub fn survey(root: &Path) -> Survey {
    let canonical = ledger::canonical_root(root);
    let folder = ledger::ledger_folder();
    let seal = folder.as_deref().map_or(Seal::Open, |folder| ledger::seal_in(folder, &canonical));
    let file = folder.as_deref().map(|folder| ledger::location::ledger_file(folder, &canonical));
    let plans: Vec<_> = read_plans(root).into_iter().filter_map(Result::ok).collect();
    let mut items = Vec::new();
    for change_id in change_ids(root) {
        let approvals = sealed::Approvals::with_seal(root, &change_id, seal.clone());
        for kind in [Kind::Design, Kind::Plan] {
            let own: Vec<&str> = plans
                .iter()
                .filter(|p| p.change_id.as_deref() == Some(change_id.as_str()))
                .map(|p| p.file.display.as_str())
                .collect();
            let claim = approvals.claim(kind);
            let (plan, unbindable) = match (&claim, kind) {
                (Some(claim), Kind::Plan) => bind_plan(&change_id, claim, &own, &plans),
                _ => (None, None),
            };
            let standing = approvals.standing(&change_id, kind, plan.as_deref());
            let held = match &seal {
                Seal::Sealed(sealed) => sealed.ledger.as_ref().ok().and_then(|l| l.get(&change_id, kind)).cloned(),
                Seal::Open => None,
            };
            let state = match (&standing, unbindable) {
                (Standing::None, _) if held.is_some() => State::Missing,
                (Standing::None, _) => continue,
                (Standing::Sealed(_), _) => State::Recorded,
                (_, Some(reason)) => State::Unbindable { reason },
                _ => State::Unrecorded,
            };
            items.push(Item { change_id: change_id.clone(), kind, state, claim, plan, held });
        }
    }
    Survey { root: canonical, folder, file, seal, items }
}

/// The plan a plan claim binds: the change's plan with the claimed bytes, else its only plan.
fn bind_plan(
    change_id: &str,
    claim: &Claim,
    own: &[&str],
    plans: &[super::ReadPlan],
) -> (Option<String>, Option<String>) {
    let sha256 = claim.sha256.as_deref().unwrap_or_default();
    let matching = plans.iter().find(|p| p.change_id.as_deref() == Some(change_id) && p.file.sha256 == sha256);
    match (matching, own) {
        (Some(plan), _) => (Some(plan.file.display.clone()), None),
        (None, [only]) => (Some(only.to_string()), None),
        (None, []) => (None, Some(ApprovalText::NoPlan { change_id: change_id.to_string() }.to_string())),
        (None, several) => (
            None,
            Some(
                ApprovalText::SeveralPlans {
                    change_id: change_id.to_string(),
                    plans: several.iter().map(|p| p.to_string()).collect(),
                }
                .to_string(),
            ),
        ),
    }
}

/// How many approval.md sections of the repository do not count because the ledger does not
/// hold them.
pub fn unrecorded_count(root: &Path) -> usize {
    survey(root).items.iter().filter(|item| matches!(item.state, State::Unrecorded | State::Unbindable { .. })).count()
}

/// One section the owner was shown: sealing acts on it only while it is still what was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub change_id: String,
    pub kind: Kind,
    pub by: String,
    pub at: String,
    pub sha256: Option<String>,
}

impl Shown {
    fn is(&self, item: &Item) -> bool {
        let values = match item.state {
            State::Missing => item
                .held
                .as_ref()
                .map(|held| (held.by.as_str(), held.at.as_str(), held.plan.as_ref().map(|plan| plan.sha256.as_str()))),
            _ => item.claim.as_ref().map(|c| (c.by.as_str(), c.at.as_str(), c.sha256.as_deref())),
        };
        self.change_id == item.change_id
            && self.kind == item.kind
            && values.is_some_and(|(by, at, sha256)| {
                by == self.by
                    && at == self.at
                    && sha256.map(str::to_ascii_lowercase) == self.sha256.as_ref().map(|s| s.to_ascii_lowercase())
            })
    }
}

/// What sealing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealing {
    pub file: PathBuf,
    pub sealed_now: bool,
    pub recorded: usize,
    pub restored: usize,
    /// Shown sections that were not acted on, and why.
    pub skipped: Vec<(String, Kind, String)>,
}

/// Seals the repository at `root`: records every `Unrecorded` section in `shown` that is still
/// what the owner was shown, creates the ledger when there is none, then writes back every shown
/// `Missing` section. Sections that changed since they were shown are skipped and reported.
pub fn seal(root: &Path, shown: &[Shown]) -> Result<Sealing, ApprovalText> {
    let now = survey(root);
    if let Seal::Sealed(sealed) = &now.seal
        && sealed.by_ancestor.is_none()
        && let Err(broken) = &sealed.ledger
    {
        return Err(broken_text(broken, root));
    }
    let mut skipped = Vec::new();
    let mut approvals = Vec::new();
    let mut restore = Vec::new();
    for wanted in shown {
        let Some(item) = now.items.iter().find(|item| wanted.is(item)) else {
            skipped.push((wanted.change_id.clone(), wanted.kind, SealText::ChangedSinceShown.to_string()));
            continue;
        };
        match &item.state {
            State::Unrecorded => match item.approval() {
                Some(approval) => approvals.push(approval),
                None => skipped.push((item.change_id.clone(), item.kind, SealText::NotRecordable.to_string())),
            },
            State::Missing => restore.push(item.clone()),
            State::Unbindable { reason } => skipped.push((item.change_id.clone(), item.kind, reason.clone())),
            State::Recorded => {}
        }
    }
    let recorded_count = approvals.len();
    let recorded =
        ledger::record(&now.root, approvals, &timestamp::now_utc()).map_err(|error| update_error_text(error, root))?;
    let mut restored = 0;
    for item in restore {
        match write_back(root, &item) {
            Ok(()) => restored += 1,
            Err(reason) => skipped.push((item.change_id.clone(), item.kind, reason)),
        }
    }
    Ok(Sealing { file: recorded.file, sealed_now: recorded.sealed_now, recorded: recorded_count, restored, skipped })
}

/// Writes the ledger's approval of `item` into approval.md, under the change's lock, unless
/// approval.md gained a section of that kind meanwhile.
fn write_back(root: &Path, item: &Item) -> Result<(), String> {
    let held = item.held.as_ref().ok_or_else(|| SealText::NotRecordable.to_string())?;
    let change_dir = paths::change_dir(root, &item.change_id);
    let failed = |error: std::io::Error| {
        ApprovalText::WriteFailed {
            path: change_dir.join(paths::APPROVAL_FILE).display().to_string(),
            reason: error.to_string(),
        }
        .to_string()
    };
    store::check_write_location(root, &item.change_id).map_err(|u| {
        ApprovalText::Unsafe { path: u.path.display().to_string(), reason: u.reason.to_string() }.to_string()
    })?;
    let _lock = store::ChangeLock::acquire(&change_dir).map_err(failed)?;
    if sealed::read(root, &item.change_id).claim(item.kind).is_some() {
        return Err(SealText::ChangedSinceShown.to_string());
    }
    let sha256 = held.plan.as_ref().map(|plan| plan.sha256.as_str()).unwrap_or_default();
    let section = record::render_section(item.kind.name(), &[("by", &held.by), ("at", &held.at), ("sha256", sha256)]);
    store::write_section(&change_dir, item.kind.name(), &section).map_err(failed)
}

/// The refusal for a ledger that does not read.
pub fn broken_text(broken: &Broken, root: &Path) -> ApprovalText {
    let reason = match &broken.problem {
        Problem::NotAFile { reason } => reason.to_string(),
        Problem::Io { reason } => reason.clone(),
        Problem::Unreadable(unreadable) => unreadable.to_string(),
    };
    ApprovalText::LedgerBroken { file: broken.file.display().to_string(), reason, root: root.display().to_string() }
}

/// The refusal for a ledger that could not be updated (nothing was written).
pub fn update_error_text(error: UpdateError, root: &Path) -> ApprovalText {
    match error {
        UpdateError::NoFolder => ApprovalText::NoLedgerFolder,
        UpdateError::Unsafe { path, reason } => {
            ApprovalText::LedgerUnsafe { path: path.display().to_string(), reason: reason.to_string() }
        }
        UpdateError::Unwritable { path, reason } => {
            ApprovalText::LedgerUnwritable { path: path.display().to_string(), reason }
        }
        UpdateError::Broken(broken) => broken_text(&broken, root),
        UpdateError::Full { file } => ApprovalText::LedgerFull {
            file: file.display().to_string(),
            max_approvals: ledger::format::MAX_APPROVALS,
            max_mib: ledger::format::MAX_BYTES >> 20,
        },
    }
}
