//! Commands that run the command after their options: a row each for the plain ones (what they
//! write, where the command runs), code for those whose command is a string or comes elsewhere.

use super::approval::{is_cli, package_bin};
use super::effects::Environment;
use super::options::{Flags, Item, Spec, Valued, options, prefix_spec, spec, static_is, value_of};
use super::readonly::npm_reads;
use super::sink::{Next, Sink};
use super::{Arg, quote, unknown};

/// A command that runs the command after its options, and after [`Before`] operands.
pub(super) struct Wrapper {
    pub names: &'static [&'static str],
    /// Its options, which end at the first operand.
    pub options: Spec<'static>,
    /// Options whose value is a file the wrapper writes (`time -o`, `strace -o`).
    pub writes: Valued,
    /// Options whose value is where the command runs: the first of these groups given wins.
    pub chdir: &'static [Valued],
    pub before: Before,
}

/// What comes between a wrapper's options and the command it runs.
#[derive(Clone, Copy)]
pub(super) enum Before {
    Command,
    /// One word that is not a path (`timeout`'s duration).
    Word,
    /// The new root, where the command's paths start (`chroot`).
    Root,
}

const fn wrapper(names: &'static [&'static str], short: &'static str, long: &'static [&'static str]) -> Wrapper {
    Wrapper { names, options: prefix_spec(short, long), writes: Valued::NONE, chdir: &[], before: Before::Command }
}

const OUTPUT: Valued = Valued { short: "o", long: &["output"] };
const TRACER_LONG: &[&str] =
    &["output", "attach", "trace-path", "string-limit", "user", "env", "signal", "trace", "library"];

pub(super) const WRAPPERS: &[Wrapper] = &[
    wrapper(&["doas"], "uC", &[]),
    wrapper(&["builtin", "nohup", "busybox", "firejail", "setsid"], "", &[]),
    wrapper(&["exec"], "a", &[]),
    wrapper(&["nice"], "n", &["adjustment"]),
    wrapper(&["stdbuf"], "ioe", &["input", "output", "error"]),
    Wrapper { writes: OUTPUT, ..wrapper(&["time"], "of", &["output", "format"]) },
    Wrapper { before: Before::Word, ..wrapper(&["timeout"], "sk", &["signal", "kill-after"]) },
    Wrapper { before: Before::Root, ..wrapper(&["chroot"], "", &["userspec", "groups"]) },
    Wrapper { writes: OUTPUT, ..wrapper(&["strace"], "abeEIoOpPsSuUX", TRACER_LONG) },
    Wrapper { writes: OUTPUT, ..wrapper(&["ltrace"], "aADeFlnopsuwx", TRACER_LONG) },
    Wrapper { writes: Valued { short: "s", long: &[] }, ..wrapper(&["fakeroot"], "lsib", &["lib", "faked"]) },
    Wrapper {
        chdir: &[Valued { short: "w", long: &["cwd", "pwd"] }],
        ..wrapper(
            &["proot"],
            "rbmwqkvRS",
            &["rootfs", "bind", "mount", "cwd", "pwd", "qemu", "kernel-release", "verbose"],
        )
    },
    // `-w dir`, else `-R root`, is where its paths start.
    Wrapper {
        chdir: &[Valued { short: "w", long: &["wd"] }, Valued { short: "R", long: &["root"] }],
        ..wrapper(
            &["unshare"],
            "SGRw",
            &["setuid", "setgid", "root", "wd", "propagation", "map-user", "map-group", "map-users", "map-groups"],
        )
    },
];

impl Wrapper {
    pub fn run(&self, args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
        let mut chdir: Vec<Option<Arg>> = self.chdir.iter().map(|_| None).collect();
        let start = options(args, &self.options, |item| {
            if let Some(file) = self.writes.value(&item) {
                sink.write(&file);
            }
            for (group, given) in self.chdir.iter().zip(chdir.iter_mut()) {
                if let Some(dir) = group.value(&item) {
                    *given = Some(dir);
                }
            }
        });
        let dir = chdir.into_iter().flatten().next();
        Some(vec![match self.before {
            Before::Command => Next { dir, ..Next::at(start + 1) },
            Before::Word => Next { dir, ..Next::at(start + 2) },
            Before::Root => Next { dir: args.get(start).cloned(), ..Next::at(start + 2) },
        }])
    }
}

/// Reads a command's words (after its name) and standard input; returns what it runs in turn.
pub(super) type Reader = fn(&[Arg], Option<&str>, &mut Sink) -> Option<Vec<Next>>;

/// A wrapper whose command is found another way: its names and the code that finds it.
pub(super) struct Coded {
    pub names: &'static [&'static str],
    pub run: Reader,
}

pub(super) const CODED: &[Coded] = &[
    Coded { names: &["sudo"], run: |args, _, sink| sudo(args, sink) },
    Coded { names: &["env"], run: |args, _, sink| env(args, sink) },
    Coded { names: &["command"], run: |args, _, _| command(args) },
    Coded { names: &["ionice"], run: |args, _, _| ionice(args) },
    Coded { names: &["coproc"], run: |args, _, _| coproc(args) },
    Coded { names: &["watch"], run: |args, _, sink| watch(args, sink) },
    Coded { names: &["flock"], run: |args, _, sink| flock(args, sink) },
    Coded { names: &["script"], run: script },
    Coded { names: &["su"], run: |args, _, sink| su(args, sink) },
    Coded { names: &["runuser"], run: |args, _, sink| runuser(args, sink) },
    Coded { names: &["npx", "pnpx", "bunx"], run: |args, _, sink| npx(args, sink) },
    Coded { names: &["npm"], run: npm },
    Coded { names: &["pnpm", "yarn"], run: |args, _, _| package_runner(args) },
    Coded { names: &["uv"], run: |args, stdin, sink| project_runner(args, stdin, sink, &UV) },
    Coded { names: &["poetry"], run: |args, stdin, sink| project_runner(args, stdin, sink, &POETRY) },
    Coded { names: &["pipenv"], run: |args, stdin, sink| project_runner(args, stdin, sink, &PIPENV) },
];

/// `command cmd…` runs it; `command -v`, `-V` only look it up.
fn command(args: &[Arg]) -> Option<Vec<Next>> {
    let mut lookup = false;
    let start = options(args, &prefix_spec("", &[]), |item| lookup |= matches!(item, Item::Flag('v' | 'V')));
    (!lookup).then(|| vec![Next::at(start + 1)])
}

/// `ionice [opts] cmd…`; with `-p`, `-P` or `-u` it sets a running process's class instead.
fn ionice(args: &[Arg]) -> Option<Vec<Next>> {
    let mut pid = false;
    let start = options(args, &prefix_spec("cnpPu", &["class", "classdata"]), |item| {
        pid |= matches!(item, Item::Short('p' | 'P' | 'u', _))
    });
    (!pid).then(|| vec![Next::at(start + 1)])
}

/// `coproc cmd args`, `coproc NAME { cmd; }` (tree-sitter keeps the brace as a word).
fn coproc(args: &[Arg]) -> Option<Vec<Next>> {
    let brace = args.iter().take(2).position(|arg| static_is(Some(arg), "{"));
    Some(vec![Next::at(brace.map_or(1, |at| at + 2))])
}

/// `npm exec …`, `npm x …`: as `npx`. A subcommand known to write no file reads; the others
/// write files (`init`, `pack`, `shrinkwrap`, `install`) or run the package's scripts (`run`,
/// `test`): an unknown command's.
fn npm(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    super::runners::npm_scripts_set(args, sink);
    match args.first().map(|a| a.text.as_str()) {
        Some("exec" | "x") => {
            return npx(args.get(1..).unwrap_or_default(), sink)
                .map(|nexts| nexts.into_iter().map(drop_separator).collect());
        }
        _ if npm_reads(args) => {}
        _ => unknown::analyze("npm", args, stdin, sink),
    }
    None
}

/// `npm exec approval-gates -- approve …`: the first `--` after the command separates npm's
/// words from the command's and is not passed on.
fn drop_separator(mut next: Next) -> Next {
    if let Some(words) = &mut next.args
        && let Some(at) = words.iter().skip(1).position(|w| !w.dynamic && w.text == "--")
    {
        words.remove(at + 1);
    }
    next
}

fn sudo(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = None;
    let mut edit = false;
    let long =
        ["user", "group", "chdir", "close-from", "host", "prompt", "role", "type", "other-user", "command-timeout"];
    let mut start = options(args, &prefix_spec("CDghpRTUurt", &long).flags(&["edit"]), |item| match item {
        Item::Short('D', value) | Item::Long("chdir", Some(value)) => dir = Some(value),
        Item::Flag('e') | Item::Long("edit", None) => edit = true,
        _ => {}
    });
    if edit {
        for file in args.get(start..).unwrap_or_default() {
            sink.write(file);
        }
        return None;
    }
    // sudo's policy may drop the shell's variables (`env_reset`); those it is given reach the
    // command (when the policy lets them).
    let mut environment = Environment::default();
    assignments(args, &mut start, &mut environment);
    Some(vec![Next { dir, environment, ..Next::at(start + 1) }])
}

/// The `NAME=value` words from `start` on, set in `environment`; `start` moves past them.
fn assignments(args: &[Arg], start: &mut usize, environment: &mut Environment) {
    while let Some(arg) = args.get(*start)
        && let Some((name, value)) = arg.text.split_once('=').filter(|_| is_assignment(&arg.text))
    {
        environment.changes.push((name.to_string(), Some(value_of(value, arg))));
        *start += 1;
    }
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// `env [-i] [-u NAME]… [-C dir] [-] [NAME=value]… cmd…`: the command runs with that environment.
fn env(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = None;
    let mut split = None;
    let mut environment = Environment::default();
    let long = ["unset", "chdir", "split-string", "argv0"];
    let mut start = options(args, &prefix_spec("uCSPa", &long).flags(&["ignore-environment"]), |item| match item {
        Item::Short('C', value) | Item::Long("chdir", Some(value)) => dir = Some(value),
        Item::Short('S', value) | Item::Long("split-string", Some(value)) => split = Some(value),
        // A name the walk could not compute may be any variable: none is taken as removed.
        Item::Short('u', name) | Item::Long("unset", Some(name)) if !name.dynamic => {
            environment.changes.push((name.text, None));
        }
        Item::Flag('i') | Item::Long("ignore-environment", None) => environment.cleared = true,
        _ => {}
    });
    if static_is(args.get(start), "-") {
        environment.cleared = true;
        start += 1;
    }
    assignments(args, &mut start, &mut environment);
    if let Some(split) = split {
        // `env -S '-C d cmd args' more`: the string is split into words like a command line, and
        // env reads its options again (`\_` separates words too, `\c` ends the string).
        let text = split.text.split("\\c").next().unwrap_or_default().replace("\\_", " ");
        let mut script = format!("env {text}");
        for arg in args.get(start..).unwrap_or_default() {
            script.push(' ');
            script.push_str(&arg.text);
        }
        if let Some(dir) = dir {
            script = format!("cd {} && {script}", quote(&dir.text));
        }
        sink.script_in(&script, &environment);
        return None;
    }
    Some(vec![Next { dir, environment, ..Next::at(start + 1) }])
}

/// `watch [-n s] cmd…` runs its words through `sh -c`; `-x` runs them directly.
fn watch(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut exec = false;
    let start = options(args, &prefix_spec("nq", &["interval", "equexit"]).flags(&["exec"]), |item| {
        exec |= matches!(item, Item::Flag('x') | Item::Long("exec", None));
    });
    if exec {
        return Some(vec![Next::at(start + 1)]);
    }
    let words: Vec<&str> = args.get(start..).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    if !words.is_empty() {
        sink.script(&words.join(" "));
    }
    None
}

/// `flock [opts] file cmd…`, `flock [opts] file -c 'cmd'`, `flock -c 'cmd' file`: the lock file is
/// created when missing.
fn flock(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut command = None;
    let long = ["timeout", "wait", "conflict-exit-code", "command"];
    let start = options(args, &prefix_spec("wEc", &long), |item| {
        if let Item::Short('c', script) | Item::Long("command", Some(script)) = item {
            command = Some(script);
        }
    });
    let file = args.get(start)?;
    if file.dynamic || !file.text.bytes().all(|b| b.is_ascii_digit()) {
        sink.write(file);
    }
    let after = args.get(start + 1..).unwrap_or_default();
    if command.is_none()
        && after.first().is_some_and(|arg| !arg.dynamic && matches!(arg.text.as_str(), "-c" | "--command"))
    {
        command = after.get(1).cloned();
    }
    match command {
        Some(script) => {
            sink.script(&script.text);
            None
        }
        None => Some(vec![Next::at(start + 2)]),
    }
}

/// util-linux `script [opts] [-c cmd] [file]` (the typescript file is written), and BSD
/// `script [-aq] file cmd…`; without a command the shell it starts reads standard input.
fn script(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let mut command = None;
    let mut logs = false;
    let long = ["command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit"];
    let mut files = Vec::new();
    // `--timing=file` (`-t` alone writes the timings to standard error).
    options(args, &spec("cEIOBTmo", &long).flags(&["timing"]), |item| match item {
        Item::Short('c', script) | Item::Long("command", Some(script)) => command = Some(script),
        Item::Short('I' | 'O' | 'B' | 'T', file)
        | Item::Long("log-in" | "log-out" | "log-io" | "log-timing", Some(file)) => {
            logs = true;
            sink.write(&file);
        }
        Item::Long("timing", Some(file)) => sink.write(&file),
        Item::Operand(arg) => files.push(arg.clone()),
        _ => {}
    });
    match files.first() {
        Some(file) => sink.write(file),
        None if !logs => sink.write_text("typescript"),
        None => {}
    }
    if let Some(command) = command {
        sink.script(&command.text);
    } else if files.len() > 1 {
        return Some(vec![Next::with(files.split_off(1))]);
    } else if let Some(stdin) = stdin {
        sink.script(stdin);
    }
    None
}

/// `su [opts] [-] [user] -c cmd`: options may come after the user.
fn su(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let long = ["command", "session-command", "shell", "group", "supp-group", "whitelist-environment"];
    options(args, &spec("cCsgGw", &long), |item| {
        if let Item::Short('c' | 'C', script) | Item::Long("command" | "session-command", Some(script)) = item {
            sink.script(&script.text);
        }
    });
    None
}

/// `runuser -u user [--] cmd…`, or su's form `runuser [opts] user -c cmd`.
fn runuser(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut user = false;
    let mut command = None;
    let long = ["user", "group", "supp-group", "shell", "whitelist-environment", "command", "session-command"];
    let start = options(args, &prefix_spec("ugGswcC", &long), |item| match item {
        Item::Short('u', _) | Item::Long("user", Some(_)) => user = true,
        Item::Short('c' | 'C', script) | Item::Long("command" | "session-command", Some(script)) => {
            command = Some(script)
        }
        _ => {}
    });
    match command {
        Some(script) => sink.script(&script.text),
        None if user => return Some(vec![Next::at(start + 1)]),
        None => return su(args, sink),
    }
    None
}

fn npx(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut call = None;
    let long = ["package", "call", "workspace", "prefix", "cache", "userconfig"];
    let start = options(args, &prefix_spec("pcw", &long), |item| match item {
        Item::Short('c', script) | Item::Long("call", Some(script)) => call = Some(script),
        _ => {}
    });
    if let Some(call) = call {
        sink.script(&call.text);
        return None;
    }
    let command = args.get(start)?;
    let mut words = args.get(start..).unwrap_or_default().to_vec();
    if let Some(first) = words.first_mut() {
        first.text = package_bin(&command.text).to_string();
    }
    Some(vec![Next::with(words)])
}

/// `pnpm dlx|exec …`, `yarn dlx|exec|run …`, and either running the CLI's bin directly.
fn package_runner(args: &[Arg]) -> Option<Vec<Next>> {
    let start = options(args, &prefix_spec("pCF", &["package", "dir", "filter", "cwd"]), |_| {});
    let sub = args.get(start)?;
    if is_cli(package_bin(&sub.text)) {
        // `start` counts from the runner's first argument, the job from its name.
        return Some(vec![Next::at(start + 1)]);
    }
    match sub.text.as_str() {
        "dlx" | "exec" | "run" => {
            let rest = args.get(start + 1..).unwrap_or_default();
            let inner = options(rest, &prefix_spec("p", &["package"]), |_| {});
            let mut words = rest.get(inner..).unwrap_or_default().to_vec();
            if let Some(first) = words.first_mut() {
                first.text = package_bin(&first.text).to_string();
            }
            Some(vec![Next::with(words)])
        }
        _ => None,
    }
}

/// A Python project manager's `run`: the command after its options runs in the project's
/// environment. Its options before and after `run`: those taking a value (an option listed here
/// by mistake would take the command for its value, so only certain ones are), where the command
/// runs, and those that load what the line does not show.
struct ProjectRunner {
    name: &'static str,
    values: Spec<'static>,
    chdir: Valued,
    /// `uv run -m module`: the command is `python -m`.
    module: Flags,
    /// Options whose value is an environment file or a local package it builds, which run or set
    /// what the line does not show: such a line is judged as an unknown command.
    loads: &'static [&'static str],
}

const UV: ProjectRunner = ProjectRunner {
    name: "uv",
    values: prefix_spec(
        "pifPC",
        &[
            "with",
            "with-editable",
            "with-requirements",
            "python",
            "extra",
            "package",
            "group",
            "no-group",
            "only-group",
            "env-file",
            "index",
            "default-index",
            "index-url",
            "extra-index-url",
            "find-links",
            "directory",
            "project",
            "config-file",
            "cache-dir",
            "color",
            "python-preference",
            "resolution",
            "prerelease",
            "exclude-newer",
            "link-mode",
            "index-strategy",
            "keyring-provider",
            "upgrade-package",
            "reinstall-package",
            "refresh-package",
            "config-setting",
        ],
    ),
    chdir: Valued { short: "", long: &["directory"] },
    module: Flags { short: "m", long: &["module"] },
    loads: &["env-file", "with-editable", "with-requirements"],
};

const POETRY: ProjectRunner = ProjectRunner {
    name: "poetry",
    values: prefix_spec("CP", &["directory", "project"]),
    chdir: Valued { short: "C", long: &["directory"] },
    module: Flags::NONE,
    loads: &[],
};

const PIPENV: ProjectRunner = ProjectRunner {
    name: "pipenv",
    values: prefix_spec("", &["python", "pypi-mirror"]),
    chdir: Valued::NONE,
    module: Flags::NONE,
    loads: &[],
};

/// `uv [opts] run [opts] cmd…`, `poetry [-C dir] run cmd…`, `pipenv run cmd…`; `uv run x.py` and
/// `uv run -m mod` run Python. Another subcommand is judged as an unknown command.
fn project_runner(args: &[Arg], stdin: Option<&str>, sink: &mut Sink, runner: &ProjectRunner) -> Option<Vec<Next>> {
    let mut dir = None;
    let mut module = false;
    let mut loads = false;
    let mut read = |item: Item| {
        if let Some(value) = runner.chdir.value(&item) {
            dir = Some(value);
        }
        module |= runner.module.given(&item);
        match &item {
            Item::Long(name, value) => {
                // `--with ./pkg` builds a local package: its code runs.
                let local = *name == "with"
                    && value
                        .as_ref()
                        .is_some_and(|value| value.dynamic || value.text.contains('/') || value.text.starts_with('.'));
                loads |= local || runner.loads.contains(name);
            }
            Item::Short(_, value) if value.dynamic => loads = true,
            _ => {}
        }
    };
    let before = options(args, &runner.values, &mut read);
    let rest = args.get(before + 1..).unwrap_or_default();
    let start = before + 1 + options(rest, &runner.values, &mut read);
    if !static_is(args.get(before), "run") || loads || args.get(start).is_none() {
        super::unknown::analyze(runner.name, args, stdin, sink);
        return None;
    }
    let command = args.get(start..).unwrap_or_default();
    let python = command.first().is_some_and(|first| !first.dynamic && first.text.ends_with(".py"));
    let next = if module || python {
        let mut words = vec![Arg::literal("python3")];
        words.extend(module.then(|| Arg::literal("-m")));
        words.extend(command.iter().cloned());
        Next::with(words)
    } else {
        Next::at(start + 1)
    };
    Some(vec![Next { dir, ..next }])
}
