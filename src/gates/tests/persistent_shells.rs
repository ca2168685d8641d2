use super::*;

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
    assert!(crate::analysis::persistent::drop_shell("s1"));
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
    for n in 0..crate::analysis::persistent::MAX_STATES + 2 {
        assert_eq!(in_shell(&repo, "big", &format!("cd /tmp/d{n}")), None);
    }
    let overflow = "BLOCKED [approval-gates]: this persistent shell's earlier commands left too many possible states to track, and this command names a guarded path; start a new shell";
    assert_eq!(in_shell(&repo, "big", "cat docs/superpowers/plans/x.md").as_deref(), Some(overflow));
    assert_eq!(in_shell(&repo, "big", "ls && make test"), None);
    crate::analysis::persistent::drop_shell("big");
    assert_eq!(in_shell(&repo, "big", "cat docs/superpowers/plans/x.md"), None);
    // A command too large to read leaves the shell somewhere unknown.
    let huge = format!("cd sub; {}", "echo x; ".repeat(200_000));
    assert_eq!(in_shell(&repo, "huge", &huge), None);
    assert_eq!(in_shell(&repo, "huge", "echo x > docs/superpowers/plans/x.md").as_deref(), Some(overflow));
}
