//! P-18 for bash values the walk does not compute: a write whose target is such a value may be
//! any guarded location the line names, and is judged so; the same spellings read freely.

use super::*;

/// Spellings of a target the walk leaves uncomputed, each naming the plan folder or a change's
/// approval.md only as text the line carries.
const UNCOMPUTED: [(&str, &str); 8] = [
    ("x=DOCS/SUPERPOWERS/PLANS/P.MD", "\"${x,,}\""),
    ("x=docs/superpowers/plans/p.md.orig", "\"${x%.orig}\""),
    ("x=old/docs/superpowers/plans/p.md", "\"${x#old/}\""),
    ("x=openspec/changes/SLOT/approval.md", "\"${x/SLOT/c}\""),
    ("printf -v f '%s' docs/superpowers/plans/p.md", "\"$f\""),
    ("mapfile -t lines <<< docs/superpowers/plans/p.md", "\"${lines[0]}\""),
    ("set -- one openspec/changes/c/approval.md", "\"${@:2:1}\""),
    ("value=docs/superpowers/plans/p.md; declare -n ref=value", "\"$ref\""),
];

#[test]
fn a_write_to_an_uncomputed_value_is_a_write_of_every_guarded_location_the_line_names() {
    let repo = Repo::new();
    repo.change("c");
    for (assign, target) in UNCOMPUTED {
        for write in [format!("echo x > {target}"), format!("touch {target}"), format!("cp /tmp/f {target}")] {
            let line = format!("{assign}\n{write}");
            assert!(check(&repo, "bash", &bash(&line)).is_some(), "{line}");
            let nested = format!("bash -c '{}'", line.replace('\'', "'\\''"));
            assert!(check(&repo, "bash", &bash(&nested)).is_some(), "{nested}");
        }
    }
    let read = "read -r d n <<< 'docs/superpowers/plans p.md'\necho x > \"$d/$n\"";
    assert_eq!(check(&repo, "bash", &bash(read)).as_deref(), Some(NEEDS_SPEC));
    let into = "x=OPENSPEC/CHANGES/C/APPROVAL.MD; cp /tmp/evil/\"${x##*/}\" openspec/changes/c/";
    assert_eq!(check(&repo, "bash", &bash(into)).as_deref(), Some(C_TEXT));
}

#[test]
fn reading_through_the_same_values_and_uncomputed_writes_elsewhere_stay_allowed() {
    let repo = Repo::new();
    repo.change("c");
    for (assign, target) in UNCOMPUTED {
        for read in [format!("cat {target}"), format!("sha256sum {target}"), format!("cp {target} /tmp/copy")] {
            let line = format!("{assign}\n{read}");
            assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
        }
    }
    // An uncomputed target in a line that names nothing guarded is not the gates' business.
    assert_eq!(check(&repo, "bash", &bash("x=SRC/A.TXT; echo x > \"${x,,}\"")), None);
    assert_eq!(check(&repo, "bash", &bash("printf -v f '%s' notes.md; echo x > \"$f\"")), None);
}

#[test]
fn directories_chosen_by_cdpath_home_oldpwd_or_a_glob_are_followed() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path("src/lib")).unwrap();
    let plan_lines = [
        "CDPATH=docs/superpowers\ncd plans >/dev/null\ntouch new.md",
        "HOME=docs/superpowers/plans\ncd\ntouch new.md",
        "OLDPWD=docs/superpowers/plans\ncd - >/dev/null\ntouch new.md",
        "cd docs/superpowers/*lans\ntouch new.md",
        "for d in docs/superpowers/*lans/; do\ntouch \"${d}new.md\"\ndone",
    ];
    for line in plan_lines {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("touch", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // A CDPATH entry that holds no such folder leaves `cd` where bash leaves it.
    assert_eq!(check(&repo, "bash", &bash("CDPATH=/nonexistent\ncd src 2>/dev/null\ntouch new.md")), None);
    assert_eq!(check(&repo, "bash", &bash("for d in src/*/; do touch \"${d}x.md\"; done")), None);
}

#[test]
fn a_loop_over_an_ordinary_folder_writes_no_approval_md() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(check(&repo, "bash", &bash("for f in build/*; do echo x >> \"$f\"; done")), None);
}
