use super::*;
use crate::test_repo::Repo;

fn approved(outcome: &WriteOutcome) -> bool {
    outcome.approved
}

#[test]
fn usage_refusals_for_bad_ids_and_kinds() {
    let repo = Repo::new();
    for (id, kind) in [("../x", "design"), ("", "plan"), ("a/b", "design"), ("x", "final"), ("x", "")] {
        let refusal = check(id, kind, &repo.root).unwrap_err();
        assert!(matches!(refusal, ApprovalText::Usage { .. }), "{id:?} {kind:?}: {refusal}");
        assert!(refusal.to_string().starts_with("usage: /approve <change-id> design|plan"));
    }
}

#[test]
fn usage_refusals_say_what_is_wrong() {
    let repo = Repo::new();
    let usage = |id: &str, kind: &str| check(id, kind, &repo.root).unwrap_err().to_string();
    assert_eq!(usage("", ""), "usage: /approve <change-id> design|plan (the change id is missing)");
    assert_eq!(usage("x", ""), "usage: /approve <change-id> design|plan (design or plan is missing)");
    assert_eq!(
        usage("../x", "design"),
        "usage: /approve <change-id> design|plan (change id \"../x\" must be one path segment)"
    );
    assert_eq!(
        usage("x", "design now"),
        "usage: /approve <change-id> design|plan (kind \"design now\" must be design or plan)"
    );
}

#[test]
fn design_lists_every_missing_file() {
    let repo = Repo::new();
    repo.write("openspec/changes/c/proposal.md", "p").write("openspec/changes/c/design.md", "d");
    assert_eq!(
        check("c", "design", &repo.root).unwrap_err().to_string(),
        "cannot approve design of c: missing in openspec/changes/c/: builder-check.md"
    );
    assert_eq!(
        check("nothing", "design", &repo.root).unwrap_err().to_string(),
        "cannot approve design of nothing: missing in openspec/changes/nothing/: proposal.md, design.md, builder-check.md"
    );
    assert!(!repo.exists("openspec/changes/c/approval.md"));
}

#[test]
fn design_approval_writes_by_and_at() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(check("c", "design", &repo.root).unwrap().message().to_string(), "design of c is ready for approval");
    let outcome = write("c", "design", true, &repo.root, None);
    assert!(approved(&outcome), "{}", outcome.message);
    assert_eq!(outcome.message.to_string(), "design of c approved");
    let text = repo.read("openspec/changes/c/approval.md");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "design:");
    assert_eq!(lines[1], "  by: owner");
    assert!(lines[2].starts_with("  at: 20") && lines[2].ends_with('Z'), "{}", lines[2]);
    assert_eq!(lines.len(), 3);
    assert!(read_record(&repo.root, "c").design_approved());
}

#[test]
fn not_confirmed_writes_nothing() {
    let repo = Repo::new();
    repo.change("c");
    let outcome = write("c", "design", false, &repo.root, None);
    assert!(!outcome.approved);
    assert_eq!(outcome.message.to_string(), "not confirmed");
    assert!(!repo.exists("openspec/changes/c/approval.md"));
}

#[test]
fn plan_needs_the_design_first() {
    let repo = Repo::new();
    repo.change("c").plan("p", "c").approval("c", "design:\n");
    assert_eq!(check("c", "plan", &repo.root).unwrap_err().to_string(), "design not approved; run /approve c design");
}

#[test]
fn plan_needs_exactly_one_plan() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    assert_eq!(
        check("c", "plan", &repo.root).unwrap_err().to_string(),
        "no plan in docs/superpowers/plans/ carries **Spec:** openspec/changes/c"
    );
    repo.plan("b-plan", "c").plan("a-plan", "c").plan("other", "d");
    let before = repo.read("openspec/changes/c/approval.md");
    let refusal = write("c", "plan", true, &repo.root, None);
    assert_eq!(
        refusal.message.to_string(),
        "several plans carry **Spec:** openspec/changes/c, exactly one must: docs/superpowers/plans/a-plan.md, docs/superpowers/plans/b-plan.md"
    );
    assert_eq!(repo.read("openspec/changes/c/approval.md"), before);
}

#[test]
fn plan_approval_records_the_sha_and_keeps_design_byte_for_byte() {
    let repo = Repo::new();
    let design = "design:\n  by: \"owner\"   # hand-made\n  at: 2026-10-25T10:00:00+04:00\n";
    repo.change("c").plan("p", "c").approval("c", &format!("{design}notes:\n  keep: me\n"));
    let ready = check("c", "plan", &repo.root).unwrap();
    let plan = ready.plan.clone().unwrap();
    assert_eq!(plan.display, "docs/superpowers/plans/p.md");
    assert_eq!(plan.sha256, crate::plan::sha256_hex(Repo::plan_text("c").as_bytes()));

    let outcome = write("c", "plan", true, &repo.root, Some(&plan.sha256));
    assert!(outcome.approved, "{}", outcome.message);
    let text = repo.read("openspec/changes/c/approval.md");
    assert!(text.starts_with(&format!("{design}notes:\n  keep: me\nplan:\n  by: owner\n  at: ")), "{text}");
    assert!(text.ends_with(&format!("\n  sha256: {}\n", plan.sha256)), "{text}");
    assert_eq!(read_record(&repo.root, "c").plan_sha256(), Some(plan.sha256.as_str()));
}

#[test]
fn a_plan_changed_since_it_was_shown_is_refused() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("p", "c");
    let shown = check("c", "plan", &repo.root).unwrap().plan.unwrap().sha256;
    repo.write("docs/superpowers/plans/p.md", &format!("{}- [ ] sneaked in\n", Repo::plan_text("c")));
    let outcome = write("c", "plan", true, &repo.root, Some(&shown));
    assert!(!outcome.approved);
    assert_eq!(
        outcome.message.to_string(),
        "plan docs/superpowers/plans/p.md changed after it was shown to the owner; nothing written, run /approve c plan again"
    );
    assert_eq!(read_record(&repo.root, "c").plan_sha256(), None);
}

#[test]
fn approving_the_design_again_keeps_the_plan() {
    let repo = Repo::new();
    repo.change("c").plan("p", "c").approve_plan("c", "p");
    let sha = read_record(&repo.root, "c").plan_sha256().unwrap().to_string();
    assert!(write("c", "design", true, &repo.root, None).approved);
    assert_eq!(read_record(&repo.root, "c").plan_sha256(), Some(sha.as_str()));
    assert!(repo.read("openspec/changes/c/approval.md").ends_with(&format!("  sha256: {sha}\n")));
}

#[cfg(unix)]
#[test]
fn a_symlinked_change_directory_is_never_written_through() {
    let repo = Repo::new();
    let outside = Repo::new();
    outside.change("c");
    std::fs::create_dir_all(repo.path("openspec/changes")).unwrap();
    std::os::unix::fs::symlink(outside.path("openspec/changes/c"), repo.path("openspec/changes/c")).unwrap();
    let outcome = write("c", "design", true, &repo.root, None);
    assert!(!outcome.approved);
    assert!(outcome.message.to_string().ends_with("openspec/changes/c: it is a symlink"), "{}", outcome.message);
    assert!(!outside.exists("openspec/changes/c/approval.md"));
}
