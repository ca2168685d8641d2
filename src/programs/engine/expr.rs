//! Expressions: the values of path expressions, as far as literals, variables and the language's
//! path functions go.

use super::value::{concat, percent_filled};
use super::{Engine, Val};
use crate::programs::lex::{Kind, Token};

/// The deepest expression evaluated; deeper parts are unknown.
const MAX_EXPRESSION_DEPTH: usize = 48;

impl<'a> Engine<'a> {
    /// The value of the expression at `*pos` (before `end`).
    pub fn expr(&mut self, pos: &mut usize, end: usize, depth: usize) -> Val {
        if depth > MAX_EXPRESSION_DEPTH || self.spent() {
            return Val::Unknown;
        }
        let mut path = self.starts_path(*pos);
        let mut value = self.term(pos, end, depth + 1);
        while *pos < end {
            let Some(token) = self.token(*pos) else { break };
            if self.grammar.juxtapose && token.kind != Kind::Punct && !token.line_start {
                let right = self.term(pos, end, depth + 1);
                value = concat(value, right, "");
                continue;
            }
            if token.kind != Kind::Punct {
                break;
            }
            if path && self.grammar.path_operators.contains(&token.text.as_str()) {
                // `Pathname.new('docs') + 'x'`: a path joined, still a path.
                *pos += 1;
                let right = self.term(pos, end, depth + 1);
                value = concat(value, right, "/");
                continue;
            }
            if let Some(&(_, separator)) = self.grammar.concat.iter().find(|(op, _)| token.text == *op) {
                *pos += 1;
                let right = self.term(pos, end, depth + 1);
                value = concat(value, right, separator);
                path = false;
                continue;
            }
            if self.grammar.percent_format && token.is("%") {
                *pos += 1;
                let arguments = match self.term(pos, end, depth + 1) {
                    Val::List(items) => items,
                    single => vec![single],
                };
                value = match value {
                    Val::Str(text) => Val::Str(percent_filled(&text, arguments)),
                    _ => Val::Unknown,
                };
                continue;
            }
            break;
        }
        value
    }

    pub(super) fn term(&mut self, pos: &mut usize, end: usize, depth: usize) -> Val {
        if depth > MAX_EXPRESSION_DEPTH || *pos >= end || self.spent() {
            return Val::Unknown;
        }
        let Some(token) = self.token(*pos) else { return Val::Unknown };
        *pos += 1;
        let mut value = match &token.kind {
            Kind::Str { .. } => Val::Str(token.text.clone()),
            Kind::Number => Val::Str(token.text.clone()),
            Kind::Ident if matches!(token.text.as_str(), "new" | "await" | "r" | "b") => self.term(pos, end, depth + 1),
            Kind::Ident => self.named(token, pos, end, depth),
            Kind::Punct if token.is("(") => {
                let inner = self.expr(pos, end, depth + 1);
                if self.grammar.paren_lists && self.token(*pos).is_some_and(|t| self.is_comma(t)) {
                    // Perl's `("touch", $p)`: the rest of the list up to its `)`.
                    let mut items = vec![inner];
                    items.extend(self.list(pos, end, depth, ")"));
                    Val::List(items)
                } else {
                    self.skip_to_close(pos, end);
                    inner
                }
            }
            // Ruby's `+"s"` (an unfrozen copy), Perl's `+(…)`: the operand.
            Kind::Punct if token.is("+") => self.term(pos, end, depth + 1),
            Kind::Punct if token.is("[") => Val::List(self.list(pos, end, depth, "]")),
            Kind::Punct if token.is("{") && self.grammar.brace_lists => Val::List(self.list(pos, end, depth, "}")),
            Kind::Punct => Val::Unknown,
        };
        let sigiled = token.text.starts_with(|c| self.grammar.sigils.contains(c));
        // Method calls and subscripts after the value.
        while *pos + 1 < end {
            let (Some(dot), Some(method)) = (self.token(*pos), self.token(*pos + 1)) else { break };
            if sigiled && dot.is("{") && !dot.line_start {
                // Perl's `$h{k}`: an element of a hash the analysis does not keep.
                *pos += 1;
                self.skip_to_close(pos, end);
                value = Val::Unknown;
                continue;
            }
            if dot.is("[") {
                // `list[0]`: the item at a literal index; any other subscript is unknown.
                let index =
                    self.token(*pos + 1).filter(|t| t.kind == Kind::Number).and_then(|t| t.text.parse::<usize>().ok());
                let closed = self.token(*pos + 2).is_some_and(|t| t.is("]"));
                *pos += 1;
                self.skip_to_close(pos, end);
                value = match (value, index) {
                    (Val::List(items), Some(index)) if closed => items.into_iter().nth(index).unwrap_or(Val::Unknown),
                    _ => Val::Unknown,
                };
                continue;
            }
            if !self.is_member(dot) || method.kind != Kind::Ident {
                break;
            }
            *pos += 2;
            let called = self.token(*pos).is_some_and(|t| t.is("("));
            let args = if called {
                *pos += 1;
                self.list(pos, end, depth, ")")
            } else {
                Vec::new()
            };
            value = self.method(value, &method.text, args);
        }
        value
    }

    pub(super) fn method(&self, value: Val, method: &str, args: Vec<Val>) -> Val {
        if self.grammar.identities.contains(&method) {
            return value;
        }
        if self.grammar.lowers.contains(&method) {
            return lowered(value);
        }
        match (method, value) {
            (format, Val::Str(text)) if self.grammar.format_methods.contains(&format) => {
                Val::Str(percent_filled(&text, args))
            }
            ("join", Val::Str(separator)) => match args.into_iter().next() {
                Some(Val::List(items)) => {
                    items.into_iter().reduce(|a, b| concat(a, b, &separator)).unwrap_or(Val::Str(String::new()))
                }
                _ => Val::Unknown,
            },
            // Ruby's `%w(a b).join('/')`.
            ("join", Val::List(items)) => {
                let separator = match args.into_iter().next() {
                    None => String::new(),
                    Some(Val::Str(separator)) => separator,
                    Some(_) => return Val::Unknown,
                };
                items.into_iter().reduce(|a, b| concat(a, b, &separator)).unwrap_or(Val::Str(String::new()))
            }
            ("joinpath", value @ Val::Str(_)) => args.into_iter().fold(value, |a, b| concat(a, b, "/")),
            ("parent", Val::Str(text)) => {
                Val::Str(text.rsplit_once('/').map_or_else(|| ".".to_string(), |(dir, _)| dir.to_string()))
            }
            ("concat", value @ Val::Str(_)) => args.into_iter().fold(value, |a, b| concat(a, b, "")),
            _ => Val::Unknown,
        }
    }

    /// An identifier: a variable, or a call of a function the grammar knows.
    pub(super) fn named(&mut self, token: &'a Token, pos: &mut usize, end: usize, depth: usize) -> Val {
        let mut names: Vec<&'a str> = vec![&token.text];
        while *pos + 1 < end {
            let (Some(dot), Some(next)) = (self.token(*pos), self.token(*pos + 1)) else { break };
            if !self.is_member(dot) || next.kind != Kind::Ident {
                break;
            }
            names.push(&next.text);
            *pos += 2;
        }
        let called = *pos < end && self.token(*pos).is_some_and(|t| t.is("("));
        if !called {
            if let [only] = names.as_slice()
                && let Some((_, value)) = self.grammar.constants.iter().find(|(name, _)| name == only)
            {
                return Val::Str((*value).to_string());
            }
            return match names.as_slice() {
                [only] => self.vars.get(self.var_name(only)).cloned().unwrap_or(Val::Unknown),
                [.., last] if matches!(*last, "curdir" | "__dirname") => Val::Str(".".to_string()),
                _ => Val::Unknown,
            };
        }
        *pos += 1;
        let args = self.list(pos, end, depth, ")");
        let last = names.last().copied().unwrap_or_default();
        let before_last = names.len().checked_sub(2).and_then(|at| names.get(at)).copied();
        // `f:format(d)`, `p:lower()`: a method the grammar computes, of a variable's value.
        if let [receiver, method] = names.as_slice()
            && [self.grammar.format_methods, self.grammar.lowers, self.grammar.identities]
                .iter()
                .any(|list| list.contains(method))
            && let Some(value) = self.vars.get(self.var_name(receiver)).cloned()
        {
            return self.method(value, method, args);
        }
        // An entry is a last name (`join`) or the last two (`path.join`).
        let known = |list: &[&str]| {
            list.iter().any(|entry| {
                *entry == last
                    || entry
                        .strip_suffix(last)
                        .and_then(|head| head.strip_suffix('.'))
                        .is_some_and(|qualifier| before_last == Some(qualifier))
            })
        };
        if known(self.grammar.joins) || known(self.grammar.path_types) {
            return args.into_iter().reduce(|a, b| concat(a, b, "/")).unwrap_or(Val::Str(".".to_string()));
        }
        if known(self.grammar.concats) {
            return args.into_iter().reduce(|a, b| concat(a, b, "")).unwrap_or(Val::Str(String::new()));
        }
        if known(self.grammar.identities) {
            return args.into_iter().next().unwrap_or(Val::Unknown);
        }
        if known(self.grammar.globs) {
            return match args.into_iter().next() {
                Some(Val::Str(pattern)) if self.grammar.glob_words => {
                    Val::List(pattern.split_whitespace().map(|word| Val::Str(word.to_string())).collect())
                }
                Some(pattern @ Val::Str(_)) => Val::List(vec![pattern]),
                _ => Val::Unknown,
            };
        }
        if known(self.grammar.list_makers) {
            let flat = args.into_iter().flat_map(|arg| match arg {
                Val::List(items) => items,
                item => vec![item],
            });
            return Val::List(flat.collect());
        }
        if known(self.grammar.lowers) {
            return lowered(args.into_iter().next().unwrap_or(Val::Unknown));
        }
        // `table.concat({…}, '/')`, `implode('/', [...])`: a list joined by a separator.
        if known(self.grammar.list_joins) {
            return joined_list(args, self.grammar.separator_first);
        }
        if known(self.grammar.formats) {
            let mut args = args.into_iter();
            return match args.next() {
                Some(Val::Str(text)) => Val::Str(percent_filled(&text, args.collect())),
                _ => Val::Unknown,
            };
        }
        if matches!(last, "cwd" | "getcwd" | "pwd") {
            return Val::Str(".".to_string());
        }
        if matches!(last, "require") {
            return match args.into_iter().next() {
                Some(Val::Str(spec)) => Val::Module(spec),
                _ => Val::Unknown,
            };
        }
        Val::Unknown
    }

    /// Comma-separated values up to the closing `close`.
    pub(super) fn list(&mut self, pos: &mut usize, end: usize, depth: usize, close: &str) -> Vec<Val> {
        let mut items = Vec::new();
        while *pos < end {
            if self.spent() {
                break;
            }
            let Some(token) = self.token(*pos) else { break };
            if token.is(close) {
                *pos += 1;
                return items;
            }
            if self.is_comma(token) {
                *pos += 1;
                continue;
            }
            let before = *pos;
            // Keyword arguments: `sep='/'` is not a value of the list.
            let keyword = self.token(*pos + 1).is_some_and(|t| t.is("=")) && token.kind == Kind::Ident;
            if keyword {
                *pos += 2;
                let _ = self.expr(pos, end, depth + 1);
            } else {
                let item = self.expr(pos, end, depth + 1);
                items.push(item);
            }
            if *pos == before {
                // Something the evaluator does not read: skip it, stay in the list.
                *pos += 1;
                if let Some(last) = items.last_mut() {
                    *last = Val::Unknown;
                }
            }
        }
        items
    }

    /// `,`, and Perl's `=>`.
    pub(super) fn is_comma(&self, token: &Token) -> bool {
        token.is(",") || self.grammar.fat_comma && token.is("=>")
    }

    /// Whether the term at `at` is a path object (`Pathname.new(…)`, a variable assigned one).
    fn starts_path(&self, at: usize) -> bool {
        !self.grammar.path_operators.is_empty()
            && self.token(at).is_some_and(|t| {
                t.kind == Kind::Ident
                    && (self.grammar.path_types.contains(&t.text.as_str())
                        || self.path_vars.contains(self.var_name(&t.text)))
            })
    }

    /// Moves past the `)` or `]` that closes the group the cursor is in.
    pub(super) fn skip_to_close(&self, pos: &mut usize, end: usize) {
        let mut depth = 0usize;
        while *pos < end {
            let Some(token) = self.token(*pos) else { return };
            *pos += 1;
            if self.spent() {
                return;
            }
            if token.kind != Kind::Punct {
                continue;
            }
            match token.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => return,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
    }
}

/// A value lower-cased (`lc`, `downcase`, `strtolower`, `string.lower`).
fn lowered(value: Val) -> Val {
    match value {
        Val::Str(text) => Val::Str(text.to_lowercase()),
        _ => Val::Unknown,
    }
}

/// A list joined by a separator given after it (`table.concat(list, sep)`) or before it
/// (`implode(sep, list)`, Perl's `join(sep, @a, $b)`, whose lists flatten).
fn joined_list(args: Vec<Val>, separator_first: bool) -> Val {
    let mut args = args.into_iter();
    let (separator, items) = if separator_first {
        let separator = args.next();
        let items: Vec<Val> = args
            .flat_map(|arg| match arg {
                Val::List(items) => items,
                item => vec![item],
            })
            .collect();
        (separator, Some(Val::List(items)))
    } else {
        let list = args.next();
        (args.next(), list)
    };
    let separator = match separator {
        None => String::new(),
        Some(Val::Str(text)) => text,
        Some(_) => return Val::Unknown,
    };
    match items {
        Some(Val::List(items)) => {
            items.into_iter().reduce(|a, b| concat(a, b, &separator)).unwrap_or(Val::Str(String::new()))
        }
        _ => Val::Unknown,
    }
}
