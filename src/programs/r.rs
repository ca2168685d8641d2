//! R: `writeLines`, `cat(file=)`, `write*`, `saveRDS`, `save`, `sink`, `file(open="w")`,
//! `file.*` operations; `system`, `system2`; paths from `paste0` and `file.path`.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, Source, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None), quote("'", "'", true, Interpolation::None)];

const SYNTAX: Syntax = Syntax { line_comments: &["#"], quotes: QUOTES, ident_chars: ".", ..Syntax::PLAIN };

const NO_POSITION: usize = usize::MAX;

const RULES: &[Rule] = &[
    rule("writeLines", Receiver::Any, Op::WriteNamed("con", 1)),
    rule("cat", Receiver::Any, Op::WriteNamed("file", NO_POSITION)),
    rule("write", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("write.csv", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("write.csv2", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("write.table", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("saveRDS", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("save", Receiver::Any, Op::WriteNamed("file", NO_POSITION)),
    rule("dput", Receiver::Any, Op::WriteNamed("file", 1)),
    rule("sink", Receiver::Any, Op::Write(&[0])),
    rule("file", Receiver::Any, Op::Open { path: 0, mode: 1, named: "open" }),
    rule("file.create", Receiver::Any, Op::WriteAll),
    rule("file.remove", Receiver::Any, Op::WriteAll),
    rule("unlink", Receiver::Any, Op::Write(&[0])),
    rule("file.rename", Receiver::Any, Op::Move(0, 1)),
    rule("file.copy", Receiver::Any, Op::Copy(0, 1)),
    rule("file.symlink", Receiver::Any, Op::Write(&[1])),
    rule("file.link", Receiver::Any, Op::Write(&[0, 1])),
    rule("file.append", Receiver::Any, Op::Write(&[0])),
    rule("dir.create", Receiver::Any, Op::Write(&[0])),
    rule("download.file", Receiver::Any, Op::WriteNamed("destfile", 1)),
    rule("system", Receiver::Any, Op::Run(0)),
    rule("system2", Receiver::Any, Op::RunArgv),
    rule("shell", Receiver::Any, Op::Run(0)),
    rule("setwd", Receiver::Any, Op::Chdir(0)),
    rule("eval", Receiver::Any, Op::Opaque),
    rule("source", Receiver::Any, Op::Opaque),
    rule("do.call", Receiver::Any, Op::Opaque),
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    joins: &["file.path"],
    concats: &["paste0"],
    identities: &["normalizePath", "path.expand", "as.character"],
    assignments: &["<-", "=", "<<-"],
    members: &["$", "::"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli =
    Cli { inline: &["-e"], file: &["-f", "--file"], valued: &["--default-packages", "--encoding"], module: &[] };

/// `Rscript -e …`, `Rscript file.R`, `R -e …`, `R -f file`, `R --no-save < file` (stdin).
pub fn invocation(command: &str, args: &[String], stdin: Option<&str>) -> Invocation {
    let (source, program_args) = parse_cli(args, &CLI, stdin);
    // `R` itself never runs its first operand as a script (`R CMD …`, `R --args`).
    let source = match (command, source) {
        ("R", Source::File(_)) => super::stdin_source(stdin),
        (_, source) => source,
    };
    simple(Language::R, (source, program_args))
}
