//! Gemini CLI's `BeforeTool` payload (`@google/gemini-cli`, measured on 0.61): `tool_name`,
//! `tool_input` (the model's arguments as they are) and `cwd`, read by
//! [`crate::input::hook_payload`]. A denial is exit 2 with the reason on stderr, which Gemini CLI
//! sends the model as the tool's error; with `--json`, the same as a `{decision, reason}` object
//! on stdout.

use approval_gates::texts::hook::InputProblem;
use serde_json::Value;

use crate::input::{self, ToolCall};

/// The tool call of a Gemini CLI `BeforeTool` payload.
pub fn tool_call(text: &str) -> Result<ToolCall, InputProblem> {
    input::hook_payload(text, "BeforeTool").map(|(call, _)| call)
}

pub fn denial(reason: &str) -> Value {
    serde_json::json!({ "decision": "deny", "reason": reason })
}
