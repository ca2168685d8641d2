//! A simple command: its words expanded, its redirections judged, then what the walk keeps
//! itself (aliases, functions, `set --`, `shift`, `read`) or what the writer table says it does.

use std::rc::Rc;

use super::{Input, Walk, Walker};
use crate::analysis::handoff::Source;
use crate::analysis::scope::Scope;
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::bash::words::{self, Arg, MAX_VALUES, Positional, Value};
use crate::bash::{Unscannable, fields, printed};
use crate::commands::{self, Effect, Environment, Written};

impl Walker<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn command<'t>(
        &mut self,
        node: Node<'t>,
        statement: Option<Node<'t>>,
        upstream: Input,
        walk: &mut Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let mut words = Vec::new();
        let mut files = Vec::new();
        let mut stdin = None;
        let mut prefix = Vec::new();
        for (child, field) in node.children() {
            match field {
                None if node_kind(child) == "variable_assignment" => prefix.push(child),
                Some("name") => {
                    if let Some(literal) = child.named_child(0) {
                        words.push(literal);
                    }
                }
                Some("argument") => words.push(child),
                Some("redirect") if node_kind(child) == "file_redirect" => files.push(child),
                Some("redirect") if node_kind(child) == "herestring_redirect" => stdin = Some(child),
                _ => {}
            }
        }
        if let Some(statement) = statement {
            let parts = self.redirections(statement, walk);
            files.extend(parts.files);
            words.extend(parts.words);
            stdin = parts.stdin.or(stdin);
        }
        let written_before = self.targets.len();
        // Redirections open before the command runs, in the directory it starts in.
        for file in files.iter().filter(|f| walk.counts(**f)) {
            self.redirect(*file, walk, scope, &mut words)?;
        }
        words.retain(|word| walk.counts(*word));
        words.sort_by_key(Node::start_byte);
        let (argv, variants) = self.expand_variants(&words, walk, scope)?;
        let piped = self.piped_file.take();
        let assigned = self.prefix_assignments(&prefix, walk, scope);
        let redirected = self.input_file(&files, walk, scope)?;
        // Of a heredoc or here-string and a `<` file, bash opens both in order: the later is read.
        let stdin =
            stdin.filter(|node| redirected.as_ref().is_none_or(|(_, spelled)| opened_at(*node) > spelled.start_byte()));
        let Input { text: stdin_text, mut producer } = match (stdin, &redirected) {
            (Some(node), _) => Input { text: Some(self.stdin_text(node, walk, scope)?), producer: Vec::new() },
            (None, Some((file, spelled))) => self.read_from((file, *spelled), &argv, walk, scope)?,
            // A program read through a pipe from a file (`cat s.py | python3`).
            (None, None) => match piped.as_ref().filter(|file| !file.dynamic && !file.glob) {
                Some(file) if self.runs_its_input(&argv) => {
                    Input { text: self.file_text(&file.text, &scope.base), producer: upstream.producer }
                }
                _ => upstream,
            },
        };
        self.substitutions_read(&words, walk, scope, &mut producer)?;
        // The scripts the command runs read what it reads.
        let input = (stdin_text.is_some() || !producer.is_empty())
            .then(|| Rc::new(Input { text: stdin_text.clone(), producer: producer.clone() }));
        // (An error ends the whole walk: only the ways out that go on need it put back.)
        let outer = std::mem::replace(&mut self.input, input);
        self.environment_runs(&assigned, &argv, walk, scope)?;
        if self.shell_state(&argv, &assigned, stdin_text.as_deref(), walk, scope)? {
            self.input = outer;
            return Ok(());
        }
        let environment = command_environment(scope, &assigned);
        let mut effects = Vec::new();
        let producer = &producer;
        let (stdin, written) = (stdin_text.as_deref(), Written { base: &scope.base, files: &self.files });
        commands::analyze_fed(&argv, stdin, producer, &environment, written, self.analyses, &mut effects);
        if effects.iter().any(|effect| matches!(effect, Effect::Patch(_))) {
            let input = redirected.map(|(file, _)| file).or(piped);
            for effect in &mut effects {
                if let Effect::Patch(read) = effect
                    && read.file.is_none()
                    && read.stdin.is_none()
                {
                    read.file = input.clone();
                }
            }
        }
        // `chmod +x hook` after `printf … > hook`: the text the line showed is still the file's.
        let shown =
            KEEPS_CONTENT.contains(&argv.first().map_or("", |name| name.text.as_str())).then(|| self.files.clone());
        // `CDPATH=… cd x`, `IFS=/ eval '…'`: a builtin sees the assignments before it while it runs.
        let changes_directory = effects.iter().any(|effect| matches!(effect, Effect::Cd(_)));
        let in_this_shell = changes_directory || effects.iter().any(|effect| matches!(effect, Effect::Eval(_)));
        let before = match in_this_shell {
            true => assigned.iter().map(|(name, _)| (name.clone(), scope.vars.get(name).cloned())).collect(),
            false => Vec::new(),
        };
        for (name, values) in assigned.iter().filter(|_| in_this_shell) {
            scope.assign(name, values.clone());
        }
        self.apply(effects, walk, scope, false, written_before)?;
        for (name, values) in before {
            match values {
                // A `cd` sets `$OLDPWD` itself.
                Some(_) if name == "OLDPWD" && changes_directory => scope.forget(&name),
                Some(values) => scope.assign(&name, values),
                None => scope.forget(&name),
            }
        }
        // Each possible value on its own adds what it writes; the shell's state follows the
        // words as they were judged above.
        for variant in &variants {
            let mut effects = Vec::new();
            let (stdin, written) = (stdin_text.as_deref(), Written { base: &scope.base, files: &self.files });
            commands::analyze_fed(variant, stdin, producer, &environment, written, self.analyses, &mut effects);
            self.apply(effects, walk, scope, true, written_before)?;
        }
        if let Some(shown) = shown {
            self.files = shown;
        }
        self.record_shown(&argv, stdin_text.as_deref(), written_before);
        self.input = outer;
        Ok(())
    }

    /// The files written since `written_before` get the text the command shows, for a script run
    /// later in the line.
    pub(super) fn record_shown(&mut self, argv: &[Arg], stdin: Option<&str>, written_before: usize) {
        if self.targets.len() > written_before
            && let Some(text) = shown_text(argv, stdin)
        {
            for path in self.targets.since(written_before) {
                self.files.push((path.clone(), text.clone()));
            }
        }
    }

    /// Whether the command runs what its standard input holds: an interpreter reading its program
    /// there (`python3`, `node -`), a shell given no script (`bash`, `sh -s`), or a command the
    /// table knows to run it (`sed e`).
    pub(super) fn runs_its_input(&self, argv: &[Arg]) -> bool {
        if commands::runs_its_input(argv) {
            return true;
        }
        let words: Vec<String> = argv.iter().map(|arg| arg.text.clone()).collect();
        let Some((name, args)) = words.split_first() else { return false };
        let shell = matches!(name.rsplit('/').next(), Some("sh" | "bash" | "dash" | "zsh" | "ksh"));
        if shell {
            return args.iter().all(|arg| arg.starts_with('-') && arg != "-c");
        }
        self.analyses.program_run(&words, Some("")).is_some_and(|run| matches!(run.source, Source::Text(_)))
    }

    /// The assignments before a command's name (`IFS=, read`, `BASH_ENV=f bash`): the command's
    /// own environment, not the shell's.
    fn prefix_assignments(&self, nodes: &[Node], walk: &Walk, scope: &Scope<Bash>) -> Vec<(String, Vec<Value>)> {
        let mut assigned = Vec::with_capacity(nodes.len());
        for node in nodes.iter().filter(|node| walk.counts(**node)) {
            let Some(name) = node.child_by_field_name("name").filter(|name| node_kind(name) == "variable_name") else {
                continue;
            };
            let appends = node.children().any(|(child, _)| node_kind(child) == "+=");
            let values = match node.child_by_field_name("value") {
                _ if appends => vec![Value::new(walk.text(*node).to_string(), true)],
                Some(value) => words::value(value, &self.context(walk, scope)),
                None => vec![Value::literal("")],
            };
            assigned.push((walk.text(name).to_string(), values));
        }
        assigned
    }

    /// What the walk keeps itself: aliases, functions called with their parameters, `set --`,
    /// `shift`, and `read` of known input. `true` when the command is done with here.
    fn shell_state(
        &mut self,
        argv: &[Arg],
        assigned: &[(String, Vec<Value>)],
        stdin: Option<&str>,
        walk: &Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<bool, Unscannable> {
        let Some((name, args)) = argv.split_first().filter(|(name, _)| !name.dynamic && !name.pipe) else {
            return Ok(false);
        };
        if let Some(value) = scope.alias(&name.text) {
            let mut text = value.clone();
            for arg in args {
                text.push(' ');
                text.push_str(&commands::quote(&arg.text));
            }
            // An alias is not expanded again inside its own expansion (`alias ls='ls -l'`).
            scope.defined.make_mut().aliases.remove(&name.text);
            self.script(&text, scope, walk.nesting + 1)?;
            scope.defined.make_mut().aliases.entry(name.text.clone()).or_insert(value);
            return Ok(true);
        }
        if let Some(body) = scope.function(&name.text) {
            let values = argv.iter().map(|arg| arg.to_value()).collect();
            let called = Positional { values, complete: !args.iter().any(|arg| arg.dynamic) };
            let saved = scope.positional().cloned();
            scope.set_positional(Some(Rc::new(called)));
            self.script(&body, scope, walk.nesting + 1)?;
            scope.set_positional(saved);
            return Ok(true);
        }
        match name.text.as_str() {
            "alias" => {
                for (alias, value) in args.iter().filter_map(|arg| arg.text.split_once('=')) {
                    scope.defined.make_mut().aliases.insert(alias.to_string(), value.to_string());
                }
                Ok(true)
            }
            "unalias" => {
                let aliases = &mut scope.defined.make_mut().aliases;
                for arg in args {
                    if arg.text == "-a" {
                        aliases.clear();
                    }
                    aliases.remove(&arg.text);
                }
                Ok(true)
            }
            "set" => {
                if let Some(on) = allexport(args) {
                    scope.set_exports_assignments(on);
                }
                if let Some(at) = args.iter().position(|arg| !arg.dynamic && arg.text == "--") {
                    let zero = scope.positional().and_then(|p| p.values.first().cloned());
                    let mut values = vec![zero.unwrap_or(Value::new("bash".to_string(), false))];
                    let rest = args.get(at + 1..).unwrap_or_default();
                    values.extend(rest.iter().map(|arg| arg.to_value()));
                    let complete = !rest.iter().any(|arg| arg.dynamic);
                    scope.set_positional(Some(Rc::new(Positional { values, complete })));
                }
                Ok(false)
            }
            // `hash -p /bin/x name`, `enable -f lib.so name`: a name that runs another program.
            "hash" | "enable" if args.iter().any(|arg| binds_a_name(&name.text, &arg.text)) => {
                scope.assign("PATH", vec![Value::unknown(&name.text)]);
                Ok(false)
            }
            "shift" => {
                let count = args.first().map_or(Some(1), |arg| arg.text.parse::<usize>().ok());
                match (scope.positional().cloned(), count) {
                    (Some(positional), Some(count)) => {
                        let mut positional = Positional::clone(&positional);
                        let end = (count + 1).min(positional.values.len());
                        positional.values.drain(1.min(end)..end);
                        scope.set_positional(Some(Rc::new(positional)));
                    }
                    _ => scope.set_positional(None),
                }
                Ok(true)
            }
            "read" => match stdin.map(str::to_string).or_else(|| scope.input().map(|input| input.to_string())) {
                Some(input) => {
                    // `IFS=, read`: the assignment is the command's own; else the shell's.
                    let ifs = match assigned.iter().rfind(|(name, _)| name == "IFS") {
                        Some((_, values)) => fields::known_ifs(Some(values)),
                        None => fields::known_ifs(scope.vars.get("IFS").map(Vec::as_slice)),
                    };
                    for name in read_known(args, &input, ifs.map(str::to_string).as_deref(), scope) {
                        self.assigned_uncomputed(&name);
                    }
                    Ok(true)
                }
                None => Ok(false),
            },
            _ => Ok(false),
        }
    }
}

/// Where the redirection that gives a command `stdin` is written: a heredoc's body comes after
/// the line, but its `<<` is where bash opens it.
fn opened_at(stdin: Node) -> usize {
    match node_kind(stdin) {
        "heredoc_body" => stdin.parent().map_or(stdin.start_byte(), |redirect| redirect.start_byte()),
        _ => stdin.start_byte(),
    }
}

/// Commands that change a file's mode, owner or times, never its text.
const KEEPS_CONTENT: [&str; 4] = ["chgrp", "chmod", "chown", "touch"];

/// Lines of known input that `read` assigns (each is one possible value).
const MAX_READ_LINES: usize = MAX_VALUES;

/// How `read` is told to read, from its options.
#[derive(Default)]
struct ReadOptions {
    names: Vec<String>,
    array: Option<String>,
    /// `-r`: backslashes are characters, not escapes.
    raw: bool,
    /// `-d`, `-n`, `-N`: records that are not the lines the walk splits.
    not_lines: bool,
}

/// `read`'s options (`-r`, `-ra x`, `-d ''`, …) and the names it assigns.
fn read_options(args: &[Arg]) -> ReadOptions {
    let mut options = ReadOptions::default();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let Some(flags) = arg.text.strip_prefix('-').filter(|flags| !flags.is_empty()) else {
            options.names.push(arg.text.clone());
            continue;
        };
        for (index, flag) in flags.char_indices() {
            if flag == 'r' {
                options.raw = true;
                continue;
            }
            if !"adnNptui".contains(flag) {
                continue;
            }
            // The option's value: the rest of this word, else the next word.
            let rest = flags.get(index + 1..).unwrap_or_default();
            let value = if rest.is_empty() {
                at += 1;
                args.get(at - 1).map(|arg| arg.text.clone())
            } else {
                Some(rest.to_string())
            };
            match flag {
                'a' => options.array = value,
                'd' => options.not_lines |= value.as_deref() != Some("\n"),
                'n' | 'N' => options.not_lines = true,
                _ => {}
            }
            break;
        }
    }
    options
}

/// `read` of known text: each line is one possible value of the names it reads (`-a`: of the
/// array's elements), split at `ifs` as bash splits it. Names whose values the walk cannot
/// compute (an unknown `IFS`, backslash escapes without `-r`, records other than lines) are
/// forgotten: uncomputed (P-18), and returned.
fn read_known(args: &[Arg], input: &str, ifs: Option<&str>, scope: &mut Scope<Bash>) -> Vec<String> {
    let ReadOptions { mut names, array, raw, not_lines } = read_options(args);
    let lines: Vec<&str> = input.lines().filter(|line| !line.trim().is_empty()).collect();
    let escaped = !raw && lines.iter().any(|line| line.contains('\\'));
    let ifs = ifs.filter(|_| lines.len() <= MAX_READ_LINES && !escaped && !not_lines);
    let whole = names.is_empty();
    if whole && array.is_none() {
        names.push("REPLY".to_string());
    }
    let Some(ifs) = ifs else {
        names.extend(array);
        for name in &names {
            scope.forget(name);
        }
        return names;
    };
    if let Some(array) = array {
        scope.forget(&array);
        let mut all = Vec::new();
        for line in &lines {
            for (index, field) in fields::split(line, ifs).into_iter().enumerate() {
                let value = Value::new(field, false);
                scope.assign(&words::element_name(&array, &index.to_string()), vec![value.clone()]);
                all.push(value);
            }
        }
        scope.assign(&words::element_name(&array, "@"), all);
        return Vec::new();
    }
    let mut values = vec![Vec::with_capacity(lines.len()); names.len()];
    for line in &lines {
        // `read` with no name keeps the line whole in `REPLY`.
        let split = if whole { vec![(*line).to_string()] } else { fields::read_line(line, ifs, names.len()) };
        for (slot, field) in values.iter_mut().zip(split) {
            slot.push(Value::new(field, false));
        }
    }
    for (name, values) in names.iter().zip(values) {
        scope.assign(name, values);
    }
    Vec::new()
}

/// The text a command writes when the line shows it: `cat` of its heredoc or here-string, `tee`,
/// what `echo`/`printf` of static words print.
fn shown_text(argv: &[Arg], stdin: Option<&str>) -> Option<String> {
    let (name, args) = argv.split_first()?;
    match name.text.as_str() {
        "cat" if args.is_empty() => stdin.map(str::to_string),
        "tee" => stdin.map(str::to_string),
        // What they print (`printf 'all:\n\tcp …' > Makefile`), else their words.
        "echo" | "printf" if args.iter().all(|arg| !arg.dynamic) => printed::printed(argv).or_else(|| {
            let texts: Vec<&str> = args.iter().map(|arg| arg.text.as_str()).collect();
            Some(texts.join(" "))
        }),
        _ => None,
    }
}

/// What `set`'s options say of `allexport`: on (`-a`, `-ea`, `-o allexport`), off (`+a`,
/// `+o allexport`), or nothing.
fn allexport(args: &[Arg]) -> Option<bool> {
    let mut said = None;
    let mut words = args.iter().take_while(|arg| arg.text != "--");
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        let on = match text.chars().next() {
            Some('-') => true,
            Some('+') => false,
            _ => continue,
        };
        let flags = text.get(1..).unwrap_or_default();
        if flags.contains('a') {
            said = Some(on);
        }
        // `-o` takes the next word (`set -euo allexport`).
        if flags.ends_with('o') && words.next().is_some_and(|option| option.text == "allexport") {
            said = Some(on);
        }
    }
    said
}

/// The command's environment: the variables the line exported, with the values the walk gives
/// them (every row that reads a variable sees them: git's work tree, `UNZIP`, `PARALLEL`, …), and
/// its own assignments.
fn command_environment(scope: &Scope<Bash>, assigned: &[(String, Vec<Value>)]) -> Environment {
    let changes = assigned.iter().map(|(name, values)| (name.clone(), Some(one_value(values))));
    Environment { changes: changes.collect(), exported: exported_values(scope), ..Environment::default() }
}

fn exported_values(scope: &Scope<Bash>) -> Rc<[(String, Arg)]> {
    let mut exported: Vec<&String> = match scope.exports_everything() {
        true => scope.vars.keys().collect(),
        false => scope.exported().iter().collect(),
    };
    // The shell looks the command up through the `PATH` the line set, exported or not.
    exported.extend(scope.vars.get_key_value("PATH").map(|(name, _)| name));
    if exported.is_empty() {
        return Rc::from([]);
    }
    exported.sort();
    exported.dedup();
    exported.into_iter().filter_map(|name| Some((name.clone(), one_value(scope.vars.get(name)?)))).collect()
}

/// A variable's values as one word: several, or one the walk could not compute, are uncomputed.
fn one_value(values: &[Value]) -> Arg {
    match values {
        [value] => Arg { text: value.text.clone(), dynamic: value.dynamic, ..Arg::default() },
        _ => Arg { text: UNCOMPUTED.to_string(), dynamic: true, ..Arg::default() },
    }
}

/// The text of a value the walk could not compute, as a command's or a child shell's environment
/// holds it.
pub(super) const UNCOMPUTED: &str = "\u{1}";

/// Whether `option`, given to `hash` or `enable`, binds a name to a program of its choosing.
fn binds_a_name(command: &str, option: &str) -> bool {
    let letter = if command == "hash" { 'p' } else { 'f' };
    option.starts_with('-') && !option.starts_with("--") && option.contains(letter)
}
