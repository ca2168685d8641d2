//! Whether approvals are enforced or advisory in a setup (P-17): enforced when every check holds
//! (the repository is sealed, its ledger reads, the ledger's folder is out of the agent's reach,
//! and the host confines the agent's commands and keeps the owner's channels to the owner),
//! advisory otherwise, each failing or unknown check with what to change.
//!
//! The core checks are the same for every host. A host integration supplies facts (name and
//! value, e.g. DSH's `sandbox-mode`) and [`crate::texts::HOST_CHECKS`] says, per host, which
//! values hold and what each means: adding a host's checks is adding rows there.

use std::path::{Path, PathBuf};

use crate::approval::ledger::{self, Seal, location};
use crate::approval::seal::broken_text;
use crate::texts::{HOST_CHECKS, SetupText};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckState {
    Holds,
    Fails,
    /// Cannot be known from here; it keeps the setup advisory.
    Unknown,
}

impl CheckState {
    pub fn name(self) -> &'static str {
        match self {
            CheckState::Holds => "holds",
            CheckState::Fails => "fails",
            CheckState::Unknown => "unknown",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// `sealed`, `ledger-folder`, …, or `<host>.<fact>`.
    pub id: String,
    pub state: CheckState,
    /// What the check found, in the owner's words.
    pub text: String,
    /// What to change, when it does not hold.
    pub fix: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub enforced: bool,
    pub host: Option<String>,
    pub folder: Option<PathBuf>,
    pub ledger_file: Option<PathBuf>,
    pub sealed: bool,
    pub checks: Vec<Check>,
}

/// The facts a host integration found: `(fact, value)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostFacts {
    pub host: String,
    pub facts: Vec<(String, String)>,
}

impl HostFacts {
    fn get(&self, fact: &str) -> Option<&str> {
        self.facts.iter().rev().find(|(name, _)| name == fact).map(|(_, value)| value.as_str())
    }
}

fn check(id: &str, state: CheckState, text: SetupText, fix: Option<SetupText>) -> Check {
    Check { id: id.to_string(), state, text: text.to_string(), fix: fix.map(|fix| fix.to_string()) }
}

/// The report for the repository at `workspace` (the agent's workspace root) and `host`.
pub fn assess(workspace: &Path, host: Option<&HostFacts>) -> Report {
    let folder = ledger::ledger_folder();
    let root = ledger::canonical_root(workspace);
    let mut checks = Vec::new();
    let mut sealed = false;
    let ledger_file = folder.as_deref().map(|folder| location::ledger_file(folder, &root));
    match &folder {
        None => checks.push(check(
            "ledger-folder",
            CheckState::Fails,
            SetupText::NoLedgerFolder,
            Some(SetupText::SetStateHome),
        )),
        Some(folder) => {
            let shown = folder.display().to_string();
            checks.push(match ledger::seal_in(folder, &root) {
                Seal::Open => check("sealed", CheckState::Fails, SetupText::NotSealed, Some(SetupText::RunSeal)),
                Seal::Sealed(seal) => match &seal.ledger {
                    Ok(_) => {
                        sealed = true;
                        let text = match &seal.by_ancestor {
                            Some(above) => SetupText::SealedAbove { above: above.display().to_string() },
                            None => SetupText::Sealed { file: seal.file.display().to_string() },
                        };
                        check("sealed", CheckState::Holds, text, None)
                    }
                    Err(broken) => check(
                        "sealed",
                        CheckState::Fails,
                        SetupText::LedgerBroken { refusal: broken_text(broken, &root).to_string() },
                        None,
                    ),
                },
            });
            checks.push(if location::inside(folder, &root) {
                let text =
                    SetupText::LedgerInWorkspace { folder: shown.clone(), workspace: root.display().to_string() };
                check("ledger-outside-workspace", CheckState::Fails, text, Some(SetupText::MoveStateHome))
            } else {
                check(
                    "ledger-outside-workspace",
                    CheckState::Holds,
                    SetupText::LedgerOutside { folder: shown.clone() },
                    None,
                )
            });
            checks.push(match temp_area_holding(folder) {
                Some(temp) => {
                    let text = SetupText::LedgerInTemp { folder: shown, temp: temp.display().to_string() };
                    check("ledger-outside-temp", CheckState::Fails, text, Some(SetupText::MoveStateHome))
                }
                None => check("ledger-outside-temp", CheckState::Holds, SetupText::LedgerNotInTemp, None),
            });
        }
    }
    match host {
        None => checks.push(check("host", CheckState::Unknown, SetupText::NoHost, Some(SetupText::NameHost))),
        Some(facts) => checks.extend(host_checks(facts)),
    }
    let enforced = checks.iter().all(|check| check.state == CheckState::Holds);
    Report { enforced, host: host.map(|h| h.host.clone()), folder, ledger_file, sealed, checks }
}

/// The table's rows for `facts.host`, each judged by the fact's value; a host with no rows is
/// unknown as a whole.
fn host_checks(facts: &HostFacts) -> Vec<Check> {
    let rows: Vec<_> = HOST_CHECKS.iter().filter(|row| row.host == facts.host).collect();
    if rows.is_empty() {
        let text = SetupText::UnknownHost { host: facts.host.clone() };
        return vec![check("host", CheckState::Unknown, text, Some(SetupText::NameHost))];
    }
    rows.into_iter()
        .map(|row| {
            let id = format!("{}.{}", row.host, row.fact);
            let value = facts.get(row.fact);
            let (state, text) = match value {
                None => (CheckState::Unknown, row.unknown.to_string()),
                Some(value) if row.holds.contains(&value) => (CheckState::Holds, fill(row.holds_text, value)),
                Some(value) => (CheckState::Fails, fill(row.fails_text, value)),
            };
            let fix = (state != CheckState::Holds).then(|| row.fix.to_string());
            Check { id, state, text, fix }
        })
        .collect()
}

fn fill(template: &str, value: &str) -> String {
    template.replace("{value}", value)
}

/// The temporary area `folder` lies in: the sandboxes of the hosts let the agent write there
/// (Landlock and Seatbelt grant `/tmp`, Claude Code `$TMPDIR`).
fn temp_area_holding(folder: &Path) -> Option<PathBuf> {
    let mut temps = vec![std::env::temp_dir()];
    if cfg!(unix) {
        temps.extend(["/tmp", "/var/tmp", "/private/tmp", "/dev/shm"].map(PathBuf::from));
    }
    temps.into_iter().find(|temp| location::inside(folder, temp))
}
