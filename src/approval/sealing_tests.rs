//! P-17 end to end in the core: the owner's approvals go to the ledger first, and in a sealed
//! repository the gates count only what the ledger holds.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use super::ledger::{self, Seal, location};
use super::seal::{self, Shown, State};
use super::*;
use crate::gates::{self, ToolArgs};
use crate::setup::{self, CheckState, HostFacts};
use crate::test_repo::Repo;

#[derive(Default)]
struct Args(HashMap<&'static str, String>);

impl Args {
    fn with(mut self, field: &'static str, value: &str) -> Self {
        self.0.insert(field, value.to_string());
        self
    }
}

impl ToolArgs for Args {
    fn string(&self, field: &str) -> Option<String> {
        self.0.get(field).cloned()
    }
    fn strings_of(&self, _array: &str, _field: &str) -> Option<Vec<Option<String>>> {
        None
    }
}

fn guard(repo: &Repo, name: &str, args: &Args) -> Option<String> {
    gates::check_tool_call(name, args, || repo.root.clone()).map(|denial| denial.to_string())
}

fn write_plan(repo: &Repo, id: &str) -> Option<String> {
    let args = Args::default().with("file_path", "docs/superpowers/plans/p.md").with("content", &Repo::plan_text(id));
    guard(repo, "write", &args)
}

fn dispatch(repo: &Repo, plan: &str) -> Option<String> {
    let args = Args::default().with("prompt", &format!("implement docs/superpowers/plans/{plan}.md"));
    guard(repo, "subagent", &args)
}

const DESIGN_REFUSED: &str = "BLOCKED [approval-gates]: design not approved; run /approve c design";

fn approve(repo: &Repo, id: &str, kind: &str) -> WriteOutcome {
    let outcome = write(id, kind, true, &repo.root, None);
    assert!(outcome.approved, "{}", outcome.text());
    outcome
}

#[test]
fn an_unsealed_repository_keeps_the_spec_s_behaviour() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    assert_eq!(write_plan(&repo, "c"), None);
    assert_eq!(ledger::seal_of(&repo.root), Seal::Open);
}

#[test]
fn the_owner_s_approval_is_recorded_first_and_counts() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
    let outcome = approve(&repo, "c", "design");
    assert_eq!(outcome.text(), "design of c approved");
    let Seal::Sealed(sealed) = ledger::seal_of(&repo.root) else { panic!("sealed by the approval") };
    let held = sealed.ledger.unwrap().get("c", Kind::Design).cloned().unwrap();
    assert_eq!(held.by, "owner");
    assert!(repo.read("openspec/changes/c/approval.md").contains(&format!("  at: {}\n", held.at)));
    assert_eq!(write_plan(&repo, "c"), None);

    repo.plan("p", "c");
    approve(&repo, "c", "plan");
    assert_eq!(dispatch(&repo, "p"), None);
}

#[test]
fn in_a_sealed_repository_a_forged_section_counts_as_absent() {
    let repo = Repo::new();
    repo.change("c").change("other");
    approve(&repo, "other", "design");
    // Forged by hand, copied from another change, restored from an old commit: all the same.
    repo.approve_design("c");
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
    let copied = repo.read("openspec/changes/other/approval.md");
    repo.approval("c", &copied);
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
    // `/approve c plan` asks for the design first, judged the same way.
    repo.plan("p", "c");
    assert_eq!(check("c", "plan", &repo.root).unwrap_err().to_string(), "design not approved; run /approve c design");
}

#[test]
fn a_plan_approval_binds_its_bytes_and_its_path() {
    let repo = Repo::new();
    repo.change("c").plan("p", "c");
    approve(&repo, "c", "design");
    approve(&repo, "c", "plan");
    assert_eq!(dispatch(&repo, "p"), None);
    // The approved bytes under another name: not the plan the owner approved.
    fs::rename(repo.path("docs/superpowers/plans/p.md"), repo.path("docs/superpowers/plans/q.md")).unwrap();
    assert_eq!(
        dispatch(&repo, "q").as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
    fs::rename(repo.path("docs/superpowers/plans/q.md"), repo.path("docs/superpowers/plans/p.md")).unwrap();
    // A plan section with another hash, written by hand: absent.
    let text = repo.read("openspec/changes/c/approval.md");
    repo.write("docs/superpowers/plans/p.md", &format!("{}- [ ] more\n", Repo::plan_text("c")));
    let sha = crate::plan::sha256_hex(repo.read("docs/superpowers/plans/p.md").as_bytes());
    let forged: String = text
        .lines()
        .map(|l| if l.starts_with("  sha256:") { format!("  sha256: {sha}\n") } else { format!("{l}\n") })
        .collect();
    repo.approval("c", &forged);
    assert_eq!(
        dispatch(&repo, "p").as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve c plan")
    );
}

#[test]
fn an_older_approval_restored_does_not_count_after_a_new_one() {
    let repo = Repo::new();
    repo.change("c");
    approve(&repo, "c", "design");
    let first = repo.read("openspec/changes/c/approval.md");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    approve(&repo, "c", "design");
    repo.approval("c", &first);
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
}

#[test]
fn a_broken_ledger_counts_nothing_and_says_what_to_do() {
    let repo = Repo::new();
    repo.change("c");
    approve(&repo, "c", "design");
    let Seal::Sealed(sealed) = ledger::seal_of(&repo.root) else { panic!() };
    fs::write(&sealed.file, "torn").unwrap();
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
    let refused = write("c", "design", true, &repo.root, None);
    assert!(!refused.approved);
    let text = refused.text();
    assert!(
        text.starts_with(&format!("nothing approved: the approval ledger {} does not read (", sealed.file.display())),
        "{text}"
    );
    assert!(text.contains("run `approval-gates seal` in"), "{text}");
    assert!(check("c", "design", &repo.root).is_err(), "said before the owner is asked");
}

#[test]
fn a_ledger_that_cannot_be_written_writes_nothing() {
    let repo = Repo::new();
    repo.change("c");
    let blocked = tempfile::tempdir().unwrap();
    fs::write(blocked.path().join("state"), "a file, not a folder").unwrap();
    let folder = blocked.path().join("state").join(location::FOLDER);
    let refused = location::with_folder(Some(&folder), || write("c", "design", true, &repo.root, None));
    assert!(!refused.approved);
    assert!(
        refused.text().starts_with("nothing approved: the approval ledger cannot be written ("),
        "{}",
        refused.text()
    );
    assert!(refused.text().ends_with("never from inside the agent's sandbox"), "{}", refused.text());
    assert!(!repo.exists("openspec/changes/c/approval.md"));
    let none = location::with_folder(None, || write("c", "design", true, &repo.root, None));
    assert!(none.text().starts_with("nothing approved: the approval ledger has no folder here"), "{}", none.text());
    assert!(!repo.exists("openspec/changes/c/approval.md"));
}

#[test]
fn the_first_approval_says_which_sections_stopped_counting() {
    let repo = Repo::new();
    repo.change("a").change("b").approve_design("b");
    let outcome = approve(&repo, "a", "design");
    assert_eq!(
        outcome.text(),
        "design of a approved; approvals are now sealed in this repository: 1 approval.md section the ledger does not hold no longer count (run `approval-gates seal` to review them)"
    );
    assert_eq!(approve(&repo, "a", "design").text(), "design of a approved");
}

#[test]
fn a_plan_approved_on_a_design_from_before_the_seal_carries_the_design_into_the_ledger() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    assert!(!approve(&repo, "c", "plan").text().contains("sealed"));
    assert_eq!(write_plan(&repo, "c"), None, "the design still counts");
    assert_eq!(dispatch(&repo, "p"), None);
}

#[test]
fn seal_records_what_the_owner_was_shown_and_writes_back_what_only_the_ledger_holds() {
    let repo = Repo::new();
    repo.change("a").change("b").plan("pb", "b").approve_plan("b", "pb");
    let survey = seal::survey(&repo.root);
    assert_eq!(survey.seal, Seal::Open);
    let states: Vec<_> = survey.items.iter().map(|i| (i.change_id.as_str(), i.kind, i.state.clone())).collect();
    assert_eq!(states, vec![("b", Kind::Design, State::Unrecorded), ("b", Kind::Plan, State::Unrecorded)]);
    let shown: Vec<Shown> = survey
        .items
        .iter()
        .map(|i| {
            let c = i.claim.clone().unwrap();
            Shown { change_id: i.change_id.clone(), kind: i.kind, by: c.by, at: c.at, sha256: c.sha256 }
        })
        .collect();
    // The plan section is changed after it was shown: it is skipped.
    let text = repo.read("openspec/changes/b/approval.md");
    repo.approval("b", &text.replace("11:30", "11:31"));
    let done = seal::seal(&repo.root, &shown).unwrap();
    assert!(done.sealed_now);
    assert_eq!((done.recorded, done.restored, done.skipped.len()), (1, 0, 1));
    assert_eq!(
        dispatch(&repo, "pb").as_deref(),
        Some("BLOCKED [approval-gates]: plan not approved; run /approve b plan")
    );
    let args = Args::default().with("file_path", "docs/superpowers/plans/x.md").with("content", &Repo::plan_text("b"));
    assert_eq!(guard(&repo, "write", &args), None, "the recorded design counts");

    // approval.md lost a section the ledger holds (its write failed after the ledger's): sealing
    // writes it back.
    repo.approval("b", "");
    let survey = seal::survey(&repo.root);
    let missing: Vec<_> = survey.items.iter().filter(|i| i.state == State::Missing).collect();
    assert_eq!(missing.len(), 1);
    let held = missing[0].held.clone().unwrap();
    let shown = [Shown { change_id: "b".into(), kind: Kind::Design, by: held.by, at: held.at, sha256: None }];
    let done = seal::seal(&repo.root, &shown).unwrap();
    assert_eq!((done.sealed_now, done.recorded, done.restored), (false, 0, 1));
    assert_eq!(guard(&repo, "write", &args), None);
}

#[test]
fn an_explicit_seal_makes_a_new_repository_enforced_before_its_first_approval() {
    let repo = Repo::new();
    repo.change("c");
    let done = seal::seal(&repo.root, &[]).unwrap();
    assert!(done.sealed_now);
    repo.approve_design("c");
    assert_eq!(write_plan(&repo, "c").as_deref(), Some(DESIGN_REFUSED));
    // A worktree inside it is sealed too.
    let nested = nested_in(&repo);
    nested.change("c").approve_design("c");
    assert_eq!(write_plan(&nested, "c").as_deref(), Some(DESIGN_REFUSED));
}

fn nested_in(repo: &Repo) -> Repo {
    let root = repo.root.join(".claude/worktrees/w");
    fs::create_dir_all(&root).unwrap();
    Repo::at(root)
}

#[test]
fn the_ledger_is_a_guarded_location_for_every_writer() {
    let repo = Repo::new();
    let folder = location::ledger_folder().unwrap();
    let file = folder.join("repos/x.ledger");
    let file = file.to_str().unwrap();
    let refused = Some("BLOCKED [approval-gates]: the approval ledger is written only by /approve".to_string());
    assert_eq!(guard(&repo, "write", &Args::default().with("file_path", file).with("content", "x")), refused);
    assert_eq!(guard(&repo, "bash", &Args::default().with("command", &format!("echo x >> '{file}'"))), refused);
    assert_eq!(guard(&repo, "bash", &Args::default().with("command", &format!("cp /etc/hostname {file}"))), refused);
    let parent = folder.parent().unwrap().to_str().unwrap().to_string();
    assert_eq!(guard(&repo, "bash", &Args::default().with("command", &format!("rm -rf {parent}"))), refused);
    assert_eq!(
        guard(&repo, "pwsh", &Args::default().with("command", &format!("Set-Content -Path '{file}' -Value x"))),
        refused
    );
    assert_eq!(guard(&repo, "bash", &Args::default().with("command", &format!("cat {file}; sha256sum {file}"))), None);
}

#[test]
fn leaving_the_sandbox_is_refused_once_anything_is_sealed() {
    let repo = Repo::new();
    repo.change("c");
    let escalate = |mode: &str| {
        Args::default().with("command", "npm i -g x").with("sandbox_permissions", mode).with("justification", "j")
    };
    assert_eq!(guard(&repo, "bash", &escalate("danger-full-access")), None, "nothing sealed yet");
    approve(&repo, "c", "design");
    let refused = "BLOCKED [approval-gates]: approvals are sealed here, so no command leaves the sandbox (sandbox_permissions: danger-full-access); run it in the sandbox, or ask the owner to run it";
    for tool in ["bash", "pwsh", "write", "edit"] {
        assert_eq!(guard(&repo, tool, &escalate("danger-full-access")).as_deref(), Some(refused), "{tool}");
    }
    assert_eq!(guard(&repo, "bash", &escalate("workspace-write")), None);
    assert_eq!(guard(&repo, "bash", &Args::default().with("command", "ls")), None);
}

#[test]
fn setup_is_enforced_only_when_every_check_holds() {
    let repo = Repo::new();
    repo.change("c");
    let dsh = |channel: &str| HostFacts {
        host: "dsh".into(),
        facts: vec![
            ("sandbox-mode".into(), "workspace-write".into()),
            ("shell".into(), "sandboxed".into()),
            ("runner".into(), "bwrap --cap-drop ALL".into()),
            ("owner-channel".into(), channel.into()),
        ],
    };
    let state = |report: &setup::Report, id: &str| report.checks.iter().find(|c| c.id == id).map(|c| c.state);
    let outside = tempfile::tempdir().unwrap();
    let home = Path::new("/var/lib/approval-gates-test-home/approval-gates");
    let open = location::with_folder(Some(home), || setup::assess(&repo.root, Some(&dsh("host"))));
    assert!(!open.enforced);
    assert_eq!(state(&open, "sealed"), Some(CheckState::Fails));
    let folder = outside.path().join(location::FOLDER);
    location::with_folder(Some(&folder), || {
        approve(&repo, "c", "design");
        let report = setup::assess(&repo.root, Some(&dsh("host")));
        assert_eq!(state(&report, "sealed"), Some(CheckState::Holds));
        assert_eq!(state(&report, "dsh.owner-channel"), Some(CheckState::Holds));
        // The test's folder lies in the temporary area, which a Landlock sandbox lets the agent write.
        assert_eq!(state(&report, "ledger-outside-temp"), Some(CheckState::Fails));
        assert!(!report.enforced);
        let web = setup::assess(&repo.root, Some(&dsh("web-api")));
        assert_eq!(state(&web, "dsh.owner-channel"), Some(CheckState::Fails));
        let unknown = setup::assess(&repo.root, None);
        assert_eq!(state(&unknown, "host"), Some(CheckState::Unknown));
    });
    let inside = repo.root.join("state").join(location::FOLDER);
    let report = location::with_folder(Some(&inside), || setup::assess(&repo.root, Some(&dsh("host"))));
    assert_eq!(state(&report, "ledger-outside-workspace"), Some(CheckState::Fails));
}
