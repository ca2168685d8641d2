#![no_main]
//! The gate entry with arbitrary JSON tool calls: no panic, and every denial carries the prefix.
use std::path::PathBuf;

use approval_gates::gates::{ToolArgs, check_tool_call};
use approval_gates::texts::DENIAL_PREFIX;
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

struct JsonArgs<'a>(&'a Value);

impl ToolArgs for JsonArgs<'_> {
    fn string(&self, field: &str) -> Option<String> {
        self.0.get(field)?.as_str().map(str::to_string)
    }
    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>> {
        let elements = self.0.get(array)?.as_array()?;
        Some(elements.iter().map(|e| e.get(field).and_then(Value::as_str).map(str::to_string)).collect())
    }
}

fuzz_target!(|bytes: &[u8]| within_time_limit(|| {
    let Ok(call) = serde_json::from_slice::<Value>(bytes) else { return };
    let Some(name) = call.get("name").and_then(Value::as_str) else { return };
    let args = call.get("arguments").cloned().unwrap_or(Value::Null);
    if let Some(denial) = check_tool_call(name, &JsonArgs(&args), || PathBuf::from("/nonexistent/fuzz-repo")) {
        assert!(denial.to_string().starts_with(DENIAL_PREFIX));
    }
}));
