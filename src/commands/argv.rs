//! The words a command receives once its shell has expanded them, as the table reads them.

/// One word after expansion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Arg {
    pub text: String,
    /// Part of the word is unknown and kept as source text (`$D/approval.md`).
    pub dynamic: bool,
    /// The word has unquoted glob characters (`*`, `?`, `[`).
    pub glob: bool,
    /// A process substitution (`>(…)`, `<(…)`): a pipe, not a file.
    pub pipe: bool,
    /// What its unknown parts may hold.
    pub holes: Holes,
}

impl Arg {
    pub fn literal(text: &str) -> Arg {
        Arg { text: text.to_string(), glob: has_wildcard(text), ..Arg::default() }
    }

    /// A word of `text` taken from `from` (a part of it, or it rewritten around its parts): what
    /// `from`'s unknown parts may hold, its glob only where `text` has wildcards.
    pub fn part_of(text: &str, from: &Arg) -> Arg {
        Arg {
            text: text.to_string(),
            dynamic: from.dynamic,
            glob: from.glob && has_wildcard(text),
            pipe: false,
            holes: from.holes,
        }
    }

    /// The glob every text it may be when its unknown parts hold no `/` ([`hole_pattern`]).
    pub fn pattern(&self) -> Option<String> {
        hole_pattern(&self.text, self.dynamic, self.holes)
    }

    /// The value it is, for a variable to hold.
    pub fn to_value(&self) -> Value {
        Value { text: self.text.clone(), dynamic: self.dynamic, holes: self.holes }
    }

    pub fn into_value(self) -> Value {
        Value { text: self.text, dynamic: self.dynamic, holes: self.holes }
    }

    /// Whether the walk knows it or the folder each unknown part of it stays in.
    pub fn located(&self) -> bool {
        !self.dynamic || self.pattern().is_some()
    }
}

pub use crate::analysis::values::has_wildcard;
use crate::analysis::values::{Holes, Value, hole_pattern};

/// The C escapes of bash's `$'…'`, which `xargs -d` reads too.
pub fn ansi_c(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(escape) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match escape {
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\x0b'),
            '\\' | '\'' | '"' | '?' => Some(escape),
            _ => None,
        };
        if let Some(simple) = simple {
            out.push(simple);
            continue;
        }
        let (radix, max_digits) = match escape {
            '0'..='7' => (8, 3),
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            'c' => {
                match chars.next() {
                    Some(control) => out.push(char::from((control as u32 & 0x1f) as u8)),
                    None => out.push_str("\\c"),
                }
                continue;
            }
            _ => {
                out.push('\\');
                out.push(escape);
                continue;
            }
        };
        let mut value: u32 = if radix == 8 { escape.to_digit(8).unwrap_or(0) } else { 0 };
        let mut digits = if radix == 8 { 1 } else { 0 };
        while digits < max_digits {
            let Some(digit) = chars.peek().and_then(|d| d.to_digit(radix)) else { break };
            chars.next();
            value = value.saturating_mul(radix).saturating_add(digit);
            digits += 1;
        }
        if digits == 0 {
            out.push('\\');
            out.push(escape);
        } else if radix == 8 || escape == 'x' {
            // One byte; bytes above 0x7f are not valid UTF-8 on their own.
            out.push(char::from_u32(value & 0xff).filter(|c| c.is_ascii()).unwrap_or('\u{fffd}'));
        } else {
            out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
        }
    }
    out
}

/// Where the words of a command line split into tokens for the CLI rule and the path scan: shell
/// metacharacters, quotes and the separators programs put between a command and its arguments.
pub(super) fn is_separator(c: char) -> bool {
    // A bit per ASCII character: this runs on every character of every word.
    const SEPARATORS: u128 = ascii_set(b"\"'`;|&()<>[]{}=$,:!\\");
    c.is_whitespace() || u32::from(c) < 128 && SEPARATORS >> u32::from(c) & 1 == 1
}

const fn ascii_set(mut chars: &[u8]) -> u128 {
    let mut set = 0;
    while let [first, rest @ ..] = chars {
        set |= 1 << (*first & 127);
        chars = rest;
    }
    set
}

pub(super) fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_separator).filter(|token| !token.is_empty())
}

/// Tokens of a word that holds a script, for paths: `host:path` is a remote path, kept whole.
pub(super) fn path_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c| c != ':' && is_separator(c)).filter(|token| !token.is_empty())
}

#[cfg(test)]
mod tests {
    #[test]
    fn separators_are_blanks_and_the_listed_characters() {
        let listed = "\"'`;|&()<>[]{}=$,:!\\";
        for c in (0..0x3100).filter_map(char::from_u32) {
            assert_eq!(super::is_separator(c), c.is_whitespace() || listed.contains(c), "{c:?}");
        }
    }
}
