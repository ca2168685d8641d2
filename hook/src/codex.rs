//! Codex CLI's `PreToolUse` payload (`@openai/codex` ≥ 0.124; measured on 0.171): Claude Code's
//! field names (`tool_name`, `tool_input`, `cwd`), plus `transcript_path` and `tool_use_id`. A
//! shell call arrives as `Bash` with `tool_input: {command}` only: the `workdir` the model gave
//! `exec_command` (or `shell`) is not in it, though the command runs there. The session's
//! transcript, which Codex writes before it runs the hook, holds the call as the model made it;
//! the workdir is taken from there, so `{cmd: "echo x > p.md", workdir: "docs/superpowers/plans"}`
//! is judged where it writes.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use serde_json::Value;

use approval_gates::texts::hook::InputProblem;

use crate::input::{self, Payload, ToolCall};

/// How much of the transcript's end is read to find the call (the call is its last lines).
const TRANSCRIPT_TAIL: u64 = 4 << 20;

/// The tool call of a Codex `PreToolUse` payload, a shell call with the workdir it runs in.
pub fn tool_call(text: &str) -> Result<ToolCall, InputProblem> {
    input::hook_payload(text, "PreToolUse").map(with_workdir)
}

fn with_workdir((mut call, payload): (ToolCall, Payload)) -> ToolCall {
    if call.name != "Bash" {
        return call;
    }
    let Some(arguments) = call.arguments.0.as_mut() else {
        return call;
    };
    if arguments.contains_key("workdir") {
        return call;
    }
    let field = |name: &str| payload.fields.get(name).and_then(Value::as_str);
    if let (Some(transcript), Some(call_id)) = (field("transcript_path"), field("tool_use_id"))
        && let Some(workdir) = transcript_workdir(transcript, call_id)
    {
        arguments.insert("workdir".into(), Value::String(workdir));
    }
    call
}

/// The `workdir` of function call `call_id` in a Codex transcript (JSON lines, each
/// `{type: "response_item", payload: {type: "function_call", call_id, arguments: "<JSON>"}}`).
fn transcript_workdir(path: &str, call_id: &str) -> Option<String> {
    let mut file = File::open(path).ok()?;
    let length = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(TRANSCRIPT_TAIL))).ok()?;
    let mut tail = Vec::new();
    file.take(TRANSCRIPT_TAIL).read_to_end(&mut tail).ok()?;
    let needle = format!("\"call_id\":{}", Value::String(call_id.to_owned()));
    String::from_utf8_lossy(&tail)
        .lines()
        .rev()
        .filter(|line| line.contains(&needle) && line.contains("\"function_call\""))
        .find_map(|line| {
            let item: Value = serde_json::from_str(line).ok()?;
            let payload = item.get("payload")?;
            if payload.get("type")?.as_str()? != "function_call" || payload.get("call_id")?.as_str()? != call_id {
                return None;
            }
            let arguments: Value = serde_json::from_str(payload.get("arguments")?.as_str()?).ok()?;
            arguments.get("workdir")?.as_str().filter(|workdir| !workdir.is_empty()).map(str::to_owned)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approval_gates::gates::ToolArgs;

    fn transcript(lines: &[Value]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().expect("temp file");
        for line in lines {
            std::io::Write::write_all(&mut file, format!("{line}\n").as_bytes()).expect("write");
        }
        file
    }

    fn function_call(call_id: &str, arguments: Value) -> Value {
        serde_json::json!({"type": "response_item", "payload": {
            "type": "function_call", "name": "exec_command", "call_id": call_id, "arguments": arguments.to_string()
        }})
    }

    fn payload(transcript: &str, call_id: &str, tool_input: Value) -> String {
        serde_json::json!({
            "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input,
            "cwd": "/r", "transcript_path": transcript, "tool_use_id": call_id,
        })
        .to_string()
    }

    #[test]
    fn the_workdir_comes_from_the_transcript() {
        let file = transcript(&[
            function_call("call_1", serde_json::json!({"cmd": "ls", "workdir": "elsewhere"})),
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_2"}}),
            function_call("call_2", serde_json::json!({"cmd": "echo x > p.md", "workdir": "docs/superpowers/plans"})),
        ]);
        let path = file.path().to_str().expect("UTF-8 path");
        let call = tool_call(&payload(path, "call_2", serde_json::json!({"command": "echo x > p.md"})));
        assert_eq!(call.expect("a call").arguments.string("workdir").as_deref(), Some("docs/superpowers/plans"));
        // No such call, no transcript, or a workdir already given: nothing added or changed.
        let missing = tool_call(&payload(path, "call_9", serde_json::json!({"command": "ls"})));
        assert_eq!(missing.expect("a call").arguments.string("workdir"), None);
        let gone = tool_call(&payload("/nonexistent/t.jsonl", "call_2", serde_json::json!({"command": "ls"})));
        assert_eq!(gone.expect("a call").arguments.string("workdir"), None);
        let given = tool_call(&payload(path, "call_2", serde_json::json!({"command": "ls", "workdir": "w"})));
        assert_eq!(given.expect("a call").arguments.string("workdir").as_deref(), Some("w"));
    }
}
