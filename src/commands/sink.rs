//! One command being read and what it runs in turn: its words, the directory its paths are
//! relative to, and the sink that places every effect there.

use std::borrow::Cow;

use super::effects::{Environment, Written};
use super::{Arg, Effect, quote};
use crate::analysis::handoff::Analyses;

/// One command to analyze: its words, the directory its paths are relative to (empty: the
/// walk's), and, inside `find -exec`, what `{}` stands for.
pub(super) struct Job<'a> {
    pub args: Cow<'a, [Arg]>,
    pub dir: String,
    pub roots: Vec<Arg>,
    /// The words of the producer piping into the command when its output is unknown.
    pub producer: &'a [Arg],
    /// The command reads the line's standard input (not a command `xargs` runs).
    pub reads_input: bool,
    /// More arguments may follow that the line does not show (`xargs` of unknown input).
    pub open: bool,
    /// How its environment differs from the shell's.
    pub environment: Environment,
    /// The files the line wrote before it with text it shows.
    pub written: Written<'a>,
}

/// A command a wrapper runs: where its words start in the wrapper's words (or new words), and
/// what changes for it.
pub(super) struct Next {
    pub args: Option<Vec<Arg>>,
    pub start: usize,
    pub dir: Option<Arg>,
    pub roots: Option<Vec<Arg>>,
    /// The line's standard input reaches it (not so for a command `xargs` runs).
    pub reads_input: bool,
    /// More arguments may follow that the line does not show.
    pub open: bool,
    /// What the wrapper changes in the environment of the command it runs (`env -u A B=1`).
    pub environment: Environment,
}

impl<'a> Job<'a> {
    /// `args` run where the walk is, fed nothing it knows, in the shell's environment.
    pub fn of(args: &'a [Arg]) -> Job<'a> {
        Job {
            args: Cow::Borrowed(args),
            dir: String::new(),
            roots: Vec::new(),
            producer: &[],
            reads_input: true,
            open: false,
            environment: Environment::default(),
            written: Written::default(),
        }
    }
}

impl Next {
    pub fn at(start: usize) -> Self {
        let environment = Environment::default();
        Next { args: None, start, dir: None, roots: None, reads_input: true, open: false, environment }
    }

    pub fn with(args: Vec<Arg>) -> Self {
        Next { args: Some(args), ..Next::at(0) }
    }

    pub fn into_job<'a>(self, parent: &Job<'a>) -> Job<'a> {
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
            environment: parent.environment.then(&self.environment),
            written: parent.written,
        }
    }
}

/// Collects effects, applying the job's directory and `{}` roots to every path.
pub(super) struct Sink<'j, 'o> {
    pub job: &'j Job<'j>,
    pub out: &'o mut Vec<Effect>,
    /// The analyses that read what the table hands over (which commands run programs, the
    /// script file one runs); none where only what a command prints matters.
    pub analyses: Option<&'j dyn Analyses>,
}

pub(super) fn join(dir: &str, path: &str) -> String {
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
                located.holes = arg.holes.joined(arg.dynamic, root.holes, root.dynamic);
                located.dynamic |= root.dynamic;
                // A glob starting point of find's stays one in the command it runs.
                located.glob |= root.glob;
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

    pub fn write(&mut self, arg: &Arg) {
        // What a glob could match is the walk's to find: it knows the directory it expands in.
        self.push_located(arg, Effect::Write);
    }

    /// `effect` of the path `arg` stands for where the job runs (each `{}` root), unless a pipe
    /// or empty.
    fn push_located(&mut self, arg: &Arg, effect: fn(Arg) -> Effect) {
        if arg.pipe || arg.text.is_empty() {
            return;
        }
        for located in self.located(arg) {
            self.out.push(effect(located));
        }
    }

    pub fn write_text(&mut self, text: &str) {
        self.write(&Arg::literal(text));
    }

    pub fn write_into(&mut self, dir: &Arg, source: &Arg, known_dir: bool) {
        if dir.pipe || source.pipe || dir.text.is_empty() {
            return;
        }
        let trimmed = source.text.trim_end_matches('/');
        let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
        if base.is_empty() || base == "." || base == ".." {
            return;
        }
        let name = Arg { glob: source.glob, ..Arg::part_of(base, source) };
        for dir in self.located(dir) {
            self.out.push(Effect::WriteInto { dir, name: name.clone(), known_dir });
        }
    }

    /// A directory made ([`Effect::MakeDirectory`]).
    pub fn make_directory(&mut self, arg: &Arg) {
        self.push_located(arg, Effect::MakeDirectory);
    }

    /// An unknown command's word that may be a path (P-12).
    pub fn write_named(&mut self, arg: Arg) {
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

    /// The files beneath `dir` git may bring back from its index ([`Effect::RestoresNamed`]).
    pub fn restore_named(&mut self, dir: &Arg) {
        self.push_located(dir, Effect::RestoresNamed);
    }

    /// Files under `path` git puts in its index ([`Effect::Stages`]).
    pub fn stage(&mut self, path: &Arg) {
        self.push_located(path, Effect::Stages);
    }

    /// An unknown command runs where the job runs.
    pub fn runs_here(&mut self) {
        let here = if self.job.dir.is_empty() { "." } else { self.job.dir.as_str() };
        self.out.push(Effect::RunsIn(Arg::literal(here)));
    }

    /// A whole tree written at `dir/name`, or merged into `dir` (`name` `None`).
    pub fn write_tree(&mut self, dir: &Arg, name: Option<&Arg>, known_dir: bool) {
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
                    Some(Arg { glob: source.glob, ..Arg::part_of(base, source) })
                }
            }
            None => None,
        };
        for dir in self.located(dir) {
            self.out.push(Effect::WriteTree { dir, name: name.clone(), known_dir });
        }
    }

    /// A script a child shell runs (`bash -c`, `watch`, `flock -c`, a heredoc fed to `sh`), where
    /// the job runs (`sudo -D d sh -c …`), once for each `{}` of `find`, with the job's environment.
    pub fn script(&mut self, script: &str) {
        self.script_in(script, &Environment::default());
    }

    /// [`Self::script`] with what the command itself changes in the environment on top of the
    /// job's (`env -u A -S '…'`).
    pub fn script_in(&mut self, script: &str, changes: &Environment) {
        self.push_script(script, changes, self.job.reads_input);
    }

    /// [`Self::script`] made of all the command read on its standard input (`make -f -`): nothing
    /// is left there for the script to read.
    pub fn script_of_input(&mut self, script: &str) {
        self.push_script(script, &Environment::default(), false);
    }

    fn push_script(&mut self, script: &str, changes: &Environment, reads_input: bool) {
        let environment = self.job.environment.then(changes);
        if script.contains("{}") && !self.job.roots.is_empty() {
            for root in &self.job.roots {
                let script = self.in_dir(&script.replace("{}", &root.text));
                self.out.push(Effect::Script { script, environment: environment.clone(), reads_input });
            }
        } else {
            let script = self.in_dir(script);
            self.out.push(Effect::Script { script, environment, reads_input });
        }
    }

    /// A script a child shell runs with its parameters `positional` (`$0` first), as [`Self::script`].
    pub fn run(&mut self, script: &str, positional: Vec<Arg>) {
        let (complete, reads_input) = (!self.job.open, self.job.reads_input);
        let environment = self.job.environment.clone();
        let uses_roots = (script.contains("{}") || positional.iter().any(|arg| arg.text.contains("{}")))
            && !self.job.roots.is_empty();
        if !uses_roots {
            let script = self.in_dir(script);
            self.out.push(Effect::Run { script, positional, complete, environment, reads_input });
            return;
        }
        for root in &self.job.roots {
            let positional = positional
                .iter()
                .map(|arg| Arg {
                    text: arg.text.replace("{}", &root.text),
                    dynamic: arg.dynamic || root.dynamic,
                    ..arg.clone()
                })
                .collect();
            let script = self.in_dir(&script.replace("{}", &root.text));
            self.out.push(Effect::Run { script, positional, complete, environment: environment.clone(), reads_input });
        }
    }

    /// A script run in the job's directory.
    fn in_dir(&self, script: &str) -> String {
        if self.job.dir.is_empty() { script.to_string() } else { format!("cd {} && {script}", quote(&self.job.dir)) }
    }

    /// What `write` does, with its paths relative to `dir` (empty: to where they are placed later,
    /// [`Effect::InWorkTree`]), collected apart.
    pub fn collected(&self, dir: &str, write: impl FnOnce(&mut Sink)) -> Vec<Effect> {
        let job = Job {
            args: Cow::Borrowed(&[]),
            dir: dir.to_string(),
            roots: self.job.roots.clone(),
            producer: self.job.producer,
            reads_input: self.job.reads_input,
            open: self.job.open,
            environment: self.job.environment.clone(),
            written: self.job.written,
        };
        let mut effects = Vec::new();
        write(&mut Sink { job: &job, out: &mut effects, analyses: self.analyses });
        effects
    }

    pub fn push(&mut self, effect: Effect) {
        match effect {
            Effect::Link { link, target, from_here } => {
                let target = match from_here {
                    true => self.located(&target).pop().unwrap_or(target),
                    false => target,
                };
                for link in self.located(&link) {
                    self.out.push(Effect::Link { link, target: target.clone(), from_here });
                }
            }
            effect => self.out.push(effect),
        }
    }

    /// `argv`, a command that runs what it reads, judged again with the text of each of `files`
    /// on its standard input ([`Effect::ReadsFiles`]).
    pub fn reads_files(&mut self, argv: Vec<Arg>, files: &[Arg]) {
        let files = files.iter().filter(|file| !file.pipe).flat_map(|file| self.located(file)).collect();
        let (dir, environment) = (self.job.dir.clone(), self.job.environment.clone());
        self.out.push(Effect::ReadsFiles { argv, files, dir, environment });
    }

    /// `name` run with `args` as the shell or git finds it through the `PATH` the line set: from
    /// each of its folders, in order ([`Effect::RunsFound`]).
    pub fn run_found(&mut self, name: &str, args: &[Arg]) {
        let Some(folders) = super::path_folders(&self.job.environment) else { return };
        let at = |folder: Arg| Arg { text: join(&self.job.dir, &join(&folder.text, name)), ..folder };
        let paths = folders.into_iter().map(at).collect();
        self.runs_found(paths, args);
    }

    pub fn runs_found(&mut self, paths: Vec<Arg>, args: &[Arg]) {
        let environment = self.job.environment.clone();
        self.out.push(Effect::RunsFound { paths, args: args.to_vec(), environment });
    }

    pub fn run_file(&mut self, script: &Arg, this_shell: bool, by_shebang: bool, args: &[Arg]) {
        if script.dynamic || script.pipe || script.text.is_empty() {
            return;
        }
        for path in self.located(script) {
            let environment = self.job.environment.clone();
            self.out.push(Effect::RunFile { path, this_shell, by_shebang, args: args.to_vec(), environment });
        }
    }
}
