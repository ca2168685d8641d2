//! Paths typed for Windows, read as the rest of [`crate::paths`] reads paths.

/// A path typed for Windows (PowerShell, `cmd`) in the `/` form the rest of this module reads,
/// resolved as the Windows file system would name the same file: `\` separates like `/`; a drive
/// (`C:\…`, `C:…`) and the `\\?\` / `\\.\` prefixes are dropped, so `C:\r\x` is `/r/x` and a
/// drive-relative `C:x` is `x` (a guarded location is a run of components anywhere in a path, so the
/// drive never decides it; on a host without drives, writes through one fail); each component loses
/// its trailing dots and blanks, and the last one its NTFS stream (`approval.md.`, `approval.md::$DATA` are
/// `approval.md`). Case is folded where the guarded locations are matched.
pub fn from_windows(text: &str) -> String {
    if is_posix_already(text) {
        return text.to_string();
    }
    respelled(text)
}

/// Whether [`from_windows`] leaves `text` as it is: no backslash, drive, stream or device prefix,
/// and no component Windows would trim (most paths a PowerShell call names).
fn is_posix_already(text: &str) -> bool {
    !text.contains(['\\', ':'])
        && !text.starts_with("//")
        && text.split('/').all(|component| matches!(component, "." | "..") || !component.ends_with(['.', ' ']))
}

fn respelled(text: &str) -> String {
    let slashed = text.replace('\\', "/");
    let mut rest = slashed.as_str();
    for device in ["//?/", "//./"] {
        if let Some(after) = rest.strip_prefix(device) {
            rest = after;
        }
    }
    let bytes = rest.as_bytes();
    let has_drive =
        bytes.len() >= 2 && bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':');
    if has_drive {
        rest = rest.get(2..).unwrap_or_default();
    }
    let rooted = rest.starts_with('/') || (has_drive && rest.is_empty());
    let mut components: Vec<&str> = rest
        .split('/')
        .map(
            |component| {
                if component == "." || component == ".." { component } else { component.trim_end_matches(['.', ' ']) }
            },
        )
        .collect();
    if let Some(last) = components.last_mut() {
        let name = last.split(':').next().unwrap_or(last);
        *last = if name == "." || name == ".." { name } else { name.trim_end_matches(['.', ' ']) };
    }
    let joined = components.join("/");
    if rooted && !joined.starts_with('/') { format!("/{joined}") } else { joined }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use proptest::prelude::*;

    use super::{from_windows, respelled};
    use crate::paths::{absolute, is_approval_file, plans_root};

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    proptest! {
        #[test]
        fn a_path_left_as_it_is_is_the_path_respelled(text in "[a-zA-Z./ :\\\\?]{0,12}") {
            prop_assert_eq!(from_windows(&text), respelled(&text));
        }
    }

    #[test]
    fn windows_paths_name_the_file_windows_would() {
        assert_eq!(from_windows(r"docs\superpowers\plans\x.md"), "docs/superpowers/plans/x.md");
        assert_eq!(from_windows(r"C:\r\docs\x.md"), "/r/docs/x.md");
        assert_eq!(from_windows("c:/r/x"), "/r/x");
        assert_eq!(from_windows("C:x.md"), "x.md");
        assert_eq!(from_windows("C:"), "/");
        assert_eq!(from_windows(r"\\?\C:\r\approval.md"), "/r/approval.md");
        assert_eq!(from_windows(r"\\server\share\approval.md"), "//server/share/approval.md");
        assert_eq!(from_windows(r"..\a\approval.md. "), "../a/approval.md");
        assert_eq!(from_windows("approval.md::$DATA"), "approval.md");
        assert_eq!(from_windows("dir/approval.md:stream"), "dir/approval.md");
        assert_eq!(from_windows("$env:TEMP/x"), "$env:TEMP/x");
        assert_eq!(from_windows("./a/b"), "./a/b");
        assert_eq!(from_windows("/abs/unix/path"), "/abs/unix/path");
        assert!(is_approval_file(&absolute(from_windows(r"C:\R\APPROVAL.MD."), Path::new("/x"))));
        assert_eq!(plans_root(&absolute(from_windows(r"Docs\SuperPowers\Plans\a.md"), Path::new("/r"))), Some(p("/r")));
    }
}
