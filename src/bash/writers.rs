//! The table of commands that write files, and of the commands that run other commands
//! (wrappers, shells, `eval`, `find -exec`), over an expanded argument vector.
//!
//! [`analyze`] reads one simple command and reports its [`Effect`]s; it knows nothing of trees or
//! directories. Paths stay as typed; a wrapper that changes directory (`git -C`, `env -C`,
//! `sudo -D`) prefixes them.

use std::borrow::Cow;

use super::words::{Arg, has_glob};
use crate::paths::{self, glob_matches};
use crate::programs::{self, Invocation};

mod archives;
mod readonly;
mod unknown;

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
    /// An unknown command names this path (P-12): the guarded locations it is or holds, by its
    /// name ([`paths::Reach::Named`]); anything else is not a target.
    WriteNamed(Arg),
    /// A whole tree is written at `dir/name` (`dir` itself when `name` is `None` or `dir` is not a
    /// directory): a recursive copy, move, sync, extract or checkout. Its targets are the guarded
    /// files the tree can create ([`paths::Reach::Tree`]).
    WriteTree {
        dir: Arg,
        name: Option<Arg>,
        known_dir: bool,
    },
    Cd(Cd),
    /// A script run by a child shell (`bash -c`, a shell reading a heredoc): scoped.
    Script(String),
    /// A script run by a child shell given its parameters (`bash -c '…' arg0 arg1`, `sh -s a b`);
    /// `complete` when no other parameters can follow (not under `xargs` reading unknown input).
    Run {
        script: String,
        positional: Vec<Arg>,
        complete: bool,
    },
    /// A symbolic link made at `link`, pointing to `target` (relative to the link's directory).
    Link {
        link: Arg,
        target: Arg,
    },
    /// A string run by this shell (`eval`): its `cd` counts afterwards.
    Eval(String),
    /// A script run by PowerShell (`pwsh -c`, `powershell -EncodedCommand`): judged by
    /// [`crate::powershell`] in the current directory.
    PowerShell(String),
    /// A variable given a value the walk cannot know (`read`, `mapfile`).
    Forget(String),
    /// A program in another language (`python3 -c`, `node x.mjs`, a heredoc fed to `perl`),
    /// judged by [`crate::programs`] in `dir` (relative to the walk's directory; empty: that one).
    Program {
        invocation: Invocation,
        dir: String,
    },
    /// A script file a shell runs (`bash x.sh`; `source x.sh` when `this_shell`; `./x` by its
    /// `#!` line when `by_shebang`), read by the walk at check time.
    RunFile {
        path: Arg,
        this_shell: bool,
        by_shebang: bool,
    },
    /// Applies a patch (`git apply`, `git am`, `patch`): the walk reads it and writes the files
    /// its headers name (P-14).
    Patch(PatchRead),
}

/// Where a patch comes from and how its paths are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchRead {
    /// `None`: the command's standard input.
    pub file: Option<Arg>,
    /// The text on standard input when the line shows it (a heredoc, a here-string, `echo … |`).
    pub stdin: Option<String>,
    /// `-p` levels to try: one when given, else the tool's defaults.
    pub strips: Vec<usize>,
    /// `patch -d`: the directory everything, the patch file included, is relative to.
    pub chdir: Option<Arg>,
    /// `git apply --directory`: prepended to the patch's paths.
    pub prefix: Option<Arg>,
    /// The wrapper's directory (`git -C`), under which all of it happens.
    pub base: String,
    /// The command's words: when the patch cannot be read, those that name a guarded location
    /// are what it writes.
    pub words: Vec<Arg>,
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
    /// The words of the producer piping into the command when its output is unknown.
    producer: &'a [Arg],
    /// The command reads the line's standard input (not a command `xargs` runs).
    reads_input: bool,
    /// More arguments may follow that the line does not show (`xargs` of unknown input).
    open: bool,
}

/// Commands a line may run beyond one per word (`find -exec` synthesizes `rm {}` for `-delete`).
const MAX_EXTRA_JOBS: usize = 64;

/// The names the project's CLI goes by (`bin/approval-gates.mjs`, P-11).
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
    analyze_fed(argv, stdin, &[], out);
}

/// [`analyze`] for a command piped from a producer whose output is unknown: the guarded locations
/// the producer's words name count as what it may feed (`ls plans/*.md | xargs rm`).
pub fn analyze_fed(argv: &[Arg], stdin: Option<&str>, producer: &[Arg], out: &mut Vec<Effect>) {
    let mut jobs = vec![Job {
        args: Cow::Borrowed(argv),
        dir: String::new(),
        roots: Vec::new(),
        producer,
        reads_input: true,
        open: false,
    }];
    // Every hop consumes at least the wrapper's name; the cap only guards against a table bug.
    let mut hops = 0;
    while let Some(job) = jobs.pop() {
        hops += 1;
        if hops > argv.len() + MAX_EXTRA_JOBS {
            break;
        }
        let mut sink = Sink { job: &job, out: &mut *out };
        let stdin = stdin.filter(|_| job.reads_input);
        if let Some(next) = run(&job.args, stdin, &mut sink) {
            jobs.extend(next.into_iter().map(|next| next.into_job(&job)));
        }
    }
}

/// What a command prints when it is `echo` or `printf` of known words, looked for through the
/// wrappers that run it (`sudo echo … | sh`).
pub fn printed_by(argv: &[Arg]) -> Option<String> {
    let mut ignored = Vec::new();
    let mut jobs = vec![Job {
        args: Cow::Borrowed(argv),
        dir: String::new(),
        roots: Vec::new(),
        producer: &[],
        reads_input: false,
        open: false,
    }];
    for _ in 0..argv.len() + MAX_EXTRA_JOBS {
        let job = jobs.pop()?;
        let named = job.args.first().filter(|name| !name.dynamic).map(|name| command_name(&name.text));
        if matches!(named, Some("echo" | "printf")) {
            let mut words = job.args.to_vec();
            if let Some(first) = words.first_mut() {
                first.text = named.unwrap_or_default().to_string();
            }
            return super::words::printed(&words);
        }
        let mut sink = Sink { job: &job, out: &mut ignored };
        if let Some(next) = run(&job.args, None, &mut sink) {
            jobs.extend(next.into_iter().map(|next| next.into_job(&job)));
        }
    }
    None
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
            // A glob that could match a guarded folder or approval.md writes it too.
            if located.glob {
                for text in paths::guarded_glob_matches(&located.text) {
                    self.out.push(Effect::Write(Arg { text, ..located.clone() }));
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

    /// An unknown command's word that may be a path (P-12).
    fn write_named(&mut self, arg: Arg) {
        if arg.pipe || arg.dynamic || arg.text.is_empty() {
            return;
        }
        // Most commands run where the walk is: the word as it is.
        if self.job.dir.is_empty() && self.job.roots.is_empty() {
            self.out.push(Effect::WriteNamed(arg));
            return;
        }
        for located in self.located(&arg) {
            self.out.push(Effect::WriteNamed(located));
        }
    }

    /// A whole tree written at `dir/name`, or merged into `dir` (`name` `None`).
    fn write_tree(&mut self, dir: &Arg, name: Option<&Arg>, known_dir: bool) {
        if dir.pipe || dir.text.is_empty() {
            return;
        }
        let name = match name {
            Some(source) => {
                let trimmed = source.text.trim_end_matches('/');
                let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
                if base.is_empty() || base == "." {
                    None
                } else if base == ".." {
                    return;
                } else {
                    Some(Arg { text: base.to_string(), dynamic: source.dynamic, glob: source.glob, pipe: false })
                }
            }
            None => None,
        };
        for dir in self.located(dir) {
            self.out.push(Effect::WriteTree { dir, name: name.clone(), known_dir });
        }
    }

    /// A script runs where the job runs (`sudo -D d sh -c …`), once for each `{}` of `find`.
    fn push(&mut self, effect: Effect) {
        let located = |script: &str| {
            if self.job.dir.is_empty() {
                script.to_string()
            } else {
                format!("cd {} && {script}", quote(&self.job.dir))
            }
        };
        let rooted = |text: &str, root: &Arg| text.replace("{}", &root.text);
        match effect {
            Effect::Script(script) if script.contains("{}") && !self.job.roots.is_empty() => {
                for root in &self.job.roots {
                    self.out.push(Effect::Script(located(&rooted(&script, root))));
                }
            }
            Effect::Script(script) => self.out.push(Effect::Script(located(&script))),
            Effect::Run { script, positional, complete } => {
                let complete = complete && !self.job.open;
                let uses_roots = (script.contains("{}") || positional.iter().any(|arg| arg.text.contains("{}")))
                    && !self.job.roots.is_empty();
                if !uses_roots {
                    self.out.push(Effect::Run { script: located(&script), positional, complete });
                    return;
                }
                for root in &self.job.roots {
                    let positional = positional
                        .iter()
                        .map(|arg| Arg {
                            text: rooted(&arg.text, root),
                            dynamic: arg.dynamic || root.dynamic,
                            ..arg.clone()
                        })
                        .collect();
                    self.out.push(Effect::Run { script: located(&rooted(&script, root)), positional, complete });
                }
            }
            Effect::Link { link, target } => {
                for link in self.located(&link) {
                    self.out.push(Effect::Link { link, target: target.clone() });
                }
            }
            effect => self.out.push(effect),
        }
    }

    fn run_file(&mut self, script: &Arg, this_shell: bool, by_shebang: bool) {
        if script.dynamic || script.pipe || script.text.is_empty() {
            return;
        }
        for path in self.located(script) {
            self.out.push(Effect::RunFile { path, this_shell, by_shebang });
        }
    }
}

/// A command a wrapper runs: where its words start in the wrapper's words (or new words), and
/// what changes for it.
struct Next {
    args: Option<Vec<Arg>>,
    start: usize,
    dir: Option<Arg>,
    roots: Option<Vec<Arg>>,
    /// The line's standard input reaches it (not so for a command `xargs` runs).
    reads_input: bool,
    /// More arguments may follow that the line does not show.
    open: bool,
}

impl Next {
    fn at(start: usize) -> Self {
        Next { args: None, start, dir: None, roots: None, reads_input: true, open: false }
    }

    fn with(args: Vec<Arg>) -> Self {
        Next { args: Some(args), ..Next::at(0) }
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
        Job {
            args,
            dir,
            roots: self.roots.unwrap_or_else(|| parent.roots.clone()),
            producer: if self.reads_input { parent.producer } else { &[] },
            reads_input: self.reads_input && parent.reads_input,
            open: self.open || parent.open,
        }
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
        // `$cli approve …`: a command whose name is not known that asks to approve (P-11).
        if first.dynamic && static_is(args.get(1), "approve") {
            sink.write_text(paths::APPROVAL_FILE);
        }
        return None;
    }
    let rest = args.get(1..).unwrap_or_default();
    let name = command_name(&first.text);
    if is_cli(name) {
        cli(rest, sink);
        return None;
    }
    if programs::language_of(name).is_some() {
        program(args, stdin, sink);
        return None;
    }
    if runs_a_script_file(&first.text) {
        sink.run_file(first, false, true);
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
        "builtin" | "nohup" | "busybox" | "firejail" => after_options(rest, &prefix_spec("", &[])),
        "watch" => watch(rest, sink),
        "flock" => flock(rest, sink),
        "script" => script(rest, stdin, sink),
        "su" => su(rest, sink),
        "runuser" => runuser(rest, sink),
        "chroot" => {
            let start = options(rest, &prefix_spec("", &["userspec", "groups"]), |_| {});
            // Paths inside are relative to the new root.
            Some(vec![Next { dir: rest.get(start).cloned(), ..Next::at(start + 2) }])
        }
        "strace" | "ltrace" => tracer(rest, name, sink),
        "unshare" => unshare(rest),
        "fakeroot" => {
            let start = options(rest, &prefix_spec("lsib", &["lib", "faked"]), |item| {
                if let Item::Short('s', file) = item {
                    sink.write(&file);
                }
            });
            Some(vec![Next::at(start + 1)])
        }
        "proot" => {
            let long = ["rootfs", "bind", "mount", "cwd", "pwd", "qemu", "kernel-release", "verbose"];
            let mut dir = None;
            let start = options(rest, &prefix_spec("rbmwqkvRS", &long), |item| {
                if let Item::Short('w', value) | Item::Long("cwd" | "pwd", Some(value)) = item {
                    dir = Some(value);
                }
            });
            Some(vec![Next { dir, ..Next::at(start + 1) }])
        }
        "parallel" => parallel(rest, stdin, sink),
        "trap" => {
            let actions = operands(rest, &spec("", &[]));
            if let [action, _signal, ..] = actions.as_slice()
                && !static_is(Some(action), "-")
            {
                sink.push(Effect::Script(action.text.clone()));
            }
            None
        }
        // `coproc cmd args`, `coproc NAME { cmd; }` (tree-sitter keeps the brace as a word).
        "coproc" => {
            let brace = rest.iter().take(2).position(|arg| static_is(Some(arg), "{"));
            Some(vec![Next::at(brace.map_or(1, |at| at + 2))])
        }
        "." | "source" => {
            source(rest, stdin, sink);
            None
        }
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
        "xargs" => xargs(rest, stdin, sink),
        "find" => find(rest),
        "npx" | "pnpx" | "bunx" => npx(rest, sink),
        "npm" => match rest.first().map(|a| a.text.as_str()) {
            Some("exec" | "x") => npx(rest.get(1..).unwrap_or_default(), sink)
                .map(|nexts| nexts.into_iter().map(drop_separator).collect()),
            _ => None,
        },
        "pnpm" | "yarn" => package_runner(rest),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish" | "csh" | "tcsh" => {
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
            for arg in operands(rest, &spec("ns", &["iterations", "size", "random-source"])) {
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
            if name == "ln" {
                symlinks(rest, sink);
            }
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
        "git" => git(rest, stdin, sink),
        "patch" => {
            patch_command(rest, stdin, sink);
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
            curl(rest, sink);
            None
        }
        "wget" => {
            wget(rest, sink);
            None
        }
        "tar" | "gtar" | "bsdtar" => {
            archives::tar(rest, sink);
            None
        }
        "unzip" => {
            archives::unzip(rest, sink);
            None
        }
        "7z" | "7za" | "7zr" | "7zz" => {
            archives::seven_zip(rest, sink);
            None
        }
        "cpio" => {
            archives::cpio(rest, sink);
            None
        }
        _ => {
            unknown::analyze(name, rest, stdin, sink);
            None
        }
    }
}

/// `curl -o file`, `-O`/`--remote-name` (the URL's last segment, in `--output-dir` or here), and
/// `-J` (a name the server chooses, in that directory).
fn curl(args: &[Arg], sink: &mut Sink) {
    let long_values =
        ["output", "data", "header", "user", "request", "url", "form", "config", "cookie", "cookie-jar", "output-dir"];
    let mut remote_name = false;
    let mut server_name = false;
    let mut output_dir = None;
    let mut urls = Vec::new();
    options(args, &spec("odHuXFKbcAeEmrTwxyYz", &long_values), |item| match item {
        Item::Short('o' | 'c', file) | Item::Long("output" | "cookie-jar", Some(file)) => sink.write(&file),
        Item::Flag('O') | Item::Long("remote-name" | "remote-name-all", None) => remote_name = true,
        Item::Flag('J') | Item::Long("remote-header-name", None) => server_name = true,
        Item::Long("output-dir", Some(dir)) => output_dir = Some(dir),
        Item::Long("url", Some(url)) => urls.push(url),
        Item::Operand(url) => urls.push(url.clone()),
        _ => {}
    });
    if !remote_name {
        return;
    }
    let dir = output_dir.unwrap_or_else(|| Arg::literal("."));
    for url in &urls {
        if let Some(name) = url_file_name(&url.text) {
            sink.write_into(&dir, &Arg { text: name.to_string(), ..url.clone() }, true);
        }
    }
    if server_name {
        sink.write_named(dir);
    }
}

/// The file name a downloader gives a URL: its path's last segment, without query or fragment.
fn url_file_name(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let path = path.split_once("://").map_or(path, |(_, rest)| rest.split_once('/').map_or("", |(_, path)| path));
    path.rsplit('/').next().filter(|name| !name.is_empty())
}

/// `wget -O file`, `-o/-a log`, and a download's own name in `-P dir` (default: here); a
/// recursive download (`-r`, `-m`) writes a tree there.
fn wget(args: &[Arg], sink: &mut Sink) {
    let mut document = false;
    let mut recursive = false;
    let mut prefix = None;
    let mut urls = Vec::new();
    let long = ["output-document", "output-file", "append-output", "directory-prefix", "tries", "timeout", "user"];
    options(args, &spec("OoaPtTeUiDlAR", &long), |item| match item {
        Item::Short('O', file) | Item::Long("output-document", Some(file)) => {
            sink.write(&file);
            document = true;
        }
        Item::Short('o' | 'a', file) | Item::Long("output-file" | "append-output", Some(file)) => sink.write(&file),
        Item::Short('P', dir) | Item::Long("directory-prefix", Some(dir)) => prefix = Some(dir),
        Item::Flag('r' | 'm') | Item::Long("recursive" | "mirror", None) => recursive = true,
        Item::Operand(url) => urls.push(url),
        _ => {}
    });
    if document {
        return;
    }
    let dir = prefix.unwrap_or_else(|| Arg::literal("."));
    if recursive {
        sink.write_tree(&dir, None, true);
    }
    sink.write_named(dir.clone());
    for url in urls {
        let name = url_file_name(&url.text).unwrap_or("index.html");
        sink.write_into(&dir, &Arg { text: name.to_string(), ..url.clone() }, true);
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

/// `text` as one single-quoted shell word.
pub fn quote(text: &str) -> String {
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
                nexts.push(Next { roots: Some(found.clone()), reads_input: false, ..Next::with(words) });
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let end = args
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .position(|a| !a.dynamic && (a.text == ";" || a.text == "+"))
                    .map_or(args.len(), |offset| at + offset);
                let words = args.get(at..end).unwrap_or_default().to_vec();
                nexts.push(Next { roots: Some(found.clone()), reads_input: false, ..Next::with(words) });
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

/// The CLI's `approve <id> design|plan` writes `openspec/changes/<id>/approval.md`.
fn cli(args: &[Arg], sink: &mut Sink) {
    let words = operands(args, &spec("", &["cwd"]));
    // No subcommand: one fed later (`xargs approval-gates`, `find -exec approval-gates {}`) may
    // be `approve`.
    let Some(sub) = words.first() else {
        if !args.iter().any(|arg| matches!(arg.text.as_str(), "--help" | "-h" | "--version")) {
            sink.write_text(paths::APPROVAL_FILE);
        }
        return;
    };
    // `{}`: what `find -exec` or `xargs -I{}` puts there may be `approve`.
    if !(sub.dynamic || sub.text == "approve" || sub.text.contains("{}")) {
        return;
    }
    match words.get(1) {
        Some(id) if !id.dynamic && paths::is_safe_segment(&id.text) => {
            sink.write_text(&format!("openspec/changes/{}/{}", id.text, paths::APPROVAL_FILE))
        }
        _ => sink.write_text(paths::APPROVAL_FILE),
    }
}

/// An interpreter's program, and the CLI run by `node path/to/approval-gates.mjs …`.
fn program(argv: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let texts: Vec<String> = argv.iter().map(|arg| arg.text.clone()).collect();
    let Some(invocation) = programs::invocation(&texts, stdin) else { return };
    let name = argv.first().map_or("", |first| command_name(&first.text));
    if matches!(name, "node" | "nodejs")
        && let programs::Source::File(script) = &invocation.source
        && is_cli(command_name(script))
    {
        let at = argv.iter().position(|arg| &arg.text == script).unwrap_or(argv.len());
        cli(argv.get(at + 1..).unwrap_or_default(), sink);
        return;
    }
    // P-11: the CLI's name followed by `approve` among a program's words or stdin.
    unknown::approval_through_cli(argv.get(1..).unwrap_or_default(), stdin, sink);
    if name.starts_with("perl") {
        perl(argv.get(1..).unwrap_or_default(), sink);
    }
    sink.push(Effect::Program { invocation, dir: sink.job.dir.clone() });
}

/// A command spelled as a path to a file of this tree (`./x.sh`, `tools/gen`, `/tmp/x.py`): the
/// walk reads its `#!` line. System programs (`/usr/bin/…`) are left to the table.
fn runs_a_script_file(word: &str) -> bool {
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
fn shell(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut command: Option<Arg> = None;
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
            match text {
                "--rcfile" | "--init-file" | "--init-command" => at += 1,
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
        // `-o pipefail`, `-O extglob` take the next word.
        at += cluster.chars().filter(|c| matches!(c, 'o' | 'O')).count();
    }
    let operand = args.get(at);
    let rest = args.get(at + 1..).unwrap_or_default();
    let run =
        |script: &str, positional: Vec<Arg>| Effect::Run { script: script.to_string(), positional, complete: true };
    if let Some(script) = command.as_ref().or_else(|| command_mode.then_some(operand).flatten()) {
        // `bash -c 'script' arg0 arg1`: the words after the script are `$0`, `$1`, …
        let words = if command.is_some() { args.get(at..).unwrap_or_default() } else { rest };
        sink.push(run(&script.text, words.to_vec()));
    } else if let Some(file) = operand.filter(|file| file.pipe && !file.dynamic) {
        // `bash <(echo …)`: the script is what the substitution prints.
        sink.push(run(&file.text, std::iter::once(Arg::literal("bash")).chain(rest.iter().cloned()).collect()));
    } else if let Some(file) = operand.filter(|file| !stdin_mode && !static_is(Some(file), "-") && !is_stdin_path(file))
    {
        // `bash x.sh`: the walk reads the file.
        sink.run_file(file, false, false);
    } else if let Some(stdin) = stdin {
        let zero = Arg::literal("bash");
        if stdin_mode {
            let positional = std::iter::once(zero).chain(args.get(at..).unwrap_or_default().iter().cloned());
            sink.push(run(stdin, positional.collect()));
        } else if operand.is_none() || static_is(operand, "-") || operand.is_some_and(is_stdin_path) {
            sink.push(run(stdin, std::iter::once(zero).chain(rest.iter().cloned()).collect()));
        }
    }
}

/// The names standard input goes by as a file.
fn is_stdin_path(arg: &Arg) -> bool {
    !arg.dynamic && matches!(arg.text.as_str(), "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// `. /dev/stdin`, `source <(echo …)`: a script this shell reads, from its input or a
/// substitution whose output is known.
fn source(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let Some(file) = args.first() else { return };
    if file.pipe && !file.dynamic {
        sink.push(Effect::Eval(file.text.clone()));
    } else if is_stdin_path(file) {
        if let Some(stdin) = stdin {
            sink.push(Effect::Eval(stdin.to_string()));
        }
    } else {
        // `source x.sh`: the walk reads the file; its `cd` counts afterwards.
        sink.run_file(file, true, false);
    }
}

/// `watch [-n s] cmd…` runs its words through `sh -c`; `-x` runs them directly.
fn watch(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let mut exec = false;
    let start = options(args, &prefix_spec("nq", &["interval", "equexit"]), |item| {
        exec |= matches!(item, Item::Flag('x') | Item::Long("exec", None));
    });
    if exec {
        return Some(vec![Next::at(start + 1)]);
    }
    let words: Vec<&str> = args.get(start..).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    if !words.is_empty() {
        sink.push(Effect::Script(words.join(" ")));
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
            sink.push(Effect::Script(script.text));
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
    options(args, &spec("cEIOBTmo", &long), |item| match item {
        Item::Short('c', script) | Item::Long("command", Some(script)) => command = Some(script),
        Item::Short('I' | 'O' | 'B' | 'T', file)
        | Item::Long("log-in" | "log-out" | "log-io" | "log-timing", Some(file)) => {
            logs = true;
            sink.write(&file);
        }
        Item::Operand(arg) => files.push(arg.clone()),
        _ => {}
    });
    match files.first() {
        Some(file) => sink.write(file),
        None if !logs => sink.write_text("typescript"),
        None => {}
    }
    if let Some(command) = command {
        sink.push(Effect::Script(command.text));
    } else if files.len() > 1 {
        return Some(vec![Next::with(files.split_off(1))]);
    } else if let Some(stdin) = stdin {
        sink.push(Effect::Script(stdin.to_string()));
    }
    None
}

/// `su [opts] [-] [user] -c cmd`: options may come after the user.
fn su(args: &[Arg], sink: &mut Sink) -> Option<Vec<Next>> {
    let long = ["command", "session-command", "shell", "group", "supp-group", "whitelist-environment"];
    options(args, &spec("cCsgGw", &long), |item| {
        if let Item::Short('c' | 'C', script) | Item::Long("command" | "session-command", Some(script)) = item {
            sink.push(Effect::Script(script.text));
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
        Some(script) => sink.push(Effect::Script(script.text)),
        None if user => return Some(vec![Next::at(start + 1)]),
        None => return su(args, sink),
    }
    None
}

/// `strace [-o file] cmd…`, `ltrace [-o file] cmd…`: the output file is written.
fn tracer(args: &[Arg], name: &str, sink: &mut Sink) -> Option<Vec<Next>> {
    let short = if name == "strace" { "abeEIoOpPsSuUX" } else { "aADeFlnopsuwx" };
    let long = ["output", "attach", "trace-path", "string-limit", "user", "env", "signal", "trace", "library"];
    let start = options(args, &prefix_spec(short, &long), |item| {
        if let Item::Short('o', file) | Item::Long("output", Some(file)) = item {
            sink.write(&file);
        }
    });
    Some(vec![Next::at(start + 1)])
}

/// `unshare [opts] cmd…`; `-w dir` (or `-R root`) is where its paths start.
fn unshare(args: &[Arg]) -> Option<Vec<Next>> {
    let long = ["setuid", "setgid", "root", "wd", "propagation", "map-user", "map-group", "map-users", "map-groups"];
    let (mut root, mut wd) = (None, None);
    let start = options(args, &prefix_spec("SGRw", &long), |item| match item {
        Item::Short('R', dir) | Item::Long("root", Some(dir)) => root = Some(dir),
        Item::Short('w', dir) | Item::Long("wd", Some(dir)) => wd = Some(dir),
        _ => {}
    });
    Some(vec![Next { dir: wd.or(root), ..Next::at(start + 1) }])
}

/// How `xargs` splits what it reads into arguments: blanks and newlines with quotes and
/// backslashes, or lines (`-I`), or a delimiter (`-0`, `-d`).
fn input_items(text: &str, lines: bool, delimiter: Option<char>) -> Vec<Arg> {
    if let Some(delimiter) = delimiter {
        return text.split(delimiter).filter(|item| !item.is_empty()).map(Arg::literal).collect();
    }
    if lines {
        return text.lines().map(str::trim).filter(|line| !line.is_empty()).map(Arg::literal).collect();
    }
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => current.extend(chars.next()),
            (None, c) if c.is_whitespace() => {
                if !current.is_empty() {
                    items.push(Arg::literal(&std::mem::take(&mut current)));
                }
            }
            (None, c) => current.push(c),
        }
    }
    if !current.is_empty() {
        items.push(Arg::literal(&current));
    }
    items
}

/// Commands one `xargs -I` or `parallel` may run one by one before the rest are given at once.
const MAX_INPUT_JOBS: usize = 32;

/// `xargs [opts] cmd…`: the command with what it reads appended, or put in place of the `-I`
/// string once per line. Input the line does not show leaves the arguments open, save the
/// guarded locations an unknown producer names (`ls plans/*.md | xargs sed -i …`).
fn xargs(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let long = ["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"];
    let (mut replace, mut delimiter, mut from_file) = (None, None, false);
    let start = options(args, &prefix_spec("adEILnPs", &long), |item| match item {
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = Some(text.text),
        Item::Flag('i') | Item::Long("replace", None) => replace = Some("{}".to_string()),
        Item::Flag('0') | Item::Long("null", None) => delimiter = Some('\0'),
        Item::Short('d', text) | Item::Long("delimiter", Some(text)) => {
            delimiter = words_char(&text.text);
        }
        Item::Short('a', _) | Item::Long("arg-file", Some(_)) => from_file = true,
        _ => {}
    });
    let mut command = args.get(start..).unwrap_or_default().to_vec();
    if command.is_empty() {
        command.push(Arg::literal("echo"));
    }
    let (items, open) = match stdin {
        Some(text) if !from_file => (input_items(text, replace.is_some(), delimiter), false),
        _ => (fed_words(sink.job.producer), true),
    };
    Some(fill(command, items, replace.as_deref(), open))
}

/// The words of an unknown producer that name a guarded location: what it may feed.
pub fn fed_words(producer: &[Arg]) -> Vec<Arg> {
    let words = producer.get(1..).unwrap_or_default().iter();
    words.filter(|arg| !arg.pipe && paths::names_guarded_location(&arg.text)).cloned().collect()
}

/// `-d '\n'` and the like: the one character a delimiter word stands for.
fn words_char(text: &str) -> Option<char> {
    let decoded = super::words::ansi_c(text);
    let mut chars = decoded.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The commands `xargs`/`parallel` run: `replace` put in place by each item, else the items
/// appended.
fn fill(command: Vec<Arg>, items: Vec<Arg>, replace: Option<&str>, open: bool) -> Vec<Next> {
    let next = |args| Next { reads_input: false, open, ..Next::with(args) };
    if let Some(replace) = replace.filter(|r| !r.is_empty())
        && !items.is_empty()
        && items.len() <= MAX_INPUT_JOBS
    {
        return items
            .iter()
            .map(|item| {
                let words = command
                    .iter()
                    .map(|word| match word.text.contains(replace) {
                        true => Arg {
                            text: word.text.replace(replace, &item.text),
                            dynamic: word.dynamic || item.dynamic,
                            glob: word.glob || item.glob,
                            pipe: false,
                        },
                        false => word.clone(),
                    })
                    .collect();
                next(words)
            })
            .collect();
    }
    // Input the line does not show: what stands for it is unknown.
    let mut words: Vec<Arg> = match replace.filter(|r| !r.is_empty() && open) {
        Some(replace) => command
            .into_iter()
            .map(|word| Arg { dynamic: word.dynamic || word.text.contains(replace), ..word })
            .collect(),
        None => command,
    };
    words.extend(items);
    vec![next(words)]
}

/// GNU `parallel [opts] cmd… ::: args`: each input, shell-quoted, in place of `{}` (or
/// appended), and the line run by a shell; without `:::` the inputs are standard input's lines.
fn parallel(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let long = [
        "jobs",
        "arg-file",
        "colsep",
        "delimiter",
        "replace",
        "max-args",
        "max-lines",
        "results",
        "joblog",
        "sshlogin",
        "tmpdir",
        "workdir",
        "env",
        "timeout",
        "delay",
        "halt",
        "tagstring",
        "basefile",
        "return",
    ];
    let mut replace = "{}".to_string();
    let mut from_file = false;
    let start = options(args, &prefix_spec("aCdEIjLnNPSs", &long), |item| match item {
        Item::Long("joblog" | "results", Some(file)) => sink.write(&file),
        Item::Short('I', text) | Item::Long("replace", Some(text)) => replace = text.text,
        Item::Short('a', _) | Item::Long("arg-file", Some(_)) => from_file = true,
        _ => {}
    });
    let rest = args.get(start..).unwrap_or_default();
    let separator = |arg: &Arg| !arg.dynamic && matches!(arg.text.as_str(), ":::" | "::::" | ":::+" | "::::+");
    let split = rest.iter().position(separator).unwrap_or(rest.len());
    let template: Vec<&str> = rest.get(..split).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect();
    let mut items = Vec::new();
    let mut open = from_file;
    let mut files = false;
    for arg in rest.get(split..).unwrap_or_default() {
        if separator(arg) {
            files = arg.text.starts_with("::::");
            open |= files;
        } else if !files {
            items.push(arg.clone());
        }
    }
    if split == rest.len() && !from_file {
        match stdin {
            Some(text) => items = input_items(text, true, None),
            None => {
                items = fed_words(sink.job.producer);
                open = true;
            }
        }
    }
    let template = template.join(" ");
    if template.is_empty() {
        // `parallel ::: 'cmd1' 'cmd2'`: each input is a command line.
        for item in items.iter().take(MAX_INPUT_JOBS) {
            sink.push(Effect::Script(item.text.clone()));
        }
        return None;
    }
    let inputs: Vec<&Arg> = items.iter().take(MAX_INPUT_JOBS).collect();
    for item in &inputs {
        let quoted = quote(&item.text);
        let line = match template.contains(&replace) {
            true => template.replace(&replace, &quoted),
            false => format!("{template} {quoted}"),
        };
        sink.push(Effect::Script(line));
    }
    if items.len() > MAX_INPUT_JOBS || (inputs.is_empty() && open) {
        let all: Vec<String> = items.iter().map(|item| quote(&item.text)).collect();
        sink.push(Effect::Script(format!("{} {}", template.replace(&replace, ""), all.join(" "))));
    }
    None
}

/// `ln -s target link`: later writes through `link` reach `target` (remembered by the walk).
fn symlinks(args: &[Arg], sink: &mut Sink) {
    let mut symbolic = false;
    let mut target_dir = None;
    let mut files = Vec::new();
    options(args, &spec("tS", &["target-directory", "suffix"]), |item| match item {
        Item::Flag('s') | Item::Long("symbolic", None) => symbolic = true,
        Item::Short('t', dir) | Item::Long("target-directory", Some(dir)) => target_dir = Some(dir),
        Item::Operand(arg) => files.push(arg.clone()),
        _ => {}
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
            sink.push(Effect::Link { link: link.clone(), target: target.clone() });
            (vec![target.clone()], link.clone())
        }
        (None, Some((dir, targets))) if !targets.is_empty() => (targets.to_vec(), dir.clone()),
        (None, Some((target, _))) => (vec![target.clone()], Arg::literal(".")),
        (None, None) => return,
    };
    for target in targets {
        sink.push(Effect::Link { link: inside(&dir, &target), target });
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
    let mut recursive = matches!(name, "mv" | "git mv" | "rsync");
    let mut files = Vec::new();
    options(args, &spec, |item| match item {
        Item::Flag('r' | 'R' | 'a') | Item::Long("recursive" | "archive", None) if name == "cp" => recursive = true,
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
    let known_dir = sources.len() > 1 || destination.text.ends_with('/');
    if recursive {
        for source in sources {
            // A tree merged into the destination: `-T`, `src/.`, rsync's `src/`.
            let merged = no_target_dir || (name == "rsync" && source.text.ends_with('/'));
            sink.write_tree(destination, (!merged).then_some(*source), known_dir);
        }
    }
    if !no_target_dir {
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
fn git(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = String::new();
    let mut dynamic = false;
    let long = ["git-dir", "work-tree", "namespace", "super-prefix", "config-env", "exec-path"];
    let mut configs = Vec::new();
    let start = options(args, &prefix_spec("Cc", &long), |item| match item {
        Item::Short('C', value) => {
            dir = join(&dir, &value.text);
            dynamic |= value.dynamic;
        }
        // `-c alias.x='!cmd'`, `-c core.editor=cmd`: commands git may run.
        Item::Short('c', value) => configs.push(value),
        _ => {}
    });
    unknown::approval_through_cli(&configs, None, sink);
    let sub = args.get(start)?;
    if let Some(alias) = git_alias(&configs, &sub.text) {
        let rest = args.get(start + 1..).unwrap_or_default();
        return Some(vec![git_aliased(alias, rest, &dir, sink)]);
    }
    let job = Job {
        args: Cow::Borrowed(args.get(start + 1..).unwrap_or_default()),
        dir: join(&sink.job.dir, &dir),
        roots: sink.job.roots.clone(),
        producer: sink.job.producer,
        reads_input: sink.job.reads_input,
        open: sink.job.open,
    };
    let mut inner = Sink { job: &job, out: &mut *sink.out };
    match sub.text.as_str() {
        // What they write is what their patches name.
        "apply" | "am" => git_patch(&sub.text, &job.args, stdin, &mut inner),
        sub => git_subcommand(sub, &job.args, &mut inner),
    }
    None
}

/// git's subcommands that write no file their words name (the object store and refs aside).
const GIT_READERS: &[&str] = &[
    "log",
    "show",
    "diff",
    "status",
    "blame",
    "annotate",
    "grep",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "rev-list",
    "cat-file",
    "hash-object",
    "show-ref",
    "for-each-ref",
    "describe",
    "shortlog",
    "reflog",
    "whatchanged",
    "add",
    "commit",
    "fetch",
    "push",
    "branch",
    "tag",
    "remote",
    "notes",
    "name-rev",
    "merge-base",
    "count-objects",
    "fsck",
    "check-ignore",
    "check-attr",
    "verify-commit",
    "verify-tag",
    "help",
    "version",
    "var",
    "diff-tree",
    "diff-files",
    "diff-index",
    "range-diff",
    "cherry",
    "switch",
    "stage",
];
/// The value of `-c alias.<sub>=…` (alias names ignore case), the last one given.
fn git_alias(configs: &[Arg], sub: &str) -> Option<Arg> {
    configs.iter().rev().find_map(|config| {
        let (key, value) = config.text.split_once('=')?;
        let name = key.strip_prefix("alias.").or_else(|| key.strip_prefix("ALIAS."))?;
        name.eq_ignore_ascii_case(sub).then(|| Arg { text: value.to_string(), ..config.clone() })
    })
}

/// `git -c alias.x='!cmd' x args` runs `sh -c 'cmd "$@"' cmd args` in the work tree's top (taken
/// as the `-C` directory); `alias.x='checkout -- f'` is git with those words.
fn git_aliased(alias: Arg, rest: &[Arg], dir: &str, sink: &mut Sink) -> Next {
    if let Some(command) = alias.text.strip_prefix('!') {
        let positional = std::iter::once(Arg::literal(command)).chain(rest.iter().cloned()).collect();
        let script = format!("{command} \"$@\"");
        let script = if dir.is_empty() { script } else { format!("cd {} && {script}", quote(dir)) };
        sink.push(Effect::Run { script, positional, complete: true });
        return Next::with(Vec::new());
    }
    // The alias's words, then the rest, in the `-C` directory.
    let mut words = vec![Arg::literal("git")];
    if !dir.is_empty() {
        words.extend([Arg::literal("-C"), Arg::literal(dir)]);
    }
    words.extend(alias.text.split_whitespace().map(|word| Arg { text: word.to_string(), ..alias.clone() }));
    words.extend(rest.iter().cloned());
    Next::with(words)
}

/// The git subcommands that write the working tree, reached through [`git`].
fn git_subcommand(sub: &str, args: &[Arg], sink: &mut Sink) {
    match sub {
        "checkout" => {
            let separator = args.iter().position(|arg| !arg.dynamic && arg.text == "--");
            let (paths, from_revision): (Vec<&Arg>, bool) = match separator {
                Some(at) => (
                    args.get(at + 1..).unwrap_or_default().iter().collect(),
                    args.get(..at).unwrap_or_default().iter().any(|arg| !arg.text.starts_with('-')),
                ),
                None => (operands(args, &spec("bB", &["orphan", "conflict", "pathspec-from-file"])), false),
            };
            for path in paths {
                sink.write(path);
                if from_revision {
                    sink.write_tree(path, None, false);
                }
            }
        }
        "restore" => {
            let (mut staged, mut worktree, mut from_revision) = (false, false, false);
            let paths = {
                let mut found = Vec::new();
                options(args, &spec("s", &["source", "pathspec-from-file"]), |item| match item {
                    Item::Short('s', _) | Item::Long("source", Some(_)) => from_revision = true,
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
                    if from_revision {
                        sink.write_tree(path, None, false);
                    }
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
        _ if GIT_READERS.contains(&sub) => {}
        _ => unknown::analyze(sub, args, None, sink),
    }
}

/// GNU `patch`: `-o` names what it writes instead; an original-file operand is what it writes;
/// otherwise every file the patch names, read from `-i` or stdin.
fn patch_command(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
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
        strips = vec![crate::patch::Strip::BASENAME.0, 1];
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
fn git_patch(sub: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
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
