use super::*;

fn paths(text: &str, strip: usize) -> Vec<(String, Change)> {
    files_written(text, Strip(strip)).expect("parses").into_iter().map(|w| (w.path, w.change)).collect()
}

fn written(path: &str, change: Change) -> (String, Change) {
    (path.to_string(), change)
}

#[test]
fn git_diff_update_new_delete_rename() {
    let text = "diff --git a/src/a.rs b/src/a.rs\nindex 1..2 100644\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,2 +1,2 @@\n fn a() {}\n-old\n+new\ndiff --git a/docs/superpowers/plans/p.md b/docs/superpowers/plans/p.md\nnew file mode 100644\n--- /dev/null\n+++ b/docs/superpowers/plans/p.md\n@@ -0,0 +1,2 @@\n+# Plan\n+**Spec:** openspec/changes/c\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\ndiff --git a/old.md b/openspec/changes/c/approval.md\nsimilarity index 100%\nrename from old.md\nrename to openspec/changes/c/approval.md\n";
    assert_eq!(
        paths(text, 1),
        vec![
            written("src/a.rs", Change::Update),
            written("docs/superpowers/plans/p.md", Change::Add),
            written("gone.txt", Change::Delete),
            written("old.md", Change::MovedAway),
            written("openspec/changes/c/approval.md", Change::MovedHere),
        ]
    );
    let all = files_written(text, Strip(1)).expect("parses");
    assert_eq!(all[1].texts, vec!["# Plan\n**Spec:** openspec/changes/c".to_string()]);
    assert_eq!(all[0].texts, vec!["new".to_string()]);
}

#[test]
fn plain_diff_with_timestamps_and_strip_levels() {
    let text = "--- a/x/one.md\t2026-01-01 00:00:00\n+++ b/x/one.md\t2026-01-02 00:00:00\n@@ -1 +1 @@\n-a\n+b\n--- two.md\n+++ two.md\n@@ -1 +1,2 @@\n a\n+--- not a header\n";
    assert_eq!(
        paths(text, 0),
        vec![
            written("b/x/one.md", Change::Update),
            written("a/x/one.md", Change::Update),
            written("two.md", Change::Update)
        ]
    );
    assert_eq!(paths(text, 1), vec![written("x/one.md", Change::Update)]);
    assert_eq!(paths(text, 2), vec![written("one.md", Change::Update)]);
}

#[test]
fn a_mode_change_or_binary_patch_writes_the_file_unseen() {
    let text = "diff --git a/openspec/changes/c/approval.md b/openspec/changes/c/approval.md\nold mode 100644\nnew mode 100755\n";
    assert_eq!(paths(text, 1), vec![written("openspec/changes/c/approval.md", Change::Update)]);
    let quoted = "diff --git \"a/with space/approval.md\" \"b/with space/approval.md\"\nBinary files differ\n";
    assert_eq!(paths(quoted, 1), vec![written("with space/approval.md", Change::Update)]);
}

#[test]
fn envelope_add_update_delete_move() {
    let text = "*** Begin Patch\n*** Add File: docs/superpowers/plans/p.md\n+# Plan\n+**Spec:** openspec/changes/c\n*** Update File: src/lib.rs\n@@ fn a\n-x\n+y\n@@ fn b\n+z\n*** Delete File: old.txt\n*** Update File: a.md\n*** Move to: openspec/changes/c/approval.md\n@@\n+signed\n*** End Patch\n";
    let all = files_written(text, Strip(1)).expect("parses");
    let summary: Vec<(String, Change)> = all.iter().map(|w| (w.path.clone(), w.change)).collect();
    assert_eq!(
        summary,
        vec![
            written("docs/superpowers/plans/p.md", Change::Add),
            written("src/lib.rs", Change::Update),
            written("old.txt", Change::Delete),
            written("a.md", Change::MovedAway),
            written("openspec/changes/c/approval.md", Change::MovedHere),
        ]
    );
    assert_eq!(all[0].texts, vec!["# Plan\n**Spec:** openspec/changes/c".to_string()]);
    assert_eq!(all[1].texts, vec!["y".to_string(), "z".to_string()]);
}

#[test]
fn text_that_is_not_a_patch_writes_nothing() {
    for text in
        ["", "hello\nworld", "+++ \n", "--- a\nnot plus", "*** Add File: x.md\n+outside an envelope", "@@ -1 +1 @@\n+x"]
    {
        assert!(paths(text, 1).iter().all(|(path, _)| path != "x.md"), "{text:?}");
    }
    assert!(!is_patch("just prose about docs/superpowers/plans/x.md"));
    assert!(is_patch("*** Begin Patch\n*** End Patch"));
    assert!(is_patch("--- a/x\n+++ b/x\n"));
}

#[test]
fn caps_are_errors() {
    assert_eq!(files_written(&"x".repeat(MAX_PATCH_BYTES + 1), Strip(1)), Err(PatchError::TooLarge));
    let many: String = (0..=MAX_PATCH_FILES).map(|n| format!("*** Delete File: f{n}\n")).collect();
    assert_eq!(
        files_written(&format!("*** Begin Patch\n{many}*** End Patch\n"), Strip(1)),
        Err(PatchError::TooManyFiles)
    );
}

#[test]
fn a_strip_longer_than_the_path_drops_it() {
    assert_eq!(paths("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", 3), vec![]);
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    fn segment() -> impl Strategy<Value = String> {
        "[a-zA-Z0-9_.-]{1,8}".prop_filter("not a dot segment", |s| s != "." && s != "..")
    }

    fn path() -> impl Strategy<Value = String> {
        prop::collection::vec(segment(), 1..4).prop_map(|parts| parts.join("/"))
    }

    proptest! {
        #[test]
        fn any_text_parses_without_panic(text in "\\PC{0,400}") {
            for strip in [Strip(0), Strip(1), Strip::BASENAME] {
                let _ = files_written(&text, strip);
            }
        }

        #[test]
        fn every_added_file_of_an_envelope_is_found_with_its_lines(
            files in prop::collection::vec((path(), prop::collection::vec("[^\n\r]{0,20}", 0..4)), 1..5)
        ) {
            let mut text = String::from("*** Begin Patch\n");
            for (path, lines) in &files {
                text.push_str(&format!("*** Add File: {path}\n"));
                for line in lines {
                    text.push_str(&format!("+{line}\n"));
                }
            }
            text.push_str("*** End Patch\n");
            let found = files_written(&text, Strip(1)).expect("parses");
            let added: Vec<&Written> = found.iter().filter(|w| w.change == Change::Add).collect();
            prop_assert_eq!(added.len(), files.len());
            for (written, (path, lines)) in added.iter().zip(&files) {
                prop_assert_eq!(&written.path, path.trim());
                let joined = lines.join("\n");
                prop_assert_eq!(written.texts.first().cloned().unwrap_or_default(), joined);
            }
        }

        #[test]
        fn every_file_of_a_git_diff_is_found(paths in prop::collection::vec(path(), 1..5)) {
            let text: String = paths
                .iter()
                .map(|p| format!("diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-a\n+b\n"))
                .collect();
            let found: Vec<String> = files_written(&text, Strip(1)).expect("parses").into_iter().map(|w| w.path).collect();
            prop_assert_eq!(found, paths);
        }
    }
}
