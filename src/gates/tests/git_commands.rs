//! git beyond checkout and restore (P-18): readers that write a file or run a program, the
//! settings and variables that run commands, the work tree, `--pathspec-from-file`, hooks; and the
//! reading and index-only forms that stay allowed.
use super::*;

/// A repository with change `c`, its design approved, and plan `p`.
fn repo() -> Repo {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    repo.write(".git/HEAD", "ref: refs/heads/main\n").write("src/lib.rs", "").write("README.md", "");
    repo
}

fn refused(repo: &Repo, cases: &[(&str, &str)]) {
    for (command, denial) in cases {
        assert_eq!(bash_outcome(repo, command).as_deref(), Some(*denial), "{command}");
    }
}

fn allowed(repo: &Repo, commands: &[&str]) {
    for command in commands {
        assert_eq!(bash_outcome(repo, command), None, "{command}");
    }
}

const P: &str = "docs/superpowers/plans/p.md";

#[test]
fn readers_that_write_their_output_file_write_it() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git log -1 --output=docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git log -1 --output docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git show --output=openspec/changes/c/approval.md HEAD", ONLY_APPROVE),
            ("git diff-tree -p HEAD --output=docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git -C docs/superpowers diff HEAD~1 --output=plans/p.md", NEEDS_SPEC),
            ("git stash show -p --output=docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git format-patch -1 -o docs/superpowers/plans", NEEDS_SPEC),
            ("git format-patch -1 --output-directory=docs/superpowers/plans", NEEDS_SPEC),
            ("git format-patch -1 --output=docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("cd docs/superpowers/plans && git format-patch -1", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git log -1 --output=/tmp/log.txt -- docs/superpowers/plans/p.md",
            "git diff HEAD~1 --output /tmp/d.diff -- docs/superpowers/plans",
            "git format-patch -1 --stdout -- docs/superpowers/plans",
            "git format-patch -1 -o /tmp/patches HEAD -- docs/superpowers/plans",
            "git format-patch HEAD~1 -o /tmp/out -- docs/superpowers/plans/p.md",
            "git format-patch -1",
            "git log -p -- docs/superpowers/plans/p.md > /tmp/p.log",
        ],
    );
}

/// `grep -O` and `difftool -x` run a tool on files git picks: a tool known to read passes, any
/// other may write every file under the pathspecs.
#[test]
fn tools_git_runs_on_the_files_it_picks_are_judged_on_them() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git grep -Otouch a -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git grep --open-files-in-pager=touch alpha", ONLY_APPROVE),
            ("git grep --open-files-in-pager=mytool alpha docs/superpowers/plans", NEEDS_SPEC),
            ("GIT_PAGER=touch git grep -O alpha docs/superpowers/plans", NEEDS_SPEC),
            ("git grep -O alpha -- docs/superpowers/plans", NEEDS_SPEC),
            ("git difftool -y -x touch HEAD~1 -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git difftool -y --extcmd='mytool --fix' HEAD~1 -- docs/superpowers/plans", NEEDS_SPEC),
            ("git difftool -y HEAD~1 -- docs/superpowers/plans/p.md", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git grep -Oless alpha -- docs/superpowers/plans",
            "git grep -O'cat -n' alpha docs/superpowers/plans",
            "git grep -n alpha -- docs/superpowers/plans",
            "git grep -e O -- docs/superpowers/plans",
            "git difftool -y -x 'diff -u' HEAD~1 -- docs/superpowers/plans/p.md",
            "git difftool --no-prompt --extcmd='diff -u' HEAD~1 -- docs/superpowers/plans/p.md",
            "git difftool -y -x touch HEAD~1 -- src/lib.rs",
        ],
    );
}

#[test]
fn programs_a_transport_or_a_subcommand_runs_are_judged_as_run() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git fetch --upload-pack='touch docs/superpowers/plans/p.md;:' .", NEEDS_SPEC),
            ("git fetch --upload-pack=touch docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git fetch --upl 'touch docs/superpowers/plans/p.md;:' .", NEEDS_SPEC),
            ("git pull --upload-pack='rm openspec/changes/c/approval.md;:' .", ONLY_APPROVE),
            ("git push --receive-pack='touch docs/superpowers/plans/p.md;:' . HEAD:x", NEEDS_SPEC),
            ("git push --exec='touch docs/superpowers/plans/p.md;:' . HEAD:x", NEEDS_SPEC),
            ("git clone -u 'touch docs/superpowers/plans/p.md;:' . /tmp/cl", NEEDS_SPEC),
            ("git ls-remote --upload-pack='f=docs/superpowers/pla; touch ${f}ns/p.md;:' .", NEEDS_SPEC),
            ("git -c protocol.ext.allow=always fetch 'ext::touch docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("git -c protocol.ext.allow=always fetch 'ext::touch #x docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("git -c protocol.ext.allow=always fetch 'ext::sh -c touch% docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("git remote add -f x 'ext::rm openspec/changes/c/approval.md'", ONLY_APPROVE),
            ("git rebase -x 'f=docs/superpowers/pla; touch ${f}ns/p.md' HEAD~2", NEEDS_SPEC),
            ("git filter-branch --tree-filter 'd=openspec/changes/c; rm $d/approval.md' HEAD", ONLY_APPROVE),
            ("git bisect run sh -c 'f=docs/superpowers/pla; touch ${f}ns/p.md'", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git fetch --upload-pack=git-upload-pack origin",
            "git fetch origin docs/superpowers/plans",
            "git push origin HEAD -o docs/superpowers/plans/p.md",
            "git -c protocol.ext.allow=always fetch 'ext::ssh -p 22 host %S repo'",
            "git rebase -x 'cargo test' HEAD~2",
            "git bisect run npm test",
        ],
    );
}

/// `git submodule foreach` runs its command in each submodule's folder, one the walk does not
/// know: judged as a script run there (`..` is where the submodule lies). `--exec-path` and
/// `GIT_EXEC_PATH` pick the programs of git's subcommands and the `git` they run: programs the
/// walk does not see (P-18).
#[test]
fn submodule_commands_and_the_exec_path_are_judged_as_run() {
    let repo = repo();
    repo.write("mod/a.md", "");
    refused(
        &repo,
        &[
            ("git submodule foreach 'rm -f ../docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("git submodule foreach 'cd ..; cd docs/superpowers; cd plans; echo x > p.md'", NEEDS_SPEC),
            ("git submodule foreach 'echo x > ../docs/superpowers/pla\"\"ns/p.md'", NEEDS_SPEC),
            ("git submodule foreach 'f=../openspec/changes/c; rm $f/approval.md'", ONLY_APPROVE),
            ("git submodule --quiet foreach --recursive touch ../docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git submodule foreach 'rm -f \"$toplevel\"/docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("git submodule foreach \"$cmd\" # docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git --exec-path=/tmp/x submodule status # docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git --exec-path=/tmp/x commit -m x -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("GIT_EXEC_PATH=/tmp/x git status; cat openspec/changes/c/approval.md", ONLY_APPROVE),
        ],
    );
    allowed(
        &repo,
        &[
            "git submodule foreach 'cat ../docs/superpowers/plans/p.md'",
            "git submodule foreach 'git pull'",
            "git submodule --quiet foreach --recursive git status",
            "git submodule update --init",
            "git --exec-path",
            "git --exec-path=/usr/lib/git-core status",
        ],
    );
}

#[test]
fn settings_that_run_commands_are_judged_in_any_case_and_from_any_source() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git -c remote.x.url=. -c remote.x.uploadpack='touch docs/superpowers/plans/p.md;:' fetch x", NEEDS_SPEC),
            ("git -c Remote.x.ReceivePack='touch docs/superpowers/plans/p.md;:' push x HEAD:y", NEEDS_SPEC),
            ("git -c remote.x.url='ext::touch docs/superpowers/plans/p.md' fetch x", NEEDS_SPEC),
            ("git -c 'url.ext::touch docs/superpowers/plans/p.md.insteadOf=x' fetch x", NEEDS_SPEC),
            ("git -c Alias.x='!touch docs/superpowers/plans/p.md' x", NEEDS_SPEC),
            ("git -c ALIAS.X='!touch docs/superpowers/plans/p.md' x", NEEDS_SPEC),
            ("git -c Core.Editor='touch docs/superpowers/plans/p.md;:' commit --amend", NEEDS_SPEC),
            ("git -c credential.https://h.helper='!touch docs/superpowers/plans/p.md;:' fetch https://h/r", NEEDS_SPEC),
            (
                "git -c difftool.t.cmd='touch \"$MERGED\"' difftool -yt t HEAD~1 # docs/superpowers/plans/p.md",
                NEEDS_SPEC,
            ),
            ("git -c include.path=/tmp/cfg commit -m 'docs/superpowers/plans/p.md'", NEEDS_SPEC),
            ("E='touch docs/superpowers/plans/p.md;:' git --config-env=core.editor=E commit --amend", NEEDS_SPEC),
            (
                "export E='touch docs/superpowers/plans/p.md;:'; git --config-env=core.editor=E commit --amend",
                NEEDS_SPEC,
            ),
            (
                "GIT_CONFIG_PARAMETERS=\"'core.editor'='touch docs/superpowers/plans/p.md;:'\" git commit --amend",
                NEEDS_SPEC,
            ),
            (
                "export GIT_CONFIG_PARAMETERS=\"'core.editor'='rm openspec/changes/c/approval.md;:'\"; git commit --amend",
                ONLY_APPROVE,
            ),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='touch docs/superpowers/plans/p.md;:' \
                 git commit --amend",
                NEEDS_SPEC,
            ),
            ("env GIT_CONFIG_VALUE_0='touch docs/superpowers/plans/p.md;:' git commit --amend", NEEDS_SPEC),
            ("git config --global trace2.eventTarget $PWD/docs/superpowers/plans/p.md && git status", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git -c user.name=x commit -m 'docs/superpowers/plans/p.md'",
            "git -c alias.st=status st -- docs/superpowers/plans",
            "git -c core.editor=true commit --amend --no-edit",
            "GIT_CONFIG_PARAMETERS=\"'user.name'='docs/superpowers/plans/p.md'\" git log -1",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.email GIT_CONFIG_VALUE_0=a@b git commit -qm x",
            "git -c trace2.eventTarget=$PWD/docs/superpowers/plans/p.md status",
            "git config --global trace2.eventTarget /tmp/trace",
        ],
    );
}

/// The work tree is where checkout, restore, rm, clean and a hard reset write: one the line sets is
/// a directory change for those writes; git's own files go where the line puts them.
#[test]
fn a_work_tree_the_line_sets_is_where_git_writes() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git --work-tree=docs/superpowers/plans checkout HEAD -- README.md", NEEDS_SPEC),
            ("GIT_WORK_TREE=docs/superpowers/plans git checkout HEAD -- README.md", NEEDS_SPEC),
            ("export GIT_WORK_TREE=docs/superpowers/plans; git checkout HEAD -- README.md", NEEDS_SPEC),
            ("git --git-dir=.git --work-tree=docs/superpowers/plans restore --source=HEAD~1 README.md", NEEDS_SPEC),
            ("git --work-tree=openspec/changes/c checkout HEAD~1 -- :/approval.md", ONLY_APPROVE),
            ("git --work-tree=docs/superpowers/plans clean -fdx", NEEDS_SPEC),
            ("cd docs/superpowers/plans && GIT_DIR=../../../.git git checkout HEAD~1 -- :/README.md", NEEDS_SPEC),
            ("t=$(cat /tmp/t); git --work-tree=\"$t\" checkout HEAD -- x.md # docs/superpowers/plans", NEEDS_SPEC),
            ("git config core.worktree ../docs/superpowers/plans && git checkout HEAD -- README.md", NEEDS_SPEC),
            ("cd src && git config core.worktree ../docs/superpowers/plans", NEEDS_SPEC),
            ("GIT_INDEX_FILE=docs/superpowers/plans/p.md git add src/lib.rs", NEEDS_SPEC),
            ("git --git-dir=docs/superpowers/plans init", NEEDS_SPEC),
            ("GIT_TRACE=$PWD/docs/superpowers/plans/p.md git status", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git --work-tree=/tmp/wt checkout HEAD -- README.md",
            "GIT_WORK_TREE=/tmp/wt git checkout HEAD~1 -- src/lib.rs",
            "cd src && git --work-tree=.. checkout HEAD -- lib.rs",
            "GIT_DIR=.git git checkout HEAD -- src/lib.rs",
            "git --git-dir=.git --work-tree=. status",
            "git -c core.worktree=../docs/superpowers/plans checkout HEAD -- README.md",
            "git config core.worktree /tmp/wt",
            "GIT_INDEX_FILE=/tmp/index git add src/lib.rs",
            "GIT_TRACE=1 git status",
        ],
    );
}

#[test]
fn pathspecs_from_a_file_or_standard_input_are_written() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git checkout HEAD~1 --pathspec-from-file=- <<< docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git checkout HEAD~1 --pathspec-from=- <<< docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git rm --pathspec-from-file=- <<< openspec/changes/c/approval.md", ONLY_APPROVE),
            ("echo docs/superpowers/plans/p.md > /tmp/l; git checkout HEAD~1 --pathspec-from-file=/tmp/l", NEEDS_SPEC),
            (
                "echo docs/superpowers/plans/p.md > /tmp/l; git restore -s HEAD~1 --pathspec-from-file=- < /tmp/l",
                NEEDS_SPEC,
            ),
            ("echo docs/superpowers/plans/p.md > /tmp/l; cat /tmp/l | git rm --pathspec-from-file=-", NEEDS_SPEC),
            (
                "printf 'docs/superpowers/plans/p.md\\0' | git restore -s HEAD~1 --pathspec-from-file=- --pathspec-file-nul",
                NEEDS_SPEC,
            ),
            ("git ls-files docs/superpowers/plans | git checkout HEAD~1 --pathspec-from-file=-", NEEDS_SPEC),
            ("git checkout HEAD~1 --pathspec-from-file=/tmp/unseen # docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("echo docs/superpowers/plans/p.md | git stash push --pathspec-from-file=-", NEEDS_SPEC),
            ("git checkout HEAD~1 --pathspec-from-file=<(echo docs/superpowers/plans/p.md)", NEEDS_SPEC),
            ("git checkout --pathspec-from-file=<(echo docs/superpowers/plans/p.md) HEAD~1", NEEDS_SPEC),
            ("git restore -s HEAD~1 --pathspec-from-file <(echo openspec/changes/c/approval.md)", ONLY_APPROVE),
            ("git checkout HEAD~1 --pathspec-from-file=/dev/stdin <<< docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git checkout HEAD~1 --pathspec-from-file=<(cat list) # docs/superpowers/plans/p.md", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git checkout HEAD~1 --pathspec-from-file=- <<< src/lib.rs",
            "echo src/lib.rs > /tmp/l; git checkout HEAD~1 --pathspec-from-file=/tmp/l",
            "git rm --cached --pathspec-from-file=- <<< docs/superpowers/plans/p.md",
            "git add --pathspec-from-file=- <<< docs/superpowers/plans/p.md",
            "git commit --pathspec-from-file=- -m x <<< docs/superpowers/plans/p.md",
            "git reset --pathspec-from-file=- <<< docs/superpowers/plans/p.md",
            "git checkout HEAD~1 --pathspec-from-file=<(echo src/lib.rs)",
            "git checkout HEAD~1 --pathspec-from-file=/dev/stdin <<< src/lib.rs",
            "git reset -q HEAD~1 --pathspec-from-file=<(cat list) # docs/superpowers/plans/p.md",
        ],
    );
}

/// A restore from the index brings back the files under its pathspecs that differ from the
/// index: the guarded ones the line may have made so, by naming them (P-18) or by putting another
/// version of them in the index first (`git reset <rev> -- P`, `restore --staged`), in any
/// spelling the walk resolves; with nothing guarded named or staged under them it writes nothing
/// guarded the walk can see.
#[test]
fn a_restore_from_the_index_writes_what_the_line_named_or_staged_beneath_it() {
    let repo = repo();
    refused(
        &repo,
        &[
            ("git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git checkout -- .", NEEDS_SPEC),
            (
                "git reset -q HEAD~1 --pathspec-from-file=- <<< docs/superpowers/plans/p.md; git checkout -- .",
                NEEDS_SPEC,
            ),
            ("git reset -q HEAD~1 -- openspec/changes/c/approval.md && git restore openspec", ONLY_APPROVE),
            ("git restore --staged -s HEAD~1 docs/superpowers/plans/p.md && git restore docs", NEEDS_SPEC),
            ("cd docs && git reset -q HEAD~1 -- superpowers/plans/p.md && git checkout -- .", NEEDS_SPEC),
            ("git reset -q HEAD~1 -- 'docs/*/plans/p.md'; git checkout -- .", NEEDS_SPEC),
            ("git reset -q HEAD~1 -- docs/superpowers/plans/p.md; cd src && git checkout -- :/", NEEDS_SPEC),
            ("cat docs/superpowers/plans/p.md; git checkout -- .", NEEDS_SPEC),
            ("git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git checkout-index -a -f", NEEDS_SPEC),
            (
                "git reset -q HEAD~1 -- openspec/changes/c/approval.md; git checkout-index -f -- openspec/changes/c/approval.md",
                ONLY_APPROVE,
            ),
            ("git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git stash -q; git stash pop -q", NEEDS_SPEC),
            ("git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git stash push -- docs", NEEDS_SPEC),
        ],
    );
    allowed(
        &repo,
        &[
            "git checkout -- .",
            "git checkout -- src/",
            "git restore .",
            "cat docs/superpowers/plans/p.md; git checkout -- src",
            "git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git checkout -- src",
            "git reset -q HEAD~1 -- src; git checkout -- .",
            "git reset -q HEAD~1 -- '*.rs'; git checkout -- .",
            "git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git restore --staged .",
            "git checkout-index -a -f",
            "git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git checkout-index -f -- src/lib.rs",
            "git reset -q HEAD~1 -- docs/superpowers/plans/p.md; git checkout-index -a --prefix=/tmp/export/",
            "git stash && git pull --rebase && git stash pop",
            "git stash push -q -- src; git stash pop -q; cat docs/superpowers/plans/p.md",
        ],
    );
}

/// A reset with pathspecs changes only the index; stash's listing and showing read.
#[test]
fn index_only_resets_and_stash_reads_are_allowed() {
    let repo = repo();
    allowed(
        &repo,
        &[
            "git reset HEAD docs/superpowers/plans/p.md",
            "git reset -- openspec/changes/c/approval.md",
            "git reset -q HEAD -- docs/superpowers/plans",
            "git reset HEAD~1 -- docs/superpowers/plans/p.md",
            "git reset HEAD -- .superpowers/sdd",
            "git reset --soft HEAD~1",
            "git stash show -p stash@{0} -- docs/superpowers/plans/p.md",
            "git stash list -- docs/superpowers/plans",
        ],
    );
    refused(
        &repo,
        &[
            ("git reset --hard HEAD~1 -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git reset -p -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("git reset --ke HEAD~1 docs/superpowers/plans", NEEDS_SPEC),
            ("git stash push -- docs/superpowers/plans/p.md", NEEDS_SPEC),
            ("cd docs/superpowers/plans && git stash pop", NEEDS_SPEC),
        ],
    );
}

/// Hooks written in the line run at the git command after them, whichever runs them.
#[test]
fn hooks_written_in_the_line_run_at_any_git_command() {
    let repo = repo();
    let hook = |name: &str, command: &str| {
        format!("mkdir -p .git/hooks; echo 'touch {P}' > .git/hooks/{name}; chmod +x .git/hooks/*; {command}")
    };
    for (name, command) in [
        ("post-checkout", "git checkout -b z"),
        ("reference-transaction", "git branch zz"),
        ("post-index-change", "git add src/lib.rs"),
        ("post-merge", "git pull"),
        ("pre-push", "git push"),
    ] {
        assert_eq!(bash_outcome(&repo, &hook(name, command)).as_deref(), Some(NEEDS_SPEC), "{name}");
    }
    assert_eq!(bash_outcome(&repo, &format!("echo 'touch {P}' > notes/post-checkout.txt; git checkout -b z")), None);
}
