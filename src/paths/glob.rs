//! Globs over path components: which guarded locations an unquoted pattern could match (P-7).

use super::{APPROVAL_FILE, PLANS_DIR, SDD_DIR};

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
                if matches && window.iter().any(|component| has_glob_chars(component)) {
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
            && has_glob_chars(last)
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

fn has_glob_chars(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// fnmatch for one path component: `*`, `?`, `[…]` (with `!`/`^` and ranges), ASCII case ignored
/// (P-7).
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().map(|c| c.to_ascii_lowercase()).collect();
    let name: Vec<char> = name.chars().map(|c| c.to_ascii_lowercase()).collect();
    let (mut p, mut n) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                backtrack = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => class(&pattern, p, name.get(n).copied()),
            Some(&literal) if name.get(n) == Some(&literal) => Some(p + 1),
            _ => None,
        };
        match step {
            Some(next) => {
                p = next;
                n += 1;
            }
            None => match backtrack {
                Some((star, at)) => {
                    p = star + 1;
                    n = at + 1;
                    backtrack = Some((star, at + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).unwrap_or_default().iter().all(|&c| c == '*')
}

/// A bracket expression at `pattern[at]` against `c`: where the pattern continues if it matches.
fn class(pattern: &[char], at: usize, c: Option<char>) -> Option<usize> {
    let c = c?;
    let mut p = at + 1;
    let negated = matches!(pattern.get(p), Some('!' | '^'));
    p += usize::from(negated);
    let mut matched = false;
    let mut first = true;
    loop {
        let &current = pattern.get(p)?;
        if current == ']' && !first {
            break;
        }
        first = false;
        if pattern.get(p + 1) == Some(&'-') && pattern.get(p + 2).is_some_and(|&end| end != ']') {
            let end = pattern.get(p + 2).copied().unwrap_or(current);
            matched |= current <= c && c <= end;
            p += 3;
        } else {
            matched |= current == c;
            p += 1;
        }
    }
    (matched != negated).then_some(p + 1)
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
}
