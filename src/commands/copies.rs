//! Copies, moves and links (`cp`, `mv`, `ln`, `install`, `rsync`, `git mv`): a row each, over
//! one reading of their operands. What they write: the destination, the entries a source makes
//! in it when it is a directory, a whole tree for a recursive copy, and the sources of a move or a
//! hard link (a second name for a file is a way to write it, and unlike a symlink it cannot be
//! resolved later).

use super::effects::Variable;
use super::options::{Flags, Item, Spec, Valued, options, spec};
use super::sink::{Sink, join};
use std::path::Path;

use super::{Arg, Effect};
use crate::paths;

/// One copying command.
pub(super) struct Copy {
    pub names: &'static [&'static str],
    pub options: Spec<'static>,
    /// Copies whole trees unasked (a move, a sync); else only with these flags.
    pub recursive: Recursive,
    /// `-t dir`: the directory everything goes into.
    pub target_directory: Valued,
    /// When its sources are written too.
    pub sources: Sources,
    /// `install -d`: every operand is a directory made.
    pub makes_directories: Flags,
    /// `ln`: links rather than copies (symbolic ones with `-s`).
    pub links: bool,
    /// The flag that makes symbolic links (`ln -s`, `cp -s`), which the walk follows later.
    pub symbolic: Flags,
    /// rsync's paths: `host:path` is remote, and a source ending in `/` is copied as its contents.
    pub remote_and_contents: bool,
}

#[derive(Clone, Copy)]
pub(super) enum Recursive {
    Always,
    With(Flags),
}

#[derive(Clone, Copy)]
pub(super) enum Sources {
    Never,
    /// A move.
    Always,
    /// A hard link, unless this flag asks for a symbolic one (`ln -s`).
    Unless(Flags),
    /// A hard link when this flag asks for one (`cp -l`).
    With(Flags),
}

const TARGET_DIRECTORY: Valued = Valued { short: "t", long: &["target-directory"] };
const NO_TARGET_DIRECTORY: Flags = Flags { short: "T", long: &["no-target-directory"] };
const SYMBOLIC: Flags = Flags { short: "s", long: &["symbolic"] };
/// `ln -r`: the link's target is given from here, not from the link's folder.
const RELATIVE: Flags = Flags { short: "r", long: &["relative"] };
/// The long options without a value the copy rows read (`--backup` may take one after `=`).
const COPY_FLAGS: &[&str] = &[
    "recursive",
    "archive",
    "link",
    "symbolic",
    "symbolic-link",
    "relative",
    "no-target-directory",
    "directory",
    "backup",
];

const fn copy(names: &'static [&'static str]) -> Copy {
    Copy {
        names,
        options: spec("tS", &["target-directory", "suffix"]).flags(COPY_FLAGS),
        recursive: Recursive::With(Flags::NONE),
        target_directory: TARGET_DIRECTORY,
        sources: Sources::Never,
        makes_directories: Flags::NONE,
        links: false,
        symbolic: Flags::NONE,
        remote_and_contents: false,
    }
}

const RSYNC_LONG: &[&str] = &[
    "rsh",
    "filter",
    "exclude",
    "include",
    "exclude-from",
    "include-from",
    "files-from",
    "temp-dir",
    "partial-dir",
    "backup-dir",
    "compare-dest",
    "copy-dest",
    "link-dest",
    "log-file",
    "password-file",
    "port",
    "chmod",
    "chown",
    "usermap",
    "groupmap",
    "max-size",
    "min-size",
    "timeout",
    "contimeout",
    "bwlimit",
    "remote-option",
    "out-format",
    "log-file-format",
    "suffix",
    "rsync-path",
    "block-size",
    "info",
    "debug",
    "iconv",
    "address",
    "read-batch",
    "write-batch",
    "only-write-batch",
    "copy-as",
    "early-input",
    "checksum-choice",
    "compress-choice",
    "compress-level",
    "skip-compress",
    "max-delete",
    "max-alloc",
    "modify-window",
    "stop-after",
    "stop-at",
    "protocol",
    "sockopts",
    "outbuf",
    "checksum-seed",
];

/// `--strip` is not `--strip-program`: an exact name before the longer ones it begins.
const INSTALL_OPTIONS: Spec<'static> =
    spec("tSmog", &["target-directory", "suffix", "mode", "owner", "group", "strip-program"]).flags(&[
        "directory",
        "backup",
        "strip",
    ]);

pub(super) const GIT_MV: Copy = Copy { recursive: Recursive::Always, sources: Sources::Always, ..copy(&["git mv"]) };

pub(super) const COPIES: &[Copy] = &[
    Copy {
        recursive: Recursive::With(Flags { short: "rRa", long: &["recursive", "archive"] }),
        sources: Sources::With(Flags { short: "l", long: &["link"] }),
        symbolic: Flags { short: "s", long: &["symbolic-link"] },
        ..copy(&["cp"])
    },
    Copy { recursive: Recursive::Always, sources: Sources::Always, ..copy(&["mv"]) },
    Copy { sources: Sources::Unless(SYMBOLIC), links: true, symbolic: SYMBOLIC, ..copy(&["ln"]) },
    Copy {
        options: INSTALL_OPTIONS,
        makes_directories: Flags { short: "d", long: &["directory"] },
        ..copy(&["install"])
    },
];

/// rsync's row, read by [`rsync`]. popt: long options by their exact names.
const RSYNC: Copy = Copy {
    options: spec("efBMT", RSYNC_LONG).exact(),
    recursive: Recursive::Always,
    target_directory: Valued::NONE,
    remote_and_contents: true,
    ..copy(&["rsync"])
};

/// What one command line of a [`Copy`] asks for.
#[derive(Default)]
struct Asked<'a> {
    target_dir: Option<Arg>,
    no_target_dir: bool,
    make_dirs: bool,
    recursive: bool,
    sources_flag: bool,
    /// `-b`, `--backup`, `-S suffix`: the destination's old file is kept under this suffix.
    backup: Option<String>,
    files: Vec<&'a Arg>,
}

impl Copy {
    pub fn run(&self, args: &[Arg], sink: &mut Sink) {
        if !self.symbolic.short.is_empty() {
            let relative = if self.links { RELATIVE } else { Flags::NONE };
            symlinks(args, self.symbolic, relative, sink);
        }
        let mut asked = Asked::default();
        options(args, &self.options, |item| {
            if let Item::Operand(arg) = item {
                asked.files.push(arg);
                return;
            }
            if let Recursive::With(flags) = self.recursive {
                asked.recursive |= flags.given(&item);
            }
            if let Sources::Unless(flags) | Sources::With(flags) = self.sources {
                asked.sources_flag |= flags.given(&item);
            }
            asked.no_target_dir |= NO_TARGET_DIRECTORY.given(&item);
            match &item {
                Item::Flag('b') | Item::Long("backup", _) => {
                    asked.backup.get_or_insert_with(|| "~".to_string());
                }
                // rsync's `-S` is `--sparse`.
                Item::Short('S', suffix) | Item::Long("suffix", Some(suffix)) if !self.remote_and_contents => {
                    asked.backup = Some(suffix.text.clone());
                }
                _ => {}
            }
            asked.make_dirs |= self.makes_directories.given(&item);
            if let Some(dir) = self.target_directory.value(&item) {
                asked.target_dir = Some(dir);
            }
        });
        self.write(asked, sink);
    }

    fn write(&self, mut asked: Asked, sink: &mut Sink) {
        let remote = |arg: &Arg| self.remote_and_contents && is_remote(arg);
        asked.files.retain(|arg| !remote(arg));
        let files = asked.files;
        if asked.make_dirs {
            for dir in files {
                sink.write(dir);
                sink.make_directory(dir);
            }
            return;
        }
        let recursive = asked.recursive || matches!(self.recursive, Recursive::Always);
        let writes_sources = match self.sources {
            Sources::Never => false,
            Sources::Always => true,
            Sources::Unless(_) => !asked.sources_flag,
            Sources::With(_) => asked.sources_flag,
        };
        let contents = |source: &Arg| self.remote_and_contents && source.text.ends_with('/');
        if let Some(dir) = asked.target_dir {
            sink.write(&dir);
            for source in &files {
                sink.write_into(&dir, source, true);
                if recursive {
                    sink.write_tree(&dir, Some(source), true);
                }
                if writes_sources {
                    sink.write(source);
                }
            }
            return;
        }
        let (destination, sources) = match files.split_last() {
            Some((destination, sources)) if !sources.is_empty() => (*destination, sources),
            // `ln -s /some/where/x`: a link named `x` here.
            Some((only, _)) if self.links => {
                sink.write_into(&Arg::literal("."), only, true);
                if writes_sources {
                    sink.write(only);
                }
                return;
            }
            _ => return,
        };
        sink.write(destination);
        if let Some(suffix) = &asked.backup {
            sink.write(&Arg { text: format!("{}{suffix}", destination.text), ..destination.clone() });
        }
        let known_dir = sources.len() > 1 || destination.text.ends_with('/');
        // A destination the line may have removed first (`rm -rf c && cp -r d c`, `ln -s d c`)
        // is made whole by the copy or the link: the tree there, whatever is on disk now.
        // Only a change or the folders above one: a copy into an existing folder elsewhere
        // (`cp -r assets docs`) is common, and a plans or sdd folder is refused whole already.
        let replaced = (matches!(self.recursive, Recursive::With(_)) && recursive || self.links && !writes_sources)
            && !known_dir
            && !asked.no_target_dir;
        if replaced && holds_a_change(&destination.text) {
            sink.write_tree(destination, None, false);
        }
        if recursive {
            // `mv c new/`, `cp -r c new/`: a trailing `/` does not make one source's destination
            // a directory; where none is, the tree is the destination itself (rsync makes it one).
            let into = sources.len() > 1 || self.remote_and_contents && known_dir;
            for source in sources {
                // A tree merged into the destination: `-T`, `src/.`, rsync's `src/`.
                let merged = asked.no_target_dir || contents(source);
                sink.write_tree(destination, (!merged).then_some(*source), into);
            }
        }
        if !asked.no_target_dir {
            for source in sources {
                // rsync copies a directory's contents, not the directory, when it ends in `/`.
                // An approval.md copied to a change folder goes into it whatever the disk says
                // now: the line may make it first (`mkdir -p c; cp /tmp/approval.md c`).
                if !contents(source) {
                    let made_first = paths::is_approval_file(Path::new(&source.text))
                        && paths::is_change_dir(Path::new(&destination.text));
                    sink.write_into(destination, source, known_dir || made_first);
                }
            }
        }
        if writes_sources {
            for source in sources {
                sink.write(source);
                // `cp -al dir copy`: every file under the source gets a second name.
                if recursive && matches!(self.sources, Sources::With(_)) {
                    sink.write_tree(source, None, false);
                }
            }
        }
    }
}

/// `rsync [opts] src… dest`: a sync as the copy rows read it, and what rsync's own options write
/// or run: `--log-file`, `--write-batch` (and its `.sh`), `--read-batch` (the destination's
/// tree), `--remove-source-files` (the sources), backups (`-b` with `--suffix`, `--backup-dir`),
/// the scratch folders (`--temp-dir`, `--partial-dir`) and hard links into `--link-dest`; the
/// remote shell (`-e`, `$RSYNC_RSH`) and the remote rsync (`--rsync-path`) are shell text.
pub(super) fn rsync(args: &[Arg], sink: &mut Sink) {
    RSYNC.run(args, sink);
    let mut files: Vec<&Arg> = Vec::new();
    let (mut backup, mut suffix, mut read_batch, mut remove_sources) = (false, None, false, false);
    let mut in_destination: Vec<(Arg, bool)> = Vec::new();
    if let Variable::Set(command) = sink.job.environment.variable("RSYNC_RSH") {
        sink.script(&command.text.clone());
    }
    options(args, &RSYNC.options, |item| match item {
        Item::Operand(arg) => files.push(arg),
        Item::Long("log-file", Some(file)) => sink.write(&file),
        Item::Long("write-batch" | "only-write-batch", Some(file)) => {
            sink.write(&Arg { text: format!("{}.sh", file.text), ..file.clone() });
            sink.write(&file);
        }
        Item::Long("read-batch", Some(_)) => read_batch = true,
        Item::Short('e', command) | Item::Long("rsh" | "rsync-path", Some(command)) => sink.script(&command.text),
        Item::Long("remove-source-files" | "remove-sent-files", None) => remove_sources = true,
        Item::Flag('b') | Item::Long("backup", None) => backup = true,
        Item::Long("suffix", Some(text)) => suffix = Some(text.text),
        Item::Long("backup-dir", Some(dir)) => {
            backup = true;
            in_destination.push((dir, true));
        }
        Item::Long("link-dest", Some(dir)) => in_destination.push((dir, true)),
        Item::Short('T', dir) | Item::Long("temp-dir" | "partial-dir", Some(dir)) => in_destination.push((dir, false)),
        _ => {}
    });
    files.retain(|arg| !is_remote(arg));
    let Some((destination, sources)) = files.split_last() else { return };
    if read_batch {
        sink.write_tree(destination, None, true);
    }
    if remove_sources {
        for source in sources {
            sink.write(source);
            sink.write_tree(source, None, false);
        }
    }
    if backup && let Some(suffix) = suffix.filter(|suffix| !suffix.is_empty()) {
        // The destination's old files, renamed beside them (a suffix holds no `/`).
        sink.write(&Arg { text: format!("{}{suffix}", destination.text), ..(*destination).clone() });
        for source in sources {
            let name = Arg { text: format!("{}{suffix}", source.text.trim_end_matches('/')), ..(*source).clone() };
            sink.write_into(destination, &name, false);
        }
    }
    for (dir, tree) in in_destination {
        // A relative folder is in the destination folder: the destination, or the one holding it.
        let mut dirs = vec![dir.clone()];
        if !dir.text.starts_with('/') {
            let holder = destination.text.trim_end_matches('/').rsplit_once('/').map_or(".", |(holder, _)| holder);
            dirs = [destination.text.as_str(), holder]
                .map(|base| Arg { text: join(base, &dir.text), ..dir.clone() })
                .to_vec();
        }
        for dir in &dirs {
            match tree {
                // Backups and hard links reach any file of the tree.
                true => sink.write_tree(dir, None, true),
                false => sources.iter().for_each(|source| sink.write_into(dir, source, true)),
            }
        }
    }
}

/// An rsync path on another host: `host:path`, `user@host:path`, `rsync://host/path`.
fn is_remote(arg: &Arg) -> bool {
    arg.text.split('/').next().is_some_and(|head| head.contains(':'))
}

/// A change folder `…/openspec/changes/<id>`, or `openspec/changes`, or `openspec`, by its text.
fn holds_a_change(text: &str) -> bool {
    let path = Path::new(text);
    paths::is_change_dir(path) || path.ends_with(paths::CHANGES_DIR.join("/")) || path.ends_with(paths::CHANGES_DIR[0])
}

/// `ln -s target link`, `cp -s`, `cp -rs`: later writes through `link` reach `target`
/// (remembered by the walk); `ln -r` gives the target from here.
fn symlinks(args: &[Arg], symbolic_flag: Flags, relative_flag: Flags, sink: &mut Sink) {
    let mut symbolic = false;
    let mut from_here = false;
    let mut target_dir = None;
    let mut files = Vec::new();
    options(args, &spec("tS", &["target-directory", "suffix"]).flags(COPY_FLAGS), |item| {
        symbolic |= symbolic_flag.given(&item);
        from_here |= relative_flag.given(&item);
        match item {
            Item::Short('t', dir) | Item::Long("target-directory", Some(dir)) => target_dir = Some(dir),
            Item::Operand(arg) => files.push(arg.clone()),
            _ => {}
        }
    });
    if !symbolic {
        return;
    }
    let inside = |dir: &Arg, target: &Arg| {
        let trimmed = target.text.trim_end_matches('/');
        let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
        Arg { text: format!("{}/{name}", dir.text.trim_end_matches('/')), ..dir.clone() }
    };
    let (targets, dir) = match (target_dir, files.split_last()) {
        (Some(dir), _) => (files.clone(), dir),
        (None, Some((link, [target]))) => {
            // A link named `link`, or one inside it when it is a directory.
            sink.push(Effect::Link { link: link.clone(), target: target.clone(), from_here });
            (vec![target.clone()], link.clone())
        }
        (None, Some((dir, targets))) if !targets.is_empty() => (targets.to_vec(), dir.clone()),
        (None, Some((target, _))) => (vec![target.clone()], Arg::literal(".")),
        (None, None) => return,
    };
    for target in targets {
        sink.push(Effect::Link { link: inside(&dir, &target), target, from_here });
    }
}
