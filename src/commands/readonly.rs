//! Commands known not to write the files their words name (P-12): reading, hashing, diffing,
//! grepping and listing a plan or approval.md stays allowed, and prose in their words is data.

use super::Arg;
use super::options::{Item, options, spec};

/// Read (or print) their operands and write no file and run no command, whatever their options
/// and variables. A reader with an option that writes or runs is in [`UNLESS`] or has a row of
/// its own (`sort -o`, `tree -o`, `less` with `LESSOPEN`, `rg --pre`). Sorted: looked up by
/// binary search.
const READERS: &[&str] = &[
    ":",
    "[",
    "[[",
    "b2sum",
    "b3sum",
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
    "date",
    "declare",
    "diff",
    "difft",
    "dirname",
    "du",
    "echo",
    "egrep",
    "envsubst",
    "exa",
    "exit",
    "expand",
    "export",
    "eza",
    "false",
    "fgrep",
    "fmt",
    "fold",
    "getfacl",
    "gojq",
    "grep",
    "head",
    "hexdump",
    "hostname",
    "icdiff",
    "id",
    "jless",
    "join",
    "jq",
    "kill",
    "ll",
    "local",
    "logger",
    "look",
    "ls",
    "lsattr",
    "lsd",
    "lsof",
    "md5",
    "md5sum",
    "most",
    "namei",
    "nl",
    "notify-send",
    "nproc",
    "numfmt",
    "od",
    "paste",
    "pbcopy",
    "pbpaste",
    "plocate",
    "pr",
    "printenv",
    "printf",
    "proselint",
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
    "sha3sum",
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
    "tokei",
    "tr",
    "true",
    "ts",
    "type",
    "typeset",
    "uname",
    "unexpand",
    "unset",
    "uuidgen",
    "wait",
    "wc",
    "wdiff",
    "whereis",
    "which",
    "whoami",
    "wl-copy",
    "write-good",
    "xclip",
    "xxh128sum",
    "xxh32sum",
    "xxh3sum",
    "xxh64sum",
    "xxhsum",
    "xzcat",
    "yamllint",
    "zcat",
    "zgrep",
];

/// Readers that write, or run a command, only when given one of these options or subcommands.
/// An option is `--long` (also abbreviated, as GNU's getopt and Perl's Getopt::Long take it, and
/// with `=value`), `-x` (also in a bundle: `-rx`) or a long option spelled with one dash
/// (`-execute`); a word without a dash is a subcommand. A word whose value the walk could not
/// compute may be any of them.
struct Unless {
    names: &'static [&'static str],
    writes: &'static [&'static str],
}

const UNLESS: &[Unless] = &[
    Unless { names: &["shuf"], writes: &["-o", "--output"] },
    Unless { names: &["sdiff"], writes: &["-o", "--output", "--diff-program"] },
    Unless { names: &["diff3"], writes: &["--diff-program"] },
    // `-x`/`-X` run a command for each file found.
    Unless { names: &["fd", "fdfind"], writes: &["-x", "-X", "--exec", "--exec-batch"] },
    // `--filter`, `--pager` and `--view` run commands, `-Q` is a TUI that opens an editor,
    // `--save-config` writes `.ugrep`, and a configuration file may ask for any of them.
    Unless {
        names: &["ugrep", "ug", "ugrep+", "ug+"],
        writes: &["--save-config", "--filter", "--pager", "--view", "-Q", "--query", "--config"],
    },
    // slocate's `-u`/`-U` build the database, `-o` names it.
    Unless { names: &["locate"], writes: &["-u", "-U", "-o", "--output"] },
    Unless {
        names: &["rhash"],
        writes: &["-u", "--update", "-e", "--embed-crc", "-o", "--output", "-l", "--log", "--torrent", "--bt-batch"],
    },
    // `--cache` writes `.cspellcache` where it runs, a reporter is a module it loads, `init`
    // and `link` write settings.
    Unless {
        names: &["cspell", "cspell-cli"],
        writes: &["--cache", "--cache-location", "--reporter", "-c", "--config", "init", "link"],
    },
    Unless { names: &["typos"], writes: &["-w", "--write-changes", "--dump-config"] },
    // A style (`-s`) and rulesets (`-u`) are Ruby it loads.
    Unless { names: &["mdl"], writes: &["-s", "--style", "-u", "--rules", "--rulesets", "-c", "--config"] },
    Unless { names: &["rumdl"], writes: &["--fix", "-f", "fmt", "format", "init", "import", "clean", "server"] },
    Unless { names: &["markdown-link-check"], writes: &["--reporters"] },
    // `--cache` writes `.lycheecache` where it runs; a configuration file may set `output`.
    Unless { names: &["lychee"], writes: &["-o", "--output", "--cache", "-c", "--config"] },
    Unless { names: &["alex"], writes: &["--reporter", "-o", "--output"] },
    Unless { names: &["dasel"], writes: &["put", "delete", "-o", "--out", "--output"] },
    // `-execute` runs a command when the notice is clicked; `-open` opens a URL.
    Unless { names: &["terminal-notifier"], writes: &["-execute", "-open"] },
    // The clipboard; `--logfile` is written.
    Unless { names: &["xsel"], writes: &["-l", "--logfile"] },
];

/// Whether one of `writes` is among `args`, or may be.
fn unless_given(args: &[Arg], writes: &[&str]) -> bool {
    args.iter().any(|arg| {
        if arg.dynamic && !arg.pipe {
            return true;
        }
        let word = arg.text.as_str();
        let option = word.split('=').next().unwrap_or(word);
        writes.iter().any(|listed| match (listed.strip_prefix("--"), listed.strip_prefix('-')) {
            // `--out` abbreviates `--output`; `---FILE` is an option no row knows.
            (Some(_), _) => option.len() > 2 && (listed.starts_with(option) || option.starts_with("---")),
            (None, Some(letter)) if letter.len() == 1 => {
                word.strip_prefix('-').is_some_and(|cluster| !cluster.starts_with('-') && cluster.contains(letter))
            }
            (None, Some(_)) => option.starts_with(listed),
            (None, None) => word == *listed,
        })
    })
}

/// `gpg --print-md ALGO FILE…` prints digests; every other option is judged unknown (gpg writes
/// keyrings, `--output`, decrypted files).
const GPG_DIGEST: &[&str] = &["--print-md", "--print-mds", "-q", "--quiet", "--batch", "--no-tty", "-v", "--verbose"];

/// cloc counts lines: only these options, read as written (Getopt::Long takes abbreviations
/// and one dash, and cloc's others write reports, stripped copies, scratch trees, or run a
/// VCS or extraction command).
const CLOC_READING: &[&str] = &[
    "--by-file",
    "--by-file-by-lang",
    "--quiet",
    "--json",
    "--yaml",
    "--csv",
    "--md",
    "--xml",
    "--hide-rate",
    "--exclude-dir",
    "--exclude-ext",
    "--exclude-lang",
    "--include-ext",
    "--include-lang",
    "--not-match-f",
    "--not-match-d",
    "--match-f",
    "--match-d",
    "--fullpath",
    "--skip-uniqueness",
    "--no-autogen",
    "--diff",
    "--timeout",
];

/// Whether every option among `args` is one of `allowed` (`--x=value` as `--x`); a word the walk
/// could not compute may be any option.
fn only_options(args: &[Arg], allowed: &[&str]) -> bool {
    args.iter().all(|arg| {
        let option = arg.text.split('=').next().unwrap_or(&arg.text);
        (!arg.dynamic || arg.pipe) && (!arg.text.starts_with('-') || arg.text == "-" || allowed.contains(&option))
    })
}

/// An editor's options that open, compare or wait, and never run anything.
const OPENER_OPTIONS: &[&str] =
    &["-r", "--reuse-window", "-n", "--new-window", "-d", "--diff", "-g", "--goto", "-w", "--wait"];

/// Documents the desktop opens for the owner to read (in an editor, a viewer or a browser),
/// never a program, a folder (whose tasks may run) or standard input.
const DOCUMENTS: &[&str] =
    &["md", "markdown", "txt", "json", "yaml", "yml", "toml", "csv", "pdf", "png", "jpg", "jpeg"];

/// An opener (`code`, `xdg-open`) given only documents and `allowed` options: it shows them to
/// the owner, whose edits are theirs; the agent does not drive the editor.
fn opens_documents(args: &[Arg], allowed: &[&str]) -> bool {
    let mut operands = args.iter().filter(|arg| !arg.text.starts_with('-')).peekable();
    operands.peek().is_some()
        && only_options(args, allowed)
        && operands.all(|arg| {
            // `code -g p.md:12:3`.
            let path = arg.text.split(':').next().unwrap_or_default();
            let name = path.rsplit('/').next().unwrap_or_default();
            !arg.pipe && name.rsplit_once('.').is_some_and(|(stem, ext)| !stem.is_empty() && DOCUMENTS.contains(&ext))
        })
}

/// A cloud storage client's copy: its words before the subcommand, the subcommand, and the
/// options it reads as written (flags, and options that take the next word).
struct CloudCopy {
    command: &'static [&'static str],
    flags: &'static [&'static str],
    values: &'static [&'static str],
    /// The scheme of a remote destination.
    remote: &'static str,
    /// It copies several sources at once (else one).
    many_sources: bool,
}

/// `aws [global options] s3 cp SOURCE s3://…`.
const AWS: CloudCopy = CloudCopy {
    command: &["s3", "cp"],
    flags: &[
        "--debug",
        "--no-verify-ssl",
        "--no-paginate",
        "--no-sign-request",
        "--no-cli-pager",
        "--recursive",
        "--dryrun",
        "--quiet",
        "--follow-symlinks",
        "--no-follow-symlinks",
        "--no-guess-mime-type",
        "--only-show-errors",
        "--no-progress",
        "--ignore-glacier-warnings",
        "--force-glacier-transfer",
    ],
    values: &[
        "--profile",
        "--region",
        "--endpoint-url",
        "--output",
        "--color",
        "--cli-read-timeout",
        "--cli-connect-timeout",
        "--acl",
        "--sse",
        "--sse-kms-key-id",
        "--storage-class",
        "--content-type",
        "--cache-control",
        "--content-disposition",
        "--content-encoding",
        "--content-language",
        "--expires",
        "--metadata",
        "--metadata-directive",
        "--exclude",
        "--include",
        "--source-region",
        "--expected-size",
        "--checksum-algorithm",
        "--page-size",
    ],
    remote: "s3://",
    many_sources: false,
};

/// `gsutil [-m] [-q] cp [-r] SOURCE… gs://…` (`-o` sets boto options, `-L` writes a log).
const GSUTIL: CloudCopy = CloudCopy {
    command: &["cp"],
    flags: &["-m", "-q", "-r", "-R", "-n", "-p", "-e", "-c", "-J", "-Z", "-U", "-v", "-A", "-P"],
    values: &["-h", "-u", "-a", "-s", "-z", "-j"],
    remote: "gs://",
    many_sources: true,
};

/// Whether the line is that client's copy to a remote destination: the sources are read and
/// nothing local is written. A local destination writes there; any other option or form is
/// judged as an unknown command.
fn copies_to_the_cloud(args: &[Arg], copy: &CloudCopy) -> bool {
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        let option = text.split('=').next().unwrap_or(text);
        if arg.dynamic && !arg.pipe {
            return false;
        } else if !text.starts_with('-') || text == "-" {
            operands.push(text);
        } else if copy.values.contains(&option) {
            if !text.contains('=') && words.next().is_none() {
                return false;
            }
        } else if !copy.flags.contains(&text) {
            return false;
        }
    }
    let Some(rest) = operands.strip_prefix(copy.command) else { return false };
    (rest.len() == 2 || copy.many_sources && rest.len() > 2)
        && rest.last().is_some_and(|to| to.starts_with(copy.remote))
}

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
    if let Some(row) = UNLESS.iter().find(|row| row.names.contains(&name)) {
        return !unless_given(args, row.writes);
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
        // `-dump` prints the page; `-o` and `-config` set options (files it writes, commands).
        "w3m" => {
            has_word(args, &["-dump", "-dump_source", "-dump_head"], false)
                && !args.iter().any(|arg| arg.dynamic || arg.text.starts_with("-o") || arg.text.starts_with("-config"))
        }
        // `list` prints the misspelled words of its input; `check`, `-a` (pipe mode: `*word` and
        // `#` save the personal dictionary), `create` and `merge` write.
        "aspell" => {
            has_word(args, &["list"], false) && !unless_given(args, &["check", "-c", "pipe", "-a", "create", "merge"])
        }
        "gpg" | "gpg2" => only_options(args, GPG_DIGEST) && has_word(args, &["--print-md", "--print-mds"], false),
        "cloc" => only_options(args, CLOC_READING),
        "code" | "codium" | "cursor" => opens_documents(args, OPENER_OPTIONS),
        "subl" => opens_documents(args, &["-n", "--new-window", "-a", "--add", "-w", "--wait", "-b", "--background"]),
        "xdg-open" => opens_documents(args, &[]),
        "aws" => copies_to_the_cloud(args, &AWS),
        "gsutil" => copies_to_the_cloud(args, &GSUTIL),
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

    fn words(text: &str) -> Vec<Arg> {
        text.split_whitespace().map(Arg::literal).collect()
    }

    #[test]
    fn a_reader_unless_writes_when_given_its_option_in_any_spelling() {
        for line in ["-n1 p.md", "-n 2 -e a b", "--head-count=1 p.md", "-", "-rn1 p.md"] {
            assert!(is_read_only("shuf", &words(line)), "shuf {line}");
        }
        for line in ["-o out p.md", "-no out p.md", "--output=out p.md", "--out out p.md", "--o=x p.md", "---x p.md"] {
            assert!(!is_read_only("shuf", &words(line)), "shuf {line}");
        }
        let computed = Arg { text: "$flag".to_string(), dynamic: true, ..Arg::default() };
        assert!(!is_read_only("shuf", &[computed.clone(), Arg::literal("p.md")]));
        assert!(is_read_only("b3sum", &[computed, Arg::literal("p.md")]));
        assert!(is_read_only("fd", &words("-e md . docs")) && !is_read_only("fd", &words("-Hx rm")));
        assert!(!is_read_only("fd", &words("--exec-batch rm")) && !is_read_only("fd", &words("--exec=rm")));
        assert!(is_read_only("rumdl", &words("check docs")) && !is_read_only("rumdl", &words("fmt docs")));
        assert!(is_read_only("cspell", &words("lint docs/p.md")) && !is_read_only("cspell", &words("init")));
        assert!(is_read_only("terminal-notifier", &words("-message hi -title t")));
        assert!(!is_read_only("terminal-notifier", &words("-message hi -execute ls")));
        assert!(is_read_only("dasel", &words("-f a.yml -r yaml .x")) && !is_read_only("dasel", &words("put -f a.yml")));
    }

    #[test]
    fn digests_counts_spelling_and_dumps_read_only_in_their_reading_forms() {
        assert!(is_read_only("gpg", &words("--print-md SHA256 p.md")));
        assert!(
            !is_read_only("gpg", &words("--print-md SHA256 -o out p.md")) && !is_read_only("gpg", &words("-d p.gpg"))
        );
        assert!(is_read_only("cloc", &words("--json --exclude-dir=node_modules docs")));
        assert!(!is_read_only("cloc", &words("--out=report docs")) && !is_read_only("cloc", &words("-out=r docs")));
        assert!(!is_read_only("cloc", &words("--vcs=git")) && !is_read_only("cloc", &words("--strip-comments=x d")));
        assert!(is_read_only("aspell", &words("--lang=en list")) && !is_read_only("aspell", &words("check p.md")));
        assert!(
            !is_read_only("aspell", &words("-a list")) && !is_read_only("aspell", &words("--personal=list -c p.md"))
        );
        assert!(is_read_only("w3m", &words("-dump p.md")) && !is_read_only("w3m", &words("p.md")));
        assert!(!is_read_only("w3m", &words("-dump -o editor=vi p.md")));
    }

    #[test]
    fn an_opener_given_documents_reads_and_one_given_a_folder_or_a_program_does_not() {
        assert!(is_read_only("code", &words("docs/superpowers/plans/p.md")));
        assert!(is_read_only("code", &words("-g docs/p.md:12:3")) && is_read_only("code", &words("--diff a.md b.md")));
        assert!(is_read_only("xdg-open", &words("p.md")) && is_read_only("subl", &words("-n notes.txt")));
        for line in ["docs/superpowers/plans", ".", "-", "run.sh", ".md", "--install-extension x.vsix p.md"] {
            assert!(!is_read_only("code", &words(line)), "code {line}");
        }
        assert!(!is_read_only("code", &[]) && !is_read_only("subl", &words("--command x p.md")));
        assert!(!is_read_only("open", &words("p.md")));
    }

    #[test]
    fn a_cloud_copy_reads_only_toward_the_remote() {
        assert!(is_read_only("aws", &words("s3 cp p.md s3://b/plans/")));
        assert!(is_read_only("aws", &words("--profile x s3 cp --recursive plans s3://b/ --acl private")));
        assert!(
            !is_read_only("aws", &words("s3 cp s3://b/p.md p.md"))
                && !is_read_only("aws", &words("s3 mv p.md s3://b/"))
        );
        assert!(
            !is_read_only("aws", &words("s3 cp --grants x p.md s3://b/"))
                && !is_read_only("aws", &words("s3 cp a b s3://c"))
        );
        assert!(is_read_only("gsutil", &words("-m cp a.md b.md gs://b/")));
        assert!(
            !is_read_only("gsutil", &words("cp gs://b/p.md p.md"))
                && !is_read_only("gsutil", &words("-o x cp a gs://b"))
        );
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
