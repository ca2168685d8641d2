use super::*;

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

/// A move or copy onto a folder the line removed or moved away first lands as that folder, not
/// inside it as the disk says now (P-18): a change swapped for another, `openspec/` for a folder
/// the line does not show.
#[test]
fn a_destination_the_line_removed_first_is_also_the_tree_itself() {
    let repo = Repo::new();
    repo.change("c").change("d").approve_design("c").approve_design("d").plan("p", "c");
    repo.write("build/out.o", "").write("dist/out.o", "").write("stash/new/changes/c/approval.md", "x");
    for command in [
        "rm -rf openspec/changes/c && mv openspec/changes/d openspec/changes/c",
        "rm -rf openspec/changes/c && mv /tmp/backup/changes/c openspec/changes/c",
        "mv openspec /tmp/old && mv /tmp/backup openspec",
        "mv openspec stash/old && mv stash/new openspec",
        "rm -rf openspec/changes/c && cp -r openspec/changes/d/ openspec/changes/c/",
        "mv openspec/changes/d openspec/changes/new/",
        "rm -rf openspec && mkdir -p openspec/changes && mv /tmp/c openspec/changes/c",
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    let plans = "rm -rf docs/superpowers && cp -r /tmp/d docs/superpowers";
    assert_eq!(bash_outcome(&repo, plans).as_deref(), Some(NEEDS_SPEC));
    for command in [
        "rm -rf build && mv dist build",
        "mv openspec/changes/c openspec/changes/archive/2026-12-01-c",
        "rm -rf openspec/changes/archive/2026-12-01-c && mv openspec/changes/c openspec/changes/archive/2026-12-01-c",
        "mv notes.md openspec/changes/c",
        "rm -f openspec/changes/c/notes.md && mv /tmp/notes.md openspec/changes/c/notes.md",
        "rm -rf /tmp/old && mv openspec/changes/c /tmp/old",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

/// sed's `e` alone runs each line it reads as a shell command (P-18): text the line shows is
/// judged as those commands; text it cannot compute reaches an unknown command.
#[test]
fn sed_e_runs_what_it_reads() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write("cmds.txt", "date\ntouch openspec/changes/c/approval.md\n").write("ok.txt", "date\nls docs\n");
    repo.write("list.txt", "openspec/changes/c/approval.md\n");
    for command in [
        "echo 'cp /tmp/p.md openspec/changes/c/approval.md' | sed e",
        "printf 'touch openspec/changes/c/approval.md\\n' | sed -n e",
        "sed -n 'e' <<< 'touch openspec/changes/c/approval.md'",
        "sed -n '1d;e' <<< $'x\\ntouch openspec/changes/c/approval.md'",
        "printf 'cat <<E\\ntouch openspec/changes/c/approval.md\\nE\\n' | sed e",
        "sed e cmds.txt",
        "sed -n e < cmds.txt",
        "cat cmds.txt | sed -n e",
        "printf 'touch openspec/changes/c/approval.md\\n' > /tmp/c && sed -n e /tmp/c",
        "sed -n e <(echo touch openspec/changes/c/approval.md)",
        "echo openspec/changes/c/approval.md | sed 's/^/touch /;e'",
        "sed 's/^/touch /e' list.txt",
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    for command in [
        "echo 'date' | sed e",
        "echo 'cat openspec/changes/c/approval.md' | sed -n e",
        "sed -n e ok.txt",
        "sed --sandbox -n e <<< 'touch openspec/changes/c/approval.md'",
        "sed -n 's/e/E/p' openspec/changes/c/approval.md",
        "echo 'touch openspec/changes/c/approval.md' | sed 's/^/# /'",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

/// sed's script is read as sed compiles it: a `w` or `e` after an address whose regex holds its
/// delimiter in a bracket expression or escaped, after a label, or in an `e` text spelled with
/// sed's escapes or going on into the next `-e`, is found (P-18).
#[test]
fn sed_commands_are_found_where_sed_finds_them() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write("a.md", "a/b\n");
    for (command, denial) in [
        ("sed -n '/[/]/w docs/superpowers/plans/p.md' a.md", NEEDS_SPEC),
        ("sed -n '/[^]/]/w docs/superpowers/plans/p.md' a.md", NEEDS_SPEC),
        ("sed -n 's/[/]/x/w openspec/changes/c/approval.md' a.md", ONLY_APPROVE),
        ("sed -n '\\%[%]%w openspec/changes/c/approval.md' a.md", ONLY_APPROVE),
        ("sed -n ':x w docs/superpowers/plans/p.md' a.md", NEEDS_SPEC),
        ("sed '/[/]/e touch openspec/changes/c/approval.md' a.md", ONLY_APPROVE),
        ("sed -n \"1e touch 'openspec/changes/c/\\x61pproval.md'\" a.md", ONLY_APPROVE),
        ("sed -n -e '1e\\' -e 'touch openspec/changes/c/approval.md' a.md", ONLY_APPROVE),
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "sed -n '/[/]/p' docs/superpowers/plans/p.md",
        "sed -n '/[/]/w /tmp/out' docs/superpowers/plans/p.md",
        "sed -n 's|plans/|x|w /tmp/out' docs/superpowers/plans/p.md",
        "sed '1a w docs/superpowers/plans/p.md' a.md",
        "sed -n '/[/]/r docs/superpowers/plans/p.md' a.md",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

/// The editor, pager and helper variables hold a command line a program runs later (`git commit`
/// opens `$GIT_EDITOR`): judged where they are set (P-18).
#[test]
fn editor_variables_run_their_value() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    for command in [
        "GIT_EDITOR='touch openspec/changes/c/approval.md; true' git commit --allow-empty -q",
        "GIT_EDITOR='cp /tmp/evil/approval.md openspec/changes/c/approval.md' git commit --allow-empty",
        "export EDITOR='touch openspec/changes/c/approval.md'; git commit --allow-empty",
        "VISUAL='touch openspec/changes/c/approval.md' git tag -a v1",
        "GIT_SEQUENCE_EDITOR='touch openspec/changes/c/approval.md' git rebase -i HEAD~2",
        "env GIT_EDITOR='touch openspec/changes/c/approval.md' git commit --allow-empty",
        "E='touch openspec/changes/c/approval.md'; export GIT_EDITOR=\"$E\"; git commit",
        "git -c sequence.editor='touch openspec/changes/c/approval.md' rebase -i HEAD~2",
        "GIT_PAGER='touch openspec/changes/c/approval.md' git log",
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    for command in [
        "git commit -m x",
        "GIT_EDITOR=true git commit --allow-empty -q",
        "export EDITOR=vim VISUAL='code --wait'; git commit -m 'see openspec/changes/c/approval.md'",
        "GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~2",
        "PAGER=less git log -p -- openspec/changes/c/approval.md",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

/// Hooks a git command runs (P-18): a hook the line writes is judged by the text it shows; a hooks
/// path set to a folder whose hooks the line does not show may run anything the line names.
#[test]
fn hooks_written_or_configured_in_the_line_run_at_the_next_git_command() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write(".git/HEAD", "ref: refs/heads/main\n");
    for (command, denial) in [
        (
            "mkdir -p .hooks && echo 'echo x >> docs/superpowers/plans/p.md' > .hooks/pre-commit && chmod +x \
             .hooks/pre-commit && git config core.hooksPath .hooks && git commit --allow-empty -qm x",
            NEEDS_SPEC,
        ),
        ("git config core.hooksPath /tmp/h && git commit -qm 'touches docs/superpowers/plans/p.md'", NEEDS_SPEC),
        (
            "printf '#!/bin/sh\\ntouch openspec/changes/c/approval.md\\n' > .git/hooks/post-commit && git commit -qm x",
            ONLY_APPROVE,
        ),
        ("cp /tmp/hook .git/hooks/pre-commit && git commit -qm 'openspec/changes/c/approval.md'", ONLY_APPROVE),
        ("git config core.editor 'touch openspec/changes/c/approval.md' && git commit", ONLY_APPROVE),
        ("git config --global alias.x '!touch openspec/changes/c/approval.md' && git x", ONLY_APPROVE),
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "git config core.hooksPath /tmp/h && git commit -qm x",
        "printf '#!/bin/sh\\nmake test\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git commit -qm x",
        "git config user.name me && git commit -qm 'docs/superpowers/plans/p.md'",
        "git config --get core.hooksPath && git log -- openspec/changes/c/approval.md",
        "echo 'touch openspec/changes/c/approval.md' > notes.txt && git add notes.txt && git commit -qm x",
    ] {
        assert_eq!(bash_outcome(&repo, command), None, "{command}");
    }
}

/// `:/` and `:(top)` alone are the whole work tree from its top, wherever git runs.
#[test]
fn top_pathspecs_start_at_the_top_of_the_work_tree() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write(".git/HEAD", "ref: refs/heads/main\n").write("src/lib.rs", "");
    for command in [
        "cd src && git checkout HEAD~1 -- :/",
        "cd src && git restore --source HEAD~1 :/",
        "cd src && git checkout HEAD~1 -- ':(top)'",
        "git -C src checkout HEAD~1 -- ':(top,icase)'",
    ] {
        assert_eq!(bash_outcome(&repo, command).as_deref(), Some(ONLY_APPROVE), "{command}");
    }
    for command in [
        "git checkout HEAD~1 -- :/src",
        "cd src && git checkout HEAD~1 -- :/src",
        "cd src && git restore --source HEAD~1 -- .",
        "cd src && git checkout HEAD~1 -- ':(top)src/lib.rs'",
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

#[test]
fn an_unknown_command_run_in_a_guarded_folder_may_write_there() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path(".superpowers/sdd/p")).unwrap();
    for (line, denial) in [
        ("cd docs/superpowers/plans && mytool", Some(NEEDS_SPEC)),
        ("(cd docs/superpowers/plans; mytool --fix)", Some(NEEDS_SPEC)),
        ("cd openspec/changes/c && mytool", Some(ONLY_APPROVE)),
        ("sudo -D openspec/changes/c mytool", Some(ONLY_APPROVE)),
        ("cd .superpowers/sdd/p && mytool", None),
    ] {
        match denial {
            Some(text) => assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(text), "{line}"),
            None => assert!(check(&repo, "bash", &bash(line)).is_some(), "{line}"),
        }
    }
    // Known readers there, and an unknown command in a folder that only holds one or lies in a
    // change, write nothing guarded.
    for line in [
        "cd docs/superpowers/plans && ls && wc -l *.md && git log --oneline -- .",
        "cd openspec/changes/c && cat design.md && grep -n TODO tasks.md",
        "cd docs && mkdocs build",
        "mkdir -p openspec/changes/c/specs && cd openspec/changes/c/specs && mytool",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn what_reaches_an_unknown_command_through_lists_groups_loops_and_substitutions() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for (line, denial) in [
        // A `<` that tree-sitter hangs on the list or pipeline is the last command's.
        ("true && mytool < openspec/changes/c/approval.md", ONLY_APPROVE),
        ("cd openspec/changes/c && mytool < approval.md", ONLY_APPROVE),
        ("git status && mytool <<< openspec/changes/c/approval.md", ONLY_APPROVE),
        // Of several `<`, bash reads the last.
        ("mytool < /dev/null < openspec/changes/c/approval.md", ONLY_APPROVE),
        // A producer stage's own `<` file.
        ("cat < openspec/changes/c/approval.md | mytool", ONLY_APPROVE),
        ("sort < docs/superpowers/plans/p.md | uniq | mytool", NEEDS_SPEC),
        // A process substitution on standard input: what it prints, or its commands' words.
        ("mytool < <(echo openspec/changes/c/approval.md)", ONLY_APPROVE),
        ("mytool < <(ls docs/superpowers/plans/p.md)", NEEDS_SPEC),
        // A group, a subshell or a loop before the pipe.
        ("for f in openspec/changes/c/approval.md; do echo \"$f\"; done | mytool", ONLY_APPROVE),
        ("{ echo openspec/changes/c/approval.md; } | mytool", ONLY_APPROVE),
        ("( cd docs; ls superpowers/plans/p.md ) | sort | mytool", NEEDS_SPEC),
        ("if true; then cat openspec/changes/c/approval.md; fi | mytool", ONLY_APPROVE),
        // An unquoted heredoc reaches the command expanded.
        ("P=openspec/changes/c/approval.md; mytool <<E\nfix $P\nE", ONLY_APPROVE),
        ("d=docs/superpowers; mytool <<E | tee /tmp/log\n${d}/plans/p.md\nE", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
    }
    for line in [
        "true && wc -l < openspec/changes/c/approval.md",
        "cd openspec/changes/c && grep -c Approved < approval.md",
        "mytool < openspec/changes/c/approval.md < /dev/null",
        "cat < openspec/changes/c/approval.md | wc -l | mytool",
        "mytool < <(echo report.txt)",
        "for f in a.md b.md; do echo \"$f\"; done | mytool",
        "{ echo hi; cat openspec/changes/c/approval.md | wc -l; } | mytool",
        "( ls docs/superpowers/plans ) | head -3",
        "if true; then echo ok; fi | mytool && cat openspec/changes/c/approval.md",
        // A quoted delimiter keeps the body as written.
        "P=openspec/changes/c/approval.md; mytool <<'E'\nfix $P\nE",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn what_reaches_an_unknown_command_through_argument_substitutions_decoders_and_the_last_stdin() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for (line, denial) in [
        // A process substitution among its words is a file holding what it prints.
        ("mytool <(echo openspec/changes/c/approval.md)", ONLY_APPROVE),
        ("mytool --in=<(ls docs/superpowers/plans/p.md)", NEEDS_SPEC),
        ("mytool x <(cat openspec/changes/c/approval.md | sort)", ONLY_APPROVE),
        // Of a heredoc or here-string and a `<` file, the later is read.
        ("mytool <<E < openspec/changes/c/approval.md\nhi\nE", ONLY_APPROVE),
        ("mytool < /dev/null <<< openspec/changes/c/approval.md", ONLY_APPROVE),
        // A decoder prints what an encoder before it read.
        ("ls openspec/changes/c/approval.md | base64 | base64 -d | xargs rm", ONLY_APPROVE),
        ("ls docs/superpowers/plans | gzip -c | gzip -dc | sort | mytool", NEEDS_SPEC),
        ("ls openspec/changes/c/approval.md | xxd | xxd -r | mytool", ONLY_APPROVE),
        // A makefile on stdin runs its `$(shell …)`, `!=` and same-line recipes as it is read.
        ("make -f - <<'E'\nX := $(shell rm openspec/changes/c/approval.md)\nall: ;\nE", ONLY_APPROVE),
        ("make -f - <<'E'\nX != touch docs/superpowers/plans/p.md\nall: ;\nE", NEEDS_SPEC),
        ("make -f - <<'E'\nall: ; cp /tmp/a openspec/changes/c/approval.md\nE", ONLY_APPROVE),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
    }
    for line in [
        "diff <(cat openspec/changes/c/approval.md) /tmp/old",
        "mytool <(echo report.txt) && cat openspec/changes/c/approval.md",
        "mytool <(wc -l < openspec/changes/c/approval.md)",
        "tee >(mytool) < openspec/changes/c/approval.md > /dev/null",
        "mytool < openspec/changes/c/approval.md <<< hi",
        "mytool <<E < /dev/null\nopenspec/changes/c/approval.md\nE",
        "ls openspec/changes/c/approval.md | base64 | mytool",
        "cat openspec/changes/c/approval.md | sha256sum | base64 -d | mytool",
        "make -f - <<'E'\nN := $(shell wc -l < docs/superpowers/plans/p.md)\nall: ; @echo $(N)\nE",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn an_unknown_command_writes_the_guarded_locations_its_input_and_environment_name() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for (line, denial) in [
        // Standard input: the words of an unknown producer, a here-string, a heredoc, printed text.
        ("cat docs/superpowers/plans/p.md | mytool", NEEDS_SPEC),
        ("ls openspec/changes/c/approval.md | mytool --fix", ONLY_APPROVE),
        ("find openspec/changes/c -name approval.md | sort | mytool", ONLY_APPROVE),
        ("mytool <<< openspec/changes/c/approval.md", ONLY_APPROVE),
        ("mytool <<'E'\nfix openspec/changes/c/approval.md\nE", ONLY_APPROVE),
        ("echo docs/superpowers/plans/p.md | mytool", NEEDS_SPEC),
        ("printf '%s\\n' openspec/changes/c/approval.md | sudo mytool", ONLY_APPROVE),
        // The variables its command line sets.
        ("TARGET=openspec/changes/c/approval.md mytool", ONLY_APPROVE),
        ("env OUT=docs/superpowers/plans/p.md mytool", NEEDS_SPEC),
        ("sudo OUT=openspec/changes/c/approval.md mytool", ONLY_APPROVE),
        // The variables the line exported.
        ("export OUT=openspec/changes/c/approval.md; mytool", ONLY_APPROVE),
        ("declare -x OUT=docs/superpowers/plans/p.md && mytool", NEEDS_SPEC),
        ("OUT=openspec/changes/c/approval.md; export OUT; (mytool)", ONLY_APPROVE),
        ("export OPTS=--out=openspec/changes/c/approval.md; mytool", ONLY_APPROVE),
        ("export FILES=\"a.md openspec/changes/c/approval.md\"; mytool", ONLY_APPROVE),
        ("OUT=openspec/changes/c/approval.md bash -c mytool", ONLY_APPROVE),
        // `set -a` exports what is assigned after it; past the names kept, every variable counts.
        ("set -a; OUT=openspec/changes/c/approval.md; mytool", ONLY_APPROVE),
        ("set -euo allexport; P=docs/superpowers/plans/p.md; (mytool)", NEEDS_SPEC),
        // A producer's words read as the command's own: from where it runs, option values too.
        ("cd docs/superpowers && cat plans/p.md | mytool", NEEDS_SPEC),
        ("cat docs//superpowers/plans/p.md | mytool", NEEDS_SPEC),
        ("diff --from-file=openspec/changes/c/approval.md x | mytool", ONLY_APPROVE),
        // Commands that run one or write a file with some option are no readers.
        ("systemd-cat rm -f openspec/changes/c/approval.md", ONLY_APPROVE),
        ("xsel -b -l openspec/changes/c/approval.md", ONLY_APPROVE),
        ("zstd -co openspec/changes/c/approval.md README.md", ONLY_APPROVE),
        ("gzip -S.tgz openspec/changes/c/approval.md", ONLY_APPROVE),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
    }
    // No guarded location reaches the unknown command: named only where a known command reads it,
    // in a variable its command line does not set, or fed only to a filter before it.
    for line in [
        "watch -n 5 'git status'; flock /tmp/l cargo build; strace -o /tmp/t ls docs/superpowers/plans",
        "wc -l docs/superpowers/plans/p.md && mytool",
        "cat docs/superpowers/plans/p.md | wc -l | mytool",
        "cat openspec/changes/c/approval.md | grep -c Approved",
        "mytool <<< 'no guarded path here' && cat openspec/changes/c/approval.md",
        "OUT=report.txt mytool && sha256sum docs/superpowers/plans/p.md",
        "OUT=openspec/changes/c/approval.md; cat \"$OUT\"; mytool",
        "export OUT=openspec/changes/c/approval.md; cat \"$OUT\"",
        "OUT=openspec/changes/c/approval.md; set -a; mytool",
        "set -a; set +a; OUT=openspec/changes/c/approval.md; mytool",
        "set -eu; OUT=openspec/changes/c/approval.md; mytool",
        "git diff -- docs/superpowers/plans | less",
        "gh pr create --title t --body-file - <<'E'\nApproved in openspec/changes/c/approval.md\nE",
        // Readers of standard input: the clipboard, a pager, a linter, a compressor writing stdout.
        "cat openspec/changes/c/approval.md | pbcopy",
        "cat docs/superpowers/plans/p.md | xclip -selection clipboard",
        "cat docs/superpowers/plans/p.md | vale --ext=.md",
        "cat openspec/changes/c/approval.md | gzip -c > /tmp/approval.md.gz",
        "tar -cf - docs/superpowers/plans | zstd -19 > /tmp/plans.tar.zst",
        "gzip -dc /tmp/plans.gz | head",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
    // Past the exported names a line's state keeps, every variable counts as exported.
    let many: String = (0..70).map(|n| format!("export V{n}=x; ")).collect();
    let line = format!("{many}OUT=openspec/changes/c/approval.md; mytool");
    assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(ONLY_APPROVE));
}

/// A script a command runs reads what the command reads (P-18): a shell there runs what is fed
/// to the outer command (`echo … | bash -c sh`), and any command there reads it.
#[test]
fn a_script_a_command_runs_reads_the_commands_standard_input() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    let fed = "echo 'echo x > docs/superpowers/plans/p.md' |";
    for line in [
        format!("{fed} bash -c sh"),
        format!("{fed} sh -c 'bash'"),
        format!("{fed} bash -c 'sh -s'"),
        format!("{fed} bash -c 'bash -c sh'"),
        format!("{fed} sudo bash -c 'cd /tmp && sh'"),
        format!("{fed} su -c sh"),
        format!("{fed} bash -c 'python3 -c \"import os; os.system(\\\"sh\\\")\"'"),
        "bash -c sh <<< 'echo x > docs/superpowers/plans/p.md'".to_string(),
        "sh -c 'bash' <<'EOF'\necho x > docs/superpowers/plans/p.md\nEOF".to_string(),
        "f() { sh; }; echo 'rm docs/superpowers/plans/p.md' | f".to_string(),
        "echo docs/superpowers/plans/p.md | bash -c 'xargs rm'".to_string(),
        "cat docs/superpowers/plans/p.md | bash -c 'mytool'".to_string(),
        "bash -c 'cat | sh' <<< 'rm docs/superpowers/plans/p.md'".to_string(),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in [
        "echo 'cat docs/superpowers/plans/p.md' | bash -c sh",
        "echo ls | bash -c sh; cat docs/superpowers/plans/p.md",
        "cat docs/superpowers/plans/p.md | bash -c 'wc -l'",
        "echo docs/superpowers/plans/p.md | bash -c 'xargs cat'",
        "bash -c 'sh < /dev/null' <<< 'rm docs/superpowers/plans/p.md'",
        "bash -c 'echo ls | sh' <<< 'rm docs/superpowers/plans/p.md'",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

/// A file the line wrote, read back as input, holds the text the line wrote there (P-18): a `<`
/// redirection, `xargs -a`, `parallel -a` and `::::`, `find -files0-from`, `curl -K`, a patch.
#[test]
fn a_file_the_line_wrote_is_read_back_with_the_text_it_was_given() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    let list = "echo docs/superpowers/plans/p.md > /tmp/l;";
    let diff = "printf -- '--- a/docs/superpowers/plans/p.md\\n+++ b/docs/superpowers/plans/p.md\\n@@ -1 +1 @@\\n-a\\n+b\\n' > /tmp/x.diff;";
    for line in [
        format!("{list} xargs rm < /tmp/l"),
        format!("{list} xargs -a /tmp/l rm"),
        format!("{list} xargs --arg-file=/tmp/l rm"),
        format!("{list} parallel -a /tmp/l rm"),
        format!("{list} parallel rm :::: /tmp/l"),
        format!("{list} mytool < /tmp/l"),
        format!("{list} cd /tmp && xargs -a l rm -f /repo/x"),
        "printf 'docs/superpowers/plans/p.md\\0' > /tmp/l; find -files0-from /tmp/l -delete".to_string(),
        "printf 'output=docs/superpowers/plans/p.md\\n' > /tmp/c; curl -K /tmp/c file:///etc/hostname".to_string(),
        format!("{diff} patch -p1 -i /tmp/x.diff"),
        format!("{diff} git apply /tmp/x.diff"),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in [
        "echo README.md > /tmp/l; xargs rm < /tmp/l".to_string(),
        format!("{list} xargs cat < /tmp/l"),
        format!("{list} xargs -a /tmp/l sha256sum"),
        format!("{list} echo README.md > /tmp/l; xargs rm < /tmp/l"),
        "printf 'docs/superpowers/plans/p.md\\0' > /tmp/l; find -files0-from /tmp/l -name '*.md' -print".to_string(),
        "printf 'output=/tmp/out.html\\n' > /tmp/c; curl -K /tmp/c file:///etc/hostname".to_string(),
        "printf -- '--- a/README.md\\n+++ b/README.md\\n@@ -1 +1 @@\\n-a\\n+b\\n' > /tmp/x.diff; patch -p1 -i /tmp/x.diff".to_string(),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
    }
}

/// Every row that reads a variable of its environment sees what the line exported (P-18), as it
/// sees what the command's own assignments set.
#[test]
fn variables_the_line_exported_reach_every_row_that_reads_them() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for (line, denial) in [
        ("export PARALLEL='--joblog docs/superpowers/plans/p.md'; parallel echo ::: a", NEEDS_SPEC),
        ("export UNZIP='-d openspec/changes/c'; unzip -q /tmp/e.zip", ONLY_APPROVE),
        ("declare -x UNZIPOPT='-d openspec/changes/c'; unzip /tmp/e.zip", ONLY_APPROVE),
        ("export TAR_OPTIONS='-C openspec/changes/c'; tar -xf /tmp/e.tar", ONLY_APPROVE),
        ("set -a; TAR_OPTIONS='-C openspec/changes/c'; tar -xf /tmp/e.tar", ONLY_APPROVE),
        ("export RSYNC_RSH='sh -c \"rm docs/superpowers/plans/p.md\"'; rsync -a x host:y", NEEDS_SPEC),
        ("export PARALLEL='--joblog docs/superpowers/plans/p.md'; bash -c 'parallel echo ::: a'", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
    }
    for line in [
        "export PARALLEL='--joblog /tmp/jobs.log'; parallel echo ::: a",
        "export UNZIP='-d /tmp/out'; unzip -q /tmp/e.zip",
        "export TAR_OPTIONS=--no-same-owner; tar -xf /tmp/e.tar -C /tmp/out",
        "export UNZIP='-d openspec/changes/c'; env -u UNZIP unzip -q /tmp/e.zip -d /tmp/out",
        "export TAR_OPTIONS='-C openspec/changes/c'; env -i tar -xf /tmp/e.tar -C /tmp/out",
        "export PARALLEL='--joblog docs/superpowers/plans/p.md'; env PARALLEL=--bar parallel echo ::: a",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}
