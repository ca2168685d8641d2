//! Lua: `io.open` with a write mode, `io.output`, `os.remove`, `os.rename`; `os.execute`,
//! `io.popen`; strings joined by `..`. A writer passed as a value (`pcall(os.remove, p)`) or a
//! function taken by a computed key (`os['remove']`) is called with arguments the analysis does
//! not see: unproven.

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
    "print",
    "assert",
    "error",
    "tostring",
    "tonumber",
    "type",
    "pairs",
    "ipairs",
    "next",
    "select",
    "unpack",
    "pcall",
    "setmetatable",
    "getmetatable",
    "rawget",
    "table.insert",
    "table.remove",
    "table.sort",
    "table.unpack",
    "string.upper",
    "string.sub",
    "string.len",
    "string.rep",
    "string.reverse",
    "string.byte",
    "string.char",
    "string.find",
    "string.match",
    "string.gmatch",
    "string.gsub",
    "io.read",
    "io.write",
    "io.lines",
    "os.time",
    "os.date",
    "os.clock",
    "os.getenv",
    "os.exit",
    "read",
    "write",
    "lines",
    "close",
    "seek",
    "flush",
    "setvbuf",
    "lower",
    "upper",
    "sub",
    "len",
    "format",
    "find",
    "match",
    "gmatch",
    "gsub",
    "rep",
    "reverse",
    "byte",
    "floor",
    "ceil",
    "max",
    "min",
    "abs",
    "sqrt",
    "random",
];

const KEYWORDS: &[&str] = &[
    "local", "function", "end", "if", "then", "else", "elseif", "for", "in", "do", "while", "repeat", "until",
    "return", "break", "and", "or", "not", "nil", "true", "false", "goto",
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
    function_values: true,
    computed_calls: true,
    mutators: &["table.insert", "table.remove", "table.sort", "table.move"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-e"], file: &[], valued: &["-l"], module: &[] };

/// `lua -e …`, `lua script.lua`, a script on stdin; `-l mod` requires the module first, `-i`
/// reads more program from stdin once the rest has run.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let (source, rest) = parse_cli(args, &CLI, stdin);
    let mut interactive = false;
    let mut prelude = String::new();
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-') && *arg != "-" && *arg != "--") {
        at += 1;
        match arg.get(..2) {
            Some("-i") => interactive = true,
            Some("-e") => at += usize::from(arg.len() == 2),
            Some("-l") => {
                let attached = arg.get(2..).unwrap_or_default();
                let module =
                    if attached.is_empty() { args.get(at).cloned().unwrap_or_default() } else { attached.to_string() };
                at += usize::from(arg.len() == 2);
                // `-l g=mod` binds `mod` to the global `g`.
                let module = module.rsplit('=').next().unwrap_or_default().replace(['\\', '\''], "");
                prelude.push_str(&format!("require('{module}')\n"));
            }
            _ => {}
        }
    }
    // What `-i` reads runs after the program; the order does not matter to the analysis.
    if interactive && let Some(more) = stdin {
        prelude.push_str(more);
        prelude.push('\n');
    }
    let mut invocation = simple(Language::Lua, (source, rest));
    invocation.prelude = prelude;
    invocation
}
