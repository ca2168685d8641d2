use super::*;
use crate::plan::sha256_hex;
use crate::test_repo::Repo;

const PLAN: &str = "docs/superpowers/plans/p.md";

fn prepared(repo: &Repo, id: &str, kind: &str, asker: Asker) -> Presentation {
    prepare(id, kind, asker, &repo.root).map(|(_, presentation)| presentation).expect("ready")
}

fn plan_repo(plan: &str) -> Repo {
    let repo = Repo::new();
    repo.change("c").approve_design("c").write(PLAN, plan);
    repo
}

fn plan_text(body: &str) -> String {
    format!("# Plan\n\n**Spec:** openspec/changes/c/design.md\n\n{body}")
}

#[test]
fn a_design_is_shown_with_its_text_the_other_files_and_what_is_written() {
    let repo = Repo::new();
    repo.change("c").write("openspec/changes/c/design.md", "# Design\n\nUse a queue.\n");
    let shown = prepared(&repo, "c", "design", Asker::OwnerCommand);
    assert_eq!(shown.title(), "Approve the design of c?");
    let roles: Vec<(Role, &str, bool)> =
        shown.documents.iter().map(|d| (d.role, d.path.as_str(), d.excerpt.is_some())).collect();
    assert_eq!(
        roles,
        [
            (Role::Design, "openspec/changes/c/design.md", true),
            (Role::Proposal, "openspec/changes/c/proposal.md", false),
            (Role::BuilderCheck, "openspec/changes/c/builder-check.md", false),
        ]
    );
    assert_eq!(
        shown.write,
        Write {
            file: "openspec/changes/c/approval.md".into(),
            section: "design",
            by: "owner",
            sha256: None,
            replaces: None
        }
    );
    assert_eq!(
        shown.markdown(),
        "**You asked for this approval:** `/approve c design`.\n\n\
         Approving writes the `design` section of `openspec/changes/c/approval.md`: `by: owner` and `at:` the \
         time you approve. A design approval is not bound to design.md's bytes (it keeps growing with \
         decisions). Any other answer writes nothing.\n\n\
         Also in the change: `openspec/changes/c/proposal.md` (7 bytes), `openspec/changes/c/builder-check.md` (7 bytes).\n\n\
         ---\n\n\
         **Design** `openspec/changes/c/design.md` · 23 bytes · 3 lines\n\n\
         # Design\n\nUse a queue.\n\n\
         ---\n\n\
         *End of `openspec/changes/c/design.md`.*"
    );
}

#[test]
fn the_terminal_text_is_the_same_content_without_markup() {
    let repo = Repo::new();
    repo.change("c");
    let text = prepared(&repo, "c", "design", Asker::Cli).text();
    assert_eq!(
        text,
        "Approve the design of c?\n\n\
         You asked for this approval: approval-gates approve c design in this terminal.\n\
         Approving writes the design section of openspec/changes/c/approval.md: by: owner and at: the time you \
         approve. A design approval is not bound to design.md's bytes (it keeps growing with decisions). Any \
         other answer writes nothing.\n\
         Also in the change: openspec/changes/c/proposal.md (7 bytes), openspec/changes/c/builder-check.md (7 bytes).\n\
         \n──── Design openspec/changes/c/design.md · 7 bytes · 1 line ────\n\
         # text\n\
         ──── End of openspec/changes/c/design.md. ────\n"
    );
    assert!(!text.contains('`') && !text.contains("**"), "{text}");
}

#[test]
fn each_asker_is_named() {
    let repo = Repo::new();
    repo.change("c");
    let asked = |asker| prepared(&repo, "c", "design", asker).markdown().split("\n\n").next().unwrap().to_string();
    assert_eq!(asked(Asker::OwnerCommand), "**You asked for this approval:** `/approve c design`.");
    assert_eq!(
        asked(Asker::AgentTool),
        "**The agent asks you for this approval,** with its `request_approval` tool; only your answer approves."
    );
    assert_eq!(
        asked(Asker::Cli),
        "**You asked for this approval:** `approval-gates approve c design` in this terminal."
    );
    assert_eq!(asked(Asker::Prompt), "**You asked for this approval:** `/approve c design` in the prompt.");
    for (name, asker) in ASKERS {
        assert_eq!(parse_asker(name), Some(asker));
        assert_eq!(asker_name(asker), name);
    }
    assert_eq!(parse_asker("owner"), None);
}

#[test]
fn a_plan_is_shown_with_its_path_its_sha256_and_its_text() {
    let text = plan_text("- [ ] task 1\n");
    let repo = plan_repo(&text);
    let shown = prepared(&repo, "c", "plan", Asker::AgentTool);
    let sha = sha256_hex(text.as_bytes());
    assert_eq!(shown.sha256(), Some(sha.as_str()));
    let [plan] = shown.documents.as_slice() else { panic!("one document: {:?}", shown.documents) };
    assert_eq!((plan.role, plan.path.as_str(), plan.sha256.as_deref()), (Role::Plan, PLAN, Some(sha.as_str())));
    assert_eq!(plan.excerpt.as_ref().map(|e| (e.text.as_str(), e.truncated)), Some((text.as_str(), false)));
    let markdown = shown.markdown();
    assert!(markdown.contains(&format!("`sha256: {sha}`")), "{markdown}");
    assert!(markdown.contains(&format!("**Plan** `{PLAN}` · {} bytes · 5 lines\n\n{}", text.len(), text.trim_end())));
    assert!(markdown.contains("the design section stays as it is"));
    assert!(markdown.ends_with(&format!("*End of `{PLAN}`.*")));
}

#[test]
fn a_re_approval_says_which_section_it_replaces() {
    let repo = Repo::new();
    repo.change("c").plan("p", "c").approve_plan("c", "p");
    let old = sha256_hex(Repo::plan_text("c").as_bytes());
    repo.write(PLAN, &plan_text("- [ ] task 2\n"));
    let shown = prepared(&repo, "c", "plan", Asker::OwnerCommand);
    let previous = shown.write.replaces.clone().expect("the old plan section");
    assert_eq!(previous.sha256.as_deref(), Some(old.as_str()));
    assert!(
        shown.markdown().contains(&format!(
            "It replaces the plan section there now (by owner, at {}, sha256 `{old}`).",
            previous.at
        ))
    );
}

#[test]
fn a_long_plan_is_cut_at_the_line_cap_and_the_cut_is_marked() {
    let body: String = (1..=500).map(|n| format!("- [ ] task {n}\n")).collect();
    let text = plan_text(&body);
    let repo = plan_repo(&text);
    let shown = prepared(&repo, "c", "plan", Asker::Cli);
    let excerpt = shown.documents[0].excerpt.clone().unwrap();
    assert!(excerpt.truncated);
    assert_eq!(excerpt.lines, MAX_EXCERPT_LINES as u64);
    assert_eq!(excerpt.text.lines().count(), MAX_EXCERPT_LINES);
    assert!(text.starts_with(&excerpt.text) && excerpt.text.ends_with('\n'));
    // The hash is of the whole file, not of what is shown.
    assert_eq!(shown.sha256(), Some(sha256_hex(text.as_bytes()).as_str()));
    let note = format!(
        "Shown: the first 200 lines of 504 lines ({} of {}). Read the whole file in {PLAN}.",
        crate::texts::size(excerpt.bytes),
        crate::texts::size(text.len() as u64)
    );
    assert!(shown.text().ends_with(&format!("──── {note} ────\n")), "{}", shown.text());
    assert!(shown.markdown().ends_with(&format!("*{}*", note.replace(PLAN, &format!("`{PLAN}`")))));
}

#[test]
fn a_plan_of_long_lines_is_cut_at_the_byte_cap_after_a_whole_line() {
    let line = format!("{}\n", "x".repeat(999));
    let text = plan_text(&line.repeat(40));
    let repo = plan_repo(&text);
    let excerpt = prepared(&repo, "c", "plan", Asker::Cli).documents[0].excerpt.clone().unwrap();
    assert!(excerpt.truncated);
    assert!(excerpt.bytes as usize <= MAX_EXCERPT_BYTES && excerpt.bytes as usize > MAX_EXCERPT_BYTES - 1000);
    assert!(excerpt.text.ends_with('\n') && text.starts_with(&excerpt.text));
}

#[test]
fn a_cut_never_splits_a_utf8_character() {
    // One line of three-byte characters: no line end in reach, so the cut falls between characters.
    for shift in 0..3 {
        let text = plan_text(&format!("{}{}\n", "a".repeat(shift), "語".repeat(MAX_EXCERPT_BYTES)));
        let repo = plan_repo(&text);
        let excerpt = prepared(&repo, "c", "plan", Asker::Cli).documents[0].excerpt.clone().unwrap();
        assert!(excerpt.truncated);
        assert!(excerpt.bytes as usize <= MAX_EXCERPT_BYTES);
        assert!(text.is_char_boundary(excerpt.bytes as usize), "shift {shift}");
        assert_eq!(excerpt.text, text[..excerpt.bytes as usize]);
        assert!(!excerpt.text.contains('\u{fffd}'));
    }
}

#[test]
fn bytes_that_are_not_utf8_are_shown_as_replacement_characters() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::write(repo.path("openspec/changes/c/design.md"), b"caf\xe9\n").unwrap();
    let excerpt = prepared(&repo, "c", "design", Asker::Cli).documents[0].excerpt.clone().unwrap();
    assert_eq!(excerpt.text, "caf\u{fffd}\n");
    assert_eq!((excerpt.bytes, excerpt.lines), (5, 1));
}

#[test]
fn an_empty_design_says_so() {
    let repo = Repo::new();
    repo.change("c").write("openspec/changes/c/design.md", "");
    let shown = prepared(&repo, "c", "design", Asker::OwnerCommand);
    assert!(shown.markdown().ends_with(
        "**Design** `openspec/changes/c/design.md` · 0 bytes · 0 lines\n\n`openspec/changes/c/design.md` is empty."
    ));
    assert!(shown.text().ends_with(
        "──── Design openspec/changes/c/design.md · 0 bytes · 0 lines ────\nopenspec/changes/c/design.md is empty.\n"
    ));
}

#[test]
fn a_code_block_the_excerpt_leaves_open_is_closed_in_markdown() {
    let body = format!("```rust\n{}", "let x = 1;\n".repeat(400));
    let repo = plan_repo(&plan_text(&body));
    let markdown = prepared(&repo, "c", "plan", Asker::Cli).markdown();
    let (document, closing) = markdown.rsplit_once("\n\n---\n\n").unwrap();
    assert!(document.ends_with("let x = 1;\n```"), "{document}");
    assert!(closing.starts_with("*Shown: the first 200 lines"));
    // A closed block needs nothing.
    let repo = plan_repo(&plan_text("~~~~\ncode\n~~~\n~~~~~\nafter\n"));
    let markdown = prepared(&repo, "c", "plan", Asker::Cli).markdown();
    assert!(markdown.contains("~~~~\ncode\n~~~\n~~~~~\nafter\n\n---"), "{markdown}");
    assert_eq!(shown_markdown("```\n``` x\n"), "```\n``` x\n```", "a fence with text after it does not close");
    assert_eq!(shown_markdown("    ```\n"), "    ```\n", "indented four spaces is code, not a fence");
    assert_eq!(shown_markdown("``x`\n"), "``x`\n");
}

#[test]
fn link_reference_definitions_are_shown_not_swallowed() {
    assert_eq!(
        shown_markdown("a\n\n[hidden]: http://x \"t\"\n  [^1]: note\n"),
        "a\n\n\\[hidden]: http://x \"t\"\n  \\[^1]: note\n"
    );
    // Inside code, and things that are not definitions, stay as they are.
    assert_eq!(
        shown_markdown("```\n[x]: y\n```\n[]: y\n[x] : y\n    [x]: y\n"),
        "```\n[x]: y\n```\n[]: y\n[x] : y\n    [x]: y\n"
    );
    let repo = plan_repo(&plan_text("[a]: https://example.com\n"));
    assert!(prepared(&repo, "c", "plan", Asker::Cli).markdown().contains("\n\\[a]: https://example.com\n"));
}

#[test]
fn control_and_reordering_characters_are_made_visible() {
    assert_eq!(visible("a\r\nb\tc\n"), "a\nb\tc\n");
    assert_eq!(visible("ok\rfake"), "ok<U+000D>fake");
    assert_eq!(visible("\u{1b}[8mhidden\u{1b}[0m"), "<U+001B>[8mhidden<U+001B>[0m");
    assert_eq!(visible("abc\u{202e}fed"), "abc<U+202E>fed");
    assert_eq!(visible("\u{7f}\u{85}\u{2066}"), "<U+007F><U+0085><U+2066>");
    let repo = Repo::new();
    repo.change("c").write("openspec/changes/c/design.md", "line\rover\n");
    let shown = prepared(&repo, "c", "design", Asker::Cli);
    assert!(shown.text().contains("line<U+000D>over\n") && shown.markdown().contains("line<U+000D>over"));
    // The excerpt itself keeps the bytes; only what is shown is escaped.
    assert_eq!(shown.documents[0].excerpt.as_ref().unwrap().text, "line\rover\n");
}

#[test]
fn names_with_markdown_characters_are_code_spans() {
    let repo = Repo::new();
    repo.change("c").approve_design("c").plan("a_b`c*", "c");
    let markdown = prepared(&repo, "c", "plan", Asker::OwnerCommand).markdown();
    assert!(markdown.contains("**Plan** ``docs/superpowers/plans/a_b`c*.md``"), "{markdown}");
    assert_eq!(crate::texts::code_span("`x"), "`` `x ``");
}

#[test]
fn prepare_refuses_as_check_does_and_keeps_the_shown_hash() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(
        prepare("c", "plan", Asker::Cli, &repo.root).unwrap_err(),
        ApprovalText::DesignNotApproved { change_id: "c".into() }
    );
    repo.approve_design("c").plan("p", "c");
    let (ready, shown) = prepare("c", "plan", Asker::Cli, &repo.root).unwrap();
    assert_eq!(ready.plan.as_ref().map(|plan| plan.sha256.as_str()), shown.sha256());
}

#[test]
fn sizes_read_as_a_person_reads_them() {
    use crate::texts::size;
    assert_eq!(
        [size(0), size(1), size(1023), size(1024), size(16 << 10), size(3 << 20)],
        ["0 bytes", "1 byte", "1023 bytes", "1.0 KiB", "16.0 KiB", "3.0 MiB"]
    );
}
