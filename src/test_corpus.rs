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
