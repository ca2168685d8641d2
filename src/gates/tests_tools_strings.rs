//! Tools the gates do not know by name are judged by every string they carry, at any depth;
//! read-only tools (a table) and remote-only tools stay allowed; dispatches are judged by gate B
//! in every spelling of a plan reference (docs/decisions.md#p-18). Both directions.

use serde_json::{Value, json};

use super::test_json::Json;
use super::*;
use crate::approval::ledger::location;
use crate::test_repo::Repo;

fn check(repo: &Repo, name: &str, args: Value) -> Option<String> {
    check_tool_call(name, &Json(args), || repo.root.clone()).map(|denial| denial.to_string())
}

const APPROVAL: &str = "openspec/changes/c/approval.md";
const PLAN: &str = "docs/superpowers/plans/p.md";
const GATE_C: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";
const NEEDS_SPEC: &str = "BLOCKED [approval-gates]: plan must carry **Spec:** pointing to openspec/changes/<id>";
const DESIGN_C: &str = "BLOCKED [approval-gates]: design not approved; run /approve c design";
const PLAN_C: &str = "BLOCKED [approval-gates]: plan not approved; run /approve c plan";

/// A change `c` whose design is not approved yet, with plan `p` written.
fn repo() -> Repo {
    let repo = Repo::new();
    repo.change("c").plan("p", "c");
    repo
}

#[test]
fn unknown_tools_write_every_guarded_location_a_string_names() {
    let repo = repo();
    let windows = repo.root.join(APPROVAL).display().to_string().replace('/', "\\");
    let uri = format!("file://{}", repo.root.join(APPROVAL).display());
    let refused = [
        ("mcp__serena__create_text_file", json!({"relative_path": APPROVAL, "content": "x"}), GATE_C),
        ("mcp__serena__create_text_file", json!({"relative_path": PLAN, "content": "# no spec"}), NEEDS_SPEC),
        ("mcp__serena__create_text_file", json!({"relative_path": PLAN, "content": Repo::plan_text("c")}), DESIGN_C),
        ("mcp__serena__replace_regex", json!({"relative_path": APPROVAL, "regex": "a", "repl": "b"}), GATE_C),
        ("mcp__jetbrains__create_new_file_with_text", json!({"pathInProject": APPROVAL, "text": "x"}), GATE_C),
        (
            "mcp__jetbrains__replace_specific_text",
            json!({"pathInProject": PLAN, "oldText": "a", "newText": "b"}),
            NEEDS_SPEC,
        ),
        ("mcp__desktop-commander__start_process", json!({"command": format!("echo x > {APPROVAL}")}), GATE_C),
        (
            "mcp__desktop-commander__interact_with_process",
            json!({"pid": 1, "input": format!("open('{APPROVAL}','w')")}),
            GATE_C,
        ),
        ("mcp__ide__open", json!({"file_uri": uri}), GATE_C),
        ("mcp__ide__open", json!({"uri": uri.replace("approval.md", "approval%2Emd")}), GATE_C),
        ("mcp__x__save", json!({"target": windows}), GATE_C),
        ("mcp__x__save", json!({"target": r"C:\repo\openspec\changes\c\approval.md"}), GATE_C),
        ("mcp__x__save", json!({"target": r"openspec\changes\c\approval.md"}), GATE_C),
        ("mcp__x__batch", json!({"ops": [{"op": "w", "at": {"where": [APPROVAL]}}]}), GATE_C),
        ("mcp__x__batch", json!({"files": {APPROVAL: "design: ok"}}), GATE_C),
        ("mcp__x__batch", json!({"n": 3, "files": [[PLAN]]}), NEEDS_SPEC),
        ("mcp__x__sync", json!({"dir": "docs/superpowers/plans"}), NEEDS_SPEC),
        ("mcp__x__note", json!({"text": "docs/superpowers/plans/*.md"}), NEEDS_SPEC),
        ("mcp__x__ledger", json!({"at": ".superpowers/sdd/p/progress.md"}), PLAN_C),
        // Host tools no table knows, in any host's spelling.
        ("str_replace_based_edit_tool", json!({"command": "create", "path": APPROVAL, "file_text": "x"}), GATE_C),
        ("mcp_serena_create_text_file", json!({"relative_path": APPROVAL, "content": "x"}), GATE_C),
        // A runner by name: its command as bash, every other string as any unknown tool's.
        ("mcp__shell__run_command", json!({"command": "ls", "cwd": "docs/superpowers/plans"}), NEEDS_SPEC),
        // A code host's tool that changes the remote's files comes home with a pull.
        ("mcp__github__create_or_update_file", json!({"path": APPROVAL, "content": "x", "message": "m"}), GATE_C),
        ("mcp__github__push_files", json!({"files": [{"path": APPROVAL, "content": "x"}]}), GATE_C),
        // Remote-only names from a server that is no code host are unknown tools.
        ("mcp__notes__create_pull_request", json!({"body": format!("touches {APPROVAL}")}), GATE_C),
    ];
    for (tool, args, denial) in refused {
        assert_eq!(check(&repo, tool, args.clone()).as_deref(), Some(denial), "{tool} {args}");
    }
}

#[test]
fn unknown_tools_pass_when_their_strings_name_nothing_guarded_or_the_gate_allows_the_write() {
    let repo = repo();
    repo.approve_design("c");
    let allowed = [
        ("mcp__serena__create_text_file", json!({"relative_path": PLAN, "content": Repo::plan_text("c")})),
        ("mcp__serena__create_text_file", json!({"relative_path": "src/a.rs", "content": "fn main() {}"})),
        (
            "mcp__jetbrains__create_new_file_with_text",
            json!({"pathInProject": "docs/superpowers/specs/x.md", "text": "x"}),
        ),
        ("mcp__desktop-commander__start_process", json!({"command": format!("cat {APPROVAL}")})),
        ("mcp__weather__forecast", json!({"city": "Oslo", "days": [1, 2]})),
        ("mcp__x__batch", json!({"files": {"openspec/changes/c/design.md": "x"}})),
        ("mcp__anything__whatever", json!({})),
        ("no_such_tool", json!({"note": "plans are approved by the owner"})),
    ];
    for (tool, args) in allowed {
        assert_eq!(check(&repo, tool, args.clone()), None, "{tool} {args}");
    }
}

#[test]
fn an_unknown_tool_naming_the_ledger_is_refused_with_the_ledger_text() {
    let repo = Repo::new();
    let folder = repo.path("state/approval-gates");
    location::with_folder(Some(&folder), || {
        let named = json!({"dir": format!("{}/repos", folder.display())});
        assert_eq!(
            check(&repo, "mcp__x__sync", named).as_deref(),
            Some("BLOCKED [approval-gates]: the approval ledger is written only by /approve")
        );
        assert_eq!(check(&repo, "mcp__x__sync", json!({"dir": repo.path("state/other").display().to_string()})), None);
    });
}

#[test]
fn read_only_tools_and_remote_only_tools_stay_allowed() {
    let repo = repo();
    let allowed = [
        ("Read", json!({"file_path": APPROVAL})),
        ("Grep", json!({"pattern": "Spec", "path": PLAN})),
        ("Glob", json!({"pattern": "openspec/changes/*/approval.md"})),
        ("LS", json!({"path": "docs/superpowers/plans"})),
        ("WebFetch", json!({"url": "https://example.com/approval.md", "prompt": "read it"})),
        ("TodoWrite", json!({"todos": [{"content": format!("implement {PLAN}"), "status": "pending"}]})),
        ("Skill", json!({"skill": "superpowers:writing-plans", "args": format!("revise {PLAN}")})),
        ("ExitPlanMode", json!({"plan": format!("1. write {PLAN}\n2. ask for approval.md")})),
        ("todo_write", json!({"todos": [{"content": format!("approve {APPROVAL}")}]})),
        ("read", json!({"file_path": APPROVAL})),
        ("ls", json!({"path": ".superpowers/sdd/p"})),
        ("request_approval", json!({"change_id": "c", "kind": "design"})),
        ("ask_user_question", json!({"questions": [{"question": format!("May I write {PLAN}?")}]})),
        ("read_image", json!({"path": "docs/superpowers/plans/diagram.png"})),
        ("update_plan", json!({"plan": [{"step": format!("write {PLAN}"), "status": "pending"}]})),
        ("read_many_files", json!({"paths": [APPROVAL, PLAN]})),
        ("terminal_send", json!({"text": format!("echo x > {APPROVAL}\n")})),
        ("mcp__filesystem__read_text_file", json!({"path": APPROVAL})),
        ("mcp__filesystem__get_file_info", json!({"path": APPROVAL})),
        ("mcp__filesystem__directory_tree", json!({"path": "docs/superpowers/plans"})),
        ("mcp__serena__find_symbol", json!({"name_path": "x", "relative_path": PLAN})),
        ("mcp__serena__read_file", json!({"relative_path": APPROVAL})),
        ("mcp__serena__search_for_pattern", json!({"substring_pattern": "approval.md"})),
        ("mcp__serena__think_about_task_adherence", json!({})),
        ("mcp__jetbrains__get_file_text_by_path", json!({"pathInProject": APPROVAL})),
        ("mcp__desktop-commander__search_code", json!({"path": ".", "pattern": "approval.md"})),
        ("mcp_serena_find_symbol", json!({"relative_path": PLAN})),
        // A pull request, an issue or a comment on the code host writes no local file, whatever
        // its prose says.
        (
            "mcp__github__create_pull_request",
            json!({"title": "Export CSV", "body": format!("Approved in {APPROVAL}; plan {PLAN}."), "head": "f", "base": "main"}),
        ),
        ("mcp__github__add_issue_comment", json!({"issue_number": 3, "body": "see approval.md"})),
        ("mcp__github__create_issue", json!({"title": "approval.md is stale", "body": ".superpowers/sdd/p/"})),
        ("mcp__gitlab__create_merge_request", json!({"description": format!("closes {APPROVAL}")})),
        ("mcp__github__get_file_contents", json!({"path": APPROVAL})),
    ];
    for (tool, args) in allowed {
        assert_eq!(check(&repo, tool, args.clone()), None, "{tool} {args}");
    }
}

#[test]
fn search_memory_tracker_browser_and_git_tools_stay_allowed_and_their_writing_forms_do_not() {
    let repo = repo();
    let allowed = [
        ("SlashCommand", json!({"command": format!("/review {PLAN}")})),
        (
            "mcp__sequential-thinking__sequentialthinking",
            json!({"thought": format!("check {APPROVAL}"), "thoughtNumber": 1}),
        ),
        ("mcp__context7__resolve-library-id", json!({"libraryName": "openspec approval.md"})),
        ("mcp__context7__query-docs", json!({"libraryId": "/x/openspec", "query": "where does approval.md live"})),
        ("mcp__brave-search__brave_web_search", json!({"query": APPROVAL})),
        ("mcp__exa__web_search_exa", json!({"query": PLAN})),
        ("mcp__tavily__tavily-search", json!({"query": "approval.md sha256"})),
        ("mcp__perplexity__search", json!({"query": "openspec approval.md"})),
        ("mcp__fetch__fetch", json!({"url": format!("https://example.com/{APPROVAL}")})),
        ("mcp__deepwiki__ask_question", json!({"repoName": "a/b", "question": "What writes approval.md?"})),
        ("mcp__Ref__ref_search_documentation", json!({"query": "approval.md"})),
        ("mcp__firecrawl__firecrawl_scrape", json!({"url": format!("https://example.com/{APPROVAL}")})),
        ("mcp__memory__create_entities", json!({"entities": [{"name": "c", "observations": [PLAN]}]})),
        ("mcp__memory__search_nodes", json!({"query": "approval.md"})),
        ("mcp__slack__slack_post_message", json!({"channel_id": "C1", "text": format!("{PLAN} ready")})),
        ("mcp__linear__create_comment", json!({"issueId": "E-1", "body": format!("Plan: {PLAN}")})),
        ("mcp__atlassian__createJiraIssue", json!({"summary": "approval.md", "description": APPROVAL})),
        ("mcp__sentry__search_issues", json!({"query": "approval.md"})),
        ("mcp__notion__notion-search", json!({"query": "approval.md"})),
        ("mcp__playwright__browser_navigate", json!({"url": format!("file://{}", repo.root.join(PLAN).display())})),
        ("mcp__git__git_log", json!({"repo_path": ".", "max_count": 3, "file_path": PLAN})),
        ("mcp__git__git_show", json!({"repo_path": ".", "revision": format!("HEAD:{APPROVAL}")})),
        ("mcp__git__git_add", json!({"repo_path": ".", "files": [PLAN]})),
        ("mcp__git__git_commit", json!({"repo_path": ".", "message": format!("task 2 of {PLAN}")})),
        ("mcp__ripgrep__search", json!({"pattern": "sha256", "path": "openspec", "glob": "approval.md"})),
        ("mcp_memory_open_nodes", json!({"names": ["approval.md"]})),
    ];
    for (tool, args) in allowed {
        assert_eq!(check(&repo, tool, args.clone()), None, "{tool} {args}");
    }
    // The same names on another server, a tool that takes a filename or runs code, and an
    // option handed to a command line are judged by their strings.
    let refused = [
        ("mcp__notes__search", json!({"query": APPROVAL}), GATE_C),
        ("mcp__downloader__fetch", json!({"url": "https://example.com/x", "path": APPROVAL}), GATE_C),
        ("mcp__notes__create_entities", json!({"entities": [{"name": PLAN}]}), NEEDS_SPEC),
        ("mcp__atlassian__jira_download_attachments", json!({"issue_key": "E-1", "target_dir": PLAN}), NEEDS_SPEC),
        ("mcp__playwright__browser_take_screenshot", json!({"filename": APPROVAL}), GATE_C),
        ("mcp__playwright__browser_pdf_save", json!({"filename": PLAN}), NEEDS_SPEC),
        ("mcp__puppeteer__puppeteer_navigate", json!({"url": "x", "launchOptions": {"args": [APPROVAL]}}), GATE_C),
        ("mcp__serena__write_memory", json!({"memory_file_name": format!("/r/{APPROVAL}"), "content": "x"}), GATE_C),
        ("mcp__git__git_diff", json!({"repo_path": ".", "target": format!("--output={APPROVAL}")}), GATE_C),
        ("mcp__git__git_checkout", json!({"repo_path": ".", "branch_name": APPROVAL}), GATE_C),
        ("mcp__ripgrep__search", json!({"pattern": "--pre=sh", "path": APPROVAL}), GATE_C),
        ("mcp_notes_open_nodes", json!({"names": [APPROVAL]}), GATE_C),
    ];
    for (tool, args, denial) in refused {
        assert_eq!(check(&repo, tool, args.clone()).as_deref(), Some(denial), "{tool} {args}");
    }
}

#[test]
fn dispatches_are_judged_by_gate_b_in_every_field_and_spelling() {
    let repo = repo();
    let spellings = [
        "docs/superpowers/plans/p.MD",
        "docs/superpowers/plans/./p.md",
        "docs//superpowers/plans/p.md",
        r"docs\superpowers\plans\p.md",
        "Docs/SuperPowers/Plans/P.md",
    ];
    for spelled in spellings {
        let refused = [
            ("Task", json!({"description": "t", "prompt": format!("Implement {spelled}")})),
            ("Agent", json!({"description": format!("task 1 of {spelled}"), "prompt": "go"})),
            ("SendMessage", json!({"to": "worker", "message": format!("go on with {spelled}")})),
            ("SendMessage", json!({"to": "worker", "summary": spelled, "message": "go on"})),
            ("Workflow", json!({"workflow": "sdd-task", "args": {"plan": spelled}})),
            ("Workflow", json!({"workflow": "sdd-task", "inputs": [{"plan": spelled}]})),
            ("subagent", json!({"prompt": format!("Implement {spelled}")})),
            ("workflow", json!({"script": format!("await agent('Implement {}')", spelled.replace('\\', "\\\\"))})),
        ];
        for (tool, args) in refused {
            let denial = check(&repo, tool, args.clone());
            // On a file system that tells `P.md` from `p.md`, the other spelling is a plan that
            // is not there, which gate B refuses as unapproved too.
            assert!(
                denial.as_deref().is_some_and(|d| d.starts_with("BLOCKED [approval-gates]: plan not approved")),
                "{tool} {args}: {denial:?}"
            );
        }
    }
    repo.approve_design("c").approve_plan("c", "p");
    for spelled in ["docs/superpowers/plans/./p.md", "docs//superpowers/plans/p.md", r"docs\superpowers\plans\p.md"] {
        assert_eq!(check(&repo, "Workflow", json!({"args": {"plan": spelled}})), None, "{spelled}");
        assert_eq!(check(&repo, "SendMessage", json!({"to": "w", "message": format!("Task 2 of {spelled}")})), None);
    }
}

#[test]
fn a_call_naming_more_locations_than_the_budget_is_refused_whole() {
    let repo = repo();
    let many: Vec<String> =
        (0..=tools::strings::MAX_NAMED_LOCATIONS).map(|n| format!(".superpowers/sdd/p{n}/x.md")).collect();
    assert_eq!(
        check(&repo, "mcp__x__batch", json!({"paths": many})).as_deref(),
        Some("BLOCKED [approval-gates]: this tool call names over 256 guarded paths to check; split it up")
    );
    let repeated = vec![APPROVAL; 1000];
    assert_eq!(check(&repo, "mcp__x__batch", json!({"paths": repeated})).as_deref(), Some(GATE_C));
}

#[test]
fn tools_named_like_the_filesystem_servers_writers_are_judged_by_their_other_strings_too() {
    let repo = repo();
    let uri = format!("file://{}", repo.root.join(APPROVAL).display());
    let sdd = ".superpowers/sdd/p/progress.md";
    let refused = [
        ("mcp__foo__write_file", json!({"file_path": APPROVAL, "content": "x"}), GATE_C),
        ("mcp__foo__write_file", json!({"filePath": PLAN, "content": "# no spec"}), NEEDS_SPEC),
        ("mcp__foo__write_file", json!({"filePath": PLAN, "content": Repo::plan_text("c")}), DESIGN_C),
        ("mcp__foo__edit_file", json!({"file": sdd, "edits": []}), PLAN_C),
        (
            "mcp__foo__edit_file",
            json!({"path": "/tmp/x", "edits": [{"oldText": "a", "newText": "b", "path": APPROVAL}]}),
            GATE_C,
        ),
        ("mcp__foo__move_file", json!({"from": "/tmp/x", "to": APPROVAL}), GATE_C),
        ("mcp__foo__create_directory", json!({"dir": ".superpowers/sdd/p"}), PLAN_C),
        ("mcp__ide__write_file", json!({"file_uri": uri, "content": "x"}), GATE_C),
        ("mcp__ide__write_file", json!({"uri": uri, "content": "x"}), GATE_C),
        ("mcp__dc__start_process", json!({"command": "ls", "output": APPROVAL}), GATE_C),
        ("mcp_foo_write_file", json!({"file_path": APPROVAL, "content": "x"}), GATE_C),
        // A known field's value repeated in another field is judged there.
        ("mcp__foo__write_file", json!({"path": "/tmp/x", "content": APPROVAL, "file_path": APPROVAL}), GATE_C),
        (
            "mcp__shell__run_command",
            json!({"command": format!("cat {APPROVAL}"), "out": format!("cat {APPROVAL}")}),
            GATE_C,
        ),
    ];
    for (tool, args, denial) in refused {
        assert_eq!(check(&repo, tool, args.clone()).as_deref(), Some(denial), "{tool} {args}");
    }
    repo.approve_design("c");
    // The fields the filesystem server gives them keep their meaning: a content that mentions a
    // guarded location is text, an edit's old text too, a process's command is bash.
    let allowed = [
        ("mcp__filesystem__write_file", json!({"path": PLAN, "content": Repo::plan_text("c")})),
        ("mcp__foo__write_file", json!({"filePath": PLAN, "content": Repo::plan_text("c")})),
        ("mcp__filesystem__write_file", json!({"path": "docs/notes.md", "content": format!("{APPROVAL} and {sdd}")})),
        (
            "mcp__filesystem__edit_file",
            json!({"path": "docs/notes.md", "edits": [{"oldText": APPROVAL, "newText": sdd}], "dryRun": false}),
        ),
        ("mcp__filesystem__move_file", json!({"source": "a.md", "destination": "b.md"})),
        ("mcp__filesystem__create_directory", json!({"path": "openspec/changes/new"})),
        ("mcp__desktop-commander__start_process", json!({"command": format!("cat {APPROVAL}"), "timeout_ms": 100})),
        ("mcp__filesystem__read_file", json!({"path": APPROVAL})),
    ];
    for (tool, args) in allowed {
        assert_eq!(check(&repo, tool, args.clone()), None, "{tool} {args}");
    }
}
