//! Commands that run another command on what they are fed: `xargs` and `parallel` on their
//! input ([`super::find`] runs one on what it finds).

use super::argv::ansi_c;
use super::effects::Variable;
use super::options::{Item, options, prefix_spec, value_of};
use super::runners::is_stdin_path;
use super::sink::{Next, Sink};
use super::{Arg, quote};
use crate::paths;

/// How `xargs` splits what it reads into arguments: blanks and newlines with quotes and
/// backslashes, or lines (`-I`), or a delimiter (`-0`, `-d`).
fn input_items(text: &str, lines: bool, delimiter: Option<char>) -> Vec<Arg> {
    if let Some(delimiter) = delimiter {
        return text.split(delimiter).filter(|item| !item.is_empty()).map(Arg::literal).collect();
    }
    if lines {
        return text.lines().map(str::trim).filter(|line| !line.is_empty()).map(Arg::literal).collect();
    }
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => current.extend(chars.next()),
            (None, c) if c.is_whitespace() => {
                if !current.is_empty() {
                    items.push(Arg::literal(&std::mem::take(&mut current)));
                }
            }
            (None, c) => current.push(c),
        }
    }
    if !current.is_empty() {
        items.push(Arg::literal(&current));
    }
    items
}

/// Commands one `xargs -I` or `parallel` may run one by one before the rest are given at once.
const MAX_INPUT_JOBS: usize = 32;

/// `xargs [opts] cmd…`: the command with what it reads appended, or put in place of the `-I`
/// string once per line. Input the line does not show leaves the arguments open, save the
/// guarded locations an unknown producer names (`ls plans/*.md | xargs sed -i …`).
pub(super) fn xargs(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let long = ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"];
    // `--eof`, `--max-lines` and `--replace` take a value only after `=`.
    let flags = ["replace", "null", "eof", "max-lines"];
    let (mut replace, mut delimiter, mut arg_file) = (None, None, None);
    let start = options(args, &prefix_spec("adEILnPs", &long).flags(&flags), |item| match item {
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = Some(text.text),
        Item::Flag('i') | Item::Long("replace", None) => replace = Some("{}".to_string()),
        Item::Flag('0') | Item::Long("null", None) => delimiter = Some('\0'),
        Item::Short('d', text) | Item::Long("delimiter", Some(text)) => {
            delimiter = words_char(&text.text);
        }
        Item::Short('a', file) | Item::Long("arg-file", Some(file)) => arg_file = Some(file),
        _ => {}
    });
    let mut command = args.get(start..).unwrap_or_default().to_vec();
    if command.is_empty() {
        command.push(Arg::literal("echo"));
    }
    // With `-a FILE` the command keeps the line's standard input.
    let reads_input = arg_file.is_some();
    let input = match &arg_file {
        Some(file) => input_file(file, stdin, sink),
        None => {
            stdin.map_or_else(|| Input::Unknown(fed_words(sink.job.producer)), |text| Input::Text(text.to_string()))
        }
    };
    let (items, open) = match input {
        Input::Text(text) => (input_items(&text, replace.is_some(), delimiter), false),
        Input::Unknown(words) => (words, true),
    };
    let mut nexts = fill(command, items, replace.as_deref(), open);
    for next in &mut nexts {
        next.reads_input = reads_input;
    }
    Some(nexts)
}

/// What `xargs`/`parallel` read their inputs from.
enum Input {
    /// The text the line shows.
    Text(String),
    /// Unknown text: the guarded locations these words name stand for it.
    Unknown(Vec<Arg>),
}

/// The input file of `xargs -a FILE`, `parallel -a FILE` or `:::: FILE`: a process substitution
/// whose output the walk knows, standard input (`-`, `/dev/stdin`), a file the line wrote with
/// text it shows, else a file whose text is unknown, as `cmd < FILE` reads it.
fn input_file(file: &Arg, stdin: Option<&str>, sink: &Sink) -> Input {
    match shown_file(file, stdin, sink) {
        Some(text) => Input::Text(text.to_string()),
        // An unknown substitution's or standard input's text: the words of the commands that
        // print it, which the walk gives as the producer.
        None if file.pipe || is_stdin(file) => Input::Unknown(fed_words(sink.job.producer)),
        None => Input::Unknown(fed_words(&[Arg::literal("<"), file.clone()])),
    }
}

/// The text of a file the line shows: a process substitution whose output is known
/// (`<(echo …)`), standard input (`-`, `/dev/stdin`) when it is a heredoc or here-string, or a
/// file the line wrote with text it shows (`echo … > f`).
pub(super) fn shown_file<'a>(file: &'a Arg, stdin: Option<&'a str>, sink: &'a Sink) -> Option<&'a str> {
    match file {
        _ if file.pipe && !file.dynamic => Some(&file.text),
        _ if is_stdin(file) => stdin,
        _ => sink.job.written.text(&sink.job.dir, file),
    }
}

/// Standard input, by `-` or a name it goes by as a file.
pub(super) fn is_stdin(file: &Arg) -> bool {
    is_stdin_path(file) || (!file.dynamic && file.text == "-")
}

/// The words of an unknown producer that name a guarded location: what it may feed.
pub fn fed_words(producer: &[Arg]) -> Vec<Arg> {
    let words = producer.get(1..).unwrap_or_default().iter();
    words.filter(|arg| !arg.pipe && paths::names_guarded(&arg.text, paths::Dialect::Bash)).cloned().collect()
}

/// `-d '\n'` and the like: the one character a delimiter word stands for.
fn words_char(text: &str) -> Option<char> {
    let decoded = ansi_c(text);
    let mut chars = decoded.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The commands `xargs`/`parallel` run: `replace` put in place by each item, else the items
/// appended.
fn fill(command: Vec<Arg>, items: Vec<Arg>, replace: Option<&str>, open: bool) -> Vec<Next> {
    let next = |args| Next { reads_input: false, open, ..Next::with(args) };
    if let Some(replace) = replace.filter(|r| !r.is_empty())
        && !items.is_empty()
        && items.len() <= MAX_INPUT_JOBS
    {
        return items
            .iter()
            .map(|item| {
                let words = command
                    .iter()
                    .map(|word| match word.text.contains(replace) {
                        true => Arg {
                            text: word.text.replace(replace, &item.text),
                            dynamic: word.dynamic || item.dynamic,
                            glob: word.glob || item.glob,
                            pipe: false,
                            holes: word.holes.joined(word.dynamic, item.holes, item.dynamic),
                        },
                        false => word.clone(),
                    })
                    .collect();
                next(words)
            })
            .collect();
    }
    // Input the line does not show: what stands for it is unknown.
    let mut words: Vec<Arg> = match replace.filter(|r| !r.is_empty() && open) {
        Some(replace) => command
            .into_iter()
            .map(|word| Arg { dynamic: word.dynamic || word.text.contains(replace), ..word })
            .collect(),
        None => command,
    };
    words.extend(items);
    vec![next(words)]
}

/// GNU `parallel [opts] cmd… ::: args`: each input, shell-quoted, in place of `{}` (or
/// appended), and the line run by a shell (in `--wd DIR`); without `:::` the inputs are standard
/// input's lines, or the lines of `-a FILE` and `:::: FILE`. `--joblog FILE`, `--results DIR` and
/// `--files` (in `--tmpdir DIR`) write files.
pub(super) fn parallel(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    // Getopt::Long: every alias is a name of its own (one letter too), and any unambiguous
    // prefix of one; an exact name wins (`--tag` is not `--tagstring`).
    let long = [
        "jobs",
        "j",
        "arg-file",
        "argfile",
        "a",
        "d",
        "s",
        "e",
        "sql",
        "ssh",
        "colsep",
        "delimiter",
        "replace",
        "max-args",
        "max-lines",
        "results",
        "result",
        "res",
        "joblog",
        "jl",
        "tmpdir",
        "tempdir",
        "template",
        "tmpl",
        "sql-master",
        "sqlmaster",
        "sql-worker",
        "sqlworker",
        "sql-and-worker",
        "sqlandworker",
        "sshlogin",
        "workdir",
        "work-dir",
        "wd",
        "env",
        "timeout",
        "delay",
        "halt",
        "tagstring",
        "basefile",
        "return",
    ];
    let flags = ["tag", "r", "m", "t", "h", "o", "files", "output-as-files", "outputasfiles"];
    let mut replace = "{}".to_string();
    let mut arg_files = Vec::new();
    let (mut workdir, mut tmpdir, mut output_files) = (None, None, false);
    // `$PARALLEL` holds options read before the line's own.
    let mut line = sink.job.environment.option_words(&["PARALLEL"]);
    line.extend_from_slice(args);
    let start = options(&line, &prefix_spec("aCdEIjLnNPSs", &long).flags(&flags), |item| match item {
        // The results folder and the job log, the files a template makes (`--tmpl in=out{}`), an
        // SQL table's file (`sqlite3:///dir/db/table`).
        Item::Long("results" | "result" | "res" | "joblog" | "jl", Some(file)) => {
            sink.write(&file);
            sink.write_tree(&file, None, false);
        }
        Item::Long("template" | "tmpl", Some(pair)) => {
            let made = pair.text.split_once('=').map_or(pair.text.as_str(), |(_, made)| made);
            sink.write(&value_of(made, &pair));
        }
        Item::Long(
            "sql" | "sql-master" | "sqlmaster" | "sql-worker" | "sqlworker" | "sql-and-worker" | "sqlandworker",
            Some(url),
        ) => {
            let path = url.text.split_once("://").map_or(url.text.as_str(), |(_, path)| path);
            sink.write_named(value_of(path.trim_start_matches('/').replace("%2F", "/").as_str(), &url));
        }
        Item::Long("workdir" | "work-dir" | "wd", Some(dir)) => workdir = Some(dir),
        // The folder of its temporary files.
        Item::Long("tmpdir" | "tempdir", Some(dir)) => {
            sink.write(&dir);
            sink.write_tree(&dir, None, false);
            tmpdir = Some(dir);
        }
        Item::Long("files" | "output-as-files" | "outputasfiles", None) => output_files = true,
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = text.text,
        Item::Short('a', file) | Item::Long("arg-file" | "argfile" | "a", Some(file)) => arg_files.push(file),
        _ => {}
    });
    // `--files`: each job's output kept in a file in `--tmpdir`, else `$TMPDIR`.
    let tmpdir = tmpdir.or_else(|| match sink.job.environment.variable("TMPDIR") {
        Variable::Set(dir) => Some(dir.clone()),
        _ => None,
    });
    if output_files && let Some(dir) = tmpdir {
        sink.write_into(&dir, &Arg::literal("parXXXXX.par"), true);
    }
    let rest = line.get(start..).unwrap_or_default();
    let separator = |arg: &Arg| !arg.dynamic && matches!(arg.text.as_str(), ":::" | "::::" | ":::+" | "::::+");
    let split = rest.iter().position(separator).unwrap_or(rest.len());
    let template: Vec<&str> = rest.get(..split).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    let mut items = Vec::new();
    let mut unknown = Vec::new();
    let mut read = |input: Input, items: &mut Vec<Arg>| match input {
        Input::Text(text) => items.extend(input_items(&text, true, None)),
        Input::Unknown(words) => unknown.push(words),
    };
    let mut files = false;
    for arg in rest.get(split..).unwrap_or_default() {
        if separator(arg) {
            files = arg.text.starts_with("::::");
        } else if files {
            read(input_file(arg, stdin, sink), &mut items);
        } else {
            items.push(arg.clone());
        }
    }
    for file in &arg_files {
        read(input_file(file, stdin, sink), &mut items);
    }
    if split == rest.len() && arg_files.is_empty() {
        let input =
            stdin.map_or_else(|| Input::Unknown(fed_words(sink.job.producer)), |text| Input::Text(text.to_string()));
        read(input, &mut items);
    }
    let open = !unknown.is_empty();
    let unknown: Vec<Arg> = unknown.into_iter().flatten().collect();
    let template = template.join(" ");
    let in_workdir = |line: &str| match &workdir {
        // `--wd ...`: a new folder under ~/.parallel/tmp.
        Some(dir) if dir.dynamic || dir.text != "..." => format!("cd {} && {line}", quote(&dir.text)),
        _ => line.to_string(),
    };
    if template.is_empty() {
        // `parallel ::: 'cmd1' 'cmd2'`: each input is a command line; one the line does not show
        // writes what its words name.
        for item in items.iter().take(MAX_INPUT_JOBS) {
            sink.script(&in_workdir(&item.text));
        }
        for word in unknown {
            sink.write_named(word);
        }
        return None;
    }
    items.extend(unknown);
    let inputs: Vec<&Arg> = items.iter().take(MAX_INPUT_JOBS).collect();
    for item in &inputs {
        let quoted = quote(&item.text);
        let line = match template.contains(&replace) {
            true => template.replace(&replace, &quoted),
            false => format!("{template} {quoted}"),
        };
        sink.script(&in_workdir(&line));
    }
    if items.len() > MAX_INPUT_JOBS || (inputs.is_empty() && open) {
        let all: Vec<String> = items.iter().map(|item| quote(&item.text)).collect();
        sink.script(&in_workdir(&format!("{} {}", template.replace(&replace, ""), all.join(" "))));
    }
    None
}
