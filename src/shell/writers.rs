//! The table of commands that write files, and of the commands that run other commands
//! (wrappers, shells, `eval`, `find -exec`), over an expanded argument vector.
//!
//! [`analyze`] reads one simple command and reports its [`Effect`]s; it knows nothing of trees or
//! directories. Paths stay as typed; a wrapper that changes directory (`git -C`, `env -C`,
//! `sudo -D`) prefixes them.

use std::borrow::Cow;

use super::words::{Arg, has_glob};
use crate::paths;

/// What one simple command does that the gates care about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Writes (creates, truncates, appends, edits, removes, renames) this path.
    Write(Arg),
    /// Copies or moves something named `name` into `dir` when `dir` is a directory; `known_dir`
    /// when the command line says so (trailing `/`, `-t`, several sources), else the walk asks the
    /// file system.
    WriteInto {
        dir: Arg,
        name: Arg,
        known_dir: bool,
    },
    Cd(Cd),
    /// A script run by a child shell (`bash -c`, a shell reading a heredoc): scoped.
    Script(String),
    /// A string run by this shell (`eval`): its `cd` counts afterwards.
    Eval(String),
    /// A script run by PowerShell (`pwsh -c`, `powershell -EncodedCommand`): judged by
    /// [`crate::powershell`] in the current directory.
    PowerShell(String),
    /// A variable given a value the walk cannot know (`read`, `mapfile`).
    Forget(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cd {
    To(Arg),
    Home,
    /// `cd -`
    Back,
    /// `pushd dir`; `None` swaps the two top directories.
    Push(Option<Arg>),
    Pop,
}

/// One command to analyze: its words, the directory its paths are relative to (empty: the
/// walk's), and, inside `find -exec`, what `{}` stands for.
struct Job<'a> {
    args: Cow<'a, [Arg]>,
    dir: String,
    roots: Vec<Arg>,
}

/// Commands a line may run beyond one per word (`find -exec` synthesizes `rm {}` for `-delete`).
const MAX_EXTRA_JOBS: usize = 64;

/// The names the project's CLI goes by (SPEC: `bin/approval-gates.mjs`).
fn is_cli(name: &str) -> bool {
    matches!(name, "approval-gates" | "approval-gates.mjs" | "approval-gates.js")
}

/// The last component of a command word: `/usr/bin/rm` is `rm`.
fn command_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// A package spec as a command: `approval-gates@0.1.0`, `@scope/approval-gates@1` → its name.
fn package_bin(word: &str) -> &str {
    let name = command_name(word);
    match name.find('@') {
        Some(at) if at > 0 => name.get(..at).unwrap_or(name),
        _ => name,
    }
}

/// The effects of one simple command; `stdin` is the text of its heredoc or here-string.
pub fn analyze(argv: &[Arg], stdin: Option<&str>, out: &mut Vec<Effect>) {
    let mut jobs = vec![Job { args: Cow::Borrowed(argv), dir: String::new(), roots: Vec::new() }];
    // Every hop consumes at least the wrapper's name; the cap only guards against a table bug.
    let mut hops = 0;
    while let Some(job) = jobs.pop() {
        hops += 1;
        if hops > argv.len() + MAX_EXTRA_JOBS {
            break;
        }
        let mut sink = Sink { job: &job, out: &mut *out };
        if let Some(next) = run(&job.args, stdin, &mut sink) {
            jobs.extend(next.into_iter().map(|next| next.into_job(&job)));
        }
    }
}

/// Collects effects, applying the job's directory and `{}` roots to every path.
struct Sink<'j, 'o> {
    job: &'j Job<'j>,
    out: &'o mut Vec<Effect>,
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{}", dir.trim_end_matches('/'), path)
    }
}

impl Sink<'_, '_> {
    fn located(&self, arg: &Arg) -> Vec<Arg> {
        let mut texts = Vec::new();
        if !self.job.roots.is_empty() && arg.text.contains("{}") {
            for root in &self.job.roots {
                let mut located = arg.clone();
                located.text = arg.text.replace("{}", &root.text);
                located.dynamic |= root.dynamic;
                texts.push(located);
            }
        } else {
            texts.push(arg.clone());
        }
        for located in &mut texts {
            located.text = join(&self.job.dir, &located.text);
        }
        texts
    }

    fn write(&mut self, arg: &Arg) {
        if arg.pipe || arg.text.is_empty() {
            return;
        }
        for located in self.located(arg) {
            // A glob whose last component could match approval.md writes it too.
            if located.glob {
                let (dir, name) = located.text.rsplit_once('/').unwrap_or(("", &located.text));
                if glob_matches(name, paths::APPROVAL_FILE) {
                    let mut approval = located.clone();
                    approval.text = if dir.is_empty() && !located.text.starts_with('/') {
                        paths::APPROVAL_FILE.to_string()
                    } else {
                        format!("{dir}/{}", paths::APPROVAL_FILE)
                    };
                    self.out.push(Effect::Write(approval));
                }
            }
            self.out.push(Effect::Write(located));
        }
    }

    fn write_text(&mut self, text: &str) {
        self.write(&Arg::literal(text));
    }

    fn write_into(&mut self, dir: &Arg, source: &Arg, known_dir: bool) {
        if dir.pipe || source.pipe || dir.text.is_empty() {
            return;
        }
        let trimmed = source.text.trim_end_matches('/');
        let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
        if base.is_empty() || base == "." || base == ".." {
            return;
        }
        let name = Arg { text: base.to_string(), dynamic: source.dynamic, glob: source.glob, pipe: false };
        for dir in self.located(dir) {
            self.out.push(Effect::WriteInto { dir, name: name.clone(), known_dir });
        }
    }

    fn push(&mut self, effect: Effect) {
        self.out.push(effect);
    }
}

/// A command a wrapper runs: where its words start in the wrapper's words (or new words), and
/// what changes for it.
struct Next {
    args: Option<Vec<Arg>>,
    start: usize,
    dir: Option<Arg>,
    roots: Option<Vec<Arg>>,
}

impl Next {
    fn at(start: usize) -> Self {
        Next { args: None, start, dir: None, roots: None }
    }

    fn into_job<'a>(self, parent: &Job<'a>) -> Job<'a> {
        let args = match self.args {
            Some(args) => Cow::Owned(args),
            None => match &parent.args {
                Cow::Borrowed(args) => Cow::Borrowed(args.get(self.start..).unwrap_or_default()),
                Cow::Owned(args) => Cow::Owned(args.get(self.start..).unwrap_or_default().to_vec()),
            },
        };
        let dir = match self.dir {
            Some(dir) => join(&parent.dir, &dir.text),
            None => parent.dir.clone(),
        };
        Job { args, dir, roots: self.roots.unwrap_or_else(|| parent.roots.clone()) }
    }
}

/// One option or operand of a command line.
enum Item<'a> {
    Operand(&'a Arg),
    /// A short option without a value.
    Flag(char),
    /// A short option with its value (attached or the next word).
    Short(char, Arg),
    /// A long option, with its value (`--x=v`, or the next word for one that takes a value).
    Long(&'a str, Option<Arg>),
}

/// Which options take a value: short letters, long names.
struct Spec<'a> {
    short: &'a str,
    long: &'a [&'a str],
    /// Options end at the first operand (the rest is a command or its arguments).
    stop_at_operand: bool,
}

const fn spec<'a>(short: &'a str, long: &'a [&'a str]) -> Spec<'a> {
    Spec { short, long, stop_at_operand: false }
}

const fn prefix_spec<'a>(short: &'a str, long: &'a [&'a str]) -> Spec<'a> {
    Spec { short, long, stop_at_operand: true }
}

fn value_of(text: &str, from: &Arg) -> Arg {
    Arg { text: text.to_string(), dynamic: from.dynamic, glob: from.glob && has_glob(text), pipe: false }
}

/// Walks `args` as getopt would; returns where it stopped (the first operand when the spec stops
/// there, else `args.len()`).
fn options<'a>(args: &'a [Arg], spec: &Spec<'_>, mut each: impl FnMut(Item<'a>)) -> usize {
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let text = arg.text.as_str();
        if text == "--" && !arg.dynamic {
            at += 1;
            if spec.stop_at_operand {
                return at;
            }
            for rest in args.get(at..).unwrap_or_default() {
                each(Item::Operand(rest));
            }
            return args.len();
        }
        if let Some(long) = text.strip_prefix("--").filter(|_| !arg.dynamic) {
            match long.split_once('=') {
                Some((name, value)) => each(Item::Long(name, Some(value_of(value, arg)))),
                None if spec.long.contains(&long) => {
                    at += 1;
                    each(Item::Long(long, args.get(at).cloned()));
                }
                None => each(Item::Long(long, None)),
            }
            at += 1;
            continue;
        }
        if let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty() && !arg.dynamic) {
            for (offset, letter) in cluster.char_indices() {
                if spec.short.contains(letter) {
                    let rest = cluster.get(offset + letter.len_utf8()..).unwrap_or_default();
                    if rest.is_empty() {
                        at += 1;
                        if let Some(value) = args.get(at) {
                            each(Item::Short(letter, value.clone()));
                        }
                    } else {
                        each(Item::Short(letter, value_of(rest, arg)));
                    }
                    break;
                }
                each(Item::Flag(letter));
            }
            at += 1;
            continue;
        }
        if spec.stop_at_operand {
            return at;
        }
        each(Item::Operand(arg));
        at += 1;
    }
    args.len()
}

fn operands<'a>(args: &'a [Arg], spec: &Spec<'_>) -> Vec<&'a Arg> {
    let mut found = Vec::new();
    options(args, spec, |item| {
        if let Item::Operand(arg) = item {
            found.push(arg);
        }
    });
    found
}

fn static_is(arg: Option<&Arg>, text: &str) -> bool {
    arg.is_some_and(|arg| !arg.dynamic && arg.text == text)
}

/// Analyzes one command; returns the commands it runs in turn, if any.
fn run(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let first = args.first()?;
    if first.dynamic || first.pipe {
        return None;
    }
    let rest = args.get(1..).unwrap_or_default();
    let name = command_name(&first.text);
    if is_cli(name) {
        cli(rest, sink);
        return None;
    }
    match name {
        // Wrappers: the command they run follows their options.
        "sudo" => sudo(rest, sink),
        "doas" => after_options(rest, &prefix_spec("uC", &[])),
        "env" => env(rest, sink),
        "command" => {
            let mut lookup = false;
            let start = options(rest, &prefix_spec("", &[]), |item| lookup |= matches!(item, Item::Flag('v' | 'V')));
            (!lookup).then(|| vec![Next::at(start + 1)])
        }
        "builtin" | "nohup" => after_options(rest, &prefix_spec("", &[])),
        "exec" => after_options(rest, &prefix_spec("a", &[])),
        "nice" => after_options(rest, &prefix_spec("n", &["adjustment"])),
        "stdbuf" => after_options(rest, &prefix_spec("ioe", &["input", "output", "error"])),
        "setsid" => after_options(rest, &prefix_spec("", &[])),
        "ionice" => {
            let mut pid = false;
            let start = options(rest, &prefix_spec("cnpPu", &["class", "classdata"]), |item| {
                pid |= matches!(item, Item::Short('p' | 'P' | 'u', _))
            });
            (!pid).then(|| vec![Next::at(start + 1)])
        }
        "time" => {
            let start = options(rest, &prefix_spec("of", &["output", "format"]), |item| match item {
                Item::Short('o', file) | Item::Long("output", Some(file)) => sink.write(&file),
                _ => {}
            });
            Some(vec![Next::at(start + 1)])
        }
        "timeout" => {
            let start = options(rest, &prefix_spec("sk", &["signal", "kill-after"]), |_| {});
            // The duration, then the command.
            Some(vec![Next::at(start + 2)])
        }
        "xargs" => after_options(
            rest,
            &prefix_spec(
                "adEILnPs",
                &[
                    "arg-file",
                    "delimiter",
                    "eof",
                    "max-lines",
                    "max-args",
                    "max-procs",
                    "max-chars",
                    "process-slot-var",
                ],
            ),
        ),
        "find" => find(rest),
        "npx" | "pnpx" | "bunx" => npx(rest, sink),
        "npm" => match rest.first().map(|a| a.text.as_str()) {
            Some("exec" | "x") => npx(rest.get(1..).unwrap_or_default(), sink)
                .map(|nexts| nexts.into_iter().map(drop_separator).collect()),
            _ => None,
        },
        "pnpm" | "yarn" => package_runner(rest),
        "node" | "nodejs" => {
            node(rest, stdin, sink);
            None
        }
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" => {
            shell(rest, stdin, sink);
            None
        }
        _ if crate::powershell::is_powershell(name) => {
            let words: Vec<String> = rest.iter().map(|arg| arg.text.clone()).collect();
            if let Some(script) = crate::powershell::invoked_script(&words, stdin) {
                sink.push(Effect::PowerShell(script));
            }
            None
        }
        "eval" => {
            let text: Vec<&str> = rest.iter().map(|arg| arg.text.as_str()).collect();
            sink.push(Effect::Eval(text.join(" ")));
            None
        }
        "cd" => {
            let targets = operands(rest, &spec("", &[]));
            sink.push(Effect::Cd(match targets.first() {
                None => Cd::Home,
                Some(arg) if static_is(Some(arg), "-") => Cd::Back,
                Some(arg) => Cd::To((*arg).clone()),
            }));
            None
        }
        "pushd" => {
            let targets = operands(rest, &spec("", &[]));
            match targets.first() {
                None => sink.push(Effect::Cd(Cd::Push(None))),
                Some(arg) if !arg.dynamic && (arg.text.starts_with('+') || arg.text.starts_with('-')) => {}
                Some(arg) => sink.push(Effect::Cd(Cd::Push(Some((*arg).clone())))),
            }
            None
        }
        "popd" => {
            if operands(rest, &spec("", &[])).is_empty() {
                sink.push(Effect::Cd(Cd::Pop));
            }
            None
        }
        "read" => {
            let names = operands(rest, &spec("adinNptu", &[]));
            if names.is_empty() {
                sink.push(Effect::Forget("REPLY".to_string()));
            }
            for name in names {
                sink.push(Effect::Forget(name.text.clone()));
            }
            None
        }
        "mapfile" | "readarray" => {
            let names = operands(rest, &spec("dnOsuCc", &[]));
            sink.push(Effect::Forget(names.last().map_or_else(|| "MAPFILE".to_string(), |n| n.text.clone())));
            None
        }
        // Writers.
        "tee" => {
            for arg in operands(rest, &spec("", &[])) {
                sink.write(arg);
            }
            None
        }
        "rm" | "rmdir" | "unlink" | "shred" => {
            for arg in operands(rest, &spec("nsu", &["iterations", "size", "random-source"])) {
                sink.write(arg);
            }
            None
        }
        "touch" => {
            for arg in operands(rest, &spec("rdt", &["reference", "date"])) {
                sink.write(arg);
            }
            None
        }
        "truncate" => {
            for arg in operands(rest, &spec("sr", &["size", "reference"])) {
                sink.write(arg);
            }
            None
        }
        "sudoedit" => {
            for arg in operands(rest, &spec("CDghpRTUu", &[])) {
                sink.write(arg);
            }
            None
        }
        "cp" | "mv" | "ln" | "install" => {
            copy_like(rest, name, sink);
            None
        }
        "rsync" => {
            copy_like(rest, name, sink);
            None
        }
        "dd" => {
            for arg in rest {
                if let Some(file) = arg.text.strip_prefix("of=") {
                    sink.write(&value_of(file, arg));
                }
            }
            None
        }
        "sed" | "gsed" => {
            sed(rest, sink);
            None
        }
        "perl" => {
            perl(rest, sink);
            None
        }
        "git" => git(rest, sink),
        "patch" => {
            let mut files = Vec::new();
            options(
                rest,
                &spec("BDdFgiopruVYz", &["output", "reject-file", "input", "directory"]),
                |item| match item {
                    Item::Short('o' | 'r', file) | Item::Long("output" | "reject-file", Some(file)) => {
                        sink.write(&file)
                    }
                    Item::Operand(arg) => files.push(arg),
                    _ => {}
                },
            );
            if let Some(original) = files.first() {
                sink.write(original);
            }
            None
        }
        "sort" => {
            options(
                rest,
                &spec("ktoST", &["key", "field-separator", "output", "buffer-size", "temporary-directory"]),
                |item| {
                    if let Item::Short('o', file) | Item::Long("output", Some(file)) = item {
                        sink.write(&file);
                    }
                },
            );
            None
        }
        "curl" => {
            let long_values =
                ["output", "data", "header", "user", "request", "url", "form", "config", "cookie", "cookie-jar"];
            options(rest, &spec("odHuXFKbcAeEmrTwxyYz", &long_values), |item| match item {
                Item::Short('o' | 'c', file) | Item::Long("output" | "cookie-jar", Some(file)) => sink.write(&file),
                _ => {}
            });
            None
        }
        "wget" => {
            options(rest, &spec("OoaPtTeUi", &[]), |item| match item {
                Item::Short('O' | 'o' | 'a', file)
                | Item::Long("output-document" | "output-file" | "append-output", Some(file)) => sink.write(&file),
                _ => {}
            });
            None
        }
        _ => None,
    }
}

fn after_options(args: &[Arg], spec: &Spec<'_>) -> Option<Vec<Next>> {
    let start = options(args, spec, |_| {});
    Some(vec![Next::at(start + 1)])
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
    let mut start = options(args, &prefix_spec("CDghpRTUurt", &long), |item| match item {
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
    while args.get(start).is_some_and(|arg| is_assignment(&arg.text)) {
        start += 1;
    }
    Some(vec![Next { dir, ..Next::at(start + 1) }])
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

fn env(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = None;
    let mut split = None;
    let long = ["unset", "chdir", "split-string"];
    let mut start = options(args, &prefix_spec("uCSP", &long), |item| match item {
        Item::Short('C', value) | Item::Long("chdir", Some(value)) => dir = Some(value),
        Item::Short('S', value) | Item::Long("split-string", Some(value)) => split = Some(value),
        _ => {}
    });
    while args.get(start).is_some_and(|arg| is_assignment(&arg.text)) {
        start += 1;
    }
    if let Some(split) = split {
        // `env -S 'cmd args' more`: the string is split into words like a command line.
        let mut script = split.text;
        for arg in args.get(start..).unwrap_or_default() {
            script.push(' ');
            script.push_str(&arg.text);
        }
        match dir {
            Some(dir) => sink.push(Effect::Script(format!("cd {} && {script}", quote(&dir.text)))),
            None => sink.push(Effect::Script(script)),
        }
        return None;
    }
    Some(vec![Next { dir, ..Next::at(start + 1) }])
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// `find … -exec cmd {} ;` runs `cmd` on what it finds under its starting points; `-delete`
/// removes it.
fn find(args: &[Arg]) -> Option<Vec<Next>> {
    // `-H`, `-L`, `-P`, `-D opts`, `-O3` come before the starting points.
    let mut leading = 0;
    while let Some(arg) = args.get(leading).filter(|arg| !arg.dynamic) {
        match arg.text.as_str() {
            "-H" | "-L" | "-P" => leading += 1,
            "-D" => leading += 2,
            text if text.starts_with("-O") => leading += 1,
            _ => break,
        }
    }
    let first_expression = args
        .iter()
        .skip(leading)
        .position(|arg| !arg.dynamic && (arg.text.starts_with('-') || arg.text == "(" || arg.text == "!"))
        .map_or(args.len(), |offset| leading + offset);
    let mut roots: Vec<Arg> = args.get(leading.min(first_expression)..first_expression).unwrap_or_default().to_vec();
    if roots.is_empty() {
        roots.push(Arg::literal("."));
    }
    let named_approval = args.windows(2).any(|pair| {
        matches!(pair, [flag, pattern] if matches!(flag.text.as_str(), "-name" | "-iname" | "-path" | "-ipath" | "-wholename")
            && glob_matches(pattern.text.rsplit('/').next().unwrap_or(&pattern.text), paths::APPROVAL_FILE))
    });
    let found: Vec<Arg> = roots
        .iter()
        .flat_map(|root| {
            let mut found = vec![root.clone()];
            if named_approval {
                found.push(Arg {
                    text: format!("{}/{}", root.text.trim_end_matches('/'), paths::APPROVAL_FILE),
                    ..root.clone()
                });
            }
            found
        })
        .collect();
    let mut nexts = Vec::new();
    let mut at = first_expression;
    while let Some(arg) = args.get(at) {
        at += 1;
        match arg.text.as_str() {
            "-delete" => {
                let words = std::iter::once(Arg::literal("rm")).chain(std::iter::once(Arg::literal("{}"))).collect();
                nexts.push(Next { args: Some(words), start: 0, dir: None, roots: Some(found.clone()) });
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let end = args
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .position(|a| !a.dynamic && (a.text == ";" || a.text == "+"))
                    .map_or(args.len(), |offset| at + offset);
                let words = args.get(at..end).unwrap_or_default().to_vec();
                nexts.push(Next { args: Some(words), start: 0, dir: None, roots: Some(found.clone()) });
                at = end + 1;
            }
            _ => {}
        }
    }
    Some(nexts)
}

fn npx(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut call = None;
    let long = ["package", "call", "workspace", "prefix", "cache", "userconfig"];
    let start = options(args, &prefix_spec("pcw", &long), |item| match item {
        Item::Short('c', script) | Item::Long("call", Some(script)) => call = Some(script),
        _ => {}
    });
    if let Some(call) = call {
        sink.push(Effect::Script(call.text));
        return None;
    }
    let command = args.get(start)?;
    let mut words = args.get(start..).unwrap_or_default().to_vec();
    if let Some(first) = words.first_mut() {
        first.text = package_bin(&command.text).to_string();
    }
    Some(vec![Next { args: Some(words), start: 0, dir: None, roots: None }])
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
            Some(vec![Next { args: Some(words), start: 0, dir: None, roots: None }])
        }
        _ => None,
    }
}

/// The CLI's `approve <id> design|plan` writes `openspec/changes/<id>/approval.md`.
fn cli(args: &[Arg], sink: &mut Sink) {
    let words = operands(args, &spec("", &["cwd"]));
    let Some(sub) = words.first() else { return };
    if !(sub.dynamic || sub.text == "approve") {
        return;
    }
    match words.get(1) {
        Some(id) if !id.dynamic && paths::is_safe_segment(&id.text) => {
            sink.write_text(&format!("openspec/changes/{}/{}", id.text, paths::APPROVAL_FILE))
        }
        _ => sink.write_text(paths::APPROVAL_FILE),
    }
}

/// `node -e '…writeApproval…'`, `node path/to/approval-gates.mjs approve …`, and a script fed on
/// standard input.
fn node(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut script = None;
    let mut print = false;
    let long =
        ["eval", "print", "require", "import", "loader", "experimental-loader", "conditions", "title", "env-file"];
    let start = options(args, &prefix_spec("erC", &long), |item| match item {
        Item::Short('e', text) | Item::Long("eval" | "print", Some(text)) => script = Some(text.text),
        Item::Flag('p') => print = true,
        _ => {}
    });
    // `node -p 'script'`: the script is the first operand.
    if print && script.is_none() {
        script = args.get(start).map(|arg| arg.text.clone());
    }
    let mentions = |text: &str| text.contains("writeApproval");
    if let Some(script) = script {
        if mentions(&script) {
            sink.write_text(paths::APPROVAL_FILE);
        }
        return;
    }
    match args.get(start) {
        Some(path) if !path.dynamic && is_cli(command_name(&path.text)) => {
            cli(args.get(start + 1..).unwrap_or_default(), sink)
        }
        Some(path) if !static_is(Some(path), "-") => {}
        _ => {
            if stdin.is_some_and(mentions) {
                sink.write_text(paths::APPROVAL_FILE);
            }
        }
    }
}

/// `bash -c 'script'`, `sh -lc "…"`, and a shell reading its script from a heredoc.
fn shell(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut command_mode = false;
    let mut stdin_mode = false;
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
            if matches!(text, "--rcfile" | "--init-file") {
                at += 1;
            }
            continue;
        }
        let cluster = text.get(1..).unwrap_or_default();
        command_mode |= text.starts_with('-') && cluster.contains('c');
        stdin_mode |= text.starts_with('-') && cluster.contains('s');
        // `-o pipefail`, `-O extglob` take the next word.
        at += cluster.chars().filter(|c| matches!(c, 'o' | 'O')).count();
    }
    if command_mode {
        if let Some(script) = args.get(at) {
            sink.push(Effect::Script(script.text.clone()));
        }
    } else if (stdin_mode || args.get(at).is_none() || static_is(args.get(at), "-"))
        && let Some(stdin) = stdin
    {
        sink.push(Effect::Script(stdin.to_string()));
    }
}

/// `cp`, `mv`, `ln`, `install`, `rsync` (and `git mv`): the destination, the destination's
/// entries when it is a directory, and the sources of a move or of a hard link (a second name for a
/// file is a way to write it, and unlike a symlink it cannot be resolved later).
fn copy_like(args: &[Arg], name: &str, sink: &mut Sink) {
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
    ];
    let spec = match name {
        "install" => spec("tSmog", &["target-directory", "suffix", "mode", "owner", "group", "strip-program"]),
        "rsync" => spec("efBMT", RSYNC_LONG),
        _ => spec("tS", &["target-directory", "suffix"]),
    };
    let mut target_dir = None;
    let mut no_target_dir = false;
    let mut make_dirs = false;
    let mut symbolic = false;
    let mut cp_link = false;
    let mut files = Vec::new();
    options(args, &spec, |item| match item {
        Item::Short('t', dir) | Item::Long("target-directory", Some(dir)) if name != "rsync" => target_dir = Some(dir),
        Item::Flag('s') | Item::Long("symbolic", None) if name == "ln" => symbolic = true,
        Item::Flag('l') | Item::Long("link", None) if name == "cp" => cp_link = true,
        Item::Flag('T') | Item::Long("no-target-directory", None) => no_target_dir = true,
        Item::Flag('d') | Item::Long("directory", None) if name == "install" => make_dirs = true,
        Item::Operand(arg) => files.push(arg),
        _ => {}
    });
    // rsync's remote sources and destinations (`host:path`) are not local files.
    let remote = |arg: &Arg| name == "rsync" && arg.text.split('/').next().is_some_and(|head| head.contains(':'));
    files.retain(|arg| !remote(arg));
    if make_dirs {
        for dir in files {
            sink.write(dir);
        }
        return;
    }
    let writes_sources = name == "mv" || name == "git mv" || (name == "ln" && !symbolic) || cp_link;
    if let Some(dir) = target_dir {
        sink.write(&dir);
        for source in &files {
            sink.write_into(&dir, source, true);
            if writes_sources {
                sink.write(source);
            }
        }
        return;
    }
    let (destination, sources) = match files.split_last() {
        Some((destination, sources)) if !sources.is_empty() => (*destination, sources),
        // `ln -s /some/where/x`: a link named `x` here.
        Some((only, _)) if name == "ln" => {
            sink.write_into(&Arg::literal("."), only, true);
            if writes_sources {
                sink.write(only);
            }
            return;
        }
        _ => return,
    };
    sink.write(destination);
    if !no_target_dir {
        let known_dir = sources.len() > 1 || destination.text.ends_with('/');
        for source in sources {
            // rsync copies a directory's contents, not the directory, when it ends in `/`.
            if !(name == "rsync" && source.text.ends_with('/')) {
                sink.write_into(destination, source, known_dir);
            }
        }
    }
    if writes_sources {
        for source in sources {
            sink.write(source);
        }
    }
}

/// `sed -i[SUFFIX]`, `--in-place[=SUFFIX]`: the files after the script.
fn sed(args: &[Arg], sink: &mut Sink) {
    let mut in_place = false;
    let mut script_given = false;
    let mut files = Vec::new();
    let mut at = 0;
    let mut only_operands = false;
    while let Some(arg) = args.get(at) {
        at += 1;
        let text = arg.text.as_str();
        if only_operands || arg.dynamic || !text.starts_with('-') || text == "-" {
            files.push(arg);
            continue;
        }
        if text == "--" {
            only_operands = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            match name {
                "in-place" => in_place = true,
                "expression" | "file" => {
                    script_given = true;
                    at += usize::from(!long.contains('='));
                }
                "line-length" => at += usize::from(!long.contains('=')),
                _ => {}
            }
        } else {
            for (offset, letter) in text.char_indices().skip(1) {
                let rest = text.get(offset + letter.len_utf8()..).unwrap_or_default();
                match letter {
                    'i' => {
                        in_place = true;
                        // BSD: `sed -i '' …` takes the empty suffix as its own word.
                        if rest.is_empty() && args.get(at).is_some_and(|next| next.text.is_empty() && !next.dynamic) {
                            at += 1;
                        }
                        break;
                    }
                    'e' | 'f' | 'l' => {
                        script_given |= letter != 'l';
                        at += usize::from(rest.is_empty());
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    if in_place {
        for file in files.iter().skip(usize::from(!script_given)) {
            sink.write(file);
        }
    }
}

/// `perl -i[EXT]`, `-pi -e …`: the files after the script.
fn perl(args: &[Arg], sink: &mut Sink) {
    let mut in_place = false;
    let mut script_given = false;
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let text = arg.text.as_str();
        if !operands.is_empty() || arg.dynamic || !text.starts_with('-') || text == "-" {
            operands.push(arg);
            continue;
        }
        if text == "--" {
            operands.extend(args.get(at..).unwrap_or_default());
            break;
        }
        for (offset, letter) in text.char_indices().skip(1) {
            let rest = text.get(offset + letter.len_utf8()..).unwrap_or_default();
            match letter {
                'i' => {
                    in_place = true;
                    break;
                }
                'e' | 'E' => {
                    script_given = true;
                    at += usize::from(rest.is_empty());
                    break;
                }
                'I' | 'M' | 'm' => {
                    at += usize::from(rest.is_empty());
                    break;
                }
                'l' | '0' | 'x' | 'C' | 'd' | 'D' | 'V' | 'F' => break,
                _ => {}
            }
        }
    }
    if in_place {
        for file in operands.iter().skip(usize::from(!script_given)) {
            sink.write(file);
        }
    }
}

/// `git [-C dir] checkout|restore … -- <paths>`, `git rm`, `git mv`.
fn git(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = String::new();
    let mut dynamic = false;
    let long = ["git-dir", "work-tree", "namespace", "super-prefix", "config-env", "exec-path"];
    let start = options(args, &prefix_spec("Cc", &long), |item| {
        if let Item::Short('C', value) = item {
            dir = join(&dir, &value.text);
            dynamic |= value.dynamic;
        }
    });
    let sub = args.get(start)?;
    let job = Job {
        args: Cow::Borrowed(args.get(start + 1..).unwrap_or_default()),
        dir: join(&sink.job.dir, &dir),
        roots: sink.job.roots.clone(),
    };
    let mut inner = Sink { job: &job, out: &mut *sink.out };
    git_subcommand(&sub.text, &job.args, &mut inner);
    None
}

/// The git subcommands that write the working tree, reached through [`git`].
fn git_subcommand(sub: &str, args: &[Arg], sink: &mut Sink) {
    match sub {
        "checkout" => {
            let separator = args.iter().position(|arg| !arg.dynamic && arg.text == "--");
            let paths: Vec<&Arg> = match separator {
                Some(at) => args.get(at + 1..).unwrap_or_default().iter().collect(),
                None => operands(args, &spec("bB", &["orphan", "conflict", "pathspec-from-file"])),
            };
            for path in paths {
                sink.write(path);
            }
        }
        "restore" => {
            let (mut staged, mut worktree) = (false, false);
            let paths = {
                let mut found = Vec::new();
                options(args, &spec("s", &["source", "pathspec-from-file"]), |item| match item {
                    Item::Flag('S') | Item::Long("staged", None) => staged = true,
                    Item::Flag('W') | Item::Long("worktree", None) => worktree = true,
                    Item::Operand(arg) => found.push(arg),
                    _ => {}
                });
                found
            };
            if !staged || worktree {
                for path in paths {
                    sink.write(path);
                }
            }
        }
        "rm" => {
            let mut index_only = false;
            let mut found = Vec::new();
            options(args, &spec("", &["pathspec-from-file"]), |item| match item {
                Item::Long("cached" | "dry-run", None) | Item::Flag('n') => index_only = true,
                Item::Operand(arg) => found.push(arg),
                _ => {}
            });
            if !index_only {
                for path in found {
                    sink.write(path);
                }
            }
        }
        "mv" => copy_like(args, "git mv", sink),
        _ => {}
    }
}

/// fnmatch for one path component: `*`, `?`, `[…]` (with `!`/`^` and ranges), ASCII case ignored
/// (P-7).
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().map(|c| c.to_ascii_lowercase()).collect();
    let name: Vec<char> = name.chars().map(|c| c.to_ascii_lowercase()).collect();
    let (mut p, mut n) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                backtrack = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => class(&pattern, p, name.get(n).copied()),
            Some(&literal) if name.get(n) == Some(&literal) => Some(p + 1),
            _ => None,
        };
        match step {
            Some(next) => {
                p = next;
                n += 1;
            }
            None => match backtrack {
                Some((star, at)) => {
                    p = star + 1;
                    n = at + 1;
                    backtrack = Some((star, at + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).unwrap_or_default().iter().all(|&c| c == '*')
}

/// A bracket expression at `pattern[at]` against `c`: where the pattern continues if it matches.
fn class(pattern: &[char], at: usize, c: Option<char>) -> Option<usize> {
    let c = c?;
    let mut p = at + 1;
    let negated = matches!(pattern.get(p), Some('!' | '^'));
    p += usize::from(negated);
    let mut matched = false;
    let mut first = true;
    loop {
        let &current = pattern.get(p)?;
        if current == ']' && !first {
            break;
        }
        first = false;
        if pattern.get(p + 1) == Some(&'-') && pattern.get(p + 2).is_some_and(|&end| end != ']') {
            let end = pattern.get(p + 2).copied().unwrap_or(current);
            matched |= current <= c && c <= end;
            p += 3;
        } else {
            matched |= current == c;
            p += 1;
        }
    }
    (matched != negated).then_some(p + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(package_bin("approval-gates@0.1.0"), "approval-gates");
        assert_eq!(package_bin("@scope/approval-gates@1"), "approval-gates");
        assert_eq!(package_bin("./node_modules/.bin/approval-gates"), "approval-gates");
    }
}
