//! The cache against the uncached analysis: the corpora, files that change between two identical
//! calls, the key, and the caps.

use std::path::Path;

use super::*;
use crate::analyses::{
    bash_write_targets as write_targets, bash_write_targets_from, bash_write_targets_uncached as write_targets_uncached,
};
use crate::gates::{ToolArgs, check_tool_call};
use crate::test_corpus::{corpus_failures, sorted_strings};
use crate::test_repo::Repo;

const BASH_CORPUS: &str = include_str!("../../../__test__/fixtures/bash-targets.jsonl");
const PROGRAM_CORPUS: &str = include_str!("../../../__test__/fixtures/program-targets.jsonl");

fn hits() -> u64 {
    usage().0
}

/// Each command of `corpus` twice and uncached: the second call is a hit and all three agree
/// exactly (order and errors included), and agree with the row where it has expected targets.
fn cached_equals_uncached(corpus: &str) {
    let disagreements = std::cell::RefCell::new(Vec::new());
    let twice_and_uncached = |command: &str, base: &Path| {
        let first = write_targets(command, base);
        let hits_before = hits();
        let second = write_targets(command, base);
        let hit = hits() == hits_before + 1;
        let uncached = write_targets_uncached(command, base);
        let cacheable = command.len() <= MAX_CACHED_COMMAND_BYTES;
        if first != second || first != uncached || hit != cacheable {
            disagreements
                .borrow_mut()
                .push(format!("{command:?}: first {first:?}, second {second:?} (hit {hit}), uncached {uncached:?}"));
        }
        first
    };
    let (count, mut failures) = corpus_failures(corpus, twice_and_uncached);
    failures.extend(disagreements.into_inner());
    assert!(count >= 150, "the corpus has {count} lines");
    assert!(failures.is_empty(), "{} of {count} lines differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_bash_corpus_line_cached_equals_the_uncached_analysis() {
    cached_equals_uncached(BASH_CORPUS);
}

#[test]
fn every_program_corpus_line_cached_equals_the_uncached_analysis() {
    cached_equals_uncached(PROGRAM_CORPUS);
}

struct Bash(String);

impl ToolArgs for Bash {
    fn string(&self, field: &str) -> Option<String> {
        (field == "command").then(|| self.0.clone())
    }
    fn strings_of(&self, _: &str, _: &str) -> Option<Vec<Option<String>>> {
        None
    }
}

fn refused(repo: &Repo, command: &str) -> bool {
    check_tool_call("bash", &Bash(command.to_string()), || repo.root.clone()).is_some()
}

/// `command` reads `file`: refused while the file writes a plan, allowed once it stops (the same
/// length, so only the content tells), refused again when it starts again.
fn rejudged_when_the_file_changes(command: &str, file: &str, writes_plan: &str, writes_notes: &str) {
    assert_eq!(writes_plan.len(), writes_notes.len(), "{command}: same length");
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    repo.write(file, writes_plan);
    assert!(refused(&repo, command), "{command}: first sight");
    assert!(refused(&repo, command), "{command}: again");
    repo.write(file, writes_notes);
    assert!(!refused(&repo, command), "{command}: after the file stopped writing the plan");
    assert!(!refused(&repo, command), "{command}: again");
    repo.write(file, writes_plan);
    assert!(refused(&repo, command), "{command}: after it started again");
}

#[test]
fn a_script_file_that_changes_between_two_identical_calls_is_judged_again() {
    let plan = "docs/superpowers/plans/p.md";
    let notes = "docs/superpowers/notes/p.md";
    rejudged_when_the_file_changes("bash s.sh", "s.sh", &format!("echo x > {plan}\n"), &format!("echo x > {notes}\n"));
    rejudged_when_the_file_changes(
        "python3 s.py",
        "s.py",
        &format!("open('{plan}', 'w').write('x')\n"),
        &format!("open('{notes}', 'w').write('x')\n"),
    );
    let patch = |path: &str| format!("--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x\n");
    rejudged_when_the_file_changes("git apply x.patch", "x.patch", &patch(plan), &patch(notes));
    rejudged_when_the_file_changes(
        ". ./env.sh && echo x > \"$OUT\"",
        "env.sh",
        &format!("OUT={plan}\n"),
        &format!("OUT={notes}\n"),
    );
    // bash run by PowerShell run by bash: the inner analysis's reads belong to the outer entry.
    rejudged_when_the_file_changes(
        "pwsh -c 'bash ./s.sh'",
        "s.sh",
        &format!("echo x > {plan}\n"),
        &format!("echo x > {notes}\n"),
    );
    let package = |name: &str| format!("{{\"name\": \"{name}\"}}\n");
    rejudged_when_the_file_changes(
        "node -e \"require('./pkg')\"",
        "pkg/package.json",
        &package("approval-gates"),
        &package("approval-gatez"),
    );
}

#[test]
fn a_file_created_or_removed_between_two_identical_calls_is_judged_again() {
    let repo = Repo::new();
    let script = repo.path("s.sh");
    assert!(!refused(&repo, "bash s.sh"));
    assert!(!refused(&repo, "bash s.sh"));
    repo.write("s.sh", "rm openspec/changes/c/approval.md\n");
    assert!(refused(&repo, "bash s.sh"), "created");
    std::fs::remove_file(&script).expect("remove");
    assert!(!refused(&repo, "bash s.sh"), "removed");
    // A directory: `cp` into it writes the name beneath it, else the name of the directory.
    let copy = "cp /tmp/approval.md box";
    assert!(!refused(&repo, copy));
    std::fs::create_dir(repo.path("box")).expect("mkdir");
    assert!(refused(&repo, copy), "box is a directory now");
    std::fs::remove_dir(repo.path("box")).expect("rmdir");
    assert!(!refused(&repo, copy), "box is gone");
    // A folder named in part reaches the rest only once it exists; a tree copied into a
    // directory reaches the guarded folders it holds.
    let typedoc = "npx typedoc --out docs src/index.ts";
    let restore = "cp -a /tmp/backup/. .";
    assert!(!refused(&repo, typedoc) && !refused(&repo, restore));
    std::fs::create_dir_all(repo.path("docs/superpowers/plans")).expect("mkdir");
    assert!(refused(&repo, typedoc) && refused(&repo, restore), "the plans folder exists now");
    std::fs::remove_dir_all(repo.path("docs")).expect("rm -r");
    assert!(!refused(&repo, typedoc) && !refused(&repo, restore), "the plans folder is gone");
    // A script replaced by a directory of the same name is no script.
    repo.write("s.sh", "rm openspec/changes/c/approval.md\n");
    assert!(refused(&repo, "bash s.sh"));
    std::fs::remove_file(&script).expect("remove");
    std::fs::create_dir(&script).expect("mkdir");
    assert!(!refused(&repo, "bash s.sh"), "a directory");
}

#[test]
fn a_different_base_directory_is_a_miss() {
    let command = "echo x > approval.md";
    let a = write_targets(command, Path::new("/a"));
    let hits_before = hits();
    let b = write_targets(command, Path::new("/b"));
    assert_eq!(hits(), hits_before, "no hit");
    assert_eq!(a.map(|t| sorted_strings(&t)), Ok(vec!["/a/approval.md".to_string()]));
    assert_eq!(b.map(|t| sorted_strings(&t)), Ok(vec!["/b/approval.md".to_string()]));
}

/// Run alone in a child process by [`a_different_home_is_a_miss`]: changing `HOME` is not safe
/// while other tests run.
#[test]
#[ignore = "run by a_different_home_is_a_miss in a process of its own"]
fn home_child() {
    let command = "echo x > ~/approval.md";
    let base = Path::new("/repo");
    // SAFETY: this test runs alone in its process (--exact, one thread), nothing reads the
    // environment concurrently.
    unsafe { std::env::set_var("HOME", "/home/one") };
    let one = write_targets(command, base);
    assert_eq!(write_targets(command, base), one);
    let hits_before = hits();
    unsafe { std::env::set_var("HOME", "/home/two") };
    let two = write_targets(command, base);
    assert_eq!(hits(), hits_before, "no hit");
    assert_eq!(one.map(|t| sorted_strings(&t)), Ok(vec!["/home/one/approval.md".to_string()]));
    assert_eq!(two.map(|t| sorted_strings(&t)), Ok(vec!["/home/two/approval.md".to_string()]));
    unsafe { std::env::remove_var("HOME") };
    assert_eq!(write_targets(command, base), write_targets_uncached(command, base));
}

#[test]
fn a_different_home_is_a_miss() {
    let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["bash::cache::tests::home_child", "--exact", "--ignored", "--test-threads=1"])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("child test runs");
    assert!(status.success());
}

#[test]
fn the_entry_cap_drops_an_entry_unused_since_the_hand_passed() {
    clear();
    let base = Path::new("/repo");
    let command = |n: usize| format!("echo {n} > out{n}.txt");
    for n in 0..MAX_ENTRIES {
        let _ = write_targets(&command(n), base);
    }
    // Entry 0 used again: the hand spares it once and drops entry 1.
    let hits_before = hits();
    let _ = write_targets(&command(0), base);
    assert_eq!(hits(), hits_before + 1);
    let _ = write_targets(&command(MAX_ENTRIES), base);
    assert_eq!(usage().1, MAX_ENTRIES);
    let hits_before = hits();
    let _ = write_targets(&command(1), base);
    assert_eq!(hits(), hits_before, "entry 1 was dropped");
    let _ = write_targets(&command(0), base);
    let _ = write_targets(&command(MAX_ENTRIES), base);
    assert_eq!(hits(), hits_before + 2, "entries 0 and {MAX_ENTRIES} were kept");
}

#[test]
fn the_byte_cap_bounds_the_cache() {
    clear();
    let base = Path::new("/repo");
    let padding = "x".repeat(MAX_CACHED_COMMAND_BYTES - 100);
    let command = |n: usize| format!("echo {n} {padding} > out{n}.txt");
    let fit = MAX_CACHE_BYTES / MAX_CACHED_COMMAND_BYTES;
    for n in 0..fit + 8 {
        let _ = write_targets(&command(n), base);
        assert!(usage().2 <= MAX_CACHE_BYTES);
    }
    let (_, entries, bytes) = usage();
    assert!(entries < fit + 8 && entries >= fit - 1, "{entries} entries, {bytes} bytes");
    let hits_before = hits();
    let _ = write_targets(&command(0), base);
    assert_eq!(hits(), hits_before, "the oldest was dropped");
    let _ = write_targets(&command(fit + 7), base);
    assert_eq!(hits(), hits_before + 1, "the newest was kept");
}

#[test]
fn a_command_over_the_size_cap_is_not_cached() {
    let base = Path::new("/repo");
    let long = format!("echo {} > approval.md", "x".repeat(MAX_CACHED_COMMAND_BYTES));
    let first = write_targets(&long, base);
    let hits_before = hits();
    assert_eq!(write_targets(&long, base), first);
    assert_eq!(hits(), hits_before);
    assert_eq!(first.map(|t| sorted_strings(&t)), Ok(vec!["/repo/approval.md".to_string()]));
    let short = "echo x > approval.md";
    let _ = write_targets(short, base);
    let _ = write_targets(short, base);
    assert_eq!(hits(), hits_before + 1);
}

#[test]
fn errors_are_cached_as_the_analysis_returns_them() {
    let base = Path::new("/repo");
    let deep = format!("{}echo x > approval.md{}", "$(".repeat(600), ")".repeat(600));
    let first = write_targets(&deep, base);
    assert!(first.is_err(), "{first:?}");
    let hits_before = hits();
    assert_eq!(write_targets(&deep, base), first);
    assert_eq!(hits(), hits_before + 1);
    assert_eq!(write_targets_uncached(&deep, base), first);
}

#[test]
fn an_analysis_that_asks_too_many_questions_is_not_cached() {
    let repo = Repo::new();
    let many: Vec<String> = (0..=MAX_RECORDED_READS).map(|n| format!("bash s{n}.sh")).collect();
    let command = many.join("; ");
    let first = write_targets(&command, &repo.root);
    let hits_before = hits();
    assert_eq!(write_targets(&command, &repo.root), first);
    assert_eq!(hits(), hits_before);
    let few = many.get(..MAX_RECORDED_READS).expect("enough").join("; ");
    let _ = write_targets(&few, &repo.root);
    let _ = write_targets(&few, &repo.root);
    assert_eq!(hits(), hits_before + 1);
}

#[test]
fn persistent_shells_are_not_cached() {
    let scope = crate::analysis::scope::Scope::<crate::bash::Bash>::fresh(Path::new("/repo"));
    let (hits_before, entries_before, _) = usage();
    let first = bash_write_targets_from("echo x > a.txt", &scope).map(|(targets, _)| targets);
    let second = bash_write_targets_from("echo x > a.txt", &scope).map(|(targets, _)| targets);
    assert_eq!(first, second);
    assert_eq!(usage().0, hits_before);
    assert_eq!(usage().1, entries_before);
}

#[test]
fn every_fuzz_seed_cached_equals_the_uncached_analysis() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut count = 0;
    for folder in ["bash_targets", "bash_targets.from-corpus", "programs", "powershell"] {
        let Ok(entries) = std::fs::read_dir(seeds.join(folder)) else { continue };
        for entry in entries {
            let text = std::fs::read(entry.expect("seed").path()).expect("seed file");
            let command = String::from_utf8_lossy(&text);
            let first = write_targets(&command, Path::new("/repo"));
            assert_eq!(write_targets(&command, Path::new("/repo")), first, "{command:?}");
            assert_eq!(write_targets_uncached(&command, Path::new("/repo")), first, "{command:?}");
            count += 1;
        }
    }
    assert!(count >= 8, "{count} seeds");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    #[test]
    fn any_text_cached_equals_the_uncached_analysis(command in "[a-z .;|&<>$(){}'\"=~/*-]{0,80}") {
        let base = Path::new("/repo");
        let first = write_targets(&command, base);
        proptest::prop_assert_eq!(&write_targets(&command, base), &first);
        proptest::prop_assert_eq!(&write_targets_uncached(&command, base), &first);
    }
}

#[test]
fn a_fifo_in_place_of_a_script_or_a_package_json_is_never_read() {
    let repo = Repo::new();
    std::fs::create_dir(repo.path("pkg")).expect("mkdir");
    for fifo in ["s.sh", "pkg/package.json"] {
        let made = std::process::Command::new("mkfifo").arg(repo.path(fifo)).status();
        if !made.is_ok_and(|status| status.success()) {
            return; // no mkfifo on this host
        }
    }
    // Reading either would block the check until a writer opens the FIFO.
    assert_eq!(write_targets("bash s.sh", &repo.root), Ok(Vec::new()));
    assert_eq!(write_targets("node -e \"require('./pkg')\"", &repo.root), Ok(Vec::new()));
    assert!(!refused(&repo, "node -e \"require('./pkg')\""));
}
