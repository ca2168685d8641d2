//! Commands that run text or a file as a program: shells (`bash -c`, `sh x.sh`, a heredoc fed
//! to `sh`), `source`, `eval`, `trap`, PowerShell hosts and the interpreters of other languages.
//! The text goes back to the caller as an effect, for its own analysis of that language.

use super::approval::{approval_through_cli, cli, is_cli};
use super::editors::perl;
use super::options::{Spec, operands, spec, static_is};
use super::pwsh_host;
use super::sink::Sink;
use super::{Arg, Effect, command_name};
use crate::analysis::handoff::Source;

/// `trap 'action' SIGNAL`: the action runs later, in this shell.
pub(super) fn trap(args: &[Arg], sink: &mut Sink) {
    let actions = operands(args, &spec("", &[]));
    if let [action, _signal, ..] = actions.as_slice()
        && !static_is(Some(action), "-")
    {
        sink.script(&action.text);
    }
}

/// `eval words…`: the words, joined, run by this shell.
pub(super) fn eval(args: &[Arg], sink: &mut Sink) {
    let text: Vec<&str> = args.iter().map(|arg| arg.text.as_str()).collect();
    sink.push(Effect::Eval(text.join(" ")));
}

/// `pwsh -c …`, `powershell -EncodedCommand …`: the script the host runs.
pub(super) fn powershell(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let words: Vec<String> = args.iter().map(|arg| arg.text.clone()).collect();
    if let Some(script) = pwsh_host::invoked_script(&words, stdin) {
        sink.push(Effect::PowerShell(script));
    }
}

/// An interpreter's program, and the CLI run by `node path/to/approval-gates.mjs …`.
pub(super) fn program(argv: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let texts: Vec<String> = argv.iter().map(|arg| arg.text.clone()).collect();
    let name = argv.first().map_or("", |first| command_name(&first.text));
    if matches!(name, "node" | "nodejs")
        && let Some(Source::File(script)) =
            sink.analyses.and_then(|analyses| analyses.program_run(&texts, stdin)).map(|run| run.source)
        && is_cli(command_name(&script))
    {
        let at = argv.iter().position(|arg| arg.text == script).unwrap_or(argv.len());
        cli(argv.get(at + 1..).unwrap_or_default(), sink);
        return;
    }
    // P-11: the CLI's name followed by `approve` among a program's words or stdin.
    approval_through_cli(argv.get(1..).unwrap_or_default(), stdin, sink);
    if name.starts_with("perl") {
        perl(argv.get(1..).unwrap_or_default(), sink);
    }
    let dir = sink.job.dir.clone();
    let uncomputed = argv.iter().any(|arg| arg.dynamic && !arg.pipe);
    let environment = sink.job.environment.clone();
    sink.push(Effect::Program { argv: texts, stdin: stdin.map(str::to_string), dir, uncomputed, environment });
}

/// A command spelled as a path to a file of this tree (`./x.sh`, `tools/gen`, `/tmp/x.py`): the
/// walk reads its `#!` line. System programs (`/usr/bin/…`) are left to the table.
pub(super) fn runs_a_script_file(word: &str) -> bool {
    if !word.contains('/') {
        return false;
    }
    if !word.starts_with('/') {
        return true;
    }
    let system = ["/usr/", "/bin/", "/sbin/", "/opt/", "/nix/", "/snap/"].iter().any(|dir| word.starts_with(dir));
    !system && word.rsplit('/').next().is_some_and(|name| name.contains('.'))
}

/// `bash -c 'script'`, `sh -lc "…"`, and a shell reading its script from a heredoc.
pub(super) fn shell(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut command: Option<Arg> = None;
    let mut command_mode = false;
    let mut stdin_mode = false;
    let mut startup = Startup::default();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let text = arg.text.as_str();
        if arg.dynamic || !(text.starts_with('-') || text.starts_with('+')) || text == "-" {
            break;
        }
        at += 1;
        if text == "--" {
            break;
        }
        if text.starts_with("--") {
            match text {
                "--rcfile" | "--init-file" => {
                    startup.rcfile = args.get(at).cloned();
                    at += 1;
                }
                "--init-command" => at += 1,
                "--norc" => startup.no_rc = true,
                "--noprofile" => startup.no_profile = true,
                "--login" => startup.login = true,
                "--interactive" => startup.interactive = true,
                // fish: `--command 'cmd'`, `--command='cmd'`.
                "--command" => command_mode = true,
                _ => {
                    if let Some(script) = text.strip_prefix("--command=") {
                        command = Some(Arg { text: script.to_string(), ..arg.clone() });
                    }
                }
            }
            continue;
        }
        let cluster = text.get(1..).unwrap_or_default();
        command_mode |= text.starts_with('-') && cluster.contains('c');
        stdin_mode |= text.starts_with('-') && cluster.contains('s');
        startup.interactive |= text.starts_with('-') && cluster.contains('i');
        startup.login |= text.starts_with('-') && cluster.contains('l');
        // `-o pipefail`, `-O extglob` take the next word.
        at += cluster.chars().filter(|c| matches!(c, 'o' | 'O')).count();
    }
    startup.run(sink);
    let operand = args.get(at);
    let rest = args.get(at + 1..).unwrap_or_default();
    if let Some(script) = command.as_ref().or_else(|| command_mode.then_some(operand).flatten()) {
        // `bash -c 'script' arg0 arg1`: the words after the script are `$0`, `$1`, …
        let words = if command.is_some() { args.get(at..).unwrap_or_default() } else { rest };
        sink.run(&script.text, words.to_vec());
    } else if let Some(file) = operand.filter(|file| file.pipe && !file.dynamic) {
        // `bash <(echo …)`: the script is what the substitution prints.
        sink.run(&file.text, std::iter::once(Arg::literal("bash")).chain(rest.iter().cloned()).collect());
    } else if let Some(file) = operand.filter(|file| !stdin_mode && !static_is(Some(file), "-") && !is_stdin_path(file))
    {
        // `bash x.sh`: the walk reads the file.
        sink.run_file(file, false, false, rest);
    } else if let Some(stdin) = stdin {
        let zero = Arg::literal("bash");
        if stdin_mode {
            let positional = std::iter::once(zero).chain(args.get(at..).unwrap_or_default().iter().cloned());
            sink.run(stdin, positional.collect());
        } else if operand.is_none() || static_is(operand, "-") || operand.is_some_and(is_stdin_path) {
            sink.run(stdin, std::iter::once(zero).chain(rest.iter().cloned()).collect());
        }
    }
}

/// The files an interactive or login shell reads before its commands (`bash -ic`, `bash -l`): an
/// rc file the line wrote runs then (P-18). Read where `HOME` says, as `~` is.
#[derive(Default)]
struct Startup {
    interactive: bool,
    login: bool,
    no_rc: bool,
    no_profile: bool,
    rcfile: Option<Arg>,
}

impl Startup {
    fn run(&self, sink: &mut Sink) {
        let home = std::env::var("HOME").ok().filter(|home| home.starts_with('/'));
        let in_home =
            |name: &str| home.as_ref().map(|home| Arg::literal(&format!("{}/{name}", home.trim_end_matches('/'))));
        let mut files = Vec::new();
        if self.interactive && !self.no_rc {
            files.extend(self.rcfile.clone().or_else(|| in_home(".bashrc")));
        }
        if self.login && !self.no_profile {
            files.extend([".bash_profile", ".bash_login", ".profile"].into_iter().filter_map(in_home));
        }
        for file in &files {
            sink.run_file(file, false, false, &[]);
        }
    }
}

/// The names standard input goes by as a file.
pub(super) fn is_stdin_path(arg: &Arg) -> bool {
    !arg.dynamic && matches!(arg.text.as_str(), "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// `. /dev/stdin`, `source <(echo …)`: a script this shell reads, from its input or a
/// substitution whose output is known.
pub(super) fn source(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let Some(file) = args.first() else { return };
    if file.pipe && !file.dynamic {
        sink.push(Effect::Eval(file.text.clone()));
    } else if is_stdin_path(file) {
        if let Some(stdin) = stdin {
            sink.push(Effect::Eval(stdin.to_string()));
        }
    } else {
        // `source x.sh`: the walk reads the file; its `cd` counts afterwards.
        sink.run_file(file, true, false, args.get(1..).unwrap_or_default());
    }
}

/// `make -f -` reading its makefile from a heredoc or here-string: the shell text it runs
/// ([`makefile_shell`]) is judged as that script (P-18). The rest is judged as an unknown command.
pub(super) fn make(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let args = &spelled_whole(args, &MAKE);
    // `-f -`; tree-sitter-bash leaves the `-` before a heredoc out of the command's words.
    let from_stdin = args.iter().enumerate().any(|(at, arg)| {
        matches!(arg.text.as_str(), "-f" | "--file" | "--makefile")
            && args.get(at + 1).is_none_or(|file| file.text == "-" || file.text == "/dev/stdin")
    }) || args.iter().any(|arg| matches!(arg.text.as_str(), "-f-" | "--file=-" | "--makefile=-"));
    let script = stdin.filter(|_| from_stdin).and_then(makefile_shell);
    if let Some(script) = &script {
        sink.script_of_input(script);
    }
    let (files, dir) = makefiles(args);
    for file in files {
        sink.push(Effect::Makefile { file, dir: dir.clone() });
    }
    // A makefile read on stdin is judged as the script it runs, not as words naming paths.
    super::unknown::analyze("make", args, stdin.filter(|_| script.is_none()), sink);
}

/// make's long options that name its makefiles and where it runs.
const MAKE: Spec<'static> = spec("fC", &["file", "makefile", "directory"]);

/// `args` with each long option `spec` knows by its whole name (`--fi=m` is `--file=m`; an
/// ambiguous prefix, which the tool refuses, is the first it may be).
fn spelled_whole(args: &[Arg], spec: &Spec<'_>) -> Vec<Arg> {
    let whole = |arg: &Arg| {
        let long = arg.text.strip_prefix("--").filter(|long| !long.is_empty() && !arg.dynamic)?;
        let (typed, value) = long.split_once('=').map_or((long, None), |(name, value)| (name, Some(value)));
        let name = spec.long_names(typed).next()?;
        let text = value.map_or_else(|| format!("--{name}"), |value| format!("--{name}={value}"));
        Some(Arg { text, ..arg.clone() })
    };
    args.iter().map(|arg| whole(arg).unwrap_or_else(|| arg.clone())).collect()
}

/// The makefiles `make` reads from files (each `-f FILE`, else the default names, in the `-C`
/// directory when one is given), and that directory.
fn makefiles(args: &[Arg]) -> (Vec<Arg>, Option<Arg>) {
    let mut given = Vec::new();
    let mut dir: Option<Arg> = None;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let attached = ["--file=", "--makefile="].iter().find_map(|option| arg.text.strip_prefix(option));
        let file = match arg.text.as_str() {
            "-f" | "--file" | "--makefile" => words.next().cloned(),
            "-C" | "--directory" => {
                dir = words.next().cloned();
                continue;
            }
            text if text.starts_with("-f") && text.len() > 2 && !text.starts_with("-f-") => {
                Some(Arg { text: text[2..].to_string(), ..arg.clone() })
            }
            _ => attached.map(|file| Arg { text: file.to_string(), ..arg.clone() }),
        };
        given.extend(file.filter(|file| file.text != "-" && file.text != "/dev/stdin"));
    }
    if given.is_empty() {
        given = ["GNUmakefile", "makefile", "Makefile"].iter().map(|name| Arg::literal(name)).collect();
    }
    let files = match &dir {
        Some(dir) => given
            .into_iter()
            .map(|file| {
                let text = format!("{}/{}", dir.text.trim_end_matches('/'), file.text);
                Arg { text, dynamic: dir.dynamic || file.dynamic, ..file }
            })
            .collect(),
        None => given,
    };
    (files, dir)
}

/// The shell text a makefile runs, as one script: its recipes (a line with a tab first, or after
/// a rule's `;`, with `@`/`-`/`+` dropped), and the commands its other lines run while make reads them (`$(shell …)`,
/// `VAR != …`); `None` without any.
pub fn makefile_shell(makefile: &str) -> Option<String> {
    let mut script: Vec<&str> = Vec::new();
    for line in makefile.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            script.push(recipe.trim_start_matches(['@', '-', '+']));
            continue;
        }
        shell_calls(line, &mut script);
        // `all: ; cmd`: a rule's recipe may follow it on its line.
        if let Some((rule, after)) = line.split_once(':')
            && !rule.contains('=')
            && !after.starts_with(['=', ':'])
            && let Some((_, recipe)) = after.split_once(';')
        {
            script.push(recipe.trim_start().trim_start_matches(['@', '-', '+']));
        }
        if let Some((name, command)) = line.split_once("!=")
            && !name.contains(['=', '$', ':'])
        {
            script.push(command);
        }
    }
    (!script.is_empty()).then(|| script.join("\n"))
}

/// The commands of the `$(shell …)` and `${shell …}` calls in a makefile line, nested included.
fn shell_calls<'l>(line: &'l str, found: &mut Vec<&'l str>) {
    for (open, close) in [("$(shell", ')'), ("${shell", '}')] {
        let opening = if close == ')' { '(' } else { '{' };
        let mut rest = line;
        while let Some(at) = rest.find(open) {
            let body = &rest[at + open.len()..];
            if !body.starts_with(char::is_whitespace) {
                rest = body;
                continue;
            }
            let mut depth = 1usize;
            let end = body.char_indices().find_map(|(index, ch)| {
                if ch == opening {
                    depth += 1;
                } else if ch == close {
                    depth -= 1;
                }
                (depth == 0).then_some(index)
            });
            let command = &body[..end.unwrap_or(body.len())];
            found.push(command);
            shell_calls(command, found);
            rest = &body[end.map_or(body.len(), |end| end + 1)..];
        }
    }
}

/// `npm pkg set scripts.<name>=<command>`: the command a later `npm run <name>` runs, judged as
/// run now (P-18: deferred execution whose text the call carries).
pub(super) fn npm_scripts_set(args: &[Arg], sink: &mut Sink) {
    let words: Vec<&str> = args.iter().map(|arg| arg.text.as_str()).collect();
    if let ["pkg", "set", settings @ ..] = words.as_slice() {
        for setting in settings {
            if let Some((key, command)) = setting.split_once('=')
                && key.strip_prefix("scripts.").is_some_and(|name| !name.is_empty())
            {
                sink.script(command);
            }
        }
    }
}
