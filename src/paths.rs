//! Path rules (P-1, P-7, P-8): absolute lexical normalization, the guarded locations of a write
//! target, and the real path a write would land on.

use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

pub const PLANS_DIR: [&str; 3] = ["docs", "superpowers", "plans"];
pub const SDD_DIR: [&str; 2] = [".superpowers", "sdd"];
pub const CHANGES_DIR: [&str; 2] = ["openspec", "changes"];
pub const APPROVAL_FILE: &str = "approval.md";

/// The guarded locations as they appear in text, lower case: what every analysis that cannot be
/// sure of its targets (a command over a cap, a program whose writes are computed) looks for.
pub const GUARDED_NEEDLES: [&str; 3] = ["docs/superpowers/plans", ".superpowers/sdd", "approval.md"];

/// Does `text`, with line continuations, quotes and backslashes removed and compared
/// case-insensitively (P-7), name a guarded location? The one raw-text definition of "guarded
/// location", for every fallback that cannot see paths.
pub fn names_guarded_location(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut cleaned = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match byte {
            b'\\' if bytes.get(at) == Some(&b'\n') => at += 1,
            b'\\' if bytes.get(at..at + 2) == Some(b"\r\n") => at += 2,
            b'\\' | b'"' | b'\'' => {}
            _ => cleaned.push(byte.to_ascii_lowercase()),
        }
    }
    GUARDED_NEEDLES.iter().any(|needle| cleaned.windows(needle.len()).any(|window| window == needle.as_bytes()))
}

/// A path typed for Windows (PowerShell, `cmd`) in the `/` form the rest of this module reads,
/// resolved as the Windows file system would name the same file: `\` separates like `/`; a drive
/// (`C:\…`, `C:…`) and the `\\?\` / `\\.\` prefixes are dropped, so `C:\r\x` is `/r/x` and a
/// drive-relative `C:x` is `x` (a guarded location is a run of components anywhere in a path, so the
/// drive never decides it; on a host without drives, writes through one fail); each component loses
/// its trailing dots and blanks, and the last one its NTFS stream (`approval.md.`, `approval.md::$DATA` are
/// `approval.md`). Case is folded where the guarded locations are matched.
pub fn from_windows(text: &str) -> String {
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

/// Symlink hops followed before a path is taken as it stands (the kernel's own limit is 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// `path` made absolute against `base` and normalized lexically: `.`, empty segments and `..`
/// are folded without touching the file system.
pub fn absolute(path: impl AsRef<Path>, base: &Path) -> PathBuf {
    let path = path.as_ref();
    if path.is_absolute() { normalize(path) } else { normalize(&base.join(path)) }
}

/// Lexical normalization; `..` at the root stays at the root, as the kernel does it.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                let after_parent = matches!(out.components().next_back(), Some(Component::ParentDir));
                if after_parent || (!out.pop() && !path.has_root()) {
                    out.push("..");
                }
            }
        }
    }
    out
}

/// One safe path segment: a change id or a plan name (no separators, no `..`, no NUL, not empty).
pub fn is_safe_segment(segment: &str) -> bool {
    !segment.is_empty() && segment != "." && !segment.contains("..") && !segment.contains(['/', '\\', '\0'])
}

fn same_name(component: &OsStr, name: &str) -> bool {
    component.as_encoded_bytes().eq_ignore_ascii_case(name.as_bytes())
}

fn normal_components(path: &Path) -> Vec<&OsStr> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect()
}

/// Where the guarded `folder` starts in `path`: the index of its first component among the
/// path's normal components, matched case-insensitively (P-7: case-insensitive file systems).
fn find_folder(components: &[&OsStr], folder: &[&str]) -> Option<usize> {
    components
        .windows(folder.len())
        .position(|window| window.iter().zip(folder).all(|(component, name)| same_name(component, name)))
}

/// The path made of `path`'s prefix/root plus its first `count` normal components.
fn leading(path: &Path, count: usize) -> PathBuf {
    let mut out = PathBuf::new();
    let mut taken = 0;
    for component in path.components() {
        if let Component::Normal(_) = component {
            if taken == count {
                break;
            }
            taken += 1;
        }
        out.push(component.as_os_str());
    }
    out
}

/// The repository root of a target under `docs/superpowers/plans/` (the folder itself included).
pub fn plans_root(path: &Path) -> Option<PathBuf> {
    let components = normal_components(path);
    let at = find_folder(&components, &PLANS_DIR)?;
    Some(leading(path, at))
}

/// A target inside `.superpowers/sdd/<plan-name>/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SddTarget {
    pub root: PathBuf,
    pub plan_name: String,
}

pub fn sdd_target(path: &Path) -> Option<SddTarget> {
    let components = normal_components(path);
    let at = find_folder(&components, &SDD_DIR)?;
    let plan_name = components.get(at + SDD_DIR.len())?.to_string_lossy().into_owned();
    Some(SddTarget { root: leading(path, at), plan_name })
}

/// Gate C's match: the basename is `approval.md`, ignoring case (P-7).
pub fn is_approval_file(path: &Path) -> bool {
    path.file_name().is_some_and(|name| same_name(name, APPROVAL_FILE))
}

pub fn plan_file(root: &Path, plan_name: &str) -> PathBuf {
    let mut path = root.to_path_buf();
    path.extend(PLANS_DIR);
    path.push(format!("{plan_name}.md"));
    path
}

pub fn plans_dir(root: &Path) -> PathBuf {
    let mut path = root.to_path_buf();
    path.extend(PLANS_DIR);
    path
}

pub fn change_dir(root: &Path, change_id: &str) -> PathBuf {
    let mut path = root.to_path_buf();
    path.extend(CHANGES_DIR);
    path.push(change_id);
    path
}

pub fn approval_file(root: &Path, change_id: &str) -> PathBuf {
    change_dir(root, change_id).join(APPROVAL_FILE)
}

/// The file a write to `path` would really touch (P-8): the resolved path when it exists, the
/// target of a dangling symlink, else the real path of its deepest existing ancestor with the
/// missing tail appended. `path` must be absolute and normalized.
pub fn real_path(path: &Path) -> PathBuf {
    resolve(path, 0)
}

fn resolve(path: &Path, hops: usize) -> PathBuf {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_path_buf();
    };
    // The parent first: a new file in an existing directory then costs no failing lookups.
    let real_parent = match fs::canonicalize(parent) {
        Ok(real) => real,
        Err(_) if hops < MAX_SYMLINK_HOPS => resolve(parent, hops + 1),
        Err(_) => parent.to_path_buf(),
    };
    let candidate = real_parent.join(name);
    match fs::symlink_metadata(&candidate) {
        // A symlink, dangling or not: the write lands on its target.
        Ok(meta) if meta.file_type().is_symlink() && hops < MAX_SYMLINK_HOPS => match fs::read_link(&candidate) {
            Ok(target) => resolve(&absolute(target, &real_parent), hops + 1),
            Err(_) => candidate,
        },
        _ => candidate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn absolute_folds_dots_and_double_slashes() {
        let cwd = p("/repo/sub");
        assert_eq!(absolute("./a//b/../c.md", &cwd), p("/repo/sub/a/c.md"));
        assert_eq!(absolute("../../../x", &cwd), p("/x"));
        assert_eq!(absolute("/abs/./y", &cwd), p("/abs/y"));
        assert_eq!(absolute("", &cwd), p("/repo/sub"));
    }

    #[test]
    fn normalize_is_idempotent() {
        for raw in ["/a/../../b/./c//d/", "rel/../../x", "../..", "/", "./", "a/b/.."] {
            let once = normalize(Path::new(raw));
            assert_eq!(normalize(&once), once, "{raw}");
        }
    }

    #[test]
    fn plans_root_is_the_prefix_before_the_folder() {
        assert_eq!(plans_root(&p("/r/docs/superpowers/plans/x.md")), Some(p("/r")));
        assert_eq!(
            plans_root(&p("/r/.claude/worktrees/s/docs/superpowers/plans/x.md")),
            Some(p("/r/.claude/worktrees/s"))
        );
        assert_eq!(plans_root(&p("/r/docs/superpowers/plans")), Some(p("/r")));
        assert_eq!(plans_root(&p("/r/Docs/SuperPowers/PLANS/x.md")), Some(p("/r")));
        assert_eq!(plans_root(&p("/r/mydocs/superpowers/plans/x.md")), None);
        assert_eq!(plans_root(&p("/r/docs/superpowers/plansx/x.md")), None);
        assert_eq!(plans_root(&p("/r/docs/superpowers/specs/x.md")), None);
    }

    #[test]
    fn sdd_target_names_the_plan() {
        assert_eq!(
            sdd_target(&p("/r/.superpowers/sdd/p1/progress.md")),
            Some(SddTarget { root: p("/r"), plan_name: "p1".into() })
        );
        assert_eq!(sdd_target(&p("/r/.superpowers/sdd/p1")), Some(SddTarget { root: p("/r"), plan_name: "p1".into() }));
        assert_eq!(sdd_target(&p("/r/.superpowers/sdd")), None);
        assert_eq!(sdd_target(&p("/r/superpowers/sdd/p1/x")), None);
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

    #[test]
    fn approval_basename_ignores_case() {
        assert!(is_approval_file(&p("/r/openspec/changes/x/approval.md")));
        assert!(is_approval_file(&p("/anywhere/APPROVAL.MD")));
        assert!(!is_approval_file(&p("/r/approval.md.bak")));
        assert!(!is_approval_file(&p("/r/my-approval.md")));
    }

    #[test]
    fn safe_segments() {
        for ok in ["feat-x", "2026-10-25-a.b", "<id>"] {
            assert!(is_safe_segment(ok), "{ok}");
        }
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "a\0b", "x..y"] {
            assert!(!is_safe_segment(bad), "{bad:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn real_path_follows_links_existing_or_not() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("test fixture");
        let root = fs::canonicalize(dir.path()).expect("test fixture");
        let plans = root.join("docs/superpowers/plans");
        fs::create_dir_all(&plans).expect("test fixture");
        symlink(&plans, root.join("shortcut")).expect("test fixture");
        symlink("openspec/changes/c/approval.md", root.join("dangling.md")).expect("test fixture");

        assert_eq!(real_path(&root.join("shortcut/new.md")), plans.join("new.md"));
        assert_eq!(real_path(&root.join("shortcut/a/b.md")), plans.join("a/b.md"));
        assert_eq!(real_path(&root.join("dangling.md")), root.join("openspec/changes/c/approval.md"));
        assert_eq!(real_path(&root.join("plain/x.rs")), root.join("plain/x.rs"));

        symlink("loop", root.join("loop")).expect("test fixture");
        assert_eq!(real_path(&root.join("loop")), root.join("loop"));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn raw_path() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec!["a", "b", "docs", "..", ".", "", "x y", "ü"]);
        (any::<bool>(), prop::collection::vec(segment, 0..12))
            .prop_map(|(rooted, segments)| format!("{}{}", if rooted { "/" } else { "" }, segments.join("/")))
    }

    proptest! {
        #[test]
        fn normalization_is_idempotent(raw in raw_path()) {
            let once = normalize(Path::new(&raw));
            prop_assert_eq!(normalize(&once), once);
        }

        #[test]
        fn absolute_paths_have_no_dot_segments(raw in raw_path(), base in raw_path()) {
            let base = absolute(&base, Path::new("/base"));
            let path = absolute(&raw, &base);
            prop_assert!(path.is_absolute());
            prop_assert!(path.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_))));
            prop_assert_eq!(absolute(&path, Path::new("/elsewhere")), path);
        }
    }
}
