//! PowerShell values as far as they are static: arguments in argument mode (barewords, `'…'` with
//! `''`, `"…"` with backtick escapes and `""`, here-strings `@'…'@` and `@"…"@`, `$var`, `${var}`,
//! arrays `a,b`, a leading `~`) and the simple expressions assigned to variables (strings,
//! variables, numbers, `+`, `,`, `Join-Path`). Whatever stays unknown (`$(…)`, `(…)`, an unknown
//! variable) is kept as its source text and the value is marked dynamic, so the rest of its path
//! still counts.

use std::path::Path;

use crate::analysis::Unscannable;
use crate::analysis::formats::{self, Composite};
use crate::analysis::values::{MAX_VALUES, TEMPORARY_FOLDER_VARIABLES, Value, Vars, temporary_folder};

/// What evaluation reads from the walk.
pub struct Context<'a> {
    pub vars: &'a Vars,
    pub base: &'a Path,
    pub home: Option<&'a str>,
}

const SINGLE_QUOTES: [char; 5] = ['\'', '\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}'];
const DOUBLE_QUOTES: [char; 4] = ['"', '\u{201C}', '\u{201D}', '\u{201E}'];

fn is_single_quote(c: char) -> bool {
    SINGLE_QUOTES.contains(&c)
}

fn is_double_quote(c: char) -> bool {
    DOUBLE_QUOTES.contains(&c)
}

/// The values of one command argument (`a,'b'` is two).
pub fn argument(text: &str, cx: &Context) -> Result<Vec<Value>, Unscannable> {
    argument_within(text, cx, 0)
}

fn argument_within(text: &str, cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let chars: Vec<char> = text.chars().collect();
    let mut values = Vec::new();
    for element in split_top(&chars, ',') {
        values.extend(word(element, cx, depth)?);
        if values.len() > MAX_VALUES {
            return Err(Unscannable::ExpansionTooLarge);
        }
    }
    Ok(values)
}

/// The values of an expression: the right side of `=`, a `foreach` list. `None` parts are
/// unknown and come back as dynamic placeholders.
pub fn expression(text: &str, cx: &Context) -> Result<Vec<Value>, Unscannable> {
    expression_within(text, cx, 0)
}

/// Parentheses nested deeper than this in an expression leave it unknown.
const MAX_EXPRESSION_DEPTH: usize = 16;

fn expression_within(text: &str, cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let trimmed = text.trim();
    if depth > MAX_EXPRESSION_DEPTH {
        return Ok(vec![Value::unknown(trimmed)]);
    }
    let chars: Vec<char> = trimmed.chars().collect();
    if let Some(inner) = wrapped(&chars) {
        return expression_within(&inner.iter().collect::<String>(), cx, depth + 1);
    }
    if let Some(parts) = path_combine(trimmed) {
        return join_parts(&parts, cx, depth);
    }
    if trimmed.get(..9).is_some_and(|head| head.eq_ignore_ascii_case("join-path"))
        && trimmed.chars().nth(9).is_none_or(char::is_whitespace)
    {
        return join_path(trimmed.get(9..).unwrap_or_default(), cx, depth);
    }
    if let Some(at) = format_operator(&chars) {
        let (left, right) = (chars.get(..at).unwrap_or_default(), chars.get(at + 2..).unwrap_or_default());
        return format(left, right, cx, depth);
    }
    let mut values = Vec::new();
    for element in split_top(&chars, ',') {
        let mut products = vec![Value::literal("")];
        for term in split_top(element, '+') {
            products = product(&products, &term_values(trim(term), cx, depth)?)?;
        }
        values.extend(products);
        if values.len() > MAX_VALUES {
            return Err(Unscannable::ExpansionTooLarge);
        }
    }
    Ok(values)
}

/// Where the format operator `-f` (any case) stands at the top level of an expression: after a
/// blank or a closing quote or bracket, before a blank, quote, bracket or `$`.
fn format_operator(chars: &[char]) -> Option<usize> {
    let mut at = 0;
    while at < chars.len() {
        let is_operator = chars.get(at) == Some(&'-')
            && chars.get(at + 1).is_some_and(|c| c.eq_ignore_ascii_case(&'f'))
            && at > 0
            && chars
                .get(at - 1)
                .is_some_and(|&c| c.is_whitespace() || is_single_quote(c) || is_double_quote(c) || c == ')')
            && chars.get(at + 2).is_some_and(|&c| {
                c.is_whitespace() || is_single_quote(c) || is_double_quote(c) || matches!(c, '(' | '$' | '@')
            });
        if is_operator {
            return Some(at);
        }
        at = skip_unit(chars, at);
    }
    None
}

/// `format -f arguments`: every format's `{N}` items replaced by every value of argument `N`
/// (`{{` and `}}` are braces); an item the walk cannot fill keeps its text and makes the value
/// dynamic.
fn format(left: &[char], right: &[char], cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let formats = expression_within(&left.iter().collect::<String>(), cx, depth + 1)?;
    let mut arguments = Vec::new();
    for element in split_top(right, ',') {
        arguments.push(expression_within(&element.iter().collect::<String>(), cx, depth + 1)?);
    }
    let mut values = Vec::new();
    for format in formats {
        let mut built = vec![Value::new(String::new(), format.dynamic)];
        for piece in formats::composite_pieces(&format.text) {
            let part = match piece {
                Composite::Text(text) => vec![Value::literal(text)],
                Composite::Field(item) => format_item(item, &arguments),
            };
            built = product(&built, &part)?;
        }
        values.extend(built);
        if values.len() > MAX_VALUES {
            return Err(Unscannable::ExpansionTooLarge);
        }
    }
    Ok(values)
}

/// The values of a format item `{N[,alignment][:format]}`: argument `N`'s, padded to the
/// alignment (negative: on the right); an item with a format string (`{0:x}` prints a number in
/// hexadecimal), past [`formats::MAX_WIDTH`], or whose argument the walk does not have keeps its
/// text, unknown.
fn format_item(item: &str, arguments: &[Vec<Value>]) -> Vec<Value> {
    let unknown = || vec![Value::unknown(&format!("{{{item}}}"))];
    let (index, alignment) = match item.split_once(',') {
        Some((index, alignment)) => (index, Some(alignment.trim())),
        None => (item, None),
    };
    let (Ok(index), false) = (index.trim().parse::<usize>(), item.contains(':')) else { return unknown() };
    let Some(argument) = arguments.get(index) else { return unknown() };
    let Some(alignment) = alignment else { return argument.clone() };
    let Ok(width) = alignment.parse::<i64>() else { return unknown() };
    let columns = usize::try_from(width.unsigned_abs()).unwrap_or(usize::MAX);
    if columns > formats::MAX_WIDTH {
        return unknown();
    }
    let padded = |value: &Value| {
        if value.dynamic {
            return value.clone();
        }
        let padding = " ".repeat(columns.saturating_sub(value.text.chars().count()));
        let text = if width < 0 { format!("{}{padding}", value.text) } else { format!("{padding}{}", value.text) };
        Value::new(text, false)
    };
    argument.iter().map(padded).collect()
}

/// A hashtable entry: the values its key may take, and its value's.
pub type Entry = (Vec<Value>, Vec<Value>);

/// The entries of a hashtable literal `@{ key = value; … }` (entries split at `;` and line
/// breaks): each key as its values (a quoted or bare name, or computed), each value as an
/// expression's. `None` when `text` is not one.
pub fn hashtable(text: &str, cx: &Context) -> Result<Option<Vec<Entry>>, Unscannable> {
    let text = text.trim();
    // `[ordered]@{…}` keeps the entries in order: the same entries.
    let text = match text.get(..9) {
        Some(cast) if cast.eq_ignore_ascii_case("[ordered]") => text.get(9..).unwrap_or_default().trim_start(),
        _ => text,
    };
    let chars: Vec<char> = text.chars().collect();
    let ['@', '{', inner @ .., '}'] = chars.as_slice() else { return Ok(None) };
    if matching(&chars, 1) != Some(chars.len() - 1) {
        return Ok(None);
    }
    let mut entries = Vec::new();
    for line in split_top(inner, '\n') {
        for entry in split_top(line, ';') {
            let parts = split_top(entry, '=');
            let (Some(key), true) = (parts.first(), parts.len() > 1) else { continue };
            // The value is everything after the first `=`.
            let value: String = entry.get(key.len() + 1..).unwrap_or_default().iter().collect();
            entries.push((word(trim(key), cx, 0)?, expression(&value, cx)?));
        }
    }
    Ok(Some(entries))
}

/// `(…)` or `@(…)` around the whole text: its inside.
fn wrapped(chars: &[char]) -> Option<&[char]> {
    let open = match chars {
        ['@', '(', ..] => 1,
        ['(', ..] => 0,
        _ => return None,
    };
    let close = matching(chars, open)?;
    (close + 1 == chars.len()).then(|| chars.get(open + 1..close)).flatten()
}

fn trim(chars: &[char]) -> &[char] {
    let start = chars.iter().position(|c| !c.is_whitespace()).unwrap_or(chars.len());
    let end = chars.iter().rposition(|c| !c.is_whitespace()).map_or(start, |at| at + 1);
    chars.get(start..end).unwrap_or_default()
}

fn term_values(term: &[char], cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let text: String = term.iter().collect();
    let quoted = term.first().is_some_and(|&c| is_single_quote(c) || is_double_quote(c))
        || matches!(term, ['@', q, ..] if is_single_quote(*q) || is_double_quote(*q));
    if let Some(values) = string_method(&text, cx, depth)? {
        return Ok(values);
    }
    if quoted {
        return word(term, cx, depth);
    }
    if let ['$', name @ ..] = term
        && !name.is_empty()
        && name.iter().all(|&c| is_name_char(c) || c == ':')
    {
        return Ok(lookup(&name.iter().collect::<String>(), cx));
    }
    if !term.is_empty() && term.iter().all(|c| c.is_ascii_digit()) {
        return Ok(vec![Value::literal(&text)]);
    }
    // `$x.Member`, `$x.Method(…)`.
    if let ['$', rest @ ..] = term
        && let Some(dot) = rest.iter().position(|&c| c == '.')
        && let Some(name) = rest.get(..dot).filter(|name| !name.is_empty() && name.iter().all(|&c| is_name_char(c)))
        && member(term, dot + 1) == Some(term.len())
    {
        return member_values(&name.iter().collect::<String>(), &text, cx, depth);
    }
    if is_current_location(&text) {
        return Ok(vec![Value::literal(&cx.base.to_string_lossy())]);
    }

    if let Some(inner) = wrapped(term) {
        return expression_within(&inner.iter().collect::<String>(), cx, depth + 1);
    }
    Ok(vec![Value::unknown(&text)])
}

/// `Get-Location` (`gl`, `pwd`) and its `.Path` as an expression: the location the walk is in.
fn is_current_location(text: &str) -> bool {
    const SPELLINGS: [&str; 6] = ["get-location", "gl", "pwd", "(get-location).path", "(gl).path", "(pwd).path"];
    SPELLINGS.contains(&text.to_ascii_lowercase().replace(' ', "").as_str())
}

/// `$x.ToLower()`, `'A'.ToUpper()`, `$x.Trim()` and the like: string methods that only change
/// case or trim blanks, applied to every value (P-18: a case-changed spelling is still one).
fn string_method(text: &str, cx: &Context, depth: usize) -> Result<Option<Vec<Value>>, Unscannable> {
    let Some((receiver, method)) = text.rsplit_once('.') else { return Ok(None) };
    let change: fn(&str) -> String = match method.to_ascii_lowercase().replace(' ', "").as_str() {
        "tolower()" | "tolowerinvariant()" => str::to_lowercase,
        "toupper()" | "toupperinvariant()" => str::to_uppercase,
        "trim()" => |text| text.trim().to_string(),
        "trimstart()" => |text| text.trim_start().to_string(),
        "trimend()" => |text| text.trim_end().to_string(),
        _ => return Ok(None),
    };
    let chars: Vec<char> = receiver.chars().collect();
    let values = term_values(trim(&chars), cx, depth + 1)?;
    Ok(Some(values.into_iter().map(|value| Value { text: change(&value.text), ..value }).collect()))
}

/// `[IO.Path]::Combine(a, b, …)`, `[System.IO.Path]::Join(…)`: the texts of its arguments.
fn path_combine(text: &str) -> Option<Vec<String>> {
    let lower = text.to_lowercase().replace(' ', "");
    let call = ["[io.path]::combine(", "[system.io.path]::combine(", "[io.path]::join(", "[system.io.path]::join("]
        .iter()
        .any(|head| lower.starts_with(head));
    if !call || !text.ends_with(')') {
        return None;
    }
    let open = text.find('(')?;
    let chars: Vec<char> = text.get(open..)?.chars().collect();
    let inner = wrapped(&chars)?;
    Some(split_top(inner, ',').into_iter().map(|part| part.iter().collect()).collect())
}

/// Expressions joined with `/`, every combination of their values.
fn join_parts(parts: &[String], cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let mut products = vec![Value::literal("")];
    for part in parts {
        let values = expression_within(part, cx, depth + 1)?;
        let mut joined = Vec::new();
        for left in &products {
            for right in &values {
                let text = if left.text.is_empty() {
                    right.text.clone()
                } else {
                    format!("{}/{}", left.text.trim_end_matches(['/', '\\']), right.text)
                };
                joined.push(Value::new(text, left.dynamic || right.dynamic));
                if joined.len() > MAX_VALUES {
                    return Err(Unscannable::ExpansionTooLarge);
                }
            }
        }
        products = joined;
    }
    Ok(products)
}

/// `Join-Path a b [c …]`, `-Path`/`-ChildPath` named or not: the parts joined with `/`.
fn join_path(arguments: &str, cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let chars: Vec<char> = arguments.chars().collect();
    let mut products = vec![Value::literal("")];
    for part in split_blank(&chars) {
        if part.first() == Some(&'-') {
            continue;
        }
        let values = argument_within(&part.iter().collect::<String>(), cx, depth + 1)?;
        let joined: Vec<Value> = products
            .iter()
            .flat_map(|left| {
                values.iter().map(move |right| {
                    let text = if left.text.is_empty() {
                        right.text.clone()
                    } else {
                        format!("{}/{}", left.text.trim_end_matches(['/', '\\']), right.text)
                    };
                    Value::new(text, left.dynamic || right.dynamic)
                })
            })
            .collect();
        if joined.len() > MAX_VALUES {
            return Err(Unscannable::ExpansionTooLarge);
        }
        products = joined;
    }
    Ok(products)
}

/// Every concatenation of a left value with a right one.
fn product(left: &[Value], right: &[Value]) -> Result<Vec<Value>, Unscannable> {
    if left.len().saturating_mul(right.len()) > MAX_VALUES {
        return Err(Unscannable::ExpansionTooLarge);
    }
    Ok(left
        .iter()
        .flat_map(|l| right.iter().map(move |r| Value::new(format!("{}{}", l.text, r.text), l.dynamic || r.dynamic)))
        .collect())
}

/// Splits on blanks outside quotes and brackets: the words of a command line.
pub fn split_blank(chars: &[char]) -> Vec<&[char]> {
    let mut parts = Vec::new();
    let mut start = None;
    let mut at = 0;
    while at < chars.len() {
        let c = chars.get(at).copied().unwrap_or(' ');
        if c.is_whitespace() {
            if let Some(from) = start.take() {
                parts.extend(chars.get(from..at));
            }
            at += 1;
            continue;
        }
        start.get_or_insert(at);
        at = skip_unit(chars, at);
    }
    if let Some(from) = start {
        parts.extend(chars.get(from..));
    }
    parts
}

/// Splits a command line into commands at `;`, `|`, `&&`, `||` and line breaks outside quotes and
/// brackets.
pub fn split_commands(chars: &[char]) -> Vec<&[char]> {
    let mut parts = Vec::new();
    let mut from = 0;
    let mut at = 0;
    while at < chars.len() {
        let c = chars.get(at).copied().unwrap_or(' ');
        if matches!(c, ';' | '|' | '\n' | '\r') || (c == '&' && chars.get(at + 1) == Some(&'&')) {
            parts.extend(chars.get(from..at));
            at += if matches!(c, '|' | '&') && chars.get(at + 1) == Some(&c) { 2 } else { 1 };
            from = at;
            continue;
        }
        at = skip_unit(chars, at);
    }
    parts.extend(chars.get(from..));
    parts.retain(|part| part.iter().any(|c| !c.is_whitespace()));
    parts
}

/// Splits on `separator` outside quotes and brackets.
fn split_top(chars: &[char], separator: char) -> Vec<&[char]> {
    let mut parts = Vec::new();
    let mut from = 0;
    let mut at = 0;
    while at < chars.len() {
        if chars.get(at) == Some(&separator) {
            parts.extend(chars.get(from..at));
            at += 1;
            from = at;
            continue;
        }
        at = skip_unit(chars, at);
    }
    parts.extend(chars.get(from..));
    parts
}

/// The index after the lexical unit that starts at `at`: a quoted string, a bracketed group, an
/// escaped character, or one character; the end of the text when it is not closed.
fn skip_unit(chars: &[char], at: usize) -> usize {
    unit_end(chars, at).unwrap_or(chars.len())
}

/// The index of the bracket closing the one at `open`.
fn matching(chars: &[char], open: usize) -> Option<usize> {
    unit_end(chars, open).map(|end| end - 1)
}

/// The index of the quote ending a `"…"` whose text starts at `from` (after its opening quote).
fn closing_double(chars: &[char], from: usize) -> Option<usize> {
    unit_end(chars, from.checked_sub(1)?).map(|end| end - 1)
}

/// The index after the unit at `at`, `None` when it is not closed. Iterative with its own stack
/// of expected closers, so nesting depth costs no call stack.
fn unit_end(chars: &[char], at: usize) -> Option<usize> {
    // `"` on the stack: inside a double-quoted string.
    let mut stack: Vec<char> = Vec::new();
    let mut i = at;
    loop {
        let c = *chars.get(i)?;
        if stack.last() == Some(&'"') {
            match c {
                '`' => i += 2,
                c if is_double_quote(c) => {
                    if chars.get(i + 1).is_some_and(|&next| is_double_quote(next)) {
                        i += 2;
                    } else {
                        stack.pop();
                        i += 1;
                    }
                }
                '$' if chars.get(i + 1) == Some(&'(') => {
                    stack.push(')');
                    i += 2;
                }
                _ => i += 1,
            }
        } else {
            match c {
                '`' => i += 2,
                '@' if chars.get(i + 1).is_some_and(|&q| is_single_quote(q) || is_double_quote(q)) => {
                    i = here_string(chars, i).map_or(i + 1, |(_, end)| end);
                }
                c if is_single_quote(c) => {
                    let (_, end, closed) = single_quoted(chars, i);
                    if !closed {
                        return None;
                    }
                    i = end;
                }
                c if is_double_quote(c) => {
                    stack.push('"');
                    i += 1;
                }
                '(' => {
                    stack.push(')');
                    i += 1;
                }
                '{' => {
                    stack.push('}');
                    i += 1;
                }
                '[' => {
                    stack.push(']');
                    i += 1;
                }
                c if stack.last() == Some(&c) => {
                    stack.pop();
                    i += 1;
                }
                _ => i += 1,
            }
        }
        if stack.is_empty() {
            return Some(i.min(chars.len()));
        }
    }
}

/// `'…'` from `at` (the quote): its text (`''` is one quote), the index after it, and whether it
/// is closed.
fn single_quoted(chars: &[char], at: usize) -> (String, usize, bool) {
    let mut text = String::new();
    let mut i = at + 1;
    while let Some(&c) = chars.get(i) {
        if is_single_quote(c) {
            if chars.get(i + 1).is_some_and(|&next| is_single_quote(next)) {
                text.push(c);
                i += 2;
                continue;
            }
            return (text, i + 1, true);
        }
        text.push(c);
        i += 1;
    }
    (text, chars.len(), false)
}

/// A here-string at `at` (`@'` or `@"`, a line break, the body, a line starting with `'@`/`"@`):
/// the body's range and the index after it.
fn here_string(chars: &[char], at: usize) -> Option<((usize, usize), usize)> {
    let quote = *chars.get(at + 1)?;
    let mut i = at + 2;
    while chars.get(i).is_some_and(|&c| c == ' ' || c == '\t') {
        i += 1;
    }
    match chars.get(i) {
        Some('\r') if chars.get(i + 1) == Some(&'\n') => i += 2,
        Some('\n') => i += 1,
        _ => return None,
    }
    let body = i;
    let same_kind = |c: char| if is_single_quote(quote) { is_single_quote(c) } else { is_double_quote(c) };
    let mut line = body;
    loop {
        if chars.get(line).is_some_and(|&c| same_kind(c)) && chars.get(line + 1) == Some(&'@') {
            let mut end = line;
            if end > body && chars.get(end - 1) == Some(&'\n') {
                end -= 1;
                if end > body && chars.get(end - 1) == Some(&'\r') {
                    end -= 1;
                }
            }
            return Some(((body, end.max(body)), line + 2));
        }
        let next = chars.get(line..)?.iter().position(|&c| c == '\n')?;
        line += next + 1;
    }
}

/// The values of one argument element: the concatenation of its parts.
fn word(chars: &[char], cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let mut builder = Builder::new();
    let mut at = 0;
    if let ['~', rest @ ..] = chars
        && rest.first().is_none_or(|&c| c == '/' || c == '\\')
        && let Some(home) = cx.home
    {
        builder.push_str(home);
        at = 1;
    }
    if let Some(inner) = wrapped(chars) {
        // `(…)` as an argument is an expression: its values; a part it does not compute keeps
        // its parentheses, so that the path still reads as computed.
        let values = expression_within(&inner.iter().collect::<String>(), cx, depth + 1)?;
        return Ok(values
            .into_iter()
            .map(|value| match value.dynamic && !value.text.contains(['$', '(']) {
                true => Value::unknown(&format!("({})", value.text)),
                false => value,
            })
            .collect());
    }
    if matches!(chars, ['(', ..] | ['@', '(', ..] | ['{', ..]) {
        let text: String = chars.iter().collect();
        return Ok(vec![Value::unknown(&text)]);
    }
    while let Some(&c) = chars.get(at) {
        match c {
            '`' => {
                if let Some(&escaped) = chars.get(at + 1) {
                    builder.push(escape(escaped));
                }
                at += 2;
            }
            '@' if chars.get(at + 1).is_some_and(|&q| is_single_quote(q) || is_double_quote(q)) => {
                match here_string(chars, at) {
                    Some(((start, end), after)) => {
                        let body = chars.get(start..end).unwrap_or_default();
                        if chars.get(at + 1).is_some_and(|&q| is_single_quote(q)) {
                            builder.push_str(&body.iter().collect::<String>());
                        } else {
                            expandable(body, cx, &mut builder, false, depth)?;
                        }
                        at = after;
                    }
                    None => {
                        builder.push(c);
                        at += 1;
                    }
                }
            }
            c if is_single_quote(c) => {
                let (text, after, _) = single_quoted(chars, at);
                builder.push_str(&text);
                at = after;
            }
            c if is_double_quote(c) => {
                let end = closing_double(chars, at + 1).unwrap_or(chars.len());
                expandable(chars.get(at + 1..end).unwrap_or_default(), cx, &mut builder, true, depth)?;
                at = end + 1;
            }
            '$' => at = variable(chars, at, cx, &mut builder, depth, true)?,
            _ => {
                builder.push(c);
                at += 1;
            }
        }
    }
    Ok(builder.values)
}

/// The text of a `"…"` string or `@"…"@` body (`doubled`: `""` stands for one quote).
fn expandable(
    chars: &[char],
    cx: &Context,
    builder: &mut Builder,
    doubled: bool,
    depth: usize,
) -> Result<(), Unscannable> {
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        match c {
            '`' => {
                if let Some(&escaped) = chars.get(at + 1) {
                    builder.push(escape(escaped));
                }
                at += 2;
            }
            c if doubled && is_double_quote(c) && chars.get(at + 1).is_some_and(|&n| is_double_quote(n)) => {
                builder.push(c);
                at += 2;
            }
            '$' => at = variable(chars, at, cx, builder, depth, false)?,
            _ => {
                builder.push(c);
                at += 1;
            }
        }
    }
    Ok(())
}

/// A backtick escape.
fn escape(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' => '\u{1b}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        other => other,
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '?'
}

/// A `$` expansion at `at`: appends its values; returns the index after it. In argument mode
/// (`member_access`), `$x.Member` and `$x.Method(…)` are read too (in a string they are not).
fn variable(
    chars: &[char],
    at: usize,
    cx: &Context,
    builder: &mut Builder,
    depth: usize,
    member_access: bool,
) -> Result<usize, Unscannable> {
    match chars.get(at + 1) {
        Some('(') => {
            let end = matching(chars, at + 1).map_or(chars.len(), |end| end + 1);
            let text: String = chars.get(at..end).unwrap_or_default().iter().collect();
            // `$(…)` of an expression the walk computes whole is its values; anything else
            // (a command, a method it does not know) stays unknown.
            let inner: String = chars.get(at + 2..end.saturating_sub(1)).unwrap_or_default().iter().collect();
            let values = expression_within(&inner, cx, depth + 1)?;
            if values.iter().any(|value| value.dynamic) || matching(chars, at + 1).is_none() {
                builder.append(&[Value::unknown(&text)])?;
            } else {
                builder.append(&values)?;
            }
            Ok(end)
        }
        Some('{') => {
            let close = chars.get(at + 2..).and_then(|rest| rest.iter().position(|&c| c == '}'));
            let end = close.map_or(chars.len(), |offset| at + 2 + offset);
            let name: String = chars.get(at + 2..end).unwrap_or_default().iter().collect();
            builder.append(&lookup(&name, cx))?;
            Ok(end + 1)
        }
        Some(&c) if is_name_char(c) || c == '$' || c == '^' => {
            let mut end = at + 1;
            if c == '$' || c == '^' {
                end += 1;
            } else {
                while let Some(&next) = chars.get(end) {
                    // `$env:NAME`, `$script:x`: one colon, followed by a name.
                    let qualifier = next == ':' && chars.get(end + 1).is_some_and(|&n| is_name_char(n));
                    if is_name_char(next) || qualifier {
                        end += 1;
                    } else {
                        break;
                    }
                }
            }
            let name: String = chars.get(at + 1..end).unwrap_or_default().iter().collect();
            match member_access.then(|| member(chars, end)).flatten() {
                Some(after) => {
                    let text: String = chars.get(at..after).unwrap_or_default().iter().collect();
                    builder.append(&member_values(&name, &text, cx, depth)?)?;
                    Ok(after)
                }
                None => {
                    builder.append(&lookup(&name, cx))?;
                    Ok(end)
                }
            }
        }
        _ => {
            builder.push('$');
            Ok(at + 1)
        }
    }
}

/// The index after a member access `.Name` or method call `.Name(…)` at `at`, if one is there.
fn member(chars: &[char], at: usize) -> Option<usize> {
    if chars.get(at) != Some(&'.') || !chars.get(at + 1).is_some_and(|c| c.is_alphabetic()) {
        return None;
    }
    let mut end = at + 1;
    while chars.get(end).is_some_and(|&c| c.is_alphanumeric() || c == '_') {
        end += 1;
    }
    match chars.get(end) {
        Some('(') => matching(chars, end).map(|close| close + 1),
        _ => Some(end),
    }
}

/// `$name.Member` (`text`): a path's own members (`$PWD.Path`, `$_.FullName`) are the value; a
/// string method [`string_method`] knows is applied; anything else the walk does not compute.
fn member_values(name: &str, text: &str, cx: &Context, depth: usize) -> Result<Vec<Value>, Unscannable> {
    let member = text.rsplit_once('.').map(|(_, member)| member.to_ascii_lowercase()).unwrap_or_default();
    if matches!(member.as_str(), "path" | "fullname" | "providerpath") {
        return Ok(lookup(name, cx));
    }
    Ok(string_method(text, cx, depth)?.unwrap_or_else(|| vec![Value::unknown(text)]))
}

/// A variable's name as the walk keys it: lower case, without `script:`, `global:`, `local:`,
/// `private:`, `using:`.
pub fn variable_key(name: &str) -> String {
    let lower = name.trim_start_matches('$').to_lowercase();
    for scope in ["script:", "global:", "local:", "private:", "using:"] {
        if let Some(rest) = lower.strip_prefix(scope) {
            return rest.to_string();
        }
    }
    lower
}

/// The values of `$name`.
fn lookup(name: &str, cx: &Context) -> Vec<Value> {
    let key = variable_key(name);
    let home = || cx.home.map(Value::literal).unwrap_or_else(|| Value::unknown(&format!("${name}")));
    match key.as_str() {
        "null" => vec![Value::literal("")],
        "true" => vec![Value::literal("True")],
        "false" => vec![Value::literal("False")],
        "pwd" => vec![Value::literal(&cx.base.to_string_lossy())],
        "home" | "env:home" | "env:userprofile" => vec![home()],
        _ => match cx.vars.get(&key) {
            Some(values) => values.clone(),
            None if TEMPORARY_FOLDER_VARIABLES.contains(&key.as_str()) => vec![temporary_folder()],
            None => vec![Value::unknown(&format!("${name}"))],
        },
    }
}

/// The values a word may take as it is read left to right.
struct Builder {
    values: Vec<Value>,
}

impl Builder {
    fn new() -> Self {
        Builder { values: vec![Value::literal("")] }
    }

    fn push(&mut self, c: char) {
        for value in &mut self.values {
            value.text.push(c);
        }
    }

    fn push_str(&mut self, text: &str) {
        for value in &mut self.values {
            value.text.push_str(text);
        }
    }

    fn append(&mut self, values: &[Value]) -> Result<(), Unscannable> {
        self.values = product(&self.values, values)?;
        Ok(())
    }
}
