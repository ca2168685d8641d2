use super::*;

#[test]
fn mcp_filesystem_writers_by_name() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let refused = [
        ("mcp__filesystem__write_file", Args::default().with("path", APPROVAL).with("content", "design:\n"), C_TEXT),
        ("mcp__fs__edit_file", Args::default().with("path", APPROVAL).edits(&[Some("x")]), C_TEXT),
        ("mcp__filesystem__move_file", Args::default().with("source", "a.md").with("destination", APPROVAL), C_TEXT),
        ("mcp__filesystem__move_file", Args::default().with("source", APPROVAL).with("destination", "b.md"), C_TEXT),
        ("mcp__filesystem__create_directory", Args::default().with("path", APPROVAL), C_TEXT),
        ("mcp__filesystem__write_file", Args::default().with("path", PLAN).with("content", "# no spec"), NEEDS_SPEC),
        ("mcp__filesystem__edit_file", Args::default().with("path", PLAN).edits(&[Some("- [ ] task")]), NEEDS_SPEC),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool}");
    }
    let allowed = [
        ("mcp__filesystem__write_file", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c"))),
        ("mcp__filesystem__write_file", Args::default().with("path", "src/a.rs").with("content", "x")),
        ("mcp__filesystem__edit_file", Args::default().with("path", "README.md").edits(&[Some("x")])),
        ("mcp__filesystem__move_file", Args::default().with("source", "a.md").with("destination", "b.md")),
        ("mcp__filesystem__create_directory", Args::default().with("path", "docs/superpowers/plans")),
        ("mcp__filesystem__create_directory", Args::default().with("path", "openspec/changes/new")),
        ("mcp__filesystem__read_file", Args::default().with("path", APPROVAL)),
        ("mcp__filesystem__read_text_file", Args::default().with("path", PLAN)),
        ("mcp__filesystem__list_directory", Args::default().with("path", "openspec/changes/c")),
        ("mcp__filesystem__search_files", Args::default().with("path", ".").with("pattern", "approval.md")),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
}

#[test]
fn mcp_tools_by_the_words_of_their_name() {
    let repo = Repo::new();
    repo.change("c");
    let refused = [
        ("mcp__notes__saveNote", Args::default().with("filePath", APPROVAL).with("text", "x"), C_TEXT),
        ("mcp__docs__append-text", Args::default().with("file", APPROVAL), C_TEXT),
        ("mcp__s3__download_object", Args::default().with("key", "k").with("output", APPROVAL), C_TEXT),
        ("mcp__files__rename", Args::default().with("from", APPROVAL).with("to", "x.md"), C_TEXT),
        ("mcp__files__delete_path", Args::default().with("path", APPROVAL), C_TEXT),
        (
            "mcp__editor__create_file",
            Args::default().with("filename", PLAN).with("new_string", "# no spec"),
            NEEDS_SPEC,
        ),
        ("mcp__editor__put", Args::default().with("target", PLAN), NEEDS_SPEC),
        ("mcp__editor__write", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c")), DESIGN_C),
    ];
    for (tool, args, denial) in &refused {
        assert_eq!(check(&repo, tool, args).as_deref(), Some(*denial), "{tool}");
    }
    repo.approve_design("c");
    let allowed = [
        ("mcp__editor__write", Args::default().with("path", PLAN).with("content", &Repo::plan_text("c"))),
        ("mcp__notes__saveNote", Args::default().with("filePath", "notes/today.md").with("text", "x")),
        // Read-only tools by name (docs/decisions.md#p-18).
        ("mcp__files__read_file", Args::default().with("path", APPROVAL)),
        ("mcp__github__get_file_contents", Args::default().with("path", APPROVAL)),
        // A writer whose path names nothing guarded.
        ("mcp__editor__write", Args::default().with("path", "src/x.rs").with("content", "x")),
        ("mcp__anything__whatever", Args::default()),
    ];
    for (tool, args) in &allowed {
        assert_eq!(check(&repo, tool, args), None, "{tool}");
    }
    // Tools the gates do not know by name: every path they carry is written, a copy's source
    // included (docs/decisions.md#p-18).
    let copy = Args::default().with("source", APPROVAL).with("destination", "backup/approval.bak");
    assert_eq!(check(&repo, "mcp__files__copy_file", &copy).as_deref(), Some(C_TEXT));
    assert_eq!(check(&repo, "mcp__search__find", &Args::default().with("path", PLAN)).as_deref(), Some(NEEDS_SPEC));
}

#[test]
fn mcp_shell_tools_are_judged_as_bash() {
    let repo = Repo::new();
    repo.change("c");
    let writes = Args::default().with("command", "echo x > openspec/changes/c/approval.md");
    for tool in ["mcp__shell__run_command", "mcp__desktop__execute", "mcp__box__bash", "mcp__term__terminalExec"] {
        assert_eq!(check(&repo, tool, &writes).as_deref(), Some(C_TEXT), "{tool}");
    }
    let reads = Args::default().with("command", "cat openspec/changes/c/approval.md");
    assert_eq!(check(&repo, "mcp__shell__run_command", &reads), None);
    // Not a runner by name, so its `command` is not a shell command: an unknown tool's string
    // that names approval.md (docs/decisions.md#p-18).
    assert_eq!(check(&repo, "mcp__git__status", &writes).as_deref(), Some(C_TEXT));
    // `terminal_send` stays outside the gates (docs/decisions.md#t3-6).
    let typed = Args::default().with("text", "echo x > openspec/changes/c/approval.md\n");
    assert_eq!(check(&repo, "terminal_send", &typed), None);
}

#[test]
fn notebooks() {
    let repo = Repo::new();
    repo.change("c");
    for tool in ["notebook_edit", "NotebookEdit"] {
        let approval = Args::default().with("notebook_path", APPROVAL).with("new_source", "x");
        assert_eq!(check(&repo, tool, &approval).as_deref(), Some(C_TEXT), "{tool}");
        let plan = Args::default().with("notebook_path", PLAN).with("new_source", "print(1)");
        assert_eq!(check(&repo, tool, &plan).as_deref(), Some(NEEDS_SPEC), "{tool}");
        let ordinary = Args::default().with("notebook_path", "analysis.ipynb").with("new_source", "print(1)");
        assert_eq!(check(&repo, tool, &ordinary), None, "{tool}");
    }
}
