//! What the corpus tests of every analysis (bash, programs, PowerShell) share.

use std::path::{Path, PathBuf};

/// Targets as sorted strings, for comparing with a corpus row.
pub fn sorted_strings(targets: &[PathBuf]) -> Vec<String> {
    let mut texts: Vec<String> = targets.iter().map(|p| p.display().to_string()).collect();
    texts.sort();
    texts
}

/// A corpus row's `targets`, `{HOME}` filled in, normalized and sorted; `None` for a row that
/// needs a HOME this process has none of (HOME unset or not absolute).
pub fn expected_targets(row: &serde_json::Value) -> Option<Vec<String>> {
    let home = std::env::var("HOME").ok().filter(|home| home.starts_with('/'));
    let expected: Vec<&str> =
        row["targets"].as_array().expect("targets").iter().map(|t| t.as_str().expect("target")).collect();
    if home.is_none() && expected.iter().any(|t| t.contains("{HOME}")) {
        return None;
    }
    let home = home.as_deref().unwrap_or_default();
    let mut expected: Vec<String> = expected
        .iter()
        .map(|t| crate::paths::normalize(Path::new(&t.replace("{HOME}", home))).display().to_string())
        .collect();
    expected.sort();
    Some(expected)
}

/// Runs every row of `corpus` (JSON lines, cwd `/repo`) through `write_targets`: how many rows
/// there are, and a text for each that fails. A row marked `unscannable` expects an error.
pub fn corpus_failures<E: std::fmt::Debug>(
    corpus: &str,
    write_targets: impl Fn(&str, &Path) -> Result<Vec<PathBuf>, E>,
) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in corpus.lines().filter(|line| !line.trim().is_empty()) {
        count += 1;
        let row: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
        let command = row["cmd"].as_str().expect("cmd");
        let actual = write_targets(command, Path::new("/repo"));
        if row["unscannable"].as_bool() == Some(true) {
            if actual.is_ok() {
                failures.push(format!("{command:?}: expected unscannable, got {actual:?}"));
            }
            continue;
        }
        let Some(expected) = expected_targets(&row) else { continue };
        match actual {
            Ok(targets) if sorted_strings(&targets) == expected => {}
            actual => failures
                .push(format!("{command:?} ({}):\n    expected {expected:?}\n    actual   {actual:?}", row["why"])),
        }
    }
    (count, failures)
}
