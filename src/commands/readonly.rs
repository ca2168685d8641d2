//! Commands known not to write the files their words name (P-12): reading, hashing, diffing,
//! grepping and listing a plan or approval.md stays allowed, and prose in their words is data.

use super::Arg;
use super::options::{Item, options, spec};

/// Read (or print) their operands and write no file and run no command, whatever their options
/// and variables (`mkdir` makes only directories, which hold nothing until a write the gates
/// see). A reader with an option that writes or runs has a row of its own (`sort -o`, `tree -o`,
/// `less` with `LESSOPEN`, `rg --pre`). Sorted: looked up by binary search.
const READERS: &[&str] = &[
    ":",
    "[",
    "[[",
    "b2sum",
    "base64",
    "basename",
    "bzcat",
    "cat",
    "cksum",
    "cmp",
    "colordiff",
    "column",
    "comm",
    "cut",
    "declare",
    "diff",
    "difft",
    "dirname",
    "du",
    "echo",
    "egrep",
    "envsubst",
    "exit",
    "expand",
    "export",
    "false",
    "fgrep",
    "fmt",
    "fold",
    "getfacl",
    "gojq",
    "grep",
    "head",
    "hexdump",
    "join",
    "jq",
    "kill",
    "ll",
    "local",
    "logger",
    "look",
    "ls",
    "lsattr",
    "lsof",
    "md5",
    "md5sum",
    "mkdir",
    "most",
    "namei",
    "nl",
    "numfmt",
    "od",
    "paste",
    "pbcopy",
    "pbpaste",
    "pr",
    "printenv",
    "printf",
    "pwd",
    "readlink",
    "readonly",
    "realpath",
    "return",
    "rev",
    "set",
    "sha1sum",
    "sha224sum",
    "sha256",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "shasum",
    "shift",
    "sleep",
    "stat",
    "strings",
    "sum",
    "tac",
    "tail",
    "test",
    "tr",
    "true",
    "ts",
    "type",
    "typeset",
    "unexpand",
    "unset",
    "wait",
    "wc",
    "wdiff",
    "whereis",
    "which",
    "wl-copy",
    "xclip",
    "xzcat",
    "zcat",
    "zgrep",
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
    "codespell",
];
const WRITE_FLAGS: &[&str] = &[
    "--write",
    "-w",
    "--write-changes",
    "--fix",
    "--apply",
    "--apply-unsafe",
    "-o",
    "--output",
    "--output-file",
    "--inplace",
    "--cache-location",
];
/// `mdformat` writes unless `--check`; `ruff format`, `dprint fmt`, `biome format --write` write.
const WRITING_SUBCOMMANDS: &[&str] = &["format", "fmt"];

/// openspec's reading subcommands.
const OPENSPEC_READERS: &[&str] =
    &["validate", "show", "list", "status", "view", "diff", "help", "--help", "--version"];

/// npm's subcommands that write no file (`config` only to read it, `audit` without `fix`,
/// `version` without a new version). Sorted: looked up by binary search.
const NPM_READERS: &[&str] = &[
    "access",
    "audit",
    "bugs",
    "completion",
    "config",
    "diff",
    "dist-tag",
    "docs",
    "doctor",
    "explain",
    "find",
    "fund",
    "get",
    "help",
    "help-search",
    "home",
    "info",
    "la",
    "list",
    "ll",
    "ls",
    "org",
    "outdated",
    "owner",
    "ping",
    "prefix",
    "profile",
    "query",
    "repo",
    "root",
    "s",
    "sbom",
    "se",
    "search",
    "show",
    "star",
    "stars",
    "team",
    "token",
    "unstar",
    "v",
    "version",
    "view",
    "whoami",
    "why",
];

/// Does `npm` with `args` (after its name) write no file? Every subcommand writes its logs and
/// cache where `--logs-dir` and `--cache` say.
pub fn npm_reads(args: &[Arg]) -> bool {
    let mut words = args.iter().filter(|arg| !arg.text.starts_with('-'));
    let reads = match words.next().map(|sub| sub.text.as_str()) {
        Some("config") => words.next().is_some_and(|action| matches!(action.text.as_str(), "get" | "list" | "ls")),
        Some("audit") => !words.any(|word| word.text == "fix"),
        Some("version") => words.next().is_none(),
        Some(sub) => NPM_READERS.binary_search(&sub).is_ok(),
        None => true,
    };
    let mut places_files = false;
    options(args, &spec("", &["cache", "logs-dir"]), |item| {
        places_files |= matches!(item, Item::Long("cache" | "logs-dir", _));
    });
    reads && !places_files
}

/// The formatters that read their options with argparse, which takes any unambiguous prefix of a
/// long one (`codespell --write`, `mdformat --che`).
const ABBREVIATING: &[&str] = &["mdformat", "codespell"];

/// Whether an option of `words` is among `args`; with `prefixes`, a long one by any prefix.
fn has_word(args: &[Arg], words: &[&str], prefixes: bool) -> bool {
    args.iter().any(|arg| {
        let option = arg.text.split('=').next().unwrap_or(&arg.text);
        let prefix = prefixes && option.len() > 2 && option.starts_with("--");
        words.iter().any(|word| *word == option || prefix && word.starts_with(option))
    })
}

/// Is `name` with `args` known not to write a file its words name?
pub fn is_read_only(name: &str, args: &[Arg]) -> bool {
    if READERS.binary_search(&name).is_ok() {
        return true;
    }
    let first = args.iter().find(|arg| !arg.text.starts_with('-')).map(|arg| arg.text.as_str());
    match name {
        _ if FORMATTERS.contains(&name) => {
            let prefixes = ABBREVIATING.contains(&name);
            let writes_by_default = name == "mdformat" && !has_word(args, &["--check"], prefixes);
            !writes_by_default
                && !has_word(args, WRITE_FLAGS, prefixes)
                && !first.is_some_and(|sub| WRITING_SUBCOMMANDS.contains(&sub))
        }
        "yq" => !has_word(args, &["-i", "--inplace"], false),
        "awk" | "gawk" | "mawk" | "nawk" => !args.iter().any(|arg| awk_writes(&arg.text)),
        _ if COMPRESSORS.contains(&name) => only_standard_output(args),
        "openspec" => first.is_some_and(|sub| OPENSPEC_READERS.contains(&sub)),
        // gh talks to GitHub; only its clone and downloads write local files.
        "gh" | "glab" => !args.iter().any(|arg| matches!(arg.text.as_str(), "clone" | "download" | "checkout")),
        _ => false,
    }
}

/// Compressors: they replace the files they are given, but write only standard output when told
/// to (`-c`, also in a bundle: `-dc`) or when given no file. Only options that take no value and
/// name no file keep them readers: `-S .x`, `-o`, `--rm`, `--files`, lz4's `-l` or `-m` do not.
const COMPRESSORS: &[&str] =
    &["brotli", "bunzip2", "bzip2", "gunzip", "gzip", "lz4", "lzma", "pigz", "unlzma", "unxz", "unzstd", "xz", "zstd"];

/// The short options every compressor above reads the same way and that take no value:
/// decompress, to stdout, keep, force, quiet, verbose, a level.
const PLAIN_SHORT: &str = "cdkfqv123456789";
const PLAIN_LONG: &[&str] = &[
    "--stdout",
    "--to-stdout",
    "--decompress",
    "--uncompress",
    "--keep",
    "--force",
    "--quiet",
    "--verbose",
    "--fast",
    "--best",
];

fn only_standard_output(args: &[Arg]) -> bool {
    let mut to_stdout = false;
    let mut operands = false;
    for arg in args {
        match arg.text.strip_prefix('-') {
            // `-`: standard input.
            Some("") => {}
            Some(long) if long.starts_with('-') => {
                if !PLAIN_LONG.contains(&arg.text.as_str()) {
                    return false;
                }
                to_stdout |= matches!(arg.text.as_str(), "--stdout" | "--to-stdout");
            }
            Some(flags) => {
                if !flags.chars().all(|flag| PLAIN_SHORT.contains(flag)) {
                    return false;
                }
                to_stdout |= flags.contains('c');
            }
            None => operands = true,
        }
    }
    to_stdout || !operands
}

/// An awk program or option that writes files or runs commands.
fn awk_writes(text: &str) -> bool {
    ["inplace", "system", ">\"", "> \"", ">>", "|\"", "| \"", "getline"].iter().any(|needle| text.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readers_are_sorted_for_binary_search() {
        assert!(READERS.windows(2).all(|pair| matches!(pair, [a, b] if a < b)));
        assert!(is_read_only("cat", &[]) && is_read_only("sha256sum", &[]) && is_read_only("[", &[]));
        assert!(!is_read_only("sponge", &[]) && !is_read_only("yq", &[Arg::literal("-i")]));
    }

    #[test]
    fn a_formatter_writes_when_asked_and_argparse_takes_a_prefix() {
        let args = |words: &[&str]| words.iter().map(|word| Arg::literal(word)).collect::<Vec<_>>();
        for (name, words) in [
            ("eslint", &["--output-file", "p.md", "."][..]),
            ("eslint", &["--cache-location", "p/", "."]),
            ("codespell", &["--write-c", "p.md"]),
            ("mdformat", &["p.md"]),
        ] {
            assert!(!is_read_only(name, &args(words)), "{name} {words:?}");
        }
        for (name, words) in
            [("eslint", &["--cache", "."][..]), ("codespell", &["p.md"]), ("mdformat", &["--che", "p.md"])]
        {
            assert!(is_read_only(name, &args(words)), "{name} {words:?}");
        }
    }

    #[test]
    fn a_compressor_reads_when_it_writes_only_standard_output() {
        let args = |words: &[&str]| words.iter().map(|word| Arg::literal(word)).collect::<Vec<_>>();
        for words in [&[][..], &["-c", "p.md"], &["-dc", "p.md.gz"], &["-9c"], &["--stdout", "p.md"], &["-d"], &["-"]] {
            assert!(is_read_only("gzip", &args(words)), "gzip {words:?}");
        }
        for words in [
            &["p.md"][..],
            &["-k", "p.md"],
            &["-d", "p.md.gz"],
            &["-c", "-o", "out", "p.md"],
            &["-co", "p.md", "README.md"],
            &["--rm", "-c", "p"],
            &["-S.tgz", "p.md"],
            &["-l", "README.md", "p.md"],
            &["--files"],
            &["--filelist=list"],
            &["-j", "-c", "p"],
        ] {
            assert!(!is_read_only("zstd", &args(words)), "zstd {words:?}");
        }
    }
}
