//! Commands the writer table does not know (P-11, P-12, P-18): an unknown command that is not
//! known to be read-only writes every guarded location that reaches it — named by its words, by
//! what it reads on standard input (a heredoc, a here-string, the words of the command piping into
//! it), by the variables its command line sets, or being where it runs — and one whose words carry
//! the CLI's name followed by `approve` writes approval.md, whatever runs it.

use super::Arg;
use super::approval::approval_through_cli;
use super::argv::{has_wildcard, is_separator, path_tokens};
use super::options::{Item, operands, options, spec};
use super::readonly::is_read_only;
use super::sink::Sink;
use crate::paths::{self, glob_matches};

/// The unknown command `name` with its arguments and standard input.
pub(super) fn analyze(name: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    if is_read_only(name, args) {
        return;
    }
    approval_through_cli(args, stdin, sink);
    if name == "alias" || outputs_only(name, args, sink) {
        return;
    }
    sink.runs_here();
    let mut candidates = Vec::new();
    // What its command line sets, and the words of the command piping into it, reach it as its
    // own words do (`OUT=plans/p.md mytool`, `ls plans/p.md | mytool`), from where it runs.
    let given: Vec<Arg> = set_by_its_line(sink).chain(fed(sink.job.producer)).collect();
    for arg in args.iter().chain(&given) {
        // A process substitution whose output is known is a file holding that text; what it
        // holds reaches the command as its input does (`mytool <(echo plans/p.md)`).
        if arg.pipe && !arg.dynamic {
            read_names(&arg.text, sink);
            continue;
        }
        candidates.clear();
        path_candidates(&arg.text, &mut candidates);
        for &candidate in &candidates {
            if has_wildcard(candidate) {
                glob_named(candidate, arg, sink);
            } else {
                let named = Arg { text: candidate.to_string(), dynamic: arg.dynamic, glob: arg.glob, pipe: arg.pipe };
                sink.write_named(named);
            }
        }
    }
    // What it reads may tell it where to write (`ed plan.md <<< w`): the guarded locations its
    // input names are given to it as much as its words are (P-18).
    if let Some(stdin) = stdin {
        read_names(stdin, sink);
    }
}

/// The paths a text the command reads names, as words given to it.
fn read_names(text: &str, sink: &mut Sink) {
    let mut candidates = Vec::new();
    for word in text.split(char::is_whitespace) {
        candidates.clear();
        path_candidates(word, &mut candidates);
        for &candidate in &candidates {
            sink.write_named(Arg::literal(candidate));
        }
    }
}

/// The words of the command piping into this one (after its name), but what it was piped itself.
fn fed(producer: &[Arg]) -> impl Iterator<Item = Arg> + '_ {
    producer.get(1..).unwrap_or_default().iter().filter(|arg| !arg.pipe).cloned()
}

/// The values the command's line gives its environment (`P=plans/p.md mytool`, `env P=… mytool`).
fn set_by_its_line<'s>(sink: &'s Sink) -> impl Iterator<Item = Arg> + 's {
    sink.job.environment.changes.iter().filter_map(|(_, value)| value.clone())
}

/// A pattern the command expands itself (`prettier --write 'docs/**/*.md'`): the directory
/// before its first glob is named, and a pattern that descends below it (a glob before the last
/// component, or `**`) to names that can match approval.md reaches the tree there.
fn glob_named(pattern: &str, arg: &Arg, sink: &mut Sink) {
    let components: Vec<&str> = pattern.split('/').collect();
    let first_glob = components.iter().position(|component| has_wildcard(component)).unwrap_or(components.len());
    let prefix = components.get(..first_glob).unwrap_or_default().join("/");
    let prefix = match prefix.as_str() {
        "" if pattern.starts_with('/') => "/".to_string(),
        "" => ".".to_string(),
        _ => prefix,
    };
    let last = components.last().copied().unwrap_or_default();
    let descends = first_glob + 1 < components.len() || last == "**";
    let dir = Arg { text: prefix, glob: false, ..arg.clone() };
    sink.write_named(dir.clone());
    if descends && glob_matches(last, paths::APPROVAL_FILE) {
        sink.write_tree(&dir, None, true);
    }
}

/// The words of one argument that could be a path it writes: the word, an option's value
/// (`--out=x`, `-ox`), and, in a word that holds a script (`vim -c 'w x'`), each token.
fn path_candidates<'w>(word: &'w str, found: &mut Vec<&'w str>) {
    fn worth(text: &str) -> bool {
        !text.is_empty() && !text.starts_with('-') && !text.contains(':')
    }
    // A word with spaces holds a script or a message: its tokens, not the whole.
    if !word.contains(char::is_whitespace) {
        found.push(word);
    }
    if let Some((_, value)) = word.split_once('=') {
        found.push(value);
    }
    if let Some(value) = word.strip_prefix('-').filter(|rest| !rest.starts_with('-')).and_then(|rest| rest.get(1..)) {
        found.push(value);
    }
    if word.contains(is_separator) {
        found.extend(path_tokens(word));
    }
    found.retain(|text| worth(text));
}

/// Commands that read their operands and write only where an option or a fixed operand says:
/// the written paths, or `false` when `name` is not one of them.
fn outputs_only(name: &str, args: &[Arg], sink: &mut Sink) -> bool {
    match name {
        "iconv" | "pandoc" | "uudecode" => {
            let mut given = false;
            options(args, &spec("oftw", &["output", "from", "to"]), |item| {
                if let Item::Short('o', file) | Item::Long("output", Some(file)) = item {
                    sink.write(&file);
                    given = true;
                }
            });
            // `uudecode file` writes the name the file's header gives: unknown, judged by its words.
            given || name != "uudecode"
        }
        "openssl" => {
            let mut words = args.iter();
            while let Some(arg) = words.next() {
                if matches!(arg.text.as_str(), "-out" | "-keyout" | "-signature") {
                    if let Some(file) = words.next() {
                        sink.write(file);
                    }
                } else if let Some(file) = arg.text.strip_prefix("-out=") {
                    sink.write(&Arg { text: file.to_string(), ..arg.clone() });
                }
            }
            true
        }
        "xxd" => {
            let mut revert = false;
            let mut files = Vec::new();
            options(args, &spec("cglosn", &["cols", "len", "seek", "name"]), |item| match item {
                Item::Flag('r') | Item::Long("revert", None) => revert = true,
                Item::Operand(arg) => files.push(arg),
                _ => {}
            });
            if revert && let Some(out) = files.get(1) {
                sink.write(out);
            }
            !revert || files.len() > 1
        }
        "split" | "gsplit" => split(args, sink),
        "ctags" | "uctags" | "exuberant-ctags" => ctags(args, sink),
        "uniq" => {
            let files: Vec<&Arg> = operands(args, &spec("fsw", &["skip-fields", "skip-chars", "check-chars"]));
            if let Some(out) = files.get(1) {
                sink.write(out);
            }
            true
        }
        _ => false,
    }
}

/// `split [opts] [file [prefix]]`: the pieces `prefix` + a suffix of letters or digits (`x` by
/// default) + `--additional-suffix`, as a glob; `--filter` runs a command instead, judged as an
/// unknown command's.
fn split(args: &[Arg], sink: &mut Sink) -> bool {
    let long = ["suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "filter"];
    let mut suffix = Arg::literal("");
    let mut filter = false;
    let mut files = Vec::new();
    options(args, &spec("abClntp", &long), |item| match item {
        Item::Long("additional-suffix", Some(value)) => suffix = value,
        Item::Long("filter", _) => filter = true,
        Item::Operand(arg) => files.push(arg),
        _ => {}
    });
    let prefix = files.get(1).map_or_else(|| Arg::literal("x"), |prefix| (*prefix).clone());
    if filter || files.len() > 2 || has_wildcard(&prefix.text) || has_wildcard(&suffix.text) {
        return false;
    }
    let text = format!("{}*{}", prefix.text, suffix.text);
    sink.write(&Arg { text, dynamic: prefix.dynamic || suffix.dynamic, glob: true, pipe: false });
    true
}

/// `ctags [opts] files…`: its tag file (`-f`/`-o`, `-` for standard output; `tags`, or `TAGS` in
/// etags mode, where it runs), none with `-x`. An options file it is told to read may name
/// another: judged as an unknown command.
fn ctags(args: &[Arg], sink: &mut Sink) -> bool {
    let mut file = None;
    let mut etags = false;
    let mut cross_reference = false;
    let mut options_file = false;
    options(args, &spec("fohIL", &[]), |item| match item {
        Item::Short('f' | 'o', value) => file = Some(value),
        Item::Flag('e') => etags = true,
        Item::Flag('x') => cross_reference = true,
        Item::Long("output-format", Some(format)) => etags |= format.text == "etags",
        Item::Long(name, value) if name.starts_with("options") => {
            options_file |= value.is_none_or(|value| value.dynamic || value.text != "NONE");
        }
        _ => {}
    });
    if options_file {
        return false;
    }
    match file {
        Some(file) if file.text == "-" && !file.dynamic => {}
        Some(file) => sink.write(&file),
        None if cross_reference => {}
        None => sink.write_text(if etags { "TAGS" } else { "tags" }),
    }
    true
}
