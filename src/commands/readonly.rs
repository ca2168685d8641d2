//! Commands known not to write the files their words name (P-12): reading, hashing, diffing,
//! grepping and listing a plan or approval.md stays allowed, and prose in their words is data.

use super::Arg;

/// Read (or print) their operands and write no file, whatever their options (`mkdir` makes only
/// directories, which hold nothing until a write the gates see). Sorted: looked up by binary search.
const READERS: &[&str] = &[
    ":",
    "[",
    "[[",
    "ack",
    "ag",
    "b2sum",
    "base64",
    "basename",
    "bat",
    "batcat",
    "bzcat",
    "cat",
    "cksum",
    "cmp",
    "colordiff",
    "column",
    "comm",
    "cut",
    "declare",
    "delta",
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
    "file",
    "fmt",
    "fold",
    "getfacl",
    "glow",
    "gojq",
    "grep",
    "head",
    "hexdump",
    "join",
    "jq",
    "kill",
    "less",
    "ll",
    "local",
    "logger",
    "look",
    "ls",
    "lsattr",
    "lsof",
    "man",
    "md5",
    "md5sum",
    "mdcat",
    "more",
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
    "rg",
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
    "tree",
    "true",
    "ts",
    "type",
    "typeset",
    "unexpand",
    "unset",
    "vale",
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
    "zless",
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
const WRITE_FLAGS: &[&str] =
    &["--write", "-w", "--write-changes", "--fix", "--apply", "--apply-unsafe", "-o", "--output", "--inplace"];
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
    if READERS.binary_search(&name).is_ok() {
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
