//! Values and variables as both shells' walks keep them, and the one wildcard matcher of both
//! dialects (bash's glob, PowerShell's wildcard).

use std::collections::HashMap;

/// One possible value of a variable or a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub text: String,
    /// Part of the value is unknown and kept as source text (`$D/approval.md`, `$d\approval.md`).
    pub dynamic: bool,
    /// What its unknown parts may hold (for a value that has some).
    pub holes: Holes,
}

impl Value {
    pub fn literal(text: &str) -> Value {
        Value { text: text.to_string(), dynamic: false, holes: Holes::Any }
    }

    /// A value of `text`, `dynamic` when part of it is source text standing for the unknown.
    pub fn new(text: String, dynamic: bool) -> Value {
        Value { text, dynamic, holes: Holes::Any }
    }

    /// A value that is one unknown part holding `holes`, spelled [`HOLE`].
    pub fn hole(holes: Holes) -> Value {
        Value { text: HOLE.to_string(), dynamic: true, holes }
    }

    /// What `$name` reads as where the walk does not know it.
    pub fn unset(name: &str) -> Value {
        Value::unknown(&format!("${name}"))
    }

    /// An unknown part kept as its source text, cut to [`MAX_PLACEHOLDER_CHARS`] characters.
    pub fn unknown(text: &str) -> Value {
        let text: String = text.chars().take(MAX_PLACEHOLDER_CHARS).collect();
        Value { text, dynamic: true, holes: Holes::Any }
    }
}

/// What the parts of a value the walk could not compute may hold, narrowest first. A part that
/// provably holds no `/` cannot leave the folder the value's known parts fix (P-18): such parts
/// are spelled [`HOLE`], and the value is then a glob of every text it may be ([`hole_pattern`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Holes {
    /// Digits and a sign: `$$`, `$RANDOM`, `${#x}`, `$((…))`, `date +%s`, a count.
    Digits,
    /// Letters and digits: a commit hash, `mktemp`'s random letters.
    Alnum,
    /// Letters, digits and `.`, `_`, `-`, `+`, `:`: a user or host name, `date +%T`.
    Name,
    /// Anything but `/`: `${f##*/}`.
    NoSlash,
    /// Anything.
    #[default]
    Any,
}

impl Holes {
    /// What the unknown parts of two joined texts may hold (`dynamic` says whether each has any).
    pub fn joined(self, dynamic: bool, other: Holes, other_dynamic: bool) -> Holes {
        match (dynamic, other_dynamic) {
            (true, true) => self.max(other),
            (true, false) => self,
            (false, true) => other,
            (false, false) => Holes::Any,
        }
    }

    /// Whether a part holding this may hold `c`.
    pub fn may_hold(self, c: char) -> bool {
        match self {
            Holes::Digits => c.is_ascii_digit() || c == '-',
            Holes::Alnum => c.is_ascii_alphanumeric(),
            Holes::Name => c.is_ascii_alphanumeric() || "._-+:".contains(c),
            Holes::NoSlash => c != '/',
            Holes::Any => true,
        }
    }
}

/// How a part the walk could not compute is spelled in a value whose [`Holes`] hold no `/`.
pub const HOLE: &str = "${…}";

/// The glob of every guarded name a value may be, when its unknown parts hold no `/`: its text
/// with each [`HOLE`] a `*` (`/tmp/p-${…}.md` is `/tmp/p-*.md`), or nothing for digits, which no
/// guarded name holds. A component that is only unknown (with dots at most) may be empty, `.` or
/// `..`, which leaves its folder: `None` then, but for the last one of names that may spell
/// approval.md (`/tmp/${…}`, which may be `/tmp/approval.md`, whatever it leaves besides). `None`
/// when a part may hold a `/`.
pub fn hole_pattern(text: &str, dynamic: bool, holes: Holes) -> Option<String> {
    if !dynamic || holes == Holes::Any {
        return None;
    }
    let components: Vec<&str> = text.split('/').collect();
    let last = components.len().saturating_sub(1);
    let leaves = |(at, component): (usize, &&str)| only_holes(component) && (at != last || !holes.may_hold('.'));
    if components.iter().enumerate().any(leaves) {
        return None;
    }
    Some(text.replace(HOLE, if holes == Holes::Digits { "" } else { "*" }))
}

/// A path component of unknown parts and dots only, which may be empty, `.` or `..`.
fn only_holes(component: &str) -> bool {
    component.contains(HOLE) && component.replace(HOLE, "").chars().all(|c| c == '.')
}

/// The environment variables that name the system's temporary folder, as each shell spells them
/// (bash `$TMPDIR`, PowerShell `$env:TEMP`, lower case without `$`).
pub const TEMPORARY_FOLDER_VARIABLES: &[&str] = &["TMPDIR", "env:temp", "env:tmp", "env:tmpdir"];

/// What a [`TEMPORARY_FOLDER_VARIABLES`] variable the call does not set holds: the system's
/// temporary folder, outside the repository (a value from the environment the call does not show
/// is left to sealing, P-18; reading it as unknown refused every backup to `$env:TEMP`).
pub fn temporary_folder() -> Value {
    Value::literal(&std::env::temp_dir().to_string_lossy())
}

impl AsRef<str> for Value {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// The variables a walk knows, each with its possible values (PowerShell's by lower-case name,
/// without `$` or scope).
pub type Vars = HashMap<String, Vec<Value>>;

/// The most values one variable may take (arrays, a loop's list, their products): a bash
/// variable with more is taken as unknown, a PowerShell word with more is
/// [`super::Unscannable::ExpansionTooLarge`].
pub const MAX_VALUES: usize = 64;
/// Placeholders for unknown parts are cut to this many characters.
pub const MAX_PLACEHOLDER_CHARS: usize = 64;

/// Whose wildcards a pattern is written in (the wildcard dialect of a shell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wildcards {
    /// bash's glob (fnmatch): `[!…]` and `[^…]` negate, a `]` first in a class is literal, and
    /// ASCII case is ignored (P-7).
    BashGlob,
    /// PowerShell's wildcard: a class ends at its first `]` and has no negation; case is ignored
    /// as PowerShell lower-cases text.
    PowerShell,
}

/// A word bash reads as itself without quotes (what `printf %q` and a quoting writer leave
/// unquoted): letters, digits and `/._-+=:@%,`, and not empty.
pub fn needs_no_shell_quotes(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+=:@%,".contains(&b))
}

/// Stands, in a word a program's analysis hands on (a command line it starts), for a part it
/// could not compute: any name there (`programs::lex::HOLE`).
pub const PROGRAM_HOLE: char = '\u{1}';
/// Stands for a random name of letters, digits and `_` a program picks (`programs::lex::NAME_HOLE`).
pub const PROGRAM_NAME_HOLE: char = '\u{2}';

/// A program's written path or started command line with its holes as `*`: the glob of every
/// name it may be (a [`PROGRAM_NAME_HOLE`] too, which globs read within one component).
pub fn wildcarded(text: &str) -> String {
    text.replace([PROGRAM_HOLE, PROGRAM_NAME_HOLE], "*")
}

/// Whether `text` has wildcard characters (`*`, `?`, `[`), the same in both dialects.
pub fn has_wildcard(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// bash's glob for one path component ([`Wildcards::BashGlob`]).
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    wildcard_matches(pattern, name, Wildcards::BashGlob)
}

/// A wildcard pattern (`*`, `?`, `[…]` with ranges) matched against all of `name`, case ignored.
pub fn wildcard_matches(pattern: &str, name: &str, dialect: Wildcards) -> bool {
    let fold = |text: &str| -> Vec<char> {
        match dialect {
            Wildcards::BashGlob => text.chars().map(|c| c.to_ascii_lowercase()).collect(),
            Wildcards::PowerShell => text.to_lowercase().chars().collect(),
        }
    };
    let (pattern, name) = (fold(pattern), fold(name));
    // Iterative with one backtrack point for `*`: linear in practice, never exponential.
    let (mut p, mut n) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                backtrack = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => class(&pattern, p, name.get(n).copied(), dialect),
            Some(&literal) if name.get(n) == Some(&literal) => Some(p + 1),
            _ => None,
        };
        match step {
            Some(next) => {
                p = next;
                n += 1;
            }
            None => match backtrack {
                Some((star, at)) => {
                    p = star + 1;
                    n = at + 1;
                    backtrack = Some((star, at + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).unwrap_or_default().iter().all(|&c| c == '*')
}

/// A bracket expression at `pattern[at]` against `c`: where the pattern continues if it matches.
fn class(pattern: &[char], at: usize, c: Option<char>, dialect: Wildcards) -> Option<usize> {
    let c = c?;
    let mut p = at + 1;
    let negated = dialect == Wildcards::BashGlob && matches!(pattern.get(p), Some('!' | '^'));
    p += usize::from(negated);
    let mut matched = false;
    let mut first = true;
    loop {
        let &current = pattern.get(p)?;
        if current == ']' && (!first || dialect == Wildcards::PowerShell) {
            break;
        }
        first = false;
        if dialect == Wildcards::BashGlob
            && let Some((next, class_matches)) = posix_class(pattern, p, c)
        {
            matched |= class_matches;
            p = next;
            continue;
        }
        if pattern.get(p + 1) == Some(&'-') && pattern.get(p + 2).is_some_and(|&end| end != ']') {
            let end = pattern.get(p + 2).copied().unwrap_or(current);
            matched |= current <= c && c <= end;
            p += 3;
        } else {
            matched |= current == c;
            p += 1;
        }
    }
    (matched != negated).then_some(p + 1)
}

/// A POSIX class (`[:alpha:]`), equivalence class (`[=a=]`) or collating symbol (`[.a.]`) at
/// `pattern[at]` inside a bracket expression: where the expression continues, and whether `c`
/// matches it. A class bash's locale may widen, or one it does not know, matches any character
/// (P-18: a glob the walk cannot match exactly may be any guarded name it could match).
fn posix_class(pattern: &[char], at: usize, c: char) -> Option<(usize, bool)> {
    let &delimiter = pattern.get(at + 1).filter(|&&d| matches!(d, ':' | '=' | '.') && pattern.get(at) == Some(&'['))?;
    let close = (at + 2..pattern.len().saturating_sub(1))
        .find(|&end| pattern.get(end) == Some(&delimiter) && pattern.get(end + 1) == Some(&']'))?;
    let name: String = pattern.get(at + 2..close)?.iter().collect();
    let matches = match (delimiter, name.as_str()) {
        (':', "alpha") => c.is_alphabetic(),
        (':', "alnum") => c.is_alphanumeric(),
        (':', "digit") => c.is_ascii_digit(),
        (':', "xdigit") => c.is_ascii_hexdigit(),
        // Case is ignored (P-7): lower and upper are the letters.
        (':', "lower" | "upper") => c.is_alphabetic(),
        (':', "space") => c.is_whitespace(),
        (':', "blank") => c == ' ' || c == '\t',
        (':', "punct") => c.is_ascii_punctuation() || !c.is_ascii(),
        (':', "cntrl") => c.is_control(),
        _ => true,
    };
    Some((close + 2, matches))
}

#[cfg(test)]
mod tests {
    use super::Wildcards::{BashGlob, PowerShell};
    use super::*;

    #[test]
    fn both_dialects_match_stars_marks_ranges_and_case() {
        for dialect in [BashGlob, PowerShell] {
            assert!(wildcard_matches("APPR*.md", "approval.md", dialect));
            assert!(wildcard_matches("appro?al.m[a-d]", "approval.md", dialect));
            assert!(wildcard_matches("*", "", dialect));
            assert!(!wildcard_matches("a*b", "acbd", dialect));
            assert!(!wildcard_matches("[a", "a", dialect));
        }
    }

    #[test]
    fn only_bash_negates_a_class_or_takes_a_leading_bracket_as_literal() {
        assert!(wildcard_matches("[!b]x", "ax", BashGlob));
        assert!(!wildcard_matches("[!b]x", "ax", PowerShell));
        assert!(wildcard_matches("[!b]x", "!x", PowerShell));
        assert!(wildcard_matches("[]a]", "]", BashGlob));
        assert!(!wildcard_matches("[]a]", "]", PowerShell));
    }

    #[test]
    fn bash_reads_posix_classes_in_a_bracket_expression() {
        assert!(glob_matches("[[:alpha:]]lans", "plans"));
        assert!(glob_matches("plan[[:lower:]]", "PLANS"));
        assert!(glob_matches("approval[[:punct:]]md", "approval.md"));
        assert!(glob_matches("[![:digit:]]lans", "plans"));
        assert!(!glob_matches("[[:digit:]]lans", "plans"));
        assert!(!glob_matches("approval[[:alnum:]]md", "approval.md"));
        // Classes the walk cannot bound (a locale's, or none) match any character.
        assert!(glob_matches("[[:nosuch:]]lans", "plans"));
        assert!(glob_matches("[[=p=]]lans", "plans"));
        assert!(glob_matches("[[.p.]]lans", "plans"));
    }

    #[test]
    fn a_value_whose_unknown_parts_hold_no_slash_is_a_glob_of_the_names_it_may_be() {
        let pattern = |text: &str, holes| hole_pattern(text, true, holes);
        assert_eq!(pattern("/tmp/p-${…}.md", Holes::Name).as_deref(), Some("/tmp/p-*.md"));
        assert_eq!(pattern("/tmp/p-${…}.md", Holes::NoSlash).as_deref(), Some("/tmp/p-*.md"));
        // Digits make no guarded name.
        assert_eq!(
            pattern("docs/superpowers/pl${…}ns/x.md", Holes::Digits).as_deref(),
            Some("docs/superpowers/plns/x.md")
        );
        // Alone in its component it may be empty, `.` or `..`; the last one may be any name.
        assert_eq!(pattern("/tmp/${…}", Holes::Name).as_deref(), Some("/tmp/*"));
        for (text, holes) in [
            ("/tmp/${…}", Holes::Digits),
            ("/tmp/${…}", Holes::Alnum),
            ("/tmp/${…}/x.md", Holes::Name),
            ("/tmp/.${…}/x.md", Holes::NoSlash),
            ("/tmp/p-${…}.md", Holes::Any),
        ] {
            assert_eq!(pattern(text, holes), None, "{text} {holes:?}");
        }
        assert_eq!(hole_pattern("/tmp/p-${…}.md", false, Holes::Name), None);
    }

    #[test]
    fn bash_folds_only_ascii_case() {
        assert!(wildcard_matches("É*", "é.md", PowerShell));
        assert!(!wildcard_matches("É*", "é.md", BashGlob));
    }
}
