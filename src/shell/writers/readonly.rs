//! Commands known not to write the files their words name (P-12): reading, hashing, diffing,
//! grepping and listing a plan or approval.md stays allowed, and prose in their words is data.

use crate::shell::words::Arg;

/// Read (or print) their operands and write no file, whatever their options (`mkdir` makes only
/// directories, which hold nothing until a write the gates see).
const READERS: &[&str] = &[
    "cat",
    "mkdir",
    "tac",
    "less",
    "more",
    "most",
    "head",
    "tail",
    "wc",
    "nl",
    "grep",
    "egrep",
    "fgrep",
    "zgrep",
    "rg",
    "ag",
    "ack",
    "diff",
    "colordiff",
    "cmp",
    "comm",
    "md5sum",
    "md5",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "shasum",
    "b2sum",
    "cksum",
    "sum",
    "stat",
    "file",
    "ls",
    "ll",
    "tree",
    "du",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "echo",
    "printf",
    "test",
    "[",
    "[[",
    "true",
    "false",
    ":",
    "which",
    "type",
    "whereis",
    "man",
    "bat",
    "batcat",
    "glow",
    "zcat",
    "zless",
    "bzcat",
    "xzcat",
    "strings",
    "od",
    "hexdump",
    "base64",
    "column",
    "cut",
    "tr",
    "fold",
    "fmt",
    "paste",
    "join",
    "rev",
    "pwd",
    "printenv",
    "lsof",
    "wait",
    "kill",
    "sleep",
    "exit",
    "return",
    "shift",
    "set",
    "unset",
    "export",
    "declare",
    "typeset",
    "local",
    "readonly",
    "jq",
    "gojq",
    "difft",
    "delta",
    "wdiff",
    "numfmt",
    "expand",
    "unexpand",
    "look",
    "sha256",
    "lsattr",
    "getfacl",
    "namei",
];

/// Formatters and linters: reading unless asked to write.
const FORMATTERS: &[&str] = &[
    "prettier",
    "markdownlint",
    "markdownlint-cli",
    "markdownlint-cli2",
    "eslint",
    "stylelint",
    "biome",
    "textlint",
    "remark",
    "ruff",
    "dprint",
    "mdformat",
];
const WRITE_FLAGS: &[&str] = &["--write", "-w", "--fix", "--apply", "--apply-unsafe", "-o", "--output", "--inplace"];
/// `mdformat` writes unless `--check`; `ruff format`, `dprint fmt`, `biome format --write` write.
const WRITING_SUBCOMMANDS: &[&str] = &["format", "fmt"];

/// openspec's reading subcommands.
const OPENSPEC_READERS: &[&str] =
    &["validate", "show", "list", "status", "view", "diff", "help", "--help", "--version"];

fn has_word(args: &[Arg], words: &[&str]) -> bool {
    args.iter().any(|arg| {
        let option = arg.text.split('=').next().unwrap_or(&arg.text);
        words.contains(&option)
    })
}

/// Is `name` with `args` known not to write a file its words name?
pub fn is_read_only(name: &str, args: &[Arg]) -> bool {
    if READERS.contains(&name) {
        return true;
    }
    let first = args.iter().find(|arg| !arg.text.starts_with('-')).map(|arg| arg.text.as_str());
    match name {
        _ if FORMATTERS.contains(&name) => {
            let writes_by_default = name == "mdformat" && !has_word(args, &["--check"]);
            !writes_by_default
                && !has_word(args, WRITE_FLAGS)
                && !first.is_some_and(|sub| WRITING_SUBCOMMANDS.contains(&sub))
        }
        "yq" => !has_word(args, &["-i", "--inplace"]),
        "awk" | "gawk" | "mawk" | "nawk" => !args.iter().any(|arg| awk_writes(&arg.text)),
        "openspec" => first.is_some_and(|sub| OPENSPEC_READERS.contains(&sub)),
        // gh talks to GitHub; only its clone and downloads write local files.
        "gh" | "glab" => !args.iter().any(|arg| matches!(arg.text.as_str(), "clone" | "download" | "checkout")),
        _ => false,
    }
}

/// An awk program or option that writes files or runs commands.
fn awk_writes(text: &str) -> bool {
    ["inplace", "system", ">\"", "> \"", ">>", "|\"", "| \"", "getline"].iter().any(|needle| text.contains(needle))
}
