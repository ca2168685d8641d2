//! DSH's `pwsh` tool (issue 12, P-16): judged like bash. Every file the PowerShell command line
//! writes is a write whose content the gates cannot see.

use std::path::Path;

use super::{NewTexts, ToolArgs, judge_write};
use crate::paths;
use crate::powershell;
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::check_tool_call;
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
}
