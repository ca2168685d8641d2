//! Commands that apply patches (P-14): `patch` and `git apply`/`git am` write what their patches
//! name, which the caller reads; their options say where the patch comes from and how its paths
//! are placed.

use super::Arg;
use super::effects::{BASENAME_STRIP, BackupName, Effect, PatchRead, Variable};
use super::options::{Item, options, spec};
use super::sink::{Sink, join};

/// GNU `patch`: `-o` names what it writes instead; an original-file operand is what it writes;
/// otherwise every file the patch names, read from `-i` or stdin; each with its backup where
/// `-B`, `-Y`, `-z` say. All of it under `-d`'s directory.
pub(super) fn patch_command(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut operands = Vec::new();
    let (mut input, mut chdir, mut strips, mut outputs, mut dry_run) = (None, None, Vec::new(), Vec::new(), false);
    let mut rejects = Vec::new();
    let mut backup = BackupName::default();
    let long = ["output", "reject-file", "input", "directory", "strip", "prefix", "basename-prefix", "suffix"];
    options(args, &spec("BDdFgiopruVYz", &long).flags(&["dry-run"]), |item| match item {
        Item::Short('o', file) | Item::Long("output", Some(file)) => outputs.push(file),
        Item::Short('r', file) | Item::Long("reject-file", Some(file)) => rejects.push(file),
        Item::Short('i', file) | Item::Long("input", Some(file)) => input = Some(file),
        Item::Short('d', dir) | Item::Long("directory", Some(dir)) => chdir = Some(dir),
        Item::Short('p', level) | Item::Long("strip", Some(level)) => strips.extend(level.text.parse::<usize>().ok()),
        Item::Short('B', prefix) | Item::Long("prefix", Some(prefix)) => backup.prefix = Some(prefix),
        Item::Short('Y', prefix) | Item::Long("basename-prefix", Some(prefix)) => backup.base_prefix = Some(prefix),
        Item::Short('z', suffix) | Item::Long("suffix", Some(suffix)) => backup.suffix = Some(suffix),
        Item::Long("dry-run", None) => dry_run = true,
        Item::Operand(arg) => operands.push(arg),
        _ => {}
    });
    if dry_run {
        return;
    }
    if backup.suffix.is_none()
        && let Variable::Set(suffix) = sink.job.environment.variable("SIMPLE_BACKUP_SUFFIX")
    {
        backup.suffix = Some(suffix.clone());
    }
    let within = |file: &Arg| match &chdir {
        Some(dir) => Arg { text: join(&dir.text, &file.text), dynamic: dir.dynamic || file.dynamic, ..file.clone() },
        None => file.clone(),
    };
    for file in &rejects {
        sink.write(&within(file));
    }
    // What it writes instead of the files the patch names: `-o`'s file, or the original-file operand.
    let instead: Vec<Arg> = outputs.iter().chain(operands.first().copied()).map(within).collect();
    for file in &instead {
        sink.write(file);
        if let Some(kept) = backup.of(&file.text) {
            sink.write(&Arg { dynamic: kept.dynamic || file.dynamic, ..kept });
        }
    }
    if !instead.is_empty() {
        return;
    }
    if strips.is_empty() {
        // A plain diff lands on its basenames; a git diff is read with `-p1`.
        strips = vec![BASENAME_STRIP, 1];
    }
    sink.push(Effect::Patch(PatchRead {
        file: input,
        stdin: stdin.map(str::to_string),
        strips,
        chdir,
        prefix: None,
        base: sink.job.dir.clone(),
        words: args.to_vec(),
        backup,
    }));
}

/// `git apply` and `git am` write the files of the patches they are given (their operands, or
/// stdin); `git apply --check`/`--stat`/… only read, `--cached` writes only the index.
pub(super) fn git_patch(sub: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut files = Vec::new();
    let (mut strips, mut prefix, mut reads_only, mut applies) = (Vec::new(), None, false, false);
    let long = ["directory", "exclude", "include", "whitespace", "build-fake-ancestor", "patch-format", "resolvemsg"];
    let flags = [
        "check",
        "stat",
        "numstat",
        "summary",
        "cached",
        "apply",
        "index",
        "abort",
        "quit",
        "skip",
        "continue",
        "show-current-patch",
        "resolved",
    ];
    options(args, &spec("pC", &long).flags(&flags), |item| match item {
        Item::Short('p', level) => strips.extend(level.text.parse::<usize>().ok()),
        Item::Long("directory", Some(dir)) => prefix = Some(dir),
        Item::Long("check" | "stat" | "numstat" | "summary" | "cached", None) if sub == "apply" => reads_only = true,
        Item::Long("apply" | "index", None) => applies = true,
        Item::Long("abort" | "quit" | "skip" | "continue" | "show-current-patch" | "resolved", _) if sub == "am" => {
            reads_only = true
        }
        Item::Operand(arg) => files.push(arg.clone()),
        _ => {}
    });
    if reads_only && !applies {
        return;
    }
    let template = PatchRead {
        file: None,
        stdin: stdin.map(str::to_string),
        strips: if strips.is_empty() { vec![1] } else { strips },
        chdir: None,
        prefix,
        base: sink.job.dir.clone(),
        words: args.to_vec(),
        backup: BackupName::default(),
    };
    if files.is_empty() {
        sink.push(Effect::Patch(template));
        return;
    }
    for file in files {
        // `-` is standard input.
        let read = if file.text == "-" && !file.dynamic {
            template.clone()
        } else {
            PatchRead { file: Some(file), stdin: None, ..template.clone() }
        };
        sink.push(Effect::Patch(read));
    }
}
