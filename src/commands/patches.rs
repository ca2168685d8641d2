//! Commands that apply patches (P-14): `patch` and `git apply`/`git am` write what their patches
//! name, which the caller reads; their options say where the patch comes from and how its paths
//! are placed.

use super::Arg;
use super::effects::{BASENAME_STRIP, Effect, PatchRead};
use super::options::{Item, options, spec};
use super::sink::Sink;

/// GNU `patch`: `-o` names what it writes instead; an original-file operand is what it writes;
/// otherwise every file the patch names, read from `-i` or stdin.
pub(super) fn patch_command(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut operands = Vec::new();
    let (mut input, mut chdir, mut strips, mut output, mut dry_run) = (None, None, Vec::new(), false, false);
    let long = ["output", "reject-file", "input", "directory", "strip", "prefix", "basename-prefix", "suffix"];
    options(args, &spec("BDdFgiopruVYz", &long), |item| match item {
        Item::Short('o', file) | Item::Long("output", Some(file)) => {
            output = true;
            sink.write(&file)
        }
        Item::Short('r', file) | Item::Long("reject-file", Some(file)) => sink.write(&file),
        Item::Short('i', file) | Item::Long("input", Some(file)) => input = Some(file),
        Item::Short('d', dir) | Item::Long("directory", Some(dir)) => chdir = Some(dir),
        Item::Short('p', level) | Item::Long("strip", Some(level)) => strips.extend(level.text.parse::<usize>().ok()),
        Item::Long("dry-run", None) => dry_run = true,
        Item::Operand(arg) => operands.push(arg),
        _ => {}
    });
    if dry_run {
        return;
    }
    if let Some(original) = operands.first() {
        sink.write(original);
    }
    if output || !operands.is_empty() {
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
    }));
}

/// `git apply` and `git am` write the files of the patches they are given (their operands, or
/// stdin); `git apply --check`/`--stat`/… only read, `--cached` writes only the index.
pub(super) fn git_patch(sub: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut files = Vec::new();
    let (mut strips, mut prefix, mut reads_only, mut applies) = (Vec::new(), None, false, false);
    let long = ["directory", "exclude", "include", "whitespace", "build-fake-ancestor", "patch-format", "resolvemsg"];
    options(args, &spec("pC", &long), |item| match item {
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
