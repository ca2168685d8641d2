//! A plan's `**Spec:**` line, the change it names, and the hash that binds an approval to the
//! plan's bytes (D-9, D-10).

use std::fmt::Write as _;
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
    let start = SPEC_MARKERS.iter().filter_map(|marker| text.find(marker).map(|at| at + marker.len())).min()?;
    let line = text[start..].lines().next().unwrap_or("");
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
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
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
}
