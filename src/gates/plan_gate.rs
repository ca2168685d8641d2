//! Gate A: a plan is written only with a Spec line to a change whose design is approved.

use std::path::Path;

use crate::approval;
use crate::plan;
use crate::texts::Denial;

/// `texts`: the new text of a write under `root`'s plans folder; every fragment is judged on its
/// own (an edit fragment needs its own Spec line).
pub fn check(root: &Path, texts: Option<&[String]>) -> Option<Denial> {
    let Some(texts) = texts.filter(|texts| !texts.is_empty()) else {
        return Some(Denial::PlanNeedsSpec);
    };
    texts.iter().find_map(|text| {
        let Some(change_id) = plan::plan_change_id(text, root) else {
            return Some(Denial::PlanNeedsSpec);
        };
        if approval::sealed::read(root, &change_id).design_approved(&change_id) {
            None
        } else {
            Some(Denial::DesignNotApproved { change_id })
        }
    })
}
