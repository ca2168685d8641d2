//! The tools known not to write the workspace, by name (docs/decisions.md#p-18): every other tool
//! the gates do not know is judged by every string it carries. A row is a tool name, or a name
//! ending in `*` for every tool it begins. A row here must be a tool that cannot write a local
//! file whatever its arguments say.

/// Tools a host calls by their own name.
const HOST_TOOLS: &[&str] = &[
    // DSH: reading and searching the workspace, questions to the owner, and the session's own
    // todo list. `request_approval` is an owner channel: the host writes approval.md after the
    // owner's answer (P-17).
    "read",
    "read_image",
    "ask_user_question",
    "grep",
    "glob",
    "ls",
    "todo_write",
    "request_approval",
    // Claude Code: reading, searching, the web, the session's task list and plan mode (held by
    // Claude Code itself, not in the workspace), questions to the owner, background shells' output.
    "Read",
    "Grep",
    "Glob",
    "LS",
    "LSP",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "TodoRead",
    "TaskCreate",
    "TaskUpdate",
    "TaskList",
    "TaskGet",
    "TaskOutput",
    "TaskStop",
    "BashOutput",
    "KillShell",
    "KillBash",
    "AskUserQuestion",
    "EnterPlanMode",
    "ExitPlanMode",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "NotebookRead",
    // A skill's instructions loaded into the session: what the session then does is tool calls
    // of its own, each judged.
    "Skill",
    // Codex: its plan (a todo list), images, the web, MCP resources, and its read tools.
    "update_plan",
    "view_image",
    "web_search",
    "list_mcp_resources",
    "list_mcp_resource_templates",
    "read_mcp_resource",
    "read_file",
    "list_dir",
    "grep_files",
    // Gemini CLI: its read tools, the web, its todo list; `save_memory` writes only Gemini's own
    // memory file in the user's folder, which no guarded location can be.
    "read_many_files",
    "list_directory",
    "search_file_content",
    "google_web_search",
    "web_fetch",
    "write_todos",
    "save_memory",
];

/// MCP tools of any server, by the tool's name.
const MCP_TOOLS: &[&str] = &[
    // Claude Code's IDE server: the editor's diagnostics of a file.
    "getDiagnostics",
    // The reference filesystem server's readers.
    "read_file",
    "read_text_file",
    "read_media_file",
    "read_multiple_files",
    "list_directory",
    "list_directory_with_sizes",
    "directory_tree",
    "search_files",
    "get_file_info",
    "list_allowed_directories",
    // serena's readers and its reflection tools (which take no path).
    "list_dir",
    "find_file",
    "search_for_pattern",
    "get_symbols_overview",
    "find_symbol",
    "find_referencing_symbols",
    "read_memory",
    "list_memories",
    "get_current_config",
    "check_onboarding_performed",
    "think_about_*",
    // JetBrains' IDE server: reading files, searching, the IDE's own state.
    "get_file_text_by_path",
    "find_files_by_name_keyword",
    "find_files_by_name_substring",
    "find_files_by_glob",
    "list_directory_tree",
    "list_directory_tree_in_folder",
    "search_in_files_by_text",
    "search_in_files_by_regex",
    "search_in_files_content",
    "get_all_open_file_paths",
    "get_open_in_editor_file_text",
    "get_selected_in_editor_text",
    "get_file_problems",
    "get_project_problems",
    "get_symbol_info",
    "get_project_modules",
    "get_project_dependencies",
    "get_run_configurations",
    // desktop-commander's readers and searches (`start_process` runs a command: a shell).
    "search_code",
    "start_search",
    "get_more_search_results",
    "list_searches",
    "list_processes",
    "list_sessions",
    "read_process_output",
    "get_config",
    "get_usage_stats",
];

/// MCP tools of a server whose name holds one of these words: a code host's remote. They write
/// the remote's pull requests, issues and comments, never a local file, so prose there that
/// mentions approval.md or a plan (a PR description) writes nothing the gates guard. Their tools
/// that change the remote's files (`create_or_update_file`, `push_files`, `delete_file`) are not
/// here: a `git pull` would bring those files home.
const REMOTE_SERVERS: &[&str] = &["github", "gitlab"];
const REMOTE_TOOLS: &[&str] = &[
    "create_pull_request",
    "update_pull_request",
    "create_merge_request",
    "update_merge_request",
    "create_issue",
    "update_issue",
    "add_issue_comment",
    "add_comment_to_pending_review",
    "create_pending_pull_request_review",
    "submit_pending_pull_request_review",
    "create_and_submit_pull_request_review",
    "create_note",
    "create_issue_note",
    "create_merge_request_note",
    "create_merge_request_thread",
    "get_*",
    "list_*",
    "search_*",
];

/// Whether a host tool `name` (no MCP prefix) is known not to write.
pub fn host_tool(name: &str) -> bool {
    HOST_TOOLS.iter().any(|row| matches(row, name))
}

/// Whether MCP tool `tool` of server `server` is known not to write locally.
pub fn mcp_tool(server: &str, tool: &str) -> bool {
    let remote = || {
        let server = server.to_ascii_lowercase();
        REMOTE_SERVERS.iter().any(|word| server.contains(word)) && REMOTE_TOOLS.iter().any(|row| matches(row, tool))
    };
    MCP_TOOLS.iter().any(|row| matches(row, tool)) || remote()
}

/// Gemini CLI's `<server>_<tool>`, where either may hold `_`: known when any split is.
pub fn mcp_tool_unsplit(rest: &str) -> bool {
    rest.match_indices('_').any(|(at, _)| mcp_tool(&rest[..at], &rest[at + 1..]))
}

fn matches(row: &str, name: &str) -> bool {
    match row.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => row == name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_match_names_and_prefixes() {
        assert!(host_tool("Read") && host_tool("todo_write") && !host_tool("read_write"));
        assert!(mcp_tool("serena", "find_symbol") && mcp_tool("s", "think_about_task_adherence"));
        assert!(mcp_tool("github", "create_pull_request") && mcp_tool("GitHub-Enterprise", "get_issue"));
        assert!(!mcp_tool("notes", "create_pull_request") && !mcp_tool("github", "create_or_update_file"));
        assert!(!mcp_tool("github", "push_files") && !mcp_tool("serena", "create_text_file"));
        assert!(mcp_tool_unsplit("my_github_create_issue") && mcp_tool_unsplit("fs_read_text_file"));
        assert!(!mcp_tool_unsplit("fs_write_file") && !mcp_tool_unsplit("read_text_file"));
    }
}
