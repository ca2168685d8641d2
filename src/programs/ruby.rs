//! Ruby: `File.write`/`IO.write`, `File.open`/`open` with a write mode, `FileUtils.*`,
//! `File.delete`/`rename`/`symlink`, Pathname's writing methods; `system`, `exec`, `spawn` (and
//! their `chdir:`), backquotes, ``Kernel.`(…)``, `%x`, `IO.popen`, Open3; strings joined by `+`,
//! interpolation, `File.join`, Pathname's `+` and `/`. `-i` edits the files it reads in place:
//! on the command line, the operands; set by the program (`$-i`) or on its `#!` line, unproven.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[
    quote("\"", "\"", true, Interpolation::HashBraces),
    quote("'", "'", true, Interpolation::None),
    Quote { open: "`", close: "`", escapes: true, interpolation: Interpolation::HashBraces, command: true },
    Quote { open: "%x(", close: ")", escapes: true, interpolation: Interpolation::HashBraces, command: true },
    quote("%q(", ")", true, Interpolation::None),
    quote("%Q(", ")", true, Interpolation::HashBraces),
    quote("%(", ")", true, Interpolation::HashBraces),
];

const SYNTAX: Syntax = Syntax {
    line_comments: &["#"],
    block_comments: &[("=begin", "=end")],
    quotes: QUOTES,
    regex_literals: true,
    ident_chars: "?!@$",
    backquote_methods: true,
    word_lists: true,
    ..Syntax::PLAIN
};

const FILE: &[&str] = &["File", "IO"];
const FILE_UTILS: &[&str] = &["FileUtils", "FU"];

const RULES: &[Rule] = &[
    // A Pathname's methods write the path it holds (`Pathname.new(p).write(x)`, `pn.open('w')`),
    // before the class methods of the same names (`File.write(p, x)`).
    rule("write", Receiver::PathLike, Op::Receiver),
    rule("binwrite", Receiver::PathLike, Op::Receiver),
    rule("open", Receiver::PathLike, Op::ReceiverOpen(0)),
    rule("rename", Receiver::PathLike, Op::ReceiverAnd(0)),
    rule("truncate", Receiver::PathLike, Op::Receiver),
    rule("delete", Receiver::PathLike, Op::Receiver),
    rule("unlink", Receiver::PathLike, Op::Receiver),
    rule("make_link", Receiver::PathLike, Op::ReceiverAnd(0)),
    rule("make_symlink", Receiver::PathLike, Op::ReceiverAnd(0)),
    rule("mkdir", Receiver::PathLike, Op::Receiver),
    rule("mkpath", Receiver::PathLike, Op::Receiver),
    rule("rmdir", Receiver::PathLike, Op::Receiver),
    rule("rmtree", Receiver::PathLike, Op::Receiver),
    rule("utime", Receiver::PathLike, Op::Receiver),
    rule("chmod", Receiver::PathLike, Op::Receiver),
    rule("chown", Receiver::PathLike, Op::Receiver),
    rule("write", Receiver::Only(FILE), Op::Write(&[0])),
    rule("binwrite", Receiver::Only(FILE), Op::Write(&[0])),
    rule("open", Receiver::Module(&["File", "IO", "Kernel"]), Op::PipeOpen { path: 0, mode: 1 }),
    rule("copy_stream", Receiver::Only(&["IO"]), Op::Write(&[1])),
    rule("sysopen", Receiver::Only(&["IO"]), Op::OpenFlags { path: 0, flags: 1 }),
    rule("new", Receiver::Only(&["File"]), Op::Open { path: 0, mode: 1, named: "mode" }),
    rule("delete", Receiver::Only(FILE), Op::WriteAll),
    rule("unlink", Receiver::Only(FILE), Op::WriteAll),
    rule("rename", Receiver::Only(FILE), Op::Move(0, 1)),
    // A link to a file is another name to write it by.
    rule("symlink", Receiver::Only(FILE), Op::Write(&[0, 1])),
    rule("link", Receiver::Only(FILE), Op::Write(&[0, 1])),
    rule("truncate", Receiver::Only(FILE), Op::Write(&[0])),
    rule("mkdir", Receiver::Only(&["Dir"]), Op::Write(&[0])),
    rule("cp", Receiver::Only(FILE_UTILS), Op::Copy(0, 1)),
    rule("cp_r", Receiver::Only(FILE_UTILS), Op::WriteTree(1)),
    rule("copy", Receiver::Only(FILE_UTILS), Op::Copy(0, 1)),
    rule("copy_file", Receiver::Only(FILE_UTILS), Op::Write(&[1])),
    rule("install", Receiver::Only(FILE_UTILS), Op::Copy(0, 1)),
    rule("mv", Receiver::Only(FILE_UTILS), Op::Move(0, 1)),
    rule("move", Receiver::Only(FILE_UTILS), Op::Move(0, 1)),
    rule("ln", Receiver::Only(FILE_UTILS), Op::Write(&[0, 1])),
    rule("ln_s", Receiver::Only(FILE_UTILS), Op::Write(&[0, 1])),
    rule("ln_sf", Receiver::Only(FILE_UTILS), Op::Write(&[0, 1])),
    rule("rm", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("rm_f", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("rm_r", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("rm_rf", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("remove", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("touch", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("mkdir_p", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("mkdir", Receiver::Only(FILE_UTILS), Op::WriteAll),
    rule("system", Receiver::Module(&["Kernel"]), Op::RunArgv),
    rule("exec", Receiver::Module(&["Kernel", "Process"]), Op::RunArgv),
    rule("spawn", Receiver::Module(&["Process", "Kernel"]), Op::RunArgv),
    rule("`", Receiver::Module(&["Kernel"]), Op::Run(0)),
    rule("popen", Receiver::Only(&["IO"]), Op::Run(0)),
    rule("capture2", Receiver::Only(&["Open3"]), Op::RunArgv),
    rule("capture2e", Receiver::Only(&["Open3"]), Op::RunArgv),
    rule("capture3", Receiver::Only(&["Open3"]), Op::RunArgv),
    rule("popen3", Receiver::Only(&["Open3"]), Op::RunArgv),
    rule("chdir", Receiver::Only(&["Dir"]), Op::Chdir(0)),
    rule("eval", Receiver::Any, Op::Opaque),
    rule("instance_eval", Receiver::Any, Op::Opaque),
    rule("class_eval", Receiver::Any, Op::Opaque),
    rule("send", Receiver::Any, Op::Opaque),
    rule("public_send", Receiver::Any, Op::Opaque),
    rule("load", Receiver::Bare, Op::Opaque),
    rule("require_relative", Receiver::Bare, Op::Opaque),
];

/// Calls that write no file and start nothing (P-18): output, reads, tests, the methods of
/// strings, lists and handles (a handle is judged where it is opened), digests.
const READ_ONLY: &[&str] = &[
    "puts",
    "p",
    "pp",
    "print",
    "printf",
    "warn",
    "raise",
    "abort",
    "exit",
    "format",
    "sprintf",
    "gets",
    "File.read",
    "File.readlines",
    "File.foreach",
    "File.exist?",
    "File.file?",
    "File.directory?",
    "File.size",
    "File.mtime",
    "File.stat",
    "File.basename",
    "File.dirname",
    "File.extname",
    "IO.read",
    "IO.readlines",
    "Dir.glob",
    "Dir.children",
    "Dir.entries",
    "Dir.exist?",
    "Dir.pwd",
    "Dir.each_child",
    "SHA256.file",
    "SHA256.hexdigest",
    "SHA1.file",
    "MD5.file",
    "SHA256.new",
    "hexdigest",
    "digest",
    "JSON.parse",
    "JSON.generate",
    "JSON.pretty_generate",
    "to_json",
    "read",
    "readlines",
    "each_line",
    "write",
    "puts",
    "close",
    "flush",
    "sync",
    "each",
    "each_with_index",
    "map",
    "select",
    "reject",
    "sort",
    "sort_by",
    "first",
    "last",
    "size",
    "length",
    "count",
    "join",
    "split",
    "lines",
    "chomp",
    "strip",
    "include?",
    "start_with?",
    "end_with?",
    "sub",
    "gsub",
    "grep",
    "to_s",
    "to_i",
    "to_a",
    "to_h",
    "to_sym",
    "upcase",
    "downcase",
    "unpack1",
    "unpack",
    "pack",
    "reverse",
    "uniq",
    "keys",
    "values",
    "empty?",
    "nil?",
    "exist?",
    "file?",
    "directory?",
    "basename",
    "dirname",
    "inspect",
    "freeze",
    "dup",
    "tap",
    "then",
    "match",
    "match?",
    "scan",
    "bytes",
    "chars",
    "sum",
    "min",
    "max",
    "flatten",
    "compact",
    "zip",
    "take",
    "drop",
    "find",
    "any?",
    "all?",
    "none?",
    "tr",
    "squeeze",
    "ljust",
    "rjust",
    "center",
    "slice",
    "fetch",
    "dig",
    "merge",
    "key?",
    "format",
    "round",
    "floor",
    "abs",
    "times",
    "upto",
    "step",
    "Pathname.new",
    "Set.new",
    "Hash.new",
    "Array.new",
    "StringIO.new",
    "Time.now",
    "File.binread",
    "IO.binread",
    // Psych's safe loaders build plain data (`YAML.load`/`load_file` before Psych 4 build any
    // object the text names, whose methods then run: not here).
    "YAML.safe_load",
    "YAML.safe_load_file",
    "Psych.safe_load",
    "Psych.safe_load_file",
    "YAML.dump",
    "to_yaml",
];

const KEYWORDS: &[&str] = &[
    "if",
    "elsif",
    "else",
    "unless",
    "while",
    "until",
    "for",
    "in",
    "do",
    "end",
    "begin",
    "rescue",
    "ensure",
    "then",
    "case",
    "when",
    "return",
    "and",
    "or",
    "not",
    "class",
    "module",
    "self",
    "nil",
    "true",
    "false",
    "yield",
    "break",
    "next",
    "redo",
    "retry",
    "super",
    "lambda",
    "proc",
    "loop",
    "defined?",
    "__FILE__",
    "__dir__",
    "ENV",
    "STDOUT",
    "STDERR",
    "STDIN",
    "attr_reader",
    "attr_accessor",
];

/// Libraries whose loading writes nothing.
const LIBRARIES: &[&str] = &[
    "fileutils",
    "digest",
    "digest/sha2",
    "digest/md5",
    "json",
    "yaml",
    "pathname",
    "set",
    "tempfile",
    "tmpdir",
    "open3",
    "shellwords",
    "time",
    "date",
    "csv",
    "optparse",
    "find",
    "English",
    "securerandom",
    "base64",
    "stringio",
    "pp",
    "erb",
    "open-uri",
];

/// Calls whose block gets a handle (`File.open(p, 'w') { |f| … }`, `IO.popen`, `Open3.popen3`).
const HANDLE_OPENERS: &[&str] = &["open", "new", "popen", "sysopen", "create", "popen2", "popen2e", "popen3"];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[("+", "")],
    joins: &["File.join", "Pathname", "Pathname.new", "join"],
    identities: &["expand_path", "absolute_path", "realpath", "to_s", "to_path", "cleanpath"],
    path_types: &["Pathname"],
    parameters_may_hold_paths: true,
    handle_openers: HANDLE_OPENERS,
    assignments: &["="],
    sigils: "@$",
    calls_without_parentheses: true,
    members: &["::", "&."],
    dot_member: true,
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    method_members: &[".", "&."],
    definitions: &["def"],
    loaders: &["require"],
    libraries: LIBRARIES,
    lowers: &["downcase"],
    globs: &["Dir.glob"],
    formats: &["format", "sprintf"],
    percent_format: true,
    computed_calls: true,
    setter_calls: true,
    appends: &["<<"],
    path_operators: &["+", "/"],
    chdir_option: "chdir",
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    let mut findings = run_grammar(text, &SYNTAX, &GRAMMAR);
    // `$-i = ''` turns in-place editing on; so does `-i` on a `#!` line naming ruby.
    let switches = text.lines().filter(|line| line.starts_with("#!") && line.contains("ruby")).any(|line| {
        line.split_whitespace()
            .skip(1)
            .take_while(|word| word.starts_with('-'))
            .any(|word| valued_switch(word).is_some_and(|(letter, _)| letter == 'i'))
    });
    if text.contains("$-i") || switches {
        findings.sure = false;
    }
    findings
}

const CLI: Cli = Cli { inline: &["-e"], file: &[], valued: &["-I", "-r", "-C", "-E", "--encoding"], module: &[] };

/// `ruby -e …`, `ruby script.rb`, a script on stdin; `-i` edits the file operands in place,
/// `-rlib` loads the library first (`require 'lib'`), `-C dir` and `-xdir` run it in `dir`.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut invocation = simple(Language::Ruby, parse_cli(args, &CLI, stdin));
    let mut in_place = false;
    let mut dir = String::new();
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-') && *arg != "-" && *arg != "--") {
        at += 1;
        if ["--encoding", "--external-encoding", "--internal-encoding"].contains(&arg.as_str()) {
            at += 1;
            continue;
        }
        let Some((letter, attached)) = valued_switch(arg) else { continue };
        let separate = ['e', 'I', 'r', 'C', 'E'].contains(&letter) && attached.is_empty();
        let value = if separate {
            at += 1;
            args.get(at - 1).map_or("", String::as_str)
        } else {
            attached
        };
        match letter {
            'i' => in_place = true,
            // A folder searched first for every library, `rubygems` too: code no analysis reads.
            'I' => {
                invocation.search.push(value.to_string());
                invocation.unseen_code = true;
            }
            'r' => invocation.prelude.push_str(&format!("require '{}'\n", quoted(value))),
            'C' | 'x' if !value.is_empty() => {
                dir =
                    if value.starts_with('/') || dir.is_empty() { value.to_string() } else { format!("{dir}/{value}") };
                invocation.prelude.push_str(&format!("Dir.chdir('{}')\n", quoted(value)));
            }
            _ => {}
        }
    }
    if in_place {
        let located = |file: &String| {
            if dir.is_empty() || file.starts_with('/') { file.clone() } else { format!("{dir}/{file}") }
        };
        invocation.writes = invocation.args.iter().map(located).collect();
    }
    invocation
}

/// Text for a single-quoted Ruby string.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

/// The first switch of a cluster that takes a value, and the rest of the cluster as that value
/// (`-pi.bak` is `i` and `.bak`); the letters before it take none, or digits (`-0777`).
fn valued_switch(word: &str) -> Option<(char, &str)> {
    let cluster = word.strip_prefix('-').filter(|cluster| !cluster.starts_with('-'))?;
    let mut letters = cluster.char_indices().peekable();
    while let Some((at, letter)) = letters.next() {
        match letter {
            '0' => while letters.next_if(|&(_, c)| c.is_digit(8)).is_some() {},
            'a' | 'c' | 'd' | 'l' | 'n' | 'p' | 's' | 'S' | 'v' | 'w' | 'y' | 'U' | 'h' => {}
            _ => return Some((letter, cluster.get(at + letter.len_utf8()..).unwrap_or_default())),
        }
    }
    None
}
