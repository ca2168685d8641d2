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

/// The guarded folders a whole-path pattern spells beneath `root` (find's `-path`, where `*`
/// crosses `/`): a folder counts when the pattern can match it, or a path in it, at `root/` or
/// deeper, with a letter of the folder's own name below `root` matched by a letter of the
/// pattern. So `*plans/p.md` and `./docs/*/plans/*` spell the plans folder, `*.md` and
/// `*/src/*.js` none. Each is spelled from `root` (`root/docs/superpowers/plans`,
/// `root/.superpowers/sdd/*`); a root in the folder is not (it is written whole already).
pub fn guarded_folders_spelled(root: &str, pattern: &str) -> Vec<String> {
    let tokens = pattern_tokens(pattern);
    let root = match root.trim_end_matches('/') {
        "" if root.starts_with('/') => "",
        trimmed => trimmed,
    };
    let root_components: Vec<&str> = root.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
    let mut out = Vec::new();
    for (folder, inside) in [(&PLANS_DIR[..], ""), (&SDD_DIR[..], "/*")] {
        if root_components.windows(folder.len()).any(|window| same_names(window, folder)) {
            continue;
        }
        // The longest part of the folder the root ends with; the rest lies below it.
        let taken = (0..folder.len()).rev().find(|&taken| ends_with_names(&root_components, folder, taken));
        let missing = folder.get(taken.unwrap_or_default()..).unwrap_or_default().join("/");
        if spells(&tokens, &format!("{root}/"), &missing) {
            out.push(format!("{root}/{missing}{inside}"));
        }
    }
    out
}

fn same_names(components: &[&str], names: &[&str]) -> bool {
    components.len() == names.len() && components.iter().zip(names).all(|(c, name)| c.eq_ignore_ascii_case(name))
}

fn ends_with_names(components: &[&str], folder: &[&str], taken: usize) -> bool {
    let Some(start) = components.len().checked_sub(taken) else { return false };
    same_names(components.get(start..).unwrap_or_default(), folder.get(..taken).unwrap_or_default())
}

/// One element of a whole-path pattern.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Star,
    Any,
    Literal(char),
    /// A bracket expression, as written (`[a-z]`).
    Class(String),
}

/// fnmatch's elements: `*`, `?`, `[…]`, a backslash-escaped or plain character.
fn pattern_tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        at += 1;
        match c {
            '*' if tokens.last() == Some(&Token::Star) => {}
            '*' => tokens.push(Token::Star),
            '?' => tokens.push(Token::Any),
            '\\' => tokens.push(Token::Literal(chars.get(at).copied().inspect(|_| at += 1).unwrap_or('\\'))),
            '[' => match class_end(&chars, at) {
                Some(end) => {
                    tokens.push(Token::Class(chars.get(at - 1..=end).unwrap_or_default().iter().collect()));
                    at = end + 1;
                }
                None => tokens.push(Token::Literal('[')),
            },
            c => tokens.push(Token::Literal(c)),
        }
    }
    tokens
}

/// Where the bracket expression opened before `at` closes: a `]` first (after a `!`/`^`) is
/// part of it.
fn class_end(chars: &[char], at: usize) -> Option<usize> {
    let mut end = at + usize::from(matches!(chars.get(at), Some('!' | '^')));
    end += usize::from(chars.get(end) == Some(&']'));
    chars.get(end..)?.iter().position(|&c| c == ']').map(|offset| end + offset)
}

/// The pattern's positions reached so far, each with whether a letter of the folder was matched
/// by a letter of the pattern: `states[position][anchored]`.
type States = Vec<[bool; 2]>;

/// Whether the tokens match `root`, then any components, then `folder` with one of its letters
/// matched by the pattern's own, then the end or a `/` and more.
fn spells(tokens: &[Token], root: &str, folder: &str) -> bool {
    let mut states: States = vec![[false; 2]; tokens.len() + 1];
    if let Some(start) = states.first_mut() {
        start[0] = true;
    }
    close(tokens, &mut states);
    for c in root.chars() {
        states = step(tokens, &states, Some(c), false);
    }
    // Any components between the root and the folder (a worktree's own plans folder).
    let deeper = step(tokens, &step(tokens, &states, None, false), Some('/'), false);
    for (state, more) in states.iter_mut().zip(&deeper) {
        state[0] |= more[0];
        state[1] |= more[1];
    }
    for c in folder.chars() {
        states = step(tokens, &states, Some(c), true);
    }
    let at_end = states.last().is_some_and(|end| end[1]);
    at_end || step(tokens, &states, Some('/'), false).iter().any(|state| state[1])
}

/// The states after one character (`None`: any number of any characters).
fn step(tokens: &[Token], states: &States, c: Option<char>, in_folder: bool) -> States {
    let mut next: States = vec![[false; 2]; states.len()];
    let Some(c) = c else {
        // Any text: every position at or after a reached one.
        for anchored in 0..2 {
            if let Some(first) = states.iter().position(|state| state[anchored]) {
                for state in next.iter_mut().skip(first) {
                    state[anchored] = true;
                }
            }
        }
        return next;
    };
    for (at, token) in tokens.iter().enumerate() {
        for anchored in 0..2 {
            if !states.get(at).is_some_and(|state| state[anchored]) {
                continue;
            }
            let (to, spelled) = match token {
                Token::Star => (at, false),
                Token::Any => (at + 1, false),
                Token::Literal(l) if l.eq_ignore_ascii_case(&c) => (at + 1, c.is_alphanumeric()),
                Token::Class(class) if glob_matches(class, c.encode_utf8(&mut [0; 4])) => {
                    (at + 1, !class.starts_with("[!") && !class.starts_with("[^"))
                }
                _ => continue,
            };
            if let Some(state) = next.get_mut(to) {
                state[usize::from(anchored == 1 || in_folder && spelled)] = true;
            }
        }
    }
    close(tokens, &mut next);
    next
}

/// A `*` also matches nothing.
fn close(tokens: &[Token], states: &mut States) {
    for (at, token) in tokens.iter().enumerate() {
        if *token == Token::Star {
            let here = states.get(at).copied().unwrap_or_default();
            if let Some(next) = states.get_mut(at + 1) {
                next[0] |= here[0];
                next[1] |= here[1];
            }
        }
    }
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
    fn whole_path_patterns_that_spell_a_guarded_folder() {
        let plans = |root: &str, pattern: &str| guarded_folders_spelled(root, pattern);
        assert_eq!(plans(".", "./docs/superpowers/plans/p.md"), ["./docs/superpowers/plans"]);
        assert_eq!(plans(".", "*plans/p.md"), ["./docs/superpowers/plans"]);
        assert_eq!(plans(".", "./DOCS/*/PLANS"), ["./docs/superpowers/plans"]);
        assert_eq!(plans("docs", "*superpowers/plans*"), ["docs/superpowers/plans"]);
        assert_eq!(plans("/r/", "/r/.super*/sdd/p/*"), ["/r/.superpowers/sdd/*"]);
        assert_eq!(plans(".", "./wt/docs/*/plans/x.md"), ["./docs/superpowers/plans"]);
        assert_eq!(plans(".", "?/docs/superpowers/[p]lans/p?md"), ["./docs/superpowers/plans"]);
        // A pattern that matches there only by its wildcards, or a sibling, spells nothing.
        for pattern in ["*.md", "*/src/*.js", "./node_modules/*", "*", "*plans-old/*", "./docs/superpowers", "*/[!x]*"]
        {
            assert!(plans(".", pattern).is_empty(), "{pattern}");
        }
        // A root in the folder is written whole already.
        assert!(plans("docs/superpowers/plans", "*plans*").is_empty());
        assert!(plans("docs/superpowers/plans/sub", "*").is_empty());
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
