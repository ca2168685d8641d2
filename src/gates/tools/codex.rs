//! Codex CLI's tools (`@openai/codex`, measured on 0.171). Its `PreToolUse` hook names a shell
//! call `Bash` with `tool_input: {command}` (a string; Claude Code's row judges it) and a patch
//! `apply_patch` with `tool_input: {command: <patch>}` (the DSH row); MCP tools keep
//! `mcp__<server>__<tool>`. The rows here are Codex's own names: its raw function calls, for a
//! harness that passes them as they are, and the tools that start more work.

use super::{Action, DispatchText};

/// Codex's shell tools as the model calls them: `exec_command {cmd, workdir}` (unified exec),
/// `shell {command: argv, workdir}`, `shell_command {command, workdir}`, and the older
/// `container.exec {cmd: argv, workdir}`.
const SHELL_COMMANDS: &[&str] = &["cmd", "command"];
/// `spawn_agent` and `send_input` carry their task in `message` or in `items[].text`.
const AGENT_TEXTS: &[DispatchText] = &[
    DispatchText::Field("message"),
    DispatchText::Field("prompt"),
    DispatchText::Field("task"),
    DispatchText::Items("items", "text"),
];

pub fn action(name: &str) -> Option<Action> {
    let action = match name {
        "exec_command" | "shell" | "shell_command" | "local_shell" | "container.exec" => {
            Action::Shell { command_fields: SHELL_COMMANDS, workdir_field: "workdir" }
        }
        "create_goal" => Action::DispatchEach { texts: &[DispatchText::Field("objective")] },
        // Namespaced tools reach the hook as `<namespace><tool>` (`multi_agent_v1send_input`),
        // the spawn as `spawn_agent`.
        _ if name.ends_with("spawn_agent") || name.ends_with("send_input") => {
            Action::DispatchEach { texts: AGENT_TEXTS }
        }
        _ => return None,
    };
    Some(action)
}
