//! Lua: `io.open` with a write mode, `io.output`, `os.remove`, `os.rename`; `os.execute`,
//! `io.popen`; strings joined by `..`.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None), quote("'", "'", true, Interpolation::None)];

const SYNTAX: Syntax = Syntax { line_comments: &["--"], quotes: QUOTES, long_brackets: true, ..Syntax::PLAIN };

const RULES: &[Rule] = &[
    rule("open", Receiver::Only(&["io"]), Op::Open { path: 0, mode: 1, named: "" }),
    rule("output", Receiver::Only(&["io"]), Op::Write(&[0])),
    rule("remove", Receiver::Only(&["os"]), Op::Write(&[0])),
    rule("rename", Receiver::Only(&["os"]), Op::Move(0, 1)),
    rule("execute", Receiver::Only(&["os"]), Op::Run(0)),
    rule("popen", Receiver::Only(&["io"]), Op::Run(0)),
    rule("load", Receiver::Bare, Op::Opaque),
    rule("loadstring", Receiver::Bare, Op::Opaque),
    rule("dofile", Receiver::Bare, Op::Opaque),
    rule("loadfile", Receiver::Bare, Op::Opaque),
    rule("require", Receiver::Bare, Op::Opaque),
];

/// Calls that write no file and start nothing (P-18); a handle's `write` is judged where
/// `io.open` opened it.
const READ_ONLY: &[&str] = &[
    "print", "assert", "error", "tostring", "tonumber", "type", "pairs", "ipairs", "next", "select",
    "unpack", "pcall", "setmetatable", "getmetatable", "rawget", "table.insert", "table.remove",
    "table.sort", "table.unpack", "string.upper", "string.sub", "string.len", "string.rep",
    "string.reverse", "string.byte", "string.char", "string.find", "string.match", "string.gmatch",
    "string.gsub", "io.read", "io.write", "io.lines", "os.time", "os.date", "os.clock", "os.getenv",
    "os.exit", "read", "write", "lines", "close", "seek", "flush", "setvbuf", "lower", "upper", "sub", "len",
    "format", "find", "match", "gmatch", "gsub", "rep", "reverse", "byte", "floor", "ceil", "max", "min",
    "abs", "sqrt", "random",
];

const KEYWORDS: &[&str] = &[
    "local", "function", "end", "if", "then", "else", "elseif", "for", "in", "do", "while", "repeat",
    "until", "return", "break", "and", "or", "not", "nil", "true", "false", "goto",
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[("..", "")],
    identities: &["tostring"],
    assignments: &["="],
    calls_without_parentheses: true,
    members: &[":"],
    dot_member: true,
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    method_members: &[":"],
    definitions: &["function"],
    lowers: &["string.lower", "lower"],
    list_joins: &["table.concat"],
    formats: &["string.format"],
    format_methods: &["format"],
    brace_lists: true,
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-e"], file: &[], valued: &["-l"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Lua, parse_cli(args, &CLI, stdin))
}
