//! Python, read by its real grammar (tree-sitter-python): `open`/pathlib/`os`/`shutil` writes,
//! archives extracted, log files, `subprocess`/`os.system` command lines; imports and their
//! aliases, names bound once, strings joined by `+`, f-strings, `%`, `.format`, `os.path.join`,
//! pathlib's `/` and `joinpath`, and the environment the program sets ([`tree`]). The calls
//! are data ([`tables`]): a call in neither a writer's nor the read-only table is unproven.
//!
//! `python3 -m module args` runs no program text; the modules whose command line writes
//! (`json.tool in out`, `zipfile -e zip dir`) say what they write, and an unknown module counts
//! every guarded argument as written.

mod tables;
mod tree;

use self::tables::{MODULES, ModuleCli};
use super::{Cli, Findings, Invocation, Language, Place, parse_cli};
use crate::analysis::handoff::Source;
use crate::paths::{self, Dialect};

pub fn analyze(text: &str, place: Place) -> Findings {
    tree::analyze(text, place)
}

const CLI: Cli = Cli { inline: &["-c"], file: &[], valued: &["-W", "-X", "--check-hash-based-pycs"], module: &["-m"] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let (mut source, rest) = parse_cli(args, &CLI, stdin);
    let ModuleWrites { files: writes, mut trees } = match (&source, module_of(args)) {
        (Source::Nothing, Some(module)) => module_writes(&module, &rest),
        _ => ModuleWrites::default(),
    };
    let options = options(args);
    // Compiled modules go under the prefix, in folders named after their sources' paths.
    trees.extend(options.pycache_prefix);
    let mut prelude = String::new();
    if options.interactive
        && let Some(more) = stdin
    {
        match &mut source {
            Source::Text(text) if options.inline => {
                text.push('\n');
                text.push_str(more);
            }
            // Run before the script here: the order of a `chdir` across the two is lost.
            Source::File(_) => prelude = format!("{more}\n"),
            _ => {}
        }
    }
    Invocation { writes, trees, prelude, ..Invocation::new(Language::Python, source, rest) }
}

/// What Python's own options do besides naming the program.
#[derive(Default)]
struct Options {
    /// `-i`: standard input is more program, run once the rest has run.
    interactive: bool,
    /// `-c`: the program is inline.
    inline: bool,
    /// `-X pycache_prefix=DIR`: compiled modules are written under DIR.
    pycache_prefix: Option<String>,
}

/// Python's options up to the program (`-c` and `-m` end them): clusters (`-ic`, `-Bi`) and
/// values attached or not (`-Xpycache_prefix=d`, `-X pycache_prefix=d`).
fn options(args: &[String]) -> Options {
    let mut options = Options::default();
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-') && *arg != "-" && *arg != "--") {
        at += 1;
        if arg.starts_with("--") {
            at += usize::from(CLI.valued.contains(&arg.as_str()));
            continue;
        }
        for (offset, letter) in arg.char_indices().skip(1) {
            match letter {
                'i' => options.interactive = true,
                'c' => {
                    options.inline = true;
                    return options;
                }
                'm' => return options,
                'W' | 'X' => {
                    let attached = arg.get(offset + 1..).unwrap_or_default();
                    let value = if attached.is_empty() {
                        at += 1;
                        args.get(at - 1).map_or("", String::as_str)
                    } else {
                        attached
                    };
                    if letter == 'X'
                        && let Some(dir) = value.strip_prefix("pycache_prefix=")
                    {
                        options.pycache_prefix = Some(dir.to_string());
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    options
}

/// The module `-m` names (`-m json.tool`, `-mjson.tool`, `-um json.tool`), when the options
/// reach one.
fn module_of(args: &[String]) -> Option<String> {
    let at = args.iter().position(|arg| !arg.starts_with("--") && arg.starts_with('-') && arg.contains('m'))?;
    let arg = args.get(at)?;
    let (_, attached) = arg.split_once('m')?;
    if attached.is_empty() { args.get(at + 1).cloned() } else { Some(attached.to_string()) }
}

/// What a module's command line writes: files, and directories it fills (a tree each).
#[derive(Default)]
struct ModuleWrites {
    files: Vec<String>,
    trees: Vec<String>,
}

impl ModuleWrites {
    fn files(files: Vec<String>) -> Self {
        ModuleWrites { files, trees: Vec::new() }
    }

    fn trees(trees: Vec<String>) -> Self {
        ModuleWrites { files: Vec::new(), trees }
    }
}

/// What `python3 -m module args` writes: the operands its command line writes, or for a module
/// this table does not know, every argument that names a guarded location, as a tree (it may
/// write anything there).
fn module_writes(module: &str, args: &[String]) -> ModuleWrites {
    match MODULES.iter().find(|(name, _)| *name == module).map(|(_, cli)| *cli) {
        Some(ModuleCli::JsonTool) => json_tool_writes(args),
        Some(ModuleCli::Archive) => archive_writes(args),
        Some(ModuleCli::ReadOnly) => ModuleWrites::default(),
        None => ModuleWrites::trees(guarded(args)),
    }
}

/// `json.tool [options] [infile [outfile]]`: the second operand.
fn json_tool_writes(args: &[String]) -> ModuleWrites {
    let mut operands = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--indent" => {
                rest.next();
            }
            "--sort-keys" | "--no-ensure-ascii" | "--json-lines" | "--compact" | "--tab" | "--no-indent" => {}
            option if option.starts_with("--indent=") => {}
            option if option.starts_with('-') && option != "-" => return ModuleWrites::trees(guarded(args)),
            operand => operands.push(operand.to_string()),
        }
    }
    ModuleWrites::files(operands.into_iter().nth(1).into_iter().collect())
}

/// `zipfile`/`tarfile`: `-e archive [dir]` writes the tree at dir (the current directory by
/// default), `-c archive files…` writes the archive, `-l`/`-t` only read.
fn archive_writes(args: &[String]) -> ModuleWrites {
    let operands: Vec<&String> = args.iter().filter(|arg| !arg.starts_with('-')).collect();
    let has = |options: &[&str]| args.iter().any(|arg| options.contains(&arg.as_str()));
    if has(&["-e", "--extract"]) {
        return ModuleWrites::trees(vec![operands.get(1).map_or_else(|| ".".to_string(), |dir| (*dir).clone())]);
    }
    if has(&["-c", "--create"]) {
        return ModuleWrites::files(operands.first().map(|archive| vec![(*archive).clone()]).unwrap_or_default());
    }
    let listing = ["-l", "--list", "-t", "--test", "-v", "--verbose"];
    if args.iter().all(|arg| !arg.starts_with('-') || listing.contains(&arg.as_str())) {
        return ModuleWrites::default();
    }
    ModuleWrites::trees(guarded(args))
}

fn guarded(args: &[String]) -> Vec<String> {
    args.iter().filter(|arg| paths::names_guarded(arg, Dialect::Program)).cloned().collect()
}

#[cfg(test)]
mod tests;
