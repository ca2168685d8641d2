//! The approval's exports: `checkApproval`, `writeApproval` and `presentApproval`.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::js_read::JsRead;
use super::{directory, guarded, internal_error, optional_string};
use crate::approval::{self, present};
use crate::texts::{self, ApprovalText, UsageProblem};

#[napi(object)]
pub struct ApprovalCheck {
    pub ok: bool,
    pub message: String,
    pub plan: Option<String>,
    pub sha256: Option<String>,
}

#[napi(object)]
pub struct ApprovalWrite {
    pub approved: bool,
    pub message: String,
}

/// A usage refusal for an argument that is not a string, before the core sees it.
fn string_argument(env: &Env, value: &Unknown, what: &'static str) -> std::result::Result<String, ApprovalText> {
    JsRead::new(env, value).string().ok_or(ApprovalText::Usage { problem: UsageProblem::NotAString { what } })
}

fn approval_arguments(env: &Env, id: &Unknown, kind: &Unknown) -> std::result::Result<(String, String), ApprovalText> {
    Ok((string_argument(env, id, "change id")?, string_argument(env, kind, "kind")?))
}

fn approval_check(ready: std::result::Result<approval::Ready, ApprovalText>) -> ApprovalCheck {
    match ready {
        Ok(ready) => {
            let message = ready.message().to_string();
            let (plan, sha256) = ready.plan.map(|plan| (plan.display, plan.sha256)).unzip();
            ApprovalCheck { ok: true, message, plan, sha256 }
        }
        Err(refusal) => ApprovalCheck { ok: false, message: refusal.to_string(), plan: None, sha256: None },
    }
}

/// `/approve` preconditions; never writes.
#[napi(js_name = "checkApproval", ts_args_type = "id: string, kind: string, cwd?: string")]
pub fn check_approval(env: Env, id: Unknown, kind: Unknown, cwd: Unknown) -> Result<ApprovalCheck> {
    guarded(internal_error, || {
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let ready = approval_arguments(&env, &id, &kind).and_then(|(id, kind)| approval::check(&id, &kind, &root));
        Ok(approval_check(ready))
    })
}

/// Re-checks the preconditions, then writes only when `confirmed` is exactly `true`.
#[napi(
    js_name = "writeApproval",
    ts_args_type = "id: string, kind: string, confirmed: boolean, cwd?: string, expectSha256?: string"
)]
pub fn write_approval(
    env: Env,
    id: Unknown,
    kind: Unknown,
    confirmed: Unknown,
    cwd: Unknown,
    expect_sha256: Unknown,
) -> Result<ApprovalWrite> {
    guarded(internal_error, || {
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let expect_sha256 = optional_string(&env, &expect_sha256, "expectSha256")?;
        let (id, kind) = match approval_arguments(&env, &id, &kind) {
            Ok(arguments) => arguments,
            Err(refusal) => return Ok(ApprovalWrite { approved: false, message: refusal.to_string() }),
        };
        let confirmed = matches!(confirmed.get_type(), Ok(ValueType::Boolean))
            && unsafe { confirmed.cast::<bool>() }.unwrap_or(false);
        let outcome = approval::write(&id, &kind, confirmed, &root, expect_sha256.as_deref());
        Ok(ApprovalWrite { approved: outcome.approved, message: outcome.text() })
    })
}

#[napi(object)]
pub struct ApprovalExcerpt {
    /// The document's first bytes as UTF-8 (invalid sequences as U+FFFD), never a split character.
    pub text: String,
    /// How many of the document's bytes and lines `text` holds.
    pub bytes: i64,
    pub lines: i64,
    /// Whether the document goes on past `text`.
    pub truncated: bool,
}

#[napi(object)]
pub struct ApprovalDocument {
    /// `design`, `proposal`, `builder-check` or `plan`.
    pub role: String,
    /// Relative to the repository root.
    pub path: String,
    pub bytes: i64,
    pub lines: Option<i64>,
    pub sha256: Option<String>,
    /// The beginning of the document being approved; the other files are named only.
    pub excerpt: Option<ApprovalExcerpt>,
}

#[napi(object)]
pub struct ApprovalPrevious {
    pub by: String,
    pub at: String,
    pub sha256: Option<String>,
}

#[napi(object)]
pub struct ApprovalWriteTarget {
    /// `openspec/changes/<id>/approval.md`.
    pub file: String,
    /// `design` or `plan`.
    pub section: String,
    /// Always `owner`; `at` is the time of the answer.
    pub by: String,
    pub sha256: Option<String>,
    /// The section there now, which approving replaces.
    pub replaces: Option<ApprovalPrevious>,
}

#[napi(object)]
pub struct ApprovalPresentation {
    /// `Approve the <kind> of <id>?`
    pub title: String,
    /// `owner-command`, `agent-tool`, `cli` or `prompt`.
    pub asker: String,
    pub change_id: String,
    pub kind: String,
    pub documents: Vec<ApprovalDocument>,
    pub writes: ApprovalWriteTarget,
    /// Who asked, what approving writes and the document, for a host that renders Markdown.
    pub markdown: String,
    /// The same for a terminal.
    pub text: String,
}

#[napi(object)]
pub struct PresentedApproval {
    pub ok: bool,
    pub message: String,
    pub plan: Option<String>,
    /// The sha256 of the plan bytes presented: pass it to `writeApproval` as `expectSha256`.
    pub sha256: Option<String>,
    /// What the owner is shown, when the preconditions pass.
    pub presentation: Option<ApprovalPresentation>,
}

fn count(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn presentation_object(shown: present::Presentation) -> ApprovalPresentation {
    let (title, markdown, text) = (shown.title(), shown.markdown(), shown.text());
    let documents = shown
        .documents
        .into_iter()
        .map(|document| ApprovalDocument {
            role: document.role.name().to_string(),
            path: document.path,
            bytes: count(document.bytes),
            lines: document.lines.map(count),
            sha256: document.sha256,
            excerpt: document.excerpt.map(|excerpt| ApprovalExcerpt {
                text: excerpt.text,
                bytes: count(excerpt.bytes),
                lines: count(excerpt.lines),
                truncated: excerpt.truncated,
            }),
        })
        .collect();
    let write = shown.write;
    ApprovalPresentation {
        title,
        asker: present::asker_name(shown.asker).to_string(),
        change_id: shown.change_id,
        kind: present::kind_name(shown.kind).to_string(),
        documents,
        writes: ApprovalWriteTarget {
            file: write.file,
            section: write.section.to_string(),
            by: write.by.to_string(),
            sha256: write.sha256,
            replaces: write.replaces.map(|previous| ApprovalPrevious {
                by: previous.by,
                at: previous.at,
                sha256: previous.sha256,
            }),
        },
        markdown,
        text,
    }
}

/// `checkApproval`, and what the owner is shown when the preconditions pass: who asked (`asker`),
/// what approving writes, and the design's or the plan's text (its beginning, within caps).
/// Never writes. Throws a `TypeError` for an unknown `asker`.
#[napi(
    js_name = "presentApproval",
    ts_args_type = "id: string, kind: string, asker: 'owner-command' | 'agent-tool' | 'cli' | 'prompt', cwd?: string"
)]
pub fn present_approval(
    env: Env,
    id: Unknown,
    kind: Unknown,
    asker: Unknown,
    cwd: Unknown,
) -> Result<PresentedApproval> {
    guarded(internal_error, || {
        let names = present::ASKERS.map(|(name, _)| name);
        let Some(asker) = JsRead::new(&env, &asker).string().as_deref().and_then(present::parse_asker) else {
            let message = texts::unknown_asker(&names);
            env.throw_type_error(&message, None)?;
            return Err(Error::new(Status::PendingException, message));
        };
        let root = directory(optional_string(&env, &cwd, "cwd")?);
        let prepared =
            approval_arguments(&env, &id, &kind).and_then(|(id, kind)| present::prepare(&id, &kind, asker, &root));
        Ok(match prepared {
            Ok((ready, shown)) => {
                let check = approval_check(Ok(ready));
                PresentedApproval {
                    ok: true,
                    message: check.message,
                    plan: check.plan,
                    sha256: check.sha256,
                    presentation: Some(presentation_object(shown)),
                }
            }
            Err(refusal) => PresentedApproval {
                ok: false,
                message: refusal.to_string(),
                plan: None,
                sha256: None,
                presentation: None,
            },
        })
    })
}
