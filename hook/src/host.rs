//! The hosts whose hook payloads `check --host` reads, and the form each shows the model a denial
//! in. Each host's envelope is a module of its own (`input` for Claude Code and DSH calls,
//! `codex`, `gemini`).

use crate::input::{self, ToolCall};
use crate::{codex, gemini};
use approval_gates::texts::hook::{ArgumentProblem, InputProblem};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    #[default]
    ClaudeCode,
    Codex,
    Gemini,
}

impl Host {
    pub fn named(name: &str) -> Result<Host, ArgumentProblem> {
        match name {
            "claude-code" | "claude" => Ok(Host::ClaudeCode),
            "codex" => Ok(Host::Codex),
            "gemini" => Ok(Host::Gemini),
            _ => Err(ArgumentProblem::UnknownHost(name.to_owned())),
        }
    }

    /// The tool call of a payload on stdin. A DSH-shaped `{name, arguments}` is read for every host.
    pub fn tool_call(self, text: &str) -> Result<ToolCall, InputProblem> {
        match self {
            Host::ClaudeCode => input::tool_call(text),
            Host::Codex => codex::tool_call(text),
            Host::Gemini => gemini::tool_call(text),
        }
    }

    /// What `--json` prints for a denial.
    pub fn json_denial(self, reason: &str) -> String {
        let decision = match self {
            Host::ClaudeCode | Host::Codex => serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                }
            }),
            Host::Gemini => gemini::denial(reason),
        };
        format!("{decision}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approval_gates::gates::ToolArgs;
    use serde_json::Value;

    #[test]
    fn hosts_by_name() {
        assert_eq!(Host::named("codex"), Ok(Host::Codex));
        assert_eq!(Host::named("gemini"), Ok(Host::Gemini));
        assert_eq!(Host::named("claude-code"), Ok(Host::ClaudeCode));
        assert_eq!(Host::named("Codex"), Err(ArgumentProblem::UnknownHost("Codex".into())));
    }

    #[test]
    fn each_host_reads_its_own_event_only() {
        let gemini =
            r#"{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a"},"cwd":"/r"}"#;
        let call = Host::Gemini.tool_call(gemini).expect("a call");
        assert_eq!((call.name.as_str(), call.cwd.as_deref()), ("write_file", Some("/r")));
        assert_eq!(call.arguments.string("file_path").as_deref(), Some("a"));
        assert_eq!(
            Host::Codex.tool_call(gemini).err(),
            Some(InputProblem::OtherHostEvent { event: "\"BeforeTool\"".into(), expected: "PreToolUse" })
        );
        let agent = r#"{"hook_event_name":"BeforeAgent","tool_name":"x"}"#;
        assert!(matches!(Host::Gemini.tool_call(agent), Err(InputProblem::OtherHostEvent { .. })));
        assert_eq!(
            Host::Gemini.tool_call(r#"{"name":"write","arguments":{}}"#).map(|c| c.name).ok(),
            Some("write".into())
        );
        assert_eq!(Host::Codex.tool_call("[]").err(), Some(InputProblem::NotAnObject));
        assert_eq!(Host::Codex.tool_call(r#"{"tool_name":1}"#).err(), Some(InputProblem::NotAToolCall));
    }

    #[test]
    fn json_denials_in_each_hosts_form() {
        let reason = "BLOCKED [approval-gates]: \"x\"";
        let codex: Value = serde_json::from_str(&Host::Codex.json_denial(reason)).expect("JSON");
        assert_eq!(codex["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(codex["hookSpecificOutput"]["permissionDecisionReason"], reason);
        let gemini: Value = serde_json::from_str(&Host::Gemini.json_denial(reason)).expect("JSON");
        assert_eq!(gemini, serde_json::json!({"decision": "deny", "reason": reason}));
    }
}
