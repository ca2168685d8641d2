//! Calls that name a guarded location and write none of it, allowed by proof
//! (docs/decisions.md#p-18): archiving the plans folder, backing up approval.md, a `popd` back
//! out of the plans folder, `find -name '*.js' -exec sed -i`, a program that prints a plan's
//! path. Each next to the nearest real write, still refused by the gate it reaches.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use super::test_json::Json;
use super::*;
use crate::test_repo::Repo;

const PLAN: &str = "BLOCKED [approval-gates]: plan must carry **Spec:** pointing to openspec/changes/<id>";
const APPROVAL: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";

/// Change `foo` with its design approved and a plan: a plan written by a command is refused for
/// the Spec line the gate cannot see, an approval.md for its writer.
fn repo() -> Repo {
    let repo = Repo::new();
    repo.change("foo").approve_design("foo").plan("p", "foo");
    repo.write("src/app.js", "var a = 1\n").write("backup/.keep", "");
    repo
}

fn call(repo: &Repo, name: &str, command: &str, shell: Option<&str>) -> Option<String> {
    let args = Json(json!({ "command": command }));
    check_tool_call_in(name, &args, || repo.root.clone(), || shell.map(str::to_owned)).map(|denial| denial.to_string())
}

fn bash(repo: &Repo, command: &str) -> Option<String> {
    call(repo, "bash", command, None)
}

fn pwsh(repo: &Repo, command: &str) -> Option<String> {
    call(repo, "pwsh", command, None)
}

/// A persistent shell of its own per test (the store is shared by the process).
fn shell_name(kind: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("false-positives:{kind}:{}:{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

fn assert_verdicts(judge: impl Fn(&str) -> Option<String>, cases: &[(&str, Option<&str>)]) {
    for (command, expected) in cases {
        assert_eq!(judge(command).as_deref(), *expected, "{command}");
    }
}

#[test]
fn archiving_the_plans_folder_writes_only_the_archive() {
    let repo = repo();
    assert_verdicts(
        |command| bash(&repo, command),
        &[
            ("zip -r plans.zip docs/superpowers/plans", None),
            ("zip -qr /tmp/plans.zip docs/superpowers/plans -x '*.tmp'", None),
            ("zip -9 -r backup docs/superpowers/plans openspec/changes/foo/approval.md", None),
            ("tar -czf plans.tgz docs/superpowers/plans", None),
            ("git archive -o plans.zip HEAD docs/superpowers/plans", None),
            ("git archive --output=/tmp/plans.tgz HEAD docs/superpowers/plans", None),
            ("git archive HEAD docs/superpowers/plans > /tmp/plans.tar", None),
            // The archive written into a guarded location, or extracted into one.
            ("zip -r docs/superpowers/plans/x.zip src", Some(PLAN)),
            ("zip -O openspec/changes/foo/approval.md a.zip src", Some(APPROVAL)),
            ("zip openspec/changes/foo/approval.md src", Some(APPROVAL)),
            ("cd docs/superpowers/plans && zip x.zip p.md", Some(PLAN)),
            ("unzip plans.zip -d docs/superpowers/plans", Some(PLAN)),
            ("tar -xzf plans.tgz -C openspec/changes/foo", Some(APPROVAL)),
            ("git archive HEAD docs/superpowers/plans | tar -x -C openspec/changes/foo", Some(APPROVAL)),
            ("git archive -o docs/superpowers/plans/x.md HEAD", Some(PLAN)),
            // Options past packing: `-m` deletes what it packs, `-TT` and `--exec` run commands,
            // an `-x` list before the archive leaves the archive unknown.
            ("zip -m plans.zip docs/superpowers/plans/p.md", Some(PLAN)),
            ("zip --move plans.zip docs/superpowers/plans/p.md", Some(PLAN)),
            ("zip -TT 'cp /tmp/x docs/superpowers/plans/x.md' a.zip src", Some(PLAN)),
            ("zip -x '*.md' docs/superpowers/plans/a.zip src", Some(PLAN)),
            ("git archive --remote=. --exec='cp /tmp/x docs/superpowers/plans/x.md' HEAD", Some(PLAN)),
            // An archive the walk cannot name may be any guarded file the line names.
            ("zip \"$X\" docs/superpowers/plans/p.md", Some(PLAN)),
            ("zip -O \"$X\" a.zip docs/superpowers/plans/p.md", Some(PLAN)),
            ("git archive -o \"$X\" HEAD docs/superpowers/plans", Some(PLAN)),
        ],
    );
    assert_verdicts(
        |command| pwsh(&repo, command),
        &[
            ("Compress-Archive -Path docs/superpowers/plans -DestinationPath plans.zip", None),
            ("Compress-Archive docs/superpowers/plans backup/plans.zip -Force", None),
            ("Compress-Archive -LiteralPath openspec/changes/foo/approval.md -DestinationPath backup/a", None),
            ("Compress-Archive -Path src -DestinationPath docs/superpowers/plans/x.zip", Some(PLAN)),
            ("Compress-Archive src openspec/changes/foo/approval.md", Some(APPROVAL)),
            ("Expand-Archive plans.zip -DestinationPath docs/superpowers/plans", Some(PLAN)),
            ("Compress-Archive -Path docs/superpowers/plans -DestinationPath $x", Some(PLAN)),
            ("Compress-Archive -Path docs/superpowers/plans -DestinationPath $env:OUTDIR/plans.zip", Some(PLAN)),
            // The system's temporary folder, which the call does not set, lies outside the repository.
            ("Compress-Archive -Path docs/superpowers/plans -DestinationPath $env:TEMP/plans.zip", None),
        ],
    );
}

#[test]
fn backing_up_approval_md_only_reads_it() {
    let repo = repo();
    assert_verdicts(
        |command| pwsh(&repo, command),
        &[
            ("Copy-Item openspec/changes/foo/approval.md backup/approval.md.bak", None),
            ("cp openspec/changes/foo/approval.md backup/approval-foo.md", None),
            // Into approval.md, or into a folder, where the copy keeps its name.
            ("Copy-Item x openspec/changes/foo/approval.md", Some(APPROVAL)),
            ("Copy-Item backup/approval.md openspec/changes/foo", Some(APPROVAL)),
            ("Copy-Item openspec/changes/foo/approval.md backup", Some(APPROVAL)),
            ("Copy-Item openspec/changes/foo/approval.md newdir/", Some(APPROVAL)),
            // A destination the walk cannot compute may be a folder; `$env:TEMP` is the temporary
            // folder, where the copy keeps its name.
            ("Copy-Item openspec/changes/foo/approval.md $env:OUTDIR/approval.bak", Some(APPROVAL)),
            ("Copy-Item openspec/changes/foo/approval.md $env:TEMP", Some(APPROVAL)),
            ("Copy-Item -Path openspec/changes/foo/approval.md -Destination $env:TEMP/approval.bak", None),
            ("Copy-Item openspec/changes/*/approval.md, x backup.bak", Some(APPROVAL)),
            ("Move-Item openspec/changes/foo/approval.md backup/approval.md.bak", Some(APPROVAL)),
            // A folder the line may make before the copy: proven not one only when the copy is
            // the whole call.
            (
                "New-Item -ItemType Directory openspec/changes/new; Copy-Item /tmp/approval.md openspec/changes/new",
                Some(APPROVAL),
            ),
            ("mkdir x.bak; Copy-Item openspec/changes/foo/approval.md x.bak", Some(APPROVAL)),
            ("Copy-Item openspec/changes/foo/approval.md $(mkdir x.bak; 'x.bak')", Some(APPROVAL)),
        ],
    );
    assert_verdicts(
        |command| bash(&repo, command),
        &[
            ("cp openspec/changes/foo/approval.md /tmp/x", None),
            ("cp x openspec/changes/foo/approval.md", Some(APPROVAL)),
            ("cp openspec/changes/foo/approval.md backup", Some(APPROVAL)),
            ("mkdir x.bak; pwsh -c 'Copy-Item openspec/changes/foo/approval.md x.bak'", Some(APPROVAL)),
        ],
    );
}

#[test]
fn find_exec_on_names_that_are_not_guarded_writes_none() {
    let repo = repo();
    assert_verdicts(
        |command| bash(&repo, command),
        &[
            ("find . -name '*.js' -exec sed -i 's/a/b/' {} +", None),
            ("find . -name '*.js' -exec sed -i 's/a/b/' {} \\;", None),
            ("find . -iname '*.JS' -type f -exec sed -i 's/a/b/' {} +", None),
            ("find . -name '*.js' -not -path './node_modules/*' -exec sed -i 's/var /let /g' {} +", None),
            ("find . -name '*.js' ! -path './node_modules/*' -exec sed -i 's/a/b/' {} +", None),
            // Names that can be approval.md or a plan, or a guarded root.
            ("find . -name '*.md' -exec sed -i 's/a/b/' {} +", Some(APPROVAL)),
            ("find . -iname 'APPROVAL.MD' -exec sed -i 's/a/b/' {} +", Some(APPROVAL)),
            ("find . -name '*.js' -o -name '*.md' -exec sed -i 's/a/b/' {} +", Some(APPROVAL)),
            ("find . ! ! -name '*.md' -exec sed -i 's/a/b/' {} +", Some(APPROVAL)),
            ("find . -not \\( -name '*.js' \\) -name '*.md' -exec sed -i 's/a/b/' {} +", Some(APPROVAL)),
            ("find docs/superpowers/plans -exec sed -i 's/a/b/' {} +", Some(PLAN)),
            ("find docs/superpowers/plans -not -name '*.js' -exec sed -i 's/a/b/' {} +", Some(PLAN)),
        ],
    );
}

#[test]
fn a_program_that_prints_a_guarded_path_writes_none() {
    let repo = repo();
    assert_verdicts(
        |command| bash(&repo, command),
        &[
            ("python3 -c \"print('see docs/superpowers/plans/x.md')\"", None),
            ("node -e \"console.log('openspec/changes/foo/approval.md')\"", None),
            ("node -e \"process.stdout.write('openspec/changes/foo/approval.md\\n')\"", None),
            ("python3 -c \"open('docs/superpowers/plans/x.md','w')\"", Some(PLAN)),
            ("node -e \"require('fs').writeFileSync('openspec/changes/foo/approval.md', '')\"", Some(APPROVAL)),
        ],
    );
}

#[test]
fn after_popd_a_line_is_back_where_it_was() {
    let repo = repo();
    assert_verdicts(
        |command| bash(&repo, command),
        &[
            ("pushd docs/superpowers/plans; ls; popd; touch notes.md", None),
            ("pushd docs/superpowers/plans >/dev/null; cat p.md; popd && touch notes.md", None),
            ("cd src; pushd ../docs/superpowers/plans; popd; touch notes.md", None),
            // Output thrown away: the popd runs all the same (tree-sitter hangs the last
            // redirection of an `&&` chain on the chain, but bash on its last command).
            ("pushd docs/superpowers/plans >/dev/null; ls; popd >/dev/null; touch src/l.js", None),
            ("pushd docs/superpowers/plans >/dev/null && ls && popd >/dev/null && touch src/l.js", None),
            ("cd docs/superpowers/plans && ls && cd - >/dev/null && touch src/m.js", None),
            ("cd docs/superpowers/plans && ls && cd - 2>/dev/null && touch src/m.js", None),
            ("cd docs/superpowers/plans && ls >/dev/null && touch x.md", Some(PLAN)),
            // Written in the plans folder, or after a popd that may not run in the shell itself.
            ("pushd docs/superpowers/plans; ls; popd >/tmp/log; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans >/dev/null; touch x.md; popd >/dev/null", Some(PLAN)),
            ("pushd docs/superpowers/plans; touch x.md; popd", Some(PLAN)),
            ("pushd docs/superpowers/plans; false && popd; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; true || popd; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; if false; then popd; fi; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; popd & touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; popd | cat; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; (popd); touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; eval popd; touch x.md", Some(PLAN)),
            ("popd() { :; }; pushd docs/superpowers/plans; popd; touch x.md", Some(PLAN)),
            // A stack changed in a way the walk does not follow.
            ("pushd docs/superpowers/plans; dirs -c; popd; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; pushd -n /tmp; popd; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; DIRSTACK[1]=/tmp; popd; touch x.md", Some(PLAN)),
            ("pushd docs/superpowers/plans; pushd /tmp; dirs -v; popd; touch x.md", Some(PLAN)),
        ],
    );
}

#[test]
fn after_a_cd_to_an_absolute_directory_a_line_is_there_whatever_came_before() {
    let repo = repo();
    let root = repo.root.display().to_string();
    let cases = [
        (format!("cd docs/superpowers/plans; ls; cd {root}; touch src/k.js"), None),
        (format!("cd docs/superpowers/plans && cat p.md; cd {root} >/dev/null; echo x > notes.txt"), None),
        (format!("cd docs/superpowers/plans; ls; cd {root}/src; touch k.js"), None),
        // Into the plans folder itself, a cd that may fail, or one that may not run.
        (format!("cd src; cd {root}/docs/superpowers/plans; touch k.md"), Some(PLAN)),
        (format!("cd docs/superpowers/plans; cd {root}/missing; touch k.md"), Some(PLAN)),
        (format!("cd docs/superpowers/plans; ls && cd {root}; touch k.md"), Some(PLAN)),
        (format!("cd docs/superpowers/plans; cd {root} > /tmp/log; touch k.md"), Some(PLAN)),
        (format!("cd docs/superpowers/plans; cd {root} & touch k.md"), Some(PLAN)),
    ];
    for (command, expected) in &cases {
        assert_eq!(bash(&repo, command).as_deref(), *expected, "{command}");
    }
    // A persistent shell that ran it is at the root once the call ran to its end.
    let shell = shell_name("bash");
    let line = format!("cd docs/superpowers/plans; cat p.md; cd {root}");
    assert_eq!(call(&repo, "bash", &line, Some(&shell)), None);
    assert_eq!(call(&repo, "bash", "touch notes.md", Some(&shell)).as_deref(), Some(PLAN), "not reported as run");
}

/// Each call of `calls` in one new persistent shell of `tool`; the verdict of each.
fn session(repo: &Repo, tool: &str, calls: &[&str]) -> Vec<Option<String>> {
    let shell = shell_name(tool);
    calls.iter().map(|command| call(repo, tool, command, Some(&shell))).collect()
}

#[test]
fn a_persistent_shell_after_cd_back_is_back_where_it_was() {
    let repo = repo();
    let plan = Some(PLAN.to_string());
    // Only a cd that succeeded sets $OLDPWD, so `cd -` fails only if that directory is gone.
    assert_eq!(session(&repo, "bash", &["cd docs/superpowers/plans", "cd -", "touch notes.md"]), [None, None, None]);
    assert_eq!(
        session(&repo, "bash", &["cd docs/superpowers/plans", "cd - && ls", "echo x > n.txt"]),
        [None, None, None]
    );
    // Still in the plans folder: `cd -` not run by the shell itself, not the builtin, or an
    // $OLDPWD the line assigned.
    for second in ["ls", "true || cd -", "cd - &", "cd - | cat", "OLDPWD=/tmp; cd -", "cd -- -"] {
        assert_eq!(
            session(&repo, "bash", &["cd docs/superpowers/plans", second, "touch notes.md"]),
            [None, None, plan.clone()],
            "{second}"
        );
    }
    assert_eq!(
        session(&repo, "bash", &["cd() { :; }", "cd docs/superpowers/plans", "cd -", "touch notes.md"]),
        [None, None, None, None],
        "a cd function moves nowhere"
    );
    assert_eq!(
        session(&repo, "bash", &["OLDPWD=/tmp", "cd docs/superpowers/plans", "cd -", "touch n.md"]),
        [None, None, None, None],
        "the cd set $OLDPWD again"
    );
    assert_eq!(
        session(&repo, "bash", &["cd docs/superpowers/plans", "OLDPWD=/tmp", "cd -", "touch n.md"]),
        [None, None, None, plan],
        "an assigned $OLDPWD"
    );
}

#[test]
fn a_persistent_shell_after_popd_is_back_where_it_was() {
    let repo = repo();
    let plan = Some(PLAN.to_string());
    assert_eq!(session(&repo, "bash", &["pushd docs/superpowers/plans", "popd", "touch notes.md"]), [None, None, None]);
    assert_eq!(
        session(&repo, "bash", &["pushd docs/superpowers/plans", "popd; ls", "echo x > n.txt"]),
        [None, None, None]
    );
    assert_eq!(
        session(&repo, "pwsh", &["Push-Location docs/superpowers/plans", "Pop-Location", "New-Item notes.md"]),
        [None, None, None]
    );
    // A popd whose output is thrown away runs all the same.
    for second in ["popd >/dev/null", "popd 2>/dev/null && ls", "popd &>/dev/null; ls"] {
        assert_eq!(
            session(&repo, "bash", &["pushd docs/superpowers/plans", second, "touch notes.md"]),
            [None, None, None]
        );
    }
    // Still in the plans folder, or a popd the shell itself may not have run (a redirection
    // to a file may fail, and then the popd does not run).
    for second in ["ls", "true || popd", "false && popd", "popd &", "popd | cat", "popd && ls &", "popd >/tmp/log"] {
        assert_eq!(
            session(&repo, "bash", &["pushd docs/superpowers/plans", second, "touch notes.md"]),
            [None, None, plan.clone()],
            "{second}"
        );
    }
    assert_eq!(
        session(&repo, "bash", &["popd() { :; }", "pushd docs/superpowers/plans", "popd", "touch notes.md"]),
        [None, None, None, plan.clone()]
    );
    assert_eq!(
        session(&repo, "bash", &["pushd docs/superpowers/plans", "dirs -c", "popd", "touch notes.md"]),
        [None, None, None, plan.clone()]
    );
    assert_eq!(
        session(&repo, "pwsh", &["Push-Location -StackName s docs/superpowers/plans", "Pop-Location", "New-Item x.md"]),
        [None, None, plan.clone()]
    );
    for second in ["Get-ChildItem", "Pop-Location | Out-Null", "Pop-Location &", "if ($false) { Pop-Location }"] {
        assert_eq!(
            session(&repo, "pwsh", &["Push-Location docs/superpowers/plans", second, "New-Item notes.md"]),
            [None, None, plan.clone()],
            "{second}"
        );
    }
    assert_eq!(
        session(
            &repo,
            "pwsh",
            &["Set-Alias popd Get-Date", "Push-Location docs/superpowers/plans", "popd", "New-Item x.md"]
        ),
        [None, None, None, plan]
    );
}
