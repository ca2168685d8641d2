//! What a command does, as the writer table reports it: the files it writes (through the links
//! the line made), the scripts and programs it runs, the patches it applies and its `cd`s.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::command::UNCOMPUTED;
use super::interpreters::options_of;
use super::{Pushed, Reached, Walk, Walker};
use crate::analysis::answer::Proof;
use crate::analysis::fs;
use crate::analysis::handoff::{
    INTERPRETER_VARIABLES, Invocation, MAX_PATCH_BYTES, MAX_SCRIPT_FILE_BYTES, Place, Source, Strip,
};
use crate::analysis::moves;
use crate::analysis::scope::Scope;
use crate::analysis::values::{PROGRAM_HOLE, PROGRAM_NAME_HOLE, wildcarded};
use crate::bash::state::Bash;
use crate::bash::words::{Positional, Value};
use crate::bash::{MAX_SCRIPT_NESTING, Unscannable};
use crate::commands::{self, Arg, Cd, Effect, Environment, PatchRead, Variable, WorkTree, Written};
use crate::paths;

impl Walker<'_> {
    pub(super) fn apply(
        &mut self,
        effects: Vec<Effect>,
        walk: &Walk,
        scope: &mut Scope<Bash>,
        only_new: bool,
        written_before: usize,
    ) -> Result<(), Unscannable> {
        // A link exists once its command is done: what the command itself writes is not through it.
        let mut effects = effects;
        if effects.iter().any(|effect| matches!(effect, Effect::Link { .. })) {
            effects.sort_by_key(|effect| matches!(effect, Effect::Link { .. }));
        }
        for effect in effects {
            match effect {
                Effect::Write(arg) => self.write(&arg, walk, scope),
                Effect::WriteInto { dir, name, known_dir } => {
                    self.uncomputed(&dir, walk, scope);
                    let dir = paths::absolute(&dir.text, &scope.base);
                    if known_dir
                        || fs::is_dir(&dir)
                        || scope.links().iter().any(|(link, _)| *link == dir)
                        || self.made_dir(&dir)
                    {
                        self.uncomputed_name(&name, &dir, walk, scope);
                        self.add(&name.text, &dir, scope.links());
                    }
                }
                Effect::MakeDirectory(dir) => {
                    let made = paths::absolute(&dir.text, &scope.base);
                    match self.made_dirs.as_mut() {
                        Some(made_dirs) if !dir.dynamic && made_dirs.len() < super::MAX_MADE_DIRS => {
                            made_dirs.push(made)
                        }
                        _ => self.made_dirs = None,
                    }
                }
                Effect::WriteNamed(arg) if may_be_guarded(&arg.text, scope) => {
                    self.add_reached(paths::absolute(&arg.text, &scope.base), paths::Reach::Named, scope);
                }
                Effect::RunsIn(dir) => {
                    if may_be_guarded(&dir.text, scope) {
                        for target in paths::guarded_here(&paths::absolute(&dir.text, &scope.base)) {
                            self.add_path(target, scope.links());
                        }
                    }
                    self.exported_to_it(scope);
                }
                Effect::WriteNamed(_) => {}
                Effect::RestoresNamed(dir) => self.restores_named(&dir, walk, scope),
                // A path the walk could not compute may be any the line names, which a restore
                // reaches anyway.
                Effect::Stages(path) if path.dynamic => {}
                Effect::Stages(path) => {
                    let path = paths::absolute(&path.text, &scope.base);
                    match self.staged.as_mut() {
                        Some(staged) if staged.len() < super::MAX_MADE_DIRS => staged.push(path),
                        _ => self.staged = None,
                    }
                }
                Effect::WriteTree { dir, name, known_dir } => {
                    self.write_tree(&dir, name.as_ref(), known_dir, written_before, walk, scope)
                }
                Effect::InWorkTree { dir, tree, from_top, effects } => {
                    for base in self.work_tree_bases(&dir, &tree, from_top, walk, scope) {
                        let mut there = scope.clone();
                        there.base = base;
                        self.apply(effects.clone(), walk, &mut there, only_new, written_before)?;
                    }
                }
                Effect::RunsUnseen => self.add_uncomputed(walk, scope),
                Effect::Script { script, environment, reads_input } => {
                    let mut child = child_shell(scope, None, &environment, walk.source);
                    self.script_fed(&script, &mut child, reads_input, walk)?;
                }
                Effect::Run { script, positional, complete, environment, reads_input } => {
                    let values = positional.into_iter().map(|arg| arg.into_value());
                    let positional = Positional { values: values.collect(), complete };
                    let mut child = child_shell(scope, Some(positional), &environment, walk.source);
                    self.script_fed(&script, &mut child, reads_input, walk)?;
                }
                Effect::Link { link, target, from_here } => {
                    let link = paths::absolute(&link.text, &scope.base);
                    let from = match from_here {
                        true => scope.base.clone(),
                        false => link.parent().map_or_else(|| scope.base.clone(), Path::to_path_buf),
                    };
                    let target = paths::absolute(&target.text, &from);
                    // A link outlives the subshell or the shell that made it.
                    if self.links.len() < MAX_LINKS {
                        self.links.push((link.clone(), target.clone()));
                    }
                    if scope.links().len() < MAX_LINKS {
                        scope.defined.make_mut().links.push((link, target));
                    }
                }
                Effect::Patch(read) => self.patch(read, scope),
                Effect::VariableCommand { variable, files, environment } => {
                    for value in command_variable(&variable, &environment, scope) {
                        // P-18: a command line the walk could not compute may write any guarded
                        // location the line names.
                        if value.dynamic {
                            self.add_uncomputed(walk, scope);
                            continue;
                        }
                        for script in commands::variable_command_lines(&value.text, &files) {
                            let mut child = child_shell(scope, None, &environment, walk.source);
                            self.script_apart(&script, &mut child, walk)?;
                        }
                    }
                }
                Effect::RunsHooks => self.hooks(walk, scope)?,
                Effect::HooksPath { dir, path } => {
                    let folder = paths::absolute(&path.text, &work_tree_top(&dir, scope));
                    if self.hooks_folders.len() < MAX_LINKS && !self.hooks_folders.contains(&folder) {
                        self.hooks_folders.push(folder);
                    }
                }
                Effect::ReadsFiles { argv, files, dir, environment } => {
                    let mut there = scope.clone();
                    there.base = paths::absolute(&dir, &scope.base);
                    for file in files {
                        let effects = self.judged_on(&argv, &file, &environment, walk, scope);
                        self.apply(effects, walk, &mut there, only_new, written_before)?;
                    }
                }
                Effect::Makefile { file, dir } => {
                    // Only a makefile this line wrote: one on disk is the repository's own.
                    let path = paths::absolute(&file.text, &scope.base);
                    let written = self.files.iter().find(|(written, _)| *written == path).map(|(_, text)| text.clone());
                    if let Some(script) = written.as_deref().and_then(crate::commands::makefile_shell) {
                        let mut child = scope.child(None);
                        if let Some(dir) = dir {
                            child.base = paths::absolute(&dir.text, &scope.base);
                        }
                        self.script_apart(&script, &mut child, walk)?;
                    }
                }
                Effect::Program { argv, stdin, dir, uncomputed, environment } => {
                    let (argv, taken) = self.with_environment(argv, &environment, &dir, walk, scope);
                    if let Some(mut invocation) = self.analyses.program_run(&argv, stdin.as_deref()) {
                        if let Some(taken) = taken {
                            taken.give(&mut invocation);
                        }
                        let proven = self.program(&invocation, &dir, None, walk, scope)?;
                        // P-18: an argument the walk could not compute may be any guarded
                        // location the line names, for a program that writes what it is given.
                        if uncomputed && !proven {
                            self.add_uncomputed(walk, scope);
                        }
                        // An unproven program may read what its environment holds
                        // (`O=plans/p.md perl -e 'unlink $ENV{O}'`).
                        if !proven {
                            self.given_in_environment(&environment, walk, scope);
                            self.exported_to_it(scope);
                        }
                    }
                }
                Effect::RunFile { path, this_shell, by_shebang, args, environment } => {
                    let this_shell = this_shell && !only_new;
                    let run = ScriptRun { this_shell, by_shebang, args: &args, environment: &environment };
                    self.run_file(&path.text, run, walk, scope)?;
                }
                Effect::RunsFound { paths, args, environment } => {
                    let run = ScriptRun { this_shell: false, by_shebang: true, args: &args, environment: &environment };
                    self.runs_found(&paths, run, walk, scope)?;
                }
                Effect::PowerShell(script) => {
                    for target in self.analyses.powershell(&script, &scope.base)? {
                        self.add(&target.to_string_lossy(), &scope.base, scope.links());
                    }
                }
                // Judged again (another possible value of its words): what it writes, in a scope
                // of its own, since the shell's state follows the first judgement.
                Effect::Eval(script) if only_new => {
                    let mut child = scope.clone();
                    self.script_apart(&script, &mut child, walk)?;
                }
                // Another possible value of the directory the shell went to: what is written where
                // the walk went is also written there (P-18).
                Effect::Cd(Cd::To(dir) | Cd::Push(Some(dir))) if only_new => {
                    let mut before = scope.clone();
                    before.base = scope.oldpwd.clone().unwrap_or_else(|| scope.base.clone());
                    let places = match dir.dynamic && !dir.glob {
                        true => self.named_folders(walk, &before.base),
                        false => vec![cd_destination(&dir, &before)],
                    };
                    for place in places {
                        moves::record_uncomputed_move(&mut self.moves, &place, &scope.base, self.targets.len());
                    }
                }
                _ if only_new => {}
                Effect::Eval(script) => self.script(&script, scope, walk.nesting + 1)?,
                Effect::Forget(name) => {
                    scope.forget(&name);
                    self.assigned_uncomputed(&name);
                }
                Effect::Cd(cd) => {
                    let (pushes, swaps) = (matches!(cd, Cd::Push(Some(_))), matches!(cd, Cd::Push(None)));
                    self.cd(cd, walk, scope);
                    if self.isolated == 0
                        && let Some(states) = &mut self.states
                    {
                        // What a pop took off, and the top a swap (`pushd` alone) replaced, no
                        // later `popd` returns to.
                        let depth = scope.stack.len();
                        self.pushed.retain(|pushed| pushed.depth < depth || pushed.depth == depth && !swaps);
                        let targets = self.targets.len();
                        if pushes {
                            self.pushed.push(Pushed { depth: scope.stack.len(), first_state: states.len(), targets });
                        }
                        self.last_cd = Some((states.len(), targets));
                        states.push(Reached { scope: scope.clone(), passed: false });
                    }
                }
            }
        }
        Ok(())
    }

    /// Where the paths of git's writes start, git running in `dir` with work tree `tree`
    /// ([`Effect::InWorkTree`]): the tree's top, or where git runs when that lies in the tree and
    /// the paths are not `from_top`. A work tree the walk could not compute may be any guarded
    /// folder the line names, or a folder holding one (P-18).
    fn work_tree_bases(
        &mut self,
        dir: &str,
        tree: &WorkTree,
        from_top: bool,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Vec<PathBuf> {
        let here = paths::absolute(dir, &scope.base);
        let mut tops = match tree {
            WorkTree::Found => vec![work_tree_top(dir, scope)],
            WorkTree::Here => vec![here.clone()],
            WorkTree::Given(tree) => vec![paths::absolute(&tree.text, &here)],
        };
        if let WorkTree::Given(tree) = tree
            && tree.dynamic
        {
            tops.extend(self.named_folders(walk, &here));
        }
        tops.into_iter().map(|top| if !from_top && here.starts_with(&top) { here.clone() } else { top }).collect()
    }

    /// What `argv` does given the text of `file` on its standard input (sed's `e` over a file); a
    /// file the walk cannot read (missing, computed, large, binary, or written in a way the line
    /// does not show) may hold anything: every guarded location the line names (P-18).
    fn judged_on(
        &mut self,
        argv: &[Arg],
        file: &Arg,
        environment: &Environment,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Vec<Effect> {
        let text = match file.dynamic {
            true => None,
            false => self.file_text(&file.text, &scope.base),
        };
        if text.is_none() {
            self.add_uncomputed(walk, scope);
        }
        let producer = [Arg::literal("<"), file.clone()];
        let mut effects = Vec::new();
        let written = Written { base: &scope.base, files: &self.files };
        commands::analyze_fed(argv, text.as_deref(), &producer, environment, written, self.analyses, &mut effects);
        effects
    }

    /// A git command may run hooks (P-18): each file the line wrote under a hook's name
    /// (`.git/hooks/post-commit`, `.hooks/pre-commit`) runs as a script file, judged by the text
    /// the line shows; a hooks folder the line made git's (`git config core.hooksPath d`) whose
    /// hooks it does not all show may run anything: every guarded location the line names.
    fn hooks(&mut self, walk: &Walk, scope: &mut Scope<Bash>) -> Result<(), Unscannable> {
        if self.running_hooks {
            return Ok(());
        }
        let is_hook =
            |path: &&PathBuf| path.file_name().is_some_and(|name| commands::HOOKS.iter().any(|hook| name == *hook));
        let written: Vec<PathBuf> = self.targets.since(0).iter().filter(is_hook).cloned().collect();
        let shown = |hook: PathBuf| self.files.iter().any(|(file, _)| *file == hook);
        if self.hooks_folders.iter().any(|folder| !commands::HOOKS.iter().all(|name| shown(folder.join(name)))) {
            self.add_uncomputed(walk, scope);
        }
        self.running_hooks = true;
        let environment = Environment::default();
        let mut ran = Ok(());
        for hook in written {
            let run = ScriptRun { this_shell: false, by_shebang: true, args: &[], environment: &environment };
            ran = self.run_file(&hook.to_string_lossy(), run, walk, scope);
            if ran.is_err() {
                break;
            }
        }
        self.running_hooks = false;
        ran
    }

    /// The values a command's own assignments give it (`O=… cmd`, `env O=… cmd`), for a program
    /// that may read them; one the walk could not compute, every guarded location the line names.
    fn given_in_environment(&mut self, environment: &Environment, walk: &Walk, scope: &Scope<Bash>) {
        let values: Vec<&Arg> = environment.changes.iter().filter_map(|(_, value)| value.as_ref()).collect();
        if values.iter().any(|value| value.dynamic && !value.pipe) {
            self.add_uncomputed(walk, scope);
        }
        self.values_reach_it(values.iter().map(|value| value.text.as_str()), scope);
    }

    /// An unknown command sees the variables the line exported: the guarded locations their
    /// values name reach it as its words' do (`export OUT=plans/p.md; mytool`).
    fn exported_to_it(&mut self, scope: &Scope<Bash>) {
        let values = match scope.exports_everything() {
            true => scope.vars.values().collect::<Vec<_>>(),
            false => scope.exported().iter().filter_map(|name| scope.vars.get(name)).collect(),
        };
        let texts: Vec<String> = values.into_iter().flatten().map(|value| value.text.clone()).collect();
        self.values_reach_it(texts.iter().map(String::as_str), scope);
    }

    /// The guarded locations values a command sees name, reaching it as its words' do.
    fn values_reach_it<'v>(&mut self, values: impl Iterator<Item = &'v str>, scope: &Scope<Bash>) {
        let mut named = Vec::new();
        for value in values {
            // A value holding more than a path (`--out=plans/p.md`, `a.md plans/p.md`).
            if value.contains(|c: char| c.is_whitespace() || c == '=') {
                named.extend(paths::everything_named(value, paths::Dialect::Bash));
            } else if may_be_guarded(value, scope) {
                named.push(PathBuf::from(value));
            }
        }
        for location in named {
            let location = paths::absolute(&location, &scope.base);
            self.add_reached(location, paths::Reach::Named, scope);
        }
    }

    /// A whole tree written at `dir/name`, or merged into `dir` (`name` `None`): the guarded
    /// locations beneath it; beneath every guarded folder a glob `dir` could be
    /// (`unzip -d docs/superpowers/*lans`); beneath every folder the line names when `dir` is
    /// uncomputed. A `dir` the line wrote, or wrote a folder above, before this command (`rm -rf
    /// c && mv d c`, `mv openspec /tmp/old && mv /tmp/o openspec`) may be gone when the tree
    /// lands: then the tree is `dir` itself too, whatever the disk holds now.
    fn write_tree(
        &mut self,
        dir: &Arg,
        name: Option<&Arg>,
        known_dir: bool,
        written_before: usize,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) {
        self.uncomputed(dir, walk, scope);
        let mut dirs = vec![dir.text.clone()];
        // (An uncomputed name only picks the folder's name inside a known `dir`.)
        match dir.pattern() {
            Some(pattern) => dirs.extend(crate::bash::words::glob_folders(&pattern, &scope.base)),
            None if dir.dynamic && !dir.pipe => {
                for location in named_trees(walk, &scope.base) {
                    self.add_path(location, scope.links());
                }
            }
            None => {}
        }
        if dir.glob {
            dirs.extend(crate::bash::words::glob_folders(&dir.text, &scope.base));
        }
        for dir in dirs {
            let dir = paths::absolute(&dir, &scope.base);
            let root = match name {
                Some(name) if known_dir || fs::is_dir(&dir) => {
                    if dir.ancestors().any(|written| self.targets.found_before(written, written_before)) {
                        self.add_reached(dir.clone(), paths::Reach::Tree, scope);
                    }
                    paths::absolute(&name.text, &dir)
                }
                _ => dir,
            };
            self.add_reached(root, paths::Reach::Tree, scope);
        }
    }

    /// An interpreter's program: what its options write, what the program writes (relative to
    /// its directory) and the commands it starts, walked as nested scripts. `text` is a script
    /// file's text already read. `true` when it is proven to write none of its arguments: its
    /// options write nothing and its analysis is sure of every target.
    fn program(
        &mut self,
        invocation: &Invocation,
        dir: &str,
        text: Option<String>,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<bool, Unscannable> {
        let base = paths::absolute(dir, &scope.base);
        for write in &invocation.writes {
            self.add(write, &base, scope.links());
            // An operand the shell expands (`gawk -i inplace 1 docs/*/plans/p.md`).
            for matched in paths::guarded_glob_matches(write) {
                self.add(&matched, &base, scope.links());
            }
        }
        for tree in &invocation.trees {
            // An operand the shell expands (`python3 -m zipfile -e a.zip docs/superpowers/*lans`).
            for matched in paths::guarded_glob_matches(&paths::glob_from(&base, tree)) {
                self.add_reached(PathBuf::from(matched), paths::Reach::Tree, scope);
            }
            self.add_reached(paths::absolute(tree, &base), paths::Reach::Tree, scope);
        }
        let options_write = !invocation.writes.is_empty() || !invocation.trees.is_empty();
        let text = match (&invocation.source, text) {
            (_, Some(text)) => Some(text),
            (Source::Text(text), None) => Some(text.clone()),
            (Source::File(path), None) => self.file_text(path, &base),
            (Source::Nothing, None) if invocation.prelude.is_empty() && !invocation.unseen_code => {
                return Ok(!options_write);
            }
            (Source::Nothing, None) => Some(String::new()),
        };
        // Code run before a script the walk cannot read is judged on its own, with that script
        // as code no analysis reads.
        let unseen_code = invocation.unseen_code || text.is_none() && !invocation.prelude.is_empty();
        let text = match text {
            Some(text) if invocation.prelude.is_empty() => Some(text),
            Some(text) => Some(format!("{}{text}", invocation.prelude)),
            None if invocation.prelude.is_empty() => None,
            None => Some(invocation.prelude.clone()),
        };
        let place = Place { dir: &base, temporary: invocation.temporary.as_deref() };
        let answer = self.analyses.program(invocation.language, text.as_deref(), &invocation.args, place, unseen_code);
        let proven = answer.proof == Proof::Proven;
        self.program_answer(answer, &base, walk, scope)?;
        if !proven && !self.targets.is_empty() {
            self.loaded_files(invocation, text.as_deref().unwrap_or_default(), &base, walk, scope)?;
        }
        Ok(!options_write && proven)
    }

    /// `bash x.sh`, `source x.sh`, `./x`: the file's text walked as a script (in this shell for
    /// `source` without arguments), its arguments as `$1`, `$2`, …, or judged as a program when its
    /// `#!` line names another language. A file this walk cannot read is judged by what the
    /// command line shows: each argument that is guarded, a tree written there (P-18).
    fn run_file(
        &mut self,
        path: &str,
        run: ScriptRun,
        walk: &Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        if walk.nesting >= MAX_SCRIPT_NESTING {
            return Ok(());
        }
        let Some(text) = self.file_text(path, &scope.base) else {
            // Written by this line in a way it does not show (`gen > x.sh; chmod +x x.sh; ./x.sh`):
            // it may do anything the line names (P-18).
            if self.targets.contains(&paths::absolute(path, &scope.base)) {
                self.add_uncomputed(walk, scope);
            }
            self.unread_script(run.args, walk, scope);
            return Ok(());
        };
        let words = || run.args.iter().map(|arg| arg.text.clone()).collect::<Vec<_>>();
        if run.by_shebang {
            if let Some(language) = self.analyses.shebang_language(&text) {
                let mut invocation = Invocation::new(language, Source::Nothing, words());
                let taken = self.taken_from_environment(language, run.environment, &scope.base, walk, scope);
                // Options no command line carries here to read them by: they may load anything.
                invocation.unseen_code = !taken.options.is_empty();
                taken.give(&mut invocation);
                return self.program(&invocation, "", Some(text), walk, scope).map(|_| ());
            }
            let shell = text.lines().next().is_none_or(|line| {
                !line.starts_with("#!") || ["sh", "bash", "zsh", "dash", "ksh"].iter().any(|s| line.contains(s))
            });
            if !shell {
                // An interpreter no analysis reads: judged by its command line.
                self.unread_script(run.args, walk, scope);
                return Ok(());
            }
        }
        if run.this_shell && run.args.is_empty() {
            return self.script(&text, scope, walk.nesting + 1);
        }
        let zero = Value::new(path.to_string(), false);
        let values = std::iter::once(zero).chain(run.args.iter().map(|arg| arg.to_value()));
        let positional = Positional { values: values.collect(), complete: true };
        let mut child = child_shell(scope, Some(positional), run.environment, walk.source);
        self.script_apart(&text, &mut child, walk)
    }

    /// A program found at one of `paths`: each the line wrote is run as a script file; a path the
    /// walk could not compute may be one it wrote (P-18). Programs the line did not write are
    /// judged by their command.
    fn runs_found(
        &mut self,
        paths: &[Arg],
        run: ScriptRun,
        walk: &Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        if self.targets.is_empty() {
            return Ok(());
        }
        for path in paths {
            if path.dynamic {
                self.add_uncomputed(walk, scope);
            } else if self.targets.contains(&paths::absolute(&path.text, &scope.base)) {
                self.run_file(&path.text, run, walk, scope)?;
            }
        }
        Ok(())
    }

    /// A script the walk could not read (missing, oversized, a binary, a language no analysis
    /// reads), run with `args`: it may
    /// write a tree at each argument that names a guarded location or a change, and at every one
    /// the line names if an argument is uncomputed.
    fn unread_script(&mut self, args: &[Arg], walk: &Walk, scope: &Scope<Bash>) {
        for arg in args {
            if arg.dynamic && !arg.pipe {
                self.add_uncomputed(walk, scope);
            } else {
                let path = paths::absolute(&arg.text, &scope.base);
                if paths::names_guarded(&arg.text, paths::Dialect::Bash) || paths::is_change_dir(&path) {
                    self.add_reached(path, paths::Reach::Tree, scope);
                }
            }
        }
    }

    /// A script file's text at check time: what this line wrote to it, else the file (text, at
    /// most [`MAX_SCRIPT_FILE_BYTES`]). `None` when the line changed it in a way it does not show,
    /// or it is missing, larger or binary.
    pub(super) fn file_text(&self, path: &str, base: &Path) -> Option<String> {
        let path = paths::absolute(path, base);
        if let Some(text) = self.shown_text(&path) {
            return Some(text.to_string());
        }
        if self.targets.contains(&path) {
            return None;
        }
        fs::read_text_file(&path, MAX_SCRIPT_FILE_BYTES)
    }

    /// The text this line wrote to `path` (absolute), when it shows it.
    pub(super) fn shown_text(&self, path: &Path) -> Option<&str> {
        self.files.iter().find(|(file, _)| file == path).map(|(_, text)| text.as_str())
    }

    fn cd(&mut self, cd: Cd, walk: &Walk, scope: &mut Scope<Bash>) {
        let from = scope.base.clone();
        let places = cdable_places(&cd, scope);
        let uncomputed = self.move_to(cd, scope) == Destination::Uncomputed;
        // A cd sets $OLDPWD: one the line assigned no longer holds.
        if scope.oldpwd.as_ref() == Some(&from) && scope.vars.contains_key("OLDPWD") {
            Rc::make_mut(&mut scope.vars).remove("OLDPWD");
        }
        moves::record_move(&mut self.moves, &from, &scope.base, self.targets.len());
        for place in places.iter().filter(|place| **place != scope.base) {
            moves::record_uncomputed_move(&mut self.moves, place, &scope.base, self.targets.len());
        }
        if uncomputed {
            // P-18: a directory the walk could not compute may be any guarded folder the line
            // names; what is written beneath it is also taken as written beneath each.
            for folder in self.named_folders(walk, &from) {
                moves::record_uncomputed_move(&mut self.moves, &folder, &scope.base, self.targets.len());
            }
        }
    }

    /// The guarded locations the script names and the folders holding them, absolute from `base`:
    /// where a directory change the walk could not compute may go.
    fn named_folders(&mut self, walk: &Walk, base: &Path) -> Vec<PathBuf> {
        let mut folders: Vec<PathBuf> = Vec::new();
        for location in self.named_locations(walk).iter() {
            let location = paths::absolute(location, base);
            // `docs/superpowers/plans/*` (any plan) is no folder; the folder holding it is.
            let pattern = location.file_name().is_some_and(|name| name.as_encoded_bytes().contains(&b'*'));
            let itself = (!pattern).then(|| location.clone());
            for folder in [location.parent().map(Path::to_path_buf), itself].into_iter().flatten() {
                if !folders.contains(&folder) {
                    folders.push(folder);
                }
            }
        }
        folders
    }

    fn move_to(&self, cd: Cd, scope: &mut Scope<Bash>) -> Destination {
        let pushes = matches!(cd, Cd::Push(_));
        match cd {
            Cd::To(dir) | Cd::Push(Some(dir)) if dir.dynamic && !dir.glob => {
                scope.cd(paths::absolute(&dir.text, &scope.base));
                return Destination::Uncomputed;
            }
            Cd::To(dir) | Cd::Push(Some(dir)) => {
                let to = cd_destination(&dir, scope);
                if pushes {
                    scope.stack.push(scope.base.clone());
                }
                scope.cd(to);
                if searched(&dir) && uncomputed(scope, "CDPATH") {
                    return Destination::Uncomputed;
                }
            }
            Cd::Home if uncomputed(scope, "HOME") => {
                scope.cd(scope.base.join("${HOME}"));
                return Destination::Uncomputed;
            }
            Cd::Home => {
                if let Some(home) = assigned(scope, "HOME") {
                    scope.cd(paths::absolute(&home, &scope.base));
                } else if let Some(home) = self.home.get() {
                    scope.cd(PathBuf::from(home));
                }
            }
            Cd::Back if uncomputed(scope, "OLDPWD") => {
                scope.cd(scope.base.join("${OLDPWD}"));
                return Destination::Uncomputed;
            }
            Cd::Back => {
                if let Some(back) = assigned(scope, "OLDPWD") {
                    scope.cd(paths::absolute(&back, &scope.base));
                } else if let Some(back) = scope.oldpwd.clone() {
                    scope.cd(back);
                }
            }
            Cd::Push(None) => {
                if let Some(top) = scope.stack.pop() {
                    scope.stack.push(scope.base.clone());
                    scope.cd(top);
                }
            }
            Cd::Pop => {
                if let Some(top) = scope.stack.pop() {
                    scope.cd(top);
                }
            }
            Cd::ForgetStack => crate::bash::popd::forget_stack(scope),
        }
        Destination::Known
    }

    /// `BASH_ENV=f cmd`, `env BASH_ENV=f cmd` (and `ENV`, which `sh` reads): a shell the command
    /// is or starts runs `f` before anything else; `GIT_EDITOR='…' git commit`, `env EDITOR=…
    /// crontab -e`: a program the command starts runs the value (P-18).
    pub(super) fn environment_runs(
        &mut self,
        assigned: &[(String, Vec<Value>)],
        argv: &[Arg],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let mut set: Vec<(&str, Value)> = Vec::new();
        for (name, values) in assigned {
            if runs_its_value(name) {
                set.extend(values.iter().map(|value| (name.as_str(), value.clone())));
            }
        }
        let sets_environment =
            |name: &Arg| !name.dynamic && matches!(name.text.rsplit('/').next(), Some("env" | "sudo" | "doas"));
        if argv.first().is_some_and(sets_environment) {
            // `env [-i] NAME=value … command` (`sudo`, `doas` too): its assignments end at the
            // command.
            let words = argv.get(1..).unwrap_or_default();
            let settings = words.iter().take_while(|arg| arg.text.starts_with('-') || arg.text.contains('='));
            for arg in settings {
                let Some((name, value)) = arg.text.split_once('=') else { continue };
                if runs_its_value(name) {
                    set.push((name, Value::new(value.to_string(), arg.dynamic)));
                }
            }
        }
        for (name, value) in set {
            self.value_runs(name, &value, walk, scope)?;
        }
        Ok(())
    }

    /// `export BASH_ENV=f`, `ENV=f`: every shell started later in the line runs `f` first;
    /// `export EDITOR=…`, `GIT_EDITOR=…`: a program started later may run the value. Judged where
    /// it is set, with the text `f` has there.
    pub(super) fn variable_runs(&mut self, name: &str, walk: &Walk, scope: &Scope<Bash>) -> Result<(), Unscannable> {
        if !runs_its_value(name) {
            return Ok(());
        }
        let values = match scope.vars.get(name) {
            Some(values) => values.clone(),
            None => vec![Value::new(name.to_string(), true)],
        };
        for value in values {
            self.value_runs(name, &value, walk, scope)?;
        }
        Ok(())
    }

    /// The value of variable `name` as what runs it takes it: a startup file sourced, or a
    /// command line run by `sh -c` in a shell of its own (git runs `$GIT_EDITOR "$@"`); a value the
    /// walk could not compute or read may hold anything: every guarded location the line names.
    fn value_runs(&mut self, name: &str, value: &Value, walk: &Walk, scope: &Scope<Bash>) -> Result<(), Unscannable> {
        if STARTUP_VARIABLES.contains(&name) {
            return self.startup_file(value, walk, scope);
        }
        if name == HISTORY_FILE {
            let file = Arg { text: value.text.clone(), dynamic: value.dynamic, holes: value.holes, ..Arg::default() };
            self.write(&file, walk, scope);
            return Ok(());
        }
        if PROMPT_VARIABLES.contains(&name) && !value.dynamic {
            return self.expanded_runs(&value.text, walk, scope);
        }
        if value.dynamic || walk.nesting >= MAX_SCRIPT_NESTING {
            self.add_named(walk, scope);
            return Ok(());
        }
        let mut child = scope.child(None);
        self.script_apart(&value.text, &mut child, walk)
    }

    /// A startup file judged as `source`d in a shell of its own: its text as the line wrote it or
    /// as it is; one the walk cannot read may hold anything, so it writes every guarded location
    /// the line names.
    fn startup_file(&mut self, file: &Value, walk: &Walk, scope: &Scope<Bash>) -> Result<(), Unscannable> {
        let text = match file.dynamic {
            true => None,
            false if file.text.is_empty() => return Ok(()),
            false => self.file_text(&file.text, &scope.base),
        };
        let Some(text) = text.filter(|_| walk.nesting < MAX_SCRIPT_NESTING) else {
            self.add_named(walk, scope);
            return Ok(());
        };
        let mut child = scope.child(None);
        self.script_apart(&text, &mut child, walk)
    }

    /// Every guarded location the script names ([`Self::named_locations`]), written.
    fn add_named(&mut self, walk: &Walk, scope: &Scope<Bash>) {
        for location in self.named_locations(walk).iter() {
            self.add(&location.to_string_lossy(), &scope.base, scope.links());
        }
    }

    /// Every guarded location the script names, as written, a change's approval.md included
    /// when it names the changes folder (P-18's reading of a value the walk could not compute,
    /// handed to a program that may fill it with a tree).
    pub(super) fn add_uncomputed(&mut self, walk: &Walk, scope: &Scope<Bash>) {
        for location in paths::everything_a_tree_named_reaches(walk.source, paths::Dialect::Bash) {
            self.add(&location.to_string_lossy(), &scope.base, scope.links());
        }
    }

    /// [`Effect::RestoresNamed`]: git brings back the files under `dir` that differ from its
    /// index. The guarded ones the line may have made so: those beneath `dir` of the kinds the
    /// script names (P-18), and those under a path the line staged ([`Effect::Stages`]).
    fn restores_named(&mut self, dir: &Arg, walk: &Walk, scope: &Scope<Bash>) {
        let dir = paths::absolute(&dir.text, &scope.base);
        let named = self.named_locations(walk);
        let kind = |path: &Path| paths::guarded_named(&path.to_string_lossy(), paths::Dialect::Bash);
        let kinds: Vec<_> = named.iter().filter_map(|location| kind(location)).collect();
        let mut reached: Vec<PathBuf> = named
            .iter()
            .map(|location| paths::absolute(location, &scope.base))
            .filter(|location| location.starts_with(&dir))
            .collect();
        let beneath = paths::guarded_beneath(&dir, paths::Reach::Tree);
        reached.extend(beneath.iter().filter(|found| kind(found).is_some_and(|found| kinds.contains(&found))).cloned());
        match &self.staged {
            None => reached.extend(beneath),
            Some(staged) => {
                for path in staged {
                    if path.starts_with(&dir) {
                        reached.extend(paths::guarded_beneath(path, paths::Reach::Tree));
                    } else if dir.starts_with(path) {
                        reached.extend(beneath.iter().cloned());
                    }
                }
            }
        }
        for path in reached {
            self.add_path(path, scope.links());
        }
    }

    /// A write whose target the walk could not compute (P-18): it may be any guarded location the
    /// script names, in any spelling [`paths::everything_named`] sees.
    pub(super) fn uncomputed(&mut self, arg: &Arg, walk: &Walk, scope: &Scope<Bash>) {
        if self.bounded(arg, &scope.base, scope) {
            return;
        }
        for location in self.uncomputed_locations(arg, walk).iter() {
            self.add(&location.to_string_lossy(), &scope.base, scope.links());
        }
    }

    /// Whether `arg`'s unknown parts hold no `/` ([`Arg::pattern`]): then it is one of the
    /// names the pattern matches in the folder its known parts fix, and only the guarded ones
    /// among them are written (`/tmp/p-$(date +%F).md` none, `/tmp/$(whoami)` may be
    /// `/tmp/approval.md`).
    fn bounded(&mut self, arg: &Arg, base: &Path, scope: &Scope<Bash>) -> bool {
        let Some(pattern) = arg.pattern().filter(|_| !arg.pipe) else { return false };
        for spelled in paths::guarded_glob_matches(&paths::glob_from(base, &pattern)) {
            self.add(&spelled, base, scope.links());
        }
        true
    }

    /// A file put into `dir` under a name the walk could not compute (`cp "$f" dir/`): it may have
    /// the name of any guarded location the script names, there.
    fn uncomputed_name(&mut self, name: &Arg, dir: &Path, walk: &Walk, scope: &Scope<Bash>) {
        if self.bounded(name, dir, scope) {
            return;
        }
        for location in self.uncomputed_locations(name, walk).iter() {
            if let Some(file) = location.file_name() {
                self.add(&file.to_string_lossy(), dir, scope.links());
            }
        }
    }

    /// `text` walked as a script in `child`, a shell apart from this one (a subshell, a process
    /// started): what it writes counts, what it does to its shell stays there.
    pub(super) fn script_apart(&mut self, text: &str, child: &mut Scope<Bash>, walk: &Walk) -> Result<(), Unscannable> {
        self.isolated += 1;
        let ran = self.script(text, child, walk.nesting + 1);
        self.isolated = self.isolated.saturating_sub(1);
        ran
    }

    /// [`Self::script_apart`] of a child shell's script that reads the command's standard input
    /// (`echo … | bash -c sh`) when `reads_input`, else none (a command `xargs` runs).
    fn script_fed(
        &mut self,
        text: &str,
        child: &mut Scope<Bash>,
        reads_input: bool,
        walk: &Walk,
    ) -> Result<(), Unscannable> {
        if reads_input {
            return self.script_apart(text, child, walk);
        }
        let input = self.input.take();
        let ran = self.script_apart(text, child, walk);
        self.input = input;
        ran
    }

    /// A location written with its reach: a file itself, or the guarded locations a tree
    /// written into a directory (or a write naming it) reaches.
    pub(super) fn add_reached(&mut self, path: PathBuf, reach: paths::Reach, scope: &Scope<Bash>) {
        match reach {
            paths::Reach::File => self.add_path(path, scope.links()),
            reach => {
                for target in paths::guarded_beneath(&path, reach) {
                    self.add_path(target, scope.links());
                }
            }
        }
    }

    /// A file written: as typed, each guarded path it could match as a glob expanded where the walk
    /// is, and when the walk could not compute it, every guarded location the script names.
    pub(super) fn write(&mut self, arg: &Arg, walk: &Walk, scope: &Scope<Bash>) {
        // A part a program that started the command could not compute is any name there.
        let holes = arg.text.contains([PROGRAM_HOLE, PROGRAM_NAME_HOLE]);
        if arg.glob || holes {
            let pattern = wildcarded(&arg.text);
            for spelled in paths::guarded_glob_matches(&paths::glob_from(&scope.base, &pattern)) {
                self.add(&spelled, &scope.base, scope.links());
            }
        }
        self.add(&arg.text, &scope.base, scope.links());
        self.uncomputed(arg, walk, scope);
    }

    /// A file written, as typed and through every link the line made that it passes.
    pub(super) fn add(&mut self, text: &str, base: &Path, links: &[(PathBuf, PathBuf)]) {
        if text.is_empty() {
            return;
        }
        self.add_path(paths::absolute(text, base), links);
    }

    /// [`Self::add`] of a path already absolute and normalized.
    fn add_path(&mut self, mut path: PathBuf, links: &[(PathBuf, PathBuf)]) {
        for _ in 0..=MAX_LINK_HOPS {
            if is_device(&path) {
                return;
            }
            let made = links.iter().chain(&self.links);
            let through = made.rev().find_map(|(link, target)| moves::rebase(&path, link, target));
            let next = through.filter(|next| *next != path);
            // Written again: its text is no longer the one the line showed.
            if !self.files.is_empty() {
                self.files.retain(|(file, _)| *file != path);
            }
            self.targets.add(path);
            match next {
                Some(next) => path = next,
                None => return,
            }
        }
    }

    /// A patch the command applies: read at check time (bounded), each file its headers name is
    /// written; a patch that cannot be read writes what its command's words name of the guarded
    /// locations.
    pub(super) fn patch(&mut self, read: PatchRead, scope: &Scope<Bash>) {
        let base = paths::absolute(&read.base, &scope.base);
        let cwd = match &read.chdir {
            Some(dir) => paths::absolute(&dir.text, &base),
            None => base,
        };
        let root = match &read.prefix {
            Some(prefix) => paths::absolute(&prefix.text, &cwd),
            None => cwd.clone(),
        };
        let text = match (&read.stdin, &read.file) {
            (Some(text), None) => Some(text.clone()),
            (_, Some(file)) if !file.dynamic && !file.pipe => {
                let path = paths::absolute(&file.text, &cwd);
                self.shown_text(&path).map(str::to_string).or_else(|| read_bounded(&path))
            }
            _ => None,
        };
        let mut written = Vec::new();
        let parsed = text.is_some_and(|text| {
            read.strips.iter().all(|&strip| match self.analyses.patch_files(&text, Strip(strip)) {
                Some(files) => {
                    written.extend(files);
                    true
                }
                None => false,
            })
        });
        // A backup name the walk cannot compute may be any guarded location the words name.
        let mut uncomputed = false;
        for path in written.iter().filter(|_| parsed) {
            if let Some(backup) = read.backup.of(path) {
                uncomputed |= backup.dynamic;
                if !backup.dynamic {
                    self.add(&backup.text, &root, scope.links());
                }
            }
            self.add(path, &root, scope.links());
        }
        if !parsed || uncomputed {
            // An option's value (`--directory=x`) is the word's path.
            let named = |word: &str| match word.split_once('=') {
                Some((option, value)) if option.starts_with('-') => value.to_string(),
                _ => word.to_string(),
            };
            let seen = read.words.iter().chain(read.file.iter());
            for word in seen.filter(|word| paths::names_guarded(&word.text, paths::Dialect::Bash)) {
                self.add(&named(&word.text), &cwd, scope.links());
            }
        }
    }
}

/// The values a variable a command reads may have: as the way to it sets it, else as the line
/// exported it (none when it only inherits the shell's environment).
fn command_variable(name: &str, environment: &Environment, scope: &Scope<Bash>) -> Vec<Value> {
    match environment.variable(name) {
        Variable::Set(value) => vec![value.to_value()],
        Variable::Unset => Vec::new(),
        Variable::Shell if scope.exports_everything() || scope.exported().iter().any(|exported| exported == name) => {
            scope.vars.get(name).cloned().unwrap_or_default()
        }
        Variable::Shell => Vec::new(),
    }
}

/// The most links one command line is followed through; later ones are not remembered.
const MAX_LINKS: usize = 64;

/// Link hops followed from one target (a link to a link).
const MAX_LINK_HOPS: usize = 8;

/// A patch file's text, at most [`MAX_PATCH_BYTES`] + 1 bytes of it (the parser
/// refuses the rest); `None` when it cannot be read.
fn read_bounded(path: &Path) -> Option<String> {
    let limit = u64::try_from(MAX_PATCH_BYTES).unwrap_or(u64::MAX);
    fs::read_regular_file(path, limit).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

fn is_device(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    matches!(bytes, b"/dev/null" | b"/dev/stdin" | b"/dev/stdout" | b"/dev/stderr" | b"/dev/tty")
        // Both folders end in a component `fd`; comparing components costs more than finding one.
        || bytes.windows(3).any(|w| w == b"/fd") && (path.starts_with("/dev/fd") || path.starts_with("/proc/self/fd"))
}

/// The variables naming a file a shell runs before its script: `BASH_ENV` (bash) and `ENV` (sh,
/// and bash in POSIX mode).
const STARTUP_VARIABLES: [&str; 2] = ["BASH_ENV", "ENV"];

/// The file a shell writes its history to (`history -w`, `history -a`, an interactive shell's
/// exit), as the line sets it.
const HISTORY_FILE: &str = "HISTFILE";

/// The prompts bash expands, and runs the command substitutions of, as it uses them (`PS4` at
/// each command under `set -x`, the others in an interactive shell).
const PROMPT_VARIABLES: [&str; 4] = ["PS0", "PS1", "PS2", "PS4"];

/// The variables whose value a program runs as a command line: the editor git opens for a
/// message, a rebase's todo list or `git config -e` (and `crontab -e`, `visudo`, …), the pagers,
/// git's external diff, ssh and password helpers, the command an interactive bash runs before
/// each prompt.
const COMMAND_VARIABLES: [&str; 12] = [
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_PAGER",
    "PAGER",
    "GIT_EXTERNAL_DIFF",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "PROMPT_COMMAND",
];

/// Whether a program runs what variable `name` holds (a startup file, a command line, a prompt),
/// or writes where it points (the history file).
fn runs_its_value(name: &str) -> bool {
    STARTUP_VARIABLES.contains(&name)
        || COMMAND_VARIABLES.contains(&name)
        || PROMPT_VARIABLES.contains(&name)
        || name == HISTORY_FILE
}

impl Walker<'_> {
    /// Whether the line made `dir` a directory before now (`mkdir -p dir/sub`, `install -d dir`),
    /// or made one the walk could not compute.
    fn made_dir(&self, dir: &Path) -> bool {
        self.made_dirs.as_ref().is_none_or(|made| made.iter().any(|made| made.starts_with(dir)))
    }

    /// The guarded locations the script names, when `arg` holds a part the walk could not
    /// compute (none otherwise).
    fn uncomputed_locations(&mut self, arg: &Arg, walk: &Walk) -> Rc<[PathBuf]> {
        if !arg.dynamic || arg.pipe {
            return Rc::from([]);
        }
        self.named_locations(walk)
    }

    /// Every guarded location the script names ([`paths::everything_named`]): as written, and
    /// with the characters the line gives `IFS` read as slashes, since `read` and word splitting
    /// cut the text there and the script may join the pieces with `/` (`IFS=, read d f <<<
    /// 'docs,…'`). Read once per script: a line may write many uncomputed targets.
    fn named_locations(&mut self, walk: &Walk) -> Rc<[PathBuf]> {
        if let Some((serial, found)) = &self.named
            && *serial == walk.serial
        {
            return Rc::clone(found);
        }
        let mut found = paths::everything_named(walk.source, paths::Dialect::Bash);
        for separator in ifs_separators(walk.source) {
            let respelled = walk.source.replace(separator, "/");
            for location in paths::everything_named(&respelled, paths::Dialect::Bash) {
                if !found.contains(&location) {
                    found.push(location);
                }
            }
        }
        let found: Rc<[PathBuf]> = found.into();
        self.named = Some((walk.serial, Rc::clone(&found)));
        found
    }
}

/// The guarded locations beneath the folders the script names, for a tree written at a root the
/// walk could not compute (P-18): `tar -xf a.tar -C "${x#old/}"` in a line naming
/// `old/openspec/changes/c` may extract into that change. Each word's text from where a guarded
/// folder's first name starts in it (`openspec/…`, `docs/…`, `.superpowers/…`) is such a folder.
fn named_trees(walk: &Walk, base: &Path) -> Vec<PathBuf> {
    let separators = |c: char| c.is_whitespace() || "'\"`;|&()<>=${},".contains(c);
    let words = walk.source.split(separators).filter(|word| paths::may_name_guarded(word.as_bytes()));
    let mut found: Vec<PathBuf> = Vec::new();
    for word in words.take(MAX_NAMED_TREES) {
        let lower = word.to_ascii_lowercase();
        let starts = FOLDER_STARTS.iter().flat_map(|start| lower.match_indices(start).map(|(at, _)| at));
        for at in starts.collect::<Vec<_>>() {
            let folder = paths::absolute(word.get(at..).unwrap_or_default(), base);
            for location in paths::guarded_beneath(&folder, paths::Reach::Tree) {
                if !found.contains(&location) {
                    found.push(location);
                }
            }
        }
    }
    found
}

/// The first names of the folders that hold guarded locations.
const FOLDER_STARTS: [&str; 3] = [paths::CHANGES_DIR[0], paths::PLANS_DIR[0], paths::SDD_DIR[0]];

/// Words of a script read for [`named_trees`] (each may cost a look at the disk).
const MAX_NAMED_TREES: usize = 32;

/// The characters a script assigns to `IFS` (`IFS=,`, `IFS=':'`, `IFS=$'\t'`), besides letters
/// and digits (which are parts of names): read from its text, wherever the assignment is.
fn ifs_separators(source: &str) -> Vec<char> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("IFS") {
        rest = rest.get(at + 3..).unwrap_or_default();
        let Some(value) = rest.strip_prefix('=').or_else(|| rest.strip_prefix("+=")) else { continue };
        let token = match value.strip_prefix("$'") {
            Some(quoted) => commands::ansi_c(quoted.split('\'').next().unwrap_or_default()),
            None => match value.chars().next() {
                Some(quote @ ('\'' | '"')) => {
                    value.get(1..).unwrap_or_default().split(quote).next().unwrap_or_default().to_string()
                }
                _ => value
                    .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | ')'))
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            },
        };
        for c in token.chars() {
            // Blanks split every line already: only the other characters are new.
            if !c.is_alphanumeric() && !c.is_whitespace() && !found.contains(&c) && found.len() < MAX_IFS_CHARS {
                found.push(c);
            }
        }
    }
    found
}

/// `IFS` characters read from a script's text (each costs the scan of the whole text once more).
const MAX_IFS_CHARS: usize = 4;

/// `cd name` under bash's `cdable_vars` (which an earlier call may have set) goes to `$name`
/// when there is no folder `name`: the folder's path and the places the variable's known values
/// name, from `scope` (P-18). [`cd_destination`] takes the first value when no such folder
/// exists; what is written there is also written at each of the others.
fn cdable_places(cd: &Cd, scope: &Scope<Bash>) -> Vec<PathBuf> {
    let (Cd::To(dir) | Cd::Push(Some(dir))) = cd else { return Vec::new() };
    let Some(values) = cdable_values(dir, scope) else { return Vec::new() };
    let folder = paths::absolute(&dir.text, &scope.base);
    std::iter::once(folder).chain(values).collect()
}

/// The known values of the variable `dir` names, as places from `scope`, for `cdable_vars`.
fn cdable_values(dir: &Arg, scope: &Scope<Bash>) -> Option<Vec<PathBuf>> {
    let name = dir.text.as_str();
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if dir.dynamic || !is_name {
        return None;
    }
    let values = scope.vars.get(name)?.iter().filter(|value| !value.dynamic && !value.text.is_empty());
    Some(values.map(|value| paths::absolute(&value.text, &scope.base)).collect())
}

/// Where `cd dir` and `pushd dir` go (P-18): a glob to the guarded folder, or the folder above
/// one, it could match from where the walk is, if any (the walk also judges what follows where it
/// came from); a relative name through each `$CDPATH` entry that is a directory, as bash looks it
/// up; else the name itself, or under `cdable_vars` the variable it names when it is no folder.
fn cd_destination(dir: &Arg, scope: &Scope<Bash>) -> PathBuf {
    if dir.glob
        && let Some(guarded) = crate::bash::words::glob_folders(&dir.text, &scope.base).into_iter().next()
    {
        return paths::absolute(&guarded, &scope.base);
    }
    if let Some(cdpath) = assigned(scope, "CDPATH").filter(|_| searched(dir)) {
        let found = cdpath
            .split(':')
            .filter(|entry| !entry.is_empty())
            .map(|entry| paths::absolute(format!("{entry}/{}", dir.text), &scope.base))
            .find(|candidate| fs::is_dir(candidate));
        if let Some(found) = found {
            return found;
        }
    }
    let folder = paths::absolute(&dir.text, &scope.base);
    match cdable_values(dir, scope).and_then(|values| values.into_iter().next()) {
        Some(value) if !fs::is_dir(&folder) => value,
        _ => folder,
    }
}

/// The top of the work tree where a command runs in `dir` (relative to the walk's directory):
/// found on disk, else taken as the walk's directory, which a relative `git -C dir` left.
fn work_tree_top(dir: &str, scope: &Scope<Bash>) -> PathBuf {
    let here = paths::absolute(dir, &scope.base);
    fs::repository_top(&here).unwrap_or_else(|| if Path::new(dir).is_absolute() { here } else { scope.base.clone() })
}

/// How a script file runs: in this shell (`source`), by its `#!` line (`./x`), with arguments,
/// with the environment its command gives a shell of its own.
#[derive(Clone, Copy)]
struct ScriptRun<'a> {
    this_shell: bool,
    by_shebang: bool,
    args: &'a [Arg],
    environment: &'a Environment,
}

/// The scope of a shell a command starts with `environment` (`NODE_OPTIONS=… bash -c '…'`,
/// `env -i sh x.sh`): the variables it gets, and those interpreters read as a program run here
/// with that environment would read them, which the child's own text cannot tell (P-18).
fn child_shell(
    scope: &Scope<Bash>,
    positional: Option<Positional>,
    environment: &Environment,
    source: &str,
) -> Scope<Bash> {
    let mut child = scope.child(positional);
    child.take_environment(environment);
    for variable in INTERPRETER_VARIABLES {
        let value = match options_of(variable, environment, source, scope) {
            Some(words) if words.is_empty() && !child.vars.contains_key(variable) => continue,
            Some(words) => Value::new(words.join(" "), false),
            None => Value::new(UNCOMPUTED.to_string(), true),
        };
        Rc::make_mut(&mut child.vars).insert(variable.to_string(), vec![value]);
    }
    child
}

/// Whether `path`, taken from the walk's directory, may be or hold a guarded location: `..` only
/// removes components, so with no guarded word in either, none is in the path.
fn may_be_guarded(path: &str, scope: &Scope<Bash>) -> bool {
    paths::may_name_guarded(path.as_bytes()) || paths::may_name_guarded(scope.base.as_os_str().as_encoded_bytes())
}

/// Whether the walk knows where a directory change went.
#[derive(PartialEq, Eq)]
enum Destination {
    Known,
    /// Through a value the walk could not compute (`cd "$d"`, `cd` with such a `$HOME`).
    Uncomputed,
}

/// Whether bash looks `dir` up through `$CDPATH`: a name, not a path from `/` or `.`.
fn searched(dir: &Arg) -> bool {
    !dir.text.starts_with(['/', '.']) && !dir.dynamic
}

/// Whether the line gave `name` a value the walk could not compute, or several.
fn uncomputed(scope: &Scope<Bash>, name: &str) -> bool {
    scope.vars.get(name).is_some_and(|values| !matches!(values.as_slice(), [value] if !value.dynamic))
}

fn assigned(scope: &Scope<Bash>, name: &str) -> Option<String> {
    match scope.vars.get(name).map(Vec::as_slice) {
        Some([value]) if !value.dynamic && !value.text.is_empty() => Some(value.text.clone()),
        _ => None,
    }
}
