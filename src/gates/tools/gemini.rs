//! Gemini CLI's tools (`@google/gemini-cli`, measured on 0.61): its `BeforeTool` hook passes the
//! model's arguments as they are (`tool_input`), under the names below; MCP tools are named
//! `mcp_<server>_<tool>`.

use super::{Action, Content, DispatchText, ToolArgs, mcp_action, read_only};

/// The filesystem MCP server's writers, which [`mcp_action`] knows by name.
const FILESYSTEM_TOOLS: &[&str] = &["write_file", "edit_file", "move_file", "create_directory"];

pub fn action(name: &str, args: &dyn ToolArgs) -> Option<Action> {
    let action = match name {
        "write_file" => Action::WriteFile { path_field: "file_path", content: Content::Field("content") },
        "replace" => Action::WriteFile { path_field: "file_path", content: Content::Field("new_string") },
        "run_shell_command" => Action::Shell { command_fields: &["command"], workdir_field: "dir_path" },
        "invoke_agent" => Action::DispatchEach { texts: &[DispatchText::Field("prompt")] },
        // `mcp__…` is the other hosts' spelling, judged by the caller.
        _ => match name.strip_prefix("mcp_").filter(|rest| !rest.starts_with('_')) {
            Some(rest) if read_only::mcp_tool_unsplit(rest, args) => Action::Unguarded,
            Some(rest) => mcp_action(mcp_tool(rest), args),
            None => return None,
        },
    };
    Some(action)
}

/// The tool part of `<server>_<tool>`: a server name may hold `_` too, so only the filesystem
/// writers are split off; any other name is judged by all its words.
fn mcp_tool(rest: &str) -> &str {
    FILESYSTEM_TOOLS
        .iter()
        .find(|tool| rest.strip_suffix(**tool).is_some_and(|server| server.ends_with('_')))
        .copied()
        .unwrap_or(rest)
}

#[cfg(test)]
mod tests {
    use super::mcp_tool;

    #[test]
    fn mcp_names_split_off_the_filesystem_writers_only() {
        assert_eq!(mcp_tool("filesystem_write_file"), "write_file");
        assert_eq!(mcp_tool("my_fs_edit_file"), "edit_file");
        assert_eq!(mcp_tool("notes_save_note"), "notes_save_note");
        assert_eq!(mcp_tool("xwrite_file"), "xwrite_file");
    }
}
