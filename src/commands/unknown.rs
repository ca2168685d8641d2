//! Commands the writer table does not know (P-11, P-12, P-18): an unknown command that is not
//! known to be read-only writes every guarded location that reaches it — named by its words, by
//! what it reads on standard input (a heredoc, a here-string, the words of the command piping into
//! it), by the variables its command line sets, or being where it runs — and one whose words carry
//! the CLI's name followed by `approve` writes approval.md, whatever runs it.

use super::Arg;
use super::approval::approval_through_cli;
use super::argv::{has_wildcard, is_separator, path_tokens};
use super::effects::Variable;
use super::options::{Item, operands, options, spec, static_is, value_of};
use super::readonly::is_read_only;
use super::sink::Sink;
use crate::paths::{self, glob_matches};

/// The unknown command `name` with its arguments and standard input.
pub(super) fn analyze(name: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    if is_read_only(name, args) {
        return;
    }
    if name == "alias" || outputs_only(name, args, sink) {
        approval_through_cli(args, stdin, sink);
        return;
    }
    unlisted(name, args, stdin, sink);
}

/// A command no table vouches for, whatever its name (`PATH` or `hash -p` may have made it
/// another program): every guarded location that reaches it.
pub(super) fn unlisted(name: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    approval_through_cli(args, stdin, sink);
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
        if name == "socat" {
            socat_address_parts(&arg.text, &mut candidates);
        }
        for &candidate in &candidates {
            if has_wildcard(candidate) {
                glob_named(candidate, arg, sink);
            } else {
                let named = Arg { glob: arg.glob, pipe: arg.pipe, ..Arg::part_of(candidate, arg) };
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

/// socat's words name files inside addresses (`CREATE:f`, `OPEN:f,append`, `A!!B`, `PTY,link=f`)
/// and its `-lf<file>` log: each part, and each option's value.
fn socat_address_parts<'w>(word: &'w str, found: &mut Vec<&'w str>) {
    for address in word.split("!!") {
        if let Some(log) = address.strip_prefix("-lf") {
            found.push(log);
            continue;
        }
        for part in address.split([':', ',']) {
            found.push(part.split_once('=').map_or(part, |(_, value)| value));
        }
    }
    found.retain(|text| !text.is_empty() && !text.starts_with('-') && !text.contains(':'));
}

/// Commands that read their operands and write only where an option or a fixed operand says:
/// the written paths, or `false` when `name` is not one of them.
fn outputs_only(name: &str, args: &[Arg], sink: &mut Sink) -> bool {
    match name {
        "iconv" => {
            let iconv = spec("oft", &["output", "from-code", "to-code"]);
            options(args, &iconv, |item| {
                if let Item::Short('o', file) | Item::Long("output", Some(file)) = item {
                    sink.write(&file);
                }
            });
            true
        }
        // `uudecode file` writes the name the file's header gives: unknown, judged by its words.
        "uudecode" => {
            let mut given = false;
            options(args, &spec("o", &["output-file"]), |item| {
                if let Item::Short('o', file) | Item::Long("output-file", Some(file)) = item {
                    sink.write(&file);
                    given = true;
                }
            });
            given
        }
        "pandoc" => pandoc(args, sink),
        "tree" => tree(args, sink),
        "file" => file(args, sink),
        "openssl" => openssl(args, sink),
        "xxd" => {
            if let Some(out) = xxd_files(args).get(1).filter(|out| !static_is(Some(out), "-")) {
                sink.write(out);
            }
            true
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

/// `tree -o file` writes it; `-R` runs tree again in every folder below its operands, each
/// writing `00Tree.html` there: `false`.
fn tree(args: &[Arg], sink: &mut Sink) -> bool {
    let long = ["charset", "filelimit", "timefmt", "sort", "gitfile", "hintro", "houtro", "infofile"];
    let mut again = false;
    options(args, &spec("LPIHTo", &long).exact(), |item| match item {
        Item::Short('o', file) => sink.write(&file),
        Item::Flag('R') => again = true,
        _ => {}
    });
    !again
}

/// `file -C` compiles each magic file of `-m a:b` (the system's without one) into `<name>.mgc`
/// where it runs.
fn file(args: &[Arg], sink: &mut Sink) -> bool {
    let long = ["magic-file", "files-from", "separator", "exclude", "exclude-quiet", "parameter"];
    let (mut compiles, mut magic) = (false, Vec::new());
    options(args, &spec("mfFeP", &long).flags(&["compile"]), |item| match item {
        Item::Flag('C') | Item::Long("compile", None) => compiles = true,
        Item::Short('m', files) | Item::Long("magic-file", Some(files)) => magic.push(files),
        _ => {}
    });
    if !compiles {
        return true;
    }
    if magic.is_empty() {
        magic.push(Arg::literal("magic"));
    }
    for files in &magic {
        for source in files.text.split(':') {
            let name = source.trim_end_matches('/').rsplit('/').next().unwrap_or(source);
            sink.write(&value_of(&format!("{name}.mgc"), files));
        }
    }
    true
}

/// pandoc writes `-o`'s file, `--log`'s and the media it extracts; a filter, a PDF engine, a
/// defaults file or a data folder run code (or name outputs) it does not show: `false`.
fn pandoc(args: &[Arg], sink: &mut Sink) -> bool {
    const RUNS: &[&str] = &["filter", "lua-filter", "defaults", "data-dir", "pdf-engine", "pdf-engine-opt"];
    let long = [&["output", "from", "to", "read", "write", "log", "extract-media", "template"][..], RUNS].concat();
    let mut proven = true;
    options(args, &spec("oftrwdFLMVHBAcT", &long), |item| match item {
        Item::Short('o', file) | Item::Long("output" | "log", Some(file)) => sink.write(&file),
        Item::Long("extract-media", Some(dir)) => sink.write_tree(&dir, None, true),
        Item::Short('F' | 'L' | 'd', _) => proven = false,
        Item::Long(name, _) if RUNS.contains(&name) => proven = false,
        _ => {}
    });
    proven
}

/// openssl's options (`-name value`, `-name=value`, `--name` alike, by exact names) that name a
/// file it writes, or a folder it writes in.
const OPENSSL_WRITES: &[&str] = &[
    "out",
    "keyout",
    "writerand",
    "signature",
    "msgfile",
    "keylogfile",
    "sess_out",
    "certsout",
    "outdir",
    "signer",
    "reqout",
    "respout",
    "rspout",
    "certout",
    "chainout",
    "extracertsout",
    "cacertsout",
    "srpvfile",
    "CAserial",
];
/// Its options and variables that load code (an engine, a provider, a configuration that may load
/// either), and the subcommands that write where their configuration or operands say.
const OPENSSL_LOADS: &[&str] = &["engine", "keygen_engine", "provider", "provider-path", "config", "ssl_config"];
const OPENSSL_LOADING_VARIABLES: &[&str] = &["OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES"];
const OPENSSL_UNPROVEN: &[&str] = &["ca", "rehash", "engine"];

/// The files an openssl line writes; `false` when it loads code or has a word the walk could not
/// compute, which may be any option.
fn openssl(args: &[Arg], sink: &mut Sink) -> bool {
    let loads = |name: &str| matches!(sink.job.environment.variable(name), Variable::Set(_));
    if args.iter().any(|arg| arg.dynamic)
        || args.first().is_some_and(|command| OPENSSL_UNPROVEN.contains(&command.text.as_str()))
        || OPENSSL_LOADING_VARIABLES.iter().any(|name| loads(name))
    {
        return false;
    }
    let mut written = Vec::new();
    let (mut ca, mut creates_serial) = (None, false);
    let mut words = args.iter().skip(1);
    while let Some(arg) = words.next() {
        let Some(option) = arg.text.strip_prefix("--").or_else(|| arg.text.strip_prefix('-')) else { continue };
        let (name, attached) = option.split_once('=').map_or((option, None), |(name, value)| (name, Some(value)));
        let mut value = || attached.map(|value| value_of(value, arg)).or_else(|| words.next().cloned());
        match name {
            _ if OPENSSL_LOADS.contains(&name) => return false,
            _ if OPENSSL_WRITES.contains(&name) => written.extend(value()),
            "CA" => ca = value(),
            "CAcreateserial" => creates_serial = true,
            _ => {}
        }
    }
    // `-CAcreateserial` makes the CA file's name with `.srl` for its suffix.
    if let Some(ca) = ca.filter(|_| creates_serial) {
        let stem = ca
            .text
            .rsplit_once('.')
            .filter(|(_, suffix)| !suffix.contains('/'))
            .map_or(ca.text.as_str(), |(stem, _)| stem);
        written.push(value_of(&format!("{stem}.srl"), &ca));
    }
    for file in &written {
        sink.write(file);
    }
    true
}

/// `xxd [options] [infile [outfile]]`, `-r` or not: its operands. Options go by their first letter
/// after one or two dashes (`-c 8`, `-cols 8`, `-c8`, `--len 4`); those that take a value take
/// the next word unless it is attached.
fn xxd_files(args: &[Arg]) -> &[Arg] {
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| !arg.dynamic) {
        let text = arg.text.as_str();
        let option = if text.len() > 2 && text.starts_with("--") { &text[1..] } else { text };
        if option == "--" {
            at += 1;
            break;
        }
        let mut letters = option.chars().skip(1);
        let (Some('-'), Some(letter)) = (option.chars().next(), letters.next()) else { break };
        let rest = option.get(2..).unwrap_or_default();
        let spelled = |long: &[&str]| rest.is_empty() || long.iter().any(|name| rest.starts_with(name));
        let takes_next = match letter {
            'c' => !rest.starts_with("apitalize") && spelled(&["ols"]),
            'g' => spelled(&["roup"]),
            'o' => spelled(&["ffset"]),
            's' => spelled(&["kip", "eek"]),
            'l' => spelled(&["en"]),
            'n' => spelled(&["ame"]),
            'R' => rest.is_empty(),
            _ => false,
        };
        at += 1 + usize::from(takes_next);
    }
    args.get(at..).unwrap_or_default()
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
    sink.write(&Arg { text, dynamic: prefix.dynamic || suffix.dynamic, glob: true, ..Arg::default() });
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(texts: &[&str]) -> Vec<Arg> {
        texts.iter().map(|text| Arg::literal(text)).collect()
    }

    #[test]
    fn xxd_options_take_their_values_as_xxd_reads_them() {
        let files = |texts: &[&str]| xxd_files(&words(texts)).iter().map(|arg| arg.text.clone()).collect::<Vec<_>>();
        assert_eq!(files(&["a", "b"]), ["a", "b"]);
        assert_eq!(files(&["-c", "8", "a", "b"]), ["a", "b"]);
        assert_eq!(files(&["-cols", "8", "-r", "a", "b"]), ["a", "b"]);
        assert_eq!(files(&["--len", "4", "-c8", "-capitalize", "-i", "a"]), ["a"]);
        assert_eq!(files(&["-s", "+2", "-R", "never", "--", "-a", "b"]), ["-a", "b"]);
        assert_eq!(files(&["-", "b"]), ["-", "b"]);
    }

    #[test]
    fn socat_addresses_name_their_files() {
        fn parts(word: &str) -> Vec<&str> {
            let mut found = Vec::new();
            socat_address_parts(word, &mut found);
            found
        }
        assert!(parts("CREATE:plans/p.md").contains(&"plans/p.md"));
        assert!(parts("OPEN:plans/p.md,creat,trunc").contains(&"plans/p.md"));
        assert!(parts("PTY,link=plans/p.md").contains(&"plans/p.md"));
        assert!(parts("-!!GOPEN:plans/p.md").contains(&"plans/p.md"));
        assert_eq!(parts("-lfplans/p.md"), ["plans/p.md"]);
        assert!(!parts("TCP:host:80").iter().any(|part| part.contains('/')));
    }
}
