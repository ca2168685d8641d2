//! Globs over path components: which guarded locations an unquoted pattern could match (P-7).

use std::path::Path;

use super::{APPROVAL_FILE, CHANGES_DIR, PLANS_DIR, SDD_DIR};
/// bash's glob for one path component, ASCII case ignored (P-7).
pub use crate::analysis::values::glob_matches;
use crate::analysis::values::has_wildcard;

/// A glob expanded in `base`, as the path from the root it matches: a relative pattern matches
/// beneath the directory the shell is in, whose own names may begin a guarded folder's
/// (`cd docs/superpowers; echo x > pl*/p.md`). Normalized lexically; a trailing `/` stays.
pub fn glob_from(base: &Path, pattern: &str) -> String {
    let mut path = super::absolute(pattern, base).to_string_lossy().into_owned();
    if pattern.ends_with('/') && !path.ends_with('/') {
        path.push('/');
    }
    path
}

/// The guarded paths an unquoted glob path could match: each run of components that could match
/// a guarded folder (`docs/*/plans`, `.super*/sdd`, a `**` standing for several) spelled as that
/// folder, and a last component that could match `approval.md` spelled so. The pattern itself is
/// not among them; relative stays relative.
pub fn guarded_glob_matches(pattern: &str) -> Vec<String> {
    let components: Vec<&str> = pattern.split('/').collect();
    let mut spellings: Vec<Vec<String>> = Vec::new();
    for folder in [&PLANS_DIR[..], &SDD_DIR[..]] {
        for expanded in globstar_spellings(&components, folder.len()) {
            for at in 0..expanded.len() {
                let Some(window) = expanded.get(at..at + folder.len()) else { break };
                let matches = window.iter().zip(folder).all(|(component, name)| glob_matches(component, name));
                if matches && window.iter().any(|component| has_wildcard(component)) {
                    let mut spelled: Vec<String> = expanded.iter().map(|c| c.to_string()).collect();
                    for (slot, name) in spelled.iter_mut().skip(at).zip(folder) {
                        *slot = (*name).to_string();
                    }
                    spellings.push(spelled);
                }
            }
        }
    }
    spellings.push(components.iter().map(|c| c.to_string()).collect());
    let mut out: Vec<String> = Vec::new();
    for mut spelled in spellings {
        if let Some(last) = spelled.last_mut()
            && has_wildcard(last)
            && glob_matches(last, APPROVAL_FILE)
        {
            *last = APPROVAL_FILE.to_string();
        }
        let text = spelled.join("/");
        if text != pattern && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// The folders above a guarded location an unquoted glob path could end in (`docs/*uperpowers`
/// is `docs/superpowers`, `openspec/*hanges` is `openspec/changes`, `.super*/` is `.superpowers/`):
/// where a `cd` to it may go, with the guarded folder beneath. The pattern itself is not among
/// them; relative stays relative.
pub fn guarded_ancestor_glob_matches(pattern: &str) -> Vec<String> {
    let trimmed = pattern.trim_end_matches('/');
    let slash = pattern.get(trimmed.len()..).unwrap_or_default();
    let components: Vec<&str> = trimmed.split('/').collect();
    let ancestors = [&PLANS_DIR[..PLANS_DIR.len() - 1], &SDD_DIR[..SDD_DIR.len() - 1], &CHANGES_DIR[..]];
    let mut out: Vec<String> = Vec::new();
    for folder in ancestors {
        for length in 1..=folder.len() {
            let Some(at) = components.len().checked_sub(length) else { break };
            let (before, window) = components.split_at(at);
            let names = folder.get(..length).unwrap_or_default();
            let matches = window.iter().zip(names).all(|(component, name)| glob_matches(component, name));
            // A bare `*` ends in any folder's name: `src/*` is no sign of `src/docs`.
            let spelled_out = window.iter().any(|component| component.chars().any(|c| !matches!(c, '*' | '?')));
            if matches && spelled_out && window.iter().any(|component| has_wildcard(component)) {
                let spelled: Vec<&str> = before.iter().chain(names).copied().collect();
                let text = format!("{}{slash}", spelled.join("/"));
                if text != pattern && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
    }
    out
}

/// Most guarded folder names a `**` is taken to stand for (bash's `globstar`).
const MAX_GLOBSTAR_SPAN: usize = 3;

/// The components with the first `**` standing for one to `span` components each (`**` also
/// matches within one component, as `*` without `globstar`).
fn globstar_spellings<'a>(components: &[&'a str], span: usize) -> Vec<Vec<&'a str>> {
    let mut out = vec![components.to_vec()];
    if let Some(at) = components.iter().position(|c| *c == "**") {
        for count in 0..=span.min(MAX_GLOBSTAR_SPAN) {
            let mut spelled = components.get(..at).unwrap_or_default().to_vec();
            spelled.extend(std::iter::repeat_n("*", count));
            spelled.extend(components.get(at + 1..).unwrap_or_default());
            out.push(spelled);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_that_could_match_a_guarded_folder_are_spelled_as_it() {
        assert_eq!(guarded_glob_matches("docs/superpowers/pl*ns/x.md"), ["docs/superpowers/plans/x.md"]);
        assert_eq!(guarded_glob_matches("/r/docs/*/plans/x.md"), ["/r/docs/superpowers/plans/x.md"]);
        assert_eq!(guarded_glob_matches(".super*/sdd/p/x"), [".superpowers/sdd/p/x"]);
        let has = |pattern: &str, path: &str| guarded_glob_matches(pattern).iter().any(|p| p == path);
        assert!(has("*/*/*/x.md", "docs/superpowers/plans/x.md"));
        assert!(has("*/*/*/x.md", ".superpowers/sdd/*/x.md"));
        assert!(has("docs/**/x.md", "docs/superpowers/plans/x.md"));
        assert!(has("/r/**/x.md", "/r/.superpowers/sdd/x.md"));
        // `*` is taken to match a leading dot too (`shopt -s dotglob`).
        assert!(has("openspec/changes/*/*", "openspec/changes/*/approval.md"));
        assert!(has("openspec/changes/*/*", "openspec/changes/.superpowers/sdd"));
        assert!(guarded_glob_matches("docs/*/plans/*").contains(&"docs/superpowers/plans/approval.md".to_string()));
        assert!(guarded_glob_matches("docs/*/old.md").is_empty());
        assert!(guarded_glob_matches("build/*/*.rs").is_empty());
        assert!(guarded_glob_matches("src/*.rs").is_empty());
        assert!(guarded_glob_matches("docs/superpowers/plans/x.md").is_empty());
    }

    #[test]
    fn a_relative_glob_matches_beneath_the_directory_it_is_expanded_in() {
        let base = Path::new("/r/docs/superpowers");
        assert_eq!(glob_from(base, "pl*/p.md"), "/r/docs/superpowers/pl*/p.md");
        assert_eq!(glob_from(base, "pl*/"), "/r/docs/superpowers/pl*/");
        assert_eq!(glob_from(base, "../*/plans"), "/r/docs/*/plans");
        assert_eq!(glob_from(base, "/x/*"), "/x/*");
        assert_eq!(guarded_glob_matches(&glob_from(base, "pl*/p.md")), ["/r/docs/superpowers/plans/p.md"]);
        assert_eq!(guarded_glob_matches(&glob_from(Path::new("/r/.superpowers"), "sd*")), ["/r/.superpowers/sdd"]);
        assert!(guarded_glob_matches(&glob_from(Path::new("/r/src"), "pl*/p.md")).is_empty());
        assert_eq!(guarded_ancestor_glob_matches(&glob_from(Path::new("/r/docs"), "*")), ["/r/docs/superpowers"]);
        assert!(guarded_ancestor_glob_matches(&glob_from(Path::new("/r/src"), "*")).is_empty());
    }

    #[test]
    fn globs_that_could_end_in_a_guarded_folders_parent_are_spelled_as_it() {
        // `*` matches a leading dot too (`shopt -s dotglob`).
        assert_eq!(guarded_ancestor_glob_matches("docs/*uperpowers"), ["docs/superpowers", "docs/.superpowers"]);
        assert_eq!(guarded_ancestor_glob_matches("/r/openspec/*hanges/"), ["/r/openspec/changes/"]);
        assert_eq!(guarded_ancestor_glob_matches(".super*"), [".superpowers"]);
        assert_eq!(guarded_ancestor_glob_matches("d?cs"), ["docs"]);
        assert!(guarded_ancestor_glob_matches("docs/superpowers").is_empty());
        assert!(guarded_ancestor_glob_matches("src/*/lib").is_empty());
        assert!(guarded_ancestor_glob_matches("build/*.rs").is_empty());
        assert!(guarded_ancestor_glob_matches("src/*").is_empty());
        assert_eq!(guarded_ancestor_glob_matches("docs/*"), ["docs/superpowers"]);
    }
}
