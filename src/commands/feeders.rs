//! Commands that run another command on what they are fed: `xargs` and `parallel` on their
//! input ([`super::find`] runs one on what it finds).

use super::argv::ansi_c;
use super::options::{Item, options, prefix_spec};
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
    let long = ["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"];
    let (mut replace, mut delimiter, mut from_file) = (None, None, false);
    let start = options(args, &prefix_spec("adEILnPs", &long), |item| match item {
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = Some(text.text),
        Item::Flag('i') | Item::Long("replace", None) => replace = Some("{}".to_string()),
        Item::Flag('0') | Item::Long("null", None) => delimiter = Some('\0'),
        Item::Short('d', text) | Item::Long("delimiter", Some(text)) => {
            delimiter = words_char(&text.text);
        }
        Item::Short('a', _) | Item::Long("arg-file", Some(_)) => from_file = true,
        _ => {}
    });
    let mut command = args.get(start..).unwrap_or_default().to_vec();
    if command.is_empty() {
        command.push(Arg::literal("echo"));
    }
    let (items, open) = match stdin {
        Some(text) if !from_file => (input_items(text, replace.is_some(), delimiter), false),
        _ => (fed_words(sink.job.producer), true),
    };
    Some(fill(command, items, replace.as_deref(), open))
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
    let long = [
        "jobs",
        "arg-file",
        "colsep",
        "delimiter",
        "replace",
        "max-args",
        "max-lines",
        "results",
        "joblog",
        "sshlogin",
        "tmpdir",
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
    let mut from_file = false;
    let start = options(args, &prefix_spec("aCdEIjLnNPSs", &long), |item| match item {
        Item::Long("joblog" | "results", Some(file)) => sink.write(&file),
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = text.text,
        Item::Short('a', _) | Item::Long("arg-file", Some(_)) => from_file = true,
        _ => {}
    });
    let rest = args.get(start..).unwrap_or_default();
    let separator = |arg: &Arg| !arg.dynamic && matches!(arg.text.as_str(), ":::" | "::::" | ":::+" | "::::+");
    let split = rest.iter().position(separator).unwrap_or(rest.len());
    let template: Vec<&str> = rest.get(..split).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    let mut items = Vec::new();
    let mut open = from_file;
    let mut files = false;
    for arg in rest.get(split..).unwrap_or_default() {
        if separator(arg) {
            files = arg.text.starts_with("::::");
            open |= files;
        } else if !files {
            items.push(arg.clone());
        }
    }
    if split == rest.len() && !from_file {
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
