//! Archivers. Extracting (P-12) writes a whole tree at its destination directory, so one that is,
//! holds or lies in a guarded location writes what it can reach there; creating an archive reads
//! what it packs and writes only the archive ([P-18](docs/decisions.md#p-18): read by proof).

use super::options::{Item, options, spec, value_of};
use super::sink::{Sink, join};
use super::{Arg, quote, unknown};
use crate::paths;

/// What an archiver's command line asks for.
#[derive(Default)]
struct Extract<'a> {
    extract: bool,
    directory: Option<Arg>,
    members: Vec<&'a Arg>,
    /// Members land under other names (tar's `--transform`, bsdtar's `-s`): where is unproven.
    renames: bool,
    /// Leading components dropped from each member's name (`--strip-components`).
    strip: usize,
}

impl Extract<'_> {
    /// The tree (or the named members) extracted under the destination (default: here); under
    /// other names, every guarded location the line names there too (P-18).
    fn apply(self, line: &[Arg], sink: &mut Sink) {
        if !self.extract {
            return;
        }
        let dir = self.directory.unwrap_or_else(|| Arg::literal("."));
        if self.renames {
            for word in line {
                for location in paths::everything_named(&word.text, paths::Dialect::Bash) {
                    let location = location.to_string_lossy();
                    sink.write(&Arg { text: join(&dir.text, &location), ..word.clone() });
                }
            }
        }
        if self.members.is_empty() {
            sink.write_tree(&dir, None, true);
            return;
        }
        for member in self.members {
            // tar counts `.` as a component; a member with no more than it strips is skipped.
            let kept: Vec<&str> = member.text.split('/').filter(|c| !c.is_empty()).skip(self.strip).collect();
            if kept.is_empty() {
                continue;
            }
            let path = Arg { text: join(&dir.text, &kept.join("/")), ..member.clone() };
            sink.write(&path);
            sink.write_tree(&path, None, false);
        }
    }
}

/// tar's long options that take a value.
const TAR_LONG: &[&str] = &[
    "file",
    "directory",
    "files-from",
    "exclude-from",
    "exclude",
    "transform",
    "xform",
    "owner",
    "group",
    "to-command",
    "checkpoint-action",
    "use-compress-program",
    "index-file",
    "volno-file",
    "listed-incremental",
    "info-script",
    "new-volume-script",
    "rsh-command",
    "rmt-command",
    "strip-components",
    "add-file",
    "format",
    "blocking-factor",
    "record-size",
    "tape-length",
    "label",
    "mode",
    "mtime",
    "newer",
    "after-date",
    "newer-mtime",
    "starting-file",
    "suffix",
    "owner-map",
    "group-map",
    "exclude-tag",
    "exclude-tag-all",
    "exclude-tag-under",
    "exclude-ignore",
    "exclude-ignore-recursive",
    "hole-detection",
    "level",
    "sparse-version",
    "pax-option",
    "sort",
    "quoting-style",
    "quote-chars",
    "no-quote-chars",
    "warning",
    "xattrs-exclude",
    "xattrs-include",
];
/// tar's long options without one that the row reads, and those a longer name begins
/// (`--checkpoint[=N]` is not `--checkpoint-action`, `--list` not `--listed-incremental`).
const TAR_FLAGS: &[&str] = &[
    "extract",
    "get",
    "create",
    "append",
    "update",
    "catenate",
    "concatenate",
    "delete",
    "to-stdout",
    "remove-files",
    "one-top-level",
    "checkpoint",
    "list",
    "sparse",
    "xattrs",
];

/// `tar -xf a.tar [-C dir] [members]`, `tar xzf a.tgz`; `-c/-r/-u/-A/--delete -f file` writes
/// the archive, `--remove-files` removes what it packs; `--index-file`, `--volno-file` and `-g`
/// write files; `--to-command`, `--checkpoint-action=exec=…`, `-I` and the scripts it may run
/// are shell text.
pub(super) fn tar(args: &[Arg], sink: &mut Sink) {
    const VALUES: &str = "fCbTXKNVgHFIL";
    let mut extract = Extract::default();
    let mut archive = None;
    let (mut creates, mut to_stdout, mut remove_files) = (false, false, false);
    let mut written = Vec::new();
    let mut scripts = Vec::new();
    let mut words = args;
    // The traditional form: `tar xzf archive …`, each value letter taking the next word.
    if let Some(bundle) = args.first().filter(|arg| !arg.dynamic && !arg.text.starts_with('-')) {
        let mut at = 1;
        for letter in bundle.text.chars() {
            match letter {
                'x' => extract.extract = true,
                'c' | 'r' | 'u' | 'A' => creates = true,
                'O' => to_stdout = true,
                's' => extract.renames = true,
                _ => {}
            }
            if VALUES.contains(letter) {
                let value = args.get(at).cloned();
                match (letter, value) {
                    ('f', value) => archive = value,
                    ('C', value) => extract.directory = value,
                    ('g', Some(file)) => written.push(file),
                    ('F' | 'I', Some(script)) => scripts.push(script),
                    _ => {}
                }
                at += 1;
            }
        }
        words = args.get(at..).unwrap_or_default();
    }
    let mut line = sink.job.environment.option_words(&["TAR_OPTIONS"]);
    line.extend_from_slice(words);
    options(&line, &spec(VALUES, TAR_LONG).flags(TAR_FLAGS), |item| match item {
        Item::Flag('x') | Item::Long("extract" | "get", None) => extract.extract = true,
        Item::Flag('c' | 'r' | 'u' | 'A')
        | Item::Long("create" | "append" | "update" | "catenate" | "concatenate" | "delete", None) => creates = true,
        Item::Flag('O') | Item::Long("to-stdout", None) => to_stdout = true,
        // bsdtar's `-s /old/new/` (GNU tar's `-s` keeps the order of the names given).
        Item::Flag('s') | Item::Long("transform" | "xform", Some(_)) => extract.renames = true,
        Item::Long("strip-components", Some(count)) => match count.text.parse() {
            Ok(strip) if !count.dynamic => extract.strip = strip,
            _ => extract.renames = true,
        },
        Item::Long("remove-files", None) => remove_files = true,
        Item::Short('f', file) | Item::Long("file", Some(file)) => archive = Some(file),
        Item::Short('C', dir) | Item::Long("directory", Some(dir)) => extract.directory = Some(dir),
        Item::Long("one-top-level", Some(dir)) => {
            let base = extract.directory.as_ref().map_or(".", |base| base.text.as_str());
            extract.directory = Some(Arg { text: join(base, &dir.text), ..dir.clone() });
        }
        Item::Short('g', file) | Item::Long("listed-incremental" | "index-file" | "volno-file", Some(file)) => {
            written.push(file)
        }
        // Members piped to a command instead of written.
        Item::Long("to-command", Some(script)) => {
            to_stdout = true;
            scripts.push(script);
        }
        Item::Short('F' | 'I', script)
        | Item::Long(
            "use-compress-program" | "info-script" | "new-volume-script" | "rsh-command" | "rmt-command",
            Some(script),
        ) => scripts.push(script),
        Item::Long("checkpoint-action", Some(action)) => {
            if let Some(command) = action.text.strip_prefix("exec=") {
                scripts.push(value_of(command, &action));
            }
        }
        Item::Operand(member) => extract.members.push(member),
        _ => {}
    });
    for script in &scripts {
        sink.script(&script.text);
        if let Some(dir) = &extract.directory {
            sink.script(&format!("cd {} && {}", quote(&dir.text), script.text));
        }
    }
    for file in &written {
        sink.write(file);
    }
    // `-f -`: standard output.
    if creates && let Some(archive) = archive.filter(|archive| archive.dynamic || archive.text != "-") {
        sink.write(&archive);
    }
    if remove_files {
        let dir = extract.directory.as_ref().map_or(".", |dir| dir.text.as_str());
        for member in &extract.members {
            let path = Arg { text: join(dir, &member.text), ..(*member).clone() };
            sink.write(&path);
            sink.write_tree(&path, None, false);
        }
    }
    if !to_stdout {
        extract.apply(&line, sink);
    }
}

/// `unzip [-opts] archive [members] [-x excluded] [-d dir]`, with the options `$UNZIP` and
/// `$UNZIPOPT` give first; `-l`, `-t`, `-v`, `-p`, `-c`, `-Z` only read.
pub(super) fn unzip(args: &[Arg], sink: &mut Sink) {
    let mut extract = Extract { extract: true, ..Extract::default() };
    let mut archive_seen = false;
    let mut excluded = false;
    let mut line = sink.job.environment.option_words(&["UNZIP", "UNZIPOPT"]);
    line.extend_from_slice(args);
    let mut words = line.iter();
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty() && !arg.dynamic) else {
            if !archive_seen {
                archive_seen = true;
            } else if !excluded {
                extract.members.push(arg);
            }
            continue;
        };
        excluded = false;
        for (offset, letter) in cluster.char_indices() {
            let rest = cluster.get(offset + 1..).unwrap_or_default();
            match letter {
                // `-d dir`, `-ddir`, `-qd dir`: the rest of the word, else the next.
                'd' | 'P' => {
                    let value = if rest.is_empty() { words.next().cloned() } else { Some(value_of(rest, arg)) };
                    if letter == 'd' {
                        extract.directory = value;
                    }
                    break;
                }
                'x' => excluded = true,
                'l' | 't' | 'v' | 'p' | 'c' | 'z' => extract.extract = false,
                // zipinfo mode: the rest are its options.
                'Z' => {
                    extract.extract = false;
                    break;
                }
                _ => {}
            }
        }
    }
    extract.apply(&line, sink);
}

/// `7z x|e archive [-odir] [members]`.
pub(super) fn seven_zip(args: &[Arg], sink: &mut Sink) {
    let mut extract = Extract::default();
    let mut operands = 0;
    for arg in args {
        let text = arg.text.as_str();
        if let Some(dir) = text.strip_prefix("-o") {
            extract.directory = Some(Arg { text: dir.to_string(), ..arg.clone() });
        } else if !text.starts_with('-') {
            operands += 1;
            match operands {
                1 => extract.extract = matches!(text, "x" | "e"),
                2 => {}
                _ => extract.members.push(arg),
            }
        }
    }
    extract.apply(args, sink);
}

/// `cpio -i` extracts under `-D dir` (default: here); `cpio -p dir` copies a tree into `dir`;
/// `cpio -o` writes the archive `-F`/`-O`/`--file` names; `--rsh-command` is shell text.
pub(super) fn cpio(args: &[Arg], sink: &mut Sink) {
    let mut extract = Extract::default();
    let mut pass_through = false;
    let (mut creates, mut to_stdout) = (false, false);
    let mut archives = Vec::new();
    let mut operands = Vec::new();
    let long = [
        "directory",
        "file",
        "format",
        "pattern-file",
        "owner",
        "block-size",
        "io-size",
        "rsh-command",
        "message",
        "rename-batch-file",
    ];
    // `--rename` is not `--rename-batch-file`.
    let flags = ["extract", "pass-through", "create", "to-stdout", "rename"];
    options(args, &spec("DEFHIOMRsC", &long).flags(&flags), |item| match item {
        Item::Flag('i') | Item::Long("extract", None) => extract.extract = true,
        Item::Flag('p') | Item::Long("pass-through", None) => pass_through = true,
        Item::Flag('o') | Item::Long("create", None) => creates = true,
        Item::Long("to-stdout", None) => to_stdout = true,
        Item::Short('F' | 'O', file) | Item::Long("file", Some(file)) => archives.push(file),
        Item::Long("rsh-command", Some(command)) => sink.script(&command.text),
        Item::Short('D', dir) | Item::Long("directory", Some(dir)) => extract.directory = Some(dir),
        Item::Operand(arg) => operands.push(arg),
        _ => {}
    });
    if creates {
        for archive in &archives {
            sink.write(archive);
        }
    }
    if pass_through {
        if let Some(dir) = operands.first() {
            sink.write_tree(dir, None, true);
        }
        return;
    }
    extract.extract &= !to_stdout;
    extract.apply(args, sink);
}

/// `zip [options] archive [files] [-x|-i patterns]`: reads its files and writes only the archive
/// (and `-O`'s file). A line with an option this reading does not know is judged as an unknown
/// command: `-m` deletes what it packs, `-TT` runs a command, `-b` writes a file elsewhere.
pub(super) fn zip(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    match zip_outputs(args) {
        Some(outputs) => {
            for output in &outputs {
                sink.write(output);
            }
        }
        None => unknown::analyze("zip", args, stdin, sink),
    }
}

/// The files a zip line writes, or `None` when it asks for more than packing.
fn zip_outputs(args: &[Arg]) -> Option<Vec<Arg>> {
    const FLAGS: &str = "0123456789ADdcefFghjJkKlLoqrRSuvVwXyz@$";
    // `-n` suffixes, `-P` password, `-Z` method, `-s` split size, `-O` output: each takes a value.
    const VALUES: &str = "nPZsO";
    const LONG_FLAGS: &[&str] =
        &["recurse-paths", "quiet", "junk-paths", "verbose", "symlinks", "no-extra", "update", "freshen", "filesync"];
    let mut outputs = Vec::new();
    let mut archive_seen = false;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        let option = !arg.dynamic && text.starts_with('-') && text != "-";
        if !option {
            // The first operand is the archive (`-`: standard output); the rest, and the
            // patterns of `-x`/`-i`, are read.
            if !archive_seen {
                archive_seen = true;
                if text != "-" {
                    outputs.extend(archive_names(arg));
                }
            }
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            match long.split_once('=') {
                Some(("output-file" | "out", value)) => outputs.push(value_of(value, arg)),
                None if matches!(long, "output-file" | "out") => outputs.push(words.next()?.clone()),
                None if matches!(long, "exclude" | "include") && archive_seen => {}
                None if LONG_FLAGS.contains(&long) => {}
                _ => return None,
            }
            continue;
        }
        let cluster = text.get(1..).unwrap_or_default();
        if matches!(cluster.chars().next(), Some('x' | 'i')) {
            // An `-x`/`-i` list before the archive would leave the archive unknown.
            if !archive_seen {
                return None;
            }
            continue;
        }
        for (offset, letter) in cluster.char_indices() {
            if VALUES.contains(letter) {
                let rest = cluster.get(offset + 1..).unwrap_or_default();
                let value = if rest.is_empty() { words.next()?.clone() } else { value_of(rest, arg) };
                if letter == 'O' {
                    outputs.push(value);
                }
                break;
            }
            if !FLAGS.contains(letter) {
                return None;
            }
        }
    }
    // An archive the walk cannot name, nor the folder it stays in, may be any guarded file the
    // line names.
    if !outputs.iter().all(Arg::located) {
        return None;
    }
    Some(outputs)
}

/// The archive as named, and with `.zip` added when its name has no suffix, as zip does.
fn archive_names(arg: &Arg) -> Vec<Arg> {
    let name = arg.text.rsplit('/').next().unwrap_or(&arg.text);
    let mut names = vec![arg.clone()];
    if !name.contains('.') {
        names.push(Arg { text: format!("{}.zip", arg.text), ..arg.clone() });
    }
    names
}
