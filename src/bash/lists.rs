//! The lists bash expands to several words, the positional parameters (`$@`, `$*`) and arrays
//! (`${a[@]}`, `${a[*]}`), whole or sliced (`${@:offset:length}`), as bash takes them (P-18):
//! `length` members from `offset`, all the rest without a length, a negative offset counted back
//! from one past the last member. The positional parameters are numbered from `$0`, which an
//! offset of 0 takes first. Only an offset and a length that are decimal integers (signed, in
//! parentheses, with blanks) are computed: a variable, arithmetic, an octal or hexadecimal number
//! or a negative length (an error that stops the shell) leaves the slice uncomputed. A list the
//! walk does not know stands for two words it could not compute, as any number may come; a slice
//! with a literal length, for no more than that.

use crate::analysis::values::{Value, Vars};

/// The variable name an array element is stored under: `a[1]`, `a[@]` (every element's values).
pub fn element_name(array: &str, index: &str) -> String {
    format!("{array}[{index}]")
}

/// An array's elements in order, when the walk knows each one and no other: one value for each
/// of `a[0]`…`a[n-1]` that together are `a[@]` (as `a=(x y)` and `read -a` of one line leave
/// them), and no `a[n]`. `None` for an array assigned element by element out of order, sparse,
/// or with several possible values.
pub fn array_elements(vars: &Vars, array: &str) -> Option<Vec<Value>> {
    let all = vars.get(&element_name(array, "@"))?;
    let each = all.iter().enumerate().all(|(index, value)| {
        vars.get(&element_name(array, &index.to_string())).map(Vec::as_slice) == Some(std::slice::from_ref(value))
    });
    let more = vars.contains_key(&element_name(array, &all.len().to_string()));
    (each && !more).then(|| all.clone())
}

/// How many words a list the walk does not know stands for: any number may come, and two are
/// enough for a command to see in it both what it reads and where it writes (`cp "${a[@]}"`).
pub const UNKNOWN_WORDS: usize = 2;

/// The most members a slice whose offset the walk does not compute takes: its length, when that
/// is a decimal integer after the last `:` (and no `?` makes that `:` part of the offset).
pub fn most_members(spec: &str) -> Option<usize> {
    let (offset, length) = spec.rsplit_once(':')?;
    if offset.contains('?') {
        return None;
    }
    usize::try_from(integer(length)?).ok()
}

/// What follows a slice's `:` up to the brace that closes its expansion (`$n:2` of `$n:2}"`);
/// `None` when no brace closes it.
pub fn spec_until_brace(after: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (at, c) in after.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return after.get(..at),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `"$*"`, `"${a[*]}"`: the members joined by the first character of `IFS` (`ifs`, `None` when
/// the walk does not know it), one word.
pub fn joined(members: &[Value], ifs: Option<&str>, placeholder: &str) -> Value {
    let Some(ifs) = ifs else { return Value::unknown(placeholder) };
    let separator = ifs.chars().next().map(String::from).unwrap_or_default();
    let text = members.iter().map(|member| member.text.as_str()).collect::<Vec<_>>().join(&separator);
    let unknown = members.iter().filter(|member| member.dynamic);
    match unknown.map(|member| member.holes).max() {
        Some(holes) => Value { text, dynamic: true, holes },
        None => Value::new(text, false),
    }
}

/// `offset[:length]` of a slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    offset: i64,
    length: Option<i64>,
}

impl Slice {
    /// `spec` is what follows the `:` after the name, up to the closing brace (`1:2` of `${@:1:2}`).
    pub fn parse(spec: &str) -> Option<Slice> {
        let (offset, length) = match spec.split_once(':') {
            Some((offset, length)) => (offset, Some(length)),
            None => (spec, None),
        };
        // An empty offset is 0 before a length (`${@::2}`); alone it is bash's "bad substitution".
        let offset = match offset.trim() {
            "" if length.is_some() => 0,
            _ => integer(offset)?,
        };
        let length = match length.map(str::trim) {
            None => None,
            Some("") => Some(0),
            Some(length) => Some(integer(length).filter(|length| *length >= 0)?),
        };
        Some(Slice { offset, length })
    }

    /// The members of `list` the slice takes: `list` is numbered as bash numbers it (a dense
    /// array's elements, or the positional parameters from `$0`).
    pub fn of<'l, T>(&self, list: &'l [T]) -> &'l [T] {
        let count = i64::try_from(list.len()).unwrap_or(i64::MAX);
        let start = if self.offset < 0 { count.saturating_add(self.offset) } else { self.offset };
        if start < 0 || start >= count {
            return &[];
        }
        let end = match self.length {
            Some(length) => start.saturating_add(length).min(count),
            None => count,
        };
        let index = |at: i64| usize::try_from(at).unwrap_or(usize::MAX);
        list.get(index(start)..index(end)).unwrap_or_default()
    }

    /// Whether the slice takes members only from the first `known` (the rest of a list the walk
    /// does not see whole may follow them).
    pub fn within(&self, known: usize) -> bool {
        let known = i64::try_from(known).unwrap_or(i64::MAX);
        match self.length {
            Some(length) if self.offset >= 0 => self.offset.saturating_add(length) <= known,
            _ => false,
        }
    }

    /// The most members it takes, when its length says.
    pub fn most(&self) -> Option<usize> {
        self.length.and_then(|length| usize::try_from(length).ok())
    }

    /// Whether the slice counts from the end of the list.
    pub fn counts_back(&self) -> bool {
        self.offset < 0
    }
}

/// A decimal integer as bash's arithmetic reads it, with blanks, a sign and parentheses around it.
fn integer(text: &str) -> Option<i64> {
    let mut text = text.trim();
    while let Some(inner) = text.strip_prefix('(').and_then(|rest| rest.strip_suffix(')')) {
        text = inner.trim();
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text.strip_prefix('+').map_or(text, str::trim_start)),
    };
    // A leading 0 is octal, `0x` hexadecimal: left uncomputed.
    let decimal =
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
    let value: i64 = decimal.then(|| digits.parse().ok()).flatten()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice<'l>(spec: &str, list: &'l [&'l str]) -> Option<&'l [&'l str]> {
        Slice::parse(spec).map(|slice| slice.of(list))
    }

    /// Each row checked against bash 5.2: `bash -c 'printf "<%s>" "${@:<row>}"' zero a b c`.
    #[test]
    fn positional_slices_as_bash_takes_them() {
        let list = ["zero", "a", "b", "c"];
        let rows: [(&str, &[&str]); 14] = [
            ("1:2", &["a", "b"]),
            ("0:2", &["zero", "a"]),
            (" -1", &["c"]),
            (" -4", &["zero", "a", "b", "c"]),
            (" -4:2", &["zero", "a"]),
            (" -5", &[]),
            (" -5:2", &[]),
            ("7", &[]),
            ("2:0", &[]),
            ("(-2):1", &["b"]),
            ("(-1):5", &["c"]),
            (":2", &["zero", "a"]),
            ("1:", &[]),
            (" +1 : 1 ", &["a"]),
        ];
        for (spec, expected) in rows {
            assert_eq!(slice(spec, &list), Some(expected), "{spec:?}");
        }
    }

    #[test]
    fn what_is_not_a_decimal_integer_is_not_computed() {
        for spec in ["", "$n:2", "1+1:2", "n", "010", "0x1:1", "1:-1", "1:$n", "(1"] {
            assert_eq!(Slice::parse(spec), None, "{spec:?}");
        }
    }

    #[test]
    fn an_uncomputed_slice_takes_at_most_its_literal_length() {
        assert_eq!(most_members("$n:1"), Some(1));
        assert_eq!(most_members("${x:-0}: 0 "), Some(0));
        assert_eq!(most_members("$n"), None);
        assert_eq!(most_members("n?1:2"), None);
        assert_eq!(most_members("${x:+1}"), None);
        assert_eq!(most_members("$n:010"), None);
        assert_eq!(spec_until_brace("$n:2}\" x"), Some("$n:2"));
        assert_eq!(spec_until_brace("${n}:2} y}"), Some("${n}:2"));
        assert_eq!(spec_until_brace("$n:2"), None);
    }

    #[test]
    fn a_slice_within_the_known_members_needs_no_more() {
        let within = |spec: &str, known: usize| Slice::parse(spec).is_some_and(|slice| slice.within(known));
        assert!(within("1:2", 3));
        assert!(!within("1:3", 3));
        assert!(!within("1", 10));
        assert!(!within(" -1:1", 10));
        assert!(Slice::parse(" -1").is_some_and(|slice| slice.counts_back()));
    }
}
