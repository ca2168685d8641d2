//! Perl: `open` with `>`, `>>`, `+<`, `|-`; `unlink`, `rename`, File::Copy, File::Path,
//! Path::Tiny's `spew`; `system`, `exec`, backquotes and `qx`; strings joined by `.` and
//! interpolation. `-i` in-place editing is the bash writer table's.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[
    quote("\"", "\"", true, Interpolation::Sigils),
    quote("'", "'", true, Interpolation::None),
    Quote { open: "`", close: "`", escapes: true, interpolation: Interpolation::Sigils, command: true },
];

const SYNTAX: Syntax = Syntax {
    line_comments: &["#"],
    block_comments: &[("\n=pod", "\n=cut"), ("\n=head", "\n=cut")],
    quotes: QUOTES,
    regex_literals: true,
    quote_operators: true,
    ident_chars: "$@%",
    ..Syntax::PLAIN
};

const RULES: &[Rule] = &[
    rule("open", Receiver::Any, Op::PerlOpen),
    rule("sysopen", Receiver::Any, Op::OpenFlags { path: 1, flags: 2 }),
    rule("unlink", Receiver::Any, Op::WriteAll),
    rule("rename", Receiver::Any, Op::Write(&[0, 1])),
    rule("link", Receiver::Any, Op::Write(&[0, 1])),
    rule("symlink", Receiver::Any, Op::Write(&[1])),
    rule("mkdir", Receiver::Any, Op::Write(&[0])),
    rule("rmdir", Receiver::Any, Op::Write(&[0])),
    rule("truncate", Receiver::Any, Op::Write(&[0])),
    rule("copy", Receiver::Any, Op::Write(&[1])),
    rule("cp", Receiver::Any, Op::Write(&[1])),
    rule("move", Receiver::Any, Op::Write(&[0, 1])),
    rule("mv", Receiver::Any, Op::Write(&[0, 1])),
    rule("make_path", Receiver::Any, Op::WriteAll),
    rule("mkpath", Receiver::Any, Op::WriteAll),
    rule("remove_tree", Receiver::Any, Op::WriteAll),
    rule("rmtree", Receiver::Any, Op::WriteAll),
    rule("write_file", Receiver::Any, Op::Write(&[0])),
    rule("append_file", Receiver::Any, Op::Write(&[0])),
    rule("spew", Receiver::Any, Op::Receiver),
    rule("spew_utf8", Receiver::Any, Op::Receiver),
    rule("spew_raw", Receiver::Any, Op::Receiver),
    rule("append", Receiver::Any, Op::Receiver),
    rule("append_utf8", Receiver::Any, Op::Receiver),
    rule("touch", Receiver::Any, Op::Receiver),
    rule("remove", Receiver::Any, Op::Receiver),
    rule("system", Receiver::Any, Op::RunArgv),
    rule("exec", Receiver::Any, Op::RunArgv),
    rule("readpipe", Receiver::Any, Op::Run(0)),
    rule("chdir", Receiver::Any, Op::Chdir(0)),
    rule("eval", Receiver::Bare, Op::Opaque),
    rule("do", Receiver::Bare, Op::Opaque),
    rule("require", Receiver::Bare, Op::Opaque),
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[(".", "")],
    joins: &["catfile", "catdir", "path", "file", "dir", "child"],
    concats: &["join"],
    identities: &["abs_path", "realpath", "rel2abs", "stringify"],
    path_types: &["path", "file", "dir"],
    assignments: &["="],
    sigils: "$@%",
    calls_without_parentheses: true,
    members: &["->", "::"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-e", "-E"], file: &[], valued: &["-I", "-M", "-m", "-C", "-x"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Perl, parse_cli(args, &CLI, stdin))
}
