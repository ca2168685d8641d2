//! Pattern substitution, `${x/a/b}`, `${x//a/b}`, `${x/#a/b}` and `${x/%a/b}`, computed when its
//! pattern and replacement are literal text (P-18): a glob in the pattern, an expansion or a
//! quote whose meaning depends on the bash version leaves the value uncomputed.

/// Which occurrence of the pattern is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    First,
    All,
    Prefix,
    Suffix,
}

impl Replace {
    pub fn of(operator: &str) -> Option<Replace> {
        match operator {
            "/" => Some(Replace::First),
            "//" => Some(Replace::All),
            "/#" => Some(Replace::Prefix),
            "/%" => Some(Replace::Suffix),
            _ => None,
        }
    }
}

/// A pattern substitution whose pattern and replacement are literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    pub replace: Replace,
    pub pattern: String,
    pub replacement: String,
}

impl Substitution {
    /// `body` is what follows the operator up to the closing brace (`a/b` of `${x/a/b}`), read
    /// from the source: tree-sitter splits `${x//\//_}` at the escaped slash.
    pub fn parse(replace: Replace, body: &str) -> Option<Substitution> {
        let (pattern, rest) = literal(body, Part::Pattern)?;
        let replacement = match rest {
            Some(rest) => literal(rest, Part::Replacement)?.0,
            None => String::new(),
        };
        Some(Substitution { replace, pattern, replacement })
    }

    pub fn apply(&self, value: &str) -> String {
        let (pattern, replacement) = (self.pattern.as_str(), self.replacement.as_str());
        match self.replace {
            _ if pattern.is_empty() && matches!(self.replace, Replace::First | Replace::All) => value.to_string(),
            Replace::First => value.replacen(pattern, replacement, 1),
            Replace::All => value.replace(pattern, replacement),
            Replace::Prefix => match value.strip_prefix(pattern) {
                Some(rest) => format!("{replacement}{rest}"),
                None => value.to_string(),
            },
            Replace::Suffix => match value.strip_suffix(pattern) {
                Some(rest) => format!("{rest}{replacement}"),
                None => value.to_string(),
            },
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Pattern,
    Replacement,
}

/// The unquoted text of `text` up to the first unquoted `/` (for the pattern), and what follows
/// that slash; `None` when the text is not literal: an expansion, a single quote (read one way
/// inside double quotes and another outside), a glob or extglob in the pattern, a `&` or leading
/// `~` in the replacement (bash 5.2 puts the match there, older versions a `&`).
fn literal(text: &str, part: Part) -> Option<(String, Option<&str>)> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut in_double = false;
    while let Some((at, c)) = chars.next() {
        match c {
            '$' | '`' | '\'' => return None,
            '\\' if in_double => match chars.peek() {
                Some(&(_, next @ ('$' | '`' | '"' | '\\'))) => {
                    chars.next();
                    out.push(next);
                }
                _ => out.push('\\'),
            },
            '\\' => match chars.next() {
                Some((_, next)) => out.push(next),
                None => out.push('\\'),
            },
            '"' => in_double = !in_double,
            _ if in_double => out.push(c),
            '/' if part == Part::Pattern => return Some((out, text.get(at + 1..))),
            '*' | '?' | '[' if part == Part::Pattern => return None,
            '+' | '@' | '!' if part == Part::Pattern && chars.peek().is_some_and(|&(_, next)| next == '(') => {
                return None;
            }
            '&' if part == Part::Replacement => return None,
            '~' if part == Part::Replacement && out.is_empty() => return None,
            _ => out.push(c),
        }
    }
    (!in_double).then_some((out, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn substitute(operator: &str, body: &str, value: &str) -> Option<String> {
        Substitution::parse(Replace::of(operator)?, body).map(|s| s.apply(value))
    }

    /// Each row checked against bash 5.2.
    #[test]
    fn literal_substitutions_are_computed_as_bash_does() {
        let x = "docs/superpowers/PLANS";
        for (operator, body, expected) in [
            ("/", "PLANS/plans", "docs/superpowers/plans"),
            ("//", "\\//_", "docs_superpowers_PLANS"),
            ("/#", "docs/X", "X/superpowers/PLANS"),
            ("/%", "PLANS/Y", "docs/superpowers/Y"),
            ("/#", "/Z", "Zdocs/superpowers/PLANS"),
            ("/%", "/W", "docs/superpowers/PLANSW"),
            ("//", "", x),
            ("/", "\"/\"/+", "docs+superpowers/PLANS"),
            ("/", "r/", "docs/supepowers/PLANS"),
            ("/", "r", "docs/supepowers/PLANS"),
            ("/#", "superpowers/x", x),
        ] {
            assert_eq!(substitute(operator, body, x).as_deref(), Some(expected), "${{x{operator}{body}}}");
        }
        assert_eq!(substitute("//", "_//", "docs_superpowers_plans").as_deref(), Some("docs/superpowers/plans"));
        assert_eq!(substitute("/", "\\*/-", "a*b").as_deref(), Some("a-b"));
        assert_eq!(substitute("/", "\"*\"/-", "a*b").as_deref(), Some("a-b"));
    }

    #[test]
    fn patterns_and_replacements_that_are_not_literal_stay_uncomputed() {
        for (operator, body) in [
            ("/", "a*/b"),
            ("/", "[ab]/c"),
            ("//", "?/c"),
            ("/", "+(a)/b"),
            ("/", "$y/b"),
            ("/", "a/$y"),
            ("/", "'a'/b"),
            ("/", "a/&"),
            ("/", "a/~"),
            ("/", "`x`/b"),
            ("/", "\"a/b"),
        ] {
            assert_eq!(substitute(operator, body, "abc"), None, "${{x{operator}{body}}}");
        }
    }
}
