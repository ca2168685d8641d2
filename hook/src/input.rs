//! `check`'s stdin as the tool call the core judges: a DSH call `{name, arguments}`, a Claude
//! Code PreToolUse payload, or another host's tool hook payload in Claude Code's field names
//! ([`hook_payload`], for `codex` and `gemini`). Only the envelope is unwrapped; the core knows
//! every tool name.

use std::path::{Path, PathBuf};

use approval_gates::gates::ToolArgs;
use approval_gates::paths;
use approval_gates::texts::hook::InputProblem;
use serde_json::{Map, Value};

/// One tool call read from stdin.
#[derive(Debug)]
pub struct ToolCall {
    pub name: String,
    pub arguments: JsonArgs,
    /// The payload's `cwd`, when it carries one as a string.
    pub cwd: Option<String>,
}

/// A call's arguments; anything but an object has no fields.
#[derive(Debug)]
pub struct JsonArgs(pub Option<Map<String, Value>>);

impl ToolArgs for JsonArgs {
    fn string(&self, field: &str) -> Option<String> {
        self.0.as_ref()?.get(field)?.as_str().map(str::to_owned)
    }

    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>> {
        let elements = self.0.as_ref()?.get(array)?.as_array()?;
        Some(elements.iter().map(|element| element.get(field).and_then(Value::as_str).map(str::to_owned)).collect())
    }

    fn strings(&self, field: &str) -> Option<Vec<String>> {
        let elements = self.0.as_ref()?.get(field)?.as_array()?;
        elements.iter().map(|element| element.as_str().map(str::to_owned)).collect()
    }

    fn arguments_json(&self) -> Option<String> {
        serde_json::to_string(self.0.as_ref()?).ok()
    }

    fn json_text(&self, field: &str) -> Option<String> {
        match self.0.as_ref()?.get(field)? {
            Value::String(text) => Some(text.clone()),
            Value::Null => None,
            value => serde_json::to_string(value).ok(),
        }
    }
}

pub fn object(value: Option<Value>) -> Option<Map<String, Value>> {
    match value {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    }
}

pub fn tool_call(text: &str) -> Result<ToolCall, InputProblem> {
    let input: Value = serde_json::from_str(text).map_err(|error| InputProblem::NotJson(error.to_string()))?;
    let Value::Object(mut input) = input else {
        return Err(InputProblem::NotAnObject);
    };
    if let Some(Value::String(tool_name)) = input.remove("tool_name") {
        return claude_code(tool_name, input);
    }
    match input.remove("name") {
        Some(Value::String(name)) => {
            Ok(ToolCall { name, arguments: JsonArgs(object(input.remove("arguments"))), cwd: None })
        }
        _ => Err(InputProblem::NotAToolCall),
    }
}

fn claude_code(tool_name: String, mut payload: Map<String, Value>) -> Result<ToolCall, InputProblem> {
    match payload.remove("hook_event_name") {
        None => {}
        Some(Value::String(event)) if event == "PreToolUse" => {}
        Some(event) => return Err(InputProblem::OtherEvent(event.to_string())),
    }
    let cwd = match payload.remove("cwd") {
        Some(Value::String(cwd)) => Some(cwd),
        _ => None,
    };
    Ok(ToolCall { name: tool_name, arguments: JsonArgs(object(payload.remove("tool_input"))), cwd })
}

/// A payload that names its tool in `tool_name` with the arguments in `tool_input`, for the tool
/// hook `event` (Codex's and Gemini CLI's follow Claude Code's field names); a DSH call otherwise.
pub struct Payload {
    pub fields: Map<String, Value>,
}

pub fn hook_payload(text: &str, event: &'static str) -> Result<(ToolCall, Payload), InputProblem> {
    let input: Value = serde_json::from_str(text).map_err(|error| InputProblem::NotJson(error.to_string()))?;
    let Value::Object(mut fields) = input else {
        return Err(InputProblem::NotAnObject);
    };
    let call = match fields.remove("tool_name") {
        Some(Value::String(name)) => {
            match fields.remove("hook_event_name") {
                None => {}
                Some(Value::String(named)) if named == event => {}
                Some(other) => return Err(InputProblem::OtherHostEvent { event: other.to_string(), expected: event }),
            }
            let cwd = match fields.get("cwd") {
                Some(Value::String(cwd)) => Some(cwd.clone()),
                _ => None,
            };
            ToolCall { name, arguments: JsonArgs(object(fields.remove("tool_input"))), cwd }
        }
        _ => match fields.remove("name") {
            Some(Value::String(name)) => {
                ToolCall { name, arguments: JsonArgs(object(fields.remove("arguments"))), cwd: None }
            }
            _ => return Err(InputProblem::NotAToolCall),
        },
    };
    Ok((call, Payload { fields }))
}

/// The session directory: `--cwd`, else the payload's, else the process's, absolute and
/// normalized (what node's `path.resolve` makes of it).
pub fn session_dir(option: Option<&str>, payload: Option<&str>, process_cwd: &Path) -> PathBuf {
    paths::absolute(option.or(payload).unwrap_or(""), process_cwd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(text: &str) -> ToolCall {
        tool_call(text).expect("a tool call")
    }

    #[test]
    fn claude_code_payloads_keep_their_names_and_tool_input() {
        let payload = call(
            r#"{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a","content":"b"},"cwd":"/r"}"#,
        );
        assert_eq!(payload.name, "Write");
        assert_eq!(payload.arguments.string("file_path").as_deref(), Some("a"));
        assert_eq!(payload.cwd.as_deref(), Some("/r"));
        let no_event = call(r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#);
        assert_eq!((no_event.name.as_str(), no_event.cwd), ("Bash", None));
        let edits =
            call(r#"{"tool_name":"MultiEdit","tool_input":{"edits":[{"new_string":"x"},{"old_string":"y"},3]}}"#);
        assert_eq!(edits.arguments.strings_of("edits", "new_string"), Some(vec![Some("x".into()), None, None]));
        let workflow =
            call(r#"{"tool_name":"Workflow","tool_input":{"script":"s","args":{"task":["a/b.md"]},"n":null}}"#);
        assert_eq!(workflow.arguments.json_text("args").as_deref(), Some(r#"{"task":["a/b.md"]}"#));
        assert_eq!(workflow.arguments.json_text("script").as_deref(), Some("s"));
        assert_eq!(workflow.arguments.json_text("n"), None);
    }

    #[test]
    fn dsh_calls_and_odd_arguments() {
        let dsh = call(r#"{"name":"write","arguments":{"file_path":"x","content":7}}"#);
        assert_eq!(dsh.arguments.string("file_path").as_deref(), Some("x"));
        assert_eq!(dsh.arguments.string("content"), None);
        assert_eq!(call(r#"{"name":"write","arguments":[1]}"#).arguments.string("file_path"), None);
        assert_eq!(call(r#"{"tool_name":"Write","tool_input":null}"#).arguments.string("file_path"), None);
        // A payload without a string cwd has none; tool_name wins over name.
        assert_eq!(call(r#"{"tool_name":"Read","name":"write","cwd":3}"#).name, "Read");
    }

    #[test]
    fn input_that_is_not_a_tool_call_is_refused() {
        assert!(matches!(tool_call("garbage"), Err(InputProblem::NotJson(_))));
        assert!(matches!(tool_call(""), Err(InputProblem::NotJson(_))));
        assert_eq!(tool_call("[1]").err(), Some(InputProblem::NotAnObject));
        assert_eq!(tool_call(r#"{"arguments":{}}"#).err(), Some(InputProblem::NotAToolCall));
        assert_eq!(tool_call(r#"{"tool_name":3,"name":null}"#).err(), Some(InputProblem::NotAToolCall));
        assert_eq!(
            tool_call(r#"{"hook_event_name":"PostToolUse","tool_name":"Write"}"#).err(),
            Some(InputProblem::OtherEvent("\"PostToolUse\"".into()))
        );
        assert_eq!(
            tool_call(r#"{"hook_event_name":null,"tool_name":"Write"}"#).err(),
            Some(InputProblem::OtherEvent("null".into()))
        );
    }

    #[test]
    fn the_session_directory_resolves_like_path_resolve() {
        let here = Path::new("/proc/cwd");
        assert_eq!(session_dir(Some("sub/../x"), Some("/payload"), here), PathBuf::from("/proc/cwd/x"));
        assert_eq!(session_dir(None, Some("/payload/./a/"), here), PathBuf::from("/payload/a"));
        assert_eq!(session_dir(None, None, here), PathBuf::from("/proc/cwd"));
        assert_eq!(session_dir(Some(""), Some("/payload"), here), PathBuf::from("/proc/cwd"));
    }
}
