//! Archivers. Extracting (P-12) writes a whole tree at its destination directory, so one that is,
//! holds or lies in a guarded location writes what it can reach there; creating an archive reads
//! what it packs and writes only the archive ([P-18](docs/decisions.md#p-18): read by proof).

use super::options::{Item, options, spec, value_of};
use super::readonly::is_compressor;
use super::sink::{Sink, join};
use super::{Arg, unknown};

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

/// tar's options that run a command (a compressor, a script between volumes, a command fed each
/// member, a checkpoint action, a remote shell): such a line is judged as an unknown command.
const TAR_RUNS: &[&str] = &[
    "to-command",
    "use-compress-program",
    "checkpoint-action",
    "info-script",
    "new-volume-script",
    "rsh-command",
    "rmt-command",
];
/// tar's options whose value is a file it writes besides the archive.
const TAR_WRITES: &[&str] = &["index-file", "listed-incremental", "volno-file"];

/// `tar -xf a.tar [-C dir] [members]`, `tar xzf a.tgz`; `-c/-r/-u -f file` writes the archive;
/// `-O`/`--to-stdout` extracts to standard output.
pub(super) fn tar(args: &[Arg], sink: &mut Sink) {
    const VALUES: &str = "fCbTXKNVgHIF";
    let mut long =
        vec!["file", "directory", "files-from", "exclude-from", "exclude", "transform", "xform", "owner", "group"];
    long.extend(TAR_RUNS.iter().chain(TAR_WRITES));
    let mut extract = Extract::default();
    let mut archive = None;
    let mut creates = false;
    let mut to_stdout = false;
    let mut runs = false;
    let mut written = Vec::new();
    let mut words = args;
    // The traditional form: `tar xzf archive …`, each value letter taking the next word.
    if let Some(bundle) = args.first().filter(|arg| !arg.dynamic && !arg.text.starts_with('-')) {
        let mut at = 1;
        for letter in bundle.text.chars() {
            match letter {
                'x' => extract.extract = true,
                'c' | 'r' | 'u' => creates = true,
                'O' => to_stdout = true,
                'F' => runs = true,
                _ => {}
            }
            if VALUES.contains(letter) {
                let value = args.get(at).cloned();
                match letter {
                    'I' => runs |= !value.as_ref().is_some_and(plain_compressor),
                    'f' => archive = value,
                    'C' => extract.directory = value,
                    'g' => written.extend(value),
                    _ => {}
                }
                at += 1;
            }
        }
        words = args.get(at..).unwrap_or_default();
    }
    let flags = ["extract", "get", "create", "append", "update"];
    options(words, &spec(VALUES, &long).flags(&flags), |item| match item {
        Item::Flag('x') | Item::Long("extract" | "get", None) => extract.extract = true,
        Item::Flag('c' | 'r' | 'u') | Item::Long("create" | "append" | "update", None) => creates = true,
        Item::Flag('O') | Item::Long("to-stdout", None) => to_stdout = true,
        Item::Short('f', file) | Item::Long("file", Some(file)) => archive = Some(file),
        Item::Short('C', dir) | Item::Long("directory", Some(dir)) => extract.directory = Some(dir),
        Item::Short('g', file) => written.push(file),
        Item::Short('I', program) => runs |= !plain_compressor(&program),
        Item::Short('F', _) => runs = true,
        Item::Long(name, value) => match tar_long(name) {
            Some(TarLong::Compressor) => runs |= !value.is_some_and(|program| plain_compressor(&program)),
            Some(TarLong::Runs) => runs = true,
            Some(TarLong::Writes) => written.extend(value),
            None => {}
        },
        Item::Operand(member) => extract.members.push(member),
        _ => {}
    });
    if runs {
        unknown::analyze("tar", args, None, sink);
        return;
    }
    for file in &written {
        sink.write(file);
    }
    if creates && let Some(archive) = archive {
        sink.write(&archive);
    }
    extract.extract &= !to_stdout;
    extract.apply(sink);
}

enum TarLong {
    Compressor,
    Runs,
    Writes,
}

/// `-I zstd`, `--use-compress-program='xz -9'`: a compressor, which filters the archive through
/// its standard input and output, with at most a level or a thread count.
fn plain_compressor(program: &Arg) -> bool {
    let mut words = program.text.split_whitespace();
    !program.dynamic
        && words.next().is_some_and(is_compressor)
        && words.all(|word| {
            word.strip_prefix("-T")
                .or_else(|| word.strip_prefix('-'))
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// What a long option of tar's does, abbreviated as getopt takes it (`--to-c` is `--to-command`;
/// `--checkpoint` itself is a count).
fn tar_long(name: &str) -> Option<TarLong> {
    let names = |list: &[&str]| list.iter().any(|known| known.starts_with(name)) && name != "checkpoint";
    if name.len() < 2 {
        None
    } else if "use-compress-program".starts_with(name) {
        Some(TarLong::Compressor)
    } else if names(TAR_RUNS) {
        Some(TarLong::Runs)
    } else if names(TAR_WRITES) {
        Some(TarLong::Writes)
    } else {
        None
    }
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
    options(args, &spec("DEFHIOMRsC", &long).flags(&["extract", "pass-through"]), |item| match item {
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
    // An archive the walk cannot name may be any guarded file the line names.
    if outputs.iter().any(|output| output.dynamic) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tar_options_that_run_or_write_are_known_abbreviated() {
        for name in ["to-command", "to-com", "checkpoint-action", "info-script", "new-volume-script", "rsh-command"] {
            assert!(matches!(tar_long(name), Some(TarLong::Runs)), "{name}");
        }
        assert!(matches!(tar_long("use-compress-program"), Some(TarLong::Compressor)));
        assert!(matches!(tar_long("use-comp"), Some(TarLong::Compressor)));
        assert!(matches!(tar_long("listed-incremental"), Some(TarLong::Writes)));
        for name in ["checkpoint", "to-stdout", "file", "exclude", "x"] {
            assert!(tar_long(name).is_none(), "{name}");
        }
        let program = |text: &str| plain_compressor(&Arg::literal(text));
        assert!(program("zstd") && program("xz -9") && program("zstd -T0 -19"));
        assert!(!program("sh -c x") && !program("zstd -o out") && !program("./zstd"));
    }
}
