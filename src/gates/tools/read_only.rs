//! The tools known not to write the workspace, by name (docs/decisions.md#p-18): every other tool
//! the gates do not know is judged by every string it carries. A row is a tool name, or a name
//! ending in `*` for every tool it begins. A row here must be a tool that cannot write a local
//! file whatever its arguments say. Rows match a tool of any server, so a name another server
//! could give a writer is listed with the words its server's name holds ([`SERVER_TOOLS`]).

use super::ToolArgs;
use super::strings::json_strings;

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
    // A skill's or a slash command's instructions loaded into the session (`SlashCommand` is
    // the older name): what the session then does is tool calls of its own, each judged; a
    // command its owner keeps from the model (`disable-model-invocation`, `/approve`) Claude
    // Code refuses to run.
    "Skill",
    "SlashCommand",
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
    // Thinking, search and documentation services: a query out, text back.
    "sequentialthinking",
    "resolve-library-id",
    "get-library-docs",
    "brave_web_search",
    "brave_local_search",
    "brave_image_search",
    "brave_video_search",
    "brave_news_search",
    "brave_summarizer",
    "web_search_exa",
    "crawling_exa",
    "get_code_context_exa",
    "company_research_exa",
    "linkedin_search_exa",
    "deep_search_exa",
    "tavily-search",
    "tavily-extract",
    "tavily-crawl",
    "tavily-map",
    "tavily_search",
    "tavily_extract",
    "tavily_crawl",
    "tavily_map",
    "perplexity_ask",
    "perplexity_research",
    "perplexity_reason",
    "perplexity_search",
    "ref_search_documentation",
    "ref_read_url",
    "read_wiki_structure",
    "read_wiki_contents",
    "firecrawl_scrape",
    "firecrawl_search",
    "firecrawl_map",
    "firecrawl_crawl",
    "firecrawl_check_crawl_status",
    "firecrawl_extract",
    "searchGitHub",
    // Chat and notes whose writes are remote: a message, a page.
    "slack_list_channels",
    "slack_post_message",
    "slack_reply_to_thread",
    "slack_add_reaction",
    "slack_get_channel_history",
    "slack_get_thread_replies",
    "slack_get_users",
    "slack_get_user_profile",
    "notion-*",
    // A browser's navigation and page tools (Playwright's): the page is not a local file. Its
    // screenshot and PDF tools take a filename, `browser_run_code` runs code in the server, and
    // puppeteer's `puppeteer_navigate` takes launch options that start any executable: not here.
    "browser_navigate",
    "browser_navigate_back",
    "browser_navigate_forward",
    "browser_snapshot",
    "browser_click",
    "browser_hover",
    "browser_type",
    "browser_press_key",
    "browser_select_option",
    "browser_wait_for",
    "browser_tabs",
    "browser_close",
    "browser_resize",
    "browser_console_messages",
    "browser_network_requests",
    "browser_handle_dialog",
];

/// MCP tools known by their server too: a name another server could give a writer (`search`,
/// `fetch`, `create_issue`) passes only on a server whose name holds one of these words.
const SERVER_TOOLS: &[(&[&str], &[&str])] = &[
    (&["github", "gitlab"], CODE_HOST_TOOLS),
    (&["linear", "sentry", "jira", "atlassian", "confluence"], TRACKER_TOOLS),
    // The reference memory server writes only its own memory file, which the user configures.
    (
        &["memory"],
        &[
            "create_entities",
            "create_relations",
            "add_observations",
            "delete_entities",
            "delete_observations",
            "delete_relations",
            "read_graph",
            "search_nodes",
            "open_nodes",
        ],
    ),
    // Search and documentation services: they send a query and return text.
    (&["perplexity"], &["search", "ask", "research", "reason"]),
    (&["context7"], &["query-docs"]),
    (&["deepwiki"], &["ask_question"]),
    // The reference fetch server returns the page it fetched.
    (&["fetch"], &["fetch"]),
];

/// A code host's remote: its pull requests, issues and comments, never a local file, so prose
/// there that mentions approval.md or a plan (a PR description) writes nothing the gates guard.
/// Its tools that change the remote's files (`create_or_update_file`, `push_files`,
/// `delete_file`) are not here: a `git pull` would bring those files home.
const CODE_HOST_TOOLS: &[&str] = &[
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

/// An issue tracker's or error tracker's remote (Linear, Sentry, Jira, Confluence): issues,
/// pages and comments, in either naming its servers use. Attachment downloads are not here.
const TRACKER_TOOLS: &[&str] = &[
    "create_issue",
    "update_issue",
    "create_comment",
    "add_comment",
    "get*",
    "list*",
    "search*",
    "find_*",
    "whoami",
    "createJiraIssue",
    "editJiraIssue",
    "addCommentToJiraIssue",
    "transitionJiraIssue",
    "createConfluencePage",
    "updateConfluencePage",
    "createConfluenceFooterComment",
    "createConfluenceInlineComment",
    "lookupJiraAccountId",
    "atlassianUserInfo",
    "jira_get_*",
    "jira_search",
    "jira_create_issue",
    "jira_update_issue",
    "jira_add_comment",
    "jira_transition_issue",
    "confluence_get_*",
    "confluence_search",
    "confluence_create_page",
    "confluence_update_page",
    "confluence_add_comment",
];

/// MCP tools that hand their strings to a command line as its arguments (a git or ripgrep
/// server): read-only only while no string could be an option, since one can make them write
/// (`git diff --output=FILE`, `rg --pre=CMD`). The reference git server's `git_reset` only
/// unstages, but other servers' take `--hard`; `git_checkout` writes the working tree.
const ARGUMENT_TOOLS: &[(&[&str], &[&str])] = &[
    (
        &[],
        &[
            "git_status",
            "git_diff",
            "git_diff_staged",
            "git_diff_unstaged",
            "git_log",
            "git_show",
            "git_add",
            "git_commit",
            "git_create_branch",
            "git_branch",
        ],
    ),
    (&["ripgrep"], &["search", "count-matches", "list-files", "list-file-types"]),
];

/// Whether a host tool `name` (no MCP prefix) is known not to write.
pub fn host_tool(name: &str) -> bool {
    HOST_TOOLS.iter().any(|row| matches(row, name))
}

/// Whether MCP tool `tool` of server `server`, called with `args`, is known not to write locally.
pub fn mcp_tool(server: &str, tool: &str, args: &dyn ToolArgs) -> bool {
    let server = server.to_ascii_lowercase();
    let listed = |table: &[(&[&str], &[&str])]| {
        table.iter().any(|(words, tools)| {
            (words.is_empty() || words.iter().any(|word| server.contains(word)))
                && tools.iter().any(|row| matches(row, tool))
        })
    };
    MCP_TOOLS.iter().any(|row| matches(row, tool))
        || listed(SERVER_TOOLS)
        || (listed(ARGUMENT_TOOLS) && no_option(args))
}

/// Gemini CLI's `<server>_<tool>`, where either may hold `_`: known when any split is.
pub fn mcp_tool_unsplit(rest: &str, args: &dyn ToolArgs) -> bool {
    rest.match_indices('_').any(|(at, _)| mcp_tool(&rest[..at], &rest[at + 1..], args))
}

/// No string of the arguments begins with `-`; unreadable arguments may hold one.
fn no_option(args: &dyn ToolArgs) -> bool {
    args.arguments_json().is_some_and(|json| json_strings(&json).iter().all(|text| !text.trim_start().starts_with('-')))
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
    use crate::gates::test_json::Json;
    use serde_json::json;

    #[test]
    fn rows_match_names_and_prefixes() {
        let none = Json(json!({}));
        let mcp = |server, tool| mcp_tool(server, tool, &none);
        assert!(host_tool("Read") && host_tool("todo_write") && !host_tool("read_write"));
        assert!(host_tool("SlashCommand") && !host_tool("slashcommand"));
        assert!(mcp("serena", "find_symbol") && mcp("s", "think_about_task_adherence"));
        assert!(mcp("github", "create_pull_request") && mcp("GitHub-Enterprise", "get_issue"));
        assert!(!mcp("notes", "create_pull_request") && !mcp("github", "create_or_update_file"));
        assert!(!mcp("github", "push_files") && !mcp("serena", "create_text_file"));
        assert!(mcp_tool_unsplit("my_github_create_issue", &none) && mcp_tool_unsplit("fs_read_text_file", &none));
        assert!(!mcp_tool_unsplit("fs_write_file", &none) && !mcp_tool_unsplit("read_text_file", &none));
    }

    #[test]
    fn generic_names_pass_only_on_their_server() {
        let none = Json(json!({}));
        let mcp = |server, tool| mcp_tool(server, tool, &none);
        assert!(mcp("perplexity", "search") && mcp("fetch", "fetch") && mcp("memory", "create_entities"));
        assert!(!mcp("files", "search") && !mcp("downloader", "fetch") && !mcp("notes", "create_entities"));
        assert!(
            mcp("atlassian", "createJiraIssue") && mcp("linear", "create_comment") && mcp("jira", "jira_get_issue")
        );
        assert!(!mcp("atlassian", "jira_download_attachments") && !mcp("files", "create_comment"));
        assert!(mcp("x", "sequentialthinking") && mcp("x", "notion-search") && mcp("x", "browser_navigate"));
        assert!(!mcp("x", "browser_take_screenshot") && !mcp("x", "browser_run_code"));
        assert!(!mcp("x", "puppeteer_navigate") && !mcp("serena", "write_memory") && !mcp("git", "git_checkout"));
        assert!(mcp_tool_unsplit("my_memory_open_nodes", &none) && !mcp_tool_unsplit("my_notes_open_nodes", &none));
    }

    #[test]
    fn a_tool_handing_its_strings_to_a_command_line_passes_only_without_an_option() {
        let plain = Json(json!({"repo_path": "/r", "target": "HEAD~1", "files": ["docs/superpowers/plans/p.md"]}));
        let option = Json(json!({"repo_path": "/r", "target": "--output=docs/superpowers/plans/p.md"}));
        let nested = Json(json!({"files": ["a", " -o"]}));
        assert!(mcp_tool("git", "git_diff", &plain) && mcp_tool("any", "git_log", &plain));
        assert!(!mcp_tool("git", "git_diff", &option) && !mcp_tool("git", "git_add", &nested));
        assert!(mcp_tool("ripgrep", "search", &plain) && !mcp_tool("ripgrep", "search", &option));
        assert!(!mcp_tool("files", "search", &plain) && !mcp_tool("git", "git_reset", &plain));
        struct Unreadable;
        impl ToolArgs for Unreadable {
            fn string(&self, _: &str) -> Option<String> {
                None
            }
            fn strings_of(&self, _: &str, _: &str) -> Option<Vec<Option<String>>> {
                None
            }
        }
        assert!(!mcp_tool("git", "git_status", &Unreadable));
    }
}
