//! R: `writeLines`, `cat(file=)`, `write*`, `saveRDS`, `save`, `sink`, `file(open="w")`,
//! `file.*` operations; `system`, `system2`, `pipe`; paths from `paste0`, `sprintf` and
//! `file.path`. Under P-18's inverted default: a call outside these rules and the read-only table,
//! a package outside [`LIBRARIES`] (by `library`, `require` or `pkg::`), a function reached as a
//! value (`x$f()`, `f()()`, `` `f`() ``, `"f"()`) and a call of a name the program rebinds
//! (`cat <- writeBin`) leave the program unproven.

use super::engine::{Engine, Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Cli, Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source, parse_cli, simple};

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
    rule("system2", Receiver::Any, Op::RunPasted { program: 0, words: 1, outputs: &[2, 3], env: 6 }),
    rule("shell", Receiver::Any, Op::Run(0)),
    rule("pipe", Receiver::Any, Op::Run(0)),
    rule("setwd", Receiver::Any, Op::Chdir(0)),
    rule("eval", Receiver::Any, Op::Opaque),
    rule("source", Receiver::Any, Op::Opaque),
    rule("do.call", Receiver::Any, Op::Opaque),
];

/// The writers' and runners' parameters, for R's matching of named arguments by prefix
/// (`writeLines(x, co = p)`) and of positions around them. After `...` only the exact name
/// matches: `cat(x, fi = p)` prints `p`.
const FORMALS: &[(&str, &[&str])] = &[
    ("writeLines", &["text", "con", "sep", "useBytes"]),
    ("cat", &["...", "file", "sep", "fill", "labels", "append"]),
    ("write", &["x", "file", "ncolumns", "append", "sep"]),
    // write.csv(...) hands its arguments to write.table.
    ("write.csv", WRITE_TABLE),
    ("write.csv2", WRITE_TABLE),
    ("write.table", WRITE_TABLE),
    ("saveRDS", &["object", "file", "ascii", "version", "compress", "refhook"]),
    (
        "save",
        &[
            "...",
            "list",
            "file",
            "ascii",
            "version",
            "envir",
            "compress",
            "compression_level",
            "eval.promises",
            "precheck",
        ],
    ),
    ("dput", &["x", "file", "control"]),
    ("sink", &["file", "append", "type", "split"]),
    ("file", &["description", "open", "blocking", "encoding", "raw", "method"]),
    ("file.create", &["...", "showWarnings"]),
    ("file.remove", &["..."]),
    ("unlink", &["x", "recursive", "force", "expand"]),
    ("file.rename", &["from", "to"]),
    ("file.copy", &["from", "to", "overwrite", "recursive", "copy.mode", "copy.date"]),
    ("file.symlink", &["from", "to"]),
    ("file.link", &["from", "to"]),
    ("file.append", &["file1", "file2"]),
    ("dir.create", &["path", "showWarnings", "recursive", "mode"]),
    ("download.file", &["url", "destfile", "method", "quiet", "mode", "cacheOK", "extra", "headers", "..."]),
    (
        "system",
        &[
            "command",
            "intern",
            "ignore.stdout",
            "ignore.stderr",
            "wait",
            "input",
            "show.output.on.console",
            "minimized",
            "invisible",
            "timeout",
            "receive.console.signals",
        ],
    ),
    (
        "system2",
        &[
            "command",
            "args",
            "stdout",
            "stderr",
            "stdin",
            "input",
            "env",
            "wait",
            "minimized",
            "invisible",
            "timeout",
            "receive.console.signals",
        ],
    ),
    ("shell", &["cmd", "shell", "flag", "intern", "wait", "translate", "mustWork", "..."]),
    ("pipe", &["description", "open", "encoding"]),
    ("setwd", &["dir"]),
];

const WRITE_TABLE: &[&str] =
    &["x", "file", "append", "quote", "sep", "eol", "na", "dec", "row.names", "col.names", "qmethod", "fileEncoding"];

/// Calls that write no file and start nothing (P-18): reads, tests of files, listings, hashes,
/// output to the console, and the computations of strings, numbers and lists.
const READ_ONLY: &[&str] = &[
    "readLines",
    "readRDS",
    "read.csv",
    "read.csv2",
    "read.table",
    "read.delim",
    "readChar",
    "readline",
    "scan",
    "file.exists",
    "dir.exists",
    "file.info",
    "file.size",
    "file.mtime",
    "file.access",
    "file_test",
    "list.files",
    "list.dirs",
    "dir",
    "basename",
    "dirname",
    "file_ext",
    "file_path_sans_ext",
    "md5sum",
    "sha256sum",
    "digest",
    "fromJSON",
    "toJSON",
    "read_yaml",
    "as.yaml",
    "print",
    "message",
    "warning",
    "stop",
    "stopifnot",
    "invisible",
    "format",
    "formatC",
    "paste",
    "toupper",
    "nchar",
    "substr",
    "substring",
    "strsplit",
    "trimws",
    "startsWith",
    "endsWith",
    "grepl",
    "grep",
    "sub",
    "gsub",
    "regmatches",
    "regexpr",
    "gregexpr",
    "shQuote",
    "sQuote",
    "dQuote",
    "encodeString",
    "length",
    "sum",
    "max",
    "min",
    "range",
    "mean",
    "round",
    "abs",
    "seq",
    "seq_along",
    "seq_len",
    "rev",
    "sort",
    "order",
    "unique",
    "head",
    "tail",
    "which",
    "any",
    "all",
    "is.na",
    "is.null",
    "identical",
    "nrow",
    "ncol",
    "names",
    "c",
    "list",
    "vector",
    "character",
    "numeric",
    "integer",
    "logical",
    "unlist",
    "as.numeric",
    "as.integer",
    "as.logical",
    "table",
    "data.frame",
    "setdiff",
    "union",
    "intersect",
    "match",
    "rep",
    "ifelse",
    "switch",
    "exists",
    "missing",
    "nargs",
    "commandArgs",
    "Sys.getenv",
    "Sys.time",
    "Sys.Date",
    "getwd",
    "tempdir",
    "tempfile",
    "suppressWarnings",
    "suppressMessages",
    "suppressPackageStartupMessages",
    "tryCatch",
    "try",
    "local",
    "str",
    "summary",
    "cumsum",
    "prod",
    "is.character",
    "is.numeric",
    "inherits",
    "class",
    "typeof",
    "structure",
    "setNames",
    "utf8ToInt",
    "intToUtf8",
    "chartr",
    "casefold",
    "isTRUE",
    "isFALSE",
    "xor",
    "nlevels",
    "levels",
    "factor",
    "rownames",
    "colnames",
];

const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "for",
    "while",
    "repeat",
    "function",
    "return",
    "next",
    "break",
    "in",
    "TRUE",
    "FALSE",
    "T",
    "F",
    "NULL",
    "NA",
    "NA_integer_",
    "NA_real_",
    "NA_character_",
    "Inf",
    "NaN",
];

/// Packages whose loading writes nothing (their writers are not in [`READ_ONLY`], so a call of
/// one still leaves the program unproven).
const LIBRARIES: &[&str] =
    &["base", "utils", "tools", "stats", "methods", "digest", "jsonlite", "yaml", "stringr", "stringi"];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    joins: &["file.path"],
    concats: &["paste0"],
    identities: &["normalizePath", "path.expand", "as.character"],
    assignments: &["<-", "=", "<<-"],
    members: &["$", "::"],
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    loaders: &["library", "require", "requireNamespace", "loadNamespace"],
    libraries: LIBRARIES,
    lowers: &["tolower"],
    formats: &["sprintf"],
    globs: &["Sys.glob"],
    list_makers: &["c"],
    formals: FORMALS,
    ..Grammar::NONE
};

/// Words that start a function's value (`function(p) …`, R 4.1's `\(p) …`).
const FUNCTION_STARTS: &[&str] = &["function", "\\"];

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let tokens = quoted_argument_names(tokens);
    let bound = Bindings::of(&tokens);
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    for name in &bound.functions {
        if !bound.values.contains(name) {
            engine.define(name);
        }
    }
    engine.run();
    if !proven_by_r(&tokens, &bound) {
        engine.findings.sure = false;
    }
    engine.finish()
}

/// `f("con" = p)` names the argument `con`, as `f(con = p)` does.
fn quoted_argument_names(mut tokens: Vec<Token>) -> Vec<Token> {
    let names: Vec<usize> = (1..tokens.len())
        .filter(|&at| {
            let token = |at: usize| tokens.get(at);
            token(at).is_some_and(Token::is_str)
                && token(at - 1).is_some_and(|t| t.is("(") || t.is(","))
                && token(at + 1).is_some_and(|t| t.is("="))
        })
        .collect();
    for at in names {
        if let Some(name) = tokens.get_mut(at) {
            name.kind = Kind::Ident;
        }
    }
    tokens
}

/// The names a program assigns: those given a function only, and those given anything else.
#[derive(Default)]
struct Bindings {
    functions: Vec<String>,
    values: Vec<String>,
}

impl Bindings {
    /// `x <- v`, `x <<- v`, `x = v` (not a named argument), `v -> x`.
    fn of(tokens: &[Token]) -> Bindings {
        let mut bound = Bindings::default();
        for (at, token) in tokens.iter().enumerate() {
            if token.kind != Kind::Ident {
                continue;
            }
            let after = |offset: usize| tokens.get(at + offset);
            let before = at.checked_sub(1).and_then(|b| tokens.get(b));
            let value = if after(1).is_some_and(|t| t.is("<-")) {
                Some(2)
            } else if after(1).is_some_and(|t| t.is("<<")) && after(2).is_some_and(|t| t.is("-")) {
                Some(3)
            } else if after(1).is_some_and(|t| t.is("=")) && !before.is_some_and(|b| b.is("(") || b.is(",")) {
                Some(2)
            } else {
                None
            };
            // `v -> x`, `v ->> x` (lexed `->`, `>`).
            let arrow = |back: usize| at.checked_sub(back).and_then(|b| tokens.get(b)).is_some_and(|b| b.is("->"));
            let rightward = arrow(1) || before.is_some_and(|b| b.is(">")) && arrow(2);
            let is_function = value.and_then(after).is_some_and(|t| FUNCTION_STARTS.iter().any(|f| t.text == *f));
            let list = if is_function { &mut bound.functions } else { &mut bound.values };
            if (value.is_some() || rightward) && !list.contains(&token.text) {
                list.push(token.text.clone());
            }
        }
        bound
    }
}

/// P-18's checks the engine's tables do not make for R: packages reached by `::`, functions
/// called as values, and calls of names the program rebinds.
fn proven_by_r(tokens: &[Token], bound: &Bindings) -> bool {
    tokens.iter().enumerate().all(|(at, token)| {
        let after = |offset: usize| tokens.get(at + offset);
        let calls = after(1).is_some_and(|t| t.is("(") && !t.line_start);
        let before = at.checked_sub(1).and_then(|b| tokens.get(b));
        let package = after(1).is_some_and(|t| t.is("::"));
        match token.kind {
            // `pkg::f` loads pkg; `pkg:::f` reaches what it does not export.
            Kind::Ident if package => LIBRARIES.contains(&token.text.as_str()) && !after(2).is_some_and(|t| t.is(":")),
            // `x$f()`, `x@f()`: a function held in a value.
            Kind::Ident if calls => {
                !before.is_some_and(|b| b.is("$") || b.is("@")) && !bound.values.contains(&token.text)
            }
            // `library(p, character.only = TRUE)` loads the package named by p's value.
            Kind::Ident => token.text != "character.only",
            // `"f"(…)` calls f.
            Kind::Str { .. } => !calls,
            // `` `f`(…) ``, `f()()`, `l[[1]](…)`: a function the analysis does not name.
            Kind::Punct => token.text != "`" && !((token.is(")") || token.is("]")) && calls),
            Kind::Number => true,
        }
    })
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
