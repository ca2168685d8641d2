//! The napi boundary: JS values in, core calls, JS values out. No rule lives here.
//!
//! Arguments are read lazily through raw N-API calls, so a field is copied out of V8 only when a
//! decision needs it, and a throwing getter or Proxy trap reads as "absent" instead of escaping
//! as an exception.

// napi-derive registers nothing in test builds.
#![cfg_attr(test, allow(dead_code))]

mod approval;
mod gates;
mod js_read;
mod sealing;
mod status;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use napi::bindgen_prelude::*;

use self::js_read::JsRead;
use crate::paths;
use crate::texts;

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
