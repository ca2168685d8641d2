//! What bash itself does with a line beyond its commands' words (P-18): extglob and POSIX
//! classes in globs, prompts it expands, arithmetic over subscripts, `mapfile`'s callback, the
//! history file, the names `PATH` and `hash -p` bind, `cd` through `CDPATH` and `cdable_vars`, and
//! links made by `cp -s`, `ln -r` or in a subshell. Each is refused with its gate's text; the
//! same features doing ordinary work stay allowed.

use super::*;

#[test]
fn shell_features_that_reach_a_guarded_file_are_refused() {
    let repo = Repo::new();
    repo.change("c");
    repo.write(PLAN, "# x\n");
    std::fs::create_dir_all(repo.path("src")).unwrap();
    for (line, denial) in [
        ("a=(docs superpowers plans x.md); IFS=/ eval 'touch \"${a[*]}\"'", NEEDS_SPEC),
        ("shopt -s extglob\ntouch docs/superpowers/@(plans)/x.md", NEEDS_SPEC),
        ("bash -O extglob -c 'rm openspec/changes/c/+(approval).md'", C_TEXT),
        ("shopt -s extglob\nrm -r docs/superpowers/!(specs)", NEEDS_SPEC),
        ("touch docs/superpowers/[[:alpha:]]lans/x.md", NEEDS_SPEC),
        ("rm openspec/changes/c/approval[[:punct:]]md", C_TEXT),
        ("PS4='$(touch docs/superpowers/plans/x.md)'; set -x; :", NEEDS_SPEC),
        ("export PS1='`rm openspec/changes/c/approval.md`'; bash -i < /dev/null", C_TEXT),
        ("PROMPT_COMMAND='touch docs/superpowers/plans/x.md' bash -i < /dev/null", NEEDS_SPEC),
        ("x='$(touch docs/superpowers/plans/x.md)'; echo \"${x@P}\"", NEEDS_SPEC),
        ("mapfile -C touch -c 1 a <<< docs/superpowers/plans/x.md", NEEDS_SPEC),
        ("printf 'openspec/changes/c/approval.md\\n' | readarray -t -C 'rm -f' a", C_TEXT),
        ("HISTFILE=docs/superpowers/plans/x.md; set -o history; history -w", NEEDS_SPEC),
        ("export HISTFILE=openspec/changes/c/approval.md; bash -c 'history -w'", C_TEXT),
        ("hash -p /usr/bin/touch cat; cat docs/superpowers/plans/x.md", NEEDS_SPEC),
        ("cp /usr/bin/touch /tmp/cat; PATH=/tmp; cat docs/superpowers/plans/x.md", NEEDS_SPEC),
        ("PATH=/tmp:$PATH cat openspec/changes/c/approval.md", C_TEXT),
        ("env PATH=/tmp wc docs/superpowers/plans/x.md", NEEDS_SPEC),
        ("CDPATH=docs/superpowers cd plans; touch x.md", NEEDS_SPEC),
        ("shopt -s cdable_vars; v=docs/superpowers/plans; cd v; touch x.md", NEEDS_SPEC),
        ("find docs/super*/pl* -delete", NEEDS_SPEC),
        ("find openspec/changes/c/* -delete", C_TEXT),
        ("cp -s $PWD/docs/superpowers/plans/x.md /tmp/q; echo x > /tmp/q", NEEDS_SPEC),
        ("cp -rs $PWD/docs/superpowers/plans /tmp/L; echo x > /tmp/L/x.md", NEEDS_SPEC),
        ("(cd /tmp && ln -s $OLDPWD/docs/superpowers/plans l); echo x > /tmp/l/x.md", NEEDS_SPEC),
        ("bash -c 'ln -s $PWD/openspec/changes/c /tmp/c'; echo x > /tmp/c/approval.md", C_TEXT),
        ("cd docs/superpowers; ln -sr plans /tmp/l; echo x > /tmp/l/x.md", NEEDS_SPEC),
        ("for d in /tmp docs/superpowers/plans; do :; done; cd $d; touch x.md", NEEDS_SPEC),
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)).as_deref(), Some(denial), "{line}");
    }
}

#[test]
fn the_same_shell_features_doing_ordinary_work_are_allowed() {
    let repo = Repo::new();
    repo.change("c");
    repo.write(PLAN, "# x\n");
    std::fs::create_dir_all(repo.path("src")).unwrap();
    for line in [
        "a=(src a.txt); IFS=/ eval 'touch \"${a[*]}\"'",
        "shopt -s extglob\nrm -f build/*.@(o|a) src/x.md.@(bak|orig)",
        "shopt -s extglob\ncat docs/superpowers/@(plans)/x.md",
        "rm -f logs/[[:digit:]]*.log; cat docs/superpowers/[[:alpha:]]lans/x.md",
        "PS4='+ ${BASH_SOURCE}:${LINENO}: '; set -x; cat docs/superpowers/plans/x.md",
        "export PS1='\\u@\\h:\\w\\$ '; cat openspec/changes/c/approval.md",
        "x='$(date)'; echo \"${x@Q}\"; cat docs/superpowers/plans/x.md",
        "mapfile -t lines < docs/superpowers/plans/x.md; echo \"${#lines[@]}\"",
        "mapfile -C 'echo line' -c 1 a < docs/superpowers/plans/x.md",
        "HISTFILE=/tmp/hist; set -o history; history -w; cat docs/superpowers/plans/x.md",
        "export PATH=\"$PATH:/opt/tool/bin\"; cat docs/superpowers/plans/x.md",
        "PATH=/usr/bin:/bin; cat docs/superpowers/plans/x.md",
        "PATH=/tmp; echo docs/superpowers/plans/x.md; cd /tmp; printf '%s\\n' done",
        "CDPATH=docs/superpowers cd plans; cat x.md",
        "v=docs/superpowers/plans; cd src; touch v.txt",
        "find src/* -name '*.o' -delete",
        "find * -name '*.pyc' -delete",
        "cp -s $PWD/docs/superpowers/plans/x.md /tmp/q; cat /tmp/q",
        "(cd /tmp && ln -s $OLDPWD/src l); echo x > /tmp/l/y.txt",
    ] {
        assert_eq!(check(&repo, "bash", &bash(line)), None, "{line}");
    }
}

#[test]
fn a_name_the_line_rebinds_prints_what_the_walk_cannot_know() {
    let repo = Repo::new();
    repo.change("c");
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).unwrap();
    std::fs::create_dir_all(repo.path(".git")).unwrap();
    // What they print is uncomputed: any guarded location the line names.
    for line in [
        "whoami() { echo x/../../docs/superpowers/plans/x; }; cp /tmp/x \"p-$(whoami).md\"",
        "date() { echo /../openspec/changes/c/approval.md; }; cp /tmp/x \"src$(date +%F)\"",
        "pwd() { echo $PWD/docs/superpowers/plans; }; ROOT=$(pwd); cd /tmp; cd \"$ROOT\"; touch x.md",
        "git() { echo $PWD/docs/superpowers/plans; }; cd \"$(git rev-parse --show-toplevel)\"; touch x.md",
        "hash -p /tmp/mine whoami; cp /tmp/x \"/tmp/p-$(whoami).md\"; cat docs/superpowers/plans/x.md",
    ] {
        assert!(check(&repo, "bash", &bash(line)).is_some(), "{line}");
    }
}
