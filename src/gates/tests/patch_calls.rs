use super::*;

fn added_plan(id: &str) -> String {
    let body: String = Repo::plan_text(id).lines().map(|line| format!("+{line}\n")).collect();
    format!("*** Begin Patch\n*** Add File: {PLAN}\n{body}*** End Patch\n")
}

#[test]
fn apply_patch_in_every_field() {
    let repo = Repo::new();
    repo.change("c");
    for field in ["input", "patch", "command"] {
        let args = Args::default().with(field, &added_plan("c"));
        assert_eq!(check(&repo, "apply_patch", &args).as_deref(), Some(DESIGN_C), "{field}");
    }
    repo.approve_design("c");
    for field in ["input", "patch", "command"] {
        let args = Args::default().with(field, &added_plan("c"));
        assert_eq!(check(&repo, "apply_patch", &args), None, "{field}");
    }
    let no_spec = "*** Begin Patch\n*** Add File: docs/superpowers/plans/y.md\n+# plan\n*** End Patch\n";
    assert_eq!(check(&repo, "apply_patch", &Args::default().with("input", no_spec)).as_deref(), Some(NEEDS_SPEC));
    let refused = [
        format!("*** Begin Patch\n*** Update File: {APPROVAL}\n@@\n-design:\n+design:\n+  by: owner\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Delete File: {APPROVAL}\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Update File: notes.md\n*** Move to: {APPROVAL}\n@@\n+x\n*** End Patch\n"),
        format!("*** Begin Patch\n*** Delete File: {PLAN}\n*** End Patch\n"),
        format!("diff --git a/{APPROVAL} b/{APPROVAL}\n--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1 @@\n-a\n+b\n"),
        format!("diff --git a/x.md b/{APPROVAL}\nrename from x.md\nrename to {APPROVAL}\n"),
    ];
    for text in &refused {
        assert!(check(&repo, "apply_patch", &Args::default().with("input", text)).is_some(), "{text}");
    }
    let git_added = format!(
        "diff --git a/{PLAN} b/{PLAN}\nnew file mode 100644\n--- /dev/null\n+++ b/{PLAN}\n@@ -0,0 +1,5 @@\n{}",
        Repo::plan_text("c").lines().map(|line| format!("+{line}\n")).collect::<String>()
    );
    let allowed = [
        git_added,
        "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch\n".to_string(),
        "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-see approval.md\n+see openspec/changes/c/approval.md\n"
            .to_string(),
        "not a patch at all".to_string(),
    ];
    for text in &allowed {
        assert_eq!(check(&repo, "apply_patch", &Args::default().with("input", text)), None, "{text}");
    }
    assert_eq!(check(&repo, "apply_patch", &Args::default()), None);
}

#[test]
fn unified_diffs_in_an_mcp_patch_field() {
    let repo = Repo::new();
    repo.change("c");
    let diff = format!("--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1 @@\n-a\n+b\n");
    let args = Args::default().with("repo", ".").with("patch", &diff);
    assert_eq!(check(&repo, "mcp__git__apply_patch", &args).as_deref(), Some(C_TEXT));
    // The field that holds the patch, whichever comes first in the table.
    let args = Args::default().with("input", "a message").with("diff", &diff);
    assert_eq!(check(&repo, "mcp__git__apply_patch", &args).as_deref(), Some(C_TEXT));
    // A plain diff's paths are taken as they are.
    let plain = format!("--- {PLAN}\n+++ {PLAN}\n@@ -1 +1 @@\n-a\n+b\n");
    assert_eq!(check(&repo, "apply_patch", &Args::default().with("patch", &plain)).as_deref(), Some(NEEDS_SPEC));
    let harmless = "--- a/src/x.rs\n+++ b/src/x.rs\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(check(&repo, "mcp__git__apply_patch", &Args::default().with("patch", harmless)), None);
}

#[test]
fn bash_patches_are_read_and_judged_by_their_headers() {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    let to_approval = format!("--- a/{APPROVAL}\n+++ b/{APPROVAL}\n@@ -1 +1,2 @@\n design:\n+  by: owner\n");
    repo.write("fix.patch", &to_approval);
    repo.write("sub/fix.diff", &to_approval.replace("a/", "x/a/").replace("b/", "x/b/"));
    repo.write(
        "plan.patch",
        &format!(
            "diff --git a/{PLAN} b/{PLAN}\nnew file mode 100644\n--- /dev/null\n+++ b/{PLAN}\n@@ -0,0 +1 @@\n+x\n"
        ),
    );
    repo.write("env.patch", &format!("*** Begin Patch\n*** Delete File: {APPROVAL}\n*** End Patch\n"));
    repo.write("ok.patch", "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1 +1 @@\n-a\n+b\n");
    for (command, denial) in [
        ("git apply fix.patch", C_TEXT),
        ("git apply -p1 --index fix.patch", C_TEXT),
        ("git am fix.patch", C_TEXT),
        ("patch -p1 < fix.patch", C_TEXT),
        ("patch -p1 -i fix.patch", C_TEXT),
        ("patch --input=fix.patch", C_TEXT),
        ("cd sub && patch -p2 < fix.diff", C_TEXT),
        ("patch -d sub -p2 -i fix.diff", C_TEXT),
        ("git apply env.patch", C_TEXT),
        ("git apply plan.patch", NEEDS_SPEC),
        ("sh -c 'git apply plan.patch'", NEEDS_SPEC),
        ("git apply docs/superpowers/plans/missing.patch", NEEDS_SPEC),
        ("cat fix.patch | git apply", C_TEXT),
        ("cat fix.patch | patch -p1", C_TEXT),
        ("cd sub && cat fix.diff | patch -p2", C_TEXT),
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)).as_deref(), Some(denial), "{command}");
    }
    for command in [
        "git apply ok.patch",
        "patch -p1 < ok.patch",
        "git apply --check fix.patch",
        "git apply --stat plan.patch",
        "patch --dry-run -p1 < fix.patch",
        "cat fix.patch",
        "git diff > fix.patch",
        "git apply missing.patch",
        "cat ok.patch | git apply",
    ] {
        assert_eq!(check(&repo, "bash", &bash(command)), None, "{command}");
    }
}
