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
    rule("rename", Receiver::Any, Op::Move(0, 1)),
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

/// Calls that write no file and start nothing (P-18); `fwrite` and `fputs` write to a handle,
/// judged where `fopen` opened it.
const READ_ONLY: &[&str] = &[
    "echo", "print", "printf", "sprintf", "print_r", "var_dump", "var_export", "file_get_contents",
    "hash_file", "md5_file", "sha1_file", "file_exists", "is_file", "is_dir", "is_readable", "is_link",
    "filesize", "filemtime", "stat", "scandir", "glob", "implode", "explode", "join", "strtolower",
    "strtoupper", "json_encode", "json_decode", "count", "strlen", "substr", "str_replace", "preg_match",
    "preg_replace", "preg_split", "trim", "rtrim", "ltrim", "basename", "dirname", "pathinfo", "fgets",
    "fread", "fclose", "feof", "fwrite", "fputs", "fflush", "file", "readfile", "md5", "sha1", "hash",
    "base64_decode", "base64_encode", "in_array", "array_map", "array_filter", "array_keys", "array_values",
    "sort", "usort", "exit", "die", "opendir", "readdir", "closedir", "getcwd", "str_contains",
    "str_starts_with", "str_ends_with", "intval", "ucfirst", "date", "time", "microtime", "fprintf",
    "array_merge", "array_slice", "strpos", "str_pad", "number_format", "getenv",
];

const KEYWORDS: &[&str] = &[
    "if", "else", "elseif", "while", "for", "foreach", "as", "return", "new", "array", "list", "isset",
    "unset", "empty", "and", "or", "xor", "not", "true", "false", "null", "use", "namespace", "class",
    "public", "private", "protected", "static", "const", "global", "switch", "case", "default", "break",
    "continue", "do", "match", "fn", "php",
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[(".", "")],
    identities: &["realpath", "strval", "trim"],
    assignments: &["=", ".="],
    sigils: "$",
    members: &["->", "::"],
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    definitions: &["function"],
    // `include`/`require` load code the analysis does not read; no PHP file is a library here.
    loaders: &["include", "include_once", "require", "require_once"],
    lowers: &["strtolower"],
    list_joins: &["implode", "join"],
    separator_first: true,
    formats: &["sprintf"],
    globs: &["glob"],
    constants: &[("DIRECTORY_SEPARATOR", "/")],
    variable_calls: true,
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-r"], file: &["-f"], valued: &["-c", "-d", "-z"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Php, parse_cli(args, &CLI, stdin))
}
