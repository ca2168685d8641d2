//! awk: `print`/`printf` redirected with `>`, `>>` or `|`, `system()`, `cmd | getline`; file
//! names concatenated by juxtaposition. `-i inplace` (gawk) rewrites every input file.

use super::engine::{Engine, Grammar, Op, Receiver, Rule, Val, rule};
use super::lex::{Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None)];

const SYNTAX: Syntax =
    Syntax { line_comments: &["#"], quotes: QUOTES, regex_literals: true, ident_chars: "$", ..Syntax::PLAIN };

const RULES: &[Rule] = &[rule("system", Receiver::Bare, Op::Run(0))];

/// awk's built-in functions (POSIX and gawk's): none writes a file or starts a process except
/// `system`, judged by its rule, and `close`/`fflush`, which only end or flush what a redirection
/// opened.
const READ_ONLY: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2", "exp", "log",
    "sqrt", "int", "rand", "srand", "tolower", "toupper", "close", "fflush", "gensub", "patsplit", "strftime",
    "systime", "mktime", "asort", "asorti", "and", "or", "xor", "lshift", "rshift", "compl", "strtonum", "isarray",
    "typeof", "print", "printf", "getline",
];

/// Words that look like calls and are not.
const KEYWORDS: &[&str] =
    &["if", "else", "while", "for", "do", "in", "return", "delete", "next", "nextfile", "exit", "BEGIN", "END"];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    assignments: &["="],
    juxtapose: true,
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    definitions: &["function", "func"],
    // gawk's `@include "file"` and `@load "ext"`: code the analysis does not see.
    loaders: &["include", "load"],
    mutators: &["sub", "gsub", "split", "patsplit", "asort", "asorti"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.run();
    for name in assigned_by_awk(&tokens) {
        engine.forget(&name);
    }
    // With in-place editing, the files in ARGV are the ones rewritten.
    if engine.assignments("ARGV") + engine.assignments("ARGC") > 0 {
        engine.findings.sure = false;
    }
    let mut at = 0;
    while let Some(token) = tokens.get(at) {
        at += 1;
        if token.is_ident("print") || token.is_ident("printf") {
            output_redirection(&mut engine, at);
        } else if token.is("|") && tokens.get(at).is_some_and(|t| t.is_ident("getline")) {
            // `"cmd" | getline`: the value before the bar is a command.
            let command = match at.checked_sub(2).and_then(|b| tokens.get(b)) {
                Some(before) if before.is_str() => Val::Str(before.text.clone()),
                Some(before) if before.kind == Kind::Ident => variable(&mut engine, &before.text),
                _ => Val::Unknown,
            };
            engine.command(&command);
        }
    }
    engine.finish()
}

/// Variables awk assigns without `=`: `getline v`, `for (v in a)`, a function's parameters
/// (which hide the globals of their names).
fn assigned_by_awk(tokens: &[Token]) -> Vec<String> {
    let mut names = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        let next = tokens.get(at + 1).filter(|t| t.kind == Kind::Ident);
        if token.is_ident("getline") || token.is("(") && tokens.get(at + 2).is_some_and(|t| t.is_ident("in")) {
            names.extend(next.map(|t| t.text.clone()));
        }
        if token.is_ident("function") || token.is_ident("func") {
            let parameters = tokens.iter().skip(at + 3).take_while(|t| !t.is(")"));
            names.extend(parameters.filter(|t| t.kind == Kind::Ident).map(|t| t.text.clone()));
        }
    }
    names
}

/// A variable's value where awk reads it: unknown when the program assigns it in more than one
/// place (its main rules run once per record, so any of them may hold).
fn variable(engine: &mut Engine, name: &str) -> Val {
    if engine.assignments(name) > 1 {
        engine.findings.sure = false;
        return Val::Unknown;
    }
    engine.var(name).cloned().unwrap_or(Val::Unknown)
}

/// `print … > file`, `>> file`, `| "command"` in the statement starting at `from`.
fn output_redirection(engine: &mut Engine, from: usize) {
    let tokens = engine.tokens();
    let end = statement_end(engine, from);
    let mut depth = 0usize;
    for at in from..end {
        let Some(token) = tokens.get(at) else { return };
        match token.text.as_str() {
            "(" if token.kind == Kind::Punct => depth += 1,
            ")" if token.kind == Kind::Punct => depth = depth.saturating_sub(1),
            ">" | ">>" | "|" if token.kind == Kind::Punct && depth == 0 => {
                for name in tokens.get(at + 1..end).unwrap_or_default().iter().filter(|t| t.kind == Kind::Ident) {
                    let _ = variable(engine, &name.text);
                }
                let mut pos = at + 1;
                let value = engine.expr(&mut pos, end, 0);
                engine.note(&value);
                if token.text == "|" {
                    engine.command(&value);
                } else {
                    engine.write(value);
                }
                return;
            }
            _ => {}
        }
    }
}

fn statement_end(engine: &Engine, from: usize) -> usize {
    let tokens = engine.tokens();
    let mut at = from;
    while let Some(token) = tokens.get(at) {
        if at > from && token.line_start || token.is(";") || token.is("}") {
            return at;
        }
        at += 1;
    }
    at
}

/// gawk's long options (a unique prefix names one) and the short option of each that matters
/// here; `-W name` is `--name`.
const LONG_OPTIONS: &[(&str, char)] = &[
    ("assign", 'v'),
    ("bignum", 'M'),
    ("characters-as-bytes", 'b'),
    ("copyright", 'C'),
    ("debug", 'D'),
    ("dump-variables", 'd'),
    ("exec", 'E'),
    ("field-separator", 'F'),
    ("file", 'f'),
    ("gen-pot", 'g'),
    ("help", 'h'),
    ("include", 'i'),
    ("lint", 'L'),
    ("lint-old", 't'),
    ("load", 'l'),
    ("no-optimize", 's'),
    ("non-decimal-data", 'n'),
    ("optimize", 'O'),
    ("posix", 'P'),
    ("pretty-print", 'o'),
    ("profile", 'p'),
    ("re-interval", 'r'),
    ("sandbox", 'S'),
    ("source", 'e'),
    ("trace", 'I'),
    ("traditional", 'c'),
    ("use-lc-numeric", 'N'),
    ("version", 'V'),
];

/// Short options whose value is the rest of their word or the next one.
const VALUED: &str = "fFveEilW";
/// Short options whose value, if any, is the rest of their word (`-pFILE`).
const OPTIONAL: &str = "dDLop";

/// `awk [-F fs] [-v v=x] 'program' file…`, `awk -f prog.awk file…`, `gawk -i inplace …`: what
/// its options write (`-o`/`-p`/`-d` files, the operands of an in-place edit) and the program
/// with what its options add before it: `-v` and operand assignments (`BEGIN { v = "x" }`),
/// libraries (`-i lib`, `-l ext`: `@include`/`@load`, code the analysis does not read).
pub fn invocation(args: &[String], _stdin: Option<&str>) -> Invocation {
    let mut options = Options::default();
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if !operands.is_empty() || !arg.starts_with('-') || arg == "-" {
            operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            operands.extend(args.get(at..).unwrap_or_default().iter().cloned());
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = named_value(long);
            options.long(name, attached, args, &mut at);
            continue;
        }
        options.cluster(arg, args, &mut at);
    }
    let mut operands = operands.into_iter();
    if options.sources.is_empty() {
        options.sources.extend(operands.next().map(Source::Text));
    }
    let mut files = Vec::new();
    for operand in operands {
        match assignment(&operand) {
            Some((name, value)) => options.assign(name, value),
            None => files.push(operand),
        }
    }
    let writes = if options.in_place { files.clone() } else { Vec::new() };
    let mut writes: Vec<String> = options.writes.into_iter().chain(writes).collect();
    writes.dedup();
    // One program file is read; the rest of the sources go before it.
    let mut source = Source::Nothing;
    let mut prelude = options.prelude;
    for each in options.sources {
        match (each, &source) {
            (Source::File(file), Source::Nothing) => source = Source::File(file),
            (Source::File(file), _) => prelude.push_str(&format!("@include \"{}\"\n", escaped(&file))),
            (Source::Text(text), _) => {
                prelude.push_str(&text);
                prelude.push('\n');
            }
            (Source::Nothing, _) => {}
        }
    }
    if matches!(source, Source::Nothing) && !prelude.is_empty() {
        source = Source::Text(std::mem::take(&mut prelude));
    }
    Invocation { writes, prelude, ..Invocation::new(Language::Awk, source, files) }
}

/// What awk's options say.
#[derive(Default)]
struct Options {
    /// `-f` files and `-e` texts, in order.
    sources: Vec<Source>,
    prelude: String,
    writes: Vec<String>,
    in_place: bool,
}

impl Options {
    /// `--name[=value]`, a unique prefix of a long option's name.
    fn long(&mut self, name: &str, attached: Option<String>, args: &[String], at: &mut usize) {
        let exact = LONG_OPTIONS.iter().find(|(long, _)| *long == name);
        let mut prefixed = LONG_OPTIONS.iter().filter(|(long, _)| long.starts_with(name));
        let found = exact.or_else(|| match (prefixed.next(), prefixed.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        });
        // mawk's `-W exec file`.
        let letter = match found {
            Some(&(_, letter)) => letter,
            None if name == "exec" => 'E',
            None => return,
        };
        let value = if VALUED.contains(letter) { value_of(attached, args, at) } else { attached };
        self.option(letter, value);
    }

    /// `-x`, `-xVALUE`, `-x VALUE`, and clusters of options that take no value (`-nv v=1`).
    fn cluster(&mut self, arg: &str, args: &[String], at: &mut usize) {
        for (offset, letter) in arg.char_indices().skip(1) {
            let rest = arg.get(offset + letter.len_utf8()..).unwrap_or_default();
            let attached = (!rest.is_empty()).then(|| rest.to_string());
            if letter == 'W' {
                let value = value_of(attached, args, at).unwrap_or_default();
                let (name, attached) = named_value(&value);
                self.long(name, attached, args, at);
                return;
            }
            if VALUED.contains(letter) {
                self.option(letter, value_of(attached, args, at));
                return;
            }
            if OPTIONAL.contains(letter) {
                self.option(letter, attached);
                return;
            }
        }
    }

    fn option(&mut self, letter: char, value: Option<String>) {
        match (letter, value) {
            ('f' | 'E', Some(file)) if file.rsplit('/').next() == Some("inplace.awk") => self.in_place = true,
            ('f' | 'E', Some(file)) => self.sources.push(Source::File(file)),
            ('e', Some(text)) => self.sources.push(Source::Text(text)),
            ('i', Some(library)) if library.trim_end_matches(".awk") == "inplace" => self.in_place = true,
            ('i', Some(library)) => self.prelude.push_str(&format!("@include \"{}\"\n", escaped(&library))),
            ('l', Some(library)) => self.prelude.push_str(&format!("@load \"{}\"\n", escaped(&library))),
            // The debugger runs the commands of a file or stdin (`eval`, `dump file`): code the
            // analysis does not read.
            ('D', file) => {
                self.prelude.push_str(&format!("@include \"{}\"\n", escaped(file.as_deref().unwrap_or("-"))))
            }
            ('v', Some(assigned)) => {
                if let Some((name, value)) = assignment(&assigned) {
                    self.assign(name, value);
                }
            }
            ('o' | 'p', file) => self.writes.push(file.unwrap_or_else(|| "awkprof.out".to_string())),
            ('d', file) => self.writes.push(file.unwrap_or_else(|| "awkvars.out".to_string())),
            _ => {}
        }
    }

    /// `v=x` from `-v` or among the operands: `BEGIN { v = "x" }` before the program (the value
    /// with awk's escapes read).
    fn assign(&mut self, name: &str, value: &str) {
        self.prelude.push_str(&format!("BEGIN {{ {name} = \"{}\" }}\n", escaped(&unescaped(value))));
    }
}

/// `name=value` of a long option, or its name alone.
fn named_value(text: &str) -> (&str, Option<String>) {
    match text.split_once('=') {
        Some((name, value)) => (name, Some(value.to_string())),
        None => (text, None),
    }
}

/// An option's value: the rest of its word, else the next word.
fn value_of(attached: Option<String>, args: &[String], at: &mut usize) -> Option<String> {
    attached.or_else(|| {
        *at += 1;
        args.get(*at - 1).cloned()
    })
}

/// `name=value` where `name` is an awk variable's name.
fn assignment(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    identifier.then_some((name, value))
}

/// A value with awk's escape sequences read (`\n`, `\/`, `\163`, `\x73`), as `-v` reads it.
fn unescaped(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(next) = chars.next() else {
            out.push('\\');
            break;
        };
        let coded = |digits: String, radix: u32| u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32);
        match next {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0'..='7' => {
                let mut digits = next.to_string();
                while digits.len() < 3
                    && let Some(digit) = chars.next_if(|c| c.is_digit(8))
                {
                    digits.push(digit);
                }
                out.extend(coded(digits, 8));
            }
            'x' => {
                let mut digits = String::new();
                while digits.len() < 2
                    && let Some(digit) = chars.next_if(char::is_ascii_hexdigit)
                {
                    digits.push(digit);
                }
                match coded(digits, 16) {
                    Some(decoded) => out.push(decoded),
                    None => out.push_str("\\x"),
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Text for an awk string literal, as the analysis's lexer reads it back.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
