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

/// A call of a host that reports how its calls end, named `call_id`.
fn reported(repo: &Repo, shell: &str, call_id: &str, command: &str) -> Option<String> {
    let call = || Some(ShellCall { shell: shell.to_string(), call_id: Some(call_id.to_string()) });
    check_tool_call_hosted("bash", &bash(command), || repo.root.clone(), call, || None).map(|denial| denial.to_string())
}

/// The sdd ledger's progress, a plan `p` approved, and a `src` folder: a session that goes down
/// into `src` and back up again.
fn approved_plan_with_src() -> Repo {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c").approve_plan("c", "p");
    repo.write("src/app.js", "");
    repo
}

const PROGRESS: &str = "echo '- [x] Task 1' >> .superpowers/sdd/p/progress.md";

#[test]
fn a_host_that_reports_each_call_ran_keeps_the_shell_where_it_went() {
    let repo = approved_plan_with_src();
    assert_eq!(reported(&repo, "ran", "1", "cd src"), None);
    assert!(crate::analysis::persistent::settle("ran", "1"));
    assert_eq!(reported(&repo, "ran", "2", "grep -n x app.js"), None);
    assert!(crate::analysis::persistent::settle("ran", "2"));
    assert_eq!(reported(&repo, "ran", "3", "cd .."), None);
    assert!(crate::analysis::persistent::settle("ran", "3"));
    // Back at the root: the sdd ledger of the approved plan, not one above the repository.
    assert_eq!(reported(&repo, "ran", "4", PROGRESS), None);
    // A settled call is settled once; another id, or another shell, settles nothing.
    assert!(!crate::analysis::persistent::settle("ran", "3"));
    assert!(!crate::analysis::persistent::settle("ran", "99"));
    assert!(!crate::analysis::persistent::settle("never-seen", "4"));
}

#[test]
fn a_call_not_reported_as_ran_leaves_where_it_started_and_the_fresh_shell_possible() {
    let repo = approved_plan_with_src();
    // The first call may not have run (another guard refused it, or it was cancelled): `cd ..`
    // may then start at the root and leave the shell above the repository, where plan p is not.
    assert_eq!(reported(&repo, "unsettled", "1", "cd src"), None);
    assert_eq!(reported(&repo, "unsettled", "2", "cd .."), None);
    assert!(crate::analysis::persistent::settle("unsettled", "2"));
    assert_eq!(
        reported(&repo, "unsettled", "3", PROGRESS).as_deref(),
        Some("BLOCKED [approval-gates]: plan not found: p")
    );
    // A reset (a timeout) after `cd src`: the next `cd ..` may start fresh at the root.
    assert_eq!(reported(&repo, "reset", "1", "cd src"), None);
    assert!(crate::analysis::persistent::settle("reset", "1"));
    assert_eq!(reported(&repo, "reset", "2", "sleep 1000"), None);
    assert_eq!(reported(&repo, "reset", "3", "cd .."), None);
    assert!(crate::analysis::persistent::settle("reset", "3"));
    assert!(reported(&repo, "reset", "4", PROGRESS).is_some());
    // A host that does not report: every call may have been the one that reset the shell.
    assert_eq!(in_shell(&repo, "unreported", "cd src"), None);
    assert_eq!(in_shell(&repo, "unreported", "cd .."), None);
    assert!(in_shell(&repo, "unreported", PROGRESS).is_some());
}

#[test]
fn a_cd_that_may_fail_leaves_where_it_started_possible_even_when_it_ran() {
    let repo = approved_plan_with_src();
    // `missing` is not there, `~`, a variable or an option is not a plain directory: the shell
    // may still be at the root when `cd ..` runs.
    for (n, first) in ["cd missing", "cd ~/src", "cd $D", "cd -P src", "pushd missing"].into_iter().enumerate() {
        let shell = format!("may-fail-{n}");
        assert_eq!(reported(&repo, &shell, "1", first), None, "{first}");
        assert!(crate::analysis::persistent::settle(&shell, "1"));
        assert_eq!(reported(&repo, &shell, "2", "cd .."), None, "{first}");
        assert!(crate::analysis::persistent::settle(&shell, "2"));
        assert!(reported(&repo, &shell, "3", PROGRESS).is_some(), "{first}");
    }
    // `pushd src` into a folder that is there moves the shell as `cd src` does.
    assert_eq!(reported(&repo, "pushd", "1", "pushd src"), None);
    assert!(crate::analysis::persistent::settle("pushd", "1"));
    assert_eq!(reported(&repo, "pushd", "2", "cd .."), None);
    assert!(crate::analysis::persistent::settle("pushd", "2"));
    assert_eq!(reported(&repo, "pushd", "3", PROGRESS), None);
}

/// [`reported`] for a persistent `pwsh`.
fn reported_pwsh(repo: &Repo, shell: &str, call_id: &str, command: &str) -> Option<String> {
    let call = || Some(ShellCall { shell: shell.to_string(), call_id: Some(call_id.to_string()) });
    check_tool_call_hosted("pwsh", &bash(command), || repo.root.clone(), call, || None).map(|denial| denial.to_string())
}

#[test]
fn a_powershell_set_location_into_an_existing_directory_moves_the_shell_for_sure() {
    let repo = approved_plan_with_src();
    let progress = "Add-Content .superpowers/sdd/p/progress.md '- [x] Task 1'";
    for (n, (first, sure)) in [
        ("Set-Location src", true),
        ("cd src", true),
        ("Push-Location src", true),
        ("Set-Location missing", false),
        ("Set-Location $d", false),
        ("Set-Location src*", false),
    ]
    .into_iter()
    .enumerate()
    {
        let shell = format!("pwsh-{n}");
        assert_eq!(reported_pwsh(&repo, &shell, "1", first), None, "{first}");
        assert!(crate::analysis::persistent::settle(&shell, "1"));
        assert_eq!(reported_pwsh(&repo, &shell, "2", "Set-Location .."), None, "{first}");
        assert!(crate::analysis::persistent::settle(&shell, "2"));
        assert_eq!(reported_pwsh(&repo, &shell, "3", progress).is_none(), sure, "{first}");
    }
}

#[test]
fn a_pushd_a_sure_popd_undoes_is_left_once_the_call_ran_to_its_end() {
    let repo = approved_plan_with_src();
    repo.write("docs/superpowers/plans/notes.txt", "");
    let notes = "echo x > notes.md";
    let plan = Some(NEEDS_SPEC);
    // Reported as run to its end: the shell is back where it started.
    for (n, line) in [
        "pushd docs/superpowers/plans; ls; popd",
        "pushd docs/superpowers/plans\ncat p.md\npopd",
        "pushd docs/superpowers/plans >/dev/null; ls; popd >/dev/null",
        "cd docs/superpowers/plans; cat p.md; cd -",
        "cd src; cd ../docs/superpowers/plans && ls; cd - >/dev/null",
        "pushd src; pushd ../docs/superpowers/plans; ls; popd; popd",
    ]
    .into_iter()
    .enumerate()
    {
        let shell = format!("undone-{n}");
        assert_eq!(reported(&repo, &shell, "1", line), None, "{line}");
        assert!(crate::analysis::persistent::settle(&shell, "1"));
        assert_eq!(reported(&repo, &shell, "2", notes), None, "{line}");
    }
    // Not reported yet, or by a host that does not report: it may have stopped in the plans
    // folder (a timeout, an interrupt).
    assert_eq!(reported(&repo, "unsettled-popd", "1", "pushd docs/superpowers/plans; ls; popd"), None);
    assert_eq!(reported(&repo, "unsettled-popd", "2", notes).as_deref(), plan);
    assert_eq!(in_shell(&repo, "unreported-popd", "pushd docs/superpowers/plans; ls; popd"), None);
    assert_eq!(in_shell(&repo, "unreported-popd", notes).as_deref(), plan);
    // A popd that runs only if `ls` succeeds, or whose directory the line removed, may leave the
    // shell in the plans folder even when the call ran to its end.
    for (n, line) in [
        "pushd docs/superpowers/plans && ls && popd",
        "pushd docs/superpowers/plans; ls; true || popd",
        "cd src; pushd ../docs/superpowers/plans; rm -rf ../../../src; popd",
        "cd docs/superpowers/plans; ls; cd -; cd -",
        "cd docs/superpowers/plans; OLDPWD=/tmp; cd -",
        "cd docs/superpowers/plans; ls; cd - > /tmp/log",
    ]
    .into_iter()
    .enumerate()
    {
        let shell = format!("kept-{n}");
        assert_eq!(reported(&repo, &shell, "1", line), None, "{line}");
        assert!(crate::analysis::persistent::settle(&shell, "1"));
        assert_eq!(reported(&repo, &shell, "2", notes).as_deref(), plan, "{line}");
    }
}

#[test]
fn a_push_location_a_sure_pop_location_undoes_is_left_once_the_call_ran_to_its_end() {
    let repo = approved_plan_with_src();
    let notes = "Set-Content notes.md x";
    let line = "Push-Location docs/superpowers/plans; Get-ChildItem; Pop-Location";
    assert_eq!(reported_pwsh(&repo, "pwsh-undone", "1", line), None);
    assert!(crate::analysis::persistent::settle("pwsh-undone", "1"));
    assert_eq!(reported_pwsh(&repo, "pwsh-undone", "2", notes), None);
    // Not reported yet: it may have stopped in the plans folder.
    assert_eq!(reported_pwsh(&repo, "pwsh-unsettled", "1", line), None);
    assert_eq!(reported_pwsh(&repo, "pwsh-unsettled", "2", notes).as_deref(), Some(NEEDS_SPEC));
    // A pop that may not run, or whose location the call removed.
    for (n, line) in [
        "Push-Location docs/superpowers/plans; if ($x) { Pop-Location }",
        "Push-Location docs/superpowers/plans; Get-ChildItem && Pop-Location",
        "Set-Location src; Push-Location ../docs/superpowers/plans; Remove-Item -Recurse ../../../src; Pop-Location",
    ]
    .into_iter()
    .enumerate()
    {
        let shell = format!("pwsh-kept-{n}");
        assert_eq!(reported_pwsh(&repo, &shell, "1", line), None, "{line}");
        assert!(crate::analysis::persistent::settle(&shell, "1"));
        assert_eq!(reported_pwsh(&repo, &shell, "2", notes).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
}

#[test]
fn a_return_to_a_directory_the_shell_computed_earlier_is_sure() {
    let repo = approved_plan_with_src();
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path(".git")).unwrap();
    let plans = "docs/superpowers/plans";
    // The same line in one call, and over calls of a shell that reports how they end.
    for (n, back) in [
        ("ROOT=$PWD", "cd \"$ROOT\""),
        ("ROOT=$(pwd)", "cd $ROOT"),
        ("ROOT=$(git rev-parse --show-toplevel)", "cd \"$ROOT\""),
        ("true", "cd \"$OLDPWD\""),
        ("true", "cd \"$(git rev-parse --show-toplevel)\""),
    ]
    .iter()
    .enumerate()
    .map(|(n, (set, back))| (n, format!("{set}\ncd {plans}\nls\n{back}\n")))
    {
        let one = format!("{back}echo hi > src/n.txt");
        assert_eq!(check(&repo, "bash", &bash(&one)), None, "{one}");
        let at_top = format!("{back}touch x.md");
        assert_eq!(check(&repo, "bash", &bash(&at_top)), None, "{at_top}");
        let shell = format!("computed-{n}");
        for (at, call) in back.lines().enumerate() {
            assert_eq!(reported(&repo, &shell, &at.to_string(), call), None, "{call}");
            crate::analysis::persistent::settle(&shell, &at.to_string());
        }
        assert_eq!(reported(&repo, &shell, "end", "touch src/n.js"), None, "{back}");
        crate::analysis::persistent::drop_shell(&shell);
    }
    // A directory that is itself the plans folder stays judged there.
    let into = format!("cd {plans}; ROOT=$PWD; cd /tmp; cd \"$ROOT\"; echo x > new.md");
    assert_eq!(check(&repo, "bash", &bash(&into)).as_deref(), Some(NEEDS_SPEC));
    for (at, call) in ["ROOT=$PWD", &format!("cd {plans}"), "ROOT=$PWD", "cd /", "cd \"$ROOT\""].iter().enumerate() {
        assert_eq!(reported(&repo, "into", &at.to_string(), call), None, "{call}");
        crate::analysis::persistent::settle("into", &at.to_string());
    }
    assert_eq!(reported(&repo, "into", "end", "echo x > new.md").as_deref(), Some(NEEDS_SPEC));
}

#[test]
fn rebound_command_names_and_cdable_variables_last_between_calls() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    assert_eq!(in_shell(&repo, "hashed", "hash -p /usr/bin/touch cat"), None);
    assert_eq!(in_shell(&repo, "hashed", "cat docs/superpowers/plans/x.md").as_deref(), Some(NEEDS_SPEC));
    assert_eq!(in_shell(&repo, "hashed", "echo docs/superpowers/plans/x.md"), None);
    assert_eq!(in_shell(&repo, "cdable", "shopt -s cdable_vars; v=docs/superpowers/plans"), None);
    assert_eq!(in_shell(&repo, "cdable", "cd v"), None);
    assert_eq!(in_shell(&repo, "cdable", "touch x.md").as_deref(), Some(NEEDS_SPEC));
}
