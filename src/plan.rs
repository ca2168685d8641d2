//! A plan's `**Spec:**` line, the change it names, and the hash that binds an approval to the
//! plan's bytes (D-9, D-10).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, Path};

use sha2::{Digest, Sha256};

use crate::paths;

/// The markers a Spec line may start with; `**Spec**:` is a common slip of the same line.
const SPEC_MARKERS: [&str; 2] = ["**Spec:**", "**Spec**:"];

/// The path written after the first `**Spec:**` marker of `text`, if any.
///
/// Tolerant of how markdown dresses a path: `` `path` ``, `<path>`, `[text](path)`, and trailing
/// punctuation.
pub fn spec_reference(text: &str) -> Option<&str> {
    spec_value(&text[spec_marker_end(text)?..])
}

/// Where the text after the first Spec marker starts. One pass that stops at the first marker
/// (usually in a plan's header), instead of one search per marker through the whole plan.
fn spec_marker_end(text: &str) -> Option<usize> {
    const STEM: &str = "**Spec";
    let mut from = 0;
    while let Some(offset) = text.get(from..)?.find(STEM) {
        let at = from + offset;
        let after = text.get(at..).unwrap_or("");
        if let Some(marker) = SPEC_MARKERS.iter().find(|marker| after.starts_with(*marker)) {
            return Some(at + marker.len());
        }
        from = at + 1;
    }
    None
}

/// The path on the line that follows a Spec marker.
fn spec_value(after_marker: &str) -> Option<&str> {
    let line = after_marker.lines().next().unwrap_or("");
    let value = line.trim_start_matches([' ', '\t']);
    let path = if let Some(rest) = value.strip_prefix('`') {
        rest.split('`').next().unwrap_or("")
    } else if let Some(rest) = value.strip_prefix('<') {
        rest.split('>').next().unwrap_or("")
    } else if let Some(rest) = value.strip_prefix('[') {
        link_target(rest)
    } else {
        value.split_whitespace().next().unwrap_or("")
    };
    let path = path.trim().trim_end_matches(['.', ',', ';', ':', ')', '*']);
    (!path.is_empty()).then_some(path)
}

/// `text](target)` → `target`; a bracket without a link target yields its text.
fn link_target(after_bracket: &str) -> &str {
    let Some((label, rest)) = after_bracket.split_once(']') else {
        return after_bracket.split_whitespace().next().unwrap_or("");
    };
    match rest.strip_prefix('(') {
        Some(target) => target.split([')', ' ']).next().unwrap_or(""),
        None => label.trim_matches('`'),
    }
}

/// The change id a Spec path names, judged against the repository `root`: the path must stay
/// inside the root and lie under `openspec/changes/<id>` with `<id>` a safe segment. Anything else
/// (a legacy `docs/superpowers/specs/…`, an escape, an unsafe id) is `None`.
pub fn change_id(spec_path: &str, root: &Path) -> Option<String> {
    if spec_path.contains('\0') {
        return None;
    }
    let resolved = paths::absolute(spec_path, root);
    let relative = resolved.strip_prefix(root).ok()?;
    let mut components = relative.components();
    for expected in paths::CHANGES_DIR {
        match components.next() {
            Some(Component::Normal(name)) if name == expected => {}
            _ => return None,
        }
    }
    let Some(Component::Normal(id)) = components.next() else {
        return None;
    };
    let id = id.to_str()?;
    paths::is_safe_segment(id).then(|| id.to_string())
}

/// A plan's bytes as text, invalid sequences replaced. Valid UTF-8, the common case, is only
/// validated: `String::from_utf8_lossy` checks it a byte at a time, about ten times as slow on a
/// long plan.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    std::str::from_utf8(bytes).map_or_else(|_| String::from_utf8_lossy(bytes), Cow::Borrowed)
}

/// The change a plan's text points to, if its Spec line names one under `root`.
pub fn plan_change_id(plan_text: &str, root: &Path) -> Option<String> {
    change_id(spec_reference(plan_text)?, root)
}

/// Lowercase hex sha256, the form approval.md stores.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of a digest.
pub(crate) fn hex(digest: &[u8]) -> String {
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// A file's bytes and their sha256.
pub struct HashedFile {
    pub bytes: Vec<u8>,
    pub sha256: String,
}

/// Plans whose hash is remembered on a thread, with their whole bytes.
const REMEMBERED_PLANS: usize = 4;

thread_local! {
    /// The plans hashed last: a plan is read at every reference to it and seldom changes between
    /// two, and the same bytes have the same hash, so a plan read again as it was is compared,
    /// not hashed (a byte comparison costs a small part of a hash). Keyed by the bytes alone,
    /// never by a file's times or size, so no write can go unseen.
    static HASHED_PLANS: RefCell<Vec<HashedFile>> = const { RefCell::new(Vec::new()) };
}

/// Reads `path` whole and hashes what was read, or takes the hash of the same bytes read before.
pub fn read_hashed(path: &Path) -> io::Result<HashedFile> {
    let bytes = read_whole(path)?;
    let known = HASHED_PLANS.with_borrow_mut(|plans| {
        let at = plans.iter().position(|plan| plan.bytes == bytes)?;
        // The one found moves to the front, so the least recently used is dropped first.
        let plan = plans.remove(at);
        let sha256 = plan.sha256.clone();
        plans.insert(0, plan);
        Some(sha256)
    });
    if let Some(sha256) = known {
        return Ok(HashedFile { bytes, sha256 });
    }
    let sha256 = sha256_hex(&bytes);
    HASHED_PLANS.with_borrow_mut(|plans| {
        plans.truncate(REMEMBERED_PLANS - 1);
        plans.insert(0, HashedFile { bytes: bytes.clone(), sha256: sha256.clone() });
    });
    Ok(HashedFile { bytes, sha256 })
}

/// A file's bytes in one read when its size is right (`read_to_end` alone reads 8 KiB at a time).
fn read_whole(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let expected = file.metadata().map_or(0, |meta| meta.len());
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn finds_the_spec_path_in_its_markdown_dress() {
        let cases = [
            ("**Spec:** openspec/changes/foo/", "openspec/changes/foo/"),
            ("# Plan\n\n**Spec:** `openspec/changes/foo/design.md`\n", "openspec/changes/foo/design.md"),
            ("**Spec:**\topenspec/changes/foo (design)", "openspec/changes/foo"),
            ("**Spec:** <openspec/changes/foo>", "openspec/changes/foo"),
            ("**Spec:** [design](openspec/changes/foo/design.md)", "openspec/changes/foo/design.md"),
            ("**Spec:** [`openspec/changes/foo`]", "openspec/changes/foo"),
            ("**Spec**: openspec/changes/foo.", "openspec/changes/foo"),
            ("> **Spec:** openspec/changes/a\n**Spec:** openspec/changes/b", "openspec/changes/a"),
        ];
        for (text, expected) in cases {
            assert_eq!(spec_reference(text), Some(expected), "{text:?}");
        }
    }

    #[test]
    fn no_spec_line_or_an_empty_one_is_none() {
        for text in
            ["# Plan\nno spec here", "**Spec:**\nopenspec/changes/foo", "**Spec:** ``", "Spec: openspec/changes/x", ""]
        {
            assert_eq!(spec_reference(text), None, "{text:?}");
        }
    }

    #[test]
    fn change_id_requires_openspec_changes_inside_the_root() {
        let root = PathBuf::from("/repo");
        let ok = [
            ("openspec/changes/foo", "foo"),
            ("openspec/changes/foo/design.md", "foo"),
            ("./openspec/changes/foo/", "foo"),
            ("openspec/changes/bar/../foo", "foo"),
            ("/repo/openspec/changes/foo/proposal.md", "foo"),
        ];
        for (spec, id) in ok {
            assert_eq!(change_id(spec, &root).as_deref(), Some(id), "{spec}");
        }
        let denied = [
            "docs/superpowers/specs/2026-10-11-roles.md",
            "openspec/changes/",
            "openspec/changes/../../x",
            "openspec/changes/../specs/x",
            "../openspec/changes/foo",
            "/other/openspec/changes/foo",
            "openspec/changes/a\\b",
            "openspec/specs/foo",
            "Openspec/changes/foo",
        ];
        for spec in denied {
            assert_eq!(change_id(spec, &root), None, "{spec}");
        }
    }

    #[test]
    fn a_plan_is_read_as_text_whatever_its_bytes() {
        assert_eq!(text("- [ ] é\n".as_bytes()), "- [ ] é\n");
        assert_eq!(text(b"**Spec:** a\xff b"), "**Spec:** a\u{fffd} b");
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn a_plan_read_is_hashed_as_it_is_now() {
        let dir = tempfile::tempdir().expect("test fixture");
        for size in [0, 1, 8191, 8192, 3 * 65536 + 7] {
            let content: Vec<u8> = (0..size).map(|i| (i * 31 % 251) as u8).collect();
            let path = dir.path().join(format!("{size}.md"));
            std::fs::write(&path, &content).expect("test fixture");
            let read = read_hashed(&path).expect("readable");
            assert_eq!(read.bytes, content, "{size}");
            assert_eq!(read.sha256, sha256_hex(&content), "{size}");
        }
        assert!(read_hashed(&dir.path().join("missing.md")).is_err());
        // Remembered hashes: the same bytes again, one byte changed in place (same size, and
        // the same modification time on a coarse clock), and more plans than are remembered.
        let path = dir.path().join("plan.md");
        let mut content = vec![b'a'; 20_000];
        for round in 0..2 * REMEMBERED_PLANS {
            std::fs::write(&path, &content).expect("test fixture");
            assert_eq!(read_hashed(&path).expect("readable").sha256, sha256_hex(&content), "{round}");
            assert_eq!(read_hashed(&path).expect("readable").sha256, sha256_hex(&content), "{round} again");
            content[round] = b'b';
        }
        for round in 0..2 * REMEMBERED_PLANS {
            content[round] = b'a';
            std::fs::write(&path, &content).expect("test fixture");
            assert_eq!(read_hashed(&path).expect("readable").sha256, sha256_hex(&content), "back {round}");
        }
    }

    #[test]
    fn the_first_marker_wins_whichever_it_is() {
        assert_eq!(
            spec_reference("**Spec**: openspec/changes/a\n**Spec:** openspec/changes/b"),
            Some("openspec/changes/a")
        );
        assert_eq!(spec_reference("**Specs:** x\n**Spec**Spec:** openspec/changes/c"), Some("openspec/changes/c"));
        assert_eq!(spec_reference("**Spec\n**Spec:** é openspec/changes/d"), Some("é"));
        assert_eq!(spec_reference("**Spec"), None);
    }
}
