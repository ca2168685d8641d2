//! DSH's `pwsh` tool (docs/decisions.md#p-16): judged like bash. Every file the PowerShell command line
//! writes is a write whose content the gates cannot see.

use std::path::Path;

use super::ToolArgs;
use super::judge::{RawText, judge};
use super::persistent_shell::PersistentShell;
use crate::analyses::Wired;
use crate::analysis::answer::Answer;
use crate::analysis::persistent::Left;
use crate::analysis::scope::Scope;
use crate::paths::{self, Dialect};
use crate::powershell::{self, PowerShell, Unscannable};
use crate::texts::Denial;

/// A `pwsh` call: `command`, and `workdir` relative to the session cwd (as for bash; a Windows
/// path is read as [`paths::from_windows`] reads it). The first denial wins.
pub fn check(args: &dyn ToolArgs, cwd: &Path) -> Option<Denial> {
    let command = args.string("command")?;
    let base = match args.string("workdir") {
        Some(workdir) if !workdir.is_empty() => paths::absolute(paths::from_windows(&workdir), cwd),
        _ => cwd.to_path_buf(),
    };
    judge_command(&command, &base)
}

pub fn judge_command(command: &str, base: &Path) -> Option<Denial> {
    judge(&powershell::analyze(command, base, &Wired), &raw_text(command)).denial()
}

/// A PowerShell command's raw text, judged when the walk stopped on a cap.
fn raw_text(command: &str) -> RawText<'_, Unscannable> {
    RawText { text: command, dialect: Dialect::PowerShell, over_cap: |limit| Denial::PowerShellTooLarge { limit } }
}

/// A persistent PowerShell (`docs/decisions.md#p-15`), judged by [`super::persistent_shell::check`]
/// against its locations, variables with every value, functions and aliases.
pub enum PersistentPowerShell {}

impl PersistentShell for PersistentPowerShell {
    type State = Scope<PowerShell>;

    fn raw_text(command: &str) -> RawText<'_, Unscannable> {
        raw_text(command)
    }

    fn expand(state: &Scope<PowerShell>, command: &str) -> Option<Vec<Scope<PowerShell>>> {
        state.expand(command)
    }

    fn leaves(state: &Scope<PowerShell>, command: &str) -> bool {
        powershell::begins_by_moving(command, state)
    }

    fn analyze(command: &str, state: &Scope<PowerShell>) -> (Answer<Unscannable>, Left<Scope<PowerShell>>, bool) {
        powershell::analyze_from(command, state, &Wired)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::{check_tool_call, check_tool_call_in};
    use super::*;
    use crate::analysis::persistent;
    use crate::test_repo::Repo;

    struct Args(HashMap<&'static str, String>);

    impl ToolArgs for Args {
        fn string(&self, field: &str) -> Option<String> {
            self.0.get(field).cloned()
        }
        fn strings_of(&self, _: &str, _: &str) -> Option<Vec<Option<String>>> {
            None
        }
    }

    fn pwsh(repo: &Repo, command: &str, workdir: Option<&str>) -> Option<String> {
        let mut fields = HashMap::from([("command", command.to_string())]);
        if let Some(workdir) = workdir {
            fields.insert("workdir", workdir.to_string());
        }
        check_tool_call("pwsh", &Args(fields), || repo.root.clone()).map(|denial| denial.to_string())
    }

    #[test]
    fn powershell_tool_names_match_in_any_case() {
        let repo = Repo::new();
        repo.change("feat").write("docs/superpowers/plans/p.md", "# p");
        let judged = |tool: &str, command: &str| {
            let args = Args(HashMap::from([("command", command.to_string())]));
            check_tool_call(tool, &args, || repo.root.clone()).map(|denial| denial.to_string())
        };
        let approval = Some(Denial::ApprovalWrittenOnlyByApprove.to_string());
        for tool in ["pwsh", "PWSH", "powershell", "PowerShell", "POWERSHELL"] {
            // Read and backed up: PowerShell's reading, not the plain-text rule's.
            for command in [
                "Get-Content docs/superpowers/plans/p.md",
                "Compress-Archive -Path docs/superpowers/plans -DestinationPath /tmp/plans.zip",
                "Copy-Item openspec/changes/feat/approval.md /tmp/approval-feat.bak",
            ] {
                assert_eq!(judged(tool, command), None, "{tool}: {command}");
            }
            // Computed, and refused with the gate's own text.
            assert_eq!(
                judged(tool, "iex ('Set-Content ' + 'openspec/changes/feat/approval.md' + ' x')"),
                approval,
                "{tool}"
            );
            assert!(judged(tool, "Set-Content ('.{0}/sdd/p/progress.md' -f 'superpowers') x").is_some(), "{tool}");
        }
        // Other names are not PowerShell's: an unknown tool's, judged by its strings.
        for other in ["pwsh.exe", "power_shell", "pwsh2"] {
            assert!(!super::super::tools::is_powershell_tool(other), "{other}");
        }
    }

    #[test]
    fn each_gate_judges_a_powershell_write() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        assert_eq!(
            pwsh(&repo, r"Set-Content docs\superpowers\plans\x.md 'x'", None).as_deref(),
            Some(Denial::PlanNeedsSpec.to_string().as_str())
        );
        assert_eq!(
            pwsh(&repo, "ni openspec/changes/feat/approval.md", None),
            Some(Denial::ApprovalWrittenOnlyByApprove.to_string())
        );
        assert!(pwsh(&repo, r"sc .superpowers\sdd\p\progress.md x", None).is_some(), "no approved plan p");
    }

    #[test]
    fn an_sdd_write_for_an_approved_plan_and_plain_work_pass() {
        let repo = Repo::new();
        repo.change("feat").plan("p", "feat").approve_plan("feat", "p");
        assert_eq!(pwsh(&repo, r"sc .superpowers\sdd\p\progress.md 'task 1 done'", None), None);
        assert_eq!(pwsh(&repo, "Get-Content docs/superpowers/plans/p.md | Out-File src/copy.txt", None), None);
        assert_eq!(pwsh(&repo, "Get-FileHash openspec/changes/feat/approval.md", None), None);
        assert_eq!(pwsh(&repo, "ni src/lib.rs -Force; Set-Content src/lib.rs 'fn x() {}'", None), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_write_through_a_symlink_is_judged_where_it_lands() {
        let repo = Repo::new();
        repo.change("feat").write("docs/superpowers/plans/.keep", "");
        std::os::unix::fs::symlink(repo.path("docs/superpowers/plans"), repo.path("shortcut")).expect("test fixture");
        assert!(pwsh(&repo, r"Set-Content shortcut\new.md x", None).is_some());
        assert_eq!(pwsh(&repo, r"Get-Content shortcut\.keep", None), None);
    }

    #[test]
    fn workdir_and_the_raw_text_fallback() {
        let repo = Repo::new();
        repo.change("feat");
        assert!(pwsh(&repo, "ni approval.md", Some(r"openspec\changes\feat")).is_some());
        assert_eq!(pwsh(&repo, "ni notes.md", Some(r"openspec\changes\feat")), None);
        let long = "Get-Content a.md | ".repeat(20_000) + "Out-Null";
        assert_eq!(pwsh(&repo, &long, None), None);
        for named in ["ni approval.md", r"ni docs\superpowers\plans\x.md", "ni approv`al.md"] {
            let denial = pwsh(&repo, &format!("{long}; {named}"), None).unwrap_or_default();
            assert_eq!(
                denial,
                "BLOCKED [approval-gates]: PowerShell command is too complex to check and names a guarded path; split it up",
                "{named}"
            );
        }
    }

    fn in_shell(repo: &Repo, shell: &str, command: &str) -> Option<String> {
        let args = Args(HashMap::from([("command", command.to_string())]));
        check_tool_call_in("pwsh", &args, || repo.root.clone(), || Some(shell.to_string()))
            .map(|denial| denial.to_string())
    }

    #[test]
    fn a_persistent_pwsh_is_judged_where_its_earlier_calls_left_it() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let needs_spec = Denial::PlanNeedsSpec.to_string();
        for cd in
            ["Set-Location docs/superpowers/plans", r"cd docs\superpowers\plans", "sl -Path docs/superpowers/plans"]
        {
            let shell = format!("ps-{cd}");
            assert_eq!(in_shell(&repo, &shell, cd), None, "{cd}");
            assert_eq!(in_shell(&repo, &shell, "Set-Content a.md x").as_deref(), Some(needs_spec.as_str()), "{cd}");
            // Reading, hashing and committing there stay allowed.
            assert_eq!(in_shell(&repo, &shell, "Get-Content a.md; Get-FileHash a.md; git commit -m plan"), None);
            assert!(persistent::drop_shell(&shell));
            assert_eq!(in_shell(&repo, &shell, "Set-Content a.md x"), None, "{cd}: dropped");
        }
        assert_eq!(in_shell(&repo, "ps-a", "cd docs/superpowers/plans"), None);
        // A later cd elsewhere may have failed: the plans folder stays possible.
        assert_eq!(in_shell(&repo, "ps-a", "cd C:/nowhere"), None);
        assert_eq!(in_shell(&repo, "ps-a", "Set-Content a.md x").as_deref(), Some(needs_spec.as_str()));
        // Another shell, and a one-shot call, start in the session directory.
        assert_eq!(in_shell(&repo, "ps-b", "Set-Content a.md x"), None);
        assert_eq!(pwsh(&repo, "Set-Content a.md x", None), None);
        // A name used for a bash shell first: its state says nothing about PowerShell, so
        // commands naming guarded locations fail closed.
        let bash = Args(HashMap::from([("command", "cd docs/superpowers/plans".to_string())]));
        assert_eq!(check_tool_call_in("bash", &bash, || repo.root.clone(), || Some("mixed".to_string())), None);
        assert_eq!(in_shell(&repo, "mixed", "Set-Content a.md x"), None);
        let overflow = Denial::ShellStateTooLarge.to_string();
        assert_eq!(in_shell(&repo, "mixed", "Get-Content docs/superpowers/plans/a.md"), Some(overflow));
        persistent::drop_shell("mixed");
        persistent::drop_shell("ps-a");
        persistent::drop_shell("ps-b");
    }

    #[test]
    fn push_and_pop_location_last_between_calls() {
        let repo = Repo::new();
        repo.change("feat");
        let only_approve = Denial::ApprovalWrittenOnlyByApprove.to_string();
        assert_eq!(in_shell(&repo, "pp", r"Push-Location openspec\changes\feat; Push-Location src"), None);
        // The stack lasts: the pop lands in the change folder.
        assert_eq!(in_shell(&repo, "pp", "Pop-Location; ni approval.md").as_deref(), Some(only_approve.as_str()));
        assert_eq!(in_shell(&repo, "pp", "ni notes.md"), None, "the change folder is not guarded");
        assert_eq!(in_shell(&repo, "pp", "ni approval.md").as_deref(), Some(only_approve.as_str()));
        persistent::drop_shell("pp");
        assert_eq!(in_shell(&repo, "pp2", r"pushd openspec\changes\feat"), None);
        assert_eq!(in_shell(&repo, "pp2", "popd"), None);
        // The pop may have failed or run: both places stay possible.
        assert_eq!(in_shell(&repo, "pp2", "ni approval.md").as_deref(), Some(only_approve.as_str()));
        persistent::drop_shell("pp2");
    }

    #[test]
    fn a_refused_call_or_a_location_change_elsewhere_leaves_no_state() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let refused = in_shell(&repo, "r", "cd docs/superpowers/plans; Set-Content a.md x");
        assert_eq!(refused, Some(Denial::PlanNeedsSpec.to_string()));
        assert_eq!(in_shell(&repo, "r", "Set-Content a.md x"), None);
        for elsewhere in [
            "pwsh -c 'cd docs/superpowers/plans'",
            "powershell -Command \"Set-Location docs/superpowers/plans\"",
            "Start-Process pwsh -ArgumentList '-c','cd docs/superpowers/plans'",
            r"cmd /c cd docs\superpowers\plans",
        ] {
            assert_eq!(in_shell(&repo, "elsewhere", elsewhere), None, "{elsewhere}");
            assert_eq!(in_shell(&repo, "elsewhere", "Set-Content a.md x"), None, "{elsewhere}");
        }
        // A block that moves the location may run here or elsewhere: the shell fails closed.
        let overflow = Denial::ShellStateTooLarge.to_string();
        for block in ["Start-Job { cd src }; cd docs", "& { cd src }"] {
            assert_eq!(in_shell(&repo, "block", block), None, "{block}");
            assert_eq!(in_shell(&repo, "block", "ni docs/superpowers/plans/x.md"), Some(overflow.clone()), "{block}");
            assert_eq!(in_shell(&repo, "block", "Set-Content notes.txt x"), None, "{block}");
            persistent::drop_shell("block");
        }
        // One that comes back where it started leaves the shell as it was.
        let balanced = "Get-ChildItem -Directory | ForEach-Object { Push-Location $_; git status; Pop-Location }";
        assert_eq!(in_shell(&repo, "balanced", balanced), None);
        assert_eq!(in_shell(&repo, "balanced", "Get-Content docs/superpowers/plans/x.md"), None);
        persistent::drop_shell("balanced");
        persistent::drop_shell("r");
        persistent::drop_shell("elsewhere");
    }

    #[test]
    fn a_persistent_pwsh_over_its_state_cap_fails_closed_on_guarded_names() {
        let repo = Repo::new();
        for n in 0..persistent::MAX_STATES + 2 {
            assert_eq!(in_shell(&repo, "big", &format!("cd /tmp/d{n}")), None);
        }
        let overflow = Denial::ShellStateTooLarge.to_string();
        assert_eq!(in_shell(&repo, "big", r"Get-Content docs\superpowers\plans\x.md"), Some(overflow.clone()));
        assert_eq!(in_shell(&repo, "big", "Get-ChildItem; npm test"), None);
        persistent::drop_shell("big");
        assert_eq!(in_shell(&repo, "big", r"Get-Content docs\superpowers\plans\x.md"), None);
        // One call with more locations than a shell keeps overflows it too.
        let many: String = (0..persistent::MAX_STATES + 2).map(|n| format!("cd /tmp/e{n}; ")).collect();
        assert_eq!(in_shell(&repo, "many", &many), None);
        assert_eq!(in_shell(&repo, "many", "ni approval.md"), Some(overflow.clone()));
        // A command too large to read leaves the shell somewhere unknown.
        let huge = format!("cd sub; {}", "Get-Content a.md | ".repeat(20_000) + "Out-Null");
        assert_eq!(in_shell(&repo, "huge", &huge), None);
        assert_eq!(in_shell(&repo, "huge", "ni docs/superpowers/plans/x.md"), Some(overflow));
        persistent::drop_shell("many");
        persistent::drop_shell("huge");
    }

    /// Runs `calls` in a new shell `name` and returns the verdict of the last one; every earlier
    /// call must be allowed.
    fn after(repo: &Repo, name: &str, calls: &[&str]) -> Option<String> {
        persistent::drop_shell(name);
        let (last, earlier) = calls.split_last().expect("at least one call");
        for call in earlier {
            assert_eq!(in_shell(repo, name, call), None, "{name}: {call}");
        }
        in_shell(repo, name, last)
    }

    #[test]
    fn variables_last_between_calls_with_every_value() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let needs_spec = Some(Denial::PlanNeedsSpec.to_string());
        let only_approve = Some(Denial::ApprovalWrittenOnlyByApprove.to_string());
        let plan = "$p = 'docs/superpowers/plans/a.md'";
        assert_eq!(after(&repo, "v1", &[plan, "Set-Content $p x"]), needs_spec);
        assert_eq!(after(&repo, "v2", &["$global:a = 'openspec/changes/feat/approval.md'", "ni $a"]), only_approve);
        assert_eq!(after(&repo, "v3", &["$script:a = 'openspec\\changes\\feat'", "ni $a\\approval.md"]), only_approve);
        assert_eq!(
            after(&repo, "v4", &[r"$env:PLANS = 'docs\superpowers\plans'", r#"sc "$env:PLANS\a.md" x"#]),
            needs_spec
        );
        assert_eq!(
            after(&repo, "v5", &["Set-Variable -Name p -Value docs/superpowers/plans/a.md", "sc $p x"]),
            needs_spec
        );
        assert_eq!(
            after(&repo, "v6", &["$files = 'notes.md', 'openspec/changes/feat/approval.md'", "ni $files"]),
            only_approve
        );
        // The call may have stopped after either assignment: both values last.
        assert_eq!(after(&repo, "v7", &[&format!("{plan}; $p = 'notes.md'"), "sc $p x"]), needs_spec);
        assert_eq!(after(&repo, "v8", &[plan, "$p = 'notes.md'", "sc $p x"]), needs_spec);
        // A carried variable is relative to where it is used.
        assert_eq!(after(&repo, "v9", &["$f = 'plans/a.md'", "cd docs/superpowers", "sc $f x"]), needs_spec);
        // Reading through a carried variable, and writing a carried file that is not guarded.
        assert_eq!(after(&repo, "v10", &[plan, "Get-Content $p; Select-String Spec $p; Get-FileHash $p"]), None);
        assert_eq!(after(&repo, "v11", &["$p = 'src/notes.md'", "Set-Content $p x"]), None);
        assert_eq!(after(&repo, "v12", &["$p = 'a.md'", "$p = 'b.md'", "Set-Content $p x; Remove-Item $p"]), None);
        // Another shell and a one-shot call know nothing of it.
        assert_eq!(in_shell(&repo, "v-other", "Set-Content $p x"), None);
        assert_eq!(pwsh(&repo, "Set-Content $p x", None), None);
        assert!(persistent::drop_shell("v1"));
        assert_eq!(in_shell(&repo, "v1", "Set-Content $p x"), None, "dropped");
        for n in 1..=12 {
            persistent::drop_shell(&format!("v{n}"));
        }
        persistent::drop_shell("v-other");
    }

    #[test]
    fn aliases_last_between_calls() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let needs_spec = Some(Denial::PlanNeedsSpec.to_string());
        let only_approve = Some(Denial::ApprovalWrittenOnlyByApprove.to_string());
        // (The shell may have been reset, where `go` is a program: a guarded path it names is
        // refused there, so the test reaches the plans folder in two steps.)
        let go = ["Set-Alias go Set-Location", "go docs; go superpowers/plans", "Set-Content a.md x"];
        assert_eq!(after(&repo, "a1", &go), needs_spec);
        assert_eq!(
            after(&repo, "a2", &["cd docs/superpowers", "Set-Alias w Set-Content", "w plans/a.md x"]),
            needs_spec
        );
        assert_eq!(after(&repo, "a3", &["sal w New-Item", "w openspec/changes/feat/approval.md"]), only_approve);
        assert_eq!(
            after(&repo, "a4", &["Set-Item alias:w Out-File", "'x' | w openspec/changes/feat/approval.md"]),
            only_approve
        );
        assert_eq!(after(&repo, "a5", &["Set-Alias w $cmd", "w openspec/changes/feat/approval.md"]), only_approve);
        // An alias of a reading cmdlet reads; an alias of Set-Content writing elsewhere passes.
        assert_eq!(
            after(&repo, "a6", &["Set-Alias Read-Note Get-Content", "Read-Note openspec/changes/feat/approval.md"]),
            None
        );
        assert_eq!(after(&repo, "a7", &["Set-Alias w Set-Content", "w notes.md x"]), None);
        // Elsewhere the name is a program again.
        assert_eq!(in_shell(&repo, "a-other", "go docs; go superpowers/plans; Set-Content a.md x"), None);
        assert_eq!(pwsh(&repo, "w plans/a.md x", Some("docs/superpowers")), needs_spec, "one-shot: unknown program");
        assert_eq!(pwsh(&repo, "go docs; go superpowers/plans; Set-Content a.md x", None), None);
        for n in 1..=7 {
            persistent::drop_shell(&format!("a{n}"));
        }
        persistent::drop_shell("a-other");
    }

    #[test]
    fn functions_last_between_calls_and_run_where_they_are_called() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let needs_spec = Some(Denial::PlanNeedsSpec.to_string());
        let only_approve = Some(Denial::ApprovalWrittenOnlyByApprove.to_string());
        let go = "function go { Set-Location docs/superpowers/plans }";
        assert_eq!(after(&repo, "f1", &[go, "go; Set-Content a.md x"]), needs_spec);
        assert_eq!(after(&repo, "f2", &[go, "go", "Set-Content a.md x"]), needs_spec);
        let save = "function Save-Note([string]$Path, $Text) { Set-Content -Path $Path -Value $Text }";
        assert_eq!(after(&repo, "f3", &[save, "Save-Note openspec/changes/feat/approval.md yes"]), only_approve);
        assert_eq!(after(&repo, "f4", &[save, "Save-Note -Path plans/a.md -Text x"]), None);
        assert_eq!(
            after(&repo, "f5", &[save, "cd docs/superpowers", "Save-Note -Path plans/a.md -Text x"]),
            needs_spec
        );
        assert_eq!(
            after(&repo, "f6", &["function w { Set-Content @args }", "w openspec/changes/feat/approval.md x"]),
            only_approve
        );
        assert_eq!(after(&repo, "f7", &["${function:go} = { cd docs/superpowers/plans }", "go; ni a.md"]), needs_spec);
        // A function that only reads, and one that writes elsewhere.
        let show = "function Show-Plan($file) { Get-Content $file | Select-String Spec }";
        assert_eq!(after(&repo, "f8", &[show, "Show-Plan docs/superpowers/plans/a.md"]), None);
        assert_eq!(after(&repo, "f9", &[save, "Save-Note src/notes.md x"]), None);
        let maybe =
            "if (-not (Get-Command go -ErrorAction Ignore)) { function go { Set-Location docs/superpowers/plans } }";
        assert_eq!(after(&repo, "f11", &[maybe, "go; Set-Content a.md x"]), needs_spec);
        // Defining a function that moves the location no longer overflows the shell.
        assert_eq!(after(&repo, "f10", &[go, "Get-Content docs/superpowers/plans/a.md"]), None);
        // Elsewhere `go` is a program.
        assert_eq!(in_shell(&repo, "f-other", "go; Set-Content a.md x"), None);
        assert_eq!(pwsh(&repo, "go; Set-Content a.md x", None), None);
        for n in 1..=11 {
            persistent::drop_shell(&format!("f{n}"));
        }
        persistent::drop_shell("f-other");
    }

    #[test]
    fn a_refused_call_leaves_no_variable_alias_or_function() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let refused = "$p = 'docs/superpowers/plans/a.md'; Set-Alias go Set-Location; \
                       function f { Set-Location docs/superpowers/plans }; ni openspec/changes/feat/approval.md";
        assert_eq!(in_shell(&repo, "gone", refused), Some(Denial::ApprovalWrittenOnlyByApprove.to_string()));
        assert_eq!(in_shell(&repo, "gone", "Set-Content $p x"), None);
        assert_eq!(in_shell(&repo, "gone", "f; Set-Content a.md x"), None);
        assert_eq!(in_shell(&repo, "gone", "go src; Set-Content a.md x"), None);
        persistent::drop_shell("gone");
        // dropShell forgets all of it.
        let kept = "$p = 'docs/superpowers/plans/a.md'; function f { Set-Location docs/superpowers/plans }";
        assert_eq!(in_shell(&repo, "dropped", kept), None);
        assert!(persistent::drop_shell("dropped"));
        assert_eq!(in_shell(&repo, "dropped", "Set-Content $p x; f; Set-Content a.md x"), None);
        persistent::drop_shell("dropped");
    }

    #[test]
    fn a_persistent_pwsh_over_its_value_or_byte_cap_fails_closed_on_guarded_names() {
        let repo = Repo::new();
        let overflow = Some(Denial::ShellStateTooLarge.to_string());
        // One value more per call: past MAX_VALUES the shell overflows.
        for n in 0..=crate::powershell::MAX_VALUES {
            assert_eq!(in_shell(&repo, "values", &format!("$p = 'n{n}.md'")), None);
        }
        assert_eq!(in_shell(&repo, "values", "Get-Content docs/superpowers/plans/a.md"), overflow);
        assert_eq!(in_shell(&repo, "values", "Get-ChildItem; Set-Content $p x"), None);
        persistent::drop_shell("values");
        // In one call too.
        let many: String = (0..=crate::powershell::MAX_VALUES).map(|n| format!("$p = 'n{n}.md'\n")).collect();
        assert_eq!(after(&repo, "values1", &[&many, "ni approval.md"]), overflow);
        // Bytes: variables and function bodies count toward MAX_SHELL_BYTES.
        let chunk = "x".repeat(40 << 10);
        for n in 0..(persistent::MAX_SHELL_BYTES / chunk.len() + 1) {
            assert_eq!(in_shell(&repo, "bytes", &format!("$v{n} = '{chunk}'")), None, "{n}");
        }
        assert_eq!(in_shell(&repo, "bytes", "Get-Content docs/superpowers/plans/a.md"), overflow);
        persistent::drop_shell("bytes");
        let mut overflowed = false;
        for n in 0..(persistent::MAX_SHELL_BYTES / chunk.len() + 1) {
            assert_eq!(in_shell(&repo, "bodies", &format!("function f{n} {{ '{chunk}' }}")), None, "{n}");
            if in_shell(&repo, "bodies", "Get-Content docs/superpowers/plans/a.md").is_some() {
                overflowed = true;
                break;
            }
        }
        assert!(overflowed, "function bodies count");
        persistent::drop_shell("bodies");
        persistent::drop_shell("values1");
    }

    #[test]
    fn definitions_in_many_calls_fold_instead_of_doubling_the_states() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let needs_spec = Some(Denial::PlanNeedsSpec.to_string());
        assert_eq!(in_shell(&repo, "many-defs", "function Enter-Plans { Set-Location docs/superpowers/plans }"), None);
        for n in 0..2 * persistent::MAX_STATES {
            assert_eq!(in_shell(&repo, "many-defs", &format!("function Get-Helper{n} {{ 'helper {n}' }}")), None);
            assert_eq!(in_shell(&repo, "many-defs", &format!("Set-Alias h{n} Get-Helper{n}")), None);
        }
        // Not overflowed: a read naming a guarded path passes, and the first function still runs.
        assert_eq!(in_shell(&repo, "many-defs", "Get-Content docs/superpowers/plans/a.md"), None);
        assert_eq!(in_shell(&repo, "many-defs", "Enter-Plans; Set-Content a.md x"), needs_spec);
        assert_eq!(in_shell(&repo, "many-defs", "Set-Content a.md x; h3"), None);
        persistent::drop_shell("many-defs");
    }

    #[test]
    fn a_function_that_may_be_undefined_is_judged_both_ways() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let only_approve = Some(Denial::ApprovalWrittenOnlyByApprove.to_string());
        // The call defining it may not have run (or the shell was reset): the cmdlet may run.
        let shadow =
            ["function Set-Content { Write-Output skipped }", "Set-Content openspec/changes/feat/approval.md x"];
        assert_eq!(after(&repo, "shadow", &shadow), only_approve);
        let by_value = [shadow[0], "$n = 'Set-Content'", "& $n openspec/changes/feat/approval.md x"];
        assert_eq!(after(&repo, "shadow", &by_value), only_approve, "named through a variable");
        // Within the call that defines it, the function runs instead of the cmdlet.
        assert_eq!(in_shell(&repo, "shadow", &shadow.join("; ")), None);
        let go = ["function go { Set-Location docs/superpowers/plans }", "function other { 1 }", "go; ni a.md"];
        assert_eq!(after(&repo, "both", &go), Some(Denial::PlanNeedsSpec.to_string()));
        persistent::drop_shell("shadow");
        persistent::drop_shell("both");
    }

    #[test]
    fn one_call_defining_many_functions_or_recursing_stays_within_the_caps() {
        let repo = Repo::new();
        repo.change("feat").approve_design("feat");
        let helpers: String = (0..300).map(|n| format!("function Get-H{n} {{ {n} }}\n")).collect();
        assert_eq!(after(&repo, "defs", &[&helpers, "Get-Content docs/superpowers/plans/a.md"]), None);
        let recursive = "function Walk-Tree($d) { if ($d) { Walk-Tree $d } }";
        assert_eq!(after(&repo, "recursive", &[recursive, "Walk-Tree src; Get-Content approval.md"]), None);
        let writes = "function Walk-Tree($d) { if ($d) { Walk-Tree $d }; ni $d }";
        let call = "Walk-Tree openspec/changes/feat/approval.md";
        assert_eq!(after(&repo, "recursive", &[writes, call]), Some(Denial::ApprovalWrittenOnlyByApprove.to_string()));
        persistent::drop_shell("defs");
        persistent::drop_shell("recursive");
    }
}
