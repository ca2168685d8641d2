//! AppleScript (`osascript`): `do shell script …` runs a command (joined by `&`); a file opened
//! `with write permission`, and Finder's `delete`/`move`/`duplicate`, write the files the script
//! names. `osascript -l JavaScript` is read as JavaScript.

use std::path::Path;

use super::engine::{Engine, Grammar};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None)];

const SYNTAX: Syntax =
    Syntax { line_comments: &["--", "#"], block_comments: &[("(*", "*)")], quotes: QUOTES, ..Syntax::PLAIN };

const GRAMMAR: Grammar = Grammar { concat: &[("&", "")], ..Grammar::NONE };

/// Words that make a script write the files it names.
const WRITING_WORDS: [&str; 6] = ["write", "delete", "move", "duplicate", "make", "eof"];

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.run();
    let writes = tokens.iter().any(|t| WRITING_WORDS.iter().any(|w| t.is_ident(w)));
    for (at, token) in tokens.iter().enumerate() {
        let next = |offset: usize| tokens.get(at + offset);
        // `do shell script "cmd" & x`
        if token.is_ident("do")
            && next(1).is_some_and(|t| t.is_ident("shell"))
            && next(2).is_some_and(|t| t.is_ident("script"))
        {
            let mut pos = at + 3;
            let end = engine.statement_end(pos);
            let command = engine.expr(&mut pos, end, 0);
            engine.command(&command);
        }
        // `POSIX file "…"`, `file "…"`: a file the script names; written when it writes.
        if writes && token.is_ident("file") && next(1).is_some_and(|t| t.is_str()) {
            let mut pos = at + 1;
            let end = engine.statement_end(pos);
            let path = engine.expr(&mut pos, end, 0);
            engine.write(path);
        }
    }
    if writes && tokens.iter().any(|t| t.is_ident("alias") || t.is_ident("POSIX")) && engine.findings.writes.is_empty()
    {
        engine.findings.sure = false;
    }
    engine.finish()
}

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut statements = Vec::new();
    let mut language = Language::AppleScript;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        match arg.as_str() {
            "-e" => {
                statements.extend(args.get(at).cloned());
                at += 1;
            }
            "-l" => {
                if args.get(at).is_some_and(|l| l == "JavaScript") {
                    language = Language::JavaScript;
                }
                at += 1;
            }
            "-s" => at += 1,
            _ if arg.starts_with('-') && arg != "-" => {}
            _ => {
                at -= 1;
                break;
            }
        }
    }
    let rest = args.get(at..).unwrap_or_default();
    let (source, program_args) = if !statements.is_empty() {
        (Source::Text(statements.join("\n")), rest.to_vec())
    } else {
        match rest.split_first() {
            Some((file, more)) if file != "-" => (Source::File(file.clone()), more.to_vec()),
            _ => (super::stdin_source(stdin), Vec::new()),
        }
    };
    let _ = Path::new("");
    Invocation { language, source, args: program_args, writes: Vec::new(), trees: Vec::new(), prelude: String::new() }
}
