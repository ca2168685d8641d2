//! The napi boundary: JS values in, core calls, JS values out. No rule lives here.
//!
//! Arguments are read lazily through raw N-API calls, so a field is copied out of V8 only when a
//! decision needs it, and a throwing getter or Proxy trap reads as "absent" instead of escaping
//! as an exception.

// napi-derive registers nothing in test builds.
#![cfg_attr(test, allow(dead_code))]

use std::cell::OnceCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::ptr;

use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::approval::{self, present};
use crate::gates::{self, ToolArgs};
use crate::paths;
use crate::analysis::persistent;
use crate::setup;
use crate::status::{self, PlanApproval};
use crate::texts::{self, ApprovalText, Denial, UsageProblem};

/// A JS value seen through N-API; every read that fails (wrong type, throwing getter) is `None`.
#[derive(Clone, Copy)]
struct JsRead {
    env: sys::napi_env,
    value: sys::napi_value,
}

impl JsRead {
    fn new(env: &Env, value: &Unknown) -> Self {
        JsRead { env: env.raw(), value: value.raw() }
    }

    fn kind(&self) -> Option<sys::napi_valuetype> {
        let mut kind = 0;
        let status = unsafe { sys::napi_typeof(self.env, self.value, &mut kind) };
        (status == sys::Status::napi_ok).then_some(kind)
    }

    fn is_object(&self) -> bool {
        matches!(self.kind(), Some(sys::ValueType::napi_object | sys::ValueType::napi_function))
    }

    /// Clears an exception a getter or Proxy trap left pending, so it never reaches the caller.
    fn clear_exception(&self) {
        let mut pending = false;
        unsafe { sys::napi_is_exception_pending(self.env, &mut pending) };
        if pending {
            let mut exception = ptr::null_mut();
            unsafe { sys::napi_get_and_clear_last_exception(self.env, &mut exception) };
        }
    }

    fn property(&self, name: &str) -> Option<JsRead> {
        if !self.is_object() {
            return None;
        }
        // Field names are short ASCII literals: NUL-terminate them on the stack.
        let mut key = [0u8; 64];
        if name.len() >= key.len() || name.contains('\0') {
            return None;
        }
        key[..name.len()].copy_from_slice(name.as_bytes());
        let mut value = ptr::null_mut();
        let status = unsafe { sys::napi_get_named_property(self.env, self.value, key.as_ptr().cast(), &mut value) };
        if status != sys::Status::napi_ok {
            self.clear_exception();
            return None;
        }
        Some(JsRead { env: self.env, value })
    }

    fn string(&self) -> Option<String> {
        if self.kind()? != sys::ValueType::napi_string {
            return None;
        }
        // Names and paths fit a small buffer: one N-API call. Longer texts ask for their length.
        let mut short = [0u8; 256];
        let mut written = 0;
        let status = unsafe {
            sys::napi_get_value_string_utf8(self.env, self.value, short.as_mut_ptr().cast(), short.len(), &mut written)
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        if written < short.len() - 1 {
            return Some(utf8(short[..written].to_vec()));
        }
        let mut len = 0;
        let status = unsafe { sys::napi_get_value_string_utf8(self.env, self.value, ptr::null_mut(), 0, &mut len) };
        if status != sys::Status::napi_ok {
            return None;
        }
        let mut buffer = vec![0u8; len + 1];
        let mut written = 0;
        let status = unsafe {
            sys::napi_get_value_string_utf8(
                self.env,
                self.value,
                buffer.as_mut_ptr().cast(),
                buffer.len(),
                &mut written,
            )
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        buffer.truncate(written);
        Some(utf8(buffer))
    }

    /// The value as JSON spells it (`JSON.stringify`), a string as itself; `None` for `undefined`,
    /// `null`, or a value whose serialisation throws (a cycle, a throwing `toJSON`).
    fn json_text(&self) -> Option<String> {
        match self.kind()? {
            sys::ValueType::napi_string => return self.string(),
            sys::ValueType::napi_undefined | sys::ValueType::napi_null => return None,
            _ => {}
        }
        let mut global = ptr::null_mut();
        if unsafe { sys::napi_get_global(self.env, &mut global) } != sys::Status::napi_ok {
            return None;
        }
        let json = JsRead { env: self.env, value: global }.property("JSON")?;
        let stringify = json.property("stringify")?;
        let argv = [self.value];
        let mut result = ptr::null_mut();
        let status =
            unsafe { sys::napi_call_function(self.env, json.value, stringify.value, 1, argv.as_ptr(), &mut result) };
        if status != sys::Status::napi_ok {
            self.clear_exception();
            return None;
        }
        JsRead { env: self.env, value: result }.string()
    }

    fn elements(&self) -> Option<Vec<JsRead>> {
        let mut is_array = false;
        let status = unsafe { sys::napi_is_array(self.env, self.value, &mut is_array) };
        if status != sys::Status::napi_ok || !is_array {
            return None;
        }
        let mut len = 0;
        if unsafe { sys::napi_get_array_length(self.env, self.value, &mut len) } != sys::Status::napi_ok {
            return None;
        }
        let mut elements = Vec::with_capacity(len.min(1024) as usize);
        for index in 0..len {
            let mut value = ptr::null_mut();
            if unsafe { sys::napi_get_element(self.env, self.value, index, &mut value) } != sys::Status::napi_ok {
                self.clear_exception();
                return None;
            }
            elements.push(JsRead { env: self.env, value });
        }
        Some(elements)
    }
}

/// V8 writes well-formed UTF-8 (lone surrogates become U+FFFD); stay safe regardless.
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A tool call's `arguments` object as the gates read it, fetched on first use.
struct JsToolArgs {
    call: JsRead,
    arguments: OnceCell<Option<JsRead>>,
}

impl JsToolArgs {
    fn arguments(&self) -> Option<JsRead> {
        *self.arguments.get_or_init(|| self.call.property("arguments"))
    }
}

impl ToolArgs for JsToolArgs {
    fn string(&self, field: &str) -> Option<String> {
        self.arguments()?.property(field)?.string()
    }

    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>> {
        let elements = self.arguments()?.property(array)?.elements()?;
        Some(elements.iter().map(|element| element.property(field).and_then(|v| v.string())).collect())
    }

    fn strings(&self, field: &str) -> Option<Vec<String>> {
        let elements = self.arguments()?.property(field)?.elements()?;
        elements.iter().map(JsRead::string).collect()
    }

    fn json_text(&self, field: &str) -> Option<String> {
        self.arguments()?.property(field)?.json_text()
    }
}

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// A caller's directory made absolute against the process cwd; absent means the process cwd.
fn directory(cwd: Option<String>) -> PathBuf {
    match cwd {
        Some(dir) if Path::new(&dir).is_absolute() => paths::normalize(Path::new(&dir)),
        Some(dir) if !dir.is_empty() => paths::absolute(dir, &process_cwd()),
        _ => process_cwd(),
    }
}

/// What an export that can throw throws when the core panicked.
fn internal_error<T>() -> Result<T> {
    Err(Error::from_reason(texts::INTERNAL_ERROR))
}

/// The last resort of every export: a panic is a bug, but it must not unwind into V8.
fn guarded<T>(fallback: impl FnOnce() -> T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| fallback())
}

/// Judge one tool call. `null` allows it; otherwise the full denial text. Never throws.
/// `options.shell` names a persistent shell: calls with the same name share its state (P-15);
/// without it a shell call is one-shot. `options.sandbox` is the mode the host will run the call
/// in when wider than its default (DSH: a session switched to `danger-full-access`); while
/// approvals are sealed such a call is refused (P-17). `options.host: 'claude-code'` judges a
/// Claude Code call, whose file tools may not write Claude Code's configuration either.
#[napi(
    js_name = "checkGuard",
    ts_args_type = "toolCall: { name: string; arguments?: unknown }, cwd: string, options?: { shell?: string; sandbox?: string; host?: 'claude-code' }"
)]
pub fn check_guard(env: Env, tool_call: Unknown, cwd: Unknown, options: Unknown) -> Option<String> {
    guarded(
        || Some(Denial::InternalError.to_string()),
        || {
            let call = JsRead::new(&env, &tool_call);
            let name = call.property("name")?.string()?;
            let args = JsToolArgs { call, arguments: OnceCell::new() };
            let session_dir = || directory(JsRead::new(&env, &cwd).string());
            // Read only for a shell call, so every other call costs what it did.
            let shell = || JsRead::new(&env, &options).property("shell").and_then(|shell| shell.string());
            // Read only for a call that can leave the host's sandbox.
            let sandbox = || JsRead::new(&env, &options).property("sandbox").and_then(|mode| mode.string());
            let verdict = gates::check_tool_call_hosted(&name, &args, session_dir, shell, sandbox);
            // `options.host: 'claude-code'` (the CLI's check of a Claude Code payload) also keeps
            // Claude Code's configuration out of its file tools' reach; read for those tools only.
            let claude_code = || {
                gates::claude_code::judges(&name)
                    && JsRead::new(&env, &options).property("host").and_then(|host| host.string()).as_deref()
                        == Some("claude-code")
            };
            let verdict = verdict.or_else(|| {
                claude_code()
                    .then(|| {
                        let places = gates::claude_code::ConfigPlaces::from_env(|name| std::env::var_os(name));
                        gates::claude_code::check(&name, &args, session_dir, &places)
                    })
                    .flatten()
            });
            verdict.map(|denial| denial.to_string())
        },
    )
}

/// Forgets the state of persistent shell `shell` (its session ended). Returns whether it had
/// any; never throws (a non-string is `false`).
#[napi(js_name = "dropShell", ts_args_type = "shell: string")]
pub fn drop_shell(env: Env, shell: Unknown) -> bool {
    guarded(|| false, || JsRead::new(&env, &shell).string().is_some_and(|shell| persistent::drop_shell(&shell)))
}

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

/// An optional string argument: `undefined` and `null` are absent, anything but a string throws.
fn optional_string(env: &Env, value: &Unknown, what: &str) -> Result<Option<String>> {
    match value.get_type() {
        Ok(ValueType::Undefined | ValueType::Null) => Ok(None),
        _ => JsRead::new(env, value)
            .string()
            .map(Some)
            .ok_or_else(|| Error::new(Status::InvalidArg, texts::not_a_string(what))),
    }
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

/// The absolute, normalized files a bash command line writes (the old `harness_target.py
/// targets`), run in `cwd`. Throws a `TypeError` when `command` is not a string and an `Error`
/// when the command is over one of the parser's caps.
#[napi(js_name = "bashTargets", ts_args_type = "command: string, cwd: string", ts_return_type = "string[]")]
pub fn bash_targets(env: Env, command: Unknown, cwd: Unknown) -> Result<Vec<String>> {
    guarded(internal_error, || {
        let Some(command) = JsRead::new(&env, &command).string() else {
            env.throw_type_error(texts::BASH_TARGETS_NOT_A_STRING, None)?;
            return Err(Error::new(Status::PendingException, texts::BASH_TARGETS_NOT_A_STRING));
        };
        let base = directory(JsRead::new(&env, &cwd).string());
        match crate::analyses::bash_write_targets(&command, &base) {
            Ok(targets) => Ok(targets.iter().map(|path| path.to_string_lossy().into_owned()).collect()),
            Err(limit) => Err(Error::new(Status::GenericFailure, texts::unscannable_error(limit))),
        }
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
