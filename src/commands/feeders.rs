//! Commands that run another command on what they are fed: `xargs` and `parallel` on their
//! input, `find -exec` and `-delete` on what it finds.

use super::argv::ansi_c;
use super::options::{Item, options, prefix_spec, value_of};
use super::runners::is_stdin_path;
use super::sink::{Next, Sink};
use super::{Arg, quote};
use crate::paths::{self, glob_matches};

/// `find … -exec cmd {} ;` runs `cmd` on what it finds under its starting points; `-delete`
/// removes it.
pub(super) fn find(args: &[Arg]) -> Option<Vec<Next>> {
    // `-H`, `-L`, `-P`, `-D opts`, `-O3` come before the starting points.
    let mut leading = 0;
    while let Some(arg) = args.get(leading).filter(|arg| !arg.dynamic) {
        match arg.text.as_str() {
            "-H" | "-L" | "-P" => leading += 1,
            "-D" => leading += 2,
            text if text.starts_with("-O") => leading += 1,
            _ => break,
        }
    }
    let first_expression = args
        .iter()
        .skip(leading)
        .position(|arg| !arg.dynamic && (arg.text.starts_with('-') || arg.text == "(" || arg.text == "!"))
        .map_or(args.len(), |offset| leading + offset);
    let mut roots: Vec<Arg> = args.get(leading.min(first_expression)..first_expression).unwrap_or_default().to_vec();
    if roots.is_empty() {
        roots.push(Arg::literal("."));
    }
    let named_approval = names_approval(args.get(first_expression..).unwrap_or_default());
    let found: Vec<Arg> = roots
        .iter()
        .flat_map(|root| {
            let mut found = vec![root.clone()];
            if named_approval {
                found.push(Arg {
                    text: format!("{}/{}", root.text.trim_end_matches('/'), paths::APPROVAL_FILE),
                    ..root.clone()
                });
            }
            found
        })
        .collect();
    let mut nexts = Vec::new();
    let mut at = first_expression;
    while let Some(arg) = args.get(at) {
        at += 1;
        match arg.text.as_str() {
            "-delete" => {
                let words = std::iter::once(Arg::literal("rm")).chain(std::iter::once(Arg::literal("{}"))).collect();
                nexts.push(Next { roots: Some(found.clone()), reads_input: false, ..Next::with(words) });
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let end = args
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .position(|a| !a.dynamic && (a.text == ";" || a.text == "+"))
                    .map_or(args.len(), |offset| at + offset);
                let words = args.get(at..end).unwrap_or_default().to_vec();
                nexts.push(Next { roots: Some(found.clone()), reads_input: false, ..Next::with(words) });
                at = end + 1;
            }
            _ => {}
        }
    }
    Some(nexts)
}

/// Whether a name test of find's expression names approval.md. A negated test (`-not -path
/// './node_modules/*'`) excludes what it matches, so it names nothing (docs/decisions.md#p-18).
fn names_approval(expression: &[Arg]) -> bool {
    let mut negated = false;
    let mut words = expression.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if !word.dynamic && matches!(text, "!" | "-not") {
            negated = !negated;
            continue;
        }
        if matches!(text, "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename")
            && let Some(pattern) = words.next()
        {
            let last = pattern.text.rsplit('/').next().unwrap_or(&pattern.text);
            if !negated && glob_matches(last, paths::APPROVAL_FILE) {
                return true;
            }
        }
        negated = false;
    }
    false
}

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
    let input = match &arg_file {
        Some(file) => shown_file(file, stdin),
        None => stdin,
    };
    let (items, open) = match input {
        Some(text) => (input_items(text, replace.is_some(), delimiter), false),
        None => (fed_words(sink.job.producer), true),
    };
    Some(fill(command, items, replace.as_deref(), open))
}

/// The text of a file the line shows: a process substitution whose output is known
/// (`<(echo …)`), or standard input by a name (`/dev/stdin`) when it is a heredoc or here-string.
fn shown_file<'a>(file: &'a Arg, stdin: Option<&'a str>) -> Option<&'a str> {
    match file {
        _ if file.pipe && !file.dynamic => Some(&file.text),
        _ if is_stdin_path(file) => stdin,
        _ => None,
    }
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
/// appended), and the line run by a shell; without `:::` the inputs are standard input's lines.
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
        "env",
        "timeout",
        "delay",
        "halt",
        "tagstring",
        "basefile",
        "return",
    ];
    let mut replace = "{}".to_string();
    let mut arg_file = None;
    let flags = ["tag", "r", "m", "t", "h"];
    let start = options(args, &prefix_spec("aCdEIjLnNPSs", &long).flags(&flags), |item| match item {
        // The results folder and the job log, the folder of its temporary files, the files a
        // template makes (`--tmpl in=out{}`), an SQL table's file (`sqlite3:///dir/db/table`).
        Item::Long("results" | "result" | "res" | "joblog" | "jl" | "tmpdir" | "tempdir", Some(file)) => {
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
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = text.text,
        Item::Short('a', file) | Item::Long("arg-file" | "argfile" | "a", Some(file)) => arg_file = Some(file),
        _ => {}
    });
    let rest = args.get(start..).unwrap_or_default();
    let separator = |arg: &Arg| !arg.dynamic && matches!(arg.text.as_str(), ":::" | "::::" | ":::+" | "::::+");
    let split = rest.iter().position(separator).unwrap_or(rest.len());
    let template: Vec<&str> = rest.get(..split).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    let mut items = Vec::new();
    let mut open = false;
    // Input files (`-a f`, `:::: f`): their lines, when the line shows them.
    let mut read = |file: &Arg, items: &mut Vec<Arg>| match shown_file(file, stdin) {
        Some(text) => items.extend(input_items(text, true, None)),
        None => open = true,
    };
    if let Some(file) = &arg_file {
        read(file, &mut items);
    }
    let mut files = false;
    for arg in rest.get(split..).unwrap_or_default() {
        if separator(arg) {
            files = arg.text.starts_with("::::");
        } else if files {
            read(arg, &mut items);
        } else {
            items.push(arg.clone());
        }
    }
    if split == rest.len() && arg_file.is_none() {
        match stdin {
            Some(text) => items = input_items(text, true, None),
            None => {
                items = fed_words(sink.job.producer);
                open = true;
            }
        }
    }
    let template = template.join(" ");
    if template.is_empty() {
        // `parallel ::: 'cmd1' 'cmd2'`: each input is a command line.
        for item in items.iter().take(MAX_INPUT_JOBS) {
            sink.script(&item.text);
        }
        return None;
    }
    let inputs: Vec<&Arg> = items.iter().take(MAX_INPUT_JOBS).collect();
    for item in &inputs {
        let quoted = quote(&item.text);
        let line = match template.contains(&replace) {
            true => template.replace(&replace, &quoted),
            false => format!("{template} {quoted}"),
        };
        sink.script(&line);
    }
    if items.len() > MAX_INPUT_JOBS || (inputs.is_empty() && open) {
        let all: Vec<String> = items.iter().map(|item| quote(&item.text)).collect();
        sink.script(&format!("{} {}", template.replace(&replace, ""), all.join(" ")));
    }
    None
}
