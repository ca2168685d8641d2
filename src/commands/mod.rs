//! The table of commands: what a command does to files, read from its words once its shell has
//! expanded them, as data ([`Effect`]s) shared by every shell that runs programs by name.
//!
//! A command is a row: [`wrappers`] run the command after their options, [`writers`] write their
//! operands or option values, [`copies`] copy, move and link, [`runners`] hand text to another
//! analysis, [`feeders`] and [`find`] run a command on what they are fed or find, [`viewers`] read
//! but run the pager or preprocessor they are given; [`git`], [`patches`], [`archives`],
//! [`downloads`], [`remote`] and [`editors`] read their own command lines; [`readonly`] lists the
//! commands known to write nothing, [`unknown`] judges the rest by the guarded locations their
//! words name, and [`approval`] holds the self-approval rule; [`cmd_exe`] holds `cmd.exe`'s own
//! commands. A command of a known shape is one row in one of these tables, and its lines in the
//! corpus.
//!
//! Paths stay as typed; a wrapper that changes directory (`git -C`, `env -C`, `sudo -D`) prefixes
//! them. This layer knows nothing of trees or directories on disk, nor of the analyses above it:
//! text for a shell, PowerShell or another language comes back as an effect for the caller to
//! judge.

mod approval;
mod archives;
mod argv;
pub mod cmd_exe;
mod copies;
mod downloads;
mod editors;
mod effects;
mod feeders;
mod find;
mod git;
mod index;
mod options;
mod patches;
pub mod pwsh_host;
mod readonly;
mod remote;
mod runners;
mod sink;
mod unknown;
mod viewers;
mod wrappers;
mod writers;

pub use argv::{Arg, ansi_c, has_wildcard};
pub use effects::{BASENAME_STRIP, BackupName, Cd, Effect, Environment, PatchRead, Variable, WorkTree, Written};
pub use feeders::fed_words;
pub use git::HOOKS;
use options::{Item, operands, options, spec, static_is};
pub use runners::makefile_shell;
use sink::{Job, Next, Sink};
pub use viewers::variable_command_lines;

use crate::analysis::handoff::Analyses;
use crate::paths;

/// Commands a line may run beyond one per word (`find -exec` synthesizes `rm {}` for `-delete`).
const MAX_EXTRA_JOBS: usize = 64;

/// The last component of a command word: `/usr/bin/rm` is `rm`.
pub fn command_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// `text` as one single-quoted shell word.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The effects of one simple command; `stdin` is the text of its heredoc or here-string.
pub fn analyze(argv: &[Arg], stdin: Option<&str>, analyses: &dyn Analyses, out: &mut Vec<Effect>) {
    analyze_fed(argv, stdin, &[], &Environment::default(), Written::default(), analyses, out);
}

/// [`analyze`] for a command piped from a producer whose output is unknown: the guarded locations
/// the producer's words name count as what it may feed (`ls plans/*.md | xargs rm`), run with
/// the `environment` its assignments make (`NODE_OPTIONS=… node x.js`), reading the files the line
/// `written` with the text it showed.
pub fn analyze_fed(
    argv: &[Arg],
    stdin: Option<&str>,
    producer: &[Arg],
    environment: &Environment,
    written: Written<'_>,
    analyses: &dyn Analyses,
    out: &mut Vec<Effect>,
) {
    let mut jobs = vec![Job { producer, environment: environment.clone(), written, ..Job::of(argv) }];
    // Every hop consumes at least the wrapper's name; the cap only guards against a table bug.
    let mut hops = 0;
    while let Some(job) = jobs.pop() {
        hops += 1;
        if hops > argv.len() + MAX_EXTRA_JOBS {
            break;
        }
        let mut sink = Sink { job: &job, out: &mut *out, analyses: Some(analyses) };
        let stdin = stdin.filter(|_| job.reads_input);
        if let Some(next) = run(&job.args, stdin, &mut sink) {
            jobs.extend(next.into_iter().map(|next| next.into_job(&job)));
        }
    }
}

/// The `echo` or `printf` a command runs, looked for through the wrappers that run it
/// (`sudo echo … | sh`): its words, its name without a directory, for the caller to print.
pub fn printing_command(argv: &[Arg]) -> Option<Vec<Arg>> {
    let mut ignored = Vec::new();
    let mut jobs = vec![Job { reads_input: false, ..Job::of(argv) }];
    for _ in 0..argv.len() + MAX_EXTRA_JOBS {
        let job = jobs.pop()?;
        let named = job.args.first().filter(|name| !name.dynamic).map(|name| command_name(&name.text));
        if matches!(named, Some("echo" | "printf")) {
            let mut words = job.args.to_vec();
            if let Some(first) = words.first_mut() {
                first.text = named.unwrap_or_default().to_string();
            }
            return Some(words);
        }
        let mut sink = Sink { job: &job, out: &mut ignored, analyses: None };
        if let Some(next) = run(&job.args, None, &mut sink) {
            jobs.extend(next.into_iter().map(|next| next.into_job(&job)));
        }
    }
    None
}

/// Whether a command acts on what it reads on its standard input: runs it as commands (`… | sed
/// e`), or writes the paths it holds (`git checkout --pathspec-from-file=-`). Its walk then needs
/// that text, from a pipe or a `<` file.
pub fn runs_its_input(argv: &[Arg]) -> bool {
    let Some((name, rest)) = argv.split_first() else { return false };
    if !name.dynamic && command_name(&name.text) == "git" {
        return git::pathspecs_on_input(rest);
    }
    if name.dynamic || !matches!(command_name(&name.text), "sed" | "gsed") {
        return false;
    }
    let job = Job::of(argv);
    let mut ignored = Vec::new();
    editors::sed_runs_its_input(rest, &mut Sink { job: &job, out: &mut ignored, analyses: None })
}

/// Analyzes one command; returns the commands it runs in turn, if any.
fn run(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let first = args.first()?;
    if first.dynamic || first.pipe {
        // `$cli approve …`: a command whose name is not known that asks to approve (P-11).
        if first.dynamic && static_is(args.get(1), "approve") {
            sink.write_text(paths::APPROVAL_FILE);
        }
        return None;
    }
    let rest = args.get(1..).unwrap_or_default();
    let name = command_name(&first.text);
    if approval::is_cli(name) {
        approval::cli(rest, sink);
        return None;
    }
    if !first.text.contains('/') && !BUILTINS.contains(&name) {
        sink.run_found(name, rest);
        if names_rebound(&sink.job.environment) {
            if name == "git" {
                git::subcommand_program(rest, sink);
            }
            unknown::unlisted(name, rest, stdin, sink);
            return None;
        }
    }
    if sink.analyses.is_some_and(|analyses| analyses.runs_programs(name)) {
        runners::program(args, stdin, sink);
        return None;
    }
    if first.text.contains('/') && !runners::runs_a_script_file(&first.text) {
        // A program the line may have written there itself (`/tmp/foo`).
        sink.runs_found(vec![first.clone()], rest);
    }
    if runners::runs_a_script_file(&first.text) {
        // The walk reads it, or judges it by its arguments when it cannot; a path the walk could
        // not compute is judged below as an unknown command.
        sink.run_file(first, false, true, rest);
        if !first.dynamic && !first.pipe {
            return None;
        }
    }
    match index::row(name) {
        Some(index::Row::Wrapper(wrapper)) => return wrapper.run(rest, sink),
        Some(index::Row::Coded(coded)) => return (coded.run)(rest, stdin, sink),
        Some(index::Row::Writer(writer)) => {
            writer.run(rest, sink);
            return None;
        }
        Some(index::Row::Copy(copy)) => {
            copy.run(rest, sink);
            return None;
        }
        Some(index::Row::Viewer(viewer)) => {
            viewer.run(name, rest, stdin, sink);
            return None;
        }
        None => {}
    }
    match name {
        "xargs" => return feeders::xargs(rest, stdin, sink),
        "parallel" => return feeders::parallel(rest, stdin, sink),
        "find" => return find::find(rest, stdin, sink),
        "rsync" => copies::rsync(rest, sink),
        "git" => return git::git(rest, stdin, sink),
        "trap" => runners::trap(rest, sink),
        "make" | "gmake" => runners::make(rest, stdin, sink),
        "." | "source" => runners::source(rest, stdin, sink),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish" | "csh" | "tcsh" => {
            runners::shell(rest, stdin, sink)
        }
        _ if pwsh_host::is_powershell(name) => runners::powershell(rest, stdin, sink),
        "eval" => runners::eval(rest, sink),
        "cd" | "pushd" | "popd" | "dirs" => change_directory(name, rest, sink),
        "read" | "mapfile" | "readarray" => forget(name, rest, stdin, sink),
        "sed" | "gsed" => editors::sed(rest, stdin, sink),
        "patch" => patches::patch_command(rest, stdin, sink),
        "curl" => downloads::curl(rest, stdin, sink),
        "ssh" => remote::ssh(rest, stdin, sink),
        "scp" => remote::scp(rest, stdin, sink),
        "wget" => downloads::wget(rest, stdin, sink),
        "tar" | "gtar" | "bsdtar" => archives::tar(rest, sink),
        "unzip" => archives::unzip(rest, sink),
        "zip" => archives::zip(rest, stdin, sink),
        "7z" | "7za" | "7zr" | "7zz" => archives::seven_zip(rest, sink),
        "cpio" => archives::cpio(rest, sink),
        _ => unknown::analyze(name, rest, stdin, sink),
    }
    None
}

/// bash's builtins, which it runs whatever `PATH` says.
const BUILTINS: [&str; 61] = [
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// Whether a command looked up by name may be another program than its name says: the `PATH` it
/// runs with is neither the inherited one, nor that with folders added after it (`$PATH:…`, which
/// finds every command the inherited one did first), nor the system's folders, alone or before it
/// (`PATH=/bin`, `/usr/bin:$PATH`).
fn names_rebound(environment: &Environment) -> bool {
    match environment.variable("PATH") {
        Variable::Set(path) => path_rebinds(&path.text, path.dynamic),
        Variable::Shell | Variable::Unset => false,
    }
}

/// Whether a `PATH` of `text` (`dynamic` when part of it is uncomputed) may find another program
/// under a command's name than the inherited `PATH` finds ([`names_rebound`]).
pub fn path_rebinds(text: &str, dynamic: bool) -> bool {
    for folder in text.split(':') {
        // Folders after the inherited ones find only what those did not.
        if dynamic && matches!(folder, "$PATH" | "${PATH}") {
            return false;
        }
        if !SYSTEM_FOLDERS.contains(&folder.trim_end_matches('/')) {
            return true;
        }
    }
    false
}

/// The folders a command looked up by name is searched in, in order, when the line set `PATH`:
/// its inherited part (`$PATH`) stands for the system's folders, an empty one for the directory
/// the command runs in, and one holding a value the walk could not compute is uncomputed.
fn path_folders(environment: &Environment) -> Option<Vec<Arg>> {
    let Variable::Set(path) = environment.variable("PATH") else { return None };
    let mut folders = Vec::new();
    for folder in path.text.split(':') {
        match folder {
            "$PATH" | "${PATH}" if path.dynamic => folders.extend(SYSTEM_FOLDERS.map(Arg::literal)),
            "" => folders.push(Arg::literal(".")),
            _ => {
                let uncomputed = path.dynamic && folder.contains(['$', '`', '\u{1}']);
                folders.push(Arg { dynamic: uncomputed, ..Arg::part_of(folder, path) });
            }
        }
    }
    Some(folders)
}

/// The folders the system keeps its programs in.
const SYSTEM_FOLDERS: [&str; 6] = ["/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"];

/// `cd`, `pushd`, `popd`, `dirs`: where the shell goes, and whether its stack is still the one
/// the walk keeps.
fn change_directory(name: &str, args: &[Arg], sink: &mut Sink) {
    let stack_option = |arg: &Arg| arg.dynamic || (arg.text.len() > 1 && arg.text.starts_with(['-', '+']));
    if name != "cd" && args.iter().any(stack_option) {
        sink.push(Effect::Cd(Cd::ForgetStack));
    }
    let targets = operands(args, &spec("", &[]));
    let cd = match (name, targets.first()) {
        ("cd", None) => Cd::Home,
        ("cd", Some(arg)) if static_is(Some(arg), "-") => Cd::Back,
        ("cd", Some(arg)) => Cd::To((*arg).clone()),
        ("pushd", None) => Cd::Push(None),
        // `pushd +1`, `pushd -0`: a rotation of the stack.
        ("pushd", Some(arg)) if !arg.dynamic && (arg.text.starts_with('+') || arg.text.starts_with('-')) => return,
        ("pushd", Some(arg)) => Cd::Push(Some((*arg).clone())),
        ("popd", None) => Cd::Pop,
        _ => return,
    };
    sink.push(Effect::Cd(cd));
}

/// `read`, `mapfile`: the variables given values the walk cannot know.
fn forget(name: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    if name == "read" {
        let names = operands(args, &spec("adinNptu", &[]));
        if names.is_empty() {
            sink.push(Effect::Forget("REPLY".to_string()));
        }
        for name in names {
            sink.push(Effect::Forget(name.text.clone()));
        }
        return;
    }
    let names = operands(args, &spec("dnOsuCc", &[]));
    sink.push(Effect::Forget(names.last().map_or_else(|| "MAPFILE".to_string(), |n| n.text.clone())));
    let mut callback = None;
    options(args, &spec("dnOsuCc", &[]), |item| {
        if let Item::Short('C', value) = item {
            callback = Some(value);
        }
    });
    if let Some(callback) = callback {
        mapfile_callback(&callback.text, stdin, sink);
    }
}

/// `mapfile -C callback`: bash evaluates `callback index line` as it reads the lines (every `-c`
/// lines; each line is taken, whatever the quantum): each line the walk sees, or one it could
/// not compute.
fn mapfile_callback(callback: &str, stdin: Option<&str>, sink: &mut Sink) {
    let lines: Vec<&str> = stdin.map(|text| text.lines().collect()).unwrap_or_default();
    if stdin.is_none() || lines.len() > MAX_CALLBACK_LINES {
        sink.push(Effect::Eval(format!("{callback} 0 \"${{{UNKNOWN_LINE}}}\"")));
        return;
    }
    for (index, line) in lines.iter().enumerate() {
        sink.push(Effect::Eval(format!("{callback} {index} {}", quote(line))));
    }
}

/// The most lines of known input `mapfile`'s callback is judged with one by one.
const MAX_CALLBACK_LINES: usize = 64;

/// A variable no line sets, standing for a line the walk could not read.
const UNKNOWN_LINE: &str = "__approval_gates_unknown_line";

#[cfg(test)]
mod tests {
    use crate::paths::glob_matches;

    #[test]
    fn globs() {
        for (pattern, name) in [
            ("*", "approval.md"),
            ("*.md", "approval.md"),
            ("appr*", "Approval.MD"),
            ("?pproval.md", "approval.md"),
            ("[ab]pproval.md", "approval.md"),
            ("[!x]*", "approval.md"),
            ("a*l.m?", "approval.md"),
            ("**", "x"),
        ] {
            assert!(glob_matches(pattern, name), "{pattern} {name}");
        }
        for (pattern, name) in [
            ("*.txt", "approval.md"),
            ("b*", "approval.md"),
            ("[!a]*", "approval.md"),
            ("approval.md?", "approval.md"),
            ("[", "a"),
        ] {
            assert!(!glob_matches(pattern, name), "{pattern} {name}");
        }
    }

    #[test]
    fn package_specs() {
        use super::approval::package_bin;
        assert_eq!(package_bin("approval-gates@0.1.0"), "approval-gates");
        assert_eq!(package_bin("@scope/approval-gates@1"), "approval-gates");
        assert_eq!(package_bin("./node_modules/.bin/approval-gates"), "approval-gates");
    }
}
