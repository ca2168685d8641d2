use super::*;

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
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
    // Names are exact: `WRITE` is no known tool, so every string it carries is judged
    // (docs/decisions.md#p-18).
    assert_eq!(check(&repo, "WRITE", &write("openspec/changes/c/approval.md", "x")).as_deref(), Some(ONLY_APPROVE));
}
/// Claude Code 2.1's tools that start more work (gate B) or run commands, beside the file tools.
#[test]
fn claude_code_dispatches_and_commands() {
    let repo = Repo::new();
    repo.change("c").plan("approved", "c").approve_plan("c", "approved");
    repo.change("d").approve_design("d").plan("pending", "d");
    repo.write(
        "scripts/wf.js",
        "export const meta = {name: 'x'}\nawait agent('Implement docs/superpowers/plans/pending.md')\n",
    );
    repo.write("scripts/ok.js", "await agent('Implement docs/superpowers/plans/approved.md task 2')\n");
    let pending = "BLOCKED [approval-gates]: plan not approved; run /approve d plan";
    let workflow = |field: &'static str, text: &str| Args::default().with(field, text);
    let refused = [
        (
            "Workflow",
            workflow("script", "await agent('Implement task 1 of docs/superpowers/plans/pending.md')"),
            pending,
        ),
        (
            "Workflow",
            Args::default()
                .with("script", "await agent(args.task)")
                .json("args", r#"{"task":"docs/superpowers/plans/pending.md"}"#),
            pending,
        ),
        ("Workflow", workflow("scriptPath", "scripts/wf.js"), pending),
        ("Workflow", workflow("scriptPath", &repo.path("scripts/wf.js").display().to_string()), pending),
        (
            "Workflow",
            workflow("script", "ledger .superpowers/sdd/ghost/"),
            "BLOCKED [approval-gates]: plan not found: ghost",
        ),
        (
            "SendMessage",
            Args::default().with("to", "worker").with("message", "start docs/superpowers/plans/pending.md"),
            pending,
        ),
        (
            "CronCreate",
            Args::default().with("cron", "* * * * *").with("prompt", "implement docs/superpowers/plans/pending.md"),
            pending,
        ),
        (
            "ScheduleWakeup",
            Args::default().with("delaySeconds", "60").with("prompt", "continue .superpowers/sdd/pending/"),
            pending,
        ),
        (
            "RemoteTrigger",
            Args::default()
                .with("action", "create")
                .json("body", r#"{"prompt":"implement docs/superpowers/plans/pending.md"}"#),
            pending,
        ),
        (
            "ProposeGoal",
            Args::default().with("condition", "every task of docs/superpowers/plans/pending.md is done"),
            pending,
        ),
        (
            "Monitor",
            Args::default().with("command", "echo x > openspec/changes/d/approval.md").with("description", "m"),
            ONLY_APPROVE,
        ),
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
        (
            "Edit",
            Args::default().with("file_path", ".claude/settings.json").with("new_string", "x"),
            root(".claude/settings.json"),
        ),
        ("MultiEdit", Args::default().with("file_path", ".mcp.json").edits(&[Some("{}")]), root(".mcp.json")),
        (
            "NotebookEdit",
            Args::default().with("notebook_path", ".claude/n.ipynb").with("new_source", "1"),
            root(".claude/n.ipynb"),
        ),
        ("Write", write(&user(".claude/settings.json"), "{}"), user(".claude/settings.json")),
        ("Write", write(&user(".claude.json"), "{}"), user(".claude.json")),
        (
            "Write",
            write(&user(".local/share/approval-gates/bin/approval-gates-hook"), "#!/bin/sh"),
            user(".local/share/approval-gates/bin/approval-gates-hook"),
        ),
        ("Write", write("/opt/ag/approval-gates-hook", "#!/bin/sh"), "/opt/ag/approval-gates-hook".to_string()),
        // Where it really lands (P-8).
        ("Write", write("conf/settings.local.json", "{}"), root("conf/settings.local.json")),
        (
            "mcp__filesystem__write_file",
            Args::default().with("path", ".claude/settings.local.json").with("content", "{}"),
            root(".claude/settings.local.json"),
        ),
        (
            "mcp__filesystem__move_file",
            Args::default().with("source", "x.json").with("destination", ".claude/settings.json"),
            root(".claude/settings.json"),
        ),
        ("mcp__files__create_directory", Args::default().with("path", ".claude/agents"), root(".claude/agents")),
        // Named like the filesystem server's writer, with another server's field.
        (
            "mcp__foo__write_file",
            Args::default().with("file_path", ".claude/settings.json").with("content", "{}"),
            root(".claude/settings.json"),
        ),
        (
            "mcp__git__apply_patch",
            Args::default()
                .with("patch", "*** Begin Patch\n*** Add File: .claude/settings.local.json\n+{}\n*** End Patch\n"),
            root(".claude/settings.local.json"),
        ),
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
