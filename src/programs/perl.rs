//! Perl: `open` with `>`, `>>`, `+<`, `|-`; `unlink`, `rename`, File::Copy, File::Path,
//! Path::Tiny's `spew`; `system`, `exec`, backquotes and `qx`; strings joined by `.` and
//! interpolation. `-i` on the command line is the bash writer table's; `$^I` set by the program
//! and `-i` on its `#!` line make it unproven (it edits the files it reads, which the call names).

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
    angle_globs: true,
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
    // A link to a file is another name to write it by.
    rule("link", Receiver::Any, Op::Write(&[0, 1])),
    rule("symlink", Receiver::Any, Op::Write(&[0, 1])),
    rule("utime", Receiver::Any, Op::WriteFrom(2)),
    rule("chmod", Receiver::Any, Op::WriteFrom(1)),
    rule("chown", Receiver::Any, Op::WriteFrom(2)),
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
    "print",
    "printf",
    "say",
    "close",
    "binmode",
    "syswrite",
    "sysread",
    "read",
    "readline",
    "eof",
    "seek",
    "tell",
    "fileno",
    "flush",
    "autoflush",
    "getline",
    "getlines",
    "opendir",
    "readdir",
    "closedir",
    "rewinddir",
    "stat",
    "lstat",
    "length",
    "join",
    "split",
    "sprintf",
    "substr",
    "index",
    "rindex",
    "uc",
    "lc",
    "ucfirst",
    "lcfirst",
    "chomp",
    "chop",
    "chr",
    "ord",
    "sort",
    "reverse",
    "keys",
    "values",
    "each",
    "exists",
    "defined",
    "delete",
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "map",
    "grep",
    "scalar",
    "wantarray",
    "die",
    "warn",
    "exit",
    "time",
    "localtime",
    "gmtime",
    "sleep",
    "abs",
    "int",
    "sqrt",
    "hex",
    "oct",
    "pack",
    "unpack",
    "ref",
    "bless",
    "glob",
    "quotemeta",
    "pos",
    "local",
    "return",
    "basename",
    "dirname",
    "fileparse",
    "canonpath",
    "abs2rel",
    "cwd",
    "getcwd",
    "decode_base64",
    "encode_base64",
    "encode_json",
    "decode_json",
    "md5_hex",
    "sha1_hex",
    "sha256_hex",
    "sha512_hex",
    "Dumper",
    "STDOUT",
    "STDERR",
    "STDIN",
    "SHA.new",
    "MD5.new",
    "addfile",
    "add",
    "hexdigest",
    "digest",
    "b64digest",
    "slurp",
    "slurp_utf8",
    "lines",
    "exists",
    "is_file",
    "is_dir",
    "basename",
    "children",
    "e",
    "f",
    "d",
    "r",
    "w",
    "x",
    "s",
    "z",
    "l",
];

/// Words that are not calls.
const KEYWORDS: &[&str] = &[
    "my", "our", "if", "elsif", "else", "unless", "while", "until", "for", "foreach", "last", "next", "redo", "and",
    "or", "not", "xor", "eq", "ne", "lt", "gt", "le", "ge", "cmp", "x", "undef", "__END__", "__DATA__", "__FILE__",
    "BEGIN", "END", "qw", "q", "qq", "package", "no", "strict", "warnings",
];

/// Builtins that change the variables they are given (`chop $p`, `push @a, $x`,
/// `substr($p, 0, 1) = …`).
const MUTATORS: &[&str] =
    &["chomp", "chop", "push", "pop", "shift", "unshift", "splice", "delete", "read", "sysread", "substr", "undef"];

/// Modules whose loading writes nothing (their calls are judged by the tables).
const LIBRARIES: &[&str] = &[
    "strict",
    "warnings",
    "utf8",
    "feature",
    "IO::File",
    "IO::Handle",
    "File::Copy",
    "File::Spec",
    "File::Path",
    "File::Basename",
    "File::Temp",
    "File::Find",
    "File::stat",
    "Fcntl",
    "Cwd",
    "POSIX",
    "Digest::SHA",
    "Digest::MD5",
    "MIME::Base64",
    "JSON::PP",
    "Data::Dumper",
    "Getopt::Long",
    "List::Util",
    "Scalar::Util",
    "Path::Tiny",
    "Encode",
    "constant",
    "Time::HiRes",
    "Time::Local",
    "English",
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[(".", "")],
    joins: &["catfile", "catdir", "path", "file", "dir", "child"],
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
    list_joins: &["join"],
    separator_first: true,
    formats: &["sprintf"],
    globs: &["glob"],
    glob_words: true,
    computed_calls: true,
    mutators: MUTATORS,
    default_argument: "_",
    fat_comma: true,
    paren_lists: true,
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    let mut findings = run_grammar(text, &SYNTAX, &GRAMMAR);
    if edits_in_place(text) {
        findings.sure = false;
    }
    findings
}

/// The program turns in-place editing on: `$^I` (`$INPLACE_EDIT`, a symbolic `${"…"}`) assigned,
/// or `-i` among the switches of a `#!` line naming perl, which perl reads from a script (with
/// `-x`, from any line).
fn edits_in_place(text: &str) -> bool {
    let symbolic = text
        .match_indices("${")
        .any(|(at, _)| text.get(at + 2..).is_some_and(|rest| rest.trim_start().starts_with(['"', '\''])));
    let switches = text
        .lines()
        .filter(|line| line.starts_with("#!") && line.contains("perl"))
        .any(|line| line.split_whitespace().skip(1).take_while(|word| word.starts_with('-')).any(in_place_cluster));
    text.contains("$^I") || text.contains("INPLACE_EDIT") || symbolic || switches
}

/// Whether a cluster of perl's switches (`-lpi`, `-0777pi`) turns on `-i`.
fn in_place_cluster(word: &str) -> bool {
    valued_switch(word).is_some_and(|(letter, _)| letter == 'i')
}

/// `-M`/`-m` must be attached (`-MFile::Copy`); `-C` and `-x` take an attached value or none.
const CLI: Cli = Cli { inline: &["-e", "-E"], file: &[], valued: &["-I"], module: &[] };

/// `perl -e …`, `perl script.pl`, a script on stdin; `-Mmodule` loads the module before the
/// program (`use module;`), `-xdir` runs it in `dir`.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut invocation = simple(Language::Perl, parse_cli(args, &CLI, stdin));
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-') && *arg != "-" && *arg != "--") {
        at += 1;
        let Some((letter, value)) = valued_switch(arg) else { continue };
        match letter {
            'M' | 'm' => {
                let module = value.trim_start_matches('-').split('=').next().unwrap_or_default();
                invocation.prelude.push_str(&format!("use {module};\n"));
            }
            'x' if !value.is_empty() => {
                let dir = value.replace('\\', "\\\\").replace('\'', "\\'");
                invocation.prelude.push_str(&format!("chdir('{dir}');\n"));
            }
            // A folder searched first for every module, `strict` too: code no analysis reads.
            'I' => {
                let folder = if value.is_empty() { args.get(at).map_or("", String::as_str) } else { value };
                at += usize::from(value.is_empty());
                invocation.search.push(folder.to_string());
                invocation.unseen_code = true;
            }
            'e' | 'E' if value.is_empty() => at += 1,
            _ => {}
        }
    }
    invocation
}

/// The first switch of a cluster that takes a value, and the rest of the cluster as that value
/// (`-wMstrict` is `M` and `strict`); the letters before it take none, or digits.
fn valued_switch(word: &str) -> Option<(char, &str)> {
    let cluster = word.strip_prefix('-')?;
    let mut letters = cluster.char_indices().peekable();
    while let Some((at, letter)) = letters.next() {
        match letter {
            'l' | '0' => {
                let hex = letter == '0' && letters.next_if(|&(_, c)| c == 'x').is_some();
                while letters.next_if(|&(_, c)| if hex { c.is_ascii_hexdigit() } else { c.is_digit(8) }).is_some() {}
            }
            'a' | 'c' | 'n' | 'p' | 's' | 'S' | 't' | 'T' | 'u' | 'U' | 'v' | 'w' | 'W' | 'X' | 'h' => {}
            _ => return Some((letter, cluster.get(at + letter.len_utf8()..).unwrap_or_default())),
        }
    }
    None
}
