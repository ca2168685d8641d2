//! A plan's `**Spec:**` line, the change it names, and the hash that binds an approval to the
//! plan's bytes (D-9, D-10).

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

/// A file's bytes and their sha256, hashed while it is read.
pub struct HashedFile {
    pub bytes: Vec<u8>,
    pub sha256: String,
}

/// Chunks of the size that stays in cache between the copy from the kernel and the hash.
const HASH_CHUNK: usize = 64 << 10;

/// Reads `path` once, hashing each chunk as it arrives: the plan is not walked a second time
/// from memory to hash it.
pub fn read_hashed(path: &Path) -> io::Result<HashedFile> {
    let mut file = File::open(path)?;
    let expected = file.metadata().map_or(0, |meta| meta.len());
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0).saturating_add(1));
    let mut hasher = Sha256::new();
    loop {
        // A whole chunk per read (`read_to_end` would read 8 KiB at a time here).
        let start = bytes.len();
        bytes.resize(start + HASH_CHUNK, 0);
        let read = loop {
            match file.read(bytes.get_mut(start..).unwrap_or_default()) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                outcome => break outcome?,
            }
        };
        bytes.truncate(start + read);
        if read == 0 {
            break;
        }
        hasher.update(bytes.get(start..).unwrap_or_default());
    }
    Ok(HashedFile { bytes, sha256: hex(&hasher.finalize()) })
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
    fn sha256_is_lowercase_hex() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn hashing_while_reading_is_hashing_what_was_read() {
        let dir = tempfile::tempdir().expect("test fixture");
        for size in [0, 1, HASH_CHUNK - 1, HASH_CHUNK, 3 * HASH_CHUNK + 7] {
            let content: Vec<u8> = (0..size).map(|i| (i * 31 % 251) as u8).collect();
            let path = dir.path().join(format!("{size}.md"));
            std::fs::write(&path, &content).expect("test fixture");
            let read = read_hashed(&path).expect("readable");
            assert_eq!(read.bytes, content, "{size}");
            assert_eq!(read.sha256, sha256_hex(&content), "{size}");
        }
        assert!(read_hashed(&dir.path().join("missing.md")).is_err());
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
