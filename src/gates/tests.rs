use std::collections::HashMap;

use super::*;
use crate::test_repo::Repo;

#[derive(Default)]
struct Args {
    strings: HashMap<&'static str, String>,
    edits: Option<Vec<Option<String>>>,
}

impl Args {
    fn with(mut self, field: &'static str, value: &str) -> Self {
        self.strings.insert(field, value.to_string());
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
    let padding = "x".repeat(crate::shell::MAX_COMMAND_BYTES);
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

/// Issue 10, items 2 to 5: the shell channels an agent tries next, each refused with the gate
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
