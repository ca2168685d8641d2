use std::collections::HashMap;

use super::*;
use crate::test_repo::Repo;

#[derive(Default)]
struct Args {
    strings: HashMap<&'static str, String>,
    edits: Option<Vec<Option<String>>>,
    /// Fields holding other JSON values, as JSON text.
    json: HashMap<&'static str, String>,
}

impl Args {
    fn with(mut self, field: &'static str, value: &str) -> Self {
        self.strings.insert(field, value.to_string());
        self
    }
    fn json(mut self, field: &'static str, value: &str) -> Self {
        self.json.insert(field, value.to_string());
        self
    }
    fn edits(mut self, edits: &[Option<&str>]) -> Self {
        self.edits = Some(edits.iter().map(|e| e.map(str::to_string)).collect());
        self
    }
}

impl ToolArgs for Args {
    fn string(&self, field: &str) -> Option<String> {
        self.strings.get(field).cloned()
    }
    fn strings_of(&self, array: &str, _field: &str) -> Option<Vec<Option<String>>> {
        (array == "edits").then(|| self.edits.clone()).flatten()
    }
    fn json_text(&self, field: &str) -> Option<String> {
        self.json.get(field).cloned().or_else(|| self.string(field))
    }
}

fn write(path: &str, content: &str) -> Args {
    Args::default().with("file_path", path).with("content", content)
}

fn check(repo: &Repo, name: &str, args: &Args) -> Option<String> {
    check_tool_call(name, args, || repo.root.clone()).map(|denial| denial.to_string())
}

const PLAN: &str = "docs/superpowers/plans/x.md";
const NEEDS_SPEC: &str = "BLOCKED [approval-gates]: plan must carry **Spec:** pointing to openspec/changes/<id>";

#[test]
fn gate_a_follows_the_design_approval() {
    let repo = Repo::new();
    repo.change("c");
    let plan = write(PLAN, &Repo::plan_text("c"));
    assert_eq!(
        check(&repo, "write", &plan).as_deref(),
        Some("BLOCKED [approval-gates]: design not approved; run /approve c design")
    );
    repo.approval("c", "design:\n");
    assert_eq!(
        check(&repo, "write", &plan).as_deref(),
        Some("BLOCKED [approval-gates]: design not approved; run /approve c design")
    );
    repo.approve_design("c");
    assert_eq!(check(&repo, "write", &plan), None);
}

#[test]
fn gate_a_needs_visible_content_with_a_spec_under_openspec_changes() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let cases = [
        write(PLAN, "# plan without spec"),
        write(PLAN, "**Spec:** docs/superpowers/specs/2026-10-11-roles.md"),
        write(PLAN, "**Spec:** openspec/changes/../../etc"),
        Args::default().with("file_path", PLAN),
        Args::default().with("file_path", PLAN).with("new_string", "- [ ] edited line"),
        Args::default()
            .with("path", &repo.path(PLAN).display().to_string())
            .with("command", "create")
            .with("file_text", &Repo::plan_text("c")),
        Args::default().with("file_path", PLAN).edits(&[Some(&Repo::plan_text("c")), Some("fragment")]),
        Args::default().with("file_path", PLAN).edits(&[Some(&Repo::plan_text("c")), None]),
        Args::default().with("file_path", PLAN).edits(&[]),
    ];
    let tools =
        ["write", "write", "write", "write", "edit", "str_replace_editor", "multi_edit", "multi_edit", "multi_edit"];
    for (tool, args) in tools.iter().zip(&cases) {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(NEEDS_SPEC), "{tool}");
    }
}

#[test]
fn gate_a_accepts_fragments_that_carry_their_own_spec() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let spec = "**Spec:** `openspec/changes/c/design.md`\n";
    assert_eq!(check(&repo, "edit", &Args::default().with("file_path", PLAN).with("new_string", spec)), None);
    assert_eq!(
        check(&repo, "multi_edit", &Args::default().with("file_path", PLAN).edits(&[Some(spec), Some(spec)])),
        None
    );
    let editor = Args::default()
        .with("path", &repo.path(PLAN).display().to_string())
        .with("command", "str_replace")
        .with("new_str", spec);
    assert_eq!(check(&repo, "str_replace_editor", &editor), None);
}

#[test]
fn gate_a_judges_a_worktree_plan_by_the_worktree_approval() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let worktree_plan = ".claude/worktrees/slug/docs/superpowers/plans/x.md";
    assert_eq!(
        check(&repo, "write", &write(worktree_plan, &Repo::plan_text("c"))).as_deref(),
        Some("BLOCKED [approval-gates]: design not approved; run /approve c design")
    );
    repo.write(".claude/worktrees/slug/openspec/changes/c/approval.md", "design:\n  by: owner\n  at: T\n");
    assert_eq!(check(&repo, "write", &write(worktree_plan, &Repo::plan_text("c"))), None);
}

#[test]
fn historical_plans_are_frozen() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    for name in ["2026-10-24-dsh-decouple", "2026-10-24-dsh-port-spike", "2026-10-24-dsh-role-loader"] {
        let args = write(&format!("docs/superpowers/plans/{name}.md"), "# old plan\n");
        assert_eq!(check(&repo, "write", &args).as_deref(), Some(NEEDS_SPEC));
    }
    let legacy = write(
        "docs/superpowers/plans/2026-10-11-roles-and-memory.md",
        "**Spec:** docs/superpowers/specs/2026-10-11-roles-and-memory-design.md\n",
    );
    assert_eq!(check(&repo, "write", &legacy).as_deref(), Some(NEEDS_SPEC));
}

#[test]
fn gate_c_refuses_every_direct_write_of_approval_md() {
    let repo = Repo::new();
    repo.change("c");
    let cases = [
        ("write", write("openspec/changes/c/approval.md", "design:\n  by: owner\n  at: now\n")),
        ("edit", Args::default().with("file_path", "openspec/changes/c/APPROVAL.md").with("new_string", "x")),
        ("multi_edit", Args::default().with("file_path", "/elsewhere/Approval.MD").edits(&[Some("x")])),
        (
            "str_replace_editor",
            Args::default().with("path", "/r/approval.md").with("command", "insert").with("new_str", "x"),
        ),
    ];
    for (tool, args) in &cases {
        assert_eq!(
            check(&repo, tool, args).as_deref(),
            Some("BLOCKED [approval-gates]: approval.md is written only by /approve"),
            "{tool}"
        );
    }
    let view = Args::default().with("path", "/r/approval.md").with("command", "view");
    assert_eq!(check(&repo, "str_replace_editor", &view), None);
    assert_eq!(check(&repo, "read", &Args::default().with("file_path", "openspec/changes/c/approval.md")), None);
}

#[test]
fn gate_b_write_entry_follows_the_plan_approval() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let ledger = write(".superpowers/sdd/p/progress.md", "# ledger");
    assert_eq!(check(&repo, "write", &ledger).as_deref(), Some("BLOCKED [approval-gates]: plan not found: p"));
    repo.plan("p", "c");
    assert_eq!(
        check(&repo, "write", &ledger).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
    repo.approve_plan("c", "p");
    assert_eq!(check(&repo, "write", &ledger), None);
    repo.write("docs/superpowers/plans/p.md", &format!("{}- [ ] more\n", Repo::plan_text("c")));
    assert_eq!(
        check(&repo, "write", &ledger).as_deref(),
        Some("BLOCKED [approval-gates]: plan changed after approval; re-approve")
    );
}

#[test]
fn gate_b_dispatch_checks_every_reference() {
    let repo = Repo::new();
    repo.change("c").plan("approved", "c").approve_plan("c", "approved");
    repo.change("d").approve_design("d").plan("pending", "d");
    let prompt = |text: &str| Args::default().with("prompt", text);
    assert_eq!(check(&repo, "subagent", &prompt("Implement docs/superpowers/plans/approved.md task 1")), None);
    assert_eq!(
        check(&repo, "subagent", &prompt("docs/superpowers/plans/approved.md and docs/superpowers/plans/pending.md"))
            .as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve d plan")
    );
    assert_eq!(
        check(&repo, "subagent_fork", &prompt("docs/superpowers/plans/missing.md")).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve <id> plan")
    );
    assert_eq!(
        check(&repo, "workflow", &Args::default().with("script", "ledger at .superpowers/sdd/ghost/")).as_deref(),
        Some("BLOCKED [approval-gates]: plan not found: ghost")
    );
    assert_eq!(check(&repo, "subagent", &prompt("Fix the typo in README.md")), None);
    for (tool, field) in [("send_message", "message"), ("ralph", "objective")] {
        let args = Args::default().with(field, "continue docs/superpowers/plans/pending.md");
        assert_eq!(
            check(&repo, tool, &args).as_deref(),
            Some("BLOCKED [approval-gates]: plan not approved; run /approve d plan"),
            "{tool}"
        );
    }
}

#[test]
fn gate_b_plan_without_spec_is_fail_closed_with_the_literal_id() {
    let repo = Repo::new();
    repo.write("docs/superpowers/plans/old.md", "# no spec");
    let args = Args::default().with("prompt", "run docs/superpowers/plans/old.md");
    assert_eq!(
        check(&repo, "subagent", &args).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve <id> plan")
    );
}

#[test]
fn bounded_work_is_never_gated() {
    let repo = Repo::new();
    for (tool, args) in [
        ("write", write("src/main.rs", "fn main() {}")),
        ("edit", Args::default().with("file_path", "README.md").with("new_string", "x")),
        ("read", Args::default().with("file_path", PLAN)),
        ("glob", Args::default().with("pattern", "**/*.md")),
        ("terminal_send", Args::default().with("text", "echo x > docs/superpowers/plans/x.md\n")),
        ("write", Args::default()),
        ("no_such_tool", write(PLAN, "")),
    ] {
        assert_eq!(check(&repo, tool, &args), None, "{tool}");
    }
}

#[cfg(unix)]
#[test]
fn symlinks_do_not_carry_writes_past_the_gates() {
    use std::os::unix::fs::symlink;
    let repo = Repo::new();
    repo.change("c").plan("p", "c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    symlink(repo.path("docs/superpowers/plans"), repo.path("notes")).unwrap();
    symlink(repo.path("openspec/changes/c/approval.md"), repo.path("harmless.md")).unwrap();
    symlink(repo.path(".superpowers/sdd/p/progress.md"), repo.path("ledger.md")).unwrap();

    assert_eq!(check(&repo, "write", &write("notes/x.md", "no spec")).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(
        check(&repo, "write", &write("harmless.md", "design:\n")).as_deref(),
        Some("BLOCKED [approval-gates]: approval.md is written only by /approve")
    );
    assert_eq!(
        check(&repo, "write", &write("ledger.md", "x")).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
}

fn bash(command: &str) -> Args {
    Args::default().with("command", command)
}

const ONLY_APPROVE: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";

#[test]
fn bash_targets_meet_gate_a_without_content() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    // Even a plan with a Spec to an approved design: the gates cannot see a bash target's text.
    let heredoc = format!("cat > {PLAN} <<'EOF'\n{}EOF", Repo::plan_text("c"));
    for command in [
        heredoc.as_str(),
        "echo x >> docs/super\"powers\"/plans/x.md",
        "sed -i 's/a/b/' docs/superpowers/plans/x.md",
        "cp notes.md docs/superpowers/plans/",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(NEEDS_SPEC), "{command}");
    }
    assert_eq!(check(&repo, "bash", &bash("cp docs/superpowers/plans/x.md /tmp/")), None);
    assert_eq!(check(&repo, "bash", &bash("cat docs/superpowers/plans/x.md | tee /tmp/x")), None);
}

#[test]
fn bash_targets_meet_gate_c() {
    let repo = Repo::new();
    for command in [
        "echo x > openspec/changes/c/approval.md",
        "cd openspec/changes/c && touch APPROVAL.md",
        "bash -c 'rm openspec/changes/c/approval.md'",
        "npx approval-gates approve c design",
        "node -e \"require('approval-gates').writeApproval('c', 'plan', true)\"",
        "rm $CHANGE/approval.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    assert_eq!(check(&repo, "bash", &bash("echo \"approval.md\" > notes.txt")), None);
    assert_eq!(check(&repo, "bash", &bash("cat openspec/changes/c/approval.md")), None);
}

#[test]
fn bash_targets_meet_gate_b() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    let ledger = bash("echo '- [x] task 1' >> .superpowers/sdd/p/progress.md");
    assert_eq!(
        check(&repo, "bash", &ledger).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
    repo.approve_plan("c", "p");
    assert_eq!(check(&repo, "bash", &ledger), None);
    assert_eq!(
        check(&repo, "bash", &bash("mkdir -p .superpowers/sdd/ghost && touch .superpowers/sdd/ghost/x")).as_deref(),
        Some("BLOCKED [approval-gates]: plan not found: ghost")
    );
}

#[test]
fn bash_resolves_against_workdir_and_cd() {
    let repo = Repo::new();
    let in_plans = bash("cat > x.md <<'EOF'\nx\nEOF").with("workdir", "docs/superpowers/plans");
    assert_eq!(check(&repo, "bash", &in_plans).as_deref(), Some(NEEDS_SPEC));
    let absolute = bash("touch approval.md").with("workdir", &repo.path("openspec/changes/c").display().to_string());
    assert_eq!(check(&repo, "bash", &absolute).as_deref(), Some(ONLY_APPROVE));
    assert_eq!(check(&repo, "bash", &bash("cd docs/superpowers && echo x > plans/x.md")).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(check(&repo, "bash", &bash("(cd docs/superpowers) && echo x > plans/x.md")), None);
}

#[test]
fn bash_first_denial_wins_and_plain_commands_pass() {
    let repo = Repo::new();
    assert_eq!(
        check(&repo, "bash", &bash("touch approval.md docs/superpowers/plans/x.md")).as_deref(),
        Some(ONLY_APPROVE)
    );
    assert_eq!(
        check(&repo, "bash", &bash("touch docs/superpowers/plans/x.md approval.md")).as_deref(),
        Some(NEEDS_SPEC)
    );
    for command in
        ["cargo test --quiet 2>&1 | tail -20", "git status && git diff", "echo \"unterminated > approval.md", ""]
    {
        assert_eq!(check(&repo, "bash", &bash(command)), None, "{command}");
    }
    assert_eq!(check(&repo, "bash", &Args::default()), None);
}

#[test]
fn bash_over_the_caps_is_judged_by_its_raw_text() {
    let repo = Repo::new();
    let padding = "x".repeat(crate::bash::MAX_COMMAND_BYTES);
    assert_eq!(
        check(&repo, "bash", &bash(&format!("echo {padding} > docs/super'powers'/plans/x.md"))).as_deref(),
        Some(
            "BLOCKED [approval-gates]: bash command is too large (over 1 MiB) to check and names a guarded path; split it up"
        )
    );
    assert_eq!(check(&repo, "bash", &bash(&format!("echo {padding} > notes.md"))), None);
}

#[cfg(unix)]
#[test]
fn bash_writes_through_symlinks_are_judged_where_they_land() {
    use std::os::unix::fs::symlink;
    let repo = Repo::new();
    repo.change("c");
    symlink(repo.path("openspec/changes/c/approval.md"), repo.path("harmless.md")).expect("symlink");
    assert_eq!(check(&repo, "bash", &bash("echo x > harmless.md")).as_deref(), Some(ONLY_APPROVE));
}

#[test]
fn claude_code_names_are_judged_like_their_dsh_tools() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    let spec = Repo::plan_text("c");
    let refused = [
        ("Write", write(PLAN, "# no spec"), NEEDS_SPEC),
        ("Write", write("openspec/changes/c/approval.md", "design:\n"), ONLY_APPROVE),
        (
            "Edit",
            Args::default().with("file_path", PLAN).with("old_string", "a").with("new_string", "- [x]"),
            NEEDS_SPEC,
        ),
        ("MultiEdit", Args::default().with("file_path", PLAN).edits(&[Some(&spec), Some("fragment")]), NEEDS_SPEC),
        ("NotebookEdit", Args::default().with("notebook_path", "docs/superpowers/plans/n.ipynb"), NEEDS_SPEC),
        ("Bash", bash("echo x > openspec/changes/c/approval.md"), ONLY_APPROVE),
        (
            "Task",
            Args::default().with("prompt", "run docs/superpowers/plans/p.md"),
            "BLOCKED [approval-gates]: plan not approved; run /approve c plan",
        ),
        (
            "Agent",
            Args::default().with("prompt", "run docs/superpowers/plans/p.md"),
            "BLOCKED [approval-gates]: plan not approved; run /approve c plan",
        ),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool}");
    }
    let allowed = [
        ("Write", write(PLAN, &spec)),
        ("Write", write("src/main.rs", "fn main() {}")),
        ("Edit", Args::default().with("file_path", "README.md").with("new_string", "x")),
        ("MultiEdit", Args::default().with("file_path", PLAN).edits(&[Some(&spec)])),
        ("NotebookEdit", Args::default().with("notebook_path", "notebooks/n.ipynb").with("new_source", "1")),
        ("Bash", bash("cat openspec/changes/c/approval.md && sha256sum docs/superpowers/plans/p.md")),
        ("Task", Args::default().with("prompt", "Summarise the README")),
        ("Agent", Args::default().with("prompt", "Read docs/superpowers/plans/ and list them")),
        ("Read", Args::default().with("file_path", "openspec/changes/c/approval.md")),
        // Names are exact: the DSH table's lower-case tools keep their own fields.
        ("WRITE", write("openspec/changes/c/approval.md", "x")),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
}
/// Claude Code 2.1's tools that start more work (gate B) or run commands, beside the file tools.
#[test]
fn claude_code_dispatches_and_commands() {
    let repo = Repo::new();
    repo.change("c").plan("approved", "c").approve_plan("c", "approved");
    repo.change("d").approve_design("d").plan("pending", "d");
    repo.write("scripts/wf.js", "export const meta = {name: 'x'}\nawait agent('Implement docs/superpowers/plans/pending.md')\n");
    repo.write("scripts/ok.js", "await agent('Implement docs/superpowers/plans/approved.md task 2')\n");
    let pending = "BLOCKED [approval-gates]: plan not approved; run /approve d plan";
    let workflow = |field: &'static str, text: &str| Args::default().with(field, text);
    let refused = [
        ("Workflow", workflow("script", "await agent('Implement task 1 of docs/superpowers/plans/pending.md')"), pending),
        ("Workflow", Args::default().with("script", "await agent(args.task)").json("args", r#"{"task":"docs/superpowers/plans/pending.md"}"#), pending),
        ("Workflow", workflow("scriptPath", "scripts/wf.js"), pending),
        ("Workflow", workflow("scriptPath", &repo.path("scripts/wf.js").display().to_string()), pending),
        ("Workflow", workflow("script", "ledger .superpowers/sdd/ghost/"), "BLOCKED [approval-gates]: plan not found: ghost"),
        ("SendMessage", Args::default().with("to", "worker").with("message", "start docs/superpowers/plans/pending.md"), pending),
        ("CronCreate", Args::default().with("cron", "* * * * *").with("prompt", "implement docs/superpowers/plans/pending.md"), pending),
        ("ScheduleWakeup", Args::default().with("delaySeconds", "60").with("prompt", "continue .superpowers/sdd/pending/"), pending),
        ("RemoteTrigger", Args::default().with("action", "create").json("body", r#"{"prompt":"implement docs/superpowers/plans/pending.md"}"#), pending),
        ("ProposeGoal", Args::default().with("condition", "every task of docs/superpowers/plans/pending.md is done"), pending),
        ("Monitor", Args::default().with("command", "echo x > openspec/changes/d/approval.md").with("description", "m"), ONLY_APPROVE),
        ("PowerShell", Args::default().with("command", "Set-Content openspec/changes/d/approval.md x"), ONLY_APPROVE),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool} {:?}", args.strings);
    }
    let allowed = [
        ("Workflow", workflow("script", "await agent('Implement docs/superpowers/plans/approved.md')")),
        ("Workflow", Args::default().with("name", "review").json("args", r#"{"q":"what changed?","n":3}"#)),
        ("Workflow", workflow("scriptPath", "scripts/ok.js")),
        // A script file that is not there names no plan: the dispatch fails open (docs/decisions.md#gate-b).
        ("Workflow", workflow("scriptPath", "scripts/missing.js")),
        ("Workflow", Args::default()),
        ("SendMessage", Args::default().with("to", "main").with("message", "tests pass")),
        ("CronCreate", Args::default().with("cron", "0 9 * * *").with("prompt", "check the deploy")),
        ("ScheduleWakeup", Args::default().with("delaySeconds", "60").with("prompt", "/loop check CI")),
        ("Monitor", Args::default().with("command", "tail -f log | grep ERROR").with("description", "m")),
        ("PowerShell", Args::default().with("command", "Get-Content openspec/changes/d/approval.md")),
        ("TaskStop", Args::default().with("task_id", "docs/superpowers/plans/pending.md")),
        ("RemoteTrigger", Args::default().with("action", "list")),
        ("ProposeGoal", Args::default().with("condition", "all tests in test/auth pass")),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool} {:?}", args.strings);
    }
}

/// Claude Code's configuration is the owner's: its file tools and MCP tools, which run outside
/// its sandbox, may not write it; reads, ordinary writes and DSH's own tools are unaffected.
#[cfg(unix)]
#[test]
fn claude_code_configuration_is_out_of_the_file_tools_reach() {
    use claude_code::ConfigPlaces;
    let repo = Repo::new();
    let home = tempfile::tempdir().expect("test fixture");
    let home_dir = home.path().to_path_buf();
    let env = |name: &str| (name == "HOME").then(|| home_dir.clone().into_os_string());
    let places = ConfigPlaces::from_env(env).with_owner_path(Path::new("/opt/ag/approval-gates-hook"));
    let judge = |name: &str, args: &Args| {
        check_claude_code_call(name, args, || repo.root.clone(), &places).map(|denial| denial.to_string())
    };
    let denied = |path: &str| {
        format!(
            "BLOCKED [approval-gates]: {path} configures Claude Code or approval-gates (settings, hooks, commands, MCP servers); only the owner changes it, outside the agent"
        )
    };
    let root = |relative: &str| repo.path(relative).display().to_string();
    let user = |relative: &str| home.path().join(relative).display().to_string();
    std::os::unix::fs::symlink(repo.path(".claude"), repo.path("conf")).expect("test fixture");
    let refused = [
        ("Write", write(".claude/settings.local.json", "{\"hooks\":{}}"), root(".claude/settings.local.json")),
        ("Write", write(&root(".claude/commands/approve.md"), "x"), root(".claude/commands/approve.md")),
        ("Edit", Args::default().with("file_path", ".claude/settings.json").with("new_string", "x"), root(".claude/settings.json")),
        ("MultiEdit", Args::default().with("file_path", ".mcp.json").edits(&[Some("{}")]), root(".mcp.json")),
        ("NotebookEdit", Args::default().with("notebook_path", ".claude/n.ipynb").with("new_source", "1"), root(".claude/n.ipynb")),
        ("Write", write(&user(".claude/settings.json"), "{}"), user(".claude/settings.json")),
        ("Write", write(&user(".claude.json"), "{}"), user(".claude.json")),
        ("Write", write(&user(".local/share/approval-gates/bin/approval-gates-hook"), "#!/bin/sh"), user(".local/share/approval-gates/bin/approval-gates-hook")),
        ("Write", write("/opt/ag/approval-gates-hook", "#!/bin/sh"), "/opt/ag/approval-gates-hook".to_string()),
        // Where it really lands (P-8).
        ("Write", write("conf/settings.local.json", "{}"), root("conf/settings.local.json")),
        ("mcp__filesystem__write_file", Args::default().with("path", ".claude/settings.local.json").with("content", "{}"), root(".claude/settings.local.json")),
        ("mcp__filesystem__move_file", Args::default().with("source", "x.json").with("destination", ".claude/settings.json"), root(".claude/settings.json")),
        ("mcp__files__create_directory", Args::default().with("path", ".claude/agents"), root(".claude/agents")),
        ("mcp__git__apply_patch", Args::default().with("patch", "*** Begin Patch\n*** Add File: .claude/settings.local.json\n+{}\n*** End Patch\n"), root(".claude/settings.local.json")),
    ];
    for (tool, args, path) in &refused {
        assert_eq!(judge(tool, args), Some(denied(path)), "{tool} {:?}", args.strings);
    }
    // The gates' own texts come first.
    assert_eq!(judge("Write", &write(".claude/approval.md", "x")).as_deref(), Some(ONLY_APPROVE));
    let allowed = [
        ("Write", write("src/main.rs", "fn main() {}")),
        ("Write", write("docs/claude-setup.md", "Put hooks in .claude/settings.json")),
        ("Write", write(".claude/worktrees/w/src/lib.rs", "x")),
        ("Write", write(&user(".claude/projects/-r/memory/MEMORY.md"), "- [x](x.md)")),
        ("Write", write(&user(".claude/plans/plan.md"), "# plan")),
        ("Edit", Args::default().with("file_path", "CLAUDE.md").with("new_string", "x")),
        ("Read", Args::default().with("file_path", ".claude/settings.json")),
        ("mcp__filesystem__read_file", Args::default().with("path", ".claude/settings.json")),
        // Commands are confined by Claude Code's sandbox, which masks these files.
        ("Bash", bash("cat .claude/settings.json; echo x > .claude/settings.local.json")),
        ("Agent", Args::default().with("prompt", "edit .claude/settings.json")),
    ];
    for (tool, args) in &allowed {
        assert_eq!(judge(tool, args), None, "{tool} {:?}", args.strings);
    }
    // DSH's tools, and any host that does not say it is Claude Code, are judged by the gates alone.
    assert_eq!(check(&repo, "write", &write(".claude/settings.local.json", "{}")), None);
    assert_eq!(check(&repo, "Write", &write(".claude/settings.local.json", "{}")), None);
}

fn bash_outcome(repo: &Repo, command: &str) -> Option<String> {
    check(repo, "bash", &bash(command))
}

#[test]
fn self_approval_through_any_wrapper_is_gate_c() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    for command in [
        "script -qec 'npx approval-gates approve c plan' /dev/null <<< yes",
        "expect -c 'spawn approval-gates approve c plan; send yes\\r; interact'",
        "unbuffer approval-gates approve c plan",
        "socat - EXEC:'npx approval-gates approve c plan',pty",
        "ssh -t localhost 'cd /repo && approval-gates approve c plan'",
        "tmux new -d && tmux send-keys 'approval-gates approve c plan' Enter",
        "fish -c 'approval-gates approve c plan'",
        "printf 'approve\\nc\\nplan\\n' | xargs approval-gates",
        "alias a='approval-gates approve'; a c plan",
        "w() { npx approval-gates approve \"$1\" plan; }; w c",
        "npm exec -- approval-gates approve c plan",
        "yarn approval-gates approve c plan",
        "deno run -A npm:approval-gates@latest approve c plan",
        "./node_modules/.bin/approval-gates approve c plan",
        "python3 -c 'import pty; pty.spawn([\"approval-gates\", \"approve\", \"c\", \"plan\"])'",
        "perl -e 'exec \"approval-gates\", \"approve\", \"c\", \"plan\"'",
        "git -c alias.ok='!approval-gates approve c plan' ok",
        "$(which approval-gates) approve c plan",
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    for command in [
        "git commit -m 'docs: the owner runs approval-gates approve c plan'",
        "gh pr create --title t --body 'next: approval-gates approve c plan (owner)'",
        "cat > docs/next.md <<'EOF'\nRun approval-gates approve c plan yourself.\nEOF",
        "echo 'approval-gates approve c plan' >> NOTES.txt",
        "grep -rn 'approval-gates approve' README.md docs/",
        "approval-gates status && npx approval-gates targets 'approval-gates approve c plan'",
        "cargo test -p approval-gates && watch -n 5 approval-gates status",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

#[test]
fn unknown_commands_write_the_guarded_locations_they_name() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    for (command, denial) in [
        ("sponge docs/superpowers/plans/p.md < /tmp/x", NEEDS_SPEC),
        ("vim -c 'wq' docs/superpowers/plans/p.md", NEEDS_SPEC),
        ("cd docs/superpowers && dos2unix plans/p.md", NEEDS_SPEC),
        ("pandoc in.md --output=docs/superpowers/plans/p.md", NEEDS_SPEC),
        ("openssl enc -d -in x -out openspec/changes/c/approval.md", ONLY_APPROVE),
        ("yq -i '.x = 1' openspec/changes/c/approval.md", ONLY_APPROVE),
        ("git clean -fdx openspec/changes/c", ONLY_APPROVE),
        ("make -C openspec/changes/c all", ONLY_APPROVE),
        ("shred -u openspec/changes/c/approval.md", ONLY_APPROVE),
        ("curl -sO https://example.com/approval.md", ONLY_APPROVE),
        ("wget -q -P docs/superpowers/plans https://example.com/x.md", NEEDS_SPEC),
        (
            "prettier --write .superpowers/sdd/p/progress.md",
            "BLOCKED [approval-gates]: plan not approved; run /approve c plan",
        ),
        ("npx prettier --write 'docs/**/*.md'", NEEDS_SPEC),
        ("npx prettier --write '**/*.md'", ONLY_APPROVE),
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "cat docs/superpowers/plans/p.md && sha256sum docs/superpowers/plans/p.md",
        "diff openspec/changes/c/approval.md /tmp/a.md; cmp openspec/changes/c/approval.md /tmp/a.md",
        "rg -n Spec docs/superpowers/plans && ag approval openspec",
        "git log -p -- openspec/changes/c/approval.md && git blame docs/superpowers/plans/p.md",
        "git add -A && git commit -m 'plan p' && git diff HEAD~1 -- docs/superpowers/plans/",
        "jq -r .x openspec/changes/c/x.json && yq .design openspec/changes/c/approval.md",
        "prettier --check docs/superpowers/plans/p.md && npx markdownlint docs/superpowers/plans/p.md",
        "openspec validate c --strict && openspec show c && openspec list",
        "openssl dgst -sha256 docs/superpowers/plans/p.md && xxd openspec/changes/c/approval.md | head",
        "sed -n 1,5p docs/superpowers/plans/p.md | awk '{print $1}'",
        "cargo build && npm test && make -j4 test",
        "npx prettier --write '*.md' && npx eslint --fix 'src/**/*.ts'",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

#[test]
fn writes_into_a_directory_reach_the_guarded_files_beneath() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write(".superpowers/sdd/p/progress.md", "- [ ] one\n");
    repo.write("src/lib.rs", "");
    for (command, denial) in [
        ("cp -r openspec/changes/c/. openspec/changes/d/", ONLY_APPROVE),
        ("rsync -a /tmp/evil/ openspec/changes/c/", ONLY_APPROVE),
        ("tar -xzf /tmp/evil.tgz -C openspec/changes/c", ONLY_APPROVE),
        ("unzip -o /tmp/evil.zip -d openspec/changes", ONLY_APPROVE),
        ("7z x /tmp/evil.7z -oopenspec", ONLY_APPROVE),
        ("cpio -idm < /tmp/evil.cpio", ONLY_APPROVE),
        ("cp -a /tmp/backup/. .", ONLY_APPROVE),
        ("git checkout main~2 -- openspec/changes/c", ONLY_APPROVE),
        ("git restore --source=HEAD~1 -- .", ONLY_APPROVE),
        ("mv openspec/changes/c openspec/changes/d", ONLY_APPROVE),
        ("cp -r /tmp/plans docs/superpowers/", NEEDS_SPEC),
        ("tar -xf /tmp/docs.tar -C docs", NEEDS_SPEC),
        ("rsync -a /tmp/sdd/ .superpowers/sdd/", "BLOCKED [approval-gates]: plan not found: *"),
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "mv openspec/changes/c openspec/changes/archive/2026-12-01-c",
        "mkdir -p openspec/changes/archive && mv openspec/changes/c openspec/changes/archive/",
        "rm -rf openspec/changes/c",
        "rm -rf openspec",
        "cp -r openspec/changes/c /tmp/c-backup && tar -czf /tmp/all.tgz openspec docs",
        "tar -xzf /tmp/vendor.tgz -C src && unzip -d src /tmp/x.zip && cp -r /tmp/lib/. src/",
        "git checkout -- . && git restore openspec/changes/c",
        "cd src && tar -xf /tmp/x.tar",
        "unzip -l /tmp/x.zip && tar -tzf /tmp/x.tgz",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

#[test]
fn a_partial_folder_named_by_an_unknown_command_counts_only_when_the_rest_exists() {
    let bare = Repo::new();
    bare.write("src/index.ts", "");
    assert_eq!(bash_outcome(&bare, "npx typedoc --out docs src/index.ts"), None);
    let with_plans = Repo::new();
    with_plans.write("docs/superpowers/plans/p.md", "x");
    assert_eq!(bash_outcome(&with_plans, "npx typedoc --out docs src/index.ts").as_deref(), Some(NEEDS_SPEC));
}
/// The shell channels an agent tries next (docs/decisions.md#d-8), each refused with the gate
/// text of the file it reaches.
#[test]
fn bash_channels_through_wrappers_scripts_values_globs_and_links_are_refused() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    let approval = [
        // Wrappers looked through.
        "watch -n 1 'echo x > openspec/changes/c/approval.md'",
        "flock /tmp/lock -c 'touch openspec/changes/c/approval.md'",
        "flock -c 'touch openspec/changes/c/approval.md' /tmp/lock",
        "script -qec 'npx approval-gates approve c design' /dev/null <<< yes",
        "su -c 'rm openspec/changes/c/approval.md' root",
        "runuser -u nobody -- touch openspec/changes/c/approval.md",
        "busybox cp a openspec/changes/c/approval.md",
        "strace -f -o /tmp/t cp a openspec/changes/c/approval.md",
        "unshare -r fakeroot proot firejail --quiet touch openspec/changes/c/approval.md",
        "parallel 'echo x > {}' ::: openspec/changes/c/approval.md",
        "trap 'rm openspec/changes/c/approval.md' EXIT",
        "git -c alias.w='!touch openspec/changes/c/approval.md' w",
        "fish -c 'touch openspec/changes/c/approval.md'",
        "coproc touch openspec/changes/c/approval.md",
        "echo openspec/changes/c/approval.md | xargs sh -c 'echo x > \"$1\"' _",
        "find openspec/changes/c -name approval.md -exec sh -c 'echo x > \"$1\"' _ {} \\;",
        // Scripts read by other spellings.
        "sh /dev/stdin <<'EOF'\ntouch openspec/changes/c/approval.md\nEOF",
        "bash <(echo 'touch openspec/changes/c/approval.md')",
        "source <(printf 'rm %s' openspec/changes/c/approval.md)",
        "printf 'touch openspec/changes/c/\\x61pproval.md' | sh",
        "echo -e 'true\\ntouch openspec/changes/c/\\0141pproval.md' | bash -s",
        // Values the line defines.
        "w(){ cp f \"$1\"; }; w openspec/changes/c/approval.md",
        "bash -c 'cp \"$0\" \"$1\"' a openspec/changes/c/approval.md",
        "a=(x openspec/changes/c/approval.md); cp f \"${a[1]}\"",
        "touch \"${v:-openspec/changes/c/approval.md}\"",
        "eval \"$(echo 'touch openspec/changes/c/approval.md')\"",
        "echo openspec/changes/c/approval.md | xargs -I{} cp f {}",
        "while read -r f; do rm \"$f\"; done <<< openspec/changes/c/approval.md",
        "ls openspec/changes/c/approval.md | xargs sed -i s/a/b/",
        "alias w='rm -f'; w openspec/changes/c/approval.md",
        // Links made earlier in the same command.
        "ln -s openspec/changes/c/approval.md n.md && echo x > n.md",
        "ln -s ../openspec/changes/c/approval.md n.md && echo x > n.md",
    ];
    for command in approval {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    for command in [
        "touch docs/superpowers/pl*ns/x.md",
        "cp a docs/*/plans/x.md",
        "ln -sfn docs/superpowers/plans p && cp a p/x.md",
        "d=docs/superpowers/plans; w(){ touch \"$1/x.md\"; }; w \"$d\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(NEEDS_SPEC), "{command}");
    }
    assert_eq!(
        check(&repo, "bash", &bash("echo '- [x] 1' >> .super*/sdd/p/progress.md")).as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
}

/// The same channels used for ordinary work stay allowed: reading, hashing, diffing, grepping,
/// committing, prose that names the guarded paths, builds.
#[test]
fn bash_channels_doing_ordinary_work_are_allowed() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    for command in [
        "cat openspec/changes/c/approval.md | sha256sum",
        "diff <(cat docs/superpowers/plans/p.md) <(git show HEAD:docs/superpowers/plans/p.md)",
        "grep -rn approval.md docs/ openspec/ | head",
        "ls docs/superpowers/plans/*.md | xargs wc -l",
        "find openspec/changes -name approval.md -exec sh -c 'head -3 \"$1\"' _ {} \\;",
        "git commit -m \"docs/superpowers/plans: $(echo add) approval.md\"",
        "gh pr create --title t --body \"Adds openspec/changes/c/approval.md via /approve\"",
        "cat > docs/notes.md <<'EOF'\nThe plan docs/superpowers/plans/p.md waits for approval.md\nEOF",
        "printf '%s\\n' 'make test' | sh",
        "echo docs/superpowers/plans/p.md | xargs -I{} cp {} /tmp/backup.md",
        "w(){ wc -l \"$1\"; }; w openspec/changes/c/approval.md",
        "a=(docs/superpowers/plans/p.md); cat \"${a[0]}\"",
        "watch -n 5 'git status'; flock /tmp/l cargo build; strace -o /tmp/t ls docs/superpowers/plans",
        "ln -s docs/superpowers/plans p && ls p/",
        "trap 'rm -f /tmp/scratch' EXIT; cargo test 2>&1 | tee /tmp/test.log",
        "timeout 60 npm test -- --reporter dot",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)), None, "{command}");
    }
}

const APPROVAL: &str = "openspec/changes/c/approval.md";
const C_TEXT: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";
const DESIGN_C: &str = "BLOCKED [approval-gates]: design not approved; run /approve c design";

#[test]
fn mcp_filesystem_writers_by_name() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let refused = [
        ("mcp__filesystem__write_file", Args::default().with("path", APPROVAL).with("content", "design:\n"), C_TEXT),
        ("mcp__fs__edit_file", Args::default().with("path", APPROVAL).edits(&[Some("x")]), C_TEXT),
        ("mcp__filesystem__move_file", Args::default().with("source", "a.md").with("destination", APPROVAL), C_TEXT),
        ("mcp__filesystem__move_file", Args::default().with("source", APPROVAL).with("destination", "b.md"), C_TEXT),
        ("mcp__filesystem__create_directory", Args::default().with("path", APPROVAL), C_TEXT),
        ("mcp__filesystem__write_file", Args::default().with("path", PLAN).with("content", "# no spec"), NEEDS_SPEC),
        ("mcp__filesystem__edit_file", Args::default().with("path", PLAN).edits(&[Some("- [ ] task")]), NEEDS_SPEC),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool}");
    }
    let allowed = [
        ("mcp__filesystem__write_file", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c"))),
        ("mcp__filesystem__write_file", Args::default().with("path", "src/a.rs").with("content", "x")),
        ("mcp__filesystem__edit_file", Args::default().with("path", "README.md").edits(&[Some("x")])),
        ("mcp__filesystem__move_file", Args::default().with("source", "a.md").with("destination", "b.md")),
        ("mcp__filesystem__create_directory", Args::default().with("path", "docs/superpowers/plans")),
        ("mcp__filesystem__create_directory", Args::default().with("path", "openspec/changes/new")),
        ("mcp__filesystem__read_file", Args::default().with("path", APPROVAL)),
        ("mcp__filesystem__read_text_file", Args::default().with("path", PLAN)),
        ("mcp__filesystem__list_directory", Args::default().with("path", "openspec/changes/c")),
        ("mcp__filesystem__search_files", Args::default().with("path", ".").with("pattern", "approval.md")),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
}

#[test]
fn mcp_tools_by_the_words_of_their_name() {
    let repo = Repo::new();
    repo.change("c");
    let refused = [
        ("mcp__notes__saveNote", Args::default().with("filePath", APPROVAL).with("text", "x"), C_TEXT),
        ("mcp__docs__append-text", Args::default().with("file", APPROVAL), C_TEXT),
        ("mcp__s3__download_object", Args::default().with("key", "k").with("output", APPROVAL), C_TEXT),
        ("mcp__files__rename", Args::default().with("from", APPROVAL).with("to", "x.md"), C_TEXT),
        ("mcp__files__delete_path", Args::default().with("path", APPROVAL), C_TEXT),
        (
            "mcp__editor__create_file",
            Args::default().with("filename", PLAN).with("new_string", "# no spec"),
            NEEDS_SPEC,
        ),
        ("mcp__editor__put", Args::default().with("target", PLAN), NEEDS_SPEC),
        ("mcp__editor__write", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c")), DESIGN_C),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool}");
    }
    repo.approve_design("c");
    let allowed = [
        ("mcp__editor__write", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c"))),
        ("mcp__notes__saveNote", Args::default().with("filePath", "notes/today.md").with("text", "x")),
        // A copy's source is read, not written.
        ("mcp__files__copy_file", Args::default().with("source", APPROVAL).with("destination", "backup/approval.bak")),
        // Names that do not say they write: their path arguments are never read.
        ("mcp__files__read_file", Args::default().with("path", APPROVAL)),
        ("mcp__github__get_file_contents", Args::default().with("path", APPROVAL)),
        ("mcp__search__find", Args::default().with("path", PLAN)),
        // A writer whose path names nothing guarded.
        ("mcp__editor__write", Args::default().with("path", "src/x.rs").with("content", "x")),
        ("mcp__anything__whatever", Args::default()),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
}

#[test]
fn mcp_shell_tools_are_judged_as_bash() {
    let repo = Repo::new();
    repo.change("c");
    let writes = Args::default().with("command", "echo x > openspec/changes/c/approval.md");
    for tool in ["mcp__shell__run_command", "mcp__desktop__execute", "mcp__box__bash", "mcp__term__terminalExec"] {
        assert_eq!(check(&repo, tool, &writes).as_deref(), Some(C_TEXT), "{tool}");
    }
    let reads = Args::default().with("command", "cat openspec/changes/c/approval.md");
    assert_eq!(check(&repo, "mcp__shell__run_command", &reads), None);
    // Not a runner by name, so its `command` is not a shell command.
    assert_eq!(check(&repo, "mcp__git__status", &writes), None);
    // `terminal_send` stays outside the gates (docs/decisions.md#t3-6).
    let typed = Args::default().with("text", "echo x > openspec/changes/c/approval.md\n");
    assert_eq!(check(&repo, "terminal_send", &typed), None);
}

#[test]
fn notebooks() {
    let repo = Repo::new();
    repo.change("c");
    for tool in ["notebook_edit", "NotebookEdit"] {
        let approval = Args::default().with("notebook_path", APPROVAL).with("new_source", "x");
        assert_eq!(check(&repo, tool, &approval).as_deref(), Some(C_TEXT), "{tool}");
        let plan = Args::default().with("notebook_path", PLAN).with("new_source", "print(1)");
        assert_eq!(check(&repo, tool, &plan).as_deref(), Some(NEEDS_SPEC), "{tool}");
        let ordinary = Args::default().with("notebook_path", "analysis.ipynb").with("new_source", "print(1)");
        assert_eq!(check(&repo, tool, &ordinary), None, "{tool}");
    }
}

fn added_plan(id: &str) -> String {
    let body: String = Repo::plan_text(id).lines().map(|line| format!("+{line}\n")).collect();
    format!("*** Begin Patch\n*** Add File: {PLAN}\n{body}*** End Patch\n")
}

#[test]
fn apply_patch_in_every_field() {
    let repo = Repo::new();
    repo.change("c");
    for field in ["input", "patch", "command"] {
        let args = Args::default().with(field, &added_plan("c"));
        assert_eq!(check(&repo, "apply_patch", &args).as_deref(), Some(DESIGN_C), "{field}");
    }
    repo.approve_design("c");
    for field in ["input", "patch", "command"] {
        let args = Args::default().with(field, &added_plan("c"));
        assert_eq!(check(&repo, "apply_patch", &args), None, "{field}");
    }
    let no_spec = "*** Begin Patch\n*** Add File: docs/superpowers/plans/y.md\n+# plan\n*** End Patch\n";
    assert_eq!(check(&repo, "apply_patch", &Args::default().with("input", no_spec)).as_deref(), Some(NEEDS_SPEC));
    let refused = [
        format!("*** Begin Patch\n*** Update File: {APPROVAL}\n@@\n-design:\n+design:\n+  by: owner\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Delete File: {APPROVAL}\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Update File: notes.md\n*** Move to: {APPROVAL}\n@@\n+x\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Delete File: {PLAN}\n*** End Patch\n"),
        format!("diff --git a/{APPROVAL} b/{APPROVAL}\n--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1 @@\n-a\n+b\n"),
        format!("diff --git a/x.md b/{APPROVAL}\nrename from x.md\nrename to {APPROVAL}\n"),
    ];
    for text in &refused {
        assert!(check(&repo, "apply_patch", &Args::default().with("input", text)).is_some(), "{text}");
    }
    let git_added = format!(
        "diff --git a/{PLAN} b/{PLAN}\nnew file mode 100644\n--- /dev/null\n+++ b/{PLAN}\n@@ -0,0 +1,5 @@\n{}",
        Repo::plan_text("c").lines().map(|line| format!("+{line}\n")).collect::<String>()
    );
    let allowed = [
        git_added,
        "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch\n".to_string(),
        "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-see approval.md\n+see openspec/changes/c/approval.md\n"
            .to_string(),
        "not a patch at all".to_string(),
    ];
    for text in &allowed {
        assert_eq!(check(&repo, "apply_patch", &Args::default().with("input", text)), None, "{text}");
    }
    assert_eq!(check(&repo, "apply_patch", &Args::default()), None);
}

#[test]
fn unified_diffs_in_an_mcp_patch_field() {
    let repo = Repo::new();
    repo.change("c");
    let diff = format!("--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1 @@\n-a\n+b\n");
    let args = Args::default().with("repo", ".").with("patch", &diff);
    assert_eq!(check(&repo, "mcp__git__apply_patch", &args).as_deref(), Some(C_TEXT));
    // The field that holds the patch, whichever comes first in the table.
    let args = Args::default().with("input", "a message").with("diff", &diff);
    assert_eq!(check(&repo, "mcp__git__apply_patch", &args).as_deref(), Some(C_TEXT));
    // A plain diff's paths are taken as they are.
    let plain = format!("--- {PLAN}\n+++ {PLAN}\n@@ -1 +1 @@\n-a\n+b\n");
    assert_eq!(check(&repo, "apply_patch", &Args::default().with("patch", &plain)).as_deref(), Some(NEEDS_SPEC));
    let harmless = "--- a/src/x.rs\n+++ b/src/x.rs\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(check(&repo, "mcp__git__apply_patch", &Args::default().with("patch", harmless)), None);
}

#[test]
fn bash_patches_are_read_and_judged_by_their_headers() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let to_approval = format!("--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1,2 @@\n design:\n+  by: owner\n");
    repo.write("fix.patch", &to_approval);
    repo.write("sub/fix.diff", &to_approval.replace("a/", "x/a/").replace("b/", "x/b/"));
    repo.write(
        "plan.patch",
        &format!(
            "diff --git a/{PLAN} b/{PLAN}\nnew file mode 100644\n--- /dev/null\n+++ b/{PLAN}\n@@ -0,0 +1 @@\n+x\n"
        ),
    );
    repo.write("env.patch", &format!("*** Begin Patch\n*** Delete File: {APPROVAL}\n*** End Patch\n"));
    repo.write("ok.patch", "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1 +1 @@\n-a\n+b\n");
    for (command, denial) in [
        ("git apply fix.patch", C_TEXT),
        ("git apply -p1 --index fix.patch", C_TEXT),
        ("git am fix.patch", C_TEXT),
        ("patch -p1 < fix.patch", C_TEXT),
        ("patch -p1 -i fix.patch", C_TEXT),
        ("patch --input=fix.patch", C_TEXT),
        ("cd sub && patch -p2 < fix.diff", C_TEXT),
        ("patch -d sub -p2 -i fix.diff", C_TEXT),
        ("git apply env.patch", C_TEXT),
        ("git apply plan.patch", NEEDS_SPEC),
        ("sh -c 'git apply plan.patch'", NEEDS_SPEC),
        ("git apply docs/superpowers/plans/missing.patch", NEEDS_SPEC),
        ("cat fix.patch | git apply", C_TEXT),
        ("cat fix.patch | patch -p1", C_TEXT),
        ("cd sub && cat fix.diff | patch -p2", C_TEXT),
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "git apply ok.patch",
        "patch -p1 < ok.patch",
        "git apply --check fix.patch",
        "git apply --stat plan.patch",
        "patch --dry-run -p1 < fix.patch",
        "cat fix.patch",
        "git diff > fix.patch",
        "git apply missing.patch",
        "cat ok.patch | git apply",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)), None, "{command}");
    }
}

fn in_shell(repo: &Repo, shell: &str, command: &str) -> Option<String> {
    check_tool_call_in("bash", &bash(command), || repo.root.clone(), || Some(shell.to_string()))
        .map(|denial| denial.to_string())
}

#[test]
fn a_persistent_shell_is_judged_with_what_its_earlier_calls_left() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(in_shell(&repo, "s1", "cd docs/superpowers/plans"), None);
    assert_eq!(in_shell(&repo, "s1", "echo x > a.md").as_deref(), Some(NEEDS_SPEC));
    // A later cd elsewhere may have failed: the plans folder stays possible.
    assert_eq!(in_shell(&repo, "s1", "cd /nonexistent-dir"), None);
    assert_eq!(in_shell(&repo, "s1", "echo x > a.md").as_deref(), Some(NEEDS_SPEC));
    // Another shell, and a one-shot call, start in the session directory.
    assert_eq!(in_shell(&repo, "s2", "echo x > a.md"), None);
    assert_eq!(check(&repo, "bash", &bash("echo x > a.md")), None);
    // Variables last too, with every value they may have.
    assert_eq!(in_shell(&repo, "s3", "D=openspec/changes/c"), None);
    assert_eq!(in_shell(&repo, "s3", "D=src"), None);
    assert_eq!(in_shell(&repo, "s3", "echo x > $D/approval.md").as_deref(), Some(C_TEXT));
    assert_eq!(in_shell(&repo, "s3", "echo x > $D/notes.md"), None);
    // pushd's stack and OLDPWD.
    assert_eq!(in_shell(&repo, "s4", "pushd openspec/changes/c && pushd /tmp"), None);
    assert_eq!(in_shell(&repo, "s4", "popd && touch approval.md").as_deref(), Some(C_TEXT));
    assert!(crate::persistent::drop_shell("s1"));
    assert_eq!(in_shell(&repo, "s1", "echo x > a.md"), None);
}

#[test]
fn a_refused_call_or_a_scoped_cd_leaves_no_state() {
    let repo = Repo::new();
    repo.change("c");
    let refused = in_shell(&repo, "r", "cd docs/superpowers/plans && echo x > a.md");
    assert_eq!(refused.as_deref(), Some(NEEDS_SPEC));
    assert_eq!(in_shell(&repo, "r", "echo x > a.md"), None);
    for scoped in
        ["(cd docs/superpowers/plans)", "bash -c 'cd docs/superpowers/plans'", "f() { cd docs/superpowers/plans; }"]
    {
        assert_eq!(in_shell(&repo, "scoped", scoped), None, "{scoped}");
        assert_eq!(in_shell(&repo, "scoped", "echo x > a.md"), None, "{scoped}");
    }
    // Reading and committing stay allowed from inside the plans folder.
    assert_eq!(in_shell(&repo, "reader", "cd docs/superpowers/plans"), None);
    assert_eq!(in_shell(&repo, "reader", "cat x.md && sha256sum x.md && git commit -m 'plan x'"), None);
}

#[test]
fn a_shell_over_its_state_cap_fails_closed_on_guarded_names() {
    let repo = Repo::new();
    for n in 0..crate::persistent::MAX_STATES + 2 {
        assert_eq!(in_shell(&repo, "big", &format!("cd /tmp/d{n}")), None);
    }
    let overflow = "BLOCKED [approval-gates]: this persistent shell's earlier commands left too many possible states to track, and this command names a guarded path; start a new shell";
    assert_eq!(in_shell(&repo, "big", "cat docs/superpowers/plans/x.md").as_deref(), Some(overflow));
    assert_eq!(in_shell(&repo, "big", "ls && make test"), None);
    crate::persistent::drop_shell("big");
    assert_eq!(in_shell(&repo, "big", "cat docs/superpowers/plans/x.md"), None);
    // A command too large to read leaves the shell somewhere unknown.
    let huge = format!("cd sub; {}", "echo x; ".repeat(200_000));
    assert_eq!(in_shell(&repo, "huge", &huge), None);
    assert_eq!(in_shell(&repo, "huge", "echo x > docs/superpowers/plans/x.md").as_deref(), Some(overflow));
}
