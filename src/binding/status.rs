//! `loopStatus`: where every change stands in the loop.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::{directory, guarded, internal_error, optional_string};
use crate::status::{self, PlanApproval};

#[napi(object)]
pub struct SignatureRow {
    pub by: String,
    pub at: String,
}

#[napi(object)]
pub struct PlanApprovalRow {
    /// `none`, `matches` (the approved sha256 is a plan's current hash) or `changed`.
    pub state: String,
    pub by: Option<String>,
    pub at: Option<String>,
    pub sha256: Option<String>,
}

#[napi(object)]
pub struct ChangeRow {
    pub id: String,
    pub proposal: bool,
    pub design: bool,
    pub builder_check: bool,
    pub design_approval: Option<SignatureRow>,
    pub plans: Vec<String>,
    pub plan_approval: PlanApprovalRow,
    /// How the design approval stands against the ledger (P-17): `none`, `open` (not sealed:
    /// approval.md counts), `sealed`, `unrecorded` (claimed by approval.md, not in the ledger:
    /// does not count), `broken` (the ledger does not read) or `missing` (in the ledger only).
    pub design_seal: String,
    /// The same for the plan approval.
    pub plan_seal: String,
    pub next_step: String,
}

fn plan_approval_row(approval: PlanApproval) -> PlanApprovalRow {
    let (state, signed) = match approval {
        PlanApproval::None => ("none", None),
        PlanApproval::Matches { signature, sha256 } => ("matches", Some((signature, sha256))),
        PlanApproval::Changed { signature, sha256 } => ("changed", Some((signature, sha256))),
    };
    let (by, at, sha256) = match signed {
        Some((signature, sha256)) => (Some(signature.by), Some(signature.at), Some(sha256)),
        None => (None, None, None),
    };
    PlanApprovalRow { state: state.to_string(), by, at, sha256 }
}

/// Where every change under `openspec/changes/` stands in the loop, and its next step.
#[napi(js_name = "loopStatus", ts_args_type = "cwd?: string")]
pub fn loop_status(env: Env, cwd: Unknown) -> Result<Vec<ChangeRow>> {
    guarded(internal_error, || {
        Ok(status::loop_status(&directory(optional_string(&env, &cwd, "cwd")?))
            .into_iter()
            .map(|change| {
                let [proposal, design, builder_check] = change.files_present;
                ChangeRow {
                    id: change.id,
                    proposal,
                    design,
                    builder_check,
                    design_approval: change.design_approval.map(|s| SignatureRow { by: s.by, at: s.at }),
                    plans: change.plans,
                    plan_approval: plan_approval_row(change.plan_approval),
                    design_seal: change.design_seal.name().to_string(),
                    plan_seal: change.plan_seal.name().to_string(),
                    next_step: change.next_step.to_string(),
                }
            })
            .collect())
    })
}
