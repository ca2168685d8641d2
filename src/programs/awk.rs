//! awk: `print`/`printf` redirected with `>`, `>>` or `|`, `system()`, `cmd | getline`; file
//! names concatenated by juxtaposition. `-i inplace` (gawk) rewrites every input file.

use super::engine::{Engine, Grammar, Op, Receiver, Rule, Val, rule};
use super::lex::{Interpolation, Kind, Quote, Syntax, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None)];

const SYNTAX: Syntax =
    Syntax { line_comments: &["#"], quotes: QUOTES, regex_literals: true, ident_chars: "$", ..Syntax::PLAIN };

const RULES: &[Rule] = &[rule("system", Receiver::Bare, Op::Run(0))];

/// awk's built-in functions (POSIX and gawk's): none writes a file or starts a process except
/// `system`, judged by its rule, and `close`/`fflush`, which only end or flush what a redirection
/// opened.
const READ_ONLY: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2", "exp",
    "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "close", "fflush", "gensub", "patsplit",
    "strftime", "systime", "mktime", "asort", "asorti", "and", "or", "xor", "lshift", "rshift", "compl",
    "strtonum", "isarray", "typeof", "print", "printf", "getline",
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
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.run();
    let mut at = 0;
    while let Some(token) = tokens.get(at) {
        at += 1;
        if token.is_ident("print") || token.is_ident("printf") {
            output_redirection(&mut engine, at);
        } else if token.is("|") && tokens.get(at).is_some_and(|t| t.is_ident("getline")) {
            // `"cmd" | getline`: the value before the bar is a command.
            let command = match at.checked_sub(2).and_then(|b| tokens.get(b)) {
                Some(before) if before.is_str() => Val::Str(before.text.clone()),
                Some(before) if before.kind == Kind::Ident => engine.var(&before.text).cloned().unwrap_or(Val::Unknown),
                _ => Val::Unknown,
            };
            engine.command(&command);
        }
    }
    engine.finish()
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

/// `awk [-F fs] [-v v=x] 'program' file…`, `awk -f prog.awk file…`, `gawk -i inplace …`.
pub fn invocation(args: &[String], _stdin: Option<&str>) -> Invocation {
    let mut program: Option<Source> = None;
    let mut in_place = false;
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
        let (option, attached) = if arg.starts_with("--") {
            match arg.split_once('=') {
                Some((option, value)) => (option.to_string(), Some(value.to_string())),
                None => (arg.clone(), None),
            }
        } else {
            let split = arg.char_indices().nth(2).map_or(arg.len(), |(at, _)| at);
            let (option, rest) = (arg.get(..split).unwrap_or(arg), arg.get(split..).unwrap_or_default());
            (option.to_string(), (!rest.is_empty()).then(|| rest.to_string()))
        };
        let takes_value = matches!(
            option.as_str(),
            "-f" | "--file"
                | "-e"
                | "--source"
                | "-i"
                | "--include"
                | "-v"
                | "--assign"
                | "-F"
                | "--field-separator"
                | "-l"
                | "--load"
        );
        let value = if takes_value {
            attached.or_else(|| {
                let value = args.get(at).cloned();
                at += 1;
                value
            })
        } else {
            None
        };
        match (option.as_str(), value) {
            ("-f" | "--file", Some(file)) => program = Some(Source::File(file)),
            ("-e" | "--source", Some(text)) => program = Some(Source::Text(text)),
            ("-i" | "--include", Some(library)) => in_place |= library.trim_end_matches(".awk") == "inplace",
            _ => {}
        }
    }
    let mut operands = operands.into_iter();
    let source = match program {
        Some(source) => source,
        None => operands.next().map_or(Source::Nothing, Source::Text),
    };
    let files: Vec<String> = operands.filter(|operand| !operand.contains('=')).collect();
    let writes = if in_place { files.clone() } else { Vec::new() };
    Invocation { language: Language::Awk, source, args: files, writes, trees: Vec::new(), prelude: String::new() }
}
