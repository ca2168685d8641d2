//! What `approval-gates status` and `approval-gates seal` say.

use std::fmt;

/// What `approval-gates seal` says about sections it did not act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealText {
    /// The section changed (or went) between showing it and the owner's yes.
    ChangedSinceShown,
    /// The section lacks what an approval needs (a `by`, an `at`, a safe plan).
    NotRecordable,
    /// What sealing did.
    Done { recorded: usize, restored: usize, skipped: usize, file: String, sealed_now: bool },
}

impl fmt::Display for SealText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealText::ChangedSinceShown => f.write_str("it changed after it was shown; run approval-gates seal again"),
            SealText::NotRecordable => {
                f.write_str("it is not a complete approval (by, at and, for a plan, a sha256 of one plan)")
            }
            SealText::Done { recorded, restored, skipped, file, sealed_now } => {
                let count = |n: &usize, one: &str, many: &str| format!("{n} {}", if *n == 1 { one } else { many });
                let what = if *sealed_now { "sealed" } else { "still sealed" };
                write!(
                    f,
                    "{what}: recorded {}, wrote back {}",
                    count(recorded, "approval", "approvals"),
                    count(restored, "approval.md section", "approval.md sections")
                )?;
                if *skipped > 0 {
                    write!(f, ", skipped {}", count(skipped, "section", "sections"))?;
                }
                write!(f, "; the ledger is {file}")
            }
        }
    }
}

/// What `approval-gates status` suggests doing next for a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    WriteChangeFiles { change_id: String, files: Vec<String> },
    ApproveDesign { change_id: String },
    WritePlan { change_id: String },
    KeepOnePlan { change_id: String, plans: Vec<String> },
    ApprovePlan { change_id: String },
    ReapprovePlan { change_id: String },
    Implement { plan: String },
}

impl fmt::Display for NextStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NextStep::WriteChangeFiles { change_id, files } => {
                write!(f, "write {} in openspec/changes/{change_id}/", files.join(", "))
            }
            NextStep::ApproveDesign { change_id } => write!(f, "/approve {change_id} design"),
            NextStep::WritePlan { change_id } => {
                write!(f, "write a plan in docs/superpowers/plans/ with **Spec:** openspec/changes/{change_id}")
            }
            NextStep::KeepOnePlan { change_id, plans } => {
                write!(f, "keep one plan for {change_id}: {}", plans.join(", "))
            }
            NextStep::ApprovePlan { change_id } => write!(f, "/approve {change_id} plan"),
            NextStep::ReapprovePlan { change_id } => {
                write!(f, "/approve {change_id} plan (the plan changed after its approval)")
            }
            NextStep::Implement { plan } => write!(f, "implement {plan} (sdd)"),
        }
    }
}
