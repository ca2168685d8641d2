//! `/approve <id> design|plan`: the preconditions and the only writer of approval.md (docs/decisions.md#approve).

pub mod ledger;
pub mod present;
pub mod prompt;
pub mod record;
pub mod seal;
pub mod sealed;
pub mod store;
pub mod timestamp;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::paths;
use crate::plan;
use crate::texts::{ApprovalText, UsageProblem};
pub use record::ApprovalRecord;
pub use store::read_record;

/// What a design approval needs in `openspec/changes/<id>/`.
pub const DESIGN_FILES: [&str; 3] = ["proposal.md", "design.md", "builder-check.md"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Design,
    Plan,
}

impl Kind {
    pub fn parse(kind: &str) -> Option<Kind> {
        match kind {
            "design" => Some(Kind::Design),
            "plan" => Some(Kind::Plan),
            _ => None,
        }
    }
}

/// The plan a plan approval is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFile {
    /// Relative to the root, with `/`: `docs/superpowers/plans/x.md`.
    pub display: String,
    pub path: PathBuf,
    pub sha256: String,
}

/// Preconditions met: what the owner is about to approve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    pub change_id: String,
    pub kind: Kind,
    pub plan: Option<PlanFile>,
}

impl Ready {
    pub fn message(&self) -> ApprovalText {
        match &self.plan {
            None => ApprovalText::ReadyDesign { change_id: self.change_id.clone() },
            Some(plan) => ApprovalText::ReadyPlan {
                change_id: self.change_id.clone(),
                plan: plan.display.clone(),
                sha256: plan.sha256.clone(),
            },
        }
    }
}

/// Validates the arguments and checks the preconditions; never writes, never asks.
pub fn check(change_id: &str, kind: &str, root: &Path) -> Result<Ready, ApprovalText> {
    let usage = |problem| Err(ApprovalText::Usage { problem });
    if change_id.is_empty() {
        return usage(UsageProblem::MissingId);
    }
    if !paths::is_safe_segment(change_id) {
        return usage(UsageProblem::UnsafeId { change_id: change_id.to_string() });
    }
    let Some(kind) = Kind::parse(kind) else {
        return usage(match kind {
            "" => UsageProblem::MissingKind,
            _ => UsageProblem::UnknownKind { kind: kind.to_string() },
        });
    };
    let change_id = change_id.to_string();
    let plan = match kind {
        Kind::Design => {
            check_design_files(&change_id, root)?;
            None
        }
        Kind::Plan => {
            if !sealed::read(root, &change_id).design_approved(&change_id) {
                return Err(ApprovalText::DesignNotApproved { change_id });
            }
            Some(single_plan(&change_id, root)?)
        }
    };
    store::check_write_location(root, &change_id).map_err(|unsafe_at| ApprovalText::Unsafe {
        path: unsafe_at.path.display().to_string(),
        reason: unsafe_at.reason.to_string(),
    })?;
    // A ledger that does not read refuses every approval: better said before the owner is asked.
    if let ledger::Seal::Sealed(ledger::Sealed { ledger: Err(broken), by_ancestor: None, .. }) = ledger::seal_of(root) {
        return Err(seal::broken_text(&broken, root));
    }
    Ok(Ready { change_id, kind, plan })
}

fn check_design_files(change_id: &str, root: &Path) -> Result<(), ApprovalText> {
    let dir = paths::change_dir(root, change_id);
    let missing: Vec<String> =
        DESIGN_FILES.iter().filter(|file| !dir.join(file).is_file()).map(|file| file.to_string()).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(ApprovalText::MissingFiles { change_id: change_id.to_string(), files: missing })
    }
}

/// Exactly one plan in `docs/superpowers/plans/` whose Spec names `change_id`.
fn single_plan(change_id: &str, root: &Path) -> Result<PlanFile, ApprovalText> {
    let mut matching = Vec::new();
    for plan in read_plans(root) {
        let plan = plan.map_err(|(plan, error)| ApprovalText::PlanUnreadable { plan, reason: error.to_string() })?;
        if plan.change_id.as_deref() == Some(change_id) {
            matching.push(plan.file);
        }
    }
    match matching.len() {
        0 => Err(ApprovalText::NoPlan { change_id: change_id.to_string() }),
        1 => Ok(matching.remove(0)),
        _ => Err(ApprovalText::SeveralPlans {
            change_id: change_id.to_string(),
            plans: matching.into_iter().map(|plan| plan.display).collect(),
        }),
    }
}

/// A plan as read: the file with its sha256, and the change its Spec names.
pub struct ReadPlan {
    pub file: PlanFile,
    pub change_id: Option<String>,
}

/// Every plan of [`plan_files`], read; an unreadable one is its display path and the error.
pub fn read_plans(root: &Path) -> Vec<Result<ReadPlan, (String, io::Error)>> {
    plan_files(root)
        .into_iter()
        .map(|(display, path)| match fs::read(&path) {
            Ok(bytes) => {
                let change_id = plan::plan_change_id(&plan::text(&bytes), root);
                Ok(ReadPlan { file: PlanFile { display, path, sha256: plan::sha256_hex(&bytes) }, change_id })
            }
            Err(error) => Err((display, error)),
        })
        .collect()
}

/// The `*.md` files directly in the plans folder, sorted by name.
pub fn plan_files(root: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(paths::plans_dir(root)) else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| {
                let display = format!("{}/{name}", paths::PLANS_DIR.join("/"));
                (display, entry.path())
            })
        })
        .collect();
    files.sort();
    files
}

/// The result of a write attempt: `approved` only when the ledger and approval.md now hold the
/// section. `notice` is said after the message (the repository became sealed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    pub approved: bool,
    pub message: ApprovalText,
    pub notice: Option<ApprovalText>,
}

impl WriteOutcome {
    fn refused(message: ApprovalText) -> Self {
        WriteOutcome { approved: false, message, notice: None }
    }

    /// The message, and the notice after it.
    pub fn text(&self) -> String {
        match &self.notice {
            None => self.message.to_string(),
            Some(notice) => format!("{}; {notice}", self.message),
        }
    }
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Design => "design",
            Kind::Plan => "plan",
        }
    }
}

/// Re-checks the preconditions and, when the owner `confirmed`, records the approval in the
/// ledger, then writes the section of approval.md (P-17). With `expected_sha256` (the hash the
/// owner was shown, P-10) a plan that changed since is refused. When the ledger cannot be written
/// nothing is; when approval.md cannot be written after the ledger was, the ledger holds an
/// approval approval.md lacks: the next approval or `approval-gates seal` writes it.
pub fn write(change_id: &str, kind: &str, confirmed: bool, root: &Path, expected_sha256: Option<&str>) -> WriteOutcome {
    let ready = match check(change_id, kind, root) {
        Ok(ready) => ready,
        Err(message) => return WriteOutcome::refused(message),
    };
    if !confirmed {
        return WriteOutcome::refused(ApprovalText::NotConfirmed);
    }
    let change_dir = paths::change_dir(root, &ready.change_id);
    let write_failed = |error: std::io::Error| {
        WriteOutcome::refused(ApprovalText::WriteFailed {
            path: change_dir.join(paths::APPROVAL_FILE).display().to_string(),
            reason: error.to_string(),
        })
    };
    let _lock = match store::ChangeLock::acquire(&change_dir) {
        Ok(lock) => lock,
        Err(error) => return write_failed(error),
    };
    // Re-checked under the lock: the tree may have changed while the owner was deciding.
    if let Err(unsafe_at) = store::check_write_location(root, &ready.change_id) {
        return WriteOutcome::refused(ApprovalText::Unsafe {
            path: unsafe_at.path.display().to_string(),
            reason: unsafe_at.reason.to_string(),
        });
    }
    let at = timestamp::now_utc();
    let (section, approved, binding) = match &ready.plan {
        None => (
            record::render_section("design", &[("by", "owner"), ("at", &at)]),
            ApprovalText::ApprovedDesign { change_id: ready.change_id.clone() },
            None,
        ),
        Some(plan) => {
            let sha256 = match fs::read(&plan.path) {
                Ok(bytes) => plan::sha256_hex(&bytes),
                Err(error) => return write_failed(error),
            };
            let shown = expected_sha256.unwrap_or(&plan.sha256);
            if !sha256.eq_ignore_ascii_case(shown) {
                return WriteOutcome::refused(ApprovalText::PlanChangedSinceShown {
                    change_id: ready.change_id.clone(),
                    plan: plan.display.clone(),
                });
            }
            (
                record::render_section("plan", &[("by", "owner"), ("at", &at), ("sha256", &sha256)]),
                ApprovalText::ApprovedPlan {
                    change_id: ready.change_id.clone(),
                    plan: plan.display.clone(),
                    sha256: sha256.clone(),
                },
                Some(ledger::PlanBinding { path: plan.display.clone(), sha256 }),
            )
        }
    };
    let approval = ledger::Approval {
        change_id: ready.change_id.clone(),
        kind: ready.kind,
        by: "owner".to_string(),
        at: at.clone(),
        plan: binding,
    };
    let canonical = ledger::canonical_root(root);
    let mut approvals = vec![approval];
    // The first approval seals the repository. A plan approved on a design approval.md holds from
    // before (the precondition counted it) carries that design into the ledger with it: the owner
    // approving the plan relies on it, and it must not stop counting under the plan just approved.
    if ready.kind == Kind::Plan
        && let Some(design) = carried_design(root, &ready.change_id)
    {
        approvals.insert(0, design);
    }
    let recorded = match ledger::record(&canonical, approvals, &at) {
        Ok(recorded) => recorded,
        Err(error) => return WriteOutcome::refused(seal::update_error_text(error, root)),
    };
    if let Err(error) = store::write_section(&change_dir, ready.kind.name(), &section) {
        return WriteOutcome::refused(ApprovalText::RecordedNotWritten {
            path: change_dir.join(paths::APPROVAL_FILE).display().to_string(),
            reason: error.to_string(),
            change_id: ready.change_id.clone(),
            kind: ready.kind.name(),
        });
    }
    let notice = recorded.sealed_now.then(|| seal::unrecorded_count(root)).filter(|&count| count > 0);
    WriteOutcome {
        approved: true,
        message: approved,
        notice: notice.map(|unrecorded| ApprovalText::SealedNow { unrecorded }),
    }
}

/// The design approval approval.md holds for `change_id` while the repository is not sealed.
fn carried_design(root: &Path, change_id: &str) -> Option<ledger::Approval> {
    let approvals = sealed::read(root, change_id);
    let sealed::Standing::Open(claim) = approvals.standing(change_id, Kind::Design, None) else { return None };
    let design = ledger::Approval {
        change_id: change_id.to_string(),
        kind: Kind::Design,
        by: claim.by,
        at: claim.at,
        plan: None,
    };
    ledger::format::check_approval(&design).ok().map(|()| design)
}

#[cfg(test)]
mod sealing_tests;
#[cfg(test)]
mod tests;
