//! Python: `open(…, 'w')`, pathlib's `write_text`/`/`, `os`/`shutil` file operations,
//! `subprocess`/`os.system`; paths joined by `+`, f-strings, `os.path.join`, `%`, `.format`.

use super::engine::{Grammar, Op, Receiver, Rule, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Cli, Findings, Invocation, Language, parse_cli, run_grammar, simple};

const QUOTES: &[Quote] = &[
    quote("\"\"\"", "\"\"\"", true, Interpolation::None),
    quote("'''", "'''", true, Interpolation::None),
    quote("\"", "\"", true, Interpolation::None),
    quote("'", "'", true, Interpolation::None),
];

const SYNTAX: Syntax = Syntax { line_comments: &["#"], quotes: QUOTES, string_prefixes: true, ..Syntax::PLAIN };

const OS: &[&str] = &["os", "posix", "nt"];
const SHUTIL: &[&str] = &["shutil"];
const SUBPROCESS: &[&str] = &["subprocess", "sp"];
const OPENERS: &[&str] = &["io", "codecs", "builtins", "gzip", "bz2", "lzma", "tarfile", "zipfile", "aiofiles"];

const RULES: &[Rule] = &[
    rule("open", Receiver::Module(OPENERS), Op::Open { path: 0, mode: 1, named: "mode" }),
    rule("open", Receiver::PathLike, Op::ReceiverOpen(0)),
    rule("open", Receiver::Only(OS), Op::OpenFlags { path: 0, flags: 1 }),
    rule("ZipFile", Receiver::Any, Op::Open { path: 0, mode: 1, named: "mode" }),
    rule("write_text", Receiver::Any, Op::Receiver),
    rule("write_bytes", Receiver::Any, Op::Receiver),
    rule("touch", Receiver::Any, Op::Receiver),
    rule("unlink", Receiver::PathLike, Op::Receiver),
    rule("rmdir", Receiver::PathLike, Op::Receiver),
    rule("mkdir", Receiver::PathLike, Op::Receiver),
    rule("symlink_to", Receiver::Any, Op::Receiver),
    rule("hardlink_to", Receiver::Any, Op::Receiver),
    rule("rename", Receiver::PathLike, Op::ReceiverAnd(0)),
    rule("replace", Receiver::PathLike, Op::ReceiverAnd(0)),
    rule("remove", Receiver::Module(OS), Op::Write(&[0])),
    rule("unlink", Receiver::Module(OS), Op::Write(&[0])),
    rule("rmdir", Receiver::Module(OS), Op::Write(&[0])),
    rule("removedirs", Receiver::Module(OS), Op::Write(&[0])),
    rule("mkdir", Receiver::Module(OS), Op::Write(&[0])),
    rule("makedirs", Receiver::Module(OS), Op::Write(&[0])),
    rule("truncate", Receiver::Module(OS), Op::Write(&[0])),
    rule("mkfifo", Receiver::Module(OS), Op::Write(&[0])),
    rule("rename", Receiver::Module(OS), Op::Write(&[0, 1])),
    rule("renames", Receiver::Module(OS), Op::Write(&[0, 1])),
    rule("replace", Receiver::Only(OS), Op::Write(&[0, 1])),
    rule("link", Receiver::Module(OS), Op::Write(&[0, 1])),
    rule("symlink", Receiver::Module(OS), Op::Write(&[1])),
    rule("copy", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copy2", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copyfile", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copytree", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copymode", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copystat", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("copyfileobj", Receiver::Module(SHUTIL), Op::Write(&[])),
    rule("move", Receiver::Module(SHUTIL), Op::Write(&[0, 1])),
    rule("rmtree", Receiver::Module(SHUTIL), Op::Write(&[0])),
    rule("unpack_archive", Receiver::Module(SHUTIL), Op::Write(&[1])),
    rule("make_archive", Receiver::Module(SHUTIL), Op::Write(&[0])),
    rule("to_csv", Receiver::Any, Op::Write(&[0])),
    rule("to_json", Receiver::Any, Op::Write(&[0])),
    rule("to_excel", Receiver::Any, Op::Write(&[0])),
    rule("to_parquet", Receiver::Any, Op::Write(&[0])),
    rule("to_markdown", Receiver::Any, Op::Write(&[0])),
    rule("savefig", Receiver::Any, Op::Write(&[0])),
    rule("urlretrieve", Receiver::Any, Op::Write(&[1])),
    rule("run", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("call", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("check_call", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("check_output", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("getoutput", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("getstatusoutput", Receiver::Module(SUBPROCESS), Op::Run(0)),
    rule("Popen", Receiver::Any, Op::Run(0)),
    rule("system", Receiver::Module(OS), Op::Run(0)),
    rule("popen", Receiver::Module(OS), Op::Run(0)),
    rule("spawn", Receiver::Only(&["pty", "pexpect"]), Op::Run(0)),
    rule("create_subprocess_shell", Receiver::Any, Op::Run(0)),
    rule("create_subprocess_exec", Receiver::Any, Op::RunArgv),
    rule("execv", Receiver::Module(OS), Op::Run(1)),
    rule("execvp", Receiver::Module(OS), Op::Run(1)),
    rule("execve", Receiver::Module(OS), Op::Run(1)),
    rule("execvpe", Receiver::Module(OS), Op::Run(1)),
    rule("execl", Receiver::Module(OS), Op::Opaque),
    rule("execlp", Receiver::Module(OS), Op::Opaque),
    rule("spawnv", Receiver::Module(OS), Op::Opaque),
    rule("spawnl", Receiver::Module(OS), Op::Opaque),
    rule("posix_spawn", Receiver::Module(OS), Op::Opaque),
    rule("chdir", Receiver::Module(OS), Op::Chdir(0)),
    rule("eval", Receiver::Bare, Op::Opaque),
    rule("exec", Receiver::Bare, Op::Opaque),
    rule("compile", Receiver::Bare, Op::Opaque),
    rule("__import__", Receiver::Bare, Op::Opaque),
    rule("getattr", Receiver::Bare, Op::Opaque),
    rule("import_module", Receiver::Any, Op::Opaque),
    rule("run_path", Receiver::Any, Op::Opaque),
    rule("run_module", Receiver::Any, Op::Opaque),
    rule("CDLL", Receiver::Any, Op::Opaque),
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[("+", ""), ("/", "/")],
    joins: &["path.join", "posixpath.join", "join", "Path", "PurePath", "PosixPath", "PurePosixPath"],
    identities: &[
        "str",
        "fspath",
        "abspath",
        "realpath",
        "normpath",
        "expanduser",
        "resolve",
        "absolute",
        "as_posix",
        "strip",
        "expandvars",
    ],
    path_types: &["Path", "PurePath", "PosixPath", "PurePosixPath", "joinpath", "with_name", "with_suffix"],
    assignments: &["=", ":="],
    percent_format: true,
    dot_member: true,
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

const CLI: Cli = Cli { inline: &["-c"], file: &[], valued: &["-W", "-X", "--check-hash-based-pycs"], module: &["-m"] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Python, parse_cli(args, &CLI, stdin))
}
