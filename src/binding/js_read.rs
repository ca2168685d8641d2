//! Reading JS values through raw N-API: a field is copied out of V8 only when it is read, and a
//! read that fails (wrong type, throwing getter, Proxy trap) is `None`.

use std::cell::OnceCell;
use std::ptr;

use napi::bindgen_prelude::*;
use napi::sys;

use crate::gates::ToolArgs;

/// A JS value seen through N-API; every read that fails (wrong type, throwing getter) is `None`.
#[derive(Clone, Copy)]
pub(super) struct JsRead {
    env: sys::napi_env,
    value: sys::napi_value,
}

impl JsRead {
    pub(super) fn new(env: &Env, value: &Unknown) -> Self {
        JsRead { env: env.raw(), value: value.raw() }
    }

    pub(super) fn kind(&self) -> Option<sys::napi_valuetype> {
        let mut kind = 0;
        let status = unsafe { sys::napi_typeof(self.env, self.value, &mut kind) };
        (status == sys::Status::napi_ok).then_some(kind)
    }

    pub(super) fn is_object(&self) -> bool {
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

    pub(super) fn property(&self, name: &str) -> Option<JsRead> {
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

    pub(super) fn string(&self) -> Option<String> {
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
    pub(super) fn json_text(&self) -> Option<String> {
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

    pub(super) fn elements(&self) -> Option<Vec<JsRead>> {
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
pub(super) struct JsToolArgs {
    pub(super) call: JsRead,
    pub(super) arguments: OnceCell<Option<JsRead>>,
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

    fn arguments_json(&self) -> Option<String> {
        let arguments = self.arguments()?;
        // A bare string is its own text; quoted, it reads as the one string it is.
        match arguments.kind()? {
            sys::ValueType::napi_string => {
                arguments.string().map(|text| format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")))
            }
            _ => arguments.json_text(),
        }
    }
}
