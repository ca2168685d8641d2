//! Field splitting at `$IFS`, as bash does it for the results of unquoted expansions and for
//! `read` (bash's `read.def`): whitespace in `IFS` collapses and is trimmed, every other `IFS`
//! character ends a field, and `read`'s last name takes the rest of the line.

use crate::analysis::values::Value;

/// bash's `IFS` when the line does not set it.
pub const DEFAULT_IFS: &str = " \t\n";

/// `IFS` from the values the walk has for it: the default when the line did not set it, `None`
/// when it set it to a value the walk does not know.
pub fn known_ifs(values: Option<&[Value]>) -> Option<&str> {
    match values {
        None => Some(DEFAULT_IFS),
        Some([value]) if !value.dynamic => Some(&value.text),
        Some(_) => None,
    }
}

fn is_ifs(ifs: &str, c: char) -> bool {
    ifs.contains(c)
}

fn is_ifs_blank(ifs: &str, c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n') && ifs.contains(c)
}

fn skip_blanks<'t>(text: &'t str, ifs: &str) -> &'t str {
    text.trim_start_matches(|c| is_ifs_blank(ifs, c))
}

/// The next field of `text` and what follows it, past the delimiter: blanks, at most one other
/// `IFS` character, blanks (bash's `get_word_from_string`).
fn next_field<'t>(text: &'t str, ifs: &str) -> (&'t str, &'t str) {
    let text = skip_blanks(text, ifs);
    let end = text.find(|c| is_ifs(ifs, c)).unwrap_or(text.len());
    let (field, rest) = text.split_at(end);
    let mut rest = skip_blanks(rest, ifs);
    if let Some(c) = rest.chars().next()
        && is_ifs(ifs, c)
        && !is_ifs_blank(ifs, c)
    {
        rest = skip_blanks(rest.get(c.len_utf8()..).unwrap_or_default(), ifs);
    }
    (field, rest)
}

/// The fields an unquoted expansion's value becomes; none for an empty value.
pub fn split(text: &str, ifs: &str) -> Vec<String> {
    if ifs.is_empty() {
        return if text.is_empty() { Vec::new() } else { vec![text.to_string()] };
    }
    let mut fields = Vec::new();
    let mut rest = skip_blanks(text, ifs);
    while !rest.is_empty() {
        let (field, after) = next_field(rest, ifs);
        fields.push(field.to_string());
        rest = after;
    }
    fields
}

/// What `read` assigns each of `count` names (at least one) from one line: each name a field,
/// the last the rest of the line with its trailing blanks removed, unless only one field with its
/// delimiter is left (then that field).
pub fn read_line(line: &str, ifs: &str, count: usize) -> Vec<String> {
    let mut values = Vec::with_capacity(count);
    let mut rest = skip_blanks(line, ifs);
    for _ in 1..count {
        let (field, after) = next_field(rest, ifs);
        values.push(field.to_string());
        rest = after;
    }
    let last = if count == 1 {
        rest
    } else {
        match next_field(rest, ifs) {
            (field, "") => field,
            _ => rest,
        }
    };
    values.push(last.trim_end_matches(|c| is_ifs_blank(ifs, c)).to_string());
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row checked against bash 5.2: `IFS=… read -r a b <<< line`.
    #[test]
    fn read_splits_as_bash_does() {
        let rows: [(&str, &str, [&str; 2]); 13] = [
            (",", "x,y,", ["x", "y"]),
            (",", "x,y,z", ["x", "y,z"]),
            (",", "x,y,,", ["x", "y,,"]),
            (",", " x , y , z ", [" x ", " y , z "]),
            (",", "x,,y", ["x", ",y"]),
            (",", ",x,y", ["", "x,y"]),
            (",", "x", ["x", ""]),
            (",", "x,", ["x", ""]),
            (",", "a b,c d", ["a b", "c d"]),
            (" :", "x : y: z :", ["x", "y: z :"]),
            (" :", "x::y", ["x", ":y"]),
            (", ", "x, y,  ", ["x", "y"]),
            (DEFAULT_IFS, " x y z ", ["x", "y z"]),
        ];
        for (ifs, line, expected) in rows {
            assert_eq!(read_line(line, ifs, 2), expected, "IFS={ifs:?} {line:?}");
        }
        assert_eq!(read_line("  a b  ", "", 2), ["  a b  ", ""]);
        assert_eq!(read_line("x,y,", ",", 1), ["x,y,"]);
        assert_eq!(read_line("  x y  ", DEFAULT_IFS, 1), ["x y"]);
        assert_eq!(read_line("docs/superpowers/plans,p.md", ",", 2), ["docs/superpowers/plans", "p.md"]);
    }

    #[test]
    fn expansions_split_as_bash_does() {
        assert_eq!(split("  a  b ", DEFAULT_IFS), ["a", "b"]);
        assert_eq!(split("a,,b,", ","), ["a", "", "b"]);
        assert_eq!(split(" a , b ", " ,"), ["a", "b"]);
        assert_eq!(split("a b", ""), ["a b"]);
        assert!(split("", ",").is_empty());
        assert!(split("   ", DEFAULT_IFS).is_empty());
    }
}
