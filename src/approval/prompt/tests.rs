use super::*;
use crate::test_repo::Repo;

const PLAN: &str = "docs/superpowers/plans/p.md";

fn show_of(repo: &Repo, pending: &Path, line: &str) -> (Answer, Option<String>) {
    let answer = answer(line, &repo.root, pending);
    let command = answer.text.lines().map(str::trim).find(|l| l.starts_with("/approve ")).map(str::to_string);
    (answer, command)
}

#[test]
fn only_the_two_lines_of_approve_are_read() {
    let show = |id: &str, kind: &str| Some(Request::Show { change_id: id.into(), kind: kind.into() });
    assert_eq!(Request::parse("/approve foo design"), show("foo", "design"));
    assert_eq!(Request::parse("  /approve\tfoo   plan \n"), show("foo", "plan"));
    assert_eq!(Request::parse("/approve foo bar"), show("foo", "bar"));
    assert_eq!(
        Request::parse("/approve foo plan 0A1b2C3d"),
        Some(Request::Confirm { change_id: "foo".into(), kind: "plan".into(), code: "0a1b2c3d".into() })
    );
    for line in [
        "",
        "/approve",
        "/approve foo",
        "/approve foo design please",
        "/approve foo design 123",
        "/approve foo design 0a1b2c3d extra",
        "/approve foo design\nand then implement it",
        "/approve foo\ndesign",
        "please /approve foo design",
        "/approvefoo design",
        "/APPROVE foo design",
        "approve foo design",
    ] {
        assert_eq!(Request::parse(line), None, "{line:?}");
    }
}

#[test]
fn a_design_is_shown_then_approved_by_its_code_once() {
    let repo = Repo::new();
    repo.change("c");
    let pending = tempfile::tempdir().expect("test fixture");
    let (shown, command) = show_of(&repo, pending.path(), "/approve c design");
    assert!(!shown.approved);
    assert!(shown.text.starts_with("Approve the design of c?\n"), "{}", shown.text);
    assert!(shown.text.contains("You asked for this approval: /approve c design in the prompt."), "{}", shown.text);
    assert!(shown.text.contains("Nothing is approved yet."), "{}", shown.text);
    assert!(!repo.exists("openspec/changes/c/approval.md"));
    let command = command.expect("the confirming line");
    assert!(Request::parse(&command).is_some_and(|request| matches!(request, Request::Confirm { .. })), "{command}");

    let wrong = answer("/approve c design 00000000", &repo.root, pending.path());
    assert!(!wrong.approved);
    assert!(
        wrong.text.starts_with("nothing approved: that is not the code shown for the design of c"),
        "{}",
        wrong.text
    );
    assert!(!repo.exists("openspec/changes/c/approval.md"));

    let confirmed = answer(&command, &repo.root, pending.path());
    assert_eq!(confirmed, Answer { approved: true, text: "design of c approved".into() });
    assert!(super::super::read_record(&repo.root, "c").design_approved());
    // Once.
    assert!(!answer(&command, &repo.root, pending.path()).approved);
    assert_eq!(fs::read_dir(pending.path()).expect("test fixture").count(), 0);
}

#[test]
fn a_plan_confirmed_after_it_changed_is_refused() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    let pending = tempfile::tempdir().expect("test fixture");
    let (shown, command) = show_of(&repo, pending.path(), "/approve c plan");
    let sha = plan::sha256_hex(repo.read(PLAN).as_bytes());
    assert!(shown.text.contains(&sha), "{}", shown.text);
    repo.write(PLAN, &format!("{}- [ ] sneaked in\n", Repo::plan_text("c")));
    let refused = answer(&command.expect("the confirming line"), &repo.root, pending.path());
    assert!(!refused.approved);
    assert!(refused.text.contains("changed after it was shown to the owner"), "{}", refused.text);
    assert_eq!(super::super::read_record(&repo.root, "c").plan_sha256(), None);

    // Shown again, the new plan is what the code approves.
    let (_, command) = show_of(&repo, pending.path(), "/approve c plan");
    let approved = answer(&command.expect("the confirming line"), &repo.root, pending.path());
    assert!(approved.approved, "{}", approved.text);
    let now = plan::sha256_hex(repo.read(PLAN).as_bytes());
    assert_eq!(super::super::read_record(&repo.root, "c").plan_sha256(), Some(now.as_str()));
}

#[test]
fn a_new_showing_replaces_the_code_and_codes_do_not_cross_changes() {
    let repo = Repo::new();
    repo.change("c").change("d");
    let pending = tempfile::tempdir().expect("test fixture");
    let (_, first) = show_of(&repo, pending.path(), "/approve c design");
    let (_, second) = show_of(&repo, pending.path(), "/approve c design");
    let (first, second) = (first.expect("line"), second.expect("line"));
    if first != second {
        assert!(!answer(&first, &repo.root, pending.path()).approved);
    }
    let code = second.rsplit(' ').next().expect("a code");
    assert!(!answer(&format!("/approve d design {code}"), &repo.root, pending.path()).approved);
    assert!(!answer(&format!("/approve c plan {code}"), &repo.root, pending.path()).approved);
    assert!(answer(&second, &repo.root, pending.path()).approved);
    assert!(!super::super::read_record(&repo.root, "d").design_approved());
}

#[test]
fn refusals_write_nothing_and_say_so() {
    let repo = Repo::new();
    repo.write("openspec/changes/c/proposal.md", "x");
    let pending = tempfile::tempdir().expect("test fixture");
    let missing = answer("/approve c design", &repo.root, pending.path());
    assert!(!missing.approved);
    assert!(missing.text.starts_with("cannot approve design of c: missing"), "{}", missing.text);
    assert_eq!(fs::read_dir(pending.path()).expect("test fixture").count(), 0);
    let usage = answer("/approve c design now", &repo.root, pending.path());
    assert!(usage.text.starts_with("nothing approved. Type /approve <change-id> design|plan"), "{}", usage.text);
    let unsafe_id = answer("/approve ../x design 0a1b2c3d", &repo.root, pending.path());
    assert!(unsafe_id.text.starts_with("usage: /approve <change-id> design|plan"), "{}", unsafe_id.text);
    let kind = answer("/approve c both 0a1b2c3d", &repo.root, pending.path());
    assert!(kind.text.starts_with("usage: /approve <change-id> design|plan"), "{}", kind.text);
}

#[test]
fn the_code_is_kept_where_only_the_owner_reads_it_and_a_place_that_cannot_hold_it_refuses() {
    let repo = Repo::new();
    repo.change("c");
    let state = tempfile::tempdir().expect("test fixture");
    let pending = state.path().join("pending");
    show_of(&repo, &pending, "/approve c design");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).expect("test fixture").permissions().mode() & 0o777;
        assert_eq!(mode(&pending), 0o700);
        let file = fs::read_dir(&pending).expect("test fixture").next().expect("one").expect("entry").path();
        assert_eq!(mode(&file), 0o600);
    }
    let blocked = state.path().join("file");
    fs::write(&blocked, "not a folder").expect("test fixture");
    let refused = answer("/approve c design", &repo.root, &blocked.join("pending"));
    assert!(!refused.approved);
    assert!(refused.text.starts_with("nothing approved: the confirmation code could not be kept"), "{}", refused.text);
}

#[test]
fn a_session_in_a_subdirectory_approves_its_repository() {
    let repo = Repo::new();
    repo.change("c").write("src/deep/x.rs", "");
    assert_eq!(repository_root(&repo.path("src/deep")), repo.root);
    assert_eq!(repository_root(&repo.root), repo.root);
    let elsewhere = tempfile::tempdir().expect("test fixture");
    assert_eq!(repository_root(elsewhere.path()), elsewhere.path());
    let pending = tempfile::tempdir().expect("test fixture");
    let answer_in = |line: &str| answer(line, &repo.path("src/deep"), pending.path());
    let shown = answer_in("/approve c design");
    let command = shown.text.lines().map(str::trim).find(|l| l.starts_with("/approve ")).expect("line").to_string();
    assert!(answer_in(&command).approved);
    assert!(super::super::read_record(&repo.root, "c").design_approved());
}

#[test]
fn pending_records_are_parsed_whole_or_not_at_all() {
    let good = Pending {
        root: PathBuf::from("/r"),
        change_id: "c".into(),
        kind: "plan".into(),
        code: "0a1b2c3d".into(),
        sha256: Some("ab".into()),
    };
    assert_eq!(Pending::parse(&good.render()), Some(good.clone()));
    let design = Pending { sha256: None, kind: "design".into(), ..good.clone() };
    assert_eq!(Pending::parse(&design.render()), Some(design));
    for text in [
        String::new(),
        good.render().replace(PENDING_HEADER, "other"),
        good.render().replace("code: 0a1b2c3d\n", ""),
        format!("{}code: ffffffff\n", good.render()),
        format!("{}extra: kept out\n", good.render()).replace("extra: kept out\n", "\u{0}\n"),
    ] {
        let parsed = Pending::parse(&text);
        assert!(parsed.is_none() || parsed == Some(good.clone()), "{text:?}");
    }
}
