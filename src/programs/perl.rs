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
    rule("new", Receiver::Only(&["File"]), Op::PerlIoFile),
    rule("unlink", Receiver::Any, Op::WriteAll),
    rule("rename", Receiver::Any, Op::Move(0, 1)),
    rule("link", Receiver::Any, Op::Write(&[0, 1])),
    rule("symlink", Receiver::Any, Op::Write(&[1])),
    rule("mkdir", Receiver::Any, Op::Write(&[0])),
    rule("rmdir", Receiver::Any, Op::Write(&[0])),
    rule("truncate", Receiver::Any, Op::Write(&[0])),
    rule("copy", Receiver::Any, Op::Copy(0, 1)),
    rule("cp", Receiver::Any, Op::Copy(0, 1)),
    rule("move", Receiver::Any, Op::Move(0, 1)),
    rule("mv", Receiver::Any, Op::Move(0, 1)),
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
];

/// Calls that write no file and start nothing (P-18): builtins, file-handle and directory reads,
/// the tests `-e -f -d …`, and the standard modules' pure functions.
const READ_ONLY: &[&str] = &[
    "print", "printf", "say", "close", "binmode", "syswrite", "sysread", "read", "readline", "eof", "seek",
    "tell", "fileno", "flush", "autoflush", "getline", "getlines", "opendir", "readdir", "closedir",
    "rewinddir", "stat", "lstat", "length", "join", "split", "sprintf", "substr", "index", "rindex", "uc",
    "lc", "ucfirst", "lcfirst", "chomp", "chop", "chr", "ord", "sort", "reverse", "keys", "values", "each",
    "exists", "defined", "delete", "push", "pop", "shift", "unshift", "splice", "map", "grep", "scalar",
    "wantarray", "die", "warn", "exit", "time", "localtime", "gmtime", "sleep", "abs", "int", "sqrt", "hex",
    "oct", "pack", "unpack", "ref", "bless", "glob", "quotemeta", "pos", "local", "return", "basename",
    "dirname", "fileparse", "canonpath", "abs2rel", "cwd", "getcwd", "decode_base64", "encode_base64",
    "encode_json", "decode_json", "md5_hex", "sha1_hex", "sha256_hex", "sha512_hex", "Dumper", "STDOUT",
    "STDERR", "STDIN", "SHA.new", "MD5.new", "addfile", "add", "hexdigest", "digest", "b64digest", "slurp",
    "slurp_utf8", "lines", "exists", "is_file", "is_dir", "basename", "children", "e", "f", "d", "r", "w",
    "x", "s", "z", "l",
];

/// Words that are not calls.
const KEYWORDS: &[&str] = &[
    "my", "our", "if", "elsif", "else", "unless", "while", "until", "for", "foreach", "last", "next", "redo",
    "and", "or", "not", "xor", "eq", "ne", "lt", "gt", "le", "ge", "cmp", "x", "undef", "__END__",
    "__DATA__", "__FILE__", "BEGIN", "END", "qw", "q", "qq", "package", "no", "strict", "warnings",
];

/// Modules whose loading writes nothing (their calls are judged by the tables).
const LIBRARIES: &[&str] = &[
    "strict", "warnings", "utf8", "feature", "IO::File", "IO::Handle", "File::Copy", "File::Spec",
    "File::Path", "File::Basename", "File::Temp", "File::Find", "File::stat", "Fcntl", "Cwd", "POSIX",
    "Digest::SHA", "Digest::MD5", "MIME::Base64", "JSON::PP", "Data::Dumper", "Getopt::Long", "List::Util",
    "Scalar::Util", "Path::Tiny", "Encode", "constant", "Time::HiRes", "Time::Local", "English",
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
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    method_members: &["->"],
    definitions: &["sub"],
    loaders: &["use", "require"],
    libraries: LIBRARIES,
    lowers: &["lc"],
    formats: &["sprintf"],
    globs: &["glob"],
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-e", "-E"], file: &[], valued: &["-I", "-M", "-m", "-C", "-x"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Perl, parse_cli(args, &CLI, stdin))
}
