//! Archive extractors (P-12): extracting writes a whole tree at its destination directory, so one
//! that is, holds or lies in a guarded location writes what it can reach there.

use super::Arg;
use super::options::{Item, options, spec};
use super::sink::{Sink, join};

/// What an archiver's command line asks for.
#[derive(Default)]
struct Extract<'a> {
    extract: bool,
    directory: Option<Arg>,
    members: Vec<&'a Arg>,
}

impl Extract<'_> {
    /// The tree (or the named members) extracted under the destination (default: here).
    fn apply(self, sink: &mut Sink) {
        if !self.extract {
            return;
        }
        let dir = self.directory.unwrap_or_else(|| Arg::literal("."));
        if self.members.is_empty() {
            sink.write_tree(&dir, None, true);
            return;
        }
        for member in self.members {
            let path = Arg { text: join(&dir.text, &member.text), ..member.clone() };
            sink.write(&path);
            sink.write_tree(&path, None, false);
        }
    }
}

/// `tar -xf a.tar [-C dir] [members]`, `tar xzf a.tgz`; `-c/-r/-u -f file` writes the archive.
pub(super) fn tar(args: &[Arg], sink: &mut Sink) {
    const VALUES: &str = "fCbTXKNVgH";
    let long = ["file", "directory", "files-from", "exclude-from", "exclude", "transform", "xform", "owner", "group"];
    let mut extract = Extract::default();
    let mut archive = None;
    let mut creates = false;
    let mut words = args;
    // The traditional form: `tar xzf archive …`, each value letter taking the next word.
    if let Some(bundle) = args.first().filter(|arg| !arg.dynamic && !arg.text.starts_with('-')) {
        let mut at = 1;
        for letter in bundle.text.chars() {
            match letter {
                'x' => extract.extract = true,
                'c' | 'r' | 'u' => creates = true,
                _ => {}
            }
            if VALUES.contains(letter) {
                let value = args.get(at).cloned();
                match letter {
                    'f' => archive = value,
                    'C' => extract.directory = value,
                    _ => {}
                }
                at += 1;
            }
        }
        words = args.get(at..).unwrap_or_default();
    }
    options(words, &spec(VALUES, &long), |item| match item {
        Item::Flag('x') | Item::Long("extract" | "get", None) => extract.extract = true,
        Item::Flag('c' | 'r' | 'u') | Item::Long("create" | "append" | "update", None) => creates = true,
        Item::Short('f', file) | Item::Long("file", Some(file)) => archive = Some(file),
        Item::Short('C', dir) | Item::Long("directory", Some(dir)) => extract.directory = Some(dir),
        Item::Operand(member) => extract.members.push(member),
        _ => {}
    });
    if creates && let Some(archive) = archive {
        sink.write(&archive);
    }
    extract.apply(sink);
}

/// `unzip [-opts] archive [members] [-x excluded] [-d dir]`; `-l`, `-t`, `-v`, `-p`, `-Z` only read.
pub(super) fn unzip(args: &[Arg], sink: &mut Sink) {
    let mut extract = Extract { extract: true, ..Extract::default() };
    let mut archive_seen = false;
    let mut excluded = false;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        if text == "-d" {
            extract.directory = words.next().cloned();
        } else if let Some(dir) = text.strip_prefix("-d").filter(|dir| !dir.is_empty()) {
            extract.directory = Some(Arg { text: dir.to_string(), ..arg.clone() });
        } else if text == "-x" {
            excluded = true;
        } else if let Some(cluster) = text.strip_prefix('-') {
            if cluster.contains(['l', 't', 'v', 'p', 'Z', 'z']) {
                extract.extract = false;
            }
        } else if !archive_seen {
            archive_seen = true;
        } else if !excluded {
            extract.members.push(arg);
        }
    }
    extract.apply(sink);
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
    extract.apply(sink);
}

/// `cpio -i` extracts under `-D dir` (default: here); `cpio -p dir` copies a tree into `dir`.
pub(super) fn cpio(args: &[Arg], sink: &mut Sink) {
    let mut extract = Extract::default();
    let mut pass_through = false;
    let mut operands = Vec::new();
    let long = ["directory", "file", "format", "pattern-file", "owner", "block-size", "io-size"];
    options(args, &spec("DEFHIOMRsC", &long), |item| match item {
        Item::Flag('i') | Item::Long("extract", None) => extract.extract = true,
        Item::Flag('p') | Item::Long("pass-through", None) => pass_through = true,
        Item::Short('D', dir) | Item::Long("directory", Some(dir)) => extract.directory = Some(dir),
        Item::Operand(arg) => operands.push(arg),
        _ => {}
    });
    if pass_through {
        if let Some(dir) = operands.first() {
            sink.write_tree(dir, None, true);
        }
        return;
    }
    extract.apply(sink);
}
