//! The program corpus `__test__/fixtures/program-targets.jsonl` (also run through the binding by
//! `__test__/programs.test.mjs`), script files read from disk, the package rule, and the caps.

use std::path::{Path, PathBuf};

use crate::shell::write_targets;

const CORPUS: &str = include_str!("../../__test__/fixtures/program-targets.jsonl");

fn sorted(targets: &[PathBuf]) -> Vec<String> {
    let mut texts: Vec<String> = targets.iter().map(|p| p.display().to_string()).collect();
    texts.sort();
    texts
}

#[test]
fn corpus() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in CORPUS.lines().filter(|line| !line.trim().is_empty()) {
        count += 1;
        let row: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
        let command = row["cmd"].as_str().expect("cmd");
        let mut expected: Vec<String> = row["targets"]
            .as_array()
            .expect("targets")
            .iter()
            .map(|t| t.as_str().expect("target").to_string())
            .collect();
        expected.sort();
        match write_targets(command, Path::new("/repo")) {
            Ok(targets) if sorted(&targets) == expected => {}
            actual => failures
                .push(format!("{command:?} ({}):\n    expected {expected:?}\n    actual   {actual:?}", row["why"])),
        }
    }
    assert!(count >= 150, "the corpus has {count} lines");
    assert!(failures.is_empty(), "{} of {count} corpus lines fail:\n{}", failures.len(), failures.join("\n"));
}
