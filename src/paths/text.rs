//! The one test of "this text names a guarded location", for every analysis that cannot see the
//! paths a call writes (a command over a cap, a program whose writes are computed, an unknown
//! producer's words): the locations are spelled from [`super::PLANS_DIR`], [`super::SDD_DIR`],
//! [`super::APPROVAL_FILE`] and the ledger's folder ([`super::ledger`]), nowhere else.

use std::path::PathBuf;

use super::{APPROVAL_FILE, CHANGES_DIR, PLANS_DIR, SDD_DIR, ledger};

/// How a text spells paths. Case is ignored in every dialect (P-7: case-insensitive file systems).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Bash words and command lines: quotes, backslashes and line continuations never belong to a
    /// name (`docs/super\
    /// powers/plans`, `'approval'.md`).
    Bash,
    /// PowerShell: backticks escape, `\` separates like `/`, quotes never belong to a name.
    PowerShell,
    /// A program's text (Python, JavaScript, …): its quotes and escapes read as Bash reads them.
    Program,
    /// Any other text (a patch over its parser's caps): read as Bash words.
    Raw,
}

/// A guarded location a text names, in the order the gates report them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardedName {
    Plans,
    Sdd,
    Approval,
    /// The approval ledger's folder (P-17).
    Ledger,
}

impl GuardedName {
    /// The guarded locations of a repository, as a text names them.
    pub const IN_REPOSITORY: [GuardedName; 3] = [GuardedName::Plans, GuardedName::Sdd, GuardedName::Approval];

    /// Where a write known only by this name is taken to land: relative to where the text runs
    /// (`*` for any plan), the ledger's folder as the environment names it; `None` when no
    /// ledger folder is set.
    pub fn location(self) -> Option<PathBuf> {
        match self {
            GuardedName::Plans => Some(PLANS_DIR.iter().collect()),
            GuardedName::Sdd => Some(SDD_DIR.iter().chain(&["*"]).collect()),
            GuardedName::Approval => Some(PathBuf::from(APPROVAL_FILE)),
            GuardedName::Ledger => ledger::ledger_folder(),
        }
    }

    /// Every file this name can stand for: the plans folder's files (`…/plans/*`), else as
    /// [`GuardedName::location`].
    pub fn everything_in(self) -> Option<PathBuf> {
        match self {
            GuardedName::Plans => Some(PLANS_DIR.iter().chain(&["*"]).collect()),
            _ => self.location(),
        }
    }
}

/// Every file the guarded locations `text` names can stand for ([`GuardedName::everything_in`]):
/// where a write whose target the analysis could not compute may land (P-18).
pub fn everything_named(text: &str, dialect: Dialect) -> Vec<PathBuf> {
    with_cleaned(text, dialect, |cleaned| {
        order().filter(|&name| names(cleaned, name)).filter_map(GuardedName::everything_in).collect()
    })
}

/// [`everything_named`] for a tree written where a value the analysis could not compute points:
/// a text that names the changes folder (`openspec/changes/feat.orig`) can point at a change,
/// and a tree written into a change holds its approval.md.
pub fn everything_a_tree_named_reaches(text: &str, dialect: Dialect) -> Vec<PathBuf> {
    let mut found = everything_named(text, dialect);
    let approval = PathBuf::from(APPROVAL_FILE);
    if !found.contains(&approval) && names_changes_folder(text, dialect) {
        found.push(approval);
    }
    found
}

/// Whether `text` names the changes folder (`openspec/changes`, a change or anything in it).
pub fn names_changes_folder(text: &str, dialect: Dialect) -> bool {
    with_cleaned(text, dialect, |cleaned| contains_folder(cleaned, &CHANGES_DIR))
}

/// Does `text`, read in `dialect`, name a guarded location?
pub fn names_guarded(text: &str, dialect: Dialect) -> bool {
    with_cleaned(text, dialect, |cleaned| order().any(|name| names(cleaned, name)))
}

/// The first guarded location `text` names, in the order of [`GuardedName`].
pub fn guarded_named(text: &str, dialect: Dialect) -> Option<GuardedName> {
    with_cleaned(text, dialect, |cleaned| order().find(|&name| names(cleaned, name)))
}

/// Whether `text` names the guarded location `name`.
pub fn names_this(text: &str, dialect: Dialect, name: GuardedName) -> bool {
    with_cleaned(text, dialect, |cleaned| names(cleaned, name))
}

fn order() -> impl Iterator<Item = GuardedName> {
    GuardedName::IN_REPOSITORY.into_iter().chain([GuardedName::Ledger])
}

/// `body` of `text` lower-cased without what never belongs to a name in `dialect`. Most texts
/// asked about (a program's string literals, words) are already so, and are read in place.
fn with_cleaned<T>(text: &str, dialect: Dialect, body: impl FnOnce(&[u8]) -> T) -> T {
    let bytes = text.as_bytes();
    if bytes.iter().all(|&byte| !byte.is_ascii_uppercase() && !removed(dialect, byte)) {
        return body(bytes);
    }
    body(&cleaned(bytes, dialect))
}

/// A byte cleaning drops or changes (besides case).
fn removed(dialect: Dialect, byte: u8) -> bool {
    match dialect {
        Dialect::PowerShell => matches!(byte, b'`' | b'"' | b'\'' | b'\\'),
        _ => matches!(byte, b'"' | b'\'' | b'\\'),
    }
}

fn cleaned(bytes: &[u8], dialect: Dialect) -> Vec<u8> {
    let mut cleaned = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match (dialect, byte) {
            (Dialect::PowerShell, b'`' | b'"' | b'\'') => {}
            (Dialect::PowerShell, b'\\') => cleaned.push(b'/'),
            (Dialect::PowerShell, _) => cleaned.push(byte.to_ascii_lowercase()),
            (_, b'\\') if bytes.get(at) == Some(&b'\n') => at += 1,
            (_, b'\\') if bytes.get(at..at + 2) == Some(b"\r\n") => at += 2,
            (_, b'\\' | b'"' | b'\'') => {}
            _ => cleaned.push(byte.to_ascii_lowercase()),
        }
    }
    cleaned
}

fn names(cleaned: &[u8], name: GuardedName) -> bool {
    match name {
        GuardedName::Plans => contains_folder(cleaned, &PLANS_DIR),
        GuardedName::Sdd => contains_folder(cleaned, &SDD_DIR),
        GuardedName::Approval => contains(cleaned, APPROVAL_FILE.as_bytes()),
        GuardedName::Ledger => names_ledger(cleaned),
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first().filter(|_| needle.len() <= haystack.len()) else { return false };
    followed_by(haystack, first, |after| after.starts_with(rest))
}

/// Whether some `first` in `haystack` is followed by bytes `rest_matches` accepts: found by the
/// byte first, since most texts hold a guarded name's first byte rarely.
fn followed_by(haystack: &[u8], first: u8, rest_matches: impl Fn(&[u8]) -> bool) -> bool {
    let mut tail = haystack;
    while let Some(at) = tail.iter().position(|&byte| byte == first) {
        tail = tail.get(at + 1..).unwrap_or_default();
        if rest_matches(tail) {
            return true;
        }
    }
    false
}

/// `folder`'s components joined by `/` somewhere in `cleaned` (lower case).
fn contains_folder(cleaned: &[u8], folder: &[&str]) -> bool {
    let Some((first, rest)) = folder.split_first() else { return false };
    let spelled = folder.iter().map(|component| component.len()).sum::<usize>() + rest.len();
    if spelled > cleaned.len() {
        return false;
    }
    let Some((&first_byte, first_rest)) = first.as_bytes().split_first() else { return false };
    followed_by(cleaned, first_byte, |after| {
        let Some(mut tail) = after.strip_prefix(first_rest) else { return false };
        rest.iter().all(|component| {
            match tail.strip_prefix(b"/").and_then(|tail| tail.strip_prefix(component.as_bytes())) {
                Some(next) => {
                    tail = next;
                    true
                }
                None => false,
            }
        })
    })
}

/// The names a command gives the folder that holds the ledger's folder, by the variable it
/// comes from (`~/.local/state`, `$XDG_STATE_HOME`, `${XDG_STATE_HOME}`, `$env:LOCALAPPDATA`,
/// `%LOCALAPPDATA%`): how the last of its components ends.
const STATE_FOLDER_ENDINGS: [&[u8]; 3] = [b"state", b"state_home", b"localappdata"];

/// The ledger's folder in `cleaned`: as the environment names it now, or as `approval-gates`
/// beneath a state folder however the command spells that folder.
fn names_ledger(cleaned: &[u8]) -> bool {
    let name = ledger::FOLDER.as_bytes();
    if !contains(cleaned, name) {
        return false;
    }
    let named_now = ledger::with_current_folder(|folder| {
        folder.is_some_and(|folder| {
            let spelled = folder.to_string_lossy().replace('\\', "/").to_ascii_lowercase();
            contains(cleaned, spelled.as_bytes())
        })
    });
    named_now
        || (1..cleaned.len()).any(|at| {
            let (before, after) = cleaned.split_at(at);
            let whole =
                after.strip_prefix(name).is_some_and(|rest| rest.first().is_none_or(|&next| !is_name_byte(next)));
            whole && before.ends_with(b"/") && {
                let segment = &before[..before.len() - 1];
                let start = segment.iter().rposition(|&byte| byte == b'/' || !is_name_byte(byte) && byte != b'$');
                let last = segment.get(start.map_or(0, |start| start + 1)..).unwrap_or_default();
                let last = trim_end(last, b"}%)");
                STATE_FOLDER_ENDINGS.iter().any(|ending| last.ends_with(ending))
            }
        })
}

fn trim_end<'b>(mut bytes: &'b [u8], trailing: &[u8]) -> &'b [u8] {
    while let Some((last, rest)) = bytes.split_last()
        && trailing.contains(last)
    {
        bytes = rest;
    }
    bytes
}

/// Bytes a path component is made of, for the ledger's folder name and the one before it.
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-' | b'}' | b'%' | b')' | b'{' | b'(' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dialect_reads_its_own_escapes() {
        assert!(names_guarded("docs/super\\\npowers/plans/x.md", Dialect::Bash));
        assert!(names_guarded("'approval'.md", Dialect::Bash));
        assert!(names_guarded(r"docs\superpowers\plans\x.md", Dialect::PowerShell));
        assert!(!names_guarded(r"docs\superpowers\plans\x.md", Dialect::Bash));
        assert!(names_guarded("approv`al.md", Dialect::PowerShell));
        assert!(names_guarded("open('APPROVAL.md', 'w')", Dialect::Program));
        assert!(!names_guarded("docs/superpowers/specs/x.md", Dialect::Raw));
        assert_eq!(guarded_named(r"'{0}\.superpowers\sdd' -f $d", Dialect::PowerShell), Some(GuardedName::Sdd));
        assert_eq!(guarded_named("x approval.md docs/superpowers/plans", Dialect::Bash), Some(GuardedName::Plans));
    }

    #[test]
    fn the_ledger_is_named_however_its_state_folder_is_spelled() {
        for named in [
            "unknowncmd ~/.local/state/approval-gates/repos/x.ledger",
            "rm -rf $HOME/.local/state/approval-gates",
            "tool ${XDG_STATE_HOME}/approval-gates/repos",
            "tool \"$XDG_STATE_HOME\"/approval-gates",
        ] {
            assert!(names_guarded(named, Dialect::Bash), "{named}");
            assert_eq!(guarded_named(named, Dialect::Bash), Some(GuardedName::Ledger), "{named}");
        }
        for named in
            [r"Remove-Item $env:LOCALAPPDATA\approval-gates -Recurse", r"x %LOCALAPPDATA%\Approval-Gates\repos"]
        {
            assert!(names_guarded(named, Dialect::PowerShell), "{named}");
        }
        let folder = ledger::ledger_folder().expect("a test ledger folder");
        assert!(names_guarded(&format!("tool {}", folder.join("repos/x.ledger").display()), Dialect::Raw));
        for not_named in [
            "npx approval-gates approve c plan",
            "cargo test -p approval-gates",
            "ls ~/.local/state/approval-gates-old",
            "cd /src/approval-gates/src",
            "ls node_modules/approval-gates/index.js",
        ] {
            assert!(!names_guarded(not_named, Dialect::Bash), "{not_named}");
        }
    }

    #[test]
    fn a_name_stands_for_its_location() {
        assert_eq!(GuardedName::Plans.location(), Some(PathBuf::from("docs/superpowers/plans")));
        assert_eq!(GuardedName::Plans.everything_in(), Some(PathBuf::from("docs/superpowers/plans/*")));
        assert_eq!(GuardedName::Sdd.everything_in(), Some(PathBuf::from(".superpowers/sdd/*")));
        assert_eq!(GuardedName::Approval.location(), Some(PathBuf::from("approval.md")));
        assert_eq!(GuardedName::Ledger.location(), ledger::ledger_folder());
    }
}
