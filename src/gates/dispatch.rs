//! The dispatch entry of gate B: plan references in the text of a call that starts more work.
//! Recognition is a substring heuristic and fails open (docs/decisions.md#gate-b); references resolve against the
//! session cwd, whatever the call's own arguments say (T3.8).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::sdd_gate;
use super::tools::{DispatchText, ToolArgs};
use crate::paths;
use crate::texts::Denial;

/// The most bytes of a script file a dispatch names that are read for references (4 MiB, as a
/// patch); a longer file is judged by its beginning.
pub const MAX_SCRIPT_FILE_BYTES: u64 = 4 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference {
    /// `docs/superpowers/plans/<name>.md`
    Plan(String),
    /// `.superpowers/sdd/<name>/`
    Sdd(String),
}

/// Every reference is checked and the first denial returned, so an approved plan never masks an
/// unapproved one.
pub fn check(text: &str, cwd: &Path) -> Option<Denial> {
    references(text).iter().find_map(|reference| match reference {
        Reference::Plan(name) => sdd_gate::check_plan_reference(cwd, name),
        Reference::Sdd(name) => sdd_gate::check_sdd_reference(cwd, name),
    })
}

/// A dispatch described by several fields: every reference in any of them is checked, in field
/// order. The session directory is asked for only when a field is present.
pub fn check_each(
    args: &dyn ToolArgs,
    texts: &[DispatchText],
    session_dir: impl FnOnce() -> PathBuf,
) -> Option<Denial> {
    let mut read: Vec<(DispatchText, String)> = Vec::new();
    for &text in texts {
        match text {
            DispatchText::Field(field) | DispatchText::ScriptFile(field) => {
                read.extend(args.string(field).map(|value| (text, value)))
            }
            DispatchText::Json(field) => read.extend(args.json_text(field).map(|value| (text, value))),
            DispatchText::Items(array, field) => {
                read.extend(
                    args.strings_of(array, field).unwrap_or_default().into_iter().flatten().map(|value| (text, value)),
                );
            }
            DispatchText::EveryString => {
                let strings = args.arguments_json().map(|json| super::tools::strings::json_strings(&json).join("\n"));
                read.extend(strings.map(|value| (text, value)));
            }
        }
    }
    if read.is_empty() {
        return None;
    }
    let dir = session_dir();
    let found: Vec<String> = read
        .into_iter()
        .filter_map(|(text, value)| match text {
            DispatchText::ScriptFile(_) => script_text(&paths::absolute(value, &dir)),
            _ => Some(value),
        })
        .collect();
    check(&found.join("\n"), &dir)
}

/// The beginning of a regular file, as text; `None` when it cannot be read (a missing script names
/// no plan, and the dispatch fails open as any unrecognised text does).
fn script_text(path: &Path) -> Option<String> {
    let file = File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_FILE_BYTES).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The distinct plan references of `text`, in order of appearance, however the path is spelled:
/// `\` for `/`, repeated `/`, `./` segments, any case.
pub fn references(text: &str) -> Vec<Reference> {
    let text = &path_spelling_folded(text);
    let mut found: Vec<(usize, Reference)> = Vec::new();
    for (at, name) in names_after(text, &paths::folder_text(&paths::PLANS_DIR)) {
        if let Some(plan) = strip_md(name).filter(|plan| paths::is_safe_segment(plan)) {
            found.push((at, Reference::Plan(plan.to_string())));
        }
    }
    for (at, name) in names_after(text, &paths::folder_text(&paths::SDD_DIR)) {
        if paths::is_safe_segment(name) {
            found.push((at, Reference::Sdd(name.to_string())));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut references: Vec<Reference> = Vec::with_capacity(found.len());
    for (_, reference) in found {
        if !references.contains(&reference) {
            references.push(reference);
        }
    }
    references
}

/// `text` with every `\` as `/`, runs of `/` as one, and `/./` as `/`: the spellings a path may
/// take that name the same file (docs/decisions.md#dispatch-references).
fn path_spelling_folded(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if c == '\\' { '/' } else { c };
        if c == '/' && folded.ends_with('/') {
            continue;
        }
        if c == '/' && (folded.ends_with("/.") || folded == ".") {
            folded.pop();
            continue;
        }
        folded.push(c);
    }
    folded
}

/// `name` without its `.md`, in any case.
fn strip_md(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(3)?;
    name.get(cut..).filter(|suffix| suffix.eq_ignore_ascii_case(".md")).and_then(|_| name.get(..cut))
}

/// Each place `prefix` starts a path (matched case-insensitively, P-7) and the path segment that
/// follows it, trailing punctuation (`.`, `,`, `»`, `—`…) trimmed.
fn names_after<'t>(text: &'t str, prefix: &str) -> Vec<(usize, &'t str)> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut from = 0;
    while let Some(offset) = find_ascii_ci(&bytes[from..], prefix.as_bytes()) {
        let at = from + offset;
        from = at + 1;
        if text[..at].chars().next_back().is_some_and(continues_a_name) {
            continue;
        }
        let start = at + prefix.len();
        let end = bytes[start..].iter().position(|&b| !is_name_byte(b)).map_or(bytes.len(), |len| start + len);
        // Only ASCII bytes end a name, so both ends are char boundaries.
        let name =
            text[start..end].trim_end_matches(|c: char| c == '.' || c == ',' || !c.is_ascii() && !c.is_alphanumeric());
        if !name.is_empty() {
            names.push((at, name));
        }
    }
    names
}

/// Bytes a plan name may contain; everything else (space, `/`, quotes, brackets, `:`, `#`, …)
/// ends it. Non-ASCII bytes belong to names.
fn is_name_byte(byte: u8) -> bool {
    !byte.is_ascii() || byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-' | b'+' | b'@' | b'~' | b'%')
}

fn continues_a_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '+' | '@' | '~' | '%')
}

fn find_ascii_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Reference::*;

    fn refs(text: &str) -> Vec<Reference> {
        references(text)
    }

    #[test]
    fn finds_plan_and_sdd_references_in_order() {
        assert_eq!(
            refs("Run `.superpowers/sdd/b/` then execute docs/superpowers/plans/a.md, task 2."),
            vec![Sdd("b".into()), Plan("a".into())]
        );
        assert_eq!(
            refs("plan: /abs/repo/docs/superpowers/plans/2026-11-01-x.md:12 and (docs/superpowers/plans/y.md)"),
            vec![Plan("2026-11-01-x".into()), Plan("y".into())]
        );
        assert_eq!(refs("ledger .superpowers/sdd/p1/progress.md"), vec![Sdd("p1".into())]);
        assert_eq!(refs("see .superpowers/sdd/p1."), vec![Sdd("p1".into())]);
        assert_eq!(refs("\"Docs/Superpowers/Plans/Up.md\""), vec![Plan("Up".into())]);
    }

    #[test]
    fn every_spelling_of_a_reference_is_the_reference() {
        for text in [
            "docs/superpowers/plans/myplan.MD",
            "docs/superpowers/plans/./myplan.md",
            "docs//superpowers/plans/myplan.md",
            r"docs\superpowers\plans\myplan.md",
            r"C:\repo\Docs\SuperPowers\Plans\.\myplan.Md",
            "./docs/superpowers//plans/myplan.md",
            r#"{"plan":"docs\\superpowers\\plans\\myplan.md"}"#,
        ] {
            assert_eq!(refs(text), vec![Plan("myplan".into())], "{text}");
        }
        assert_eq!(refs(r".superpowers\sdd\p\brief.md"), vec![Sdd("p".into())]);
        assert_eq!(refs(".superpowers/./sdd//p/"), vec![Sdd("p".into())]);
        assert_eq!(refs("docs/superpowers/plans/../x.md"), vec![]);
    }

    #[test]
    fn repeated_references_count_once() {
        assert_eq!(
            refs("docs/superpowers/plans/a.md docs/superpowers/plans/a.md .superpowers/sdd/a/"),
            vec![Plan("a".into()), Sdd("a".into())]
        );
    }

    #[test]
    fn things_that_are_not_references() {
        for text in [
            "no plans here",
            "docs/superpowers/plans/",
            "docs/superpowers/plans/*.md",
            "docs/superpowers/plans/archive/old.md",
            "docs/superpowers/plans/notes.txt",
            "mydocs/superpowers/plans/x.md",
            ".superpowers/sdd/",
            ".superpowers/sdd/../x/",
            "docs/superpowers/specs/x.md",
        ] {
            assert_eq!(refs(text), vec![], "{text}");
        }
    }

    #[test]
    fn non_ascii_text_around_references_is_fine() {
        assert_eq!(
            refs("выполни план docs/superpowers/plans/план-1.md — сейчас, «.superpowers/sdd/п»"),
            vec![Plan("план-1".into()), Sdd("п".into())]
        );
    }
}
