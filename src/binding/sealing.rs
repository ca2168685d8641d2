//! Sealed approvals (P-17): `approvalSetup`, `sealSurvey` and `sealApprovals`.

use std::path::PathBuf;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::{directory, guarded, internal_error, optional_string};
use crate::approval;
use crate::setup;
use crate::texts::{self, ApprovalText, UsageProblem};

#[napi(object)]
pub struct HostInput {
    /// `dsh`, `claude-code`, `codex`, `gemini`, …
    pub name: String,
    /// What the host integration found, by fact (README, Sealed approvals).
    pub facts: Option<std::collections::HashMap<String, String>>,
}

#[napi(object)]
pub struct SetupCheck {
    pub id: String,
    /// `holds`, `fails` or `unknown`.
    pub state: String,
    pub text: String,
    pub fix: Option<String>,
}

#[napi(object)]
pub struct ApprovalSetup {
    /// `enforced` when every check holds, else `advisory`.
    pub mode: String,
    pub host: Option<String>,
    pub ledger_folder: Option<String>,
    pub ledger_file: Option<String>,
    pub sealed: bool,
    pub checks: Vec<SetupCheck>,
}

fn path_text(path: Option<PathBuf>) -> Option<String> {
    path.map(|path| path.display().to_string())
}

/// Whether approvals are enforced or advisory for the repository at `cwd` with `host` (P-17):
/// the core checks and the host's, each with what to change.
#[napi(
    js_name = "approvalSetup",
    ts_args_type = "cwd?: string, host?: { name: string; facts?: Record<string, string> }"
)]
pub fn approval_setup(env: Env, cwd: Unknown, host: Option<HostInput>) -> Result<ApprovalSetup> {
    guarded(internal_error, || {
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let facts = host.map(|host| setup::HostFacts {
            host: host.name,
            facts: host.facts.unwrap_or_default().into_iter().collect(),
        });
        let report = setup::assess(&root, facts.as_ref());
        Ok(ApprovalSetup {
            mode: if report.enforced { "enforced" } else { "advisory" }.to_string(),
            host: report.host,
            ledger_folder: path_text(report.folder),
            ledger_file: path_text(report.ledger_file),
            sealed: report.sealed,
            checks: report
                .checks
                .into_iter()
                .map(|check| SetupCheck {
                    id: check.id,
                    state: check.state.name().to_string(),
                    text: check.text,
                    fix: check.fix,
                })
                .collect(),
        })
    })
}

#[napi(object)]
pub struct HeldApproval {
    pub by: String,
    pub at: String,
    pub sha256: Option<String>,
    pub plan: Option<String>,
}

#[napi(object)]
pub struct SealItem {
    pub change: String,
    pub kind: String,
    /// `recorded`, `unrecorded` (approval.md claims it, the ledger does not hold it),
    /// `unbindable` (a plan claim no single plan fits; see `reason`) or `missing` (the ledger
    /// holds it, approval.md lacks it).
    pub state: String,
    pub by: Option<String>,
    pub at: Option<String>,
    pub sha256: Option<String>,
    pub plan: Option<String>,
    pub held: Option<HeldApproval>,
    pub reason: Option<String>,
}

#[napi(object)]
pub struct SealSurvey {
    pub root: String,
    pub ledger_folder: Option<String>,
    pub ledger_file: Option<String>,
    /// `open`, `sealed` or `broken`.
    pub seal: String,
    /// The directory above whose ledger seals this repository.
    pub sealed_by: Option<String>,
    /// Why the ledger does not read (`seal` is `broken`).
    pub problem: Option<String>,
    pub items: Vec<SealItem>,
}

/// approval.md against the ledger for every change of the repository at `cwd` (`approval-gates
/// seal` and `status`); never writes.
#[napi(js_name = "sealSurvey", ts_args_type = "cwd?: string")]
pub fn seal_survey(env: Env, cwd: Unknown) -> Result<SealSurvey> {
    guarded(internal_error, || {
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let survey = approval::seal::survey(&root);
        let (seal, sealed_by, problem) = match &survey.seal {
            approval::ledger::Seal::Open => ("open", None, None),
            approval::ledger::Seal::Sealed(sealed) => match &sealed.ledger {
                Ok(_) => ("sealed", path_text(sealed.by_ancestor.clone()), None),
                Err(broken) => (
                    "broken",
                    path_text(sealed.by_ancestor.clone()),
                    Some(approval::seal::broken_text(broken, &root).to_string()),
                ),
            },
        };
        let items = survey
            .items
            .iter()
            .map(|item| {
                let (state, reason) = match &item.state {
                    approval::seal::State::Recorded => ("recorded", None),
                    approval::seal::State::Unrecorded => ("unrecorded", None),
                    approval::seal::State::Unbindable { reason } => ("unbindable", Some(reason.clone())),
                    approval::seal::State::Missing => ("missing", None),
                };
                SealItem {
                    change: item.change_id.clone(),
                    kind: item.kind.name().to_string(),
                    state: state.to_string(),
                    by: item.claim.as_ref().map(|c| c.by.clone()),
                    at: item.claim.as_ref().map(|c| c.at.clone()),
                    sha256: item.claim.as_ref().and_then(|c| c.sha256.clone()),
                    plan: item.plan.clone(),
                    held: item.held.as_ref().map(|held| HeldApproval {
                        by: held.by.clone(),
                        at: held.at.clone(),
                        sha256: held.plan.as_ref().map(|p| p.sha256.clone()),
                        plan: held.plan.as_ref().map(|p| p.path.clone()),
                    }),
                    reason,
                }
            })
            .collect();
        Ok(SealSurvey {
            root: survey.root.display().to_string(),
            ledger_folder: path_text(survey.folder),
            ledger_file: path_text(survey.file),
            seal: seal.to_string(),
            sealed_by,
            problem,
            items,
        })
    })
}

#[napi(object)]
pub struct ShownSection {
    pub change: String,
    pub kind: String,
    pub by: String,
    pub at: String,
    pub sha256: Option<String>,
}

#[napi(object)]
pub struct SkippedSection {
    pub change: String,
    pub kind: String,
    pub reason: String,
}

#[napi(object)]
pub struct SealResult {
    pub sealed: bool,
    pub message: String,
    pub recorded: u32,
    pub restored: u32,
    pub skipped: Vec<SkippedSection>,
    pub ledger_file: Option<String>,
}

/// Seals the repository at `cwd` (the owner's `approval-gates seal`): records the `shown`
/// sections the ledger does not hold while they are still what was shown, writes back the shown
/// sections only the ledger holds, and creates the ledger when there is none.
#[napi(
    js_name = "sealApprovals",
    ts_args_type = "cwd: string | undefined, shown: Array<{ change: string; kind: string; by: string; at: string; sha256?: string }>"
)]
pub fn seal_approvals(env: Env, cwd: Unknown, shown: Vec<ShownSection>) -> Result<SealResult> {
    guarded(internal_error, || {
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let mut sections = Vec::new();
        for section in shown {
            let Some(kind) = approval::Kind::parse(&section.kind) else {
                let problem = UsageProblem::UnknownKind { kind: section.kind };
                return Ok(SealResult {
                    sealed: false,
                    message: ApprovalText::Usage { problem }.to_string(),
                    recorded: 0,
                    restored: 0,
                    skipped: Vec::new(),
                    ledger_file: None,
                });
            };
            sections.push(approval::seal::Shown {
                change_id: section.change,
                kind,
                by: section.by,
                at: section.at,
                sha256: section.sha256,
            });
        }
        Ok(match approval::seal::seal(&root, &sections) {
            Ok(done) => SealResult {
                sealed: true,
                message: texts::SealText::Done {
                    recorded: done.recorded,
                    restored: done.restored,
                    skipped: done.skipped.len(),
                    file: done.file.display().to_string(),
                    sealed_now: done.sealed_now,
                }
                .to_string(),
                recorded: done.recorded as u32,
                restored: done.restored as u32,
                skipped: done
                    .skipped
                    .into_iter()
                    .map(|(change, kind, reason)| SkippedSection { change, kind: kind.name().to_string(), reason })
                    .collect(),
                ledger_file: Some(done.file.display().to_string()),
            },
            Err(refusal) => SealResult {
                sealed: false,
                message: refusal.to_string(),
                recorded: 0,
                restored: 0,
                skipped: Vec::new(),
                ledger_file: None,
            },
        })
    })
}
