//! PHP: `file_put_contents`, `fopen` with a write mode, `copy`, `rename`, `unlink`, `touch`,
//! `mkdir` (by position or by named argument, through stream wrappers); `exec`, `shell_exec`,
//! `system`, `passthru`, `popen`, `proc_open` (and its `cwd`), backquotes; strings joined by `.`
//! and interpolation. A function named by a string (`'unlink'(…)`, `array_map('unlink', …)`) is
//! called too; `-d` settings that name files (`error_log`) are written.

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
    // A link to a file is another name to write it by.
    rule("symlink", Receiver::Any, Op::Write(&[0, 1])),
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
    "echo",
    "print",
    "printf",
    "sprintf",
    "print_r",
    "var_dump",
    "var_export",
    "file_get_contents",
    "hash_file",
    "md5_file",
    "sha1_file",
    "file_exists",
    "is_file",
    "is_dir",
    "is_readable",
    "is_link",
    "filesize",
    "filemtime",
    "stat",
    "scandir",
    "glob",
    "implode",
    "explode",
    "join",
    "strtolower",
    "strtoupper",
    "json_encode",
    "json_decode",
    "count",
    "strlen",
    "substr",
    "str_replace",
    "preg_match",
    "preg_replace",
    "preg_split",
    "trim",
    "rtrim",
    "ltrim",
    "basename",
    "dirname",
    "pathinfo",
    "fgets",
    "fread",
    "fclose",
    "feof",
    "fwrite",
    "fputs",
    "fflush",
    "file",
    "readfile",
    "md5",
    "sha1",
    "hash",
    "base64_decode",
    "base64_encode",
    "in_array",
    "array_map",
    "array_filter",
    "array_keys",
    "array_values",
    "sort",
    "usort",
    "exit",
    "die",
    "opendir",
    "readdir",
    "closedir",
    "getcwd",
    "str_contains",
    "str_starts_with",
    "str_ends_with",
    "intval",
    "ucfirst",
    "date",
    "time",
    "microtime",
    "fprintf",
    "array_merge",
    "array_slice",
    "strpos",
    "str_pad",
    "number_format",
    "getenv",
    "proc_close",
    "pclose",
];

const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "elseif",
    "while",
    "for",
    "foreach",
    "as",
    "return",
    "new",
    "array",
    "list",
    "isset",
    "unset",
    "empty",
    "and",
    "or",
    "xor",
    "not",
    "true",
    "false",
    "null",
    "use",
    "namespace",
    "class",
    "public",
    "private",
    "protected",
    "static",
    "const",
    "global",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "do",
    "match",
    "fn",
    "php",
    "int",
    "integer",
    "bool",
    "boolean",
    "float",
    "double",
    "real",
    "string",
    "object",
    "binary",
];

/// The parameters of the rules' functions, for named arguments (`copy(to: p, from: q)`).
const FORMALS: &[(&str, &[&str])] = &[
    ("file_put_contents", &["filename", "data", "flags", "context"]),
    ("fopen", &["filename", "mode", "use_include_path", "context"]),
    ("copy", &["from", "to", "context"]),
    ("rename", &["from", "to", "context"]),
    ("unlink", &["filename", "context"]),
    ("touch", &["filename", "mtime", "atime"]),
    ("mkdir", &["directory", "permissions", "recursive", "context"]),
    ("rmdir", &["directory", "context"]),
    ("symlink", &["target", "link"]),
    ("link", &["target", "link"]),
    ("exec", &["command", "output", "result_code"]),
    ("shell_exec", &["command"]),
    ("system", &["command", "result_code"]),
    ("passthru", &["command", "result_code"]),
    ("popen", &["command", "mode"]),
    ("proc_open", &["command", "descriptor_spec", "pipes", "cwd", "env_vars", "options"]),
    ("chdir", &["directory"]),
];

/// The stream wrappers whose path holds a file the call writes.
const WRAPPERS: &[(&str, &str)] = &[
    ("php://filter/", "resource="),
    ("compress.zlib://", ""),
    ("compress.bzip2://", ""),
    ("file://", ""),
    ("phar://", ""),
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[(".", "")],
    identities: &["realpath", "strval", "trim"],
    assignments: &["="],
    sigils: "$",
    members: &["->", "::"],
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    definitions: &["function", "fn"],
    // `include`/`require` load code the analysis does not read; no PHP file is a library here.
    loaders: &["include", "include_once", "require", "require_once"],
    lowers: &["strtolower"],
    list_joins: &["implode", "join"],
    separator_first: true,
    formats: &["sprintf"],
    globs: &["glob"],
    constants: &[("DIRECTORY_SEPARATOR", "/")],
    variable_calls: true,
    formals: FORMALS,
    computed_calls: true,
    callbacks: &[("array_map", &[0]), ("array_filter", &[1]), ("usort", &[1])],
    mutators: &["sort", "usort", "preg_match"],
    wrappers: WRAPPERS,
    chdir_option: "cwd",
    ..Grammar::NONE
};

pub fn analyze(text: &str) -> Findings {
    run_grammar(text, &SYNTAX, &GRAMMAR)
}

/// `-r` runs code; `-B`, `-R` and `-E` run code before, for and after each line of input, `-F`
/// a file for each line.
const CLI: Cli = Cli {
    inline: &["-r", "-B", "-R", "-E"],
    file: &["-f", "-F"],
    valued: &["-c", "-d", "-z", "-t", "-S"],
    module: &[],
};

/// Settings (`-d name=value`) that name a file PHP writes: its logs.
const INI_FILES: &[&str] = &["error_log", "mail.log", "opcache.error_log", "xdebug.log"];

/// Settings that name a folder PHP writes files of its own naming in.
const INI_FOLDERS: &[&str] = &[
    "session.save_path",
    "opcache.file_cache",
    "opcache.lockfile_path",
    "upload_tmp_dir",
    "sys_temp_dir",
    "soap.wsdl_cache_dir",
    "xdebug.output_dir",
    "xdebug.trace_output_dir",
    "xdebug.profiler_output_dir",
];

/// Settings that load code before the program (P-18: code the analysis does not read).
const INI_CODE: &[&str] = &["auto_prepend_file", "auto_append_file", "extension", "zend_extension"];

/// `php -r …`, `php script.php`, a script on stdin; `-d` settings that name files are written
/// there, ones that load code (and `-c`'s php.ini, `-z`'s extension) make it unproven.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut invocation = simple(Language::Php, parse_cli(args, &CLI, stdin));
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-') && *arg != "-" && *arg != "--") {
        at += 1;
        let (option, attached) = arg.split_at(arg.len().min(2));
        let takes = CLI.valued.iter().chain(CLI.inline).chain(CLI.file).any(|valued| *valued == option);
        let value = match (takes, attached.is_empty()) {
            (false, _) => continue,
            (true, false) => attached.to_string(),
            (true, true) => {
                at += 1;
                args.get(at - 1).cloned().unwrap_or_default()
            }
        };
        match option {
            "-d" => setting(&value, &mut invocation),
            "-c" | "-z" => invocation.prelude.push_str(&format!("include '{}';\n", value.replace(['\\', '\''], ""))),
            _ => {}
        }
    }
    invocation
}

/// One `-d name=value` setting.
fn setting(assignment: &str, invocation: &mut Invocation) {
    let (name, value) = assignment.split_once('=').unwrap_or((assignment, "1"));
    let (name, value) = (name.trim(), value.trim().trim_matches('"'));
    // `session.save_path` may be `N;MODE;/path`.
    let path = value.rsplit(';').next().unwrap_or(value).to_string();
    if INI_FILES.contains(&name) {
        invocation.writes.push(path);
    } else if INI_FOLDERS.contains(&name) {
        invocation.trees.push(path);
    } else if INI_CODE.contains(&name) {
        invocation.prelude.push_str(&format!("include '{}';\n", path.replace(['\\', '\''], "")));
    } else if crate::paths::names_guarded(value, crate::paths::Dialect::Program) {
        // A setting the table does not know, naming a guarded location: P-18.
        invocation.writes.push(path);
    }
}
