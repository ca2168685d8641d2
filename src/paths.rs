//! Path rules (P-1, P-7, P-8): absolute lexical normalization, the guarded locations of a write
//! target, and the real path a write would land on.

use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::analysis;

pub const PLANS_DIR: [&str; 3] = ["docs", "superpowers", "plans"];
pub const SDD_DIR: [&str; 2] = [".superpowers", "sdd"];
pub const CHANGES_DIR: [&str; 2] = ["openspec", "changes"];
pub const APPROVAL_FILE: &str = "approval.md";

mod glob;
pub mod ledger;
#[cfg(target_os = "linux")]
mod symlink_free;
mod text;
mod uri;
mod windows;

pub use glob::{glob_from, glob_matches, guarded_ancestor_glob_matches, guarded_folders_spelled, guarded_glob_matches};
pub use text::{
    Dialect, GuardedName, everything_a_tree_named_reaches, everything_named, guarded_named, names_changes_folder,
    names_guarded, names_this,
};
pub use uri::file_uri_path;
pub use windows::from_windows;

/// Symlink hops followed before a path is taken as it stands (the kernel's own limit is 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// `path` made absolute against `base` and normalized lexically: `.`, empty segments and `..`
/// are folded without touching the file system.
pub fn absolute(path: impl AsRef<Path>, base: &Path) -> PathBuf {
    let path = path.as_ref();
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        // Sized once: `join` copies `base` and then grows for `path`.
        let mut joined = PathBuf::with_capacity(base.as_os_str().len() + 1 + path.as_os_str().len());
        joined.push(base);
        joined.push(path);
        joined
    };
    if is_normal(&joined) { joined } else { normalize(&joined) }
}

/// Whether a shell's `cd directory` from `base` cannot fail: a plain name
/// ([`analysis::fs::is_plain_directory_name`]) of a directory that exists and anyone may enter.
pub fn sure_to_enter(directory: &str, base: &Path) -> bool {
    analysis::fs::is_plain_directory_name(directory) && analysis::fs::anyone_can_enter(&absolute(directory, base))
}

/// Lexical normalization; `..` at the root stays at the root, as the kernel does it.
pub fn normalize(path: &Path) -> PathBuf {
    if is_normal(path) { path.to_path_buf() } else { fold_components(path) }
}

/// [`normalize`] the long way: component by component.
fn fold_components(path: &Path) -> PathBuf {
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

/// Whether [`normalize`] would give `path` back as it is: no empty, `.` or `..` segment and no
/// trailing slash. Most paths are, and skip the component walk (a tenth of a first-sight call).
/// Only Unix separators are read; elsewhere every path takes the walk.
fn is_normal(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    let relative = bytes.strip_prefix(b"/").unwrap_or(bytes);
    cfg!(unix)
        && (bytes.is_empty() || !relative.is_empty())
        && relative.split(|&byte| byte == b'/').all(|segment| !matches!(segment, b"" | b"." | b".."))
}

/// One safe path segment: a change id or a plan name (no separators, no `..`, no NUL, not empty).
pub fn is_safe_segment(segment: &str) -> bool {
    !segment.is_empty() && segment != "." && !segment.contains("..") && !segment.contains(['/', '\\', '\0'])
}

fn same_name(component: &OsStr, name: &str) -> bool {
    component.as_encoded_bytes().eq_ignore_ascii_case(name.as_bytes())
}

#[cfg(unix)]
fn normal_components(path: &Path) -> Vec<&OsStr> {
    use std::os::unix::ffi::OsStrExt;
    // What `Components` yields as normal on Unix, without its per-component state machine.
    let segments = path.as_os_str().as_bytes().split(|&byte| byte == b'/');
    segments.filter(|segment| !matches!(*segment, b"" | b"." | b"..")).map(OsStr::from_bytes).collect()
}

#[cfg(not(unix))]
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

/// The name under `openspec/changes/` that holds archived changes, not a change.
pub const ARCHIVE_DIR: &str = "archive";

/// A change directory `…/openspec/changes/<id>` (not the archive): its approval.md is guarded.
pub fn is_change_dir(path: &Path) -> bool {
    let components = normal_components(path);
    match components.len().checked_sub(CHANGES_DIR.len() + 1) {
        Some(at) => {
            find_folder(components.get(at..at + CHANGES_DIR.len()).unwrap_or_default(), &CHANGES_DIR) == Some(0)
                && components.last().is_some_and(|id| !same_name(id, ARCHIVE_DIR))
        }
        None => false,
    }
}

/// The folders that hold guarded files, each with what a tree written there can create inside it
/// (`*`: any change, any plan), in the order the gates report them.
const GUARDED_FOLDERS: [(&[&str], &[&str]); 3] =
    [(&CHANGES_DIR, &["*", APPROVAL_FILE]), (&PLANS_DIR, &[]), (&SDD_DIR, &["*"])];

pub use crate::analysis::answer::Reach;

/// The guarded locations a write under `dir` (absolute, normalized) can create or replace, in the
/// order the gates report them: approval.md (a glob `*` stands for any change), then the plans
/// folder, then sdd (`*` for any plan). Empty when nothing guarded lies under it.
pub fn guarded_beneath(dir: &Path, reach: Reach) -> Vec<PathBuf> {
    if !may_name_guarded(dir.as_os_str().as_encoded_bytes()) {
        return match reach {
            Reach::File | Reach::Named => Vec::new(),
            // A tree can create the ledger's folder beneath a folder that holds it.
            Reach::Tree if ledger::reaches_ledger(dir) => vec![dir.to_path_buf()],
            Reach::Tree => holders_on_disk(dir),
        };
    }
    if is_guarded(dir) {
        return vec![dir.to_path_buf()];
    }
    if reach == Reach::File {
        return Vec::new();
    }
    if is_change_dir(dir) {
        return vec![dir.join(APPROVAL_FILE)];
    }
    let components = normal_components(dir);
    let mut found = Vec::new();
    for (folder, inside) in GUARDED_FOLDERS {
        // The longest part of the folder the path ends with; the rest of the folder lies below.
        let Some(taken) = (0..=folder.len()).rev().find(|&taken| ends_with_folder(&components, folder, taken)) else {
            continue;
        };
        let missing = folder.get(taken..).unwrap_or_default();
        let mut below = dir.to_path_buf();
        below.extend(missing);
        // A tree written into `docs/` can create the rest of the folder; a name alone reaches
        // only what exists, and only a tree reaches into a directory that merely holds one.
        let reaches = match (taken, reach) {
            _ if missing.is_empty() => true,
            (_, Reach::File) | (0, Reach::Named) => false,
            (0, Reach::Tree) | (_, Reach::Named) => crate::analysis::fs::is_dir(&below),
            (_, Reach::Tree) => true,
        };
        if reaches {
            below.extend(inside);
            found.push(below);
        }
    }
    found
}

/// The guarded locations a command may write in `dir` by writing where it runs, naming nothing:
/// in a guarded folder (the plans folder or one in it, a change, the changes folder,
/// `.superpowers/sdd` or one in it) what it may create there; nothing in a folder that merely
/// holds one (`docs/`) or lies in a change (`openspec/changes/c/specs`).
pub fn guarded_here(dir: &Path) -> Vec<PathBuf> {
    let components = normal_components(dir);
    let is_folder = GUARDED_FOLDERS.iter().any(|(folder, _)| ends_with_folder(&components, folder, folder.len()));
    if is_folder || is_guarded(dir) || is_change_dir(dir) { guarded_beneath(dir, Reach::Named) } else { Vec::new() }
}

/// Could a path with this text (or one beneath it) name a guarded location lexically? Every
/// one holds one of these words, case aside; most words hold none, and skip the path work.
pub fn may_name_guarded(text: &[u8]) -> bool {
    const WORDS: [&str; 5] = [CHANGES_DIR[0], PLANS_DIR[0], SDD_DIR[0], APPROVAL_FILE, ledger::FOLDER];
    WORDS.iter().any(|word| holds(text, word))
}

/// Whether `text` holds `word`, case aside.
fn holds(text: &[u8], word: &str) -> bool {
    text.windows(word.len()).any(|window| window.eq_ignore_ascii_case(word.as_bytes()))
}

/// Whether `path`'s text holds `word`, case aside: a component named so does (P-7), so a path
/// without it skips the component work.
fn holds_word(path: &Path, word: &str) -> bool {
    holds(path.as_os_str().as_encoded_bytes(), word)
}

/// The guarded folders a directory holds on disk (a repository root), approval.md first.
fn holders_on_disk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (folder, inside) in GUARDED_FOLDERS {
        let mut below = dir.to_path_buf();
        below.extend(folder);
        if crate::analysis::fs::is_dir(&below) {
            below.extend(inside);
            found.push(below);
        }
    }
    found
}

fn ends_with_folder(components: &[&OsStr], folder: &[&str], taken: usize) -> bool {
    let Some(start) = components.len().checked_sub(taken) else { return false };
    let tail = components.get(start..).unwrap_or_default();
    tail.iter().zip(folder).all(|(component, name)| same_name(component, name))
}

/// The repository root of a target under `docs/superpowers/plans/` (the folder itself included).
pub fn plans_root(path: &Path) -> Option<PathBuf> {
    if !holds_word(path, PLANS_DIR[1]) {
        return None;
    }
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
    if !holds_word(path, SDD_DIR[0]) {
        return None;
    }
    let components = normal_components(path);
    let at = find_folder(&components, &SDD_DIR)?;
    let plan_name = components.get(at + SDD_DIR.len())?.to_string_lossy().into_owned();
    Some(SddTarget { root: leading(path, at), plan_name })
}

/// Whether a write to `path` (absolute, normalized) is one the gates judge: approval.md, the
/// plans folder or a file in it, a plan's sdd folder, the ledger's folder (P-17).
pub fn is_guarded(path: &Path) -> bool {
    is_approval_file(path) || plans_root(path).is_some() || sdd_target(path).is_some() || ledger::reaches_ledger(path)
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

/// A change's approval.md as a command names it, relative to the repository root.
pub fn approval_text(change_id: &str) -> String {
    format!("{}/{change_id}/{APPROVAL_FILE}", CHANGES_DIR.join("/"))
}

/// A guarded folder as text names it, with the `/` a name inside it follows (`docs/superpowers/plans/`).
pub fn folder_text(folder: &[&str]) -> String {
    let mut text = folder.join("/");
    text.push('/');
    text
}

/// The file a write to `path` would really touch (P-8): the resolved path when it exists, the
/// target of a dangling symlink, else the real path of its deepest existing ancestor with the
/// missing tail appended. `path` must be absolute and normalized.
pub fn real_path(path: &Path) -> PathBuf {
    #[cfg(target_os = "linux")]
    if symlink_free::lands_on_itself(path) {
        return path.to_path_buf();
    }
    resolve(path, 0)
}

/// The portable resolution of [`real_path`]: follows every link, one directory at a time.
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
    fn approval_basename_ignores_case() {
        assert!(is_approval_file(&p("/r/openspec/changes/x/approval.md")));
        assert!(is_approval_file(&p("/anywhere/APPROVAL.MD")));
        assert!(!is_approval_file(&p("/r/approval.md.bak")));
        assert!(!is_approval_file(&p("/r/my-approval.md")));
    }

    #[test]
    fn change_dirs_exclude_the_archive() {
        assert!(is_change_dir(&p("/r/openspec/changes/c")));
        assert!(is_change_dir(&p("/r/OpenSpec/Changes/c")));
        assert!(!is_change_dir(&p("/r/openspec/changes/archive")));
        assert!(!is_change_dir(&p("/r/openspec/changes/archive/2026-01-01-c")));
        assert!(!is_change_dir(&p("/r/openspec/changes")));
        assert!(!is_change_dir(&p("/r/openspec/changes/c/specs")));
        assert!(!is_change_dir(&p("/c")));
    }

    #[test]
    fn guarded_beneath_by_name() {
        let named = |path: &str| guarded_beneath(&p(path), Reach::Named);
        assert_eq!(named("/r/openspec/changes/c"), vec![p("/r/openspec/changes/c/approval.md")]);
        assert_eq!(named("/r/openspec/changes"), vec![p("/r/openspec/changes/*/approval.md")]);
        assert_eq!(named("/r/.superpowers/sdd"), vec![p("/r/.superpowers/sdd/*")]);
        assert_eq!(named("/r/docs/superpowers/plans/x.md"), vec![p("/r/docs/superpowers/plans/x.md")]);
        assert_eq!(named("/r/x/APPROVAL.md"), vec![p("/r/x/APPROVAL.md")]);
        // A partial folder or a repository root reaches nothing by name when nothing is on disk.
        assert_eq!(named("/nonexistent/docs"), Vec::<PathBuf>::new());
        assert_eq!(named("/nonexistent"), Vec::<PathBuf>::new());
        assert_eq!(named("/r/openspec/changes/archive/c"), Vec::<PathBuf>::new());
        assert_eq!(named("/r/src/main.rs"), Vec::<PathBuf>::new());
    }

    #[test]
    fn guarded_beneath_a_tree() {
        let tree = |path: &Path| guarded_beneath(path, Reach::Tree);
        assert_eq!(tree(&p("/nonexistent/docs")), vec![p("/nonexistent/docs/superpowers/plans")]);
        assert_eq!(tree(&p("/nonexistent/openspec")), vec![p("/nonexistent/openspec/changes/*/approval.md")]);
        assert_eq!(tree(&p("/nonexistent/.superpowers")), vec![p("/nonexistent/.superpowers/sdd/*")]);
        assert_eq!(tree(&p("/nonexistent/src")), Vec::<PathBuf>::new());
        let dir = tempfile::tempdir().expect("test fixture");
        let root = dir.path();
        fs::create_dir_all(root.join("openspec/changes")).expect("test fixture");
        fs::create_dir_all(root.join("docs/superpowers/plans")).expect("test fixture");
        // A repository root: approval.md first, then the plans folder; sdd is not on disk.
        assert_eq!(tree(root), vec![root.join("openspec/changes/*/approval.md"), root.join("docs/superpowers/plans")]);
        assert_eq!(guarded_beneath(root, Reach::Named), Vec::<PathBuf>::new());
        assert_eq!(guarded_beneath(&root.join("docs"), Reach::Named), vec![root.join("docs/superpowers/plans")]);
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

    /// A tree with every shape P-8 meets: plain directories and files, links to directories and
    /// files, chains, dangling links, loops, a file used as a directory.
    #[cfg(unix)]
    fn linked_tree() -> (tempfile::TempDir, PathBuf) {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("test fixture");
        let root = fs::canonicalize(dir.path()).expect("test fixture");
        let plans = root.join("docs/superpowers/plans");
        fs::create_dir_all(&plans).expect("test fixture");
        fs::create_dir_all(root.join("src/deep")).expect("test fixture");
        fs::write(root.join("src/x.rs"), "").expect("test fixture");
        symlink(&plans, root.join("src/deep/notes")).expect("test fixture");
        symlink("deep/notes", root.join("src/chained")).expect("test fixture");
        symlink("x.rs", root.join("src/alias.rs")).expect("test fixture");
        symlink("../openspec/changes/c/approval.md", root.join("src/dangling.md")).expect("test fixture");
        symlink("loop", root.join("src/loop")).expect("test fixture");
        (dir, root)
    }

    const SYMLINK_FREE: [&str; 5] =
        ["src/x.rs", "src/new.rs", "src/deep", "src/missing/a/b.rs", "docs/superpowers/plans/p.md"];
    const LINKED: [&str; 6] =
        ["src/deep/notes/x.md", "src/chained/a/b.md", "src/alias.rs", "src/dangling.md", "src/loop", "src/x.rs/y"];

    #[cfg(target_os = "linux")]
    #[test]
    fn openat2_answers_symlink_free_paths_and_leaves_the_rest_to_the_walk() {
        let (_dir, root) = linked_tree();
        if !symlink_free::lands_on_itself(Path::new("/")) {
            eprintln!("openat2 is not available here: only the portable resolution is tested");
            return;
        }
        for relative in SYMLINK_FREE {
            assert!(symlink_free::lands_on_itself(&root.join(relative)), "{relative}");
        }
        for relative in LINKED {
            assert!(!symlink_free::lands_on_itself(&root.join(relative)), "{relative}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_fast_path_and_the_portable_walk_agree() {
        let (_dir, root) = linked_tree();
        for relative in SYMLINK_FREE.iter().chain(&LINKED) {
            let path = root.join(relative);
            assert_eq!(real_path(&path), resolve(&path, 0), "{relative}");
        }
        let plans = root.join("docs/superpowers/plans");
        assert_eq!(real_path(&root.join("src/chained/a/b.md")), plans.join("a/b.md"));
        assert_eq!(real_path(&root.join("src/dangling.md")), root.join("openspec/changes/c/approval.md"));
        assert_eq!(real_path(&root.join("src/missing/a/b.rs")), root.join("src/missing/a/b.rs"));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn raw_path() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec!["a", "b", "docs", "..", ".", "", "x y", "ü", ".a", "a.", "..."]);
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
        fn the_shortcuts_agree_with_the_component_walk(raw in raw_path()) {
            let path = Path::new(&raw);
            let (short, long) = (normalize(path), fold_components(path));
            // Bytes, not `Path` equality, which ignores doubled and trailing slashes.
            prop_assert_eq!(short.as_os_str(), long.as_os_str());
            let walked: Vec<&OsStr> = path.components().filter_map(|c| match c {
                Component::Normal(name) => Some(name),
                _ => None,
            }).collect();
            prop_assert_eq!(normal_components(path), walked);
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
