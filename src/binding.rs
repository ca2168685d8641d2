//! The napi boundary: JS values in, core calls, JS values out. No rule lives here.
//!
//! Arguments are read lazily through raw N-API calls, so a field is copied out of V8 only when a
//! decision needs it, and a throwing getter or Proxy trap reads as "absent" instead of escaping
//! as an exception.

// napi-derive registers nothing in test builds.
#![cfg_attr(test, allow(dead_code))]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::ptr;

use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::approval;
use crate::gates::{self, ToolArgs};
use crate::paths;
use crate::shell;
use crate::texts::{self, ApprovalText, Denial};

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
        let key = std::ffi::CString::new(name).ok()?;
        let mut value = ptr::null_mut();
        let status = unsafe { sys::napi_get_named_property(self.env, self.value, key.as_ptr(), &mut value) };
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
        let mut len = 0;
        let status = unsafe { sys::napi_get_value_string_utf8(self.env, self.value, ptr::null_mut(), 0, &mut len) };
        if status != sys::Status::napi_ok {
            return None;
        }
        let mut buffer = vec![0u8; len + 1];
        let mut written = 0;
        let status = unsafe {
            sys::napi_get_value_string_utf8(self.env, self.value, buffer.as_mut_ptr().cast(), buffer.len(), &mut written)
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        buffer.truncate(written);
        // V8 writes well-formed UTF-8 (lone surrogates become U+FFFD); stay safe regardless.
        Some(String::from_utf8(buffer).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
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

/// A tool call's `arguments` object as the gates read it.
struct JsToolArgs(Option<JsRead>);

impl ToolArgs for JsToolArgs {
    fn string(&self, field: &str) -> Option<String> {
        self.0?.property(field)?.string()
    }

    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>> {
        let elements = self.0?.property(array)?.elements()?;
        Some(elements.iter().map(|element| element.property(field).and_then(|v| v.string())).collect())
    }
}

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// A caller's directory made absolute against the process cwd; absent means the process cwd.
fn directory(cwd: Option<String>) -> PathBuf {
    let base = process_cwd();
    match cwd {
        Some(dir) if !dir.is_empty() => paths::absolute(dir, &base),
        _ => base,
    }
}

/// The last resort of every export: a panic is a bug, but it must not unwind into V8.
fn guarded<T>(fallback: impl FnOnce() -> T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| fallback())
}

/// Judge one tool call. `null` allows it; otherwise the full denial text. Never throws.
#[napi(js_name = "checkGuard", ts_args_type = "toolCall: { name: string; arguments?: unknown }, cwd: string")]
pub fn check_guard(env: Env, tool_call: Unknown, cwd: Unknown) -> Option<String> {
    guarded(
        || Some(Denial::InternalError.to_string()),
        || {
            let call = JsRead::new(&env, &tool_call);
            let name = call.property("name")?.string()?;
            let args = JsToolArgs(call.property("arguments"));
            let cwd = directory(JsRead::new(&env, &cwd).string());
            gates::check_tool_call(&name, &args, &cwd).map(|denial| denial.to_string())
        },
    )
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
fn string_argument(env: &Env, value: &Unknown, what: &str) -> std::result::Result<String, ApprovalText> {
    JsRead::new(env, value)
        .string()
        .ok_or_else(|| ApprovalText::Usage { detail: format!("{what} must be a string") })
}

fn approval_arguments(env: &Env, id: &Unknown, kind: &Unknown) -> std::result::Result<(String, String), ApprovalText> {
    Ok((string_argument(env, id, "change id")?, string_argument(env, kind, "kind")?))
}

/// `/approve` preconditions; never writes.
#[napi(js_name = "checkApproval", ts_args_type = "id: string, kind: string, cwd?: string")]
pub fn check_approval(env: Env, id: Unknown, kind: Unknown, cwd: Option<String>) -> ApprovalCheck {
    let fallback = || ApprovalCheck { ok: false, message: Denial::InternalError.to_string(), plan: None, sha256: None };
    guarded(fallback, || {
        let ready = approval_arguments(&env, &id, &kind)
            .and_then(|(id, kind)| approval::check(&id, &kind, &directory(cwd)));
        match ready {
            Ok(ready) => {
                let message = ready.message().to_string();
                let (plan, sha256) = ready.plan.map(|plan| (plan.display, plan.sha256)).unzip();
                ApprovalCheck { ok: true, message, plan, sha256 }
            }
            Err(refusal) => ApprovalCheck { ok: false, message: refusal.to_string(), plan: None, sha256: None },
        }
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
    cwd: Option<String>,
    expect_sha256: Option<String>,
) -> ApprovalWrite {
    let fallback = || ApprovalWrite { approved: false, message: Denial::InternalError.to_string() };
    guarded(fallback, || {
        let (id, kind) = match approval_arguments(&env, &id, &kind) {
            Ok(arguments) => arguments,
            Err(refusal) => return ApprovalWrite { approved: false, message: refusal.to_string() },
        };
        let confirmed = matches!(confirmed.get_type(), Ok(ValueType::Boolean))
            && unsafe { confirmed.cast::<bool>() }.unwrap_or(false);
        let outcome = approval::write(&id, &kind, confirmed, &directory(cwd), expect_sha256.as_deref());
        ApprovalWrite { approved: outcome.approved, message: outcome.message.to_string() }
    })
}

/// The absolute, normalized files a bash command line writes (the old `harness_target.py
/// targets`), run in `cwd`. Throws a `TypeError` when `command` is not a string and an `Error`
/// when the command is over one of the parser's caps.
#[napi(js_name = "bashTargets", ts_args_type = "command: string, cwd: string", ts_return_type = "string[]")]
pub fn bash_targets(env: Env, command: Unknown, cwd: Unknown) -> Result<Vec<String>> {
    let internal = || Err(Error::new(Status::GenericFailure, Denial::InternalError.to_string()));
    guarded(internal, || {
        let Some(command) = JsRead::new(&env, &command).string() else {
            env.throw_type_error(texts::BASH_TARGETS_NOT_A_STRING, None)?;
            return Err(Error::new(Status::PendingException, texts::BASH_TARGETS_NOT_A_STRING));
        };
        let base = directory(JsRead::new(&env, &cwd).string());
        match shell::write_targets(&command, &base) {
            Ok(targets) => Ok(targets.iter().map(|path| path.to_string_lossy().into_owned()).collect()),
            Err(limit) => Err(Error::new(Status::GenericFailure, texts::unscannable_error(limit))),
        }
    })
}
