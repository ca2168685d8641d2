use super::*;

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
        ("no_such_tool", write("src/a.rs", "")),
    ] {
        assert_eq!(check(&repo, tool, &args), None, "{tool}");
    }
    // An unknown tool naming a plan is a write of it (docs/decisions.md#p-18).
    assert_eq!(check(&repo, "no_such_tool", &write(PLAN, "")).as_deref(), Some(NEEDS_SPEC));
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
