//! DSH's `pwsh` tool (issue 12, P-16): judged like bash. Every file the PowerShell command line
//! writes is a write whose content the gates cannot see.

use std::path::Path;

use super::{NewTexts, ToolArgs, judge_write};
use crate::paths;
use crate::persistent::{self, States};
use crate::powershell::{self, State};
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
    match powershell::write_targets(command, base) {
        Ok(targets) => {
            let invisible = NewTexts::invisible();
            targets.iter().find_map(|target| judge_write(target, &invisible))
        }
        // Over a cap: a fixed verdict on the raw text.
        Err(limit) => powershell::names_guarded_location(command).then_some(Denial::PowerShellTooLarge { limit }),
    }
}

/// A call of persistent PowerShell `shell` (P-15): judged against every location its earlier
/// calls may have left; an allowed call records the locations it may leave, a refused one
/// changes nothing. Variables are not carried between calls.
pub fn check_persistent(args: &dyn ToolArgs, cwd: &Path, shell: &str) -> Option<Denial> {
    let command = args.string("command")?;
    let fresh = State::fresh(cwd);
    let known = persistent::pwsh_states(shell, &fresh);
    let mut states = match known.states {
        States::PowerShell(states) => states,
        States::Bash(_) => Vec::new(),
    };
    if !states.contains(&fresh) {
        // The shell may have been reset (a timeout, an exit): it starts again in the cwd.
        states.push(fresh);
    }
    if known.overflowed && powershell::names_guarded_location(&command) {
        return Some(Denial::ShellStateTooLarge);
    }
    let invisible = NewTexts::invisible();
    let mut next = states.clone();
    let mut overflowed = known.overflowed;
    for state in &states {
        match powershell::write_targets_from(&command, state) {
            Ok((targets, after, complete)) => {
                if let Some(denial) = targets.iter().find_map(|target| judge_write(target, &invisible)) {
                    return Some(denial);
                }
                next.extend(after);
                overflowed |= !complete;
            }
            Err(limit) => {
                if powershell::names_guarded_location(&command) {
                    return Some(Denial::PowerShellTooLarge { limit });
                }
                // Where a command too large to read leaves the shell is unknown.
                overflowed = true;
            }
        }
    }
    persistent::record_pwsh(shell, next, overflowed);
    None
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::{check_tool_call, check_tool_call_in};
    use super::*;
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
        for block in ["Start-Job { cd src }; cd docs", "function f { Set-Location src }", "& { cd src }"] {
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
}
