//! Where each change stands in the loop, for `approval-gates status`.

use std::path::Path;

use crate::approval::ledger::{self, Seal};
use crate::approval::sealed::{Approvals, Claim, Standing};
use crate::approval::{self, DESIGN_FILES, Kind, ReadPlan};
use crate::texts::NextStep;

/// Who approved and when, as approval.md says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub by: String,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanApproval {
    None,
    /// The approved sha256 is the current hash of one of the change's plans.
    Matches {
        signature: Signature,
        sha256: String,
    },
    /// A sha256 is approved, but no plan has those bytes any more.
    Changed {
        signature: Signature,
        sha256: String,
    },
}

/// How an approval of a change stands between approval.md and the ledger (P-17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealMark {
    /// No approval claimed or held.
    None,
    /// The repository is not sealed: approval.md counts as written.
    Open,
    /// approval.md's section is held by the ledger: it counts.
    Sealed,
    /// approval.md claims it, the ledger does not hold it (forged, copied or restored): it does
    /// not count.
    Unrecorded,
    /// approval.md claims it and the repository's ledger does not read: nothing counts.
    Broken,
    /// The ledger holds it, approval.md lacks it (an interrupted write; `seal` writes it back).
    Missing,
}

impl SealMark {
    pub fn name(self) -> &'static str {
        match self {
            SealMark::None => "none",
            SealMark::Open => "open",
            SealMark::Sealed => "sealed",
            SealMark::Unrecorded => "unrecorded",
            SealMark::Broken => "broken",
            SealMark::Missing => "missing",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeStatus {
    pub id: String,
    /// Which of proposal.md, design.md, builder-check.md exist, in that order.
    pub files_present: [bool; 3],
    pub design_approval: Option<Signature>,
    /// Plans whose Spec points to this change (`docs/superpowers/plans/…`).
    pub plans: Vec<String>,
    pub plan_approval: PlanApproval,
    pub design_seal: SealMark,
    pub plan_seal: SealMark,
    pub next_step: NextStep,
}

/// One row per change directory under `openspec/changes/` (`archive` skipped), sorted by id.
/// Approvals are shown as the gates count them: in a sealed repository only what the ledger holds.
pub fn loop_status(root: &Path) -> Vec<ChangeStatus> {
    let plans = readable_plans(root);
    let seal = ledger::seal_of(root);
    approval::seal::change_ids(root)
        .into_iter()
        .map(|id| {
            let dir = crate::paths::change_dir(root, &id);
            let files_present = DESIGN_FILES.map(|file| dir.join(file).is_file());
            let approvals = Approvals::with_seal(root, &id, seal.clone());
            let own_plans: Vec<&ReadPlan> =
                plans.iter().filter(|p| p.change_id.as_deref() == Some(id.as_str())).collect();
            let only_plan = match own_plans.as_slice() {
                [plan] => Some(plan.file.display.as_str()),
                _ => None,
            };
            let design = approvals.standing(&id, Kind::Design, None);
            let plan = approvals.standing(&id, Kind::Plan, only_plan);
            let design_approval = counted(&design).map(signature);
            let plan_approval = plan_approval(counted(&plan), &own_plans);
            let next_step = next_step(&id, files_present, design_approval.is_some(), &own_plans, &plan_approval);
            ChangeStatus {
                design_seal: mark(&design, &seal, &id, Kind::Design),
                plan_seal: mark(&plan, &seal, &id, Kind::Plan),
                id,
                files_present,
                design_approval,
                plans: own_plans.iter().map(|p| p.file.display.clone()).collect(),
                plan_approval,
                next_step,
            }
        })
        .collect()
}

fn counted(standing: &Standing) -> Option<&Claim> {
    if standing.counts() { standing.claim() } else { None }
}

fn mark(standing: &Standing, seal: &Seal, id: &str, kind: Kind) -> SealMark {
    match standing {
        Standing::None => {
            let held = match seal {
                Seal::Sealed(sealed) => sealed.ledger.as_ref().is_ok_and(|l| l.get(id, kind).is_some()),
                Seal::Open => false,
            };
            if held { SealMark::Missing } else { SealMark::None }
        }
        Standing::Open(_) => SealMark::Open,
        Standing::Sealed(_) => SealMark::Sealed,
        Standing::Unrecorded { .. } => SealMark::Unrecorded,
        Standing::Broken { .. } => SealMark::Broken,
    }
}

/// The plans that could be read; one that cannot has no state to show.
fn readable_plans(root: &Path) -> Vec<ReadPlan> {
    approval::read_plans(root).into_iter().filter_map(Result::ok).collect()
}

fn signature(claim: &Claim) -> Signature {
    Signature { by: claim.by.clone(), at: claim.at.clone() }
}

fn plan_approval(claim: Option<&Claim>, plans: &[&ReadPlan]) -> PlanApproval {
    let Some(sha256) = claim.and_then(|claim| claim.sha256.clone()) else {
        return PlanApproval::None;
    };
    let signature = claim.map(signature).unwrap_or(Signature { by: String::new(), at: String::new() });
    if plans.iter().any(|plan| plan.file.sha256 == sha256) {
        PlanApproval::Matches { signature, sha256 }
    } else {
        PlanApproval::Changed { signature, sha256 }
    }
}

fn next_step(
    id: &str,
    files_present: [bool; 3],
    design_approved: bool,
    plans: &[&ReadPlan],
    plan_approval: &PlanApproval,
) -> NextStep {
    let change_id = id.to_string();
    let missing: Vec<String> = DESIGN_FILES
        .iter()
        .zip(files_present)
        .filter(|(_, present)| !present)
        .map(|(file, _)| file.to_string())
        .collect();
    if !missing.is_empty() {
        return NextStep::WriteChangeFiles { change_id, files: missing };
    }
    if !design_approved {
        return NextStep::ApproveDesign { change_id };
    }
    match (plans.len(), plan_approval) {
        (0, _) => NextStep::WritePlan { change_id },
        (1, PlanApproval::Matches { .. }) => NextStep::Implement { plan: plans[0].file.display.clone() },
        (1, PlanApproval::Changed { .. }) => NextStep::ReapprovePlan { change_id },
        (1, PlanApproval::None) => NextStep::ApprovePlan { change_id },
        _ => NextStep::KeepOnePlan { change_id, plans: plans.iter().map(|p| p.file.display.clone()).collect() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_repo::Repo;

    fn steps(repo: &Repo) -> Vec<(String, String)> {
        loop_status(&repo.root).into_iter().map(|s| (s.id, s.next_step.to_string())).collect()
    }

    #[test]
    fn each_state_of_the_loop_has_its_next_step() {
        let repo = Repo::new();
        repo.write("openspec/changes/a-new/proposal.md", "p");
        repo.change("b-design").write("openspec/changes/b-design/approval.md", "design:\n");
        repo.change("c-plan").approve_design("c-plan");
        repo.change("d-plan-written").approve_design("d-plan-written").plan("d", "d-plan-written");
        repo.change("e-ready").plan("e", "e-ready").approve_plan("e-ready", "e");
        repo.change("f-changed").plan("f", "f-changed").approve_plan("f-changed", "f");
        repo.write("docs/superpowers/plans/f.md", "**Spec:** openspec/changes/f-changed\nedited\n");
        repo.change("g-two").approve_design("g-two").plan("g1", "g-two").plan("g2", "g-two");
        repo.write("openspec/changes/archive/old/proposal.md", "p");
        assert_eq!(
            steps(&repo),
            vec![
                ("a-new".into(), "write design.md, builder-check.md in openspec/changes/a-new/".into()),
                ("b-design".into(), "/approve b-design design".into()),
                (
                    "c-plan".into(),
                    "write a plan in docs/superpowers/plans/ with **Spec:** openspec/changes/c-plan".into()
                ),
                ("d-plan-written".into(), "/approve d-plan-written plan".into()),
                ("e-ready".into(), "implement docs/superpowers/plans/e.md (sdd)".into()),
                ("f-changed".into(), "/approve f-changed plan (the plan changed after its approval)".into()),
                (
                    "g-two".into(),
                    "keep one plan for g-two: docs/superpowers/plans/g1.md, docs/superpowers/plans/g2.md".into()
                ),
            ]
        );
    }

    #[test]
    fn rows_carry_files_signatures_and_plans() {
        let repo = Repo::new();
        repo.change("c").plan("p", "c").approve_plan("c", "p");
        let row = loop_status(&repo.root).remove(0);
        assert_eq!(row.files_present, [true, true, true]);
        assert_eq!(row.design_approval, Some(Signature { by: "owner".into(), at: "2026-10-25T10:00:00Z".into() }));
        assert_eq!(row.plans, vec!["docs/superpowers/plans/p.md".to_string()]);
        assert!(matches!(row.plan_approval, PlanApproval::Matches { .. }));
    }

    #[test]
    fn no_changes_folder_is_no_rows() {
        assert_eq!(loop_status(&Repo::new().root), vec![]);
    }
}
