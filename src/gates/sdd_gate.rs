//! Gate B: sdd starts only on a plan whose approved sha256 matches its current bytes.

use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use crate::approval;
use crate::paths;
use crate::plan;
use crate::texts::Denial;

/// A reference to `docs/superpowers/plans/<plan_name>.md` under `root`.
pub fn check_plan_reference(root: &Path, plan_name: &str) -> Option<Denial> {
    let unreadable = Some(Denial::PlanNotApproved { change_id: None });
    let Ok(plan) = plan::read_hashed(&paths::plan_file(root, plan_name)) else {
        return unreadable;
    };
    let Some(change_id) = plan::plan_change_id(&plan::text(&plan.bytes), root) else {
        return unreadable;
    };
    let plan_path = format!("{}/{plan_name}.md", paths::PLANS_DIR.join("/"));
    match approval::sealed::read(root, &change_id).plan_sha256(&change_id, &plan_path) {
        None => Some(Denial::PlanNotApproved { change_id: Some(change_id) }),
        Some(approved) if approved.eq_ignore_ascii_case(&plan.sha256) => None,
        Some(_) => Some(Denial::PlanChanged),
    }
}

/// A reference to `.superpowers/sdd/<plan_name>/` under `root`: its plan must exist.
pub fn check_sdd_reference(root: &Path, plan_name: &str) -> Option<Denial> {
    match fs::metadata(paths::plan_file(root, plan_name)) {
        Err(error) if error.kind() == ErrorKind::NotFound => {
            Some(Denial::PlanNotFound { plan_name: plan_name.to_string() })
        }
        _ => check_plan_reference(root, plan_name),
    }
}
