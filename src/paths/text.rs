//! The one test of "this text names a guarded location", for every analysis that cannot see the
//! paths a call writes (a command over a cap, a program whose writes are computed, an unknown
//! producer's words): the locations are spelled from [`super::PLANS_DIR`], [`super::SDD_DIR`] and
//! [`super::APPROVAL_FILE`], nowhere else.

use std::path::PathBuf;

use super::{APPROVAL_FILE, PLANS_DIR, SDD_DIR};

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
}

impl GuardedName {
    /// The guarded locations of a repository, as a text names them.
    pub const IN_REPOSITORY: [GuardedName; 3] = [GuardedName::Plans, GuardedName::Sdd, GuardedName::Approval];

    /// Where a write known only by this name is taken to land, relative to where the text runs
    /// (`*` for any plan).
    pub fn location(self) -> Option<PathBuf> {
        match self {
            GuardedName::Plans => Some(PLANS_DIR.iter().collect()),
            GuardedName::Sdd => Some(SDD_DIR.iter().chain(&["*"]).collect()),
            GuardedName::Approval => Some(PathBuf::from(APPROVAL_FILE)),
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

/// Does `text`, read in `dialect`, name a guarded location?
pub fn names_guarded(text: &str, dialect: Dialect) -> bool {
    let cleaned = cleaned(text, dialect);
    order().any(|name| names(&cleaned, name))
}

/// The first guarded location `text` names, in the order of [`GuardedName`].
pub fn guarded_named(text: &str, dialect: Dialect) -> Option<GuardedName> {
    let cleaned = cleaned(text, dialect);
    order().find(|&name| names(&cleaned, name))
}

fn order() -> impl Iterator<Item = GuardedName> {
    GuardedName::IN_REPOSITORY.into_iter()
}

/// `text` lower-cased without what never belongs to a name in `dialect`.
fn cleaned(text: &str, dialect: Dialect) -> Vec<u8> {
    let bytes = text.as_bytes();
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
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// `folder`'s components joined by `/` somewhere in `cleaned` (lower case).
fn contains_folder(cleaned: &[u8], folder: &[&str]) -> bool {
    let Some((first, rest)) = folder.split_first() else { return false };
    (0..cleaned.len()).any(|start| {
        let Some(mut at) =
            cleaned.get(start..).filter(|tail| tail.starts_with(first.as_bytes())).map(|_| start + first.len())
        else {
            return false;
        };
        rest.iter().all(|component| {
            let next = cleaned
                .get(at..)
                .is_some_and(|tail| tail.first() == Some(&b'/') && tail[1..].starts_with(component.as_bytes()));
            at += 1 + component.len();
            next
        })
    })
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
    fn a_name_stands_for_its_location() {
        assert_eq!(GuardedName::Plans.location(), Some(PathBuf::from("docs/superpowers/plans")));
        assert_eq!(GuardedName::Plans.everything_in(), Some(PathBuf::from("docs/superpowers/plans/*")));
        assert_eq!(GuardedName::Sdd.everything_in(), Some(PathBuf::from(".superpowers/sdd/*")));
        assert_eq!(GuardedName::Approval.location(), Some(PathBuf::from("approval.md")));
    }
}
