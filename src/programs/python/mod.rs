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
use super::{Cli, Findings, Invocation, Language, parse_cli};
use crate::analysis::handoff::Source;
use crate::paths::{self, Dialect};

pub fn analyze(text: &str) -> Findings {
    tree::analyze(text)
}

const CLI: Cli = Cli { inline: &["-c"], file: &[], valued: &["-W", "-X", "--check-hash-based-pycs"], module: &["-m"] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let (source, rest) = parse_cli(args, &CLI, stdin);
    let ModuleWrites { files: writes, trees } = match (&source, module_of(args)) {
        (Source::Nothing, Some(module)) => module_writes(&module, &rest),
        _ => ModuleWrites::default(),
    };
    // What `-i` reads runs after the program; the order does not matter to the analysis.
    let more = stdin.filter(|stdin| interactive(args) && source != Source::Text(stdin.to_string()));
    let prelude = more.map(|more| format!("{more}\n")).unwrap_or_default();
    Invocation { writes, trees, prelude, ..Invocation::new(Language::Python, source, rest) }
}

/// Whether `-i` is among the options: after its program, python reads more from standard input
/// and runs it, a terminal or not.
fn interactive(args: &[String]) -> bool {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg == "--check-hash-based-pycs" {
            words.next();
            continue;
        }
        let Some(cluster) = arg.strip_prefix('-').filter(|cluster| !cluster.is_empty() && !cluster.starts_with('-'))
        else {
            return false;
        };
        for (at, letter) in cluster.char_indices() {
            match letter {
                'i' => return true,
                'c' | 'm' => return false,
                'W' | 'X' => {
                    if at + 1 == cluster.len() {
                        words.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    false
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
