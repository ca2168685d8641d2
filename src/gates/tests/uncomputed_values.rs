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
    ("set -- one openspec/changes/c/approval.md", "\"${@:n:1}\""),
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
    // Assigned to the shell a command starts, they choose its directories alike.
    for line in [
        "CDPATH=docs/superpowers bash -c 'cd plans >/dev/null; touch new.md'",
        "HOME=docs/superpowers/plans bash -c 'cd; touch new.md'",
        "env HOME=docs/superpowers/plans sh -c 'cd; touch new.md'",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("touch", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // A CDPATH entry that holds no such folder leaves `cd` where bash leaves it.
    assert_eq!(check(&repo, "bash", &bash("CDPATH=/nonexistent\ncd src 2>/dev/null\ntouch new.md")), None);
    assert_eq!(check(&repo, "bash", &bash("CDPATH=/nonexistent bash -c 'cd src 2>/dev/null; touch new.md'")), None);
    assert_eq!(check(&repo, "bash", &bash("for d in src/*/; do touch \"${d}x.md\"; done")), None);
}

#[test]
fn a_tilde_is_home_as_the_line_sets_it_even_relative() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for line in [
        "HOME=docs/superpowers/plans\ntouch ~/new.md",
        "export HOME=docs/superpowers/plans; touch ~/new.md",
        "HOME=docs/superpowers/plans bash -c 'touch ~/new.md'",
        "HOME=docs/superpowers/plans; x=~/new.md; touch \"$x\"",
        // A value the walk cannot compute, or either of two, may be the plan folder the line names.
        "HOME=$(cat /tmp/root)/docs/superpowers/plans; touch ~/new.md",
        "for HOME in src docs/superpowers/plans; do touch ~/new.md; done",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("touch", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // A home the line sets elsewhere takes a write elsewhere; `~user` and a quoted `~` are words.
    for line in [
        "HOME=src; touch ~/docs/superpowers/plans.md",
        "HOME=docs/superpowers/plans; HOME=src; touch ~/new.md",
        "HOME=docs/superpowers/plans; touch '~/new.md'",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_default_counts_where_the_variable_is_empty() {
    let repo = Repo::new();
    repo.change("c");
    for line in [
        "x=; touch \"${x:-docs/superpowers/plans/new.md}\"",
        "x=''; echo y > ${x:=docs/superpowers/plans/new.md}",
        "x=\"$(cat /tmp/name)\"; touch \"${x:-docs/superpowers/plans/new.md}\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("touch", "cat").replace("echo y >", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // Set and empty without the colon, or set to something else: the default is not used.
    for line in [
        "x=; touch \"${x-docs/superpowers/plans/new.md}\" 2>/dev/null",
        "x=src/a.md; touch \"${x:-docs/superpowers/plans/new.md}\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_loop_over_an_ordinary_folder_writes_no_approval_md() {
    let repo = Repo::new();
    repo.change("c");
    assert_eq!(check(&repo, "bash", &bash("for f in build/*; do echo x >> \"$f\"; done")), None);
}

#[test]
fn read_splits_at_the_ifs_its_line_assigns() {
    let repo = Repo::new();
    repo.change("c");
    for (ifs, text, names, target) in [
        (",", "docs/superpowers/plans,x.md", "d f", "\"$d/$f\""),
        ("/", "docs/superpowers/plans/x.md", "a b c f", "\"$a/$b/$c/$f\""),
        (":", "docs/superpowers/plans:x.md", "d f", "\"$d/$f\""),
        // The last name takes the rest of the line, its separators included.
        (",", "x.md,docs/superpowers/plans/y.md", "a b", "\"$b\""),
    ] {
        let read = format!("IFS={ifs} read -r {names} <<< '{text}'");
        let line = format!("{read}; echo x > {target}");
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let shell = format!("IFS='{ifs}'; read -r {names} <<< '{text}'; cp /tmp/x {target}");
        assert_eq!(check(&repo, "bash", &bash(&shell)).as_deref(), Some(NEEDS_SPEC), "{shell}");
        let read_it = format!("{read}; cat {target}");
        assert_eq!(check(&repo, "bash", &bash(&read_it)), None, "{read_it}");
    }
    let approval = "IFS=, read -r d f <<< 'openspec/changes/c,approval.md'; echo x >> \"$d/$f\"";
    assert_eq!(check(&repo, "bash", &bash(approval)).as_deref(), Some(C_TEXT));
    // Pieces the walk cannot compute (a file's lines) may be joined at the separators the line's
    // IFS names.
    let unknown = "IFS=, read -r a b c < /tmp/list; echo x > \"$a/$b/$c/x.md\" # docs,superpowers,plans";
    assert_eq!(check(&repo, "bash", &bash(unknown)).as_deref(), Some(NEEDS_SPEC));
    let escaped = "IFS=, read d f <<< 'docs\\,superpowers,plans'; echo x > \"$d/$f/x.md\"";
    assert_eq!(check(&repo, "bash", &bash(escaped)).as_deref(), Some(NEEDS_SPEC));
    // Splitting by the assigned IFS keeps an ordinary value ordinary.
    for fine in [
        "IFS=, read -r a b <<< 'x,y'; cat \"$a\"; echo x > \"$b.txt\"",
        "IFS=, read -r a b <<< 'notes,x.md'; echo x > \"$a/$b\"",
        "IFS=, read -r a b < /tmp/list; echo x > \"$a/$b\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(fine)), None, "{fine}");
    }
}

#[test]
fn unquoted_expansions_split_at_the_shells_ifs() {
    let repo = Repo::new();
    repo.change("c");
    let split = "IFS=,; x=/tmp/x,docs/superpowers/plans/p.md; cp $x";
    assert_eq!(check(&repo, "bash", &bash(split)).as_deref(), Some(NEEDS_SPEC));
    assert_eq!(check(&repo, "bash", &bash("IFS=,; x=/tmp/x,notes.md; cp $x")), None);
    assert_eq!(check(&repo, "bash", &bash("IFS=,; x=docs/superpowers/plans/p.md,/tmp/y; cp $x")), None);
}

#[test]
fn literal_pattern_substitutions_are_computed() {
    let repo = Repo::new();
    repo.change("c");
    for (assign, target) in [
        ("x=docs/superpowers/PLANS", "\"${x/PLANS/plans}/a.md\""),
        ("x=docs_superpowers_plans", "\"${x//_//}/a.md\""),
        ("x=old/superpowers/plans", "\"${x/#old/docs}/a.md\""),
        ("x=docs/superpowers/plans.old", "\"${x/%.old}/a.md\""),
        ("x=docs/superpowers/SLOT/p.md", "\"${x/SLOT/plans}\""),
        ("x=docs.superpowers.plans", "\"${x//./\\/}/a.md\""),
    ] {
        for write in [format!("echo x > {target}"), format!("cp /tmp/x {target}"), format!("touch {target}")] {
            let line = format!("{assign}; {write}");
            assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        }
        for read in [format!("echo {target}"), format!("cat {target}"), format!("cp {target} /tmp/copy")] {
            let line = format!("{assign}; {read}");
            assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
        }
    }
    // Computed, an ordinary result is an ordinary write; a glob pattern stays uncomputed.
    assert_eq!(check(&repo, "bash", &bash("x=docs/superpowers/plans/p.md; echo x > \"${x/plans/specs}\"")), None);
    let glob = "x=docs/superpowers/SLOT/p.md; y=plans; echo x > \"${x/S*T/$y}\"";
    assert_eq!(check(&repo, "bash", &bash(glob)), None, "names no guarded folder literally");
    let glob = "x=openspec/changes/SLOT/approval.md; echo x > \"${x/S*T/c}\"";
    assert_eq!(check(&repo, "bash", &bash(glob)).as_deref(), Some(C_TEXT));
}

#[test]
fn globs_in_a_command_substitution_may_print_the_guarded_folders_they_match() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path("src/lib")).unwrap();
    for substitution in ["$(ls -d docs/*/pl*)", "$(echo docs/super*/plans)", "$(printf %s docs/superpowers/pl*)"] {
        for write in [
            format!("echo x > \"{substitution}/a.md\""),
            format!("cat a > {substitution}/x.md"),
            format!("touch \"{substitution}/a.md\""),
        ] {
            assert_eq!(check(&repo, "bash", &bash(&write)).as_deref(), Some(NEEDS_SPEC), "{write}");
        }
        for read in [
            format!("ls {substitution}"),
            format!("cat \"{substitution}/p.md\""),
            format!("echo x > /tmp/out; ls {substitution} > /tmp/list"),
        ] {
            assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
        }
    }
    assert_eq!(check(&repo, "bash", &bash("echo x > \"$(ls -d src/*)/a.md\"")), None);
    assert_eq!(check(&repo, "bash", &bash("echo x > \"$(echo src/*)/a.md\"")), None);
}

#[test]
fn a_startup_file_named_by_bash_env_or_env_runs_first() {
    let repo = Repo::new();
    repo.change("c");
    let writes = "echo 'cp /tmp/x openspec/changes/c/approval.md' > /tmp/env.sh";
    for run in [
        "BASH_ENV=/tmp/env.sh bash -c true",
        "env BASH_ENV=/tmp/env.sh bash -c true",
        "env -i ENV=/tmp/env.sh sh -i </dev/null",
        "export BASH_ENV=/tmp/env.sh; bash -c true",
        "BASH_ENV=/tmp/env.sh make",
        "sudo BASH_ENV=/tmp/env.sh bash -c true",
    ] {
        let line = format!("{writes} && {run}");
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(C_TEXT), "{line}");
    }
    // A startup file the walk cannot read may write whatever the line names.
    let unknown = "BASH_ENV=/tmp/unknown-env.sh bash -c 'cat docs/superpowers/plans/x.md'";
    assert_eq!(check(&repo, "bash", &bash(unknown)).as_deref(), Some(NEEDS_SPEC));
    // One whose text reads is a read; naming nothing guarded is not the gates' business.
    let reads = "echo 'ls' > /tmp/env.sh && BASH_ENV=/tmp/env.sh bash -c 'cat openspec/changes/c/approval.md'";
    assert_eq!(check(&repo, "bash", &bash(reads)), None);
    assert_eq!(check(&repo, "bash", &bash("BASH_ENV=/tmp/unknown-env.sh bash -c 'make test'")), None);
}

#[test]
fn a_command_is_judged_with_each_possible_value_of_its_words() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    // Several values of one word are alternatives, not several arguments: `cp x "$d"` with two
    // possible `$d` is not a copy of two sources into the second.
    for line in [
        "for d in docs/superpowers/*lans/; do cp /tmp/x \"${d}p.md\"; done",
        "for d in docs/superpowers/*lans/; do ln -sf /tmp/x \"${d}p.md\"; done",
        "while read -r f; do cp /tmp/x \"$f\"; done <<< \"a.md\ndocs/superpowers/plans/p.md\"",
        "cp /tmp/x \"$(printf %s docs/superpowers/*lans)/new.md\"",
        "mv /tmp/x \"$(ls -d docs/*/pl*)/new.md\"",
        "for c in 'ls' 'touch docs/superpowers/plans/new.md'; do eval \"$c\"; done",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in [
        "for d in docs/superpowers/*lans/; do cp \"${d}p.md\" /tmp/; done",
        "for f in a.md b.md; do cp \"$f\" /tmp/; done",
        "while read -r f; do cp \"$f\" /tmp/out/; done <<< \"a.md\ndocs/superpowers/plans/p.md\"",
        "cp \"$(ls -d docs/*/pl*)/p.md\" /tmp/",
        "for d in src/*/; do cp /tmp/x \"${d}p.md\"; done",
        "for c in 'ls' 'cat docs/superpowers/plans/p.md'; do eval \"$c\"; done",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_quoted_string_keeps_its_newlines() {
    let repo = Repo::new();
    repo.change("c");
    let line = "while read -r f; do echo x > \"$f\"; done <<< \"a.md\ndocs/superpowers/plans/p.md\"";
    assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC));
    // Joined without its newline the text would be `a.mddocs/…`, no guarded file at all.
    let read = "while read -r f; do cat \"$f\"; done <<< \"a.md\ndocs/superpowers/plans/p.md\"";
    assert_eq!(check(&repo, "bash", &bash(read)), None);
}

#[test]
fn a_glob_that_could_be_a_guarded_folders_parent_is_followed() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for (line, denial) in [
        ("cd docs/*uperpowers\ncp -r /tmp/evil/. plans", NEEDS_SPEC),
        ("cd docs/*uperpowers && touch plans/new.md", NEEDS_SPEC),
        ("cd openspec/*hanges\nrsync -a /tmp/evil/ c/", C_TEXT),
        ("for d in openspec/*hanges/; do cp /tmp/x \"${d}c/approval.md\"; done", C_TEXT),
        ("echo x > \"$(ls -d docs/*uperpowers)/plans/x.md\"", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
        let read = line.replace("cp -r /tmp/evil/. plans", "ls plans").replace("touch", "cat");
        let read =
            read.replace("rsync -a /tmp/evil/ c/", "ls c").replace("cp /tmp/x", "cat").replace("echo x >", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    assert_eq!(check(&repo, "bash", &bash("cd build/*\ncp -r /tmp/evil/. out")), None);
}

#[test]
fn a_script_the_line_writes_with_printf_is_the_text_printf_prints() {
    let repo = Repo::new();
    repo.change("c");
    let hook = "mkdir -p /tmp/hooks && printf '#!/bin/sh\\ncp /tmp/x openspec/changes/c/approval.md\\n' > /tmp/hooks/pre-commit";
    let line = format!("{hook} && chmod +x /tmp/hooks/pre-commit && git -c core.hooksPath=/tmp/hooks commit -q -m x");
    assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(C_TEXT), "{line}");
    let sourced =
        "printf '#!/bin/sh\\ncp /tmp/x openspec/changes/c/approval.md\\n' > /tmp/s.sh; chmod +x /tmp/s.sh; /tmp/s.sh";
    assert_eq!(check(&repo, "bash", &bash(sourced)).as_deref(), Some(C_TEXT), "{sourced}");
    let reads = "printf '#!/bin/sh\\ncat openspec/changes/c/approval.md\\n' > /tmp/s.sh; chmod +x /tmp/s.sh; /tmp/s.sh";
    assert_eq!(check(&repo, "bash", &bash(reads)), None, "{reads}");
}

#[test]
fn a_tree_written_at_an_uncomputed_root_may_land_on_any_folder_the_line_names() {
    let repo = Repo::new();
    repo.change("c");
    for (assign, root) in [
        ("x=old/openspec/changes/c", "\"${x#old/}\""),
        ("mapfile -t lines <<< openspec/changes/c", "\"${lines[0]}\""),
        ("set -- one openspec/changes/c three", "\"${@:n:1}\"/"),
    ] {
        for write in [
            format!("tar -xf /tmp/evil.tar -C {root}"),
            format!("unzip -oq /tmp/evil.zip -d {root}"),
            format!("rsync -a /tmp/evil/ {root}"),
        ] {
            let line = format!("{assign}\n{write}");
            assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(C_TEXT), "{line}");
        }
        for read in [format!("tar -tf /tmp/evil.tar {root}"), format!("cp -r {root} /tmp/copy"), format!("ls {root}")] {
            let line = format!("{assign}\n{read}");
            assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
        }
    }
    // A line naming no such folder is not the gates' business.
    assert_eq!(check(&repo, "bash", &bash("x=old/build; tar -xf /tmp/a.tar -C \"${x#old/}\"")), None);
}

#[test]
fn a_tree_written_at_a_glob_may_land_on_the_guarded_folders_it_matches() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for line in [
        "unzip -oq /tmp/evil.zip -d docs/superpowers/*lans",
        "tar -xf /tmp/evil.tar -C docs/*/pl*",
        "cp -r /tmp/evil/. docs/super*/plans",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in
        ["unzip -l /tmp/evil.zip docs/superpowers/*lans", "tar -xf /tmp/a.tar -C src/*", "cp -r docs/*/pl* /tmp/out"]
    {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn the_temporary_folder_variables_name_the_systems_temporary_folder() {
    let repo = Repo::new();
    repo.change("c");
    let temporary = std::env::temp_dir();
    let targets = crate::analyses::bash_write_targets("echo x > \"$TMPDIR/out.txt\"", &repo.path(""));
    assert_eq!(targets, Ok(vec![temporary.join("out.txt")]));
    for line in [
        "tar -czf \"$TMPDIR/plans.tgz\" docs/superpowers/plans",
        "cp openspec/changes/c/approval.md \"$TMPDIR/approval-c.bak\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
    // Set by the line, it is what the line says.
    assert!(check(&repo, "bash", &bash("TMPDIR=docs/superpowers/plans; echo x > \"$TMPDIR/p.md\"")).is_some());
}

#[test]
fn a_directory_the_walk_cannot_compute_may_be_any_guarded_folder_the_line_names() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for line in [
        "d=$(echo docs/superpowers/plans | tr a a); cd \"$d\"; touch new.md",
        "cd \"$(dirname docs/superpowers/plans/p.md)\" && touch new.md",
        "pushd \"$(dirname docs/superpowers/plans/p.md)\" && touch new.md",
        "HOME=$(cat /tmp/root)/docs/superpowers/plans; cd; touch new.md",
        "HOME=$(cat /tmp/root)/docs/superpowers/plans; touch $HOME/new.md",
        "OLDPWD=$(cat /tmp/root)/docs/superpowers/plans; cd -; touch new.md",
        "TMPDIR=$(cat /tmp/root)/docs/superpowers/plans; touch $TMPDIR/new.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read = line.replace("touch", "cat");
        assert_eq!(check(&repo, "bash", &bash(&read)), None, "{read}");
    }
    // A new temporary folder is none of them; reading, archiving and committing write nothing
    // there.
    for line in [
        "cd \"$(mktemp -d)\" && cp \"$OLDPWD/docs/superpowers/plans/p.md\" .",
        "cd $(mktemp -d) && tar -czf plans.tgz -C \"$OLDPWD\" docs/superpowers/plans",
        "cd \"$(git rev-parse --show-toplevel)\" && git add docs/superpowers/plans/p.md && git commit -m plan",
        "cd \"$(dirname docs/superpowers/plans/p.md)\" && wc -l p.md > /tmp/n",
        "cd \"$(cat /tmp/dir)\" && touch notes.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
    // `pwd`, `dirname` and `basename` of known words print known paths.
    for line in [
        "cd \"$(pwd)/docs/superpowers/plans\" && touch new.md",
        "cp /tmp/x \"$(dirname docs/superpowers/plans/p.md)/new.md\"",
        "f=/tmp/p.md; cp \"$f\" \"docs/superpowers/plans/$(basename \"$f\" .md)-2.md\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in [
        "TMPDIR=$(pwd)/tmp; cat docs/superpowers/plans/p.md > $TMPDIR/p.md",
        "f=docs/superpowers/plans/p.md; cp \"$f\" \"/tmp/$(basename \"$f\")\"",
        "cd \"$(dirname docs/superpowers/plans/p.md)\" && cat p.md > /tmp/p.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
    // The repository's root is where `.git` is; another form of the command prints nothing the
    // walk knows.
    std::fs::create_dir_all(repo.path(".git")).unwrap();
    let summary = "cd \"$(git rev-parse --show-toplevel)\" && cat docs/superpowers/plans/p.md > summary.md";
    assert_eq!(check(&repo, "bash", &bash(summary)), None);
    let elsewhere = summary.replace("git rev-parse", "git -C /tmp/other rev-parse");
    assert_eq!(check(&repo, "bash", &bash(&elsewhere)).as_deref(), Some(NEEDS_SPEC));
    let plan = "cd \"$(git rev-parse --show-toplevel)\" && touch docs/superpowers/plans/new.md";
    assert_eq!(check(&repo, "bash", &bash(plan)).as_deref(), Some(NEEDS_SPEC));
    std::fs::create_dir_all(repo.path("src/deep")).unwrap();
    let from_below = "cd src/deep && cd \"$(git rev-parse --show-toplevel)\" && touch docs/superpowers/plans/new.md";
    assert_eq!(check(&repo, "bash", &bash(from_below)).as_deref(), Some(NEEDS_SPEC));
}

#[test]
fn a_powershell_location_reached_through_an_uncomputed_value_is_uncomputed() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    for line in [
        "$d = (Get-Content f) + 'docs/superpowers/plans'; Set-Location $d; New-Item new.md",
        "Push-Location ((Get-Content f) + 'docs/superpowers/plans'); Set-Content new.md x",
    ] {
        assert_eq!(check(&repo, "pwsh", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let read =
            line.replace("New-Item new.md", "Get-Content new.md").replace("Set-Content new.md x", "Get-Content new.md");
        assert_eq!(check(&repo, "pwsh", &bash(&read)), None, "{read}");
    }
    let elsewhere = "$d = (Get-Content f) + 'src'; Set-Location $d; New-Item new.md";
    assert_eq!(check(&repo, "pwsh", &bash(elsewhere)), None);
}

#[test]
fn an_unknown_part_that_holds_no_slash_stays_in_the_folder_its_known_parts_fix() {
    let repo = Repo::new();
    repo.change("c");
    repo.write(PLAN, "# x\n");
    for line in [
        "cp docs/superpowers/plans/x.md /tmp/p-$(date +%Y%m%d).md",
        "cat docs/superpowers/plans/x.md > /tmp/report-$$.txt",
        "cp docs/superpowers/plans/x.md /tmp/p-$RANDOM.md",
        "cp docs/superpowers/plans/x.md \"$(mktemp /tmp/plan.XXXXXX)\"",
        "tar czf \"/tmp/plans-$(date +%F).tgz\" docs/superpowers/plans",
        "zip -r \"/tmp/plans-$(git rev-parse --short HEAD).zip\" docs/superpowers/plans",
        "git archive -o \"/tmp/src-$(date +%s).tar\" HEAD docs/superpowers/plans",
        "cp docs/superpowers/plans/x.md \"/tmp/$(whoami)-$(hostname).md\"",
        "date=$(date +%F); cp docs/superpowers/plans/x.md \"/tmp/p-$date.md\"",
        "ts=$(date -u +%s); sha256sum docs/superpowers/plans/*.md > \"/tmp/sums-$ts.txt\"",
        "for f in docs/superpowers/plans/*.md; do cp \"$f\" \"/tmp/backup-${f##*/}\"; done",
        "x=abc; cp docs/superpowers/plans/x.md /tmp/p-${#x}.md",
        "cp openspec/changes/c/approval.md \"/tmp/approval-$(date +%F).md\"",
        // Run in the plans folder, the commands that compute them write nothing there.
        "cd docs/superpowers/plans; cp x.md \"/tmp/x-$(date +%F)-$(whoami).md\"",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
    // The folder its known parts fix is guarded, or its unknown part may make a guarded name.
    for (line, refused) in [
        ("cp /tmp/x \"docs/superpowers/plans/$(date +%F).md\"", NEEDS_SPEC),
        ("cp /tmp/x \"docs/superpowers/pl$(whoami)/x.md\"", NEEDS_SPEC),
        ("cp /tmp/x \"openspec/changes/c/$(whoami)\"", C_TEXT),
        ("cp /tmp/x \"/tmp/$(whoami)\"", ONLY_APPROVE),
        ("for f in /tmp/evil/*; do cp \"$f\" \"openspec/changes/c/${f##*/}\"; done", C_TEXT),
        ("d=$(date +%F); cp /tmp/x \"docs/superpowers/plans/$d.md\"", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(refused), "{line}");
    }
    // A part that may hold `/` is any guarded location the line names, as before: a branch name,
    // a date's `%D`, what a file holds, what an unquoted word splits into.
    for line in [
        "cp /tmp/x \"/tmp/p-$(git branch --show-current).md\"; cat docs/superpowers/plans/x.md",
        "cp /tmp/x \"/tmp/$(date +%D).md\"; cat docs/superpowers/plans/x.md",
        "cp /tmp/x \"/tmp/$(cat name)\"; cat docs/superpowers/plans/x.md",
        "cp /tmp/x /tmp/p-$(date '+%F %T'); cat docs/superpowers/plans/x.md",
        "IFS=-; cp /tmp/x /tmp/p-$(date +%F); cat docs/superpowers/plans/x.md",
        "cp /tmp/x \"/tmp/q/${x##*/}/../r\"; cat docs/superpowers/plans/x.md",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
}

#[test]
fn arithmetic_runs_what_a_subscript_in_a_value_substitutes() {
    let repo = Repo::new();
    repo.change("c");
    let payload = "'a[$(touch docs/superpowers/plans/x.md)]'";
    for use_of in ["((x))", "let x", "[[ $x -eq 0 ]]", "echo $((x))", "a=(1); echo ${a[x]}", "echo ${v:x}"] {
        let line = format!("x={payload}; {use_of}");
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    let integer = format!("declare -i n; n={payload}");
    assert_eq!(check(&repo, "bash", &bash(&integer)).as_deref(), Some(NEEDS_SPEC));
    let read = format!("read -r x <<< {payload}; ((x))");
    assert_eq!(check(&repo, "bash", &bash(&read)).as_deref(), Some(NEEDS_SPEC));
    // A value the walk could not compute may hold one: every guarded location the line names.
    let unknown = "read -r n < /tmp/n; ((n > 0)) && cat docs/superpowers/plans/x.md";
    assert_eq!(check(&repo, "bash", &bash(unknown)).as_deref(), Some(NEEDS_SPEC));
    // Text that is not evaluated, and numbers, stay allowed.
    for line in [
        format!("x={payload}; test \"$x\" = y; echo \"$x\""),
        "n=$(wc -l < docs/superpowers/plans/x.md); echo $((n + 1))".to_string(),
        "n=$(grep -c '\\- \\[ \\]' docs/superpowers/plans/x.md); ((n > 0)) && echo todo".to_string(),
        "s=$(stat -c %s docs/superpowers/plans/x.md); echo $((s / 1024))".to_string(),
        "for ((i = 0; i < 3; i++)); do cat docs/superpowers/plans/x.md; done".to_string(),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
    }
}

#[test]
fn a_program_the_line_writes_and_runs_by_name_through_its_path_is_read_as_the_script() {
    let repo = Repo::new();
    let plan = "docs/superpowers/plans/p.md";
    let writes = |name: &str| format!("printf 'echo x > {plan}\\n' > /tmp/{name}; chmod +x /tmp/{name}");
    let reads = |name: &str| format!("printf 'echo see {plan}\\n' > /tmp/{name}; chmod +x /tmp/{name}");
    for (script, run) in [
        ("foo", "PATH=/tmp:$PATH foo"),
        ("foo", "export PATH=/tmp:$PATH; foo"),
        ("foo", "PATH=$PATH:/tmp foo"),
        ("foo", "env PATH=/tmp:/usr/bin foo"),
        ("foo", "/tmp/foo"),
        ("git-foo", "PATH=/tmp:$PATH git foo"),
        ("git-foo", "export PATH=/tmp:$PATH; git -c x.y=z foo"),
    ] {
        let line = format!("{}; {run}", writes(script));
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
        let line = format!("{}; {run}", reads(script));
        assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
        let other = format!("{}; {}", writes(script), run.replace("foo", "bar"));
        assert_eq!(check(&repo, "bash", &bash(&other)), None, "{other}");
    }
    // Written in a way the walk does not show, or looked up in a folder it could not compute:
    // code no analysis reads, which may write what the line names.
    for line in [
        format!("cat {plan}; cp /tmp/x /tmp/foo; PATH=/tmp:$PATH foo"),
        format!("cat {plan}; echo hi > /tmp/out; PATH=$DIR:$PATH foo"),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)).as_deref(), Some(NEEDS_SPEC), "{line}");
    }
    for line in [
        format!("cat {plan}; cp /tmp/x /tmp/foo; PATH=/tmp:$PATH bar"),
        format!("cat {plan}; PATH=$DIR:$PATH foo"),
        "export PATH=\"$PWD/node_modules/.bin:$PATH\"; eslint src".to_string(),
        format!("PATH=/usr/bin:$PATH cat {plan}"),
        format!("echo hi > /tmp/out; PATH=/usr/bin:$PATH cat {plan}"),
    ] {
        assert_eq!(check(&repo, "bash", &bash(&line)), None, "{line}");
    }
}

#[test]
fn a_pattern_or_computed_part_a_program_hands_to_a_command_is_every_guarded_name_it_may_be() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    let written = [
        "perl -e 'system(\"cp\", \"/tmp/x\", (glob(\"docs/superpowers/*lans/p.md\"))[0])'",
        "node -e 'require(\"child_process\").execFileSync(\"cp\", [\"/tmp/x\", \"docs/superpowers/\" + require(\"fs\").readdirSync(\"docs/superpowers\").find((n) => /lans$/.test(n)) + \"/p.md\"])'",
        "python3 -c 'import glob, subprocess; subprocess.run([\"cp\", \"/tmp/x\", glob.glob(\"docs/superpowers/*lans/p.md\")[0]])'",
        "python3 -m zipfile -e /tmp/evil.zip docs/superpowers/*lans",
    ];
    for line in written {
        assert!(check(&repo, "bash", &bash(line)).is_some(), "{line}");
    }
    let elsewhere = [
        "perl -e 'system(\"cp\", \"/tmp/x\", (glob(\"/tmp/*lans/p.md\"))[0])'",
        "node -e 'require(\"child_process\").execFileSync(\"cp\", [\"/tmp/x\", \"/tmp/out/\" + require(\"fs\").readdirSync(\"src\")[0] + \".bak\"])'",
        "perl -e 'system(\"cat\", (glob(\"docs/superpowers/*lans/p.md\"))[0])'",
        "python3 -c 'import subprocess; subprocess.run([\"grep\", \"-c\", \"[x]\", \"docs/superpowers/plans/p.md\"])'",
        "python3 -m zipfile -e /tmp/evil.zip /tmp/*lans",
    ];
    for line in elsewhere {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}
