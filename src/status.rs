//! Where each change stands in the loop, for `approval-gates status`.

use std::fs;
use std::path::Path;

use crate::approval::{self, ApprovalRecord, DESIGN_FILES, ReadPlan};
use crate::paths;
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeStatus {
    pub id: String,
    /// Which of proposal.md, design.md, builder-check.md exist, in that order.
    pub files_present: [bool; 3],
    pub design_approval: Option<Signature>,
    /// Plans whose Spec points to this change (`docs/superpowers/plans/…`).
    pub plans: Vec<String>,
    pub plan_approval: PlanApproval,
    pub next_step: NextStep,
}

/// One row per change directory under `openspec/changes/` (`archive` skipped), sorted by id.
pub fn loop_status(root: &Path) -> Vec<ChangeStatus> {
    let plans = readable_plans(root);
    change_ids(root)
        .into_iter()
        .map(|id| {
            let dir = paths::change_dir(root, &id);
            let files_present = DESIGN_FILES.map(|file| dir.join(file).is_file());
            let record = approval::read_record(root, &id);
            let own_plans: Vec<&ReadPlan> =
                plans.iter().filter(|p| p.change_id.as_deref() == Some(id.as_str())).collect();
            let design_approval = design_signature(&record);
            let plan_approval = plan_approval(&record, &own_plans);
            let next_step = next_step(&id, files_present, design_approval.is_some(), &own_plans, &plan_approval);
            ChangeStatus {
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

fn change_ids(root: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(paths::change_dir(root, "")) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|id| id != "archive" && !id.starts_with('.') && paths::is_safe_segment(id))
        .collect();
    ids.sort();
    ids
}

/// The plans that could be read; one that cannot has no state to show.
fn readable_plans(root: &Path) -> Vec<ReadPlan> {
    approval::read_plans(root).into_iter().filter_map(Result::ok).collect()
}

fn signature(record: &ApprovalRecord, section: &str) -> Option<Signature> {
    let section = record.section(section)?;
    Some(Signature { by: section.field("by")?.to_string(), at: section.field("at")?.to_string() })
}

fn design_signature(record: &ApprovalRecord) -> Option<Signature> {
    record.design_approved().then(|| signature(record, "design")).flatten()
}

fn plan_approval(record: &ApprovalRecord, plans: &[&ReadPlan]) -> PlanApproval {
    let Some(sha256) = record.plan_sha256() else {
        return PlanApproval::None;
    };
    let signature = signature(record, "plan").unwrap_or(Signature { by: String::new(), at: String::new() });
    let sha256 = sha256.to_ascii_lowercase();
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
