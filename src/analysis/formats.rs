//! Format strings, read in one place for every analysis: printf's conversions (bash's `printf`,
//! `sprintf`, `string.format` and the `%` operator of the programs) and the fields of composite
//! formats (`str.format`, PowerShell's `-f`).
//!
//! A conversion prints its argument only where that is exact: a string cut to its precision and
//! padded to its width, a decimal integer in an integer conversion. Anything else (a float, a
//! number the reader cannot read, a width past [`MAX_WIDTH`]) is `None`, which the analyses turn
//! into a value they cannot compute (P-18): a path built as `'%.30s' % 'openspec/…/approval.mdx'`
//! or `pl%xns` is never taken as the text it was given.

/// The widest padding computed; a wider one leaves the value uncomputed rather than building it.
pub const MAX_WIDTH: usize = 4096;

/// A piece of a printf-style format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Printf<'a> {
    /// Printed as written (`%%` is a `%`; an escape is the caller's to decode).
    Text(&'a str),
    Conversion(Conversion<'a>),
}

/// One `%…` conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion<'a> {
    /// `%(name)s` (Python), `%<name>s` and `%{name}` (Ruby): the argument is taken by name.
    pub name: Option<&'a str>,
    /// `%2$s` (PHP, Perl, C, R): the argument is taken by its place, counted from 1.
    pub index: Option<usize>,
    left: bool,
    zero: bool,
    plus: bool,
    space: bool,
    alternate: bool,
    /// Perl's `%vd`: a version string, not its argument.
    vector: bool,
    width: Option<Count>,
    precision: Option<Count>,
    /// The conversion's letter (`s` for Ruby's `%{name}`).
    pub letter: char,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Given(usize),
    /// `*`: the next argument.
    Argument,
}

/// `format` cut into text and conversions. A `%` that starts no conversion (at the end, or an
/// unclosed `%(`) is text.
pub fn printf_pieces(format: &str) -> Vec<Printf<'_>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(offset) = format.get(at..).and_then(|rest| rest.find('%')) {
        let percent = at + offset;
        if start < percent {
            pieces.push(Printf::Text(&format[start..percent]));
        }
        match conversion(format, percent + 1) {
            Some((piece, end)) => {
                pieces.push(piece);
                at = end;
            }
            None => {
                pieces.push(Printf::Text(&format[percent..percent + 1]));
                at = percent + 1;
            }
        }
        start = at;
    }
    if start < format.len() {
        pieces.push(Printf::Text(&format[start..]));
    }
    pieces
}

/// The conversion after a `%` at `at`, and where it ends.
fn conversion(format: &str, at: usize) -> Option<(Printf<'_>, usize)> {
    let rest = format.get(at..)?;
    if rest.starts_with('%') {
        return Some((Printf::Text(&format[at..at + 1]), at + 1));
    }
    let mut spec = Conversion {
        name: None,
        index: None,
        left: false,
        zero: false,
        plus: false,
        space: false,
        alternate: false,
        vector: false,
        width: None,
        precision: None,
        letter: 's',
    };
    let mut pos = at;
    if let Some(inner) = rest.strip_prefix('{') {
        let close = inner.find('}')?;
        spec.name = Some(&inner[..close]);
        return Some((Printf::Conversion(spec), at + close + 2));
    }
    for (open, close) in [('(', ')'), ('<', '>')] {
        if let Some(inner) = rest.strip_prefix(open) {
            let end = inner.find(close)?;
            spec.name = Some(&inner[..end]);
            pos = at + end + 2;
        }
    }
    let bytes = format.as_bytes();
    let digits = bytes.get(pos..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && bytes.get(pos + digits) == Some(&b'$') {
        spec.index = format[pos..pos + digits].parse().ok();
        pos += digits + 1;
    }
    while let Some(&flag) = bytes.get(pos) {
        match flag {
            b'-' => spec.left = true,
            b'0' => spec.zero = true,
            b'+' => spec.plus = true,
            b' ' => spec.space = true,
            b'#' => spec.alternate = true,
            b'v' => spec.vector = true,
            _ => break,
        }
        pos += 1;
    }
    spec.width = count(bytes, &mut pos);
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        spec.precision = Some(count(bytes, &mut pos).unwrap_or(Count::Given(0)));
    }
    while bytes.get(pos).is_some_and(|b| b"hlLqjzt".contains(b)) {
        pos += 1;
    }
    spec.letter = format.get(pos..)?.chars().next()?;
    let end = pos + spec.letter.len_utf8();
    Some((Printf::Conversion(spec), end))
}

/// A width or precision: digits, or `*`.
fn count(bytes: &[u8], pos: &mut usize) -> Option<Count> {
    if bytes.get(*pos) == Some(&b'*') {
        *pos += 1;
        return Some(Count::Argument);
    }
    let start = *pos;
    let mut value: usize = 0;
    while let Some(digit) = bytes.get(*pos).filter(|b| b.is_ascii_digit()) {
        value = value.saturating_mul(10).saturating_add(usize::from(digit - b'0'));
        *pos += 1;
    }
    (*pos > start).then_some(Count::Given(value))
}

impl Conversion<'_> {
    /// `%s`, `%d`: no flag, width, precision, name or place (the only conversions some formatters,
    /// Node's `util.format`, read; they print any other as written).
    pub fn is_plain(&self) -> bool {
        let Conversion { name, index, left, zero, plus, space, alternate, vector, width, precision, letter: _ } = self;
        name.is_none()
            && index.is_none()
            && !(*left || *zero || *plus || *space || *alternate || *vector)
            && width.is_none()
            && precision.is_none()
    }

    /// How many arguments its `*` width and precision take before its value.
    pub fn stars(&self) -> usize {
        [self.width, self.precision].iter().filter(|count| **count == Some(Count::Argument)).count()
    }

    /// What it prints for `value`, given the values of its `*` width and precision (in order);
    /// `None` where that is not exact.
    pub fn print(&self, value: &str, stars: &[&str]) -> Option<String> {
        match self.letter {
            's' => self.print_text(value, stars),
            'c' => self.print_text(&value.chars().next().map(String::from).unwrap_or_default(), stars),
            'd' | 'i' | 'u' | 'x' | 'X' | 'o' => self.print_integer(value, stars),
            _ => None,
        }
    }

    /// `text` printed as `%s` prints it: cut to the precision, padded to the width.
    pub fn print_text(&self, text: &str, stars: &[&str]) -> Option<String> {
        let (width, precision) = self.counts(stars)?;
        if self.vector || (precision.is_some() && !text.is_ascii()) {
            return None;
        }
        let cut = match precision {
            Some(precision) => text.get(..precision.min(text.len())).unwrap_or(text),
            None => text,
        };
        Some(self.padded(cut.to_string(), width, ' '))
    }

    fn print_integer(&self, value: &str, stars: &[&str]) -> Option<String> {
        let (width, precision) = self.counts(stars)?;
        if self.vector || precision.is_some_and(|digits| digits > MAX_WIDTH) {
            return None;
        }
        let (negative, number) = decimal(value.trim())?;
        if negative && matches!(self.letter, 'u' | 'x' | 'X' | 'o') {
            return None;
        }
        let mut digits = match self.letter {
            'x' => format!("{number:x}"),
            'X' => format!("{number:X}"),
            'o' => format!("{number:o}"),
            _ => number.to_string(),
        };
        if let Some(precision) = precision {
            if precision == 0 && number == 0 {
                digits.clear();
            }
            while digits.len() < precision {
                digits.insert(0, '0');
            }
        }
        let prefix = match (self.letter, self.alternate && number != 0) {
            ('x', true) => "0x",
            ('X', true) => "0X",
            ('o', true) if !digits.starts_with('0') => "0",
            _ if negative => "-",
            ('d' | 'i', _) if self.plus => "+",
            ('d' | 'i', _) if self.space => " ",
            _ => "",
        };
        if self.zero && !self.left && precision.is_none() {
            let width = width.unwrap_or(0).saturating_sub(prefix.len());
            return Some(format!("{prefix}{}", self.padded(digits, Some(width), '0')));
        }
        Some(self.padded(format!("{prefix}{digits}"), width, ' '))
    }

    /// The width and precision, each `*` read from `stars`; `None` when a `*` is not a count (a
    /// negative one, which left-justifies, is not modelled) or the width is past [`MAX_WIDTH`].
    fn counts(&self, stars: &[&str]) -> Option<(Option<usize>, Option<usize>)> {
        let mut stars = stars.iter();
        let mut resolve = |count: Option<Count>| -> Option<Option<usize>> {
            match count {
                None => Some(None),
                Some(Count::Given(value)) => Some(Some(value)),
                Some(Count::Argument) => stars.next()?.trim().parse::<usize>().ok().map(Some),
            }
        };
        let width = resolve(self.width)?;
        let precision = resolve(self.precision)?;
        if width.is_some_and(|width| width > MAX_WIDTH) {
            return None;
        }
        Some((width, precision))
    }

    fn padded(&self, text: String, width: Option<usize>, fill: char) -> String {
        let missing = width.unwrap_or(0).saturating_sub(text.chars().count());
        let padding: String = std::iter::repeat_n(fill, missing).collect();
        if self.left { text + &padding } else { padding + &text }
    }
}

/// A decimal integer as printf reads it (an optional sign, digits); `None` for anything else
/// (bash's hexadecimal and octal arguments, a float, text).
fn decimal(text: &str) -> Option<(bool, u128)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    let number: u128 = digits.parse().ok()?;
    Some((negative && number != 0, number))
}

/// A piece of a composite format (`{0}`, `{name:>8}`, `{{`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Composite<'a> {
    /// Printed as written (`{{` and `}}` are braces).
    Text(&'a str),
    /// The text between the braces (an unclosed `{` takes the rest).
    Field(&'a str),
}

/// `format` cut into text and fields.
pub fn composite_pieces(format: &str) -> Vec<Composite<'_>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    let bytes = format.as_bytes();
    while at < bytes.len() {
        match (bytes[at], bytes.get(at + 1)) {
            (b'{', Some(b'{')) | (b'}', Some(b'}')) => {
                if start < at {
                    pieces.push(Composite::Text(&format[start..at]));
                }
                pieces.push(Composite::Text(&format[at..at + 1]));
                at += 2;
                start = at;
            }
            (b'{', _) => {
                if start < at {
                    pieces.push(Composite::Text(&format[start..at]));
                }
                let inner = &format[at + 1..];
                let close = inner.find('}').unwrap_or(inner.len());
                pieces.push(Composite::Field(&inner[..close]));
                at += close + 2;
                start = at.min(format.len());
            }
            _ => at += 1,
        }
    }
    if start < format.len() {
        pieces.push(Composite::Text(&format[start..]));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every conversion filled from `args` in order, `?` where it is not exact.
    fn printf(format: &str, args: &[&str]) -> String {
        let mut args = args.iter();
        let mut out = String::new();
        for piece in printf_pieces(format) {
            match piece {
                Printf::Text(text) => out.push_str(text),
                Printf::Conversion(conversion) => {
                    let stars: Vec<&str> = args.by_ref().take(conversion.stars()).copied().collect();
                    let value = args.next().copied().unwrap_or_default();
                    out.push_str(&conversion.print(value, &stars).unwrap_or_else(|| "?".into()));
                }
            }
        }
        out
    }

    #[test]
    fn strings_are_cut_to_the_precision_and_padded_to_the_width() {
        assert_eq!(printf("%.30s", &["openspec/changes/c/approval.mdx"]), "openspec/changes/c/approval.md");
        assert_eq!(printf("%5s|%-3s|", &["ab", "c"]), "   ab|c  |");
        assert_eq!(printf("%*s|%.*s", &["3", "x", "2", "plans"]), "  x|pl");
        assert_eq!(printf("%s%%%c", &["a", "bc"]), "a%b");
        assert_eq!(printf("100%", &[]), "100%");
    }

    #[test]
    fn integers_print_in_their_base_and_anything_else_is_not_exact() {
        assert_eq!(printf("pl%xns|%03d|%+d|%#o|%.3u", &["10", "7", "5", "8", "4"]), "plans|007|+5|010|004");
        assert_eq!(printf("%d|%d|%f|%x", &["0x1f", "abc", "1", "-1"]), "?|?|?|?");
        assert_eq!(printf("%99999s", &["x"]), "?");
        let plain: Vec<bool> = printf_pieces("%s%5s%-s%d")
            .into_iter()
            .filter_map(|piece| match piece {
                Printf::Conversion(conversion) => Some(conversion.is_plain()),
                Printf::Text(_) => None,
            })
            .collect();
        assert_eq!(plain, [true, false, false, true]);
        assert_eq!(printf("%*s", &["many", "x"]), "?");
    }

    #[test]
    fn named_conversions_carry_their_name() {
        let names: Vec<Option<&str>> = printf_pieces("%(a)s/%<b>5s/%{c}/%s")
            .into_iter()
            .filter_map(|piece| match piece {
                Printf::Conversion(conversion) => Some(conversion.name),
                Printf::Text(_) => None,
            })
            .collect();
        assert_eq!(names, [Some("a"), Some("b"), Some("c"), None]);
        let Some(Printf::Conversion(placed)) = printf_pieces("%2$-4s").into_iter().next() else {
            panic!("a conversion")
        };
        assert_eq!((placed.index, placed.print("ab", &[])), (Some(2), Some("ab  ".to_string())));
        assert_eq!(printf_pieces("%(open"), [Printf::Text("%"), Printf::Text("(open")]);
    }

    #[test]
    fn composite_formats_have_fields_and_doubled_braces() {
        use Composite::{Field, Text};
        assert_eq!(
            composite_pieces("{{a}} {0}/{name:>8}x"),
            [Text("{"), Text("a"), Text("}"), Text(" "), Field("0"), Text("/"), Field("name:>8"), Text("x")]
        );
        assert_eq!(composite_pieces("a{b"), [Text("a"), Field("b")]);
    }
}
