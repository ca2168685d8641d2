//! A bounded lexer shared by the languages: string literals (with their interpolations turned
//! into holes), identifiers, numbers and punctuation, comments dropped. It never fails: text it
//! cannot read becomes punctuation, and an unterminated string runs to the end of the program.

/// Stands for a part of a string the analysis cannot know (an interpolation, a variable).
pub const HOLE: char = crate::analysis::values::PROGRAM_HOLE;
/// Stands for a name picked at run time that holds only letters, digits and `_`, never empty
/// (the random part of `mkdtemp`'s folder): it stays in the folder its known parts fix, so a path
/// with it is the glob of every name it may be ([`crate::analysis::values::Holes`]).
pub const NAME_HOLE: char = crate::analysis::values::PROGRAM_NAME_HOLE;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    None,
    /// Python f-strings: `{expr}`.
    Braces,
    /// JavaScript templates: `${expr}`.
    DollarBraces,
    /// Ruby: `#{expr}`.
    HashBraces,
    /// Perl and PHP: `$name`, `@name`, `${…}`, `{$…}`.
    Sigils,
}

#[derive(Debug, Clone, Copy)]
pub struct Quote {
    pub open: &'static str,
    pub close: &'static str,
    pub escapes: bool,
    pub interpolation: Interpolation,
    /// The string is a command the program runs (backquotes).
    pub command: bool,
}

pub const fn quote(open: &'static str, close: &'static str, escapes: bool, interpolation: Interpolation) -> Quote {
    Quote { open, close, escapes, interpolation, command: false }
}

/// How one language spells comments and strings.
pub struct Syntax {
    pub line_comments: &'static [&'static str],
    pub block_comments: &'static [(&'static str, &'static str)],
    /// Longest first: `"""` before `"`.
    pub quotes: &'static [Quote],
    /// Python's `r`/`b`/`f` prefixes before a quote.
    pub string_prefixes: bool,
    /// `/…/` where an operand is expected (JavaScript, Perl, Ruby).
    pub regex_literals: bool,
    /// Perl's `q(…)`, `qq{…}`, `qw`, `qx`, and Ruby's `%q(…)`, `%w`, `%x`.
    pub quote_operators: bool,
    /// Lua's `[[…]]` and `[==[…]==]`.
    pub long_brackets: bool,
    /// Characters that may start or continue an identifier besides letters, digits and `_`.
    pub ident_chars: &'static str,
    /// Perl's `<*.md>`: a glob, read as `glob("*.md")` (not `<FH>`, `<$fh>`, `<>`, a heredoc).
    pub angle_globs: bool,
    /// Ruby's ``Kernel.`(…)``: a backquote after a member operator is the name of a method.
    pub backquote_methods: bool,
    /// Ruby's `%w(a b)`: a list of words (Perl's `qw` is one with the quote operators).
    pub word_lists: bool,
}

impl Syntax {
    /// No comments, quotes or special literals: each language's syntax states only what it has.
    pub const PLAIN: Syntax = Syntax {
        line_comments: &[],
        block_comments: &[],
        quotes: &[],
        string_prefixes: false,
        regex_literals: false,
        quote_operators: false,
        long_brackets: false,
        ident_chars: "",
        angle_globs: false,
        backquote_methods: false,
        word_lists: false,
    };
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A string literal's value, with [`HOLE`] where it interpolates.
    Str {
        command: bool,
    },
    Ident,
    Number,
    Punct,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    /// A line break comes between this token and the previous one.
    pub line_start: bool,
}

impl Token {
    pub fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && self.text == punct
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == Kind::Ident && self.text == name
    }

    pub fn is_str(&self) -> bool {
        matches!(self.kind, Kind::Str { .. })
    }
}

const TWO_CHAR_PUNCT: [&str; 16] =
    ["==", "!=", "<=", ">=", ">>", "<<", "=>", "->", "::", "..", "&&", "||", "+=", ".=", "=~", "<-"];

/// `tokens` with every identifier in lower case, for a language whose names ignore case.
pub fn lowercase_identifiers(mut tokens: Vec<Token>) -> Vec<Token> {
    for token in tokens.iter_mut().filter(|token| token.kind == Kind::Ident) {
        token.text.make_ascii_lowercase();
    }
    tokens
}

/// Tokens of `text`, at most `max_tokens` of them (`None` past the cap).
pub fn tokens(text: &str, syntax: &Syntax, max_tokens: usize) -> Option<Vec<Token>> {
    let mut lexer = Lexer { text, at: 0, syntax, out: Vec::new(), line_start: true };
    while lexer.at < text.len() {
        if lexer.out.len() >= max_tokens {
            return None;
        }
        lexer.step();
    }
    Some(lexer.out)
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    syntax: &'a Syntax,
    out: Vec<Token>,
    line_start: bool,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or_default()
    }

    fn push(&mut self, kind: Kind, text: String) {
        self.out.push(Token { kind, text, line_start: self.line_start });
        self.line_start = false;
    }

    fn is_ident_char(&self, c: char) -> bool {
        c.is_alphanumeric() || c == '_' || self.syntax.ident_chars.contains(c)
    }

    /// Whether an operand may start here (a `/` then opens a regular expression).
    fn expects_operand(&self) -> bool {
        match self.out.last() {
            None => true,
            Some(token) if token.kind == Kind::Punct => !matches!(token.text.as_str(), ")" | "]" | "}"),
            Some(token) if token.kind == Kind::Ident => {
                matches!(
                    token.text.as_str(),
                    "return" | "typeof" | "split" | "grep" | "if" | "unless" | "and" | "or" | "not" | "when"
                )
            }
            _ => false,
        }
    }

    fn step(&mut self) {
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            self.at = self.text.len();
            return;
        };
        if c == '\n' {
            self.line_start = true;
            self.at += 1;
            return;
        }
        if c.is_whitespace() {
            self.at += c.len_utf8();
            return;
        }
        if let Some((open, close)) = self.syntax.block_comments.iter().find(|(open, _)| rest.starts_with(open)) {
            let body = rest.get(open.len()..).unwrap_or_default();
            self.at += open.len() + body.find(close).map_or(body.len(), |end| end + close.len());
            self.line_start = true;
            return;
        }
        if self.syntax.long_brackets && self.long_bracket() {
            return;
        }
        if self.syntax.line_comments.iter().any(|prefix| rest.starts_with(prefix)) {
            self.at += rest.find('\n').unwrap_or(rest.len());
            return;
        }
        if self.syntax.backquote_methods && c == '`' && self.out.last().is_some_and(|t| t.is(".") || t.is("::")) {
            self.at += 1;
            self.push(Kind::Ident, "`".to_string());
            return;
        }
        if self.syntax.angle_globs && c == '<' && self.angle_glob() {
            return;
        }
        if self.syntax.word_lists && c == '%' && self.word_list() {
            return;
        }
        if let Some(quote) = self.syntax.quotes.iter().find(|q| rest.starts_with(q.open)).copied() {
            self.at += quote.open.len();
            self.string(quote, false, quote.escapes);
            return;
        }
        if self.syntax.regex_literals && c == '/' && self.expects_operand() {
            self.regex();
            return;
        }
        if c.is_ascii_digit() {
            let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')).unwrap_or(rest.len());
            let number = rest.get(..len).unwrap_or_default().to_string();
            self.at += len.max(1);
            self.push(Kind::Number, number);
            return;
        }
        if self.is_ident_char(c) {
            let len = rest.find(|c: char| !self.is_ident_char(c)).unwrap_or(rest.len());
            let word = rest.get(..len).unwrap_or_default().to_string();
            self.at += len;
            if self.prefixed_string(&word) || self.quote_operator(&word) {
                return;
            }
            self.push(Kind::Ident, word);
            return;
        }
        let two = rest.get(..2).filter(|two| TWO_CHAR_PUNCT.contains(two));
        let punct = two.map_or_else(|| c.to_string(), str::to_string);
        self.at += punct.len();
        self.push(Kind::Punct, punct);
    }

    /// Perl's `<pattern>` where an operand may start (also after a function's name): the tokens
    /// of `glob("pattern")`, interpolated variables as holes. `<>`, `<<>>`, `<FH>`, `<$fh>` read
    /// lines and `<<` starts a heredoc: those are left as they are.
    fn angle_glob(&mut self) -> bool {
        let operand = self.expects_operand()
            || self.out.last().is_some_and(|t| {
                t.kind == Kind::Ident && !t.text.starts_with(|c: char| self.syntax.ident_chars.contains(c))
            });
        let body = self.rest().get(1..).unwrap_or_default();
        let Some(end) = body.find(['>', '\n', ';', '<']).filter(|&end| body.get(end..end + 1) == Some(">")) else {
            return false;
        };
        let content = body.get(..end).unwrap_or_default();
        let handle = content.strip_prefix('$').unwrap_or(content);
        let reads_lines = handle.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':');
        if !operand || content.starts_with('<') || reads_lines {
            return false;
        }
        let mut pattern = String::new();
        let mut at = 0;
        while let Some(c) = content.get(at..).and_then(|rest| rest.chars().next()) {
            let skipped = if matches!(c, '$' | '@') { sigil_length(content.get(at..).unwrap_or_default()) } else { 0 };
            if skipped > 0 {
                pattern.push(HOLE);
                at += skipped;
            } else {
                pattern.push(c);
                at += c.len_utf8();
            }
        }
        self.at += 2 + end;
        self.push(Kind::Ident, "glob".to_string());
        self.push(Kind::Punct, "(".to_string());
        self.push(Kind::Str { command: false }, pattern);
        self.push(Kind::Punct, ")".to_string());
        true
    }

    /// Python's `f'…'`, `rb"…"`: the word just read is a prefix when a quote follows it.
    fn prefixed_string(&mut self, word: &str) -> bool {
        if !self.syntax.string_prefixes
            || word.len() > 2
            || !word.chars().all(|c| matches!(c.to_ascii_lowercase(), 'r' | 'b' | 'f' | 'u'))
        {
            return false;
        }
        let rest = self.rest();
        let Some(quote) = self.syntax.quotes.iter().find(|q| rest.starts_with(q.open)).copied() else { return false };
        let lower = word.to_ascii_lowercase();
        self.at += quote.open.len();
        self.string(quote, lower.contains('f'), !lower.contains('r'));
        true
    }

    /// Perl's `q(…)`/`qq{…}`/`qw[…]`/`qx<…>` and Ruby's `%q(…)`/`%w`/`%x`.
    fn quote_operator(&mut self, word: &str) -> bool {
        if !self.syntax.quote_operators || !matches!(word, "q" | "qq" | "qw" | "qx") {
            return false;
        }
        let rest = self.rest();
        let Some(open) = rest
            .chars()
            .next()
            .filter(|c| !c.is_alphanumeric() && !c.is_whitespace() && *c != '=' && *c != ',' && *c != ';' && *c != ')')
        else {
            return false;
        };
        self.at += open.len_utf8();
        let body = self.delimited(open, word != "q" && word != "qw");
        if word == "qw" {
            self.push_words(&body);
        } else {
            self.push(Kind::Str { command: word == "qx" }, body);
        }
        true
    }

    /// Ruby's `%w(a b)`, `%W[…]`, `%i{…}`: a list of words.
    fn word_list(&mut self) -> bool {
        let rest = self.rest();
        let mut chars = rest.chars();
        let (Some('%'), Some(kind @ ('w' | 'W' | 'i' | 'I')), Some(open)) = (chars.next(), chars.next(), chars.next())
        else {
            return false;
        };
        if open.is_alphanumeric() || open.is_whitespace() {
            return false;
        }
        self.at += 2 + open.len_utf8();
        let body = self.delimited(open, kind.is_ascii_uppercase());
        self.push_words(&body);
        true
    }

    /// The tokens of a list literal of the words of `body`: `[ "a" , "b" ]`.
    fn push_words(&mut self, body: &str) {
        self.push(Kind::Punct, "[".to_string());
        for (index, word) in body.split_whitespace().enumerate() {
            if index > 0 {
                self.push(Kind::Punct, ",".to_string());
            }
            self.push(Kind::Str { command: false }, word.to_string());
        }
        self.push(Kind::Punct, "]".to_string());
    }

    /// The body of a quote-like operator opened by `open` (paired brackets nest).
    fn delimited(&mut self, open: char, interpolates: bool) -> String {
        let close = match open {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            '<' => '>',
            other => other,
        };
        let mut depth = 0usize;
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        let mut end = self.rest().len();
        while let Some((offset, c)) = chars.next() {
            if c == '\\' {
                if let Some((_, next)) = chars.next() {
                    value.push(next);
                }
                continue;
            }
            if c == open && open != close {
                depth += 1;
            } else if c == close {
                if depth == 0 {
                    end = offset + c.len_utf8();
                    break;
                }
                depth -= 1;
            }
            if interpolates && matches!(c, '$' | '@') {
                value.push(HOLE);
            } else {
                value.push(c);
            }
        }
        self.at += end;
        value
    }

    fn long_bracket(&mut self) -> bool {
        let rest = self.rest();
        // `--[[ … ]]` is a comment, `[[ … ]]` a string.
        let (comment, body) = match rest.strip_prefix("--") {
            Some(body) => (true, body),
            None => (false, rest),
        };
        let Some(after) = body.strip_prefix('[') else { return false };
        let level = after.chars().take_while(|&c| c == '=').count();
        if after.get(level..level + 1) != Some("[") {
            return false;
        }
        let close = format!("]{}]", "=".repeat(level));
        let start = level + 1;
        let content = after.get(start..).unwrap_or_default();
        let (value, used) = match content.find(&close) {
            Some(end) => (content.get(..end).unwrap_or_default(), end + close.len()),
            None => (content, content.len()),
        };
        let value = value.to_string();
        self.at += (rest.len() - body.len()) + 1 + start + used;
        if !comment {
            self.push(Kind::Str { command: false }, value);
        }
        true
    }

    fn regex(&mut self) {
        self.at += 1;
        let mut in_class = false;
        let mut chars = self.rest().char_indices();
        let mut end = self.rest().len();
        while let Some((offset, c)) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '\n' => {
                    end = offset;
                    break;
                }
                '[' => in_class = true,
                ']' => in_class = false,
                '/' if !in_class => {
                    end = offset + 1;
                    break;
                }
                _ => {}
            }
        }
        self.at += end;
        self.push(Kind::Punct, "/regex/".to_string());
    }

    /// A string after its opening quote: its value up to the closing quote.
    fn string(&mut self, quote: Quote, format: bool, escapes: bool) {
        let interpolation = if format { Interpolation::Braces } else { quote.interpolation };
        let body = self.rest();
        let mut value = String::new();
        let mut at = 0;
        let mut end = body.len();
        while let Some(c) = body.get(at..).and_then(|rest| rest.chars().next()) {
            let rest = body.get(at..).unwrap_or_default();
            if rest.starts_with(quote.close) {
                end = at + quote.close.len();
                break;
            }
            if escapes && c == '\\' {
                let next = rest.chars().nth(1);
                at += 1 + next.map_or(0, char::len_utf8);
                match next {
                    Some('n') => value.push('\n'),
                    Some('t') => value.push('\t'),
                    Some('\n') | None => {}
                    Some(other) => value.push(other),
                }
                continue;
            }
            let skipped = match interpolation {
                Interpolation::Braces if c == '{' && rest.starts_with("{{") => {
                    value.push('{');
                    2
                }
                Interpolation::Braces if c == '}' && rest.starts_with("}}") => {
                    value.push('}');
                    2
                }
                Interpolation::Braces if c == '{' => balanced(rest, '{', '}'),
                Interpolation::DollarBraces if rest.starts_with("${") => {
                    1 + balanced(rest.get(1..).unwrap_or_default(), '{', '}')
                }
                Interpolation::HashBraces if rest.starts_with("#{") => {
                    1 + balanced(rest.get(1..).unwrap_or_default(), '{', '}')
                }
                Interpolation::Sigils if matches!(c, '$' | '@') => sigil_length(rest),
                Interpolation::Sigils if rest.starts_with("{$") => balanced(rest, '{', '}'),
                _ => 0,
            };
            if skipped > 0 {
                if !matches!(rest.get(..2), Some("{{" | "}}")) {
                    value.push(HOLE);
                }
                at += skipped;
                continue;
            }
            value.push(c);
            at += c.len_utf8();
        }
        self.at += end;
        self.push(Kind::Str { command: quote.command }, value);
    }
}

/// The length of a bracketed group at the start of `text` (to its end when unbalanced).
fn balanced(text: &str, open: char, close: char) -> usize {
    let mut depth = 0usize;
    for (offset, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return offset + 1;
            }
        }
    }
    text.len().max(1)
}

/// `$name`, `@list`, `${expr}`, `$x->{k}`, `$a[0]` in an interpolating Perl or PHP string.
fn sigil_length(text: &str) -> usize {
    let after = text.get(1..).unwrap_or_default();
    if after.starts_with('{') {
        return 1 + balanced(after, '{', '}');
    }
    let name = after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(after.len());
    if name == 0 {
        // A lone `$` or `@` is itself.
        return 0;
    }
    let mut len = 1 + name;
    // Subscripts and `->` chains.
    loop {
        let rest = text.get(len..).unwrap_or_default();
        if rest.starts_with('[') {
            len += balanced(rest, '[', ']');
        } else if rest.starts_with('{') {
            len += balanced(rest, '{', '}');
        } else if rest.starts_with("->") && matches!(rest.get(2..3), Some("[" | "{")) {
            len += 2;
        } else {
            return len;
        }
    }
}
