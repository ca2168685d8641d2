//! Bash expansions whose words depend on the line's state (P-18): a list's slice (`"${@:1:2}"`),
//! a tilde prefix (`~-`, `~+`, `of=~/x`) and a glob expanded where the line went. Each is judged
//! as the words bash makes of it; the same words read, or naming only ordinary files, stay allowed.

use super::*;

const PLAN_COPY: &str = "/tmp/p.md docs/superpowers/plans/p.md";
const NO_PLAN_P: &str = "BLOCKED [approval-gates]: plan not found: p";

#[test]
fn a_slice_of_a_list_is_the_words_it_takes() {
    let repo = Repo::new();
    repo.change("c");
    for (line, denial) in [
        ("set -- /tmp/evil/approval.md openspec/changes/c/approval.md; cp \"${@:1:2}\"", C_TEXT),
        (&format!("set -- {PLAN_COPY}; cp \"${{@:1:2}}\""), NEEDS_SPEC),
        (&format!("f() {{ cp \"${{@:1:2}}\"; }}; f {PLAN_COPY}"), NEEDS_SPEC),
        (&format!("a=({PLAN_COPY}); cp \"${{a[@]:0:2}}\""), NEEDS_SPEC),
        (&format!("set -- x {PLAN_COPY}; cp \"${{@: -2}}\""), NEEDS_SPEC),
        (&format!("set -- {PLAN_COPY}; cp ${{*:1}}"), NEEDS_SPEC),
        (&format!("sh -c 'cp \"${{@:1:2}}\"' sh {PLAN_COPY}"), NEEDS_SPEC),
        (&format!("a=(x {PLAN_COPY}); cp \"${{a[@]:(-2)}}\""), NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
        let read = line.replace("cp ", "cat ");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    for line in [
        "set -- /tmp/a.md /tmp/b.md; cp \"${@:1:2}\"",
        "set -- /tmp/p.md docs/superpowers/plans/p.md /tmp/copy.md; cp \"${@:2:2}\"",
        "set -- x docs/superpowers/plans/p.md /tmp/a /tmp/b; cp \"${@:3}\"",
        "a=(docs/superpowers/plans/p.md /tmp/out.md); cp \"${a[@]:0:2}\"",
        // `"$*"` joins its members into one word: one source, copied to /tmp.
        "set -- /tmp/p.md docs/superpowers/plans/p.md; cp \"${*:1:2}\" /tmp/out",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_list_or_slice_the_walk_does_not_know_may_be_several_words() {
    let repo = Repo::new();
    repo.change("c");
    for line in [
        &format!("set -- {PLAN_COPY}; cp \"${{@:$n:2}}\""),
        &format!("set -- {PLAN_COPY}; cp \"${{@:1+0:2}}\""),
        "mapfile -t a <<< \"/tmp/p.md\ndocs/superpowers/plans/p.md\"; cp \"${a[@]}\"",
        "a=(/tmp/x /tmp/p.md); a[1]=docs/superpowers/plans/p.md; cp \"${a[@]:0:2}\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("cp ", "cat ");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // A line naming no guarded location is not the gates' business; a literal length of one is
    // one word, a source.
    assert_eq!(check(&repo, "bash", &bash("mapfile -t a < /tmp/list; cp \"${a[@]}\"")), None);
    for line in [
        "set -- one openspec/changes/c/approval.md; cp \"${@:$i:1}\" /tmp/copy",
        "mapfile -t a <<< openspec/changes/c/approval.md; cp \"${a[@]:i:1}\" /tmp/copy",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn tilde_prefixes_are_home_pwd_and_oldpwd_as_the_line_has_them() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path(".superpowers/sdd/p")).unwrap();
    let plans = repo.path("docs/superpowers/plans");
    for (line, denial) in [
        ("OLDPWD=$PWD/.superpowers/sdd/p; echo x > ~-/progress.md".to_string(), NO_PLAN_P),
        (format!("OLDPWD={}; echo x > ~-/p.md", plans.display()), NEEDS_SPEC),
        ("cd docs/superpowers/plans; cd /tmp; echo x > ~-/p.md".to_string(), NEEDS_SPEC),
        ("cd docs/superpowers/plans && cd /tmp && dd if=/tmp/x of=~-/p.md".to_string(), NEEDS_SPEC),
        ("PWD=docs/superpowers/plans; echo x > ~+/p.md".to_string(), NEEDS_SPEC),
        ("HOME=docs/superpowers/plans; dd if=/tmp/x of=~/p.md".to_string(), NEEDS_SPEC),
        // In an assignment, a prefix also follows each `:`.
        ("OLDPWD=docs/superpowers/plans; y=/tmp/a:~-/p.md; IFS=:; touch $y".to_string(), NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(denial), "{line}");
        let read =
            line.replace("echo x >", "cat").replace("dd if=/tmp/x of=", "dd of=/tmp/x if=").replace("touch", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    for line in [
        "OLDPWD=/tmp; echo x > ~-/p.md",
        "cd /tmp && cd src && echo x > ~-/p.md",
        "HOME=src; dd if=/tmp/x of=~/p.md",
        // Quoted, or a name that is no tilde prefix, the `~` is a character.
        "OLDPWD=docs/superpowers/plans; echo x > \"~-\"/p.md; echo x > ~-x/p.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_glob_after_a_cd_is_expanded_where_the_line_went() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path(".superpowers/sdd/p")).unwrap();
    std::fs::create_dir_all(repo.path("src/lib")).unwrap();
    for (line, denial) in [
        ("cd docs/superpowers && cd pl* && echo y > p.md", NEEDS_SPEC),
        ("cd docs/superpowers; cd pl*; echo y > p.md", NEEDS_SPEC),
        ("cd docs/superpowers && echo y > pl*/p.md", NEEDS_SPEC),
        ("cd .superpowers && cd sd* && touch p/progress.md", NO_PLAN_P),
        ("cd docs/superpowers && cp /tmp/p.md pl*/", NEEDS_SPEC),
        ("cd docs/superpowers && tar -xf /tmp/a.tar -C pl*", NEEDS_SPEC),
        ("cd docs/superpowers && for d in pl*/; do touch \"${d}p.md\"; done", NEEDS_SPEC),
        ("cd docs/superpowers && echo y > \"$(ls -d pl*)/p.md\"", NEEDS_SPEC),
        ("cd docs && cd * && touch plans/p.md", NEEDS_SPEC),
        ("pushd docs/superpowers/pl* && echo y > p.md", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
        let read = line
            .replace("echo y >", "cat")
            .replace("touch", "cat")
            .replace("cp /tmp/p.md pl*/", "ls pl*/")
            .replace("tar -xf /tmp/a.tar -C", "ls");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    for line in [
        "cd src && cd l* && echo y > p.md",
        "cd src && echo y > l*/p.md",
        "cd docs/superpowers/plans && cd /tmp && echo y > pl*/p.md",
        "cd src; for d in l*/; do touch \"${d}x.md\"; done",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}
