//! The approval ledger's folder (P-17) is a guarded location for every gate: the write tools,
//! each analysis, and the fallbacks that read only words or raw text (unknown commands, programs
//! whose writes are computed, calls over a cap). Reading it stays allowed.

use std::path::Path;

use serde_json::{Value, json};

use super::test_json::Json;
use super::*;
use crate::approval::ledger::location;
use crate::test_repo::Repo;

fn check(repo: &Repo, name: &str, args: Value) -> Option<String> {
    check_tool_call(name, &Json(args), || repo.root.clone()).map(|denial| denial.to_string())
}

fn bash(repo: &Repo, command: &str) -> Option<String> {
    check(repo, "bash", json!({ "command": command }))
}

const LEDGER: &str = "BLOCKED [approval-gates]: the approval ledger is written only by /approve";

/// The ledger's folder as a fresh account names it: `$HOME/.local/state/approval-gates`, for a
/// test whose HOME is absolute (else `None`).
fn home_folder() -> Option<std::path::PathBuf> {
    let home = std::env::var("HOME").ok().filter(|home| home.starts_with('/'))?;
    Some(Path::new(&home).join(".local/state").join(location::FOLDER))
}

#[test]
fn an_unknown_command_naming_the_ledger_is_refused_with_the_ledger_text() {
    let repo = Repo::new();
    let Some(folder) = home_folder() else { return };
    location::with_folder(Some(&folder), || {
        assert_eq!(bash(&repo, "unknowncmd ~/.local/state/approval-gates/repos/x.ledger").as_deref(), Some(LEDGER));
        assert_eq!(bash(&repo, "unknowncmd --into=$HOME/.local/state/approval-gates").as_deref(), Some(LEDGER));
        assert_eq!(bash(&repo, "sometool sync ~/.local/state/approval-gates/repos/").as_deref(), Some(LEDGER));
        // Reading it stays allowed, and so do names that only look alike.
        for read in [
            "cat ~/.local/state/approval-gates/repos/x.ledger",
            "ls -la ~/.local/state/approval-gates/repos",
            "sha256sum ~/.local/state/approval-gates/repos/x.ledger",
            "unknowncmd ~/.local/state/approval-gates-old/x",
            "unknowncmd ./approval-gates/x",
            "npx approval-gates status",
        ] {
            assert_eq!(bash(&repo, read), None, "{read}");
        }
    });
}

#[test]
fn every_analysis_refuses_a_write_into_the_ledger_and_allows_reading_it() {
    let repo = Repo::new();
    let folder = location::ledger_folder().expect("a test ledger folder");
    let file = folder.join("repos/x.ledger");
    let file = file.to_str().expect("a UTF-8 test folder");
    let refused = Some(LEDGER.to_string());
    assert_eq!(bash(&repo, &format!("unknowncmd {file}")), refused);
    assert_eq!(bash(&repo, &format!("rsync -a evil/ {}/", folder.display())), refused);
    assert_eq!(bash(&repo, &format!("python3 -c \"open('{file}', 'w').write('x')\"")), refused);
    assert_eq!(check(&repo, "pwsh", json!({ "command": format!("unknownexe '{file}'") })), refused);
    assert_eq!(check(&repo, "pwsh", json!({ "command": format!("New-Item -Path '{file}'") })), refused);
    let patch = format!("*** Begin Patch\n*** Add File: {file}\n+x\n*** End Patch\n");
    assert_eq!(check(&repo, "apply_patch", json!({ "input": patch })), refused);
    for read in [format!("cat {file}"), format!("ls {}", folder.display()), format!("sha256sum {file}")] {
        assert_eq!(bash(&repo, &read), None, "{read}");
    }
    assert_eq!(check(&repo, "pwsh", json!({ "command": format!("Get-Content '{file}'") })), None);
}

#[test]
fn a_program_reaching_the_ledger_through_a_variable_writes_the_folder() {
    let repo = Repo::new();
    let Some(folder) = home_folder() else { return };
    location::with_folder(Some(&folder), || {
        let computed = "python3 -c \"import os; p = os.path.expanduser('~/.local/state/approval-gates/repos/' + n); open(p, 'w')\"";
        assert_eq!(bash(&repo, computed).as_deref(), Some(LEDGER));
        let shown =
            "python3 -c \"print(open(os.path.expanduser('~/.local/state/approval-gates/repos/x.ledger')).read())\"";
        assert_eq!(bash(&repo, shown), None, "reading it");
    });
}

#[test]
fn a_call_over_a_cap_naming_the_ledger_is_refused_with_the_cap_text() {
    let repo = Repo::new();
    let long = "cat a.md | ".repeat(30_000) + "cat";
    assert_eq!(bash(&repo, &long), None);
    let named = bash(&repo, &format!("{long}; unknowncmd ~/.local/state/approval-gates/repos/x.ledger"));
    assert!(named.as_deref().is_some_and(|denial| denial.contains("names a guarded path")), "{named:?}");
    let pwsh_long = "Get-Content a.md | ".repeat(20_000) + "Out-Null";
    let pwsh = |command: &str| check(&repo, "pwsh", json!({ "command": command }));
    assert_eq!(pwsh(&pwsh_long), None);
    let named = pwsh(&format!("{pwsh_long}; ni $env:LOCALAPPDATA\\approval-gates\\repos\\x.ledger"));
    assert!(named.as_deref().is_some_and(|denial| denial.contains("names a guarded path")), "{named:?}");
}
