//! The answers of `/approve`, `request_approval` and the CLI's `approve`.

use std::fmt;

/// What is wrong with the arguments of an approval: the part of a usage refusal after the usage line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageProblem {
    /// `what` ("change id", "kind") came from JS as something other than a string.
    NotAString {
        what: &'static str,
    },
    MissingId,
    UnsafeId {
        change_id: String,
    },
    MissingKind,
    UnknownKind {
        kind: String,
    },
}

impl fmt::Display for UsageProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageProblem::NotAString { what } => write!(f, "{what} must be a string"),
            UsageProblem::MissingId => f.write_str("the change id is missing"),
            UsageProblem::UnsafeId { change_id } => {
                write!(f, "change id {change_id:?} must be one path segment")
            }
            UsageProblem::MissingKind => f.write_str("design or plan is missing"),
            UsageProblem::UnknownKind { kind } => write!(f, "kind {kind:?} must be design or plan"),
        }
    }
}

/// The outcome texts of `/approve`, `request_approval` and the CLI's `approve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalText {
    Usage {
        problem: UsageProblem,
    },
    MissingFiles {
        change_id: String,
        files: Vec<String>,
    },
    DesignNotApproved {
        change_id: String,
    },
    NoPlan {
        change_id: String,
    },
    SeveralPlans {
        change_id: String,
        plans: Vec<String>,
    },
    PlanUnreadable {
        plan: String,
        reason: String,
    },
    ReadyDesign {
        change_id: String,
    },
    ReadyPlan {
        change_id: String,
        plan: String,
        sha256: String,
    },
    NotConfirmed,
    PlanChangedSinceShown {
        change_id: String,
        plan: String,
    },
    Unsafe {
        path: String,
        reason: String,
    },
    WriteFailed {
        path: String,
        reason: String,
    },
    ApprovedDesign {
        change_id: String,
    },
    ApprovedPlan {
        change_id: String,
        plan: String,
        sha256: String,
    },
    /// P-17: the ledger cannot be used; nothing was written in each of these.
    NoLedgerFolder,
    LedgerUnwritable {
        path: String,
        reason: String,
    },
    LedgerUnsafe {
        path: String,
        reason: String,
    },
    LedgerBroken {
        file: String,
        reason: String,
        root: String,
    },
    /// The ledger is at its caps, given here so that texts name nothing of the approval store.
    LedgerFull {
        file: String,
        max_approvals: usize,
        max_mib: usize,
    },
    /// The ledger holds the approval; approval.md could not be written after it.
    RecordedNotWritten {
        path: String,
        reason: String,
        change_id: String,
        kind: &'static str,
    },
    /// Said after an approval that sealed the repository: sections that stopped counting.
    SealedNow {
        unrecorded: usize,
    },
}

/// Where approvals are recorded only from, said by every refusal to record one elsewhere.
const OWNER_SIDE: &str = "approvals are recorded only from the owner's side (/approve or request_approval in the host, approval-gates approve in the owner's own terminal), never from inside the agent's sandbox";

pub const USAGE: &str = "usage: /approve <change-id> design|plan";

impl fmt::Display for ApprovalText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApprovalText::Usage { problem } => write!(f, "{USAGE} ({problem})"),
            ApprovalText::MissingFiles { change_id, files } => write!(
                f,
                "cannot approve design of {change_id}: missing in openspec/changes/{change_id}/: {}",
                files.join(", ")
            ),
            ApprovalText::DesignNotApproved { change_id } => {
                write!(f, "design not approved; run /approve {change_id} design")
            }
            ApprovalText::NoPlan { change_id } => {
                write!(f, "no plan in docs/superpowers/plans/ carries **Spec:** openspec/changes/{change_id}")
            }
            ApprovalText::SeveralPlans { change_id, plans } => write!(
                f,
                "several plans carry **Spec:** openspec/changes/{change_id}, exactly one must: {}",
                plans.join(", ")
            ),
            ApprovalText::PlanUnreadable { plan, reason } => {
                write!(f, "cannot read plan {plan}: {reason}")
            }
            ApprovalText::ReadyDesign { change_id } => {
                write!(f, "design of {change_id} is ready for approval")
            }
            ApprovalText::ReadyPlan { change_id, plan, sha256 } => {
                write!(f, "plan {plan} of {change_id} is ready for approval (sha256 {sha256})")
            }
            ApprovalText::NotConfirmed => f.write_str("not confirmed"),
            ApprovalText::PlanChangedSinceShown { change_id, plan } => write!(
                f,
                "plan {plan} changed after it was shown to the owner; nothing written, run /approve {change_id} plan again"
            ),
            ApprovalText::Unsafe { path, reason } => {
                write!(f, "refusing to write {path}: {reason}")
            }
            ApprovalText::WriteFailed { path, reason } => {
                write!(f, "could not write {path}: {reason}")
            }
            ApprovalText::ApprovedDesign { change_id } => {
                write!(f, "design of {change_id} approved")
            }
            ApprovalText::ApprovedPlan { change_id, plan, sha256 } => {
                write!(f, "plan {plan} of {change_id} approved (sha256 {sha256})")
            }
            ApprovalText::NoLedgerFolder => write!(
                f,
                "nothing approved: the approval ledger has no folder here (XDG_STATE_HOME and HOME are not absolute paths; LOCALAPPDATA on Windows); {OWNER_SIDE}"
            ),
            ApprovalText::LedgerUnwritable { path, reason } => {
                write!(f, "nothing approved: the approval ledger cannot be written ({path}: {reason}); {OWNER_SIDE}")
            }
            ApprovalText::LedgerUnsafe { path, reason } => {
                write!(f, "nothing approved: refusing to write the approval ledger through {path}: {reason}")
            }
            ApprovalText::LedgerBroken { file, reason, root } => write!(
                f,
                "nothing approved: the approval ledger {file} does not read ({reason}), so no approval counts in {root}; \
                 look at it (it is text), then move it aside and run `approval-gates seal` in {root} to record again the approvals approval.md holds"
            ),
            ApprovalText::LedgerFull { file, max_approvals, max_mib } => write!(
                f,
                "nothing approved: the approval ledger {file} is full ({} approvals or {} MiB) even without the changes that are gone; \
                 move it aside and run `approval-gates seal` to record again the approvals approval.md holds",
                max_approvals, max_mib
            ),
            ApprovalText::RecordedNotWritten { path, reason, change_id, kind } => write!(
                f,
                "the approval is recorded in the ledger, but {path} could not be written ({reason}), so it does not count yet; \
                 run /approve {change_id} {kind} again or `approval-gates seal` to write it"
            ),
            ApprovalText::SealedNow { unrecorded } => {
                let sections = if *unrecorded == 1 { "section" } else { "sections" };
                write!(
                    f,
                    "approvals are now sealed in this repository: {unrecorded} approval.md {sections} the ledger does not hold no longer count (run `approval-gates seal` to review them)"
                )
            }
        }
    }
}
