//! The rule for a tool the gates do not know (docs/decisions.md#p-18): every string its arguments
//! carry, at any depth and under any field name (object keys too), that names a guarded location
//! makes the call a write of that location. A string names one as [`paths::names_guarded`] reads
//! it (the single spelling of the guarded locations), in a Unix, a Windows (`\`) or a `file://`
//! spelling.

use std::path::{Path, PathBuf};

use crate::paths::{self, Dialect, GuardedName, Reach};

/// Every string of a JSON text, keys and values, in order, unescaped. The text comes from a
/// serializer (`JSON.stringify`, serde), so anything outside a string is structure; a broken
/// escape ends its string where it stands.
pub fn json_strings(json: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut chars = json.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            strings.push(json_string(&mut chars));
        }
    }
    strings
}

/// [`json_strings`] but for the values at `fields`, key paths through objects (`path`, and
/// `edits.newText` for that field of each element of `edits`): the strings a tool's known fields
/// hold, judged apart by their meaning, not as paths.
pub fn json_strings_outside(json: &str, fields: &[&str]) -> Vec<String> {
    if fields.is_empty() {
        return json_strings(json);
    }
    // Each open object's key (`None` in an array), and whether a key comes next.
    let mut keys: Vec<Option<String>> = Vec::new();
    let mut expecting_key = false;
    let mut strings = Vec::new();
    let mut chars = json.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let text = json_string(&mut chars);
                if expecting_key {
                    if let Some(key) = keys.last_mut() {
                        *key = Some(text.clone());
                    }
                    strings.push(text);
                } else if !fields.iter().any(|field| is_key_path(&keys, field)) {
                    strings.push(text);
                }
            }
            '{' => {
                keys.push(Some(String::new()));
                expecting_key = true;
            }
            '[' => {
                keys.push(None);
                expecting_key = false;
            }
            '}' | ']' => {
                keys.pop();
                expecting_key = false;
            }
            ':' => expecting_key = false,
            ',' => expecting_key = matches!(keys.last(), Some(Some(_))),
            _ => {}
        }
    }
    strings
}

/// Whether the open objects' keys (arrays skipped) spell `path`.
fn is_key_path(keys: &[Option<String>], path: &str) -> bool {
    let mut spelled = keys.iter().flatten();
    path.split('.').all(|part| spelled.next().is_some_and(|key| key == part)) && spelled.next().is_none()
}

/// The rest of a JSON string after its opening quote, unescaped; consumes its closing quote.
fn json_string(chars: &mut std::str::Chars) -> String {
    let mut text = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some('r') => text.push('\r'),
                Some('b') => text.push('\u{8}'),
                Some('f') => text.push('\u{c}'),
                Some('u') => text.push(unicode_escape(chars)),
                Some(other) => text.push(other),
                None => break,
            },
            _ => text.push(c),
        }
    }
    text
}

/// A `\uXXXX` escape (a surrogate pair when the first is high); U+FFFD when malformed.
fn unicode_escape(chars: &mut std::str::Chars) -> char {
    let hex = |chars: &mut std::str::Chars| {
        let digits: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    let Some(first) = hex(chars) else { return char::REPLACEMENT_CHARACTER };
    if (0xD800..0xDC00).contains(&first) {
        let mut ahead = chars.clone();
        if ahead.next() == Some('\\')
            && ahead.next() == Some('u')
            && let Some(low) = hex(&mut ahead).filter(|low| (0xDC00..0xE000).contains(low))
        {
            *chars = ahead;
            let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
            return char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        }
    }
    char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Whether `text` names a guarded location in any spelling a tool's string may use.
pub fn names_guarded(text: &str) -> bool {
    spellings(text).iter().any(|spelled| paths::names_guarded(spelled, Dialect::Raw))
        || paths::names_guarded(text, Dialect::PowerShell)
}

/// The most distinct guarded locations the strings of one call are judged at; a call that names
/// more is refused whole (docs/decisions.md#work-budgets).
pub const MAX_NAMED_LOCATIONS: usize = 256;

/// The call names more than [`MAX_NAMED_LOCATIONS`] guarded locations.
#[derive(Debug, PartialEq, Eq)]
pub struct TooManyLocations;

/// Adds to `found` the guarded locations `text` names, absolute against `cwd`, in the order the
/// words name them, each once. Each word that names one is taken as a path (or, when its path is
/// no guarded location — a variable, a glob, quotes — as every file the name stands for); a text
/// that names one only across words stands for every location it names.
pub fn add_named_locations(text: &str, cwd: &Path, found: &mut Vec<PathBuf>) -> Result<(), TooManyLocations> {
    if !names_guarded(text) {
        return Ok(());
    }
    let mut named = false;
    let words = text.split_whitespace().filter(|word| names_guarded(word));
    for location in words.flat_map(|word| word_locations(word, cwd)) {
        named = true;
        add(found, location)?;
    }
    if !named {
        for location in locations_named_by(text, cwd) {
            add(found, location)?;
        }
    }
    Ok(())
}

fn add(found: &mut Vec<PathBuf>, location: PathBuf) -> Result<(), TooManyLocations> {
    if found.contains(&location) {
        return Ok(());
    }
    if found.len() == MAX_NAMED_LOCATIONS {
        return Err(TooManyLocations);
    }
    found.push(location);
    Ok(())
}

/// The guarded locations `text` names, as [`add_named_locations`] finds them.
#[cfg(test)]
fn named_locations(text: &str, cwd: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    add_named_locations(text, cwd, &mut found).expect("within the budget");
    found
}

/// Characters that end a path inside a word of prose or of a command line.
const PUNCTUATION: &[char] = &['\'', '"', '`', ';', '(', ')', '<', '>', '|', '&', ',', '=', '[', ']', '{', '}'];

fn word_locations(word: &str, cwd: &Path) -> Vec<PathBuf> {
    let parts = std::iter::once(word).chain(word.split(PUNCTUATION).filter(|part| !part.is_empty() && *part != word));
    for part in parts {
        for spelled in spellings(part) {
            let path = paths::absolute(&spelled, cwd);
            if paths::is_guarded(&path) {
                return vec![path];
            }
            let beneath = paths::guarded_beneath(&path, Reach::Named);
            if !beneath.is_empty() {
                return beneath;
            }
        }
    }
    locations_named_by(word, cwd)
}

/// Every file the guarded names in `text` stand for, relative to `cwd`.
fn locations_named_by(text: &str, cwd: &Path) -> Vec<PathBuf> {
    let all = GuardedName::IN_REPOSITORY.into_iter().chain([GuardedName::Ledger]);
    all.filter(|&name| {
        spellings(text).iter().any(|spelled| paths::names_this(spelled, Dialect::Raw, name))
            || paths::names_this(text, Dialect::PowerShell, name)
    })
    .filter_map(GuardedName::everything_in)
    .map(|location| paths::absolute(location, cwd))
    .collect()
}

/// The ways a tool may mean `text` as a path: as it stands, a `file:` URI's path, a Windows path.
fn spellings(text: &str) -> Vec<String> {
    let mut spelled: Vec<String> = paths::file_uri_path(text).into_iter().collect();
    spelled.push(text.to_string());
    if text.contains('\\') || text.get(1..2) == Some(":") {
        spelled.push(paths::from_windows(text));
    }
    spelled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_naming_too_many_locations_is_over_the_budget() {
        let text: String = (0..=MAX_NAMED_LOCATIONS).map(|n| format!(".superpowers/sdd/p{n}/x ")).collect();
        let mut found = Vec::new();
        assert_eq!(add_named_locations(&text, Path::new("/r"), &mut found), Err(TooManyLocations));
        let repeated = "openspec/changes/c/approval.md ".repeat(MAX_NAMED_LOCATIONS * 4);
        let mut found = Vec::new();
        assert_eq!(add_named_locations(&repeated, Path::new("/r"), &mut found), Ok(()));
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn strings_outside_fields_are_the_others_at_any_depth() {
        let json = r#"{"path":"p","content":"c","edits":[{"newText":"n","path":"e"}],"o":{"path":"d"},"x":["path"]}"#;
        assert_eq!(
            json_strings_outside(json, &["path", "content", "edits.newText"]),
            ["path", "content", "edits", "newText", "path", "e", "o", "path", "d", "x", "path"]
        );
        assert_eq!(json_strings_outside(json, &[]), json_strings(json));
        // An escaped quote or brace inside a string is no structure.
        let tricky = r#"{"content":"a\"}{\"path\":","path":"p","f":"x"}"#;
        assert_eq!(json_strings_outside(tricky, &["path", "content"]), ["content", "path", "f", "x"]);
    }

    #[test]
    fn json_strings_are_every_key_and_value_unescaped() {
        let json = r#"{"a":["x\"y",{"k\\e":"C:\\r\\approval.md"}],"n":1,"u":"\u0041\ud83d\ude00"}"#;
        assert_eq!(json_strings(json), ["a", "x\"y", "k\\e", r"C:\r\approval.md", "n", "u", "A😀"]);
        assert_eq!(json_strings(r#"{"broken":"\u12"}"#), ["broken", "\u{fffd}"]);
    }

    #[test]
    fn strings_name_locations_in_every_spelling() {
        let cwd = Path::new("/r");
        let at = |text| named_locations(text, cwd);
        let approval = vec![PathBuf::from("/r/openspec/changes/x/approval.md")];
        assert_eq!(at("openspec/changes/x/approval.md"), approval);
        assert_eq!(at(r"openspec\changes\x\approval.md"), approval);
        assert_eq!(at(r"C:\r\openspec\changes\x\approval.md"), approval);
        assert_eq!(at("file:///r/openspec/changes/x/approval.md"), approval);
        assert_eq!(at("file://localhost/r/openspec/changes/x/approval%2Emd"), approval);
        assert_eq!(at("file:///C:/r/openspec/changes/x/approval.md"), approval);
        assert_eq!(at("see (openspec/changes/x/approval.md), then"), approval);
        assert_eq!(at("echo x > docs/superpowers/plans/p.md"), [PathBuf::from("/r/docs/superpowers/plans/p.md")]);
        assert_eq!(at("'approval'.md"), [PathBuf::from("/r/approval.md")]);
        assert_eq!(at("docs/superpowers/plans/*.md"), [PathBuf::from("/r/docs/superpowers/plans/*.md")]);
        assert_eq!(at(".superpowers/sdd/p/progress.md"), [PathBuf::from("/r/.superpowers/sdd/p/progress.md")]);
        assert_eq!(at("src/main.rs and README.md"), Vec::<PathBuf>::new());
        assert_eq!(at("docs/superpowers/specs/x.md"), Vec::<PathBuf>::new());
    }
}
