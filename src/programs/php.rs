//! PHP: `file_put_contents`, `fopen` with a write mode, `copy`, `rename`, `unlink`, `touch`,
//! `mkdir`; `exec`, `shell_exec`, `system`, `passthru`, `popen`, `proc_open`, backquotes;
//! strings joined by `.` and interpolation.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[
    quote("\"", "\"", true, Interpolation::Sigils),
    quote("'", "'", true, Interpolation::None),
    Quote { open: "`", close: "`", escapes: true, interpolation: Interpolation::Sigils, command: true },
];

const SYNTAX: Syntax = Syntax {
    line_comments: &["//", "#"],
    block_comments: &[("/*", "*/")],
    quotes: QUOTES,
    ident_chars: "$",
    ..Syntax::PLAIN
};

const RULES: &[Rule] = &[
    rule("file_put_contents", Receiver::Any, Op::Write(&[0])),
    rule("fopen", Receiver::Any, Op::Open { path: 0, mode: 1, named: "" }),
    rule("copy", Receiver::Any, Op::Write(&[1])),
    rule("rename", Receiver::Any, Op::Write(&[0, 1])),
    rule("unlink", Receiver::Any, Op::Write(&[0])),
    rule("touch", Receiver::Any, Op::Write(&[0])),
    rule("mkdir", Receiver::Any, Op::Write(&[0])),
    rule("rmdir", Receiver::Any, Op::Write(&[0])),
    rule("symlink", Receiver::Any, Op::Write(&[1])),
    rule("link", Receiver::Any, Op::Write(&[0, 1])),
    rule("exec", Receiver::Any, Op::Run(0)),
    rule("shell_exec", Receiver::Any, Op::Run(0)),
    rule("system", Receiver::Any, Op::Run(0)),
    rule("passthru", Receiver::Any, Op::Run(0)),
    rule("popen", Receiver::Any, Op::Run(0)),
    rule("proc_open", Receiver::Any, Op::Run(0)),
    rule("pcntl_exec", Receiver::Any, Op::Opaque),
    rule("chdir", Receiver::Any, Op::Chdir(0)),
    rule("eval", Receiver::Any, Op::Opaque),
    rule("assert", Receiver::Any, Op::Opaque),
    rule("create_function", Receiver::Any, Op::Opaque),
    rule("call_user_func", Receiver::Any, Op::Opaque),
    rule("call_user_func_array", Receiver::Any, Op::Opaque),
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[(".", "")],
    identities: &["realpath", "strval", "trim"],
    assignments: &["=", ".="],
    sigils: "$",
    members: &["->", "::"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-r"], file: &["-f"], valued: &["-c", "-d", "-z"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Php, parse_cli(args, &CLI, stdin))
}
