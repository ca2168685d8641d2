//! Codex CLI's and Gemini CLI's tool calls, in the shapes their hooks pass (captured from the real
//! clients: `__test__/fixtures/host-payloads.jsonl`), judged in both directions.

use serde_json::{Value, json};

use super::test_json::Json;
use super::*;
use crate::test_repo::Repo;

fn check(repo: &Repo, name: &str, args: Value) -> Option<String> {
    check_tool_call(name, &Json(args), || repo.root.clone()).map(|denial| denial.to_string())
}

const GATE_C: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";
const NEEDS_SPEC: &str = "BLOCKED [approval-gates]: plan must carry **Spec:** pointing to openspec/changes/<id>";

fn repo_with_change() -> Repo {
    let repo = Repo::new();
    repo.change("c").plan("p", "c");
    repo
}

#[test]
fn codex_shell_calls_as_strings_and_argv() {
    let repo = repo_with_change();
    // The hook's shape: `Bash` with a string command.
    assert_eq!(
        check(&repo, "Bash", json!({"command": "echo x > openspec/changes/c/approval.md"})).as_deref(),
        Some(GATE_C)
    );
    assert_eq!(check(&repo, "Bash", json!({"command": "cat openspec/changes/c/approval.md; ls > out.txt"})), None);
    // An argv array is judged word for word: the redirection inside `bash -lc` writes, the same
    // characters as one argument of echo do not.
    let nested = json!({"command": ["bash", "-lc", "echo x > openspec/changes/c/approval.md"]});
    assert_eq!(check(&repo, "Bash", nested.clone()).as_deref(), Some(GATE_C));
    assert_eq!(check(&repo, "shell", nested).as_deref(), Some(GATE_C));
    let data = json!({"command": ["echo", "x > openspec/changes/c/approval.md"]});
    assert_eq!(check(&repo, "shell", data), None);
    let quoted = json!({"command": ["touch", "it's", "docs/superpowers/plans/q.md"]});
    assert_eq!(check(&repo, "shell", quoted).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(check(&repo, "shell", json!({"command": ["touch", "it's fine"]})), None);
    // A raw exec_command: `cmd` in `workdir`, relative to the session directory.
    let in_plans = json!({"cmd": "echo x > p2.md", "workdir": "docs/superpowers/plans"});
    assert_eq!(check(&repo, "exec_command", in_plans).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(check(&repo, "exec_command", json!({"cmd": "echo x > p2.md", "workdir": "src"})), None);
    // The older `container.exec`: an argv in `cmd`, judged as the shell runs it.
    let read = json!({"cmd": ["bash", "-lc", "cat openspec/changes/c/approval.md"], "workdir": "."});
    assert_eq!(check(&repo, "container.exec", read), None);
    let write = json!({"cmd": ["bash", "-lc", "echo x > approval.md"], "workdir": "openspec/changes/c"});
    assert_eq!(check(&repo, "container.exec", write).as_deref(), Some(GATE_C));
    // Anything but strings in the argv, or an empty one, is no command.
    assert_eq!(check(&repo, "shell", json!({"command": ["rm", 3]})), None);
    assert_eq!(check(&repo, "shell", json!({"command": []})), None);
}

#[test]
fn argv_lines_parse_back_to_the_same_words() {
    for argv in [
        vec!["echo", "a b", "it's", "$HOME", "`x`", "\\", "\"q\"", "", "*", "a\nb"],
        vec!["bash", "-c", "echo 'x' > \"y\""],
    ] {
        let argv: Vec<String> = argv.into_iter().map(str::to_owned).collect();
        let line = bash::argv_line(&argv);
        let output = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("for w in {line}; do printf '%s\\0' \"$w\"; done"))
            .output()
            .expect("bash runs");
        let words: Vec<String> =
            output.stdout.split(|b| *b == 0).map(|w| String::from_utf8_lossy(w).into_owned()).collect();
        assert_eq!(&words[..words.len() - 1], &argv[..], "{line}");
    }
}

#[test]
fn codex_patches_and_mcp_tools() {
    let repo = repo_with_change();
    let patch = "*** Begin Patch\n*** Add File: openspec/changes/c/approval.md\n+design:\n*** End Patch\n";
    assert_eq!(check(&repo, "apply_patch", json!({"command": patch})).as_deref(), Some(GATE_C));
    let ordinary = "*** Begin Patch\n*** Add File: src/a.txt\n+hello\n*** End Patch\n";
    assert_eq!(check(&repo, "apply_patch", json!({"command": ordinary})), None);
    let write = json!({"path": "openspec/changes/c/approval.md", "content": "x"});
    assert_eq!(check(&repo, "mcp__filesystem__write_file", write).as_deref(), Some(GATE_C));
}

#[test]
fn codex_dispatches_name_plans_in_message_items_or_objective() {
    let repo = repo_with_change();
    let not_approved = "BLOCKED [approval-gates]: plan not approved; run /approve c plan";
    let task = "Implement task 1 of docs/superpowers/plans/p.md";
    for (name, args) in [
        ("spawn_agent", json!({"message": task})),
        ("spawn_agent", json!({"items": [{"type": "text", "text": task}]})),
        ("multi_agent_v1send_input", json!({"target": "a", "message": task})),
        ("create_goal", json!({"objective": task})),
    ] {
        assert_eq!(check(&repo, name, args).as_deref(), Some(not_approved), "{name}");
    }
    assert_eq!(check(&repo, "spawn_agent", json!({"message": "summarise src/"})), None);
    repo.approve_plan("c", "p");
    assert_eq!(check(&repo, "spawn_agent", json!({"message": task})), None);
    assert_eq!(check(&repo, "create_goal", json!({"objective": task})), None);
}

#[test]
fn gemini_tools_by_their_own_names_and_fields() {
    let repo = repo_with_change();
    let approval = "openspec/changes/c/approval.md";
    assert_eq!(check(&repo, "write_file", json!({"file_path": approval, "content": "x"})).as_deref(), Some(GATE_C));
    assert_eq!(check(&repo, "write_file", json!({"file_path": "src/a.txt", "content": "x"})), None);
    let replace = json!({"file_path": "docs/superpowers/plans/p.md", "old_string": "a", "new_string": "b"});
    assert_eq!(check(&repo, "replace", replace).as_deref(), Some(NEEDS_SPEC));
    let replace_ok = json!({"file_path": "src/a.txt", "old_string": "a", "new_string": "b", "instruction": "x"});
    assert_eq!(check(&repo, "replace", replace_ok), None);
    // run_shell_command runs in `dir_path`.
    let shell = json!({"command": "echo x > approval.md", "dir_path": "openspec/changes/c"});
    assert_eq!(check(&repo, "run_shell_command", shell).as_deref(), Some(GATE_C));
    let in_plans = json!({"command": "echo x > p2.md", "dir_path": "docs/superpowers/plans", "description": "d"});
    assert_eq!(check(&repo, "run_shell_command", in_plans).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(check(&repo, "run_shell_command", json!({"command": "echo x > p2.md", "dir_path": "src"})), None);
    assert_eq!(check(&repo, "run_shell_command", json!({"command": "sha256sum openspec/changes/c/approval.md"})), None);
    // invoke_agent's prompt is a dispatch.
    let agent = json!({"agent_name": "generalist", "prompt": "Execute docs/superpowers/plans/p.md"});
    assert_eq!(
        check(&repo, "invoke_agent", agent).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
    assert_eq!(check(&repo, "invoke_agent", json!({"agent_name": "g", "prompt": "read src/"})), None);
    // Tools that only read or that write outside the workspace's guarded files pass unread.
    assert_eq!(check(&repo, "read_file", json!({"file_path": approval})), None);
    assert_eq!(check(&repo, "save_memory", json!({"fact": "approval.md is written only by /approve"})), None);
}

#[test]
fn gemini_mcp_names_have_one_underscore() {
    let repo = repo_with_change();
    let approval = "openspec/changes/c/approval.md";
    assert_eq!(
        check(&repo, "mcp_filesystem_write_file", json!({"path": approval, "content": "x"})).as_deref(),
        Some(GATE_C)
    );
    let edit = json!({"path": approval, "edits": [{"oldText": "a", "newText": "b"}]});
    assert_eq!(check(&repo, "mcp_my_fs_edit_file", edit).as_deref(), Some(GATE_C));
    assert_eq!(check(&repo, "mcp_notes_save_note", json!({"file": approval, "text": "x"})).as_deref(), Some(GATE_C));
    // The plans folder itself may be created; a tool whose name says it neither writes nor runs
    // is not read.
    assert_eq!(check(&repo, "mcp_filesystem_create_directory", json!({"path": "docs/superpowers/plans"})), None);
    assert_eq!(check(&repo, "mcp_filesystem_read_file", json!({"path": approval})), None);
    assert_eq!(
        check(&repo, "mcp_shell_run_command", json!({"command": "echo x > openspec/changes/c/approval.md"})).as_deref(),
        Some(GATE_C)
    );
}
