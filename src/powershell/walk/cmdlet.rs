//! A cmdlet by the table ([`crate::powershell::cmdlets`]), a cmdlet the table does not know, a
//! program (judged by the bash writer table) and a `cmd /c` line.

use std::path::PathBuf;
use std::rc::Rc;

use super::definitions::drive_item;
use super::targets::{basename, joined, location, parent, resolve};
use super::{Session, Walk, Walker};
use crate::analysis::Unscannable;
use crate::analysis::handoff::{INTERPRETER_VARIABLES, TEMPORARY_VARIABLES};
use crate::analysis::values::Value;
use crate::commands::cmd_exe::{self, CmdEffect, EntryDir};
use crate::paths;
use crate::powershell::MAX_SCRIPT_NESTING;
use crate::powershell::cmdlets::{self, Bound, Element, Kind};
use crate::powershell::words;
use crate::powershell::{cmd, invocation};

/// Locations reached through uncomputed values that the walk keeps apart (beyond, their
/// text alone tells).
const MAX_UNCOMPUTED_LOCATIONS: usize = 16;

impl Walker<'_> {
    pub(super) fn cmdlet(
        &mut self,
        cmdlet: &str,
        kind: Kind,
        bound: &Bound,
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let base = scope.base.clone();
        let whatif = bound.switch("whatif");
        // Only these bind what the pipeline passes to their `-Path`; the others take it as content.
        let takes_piped_path = cmdlets::takes_piped_path(cmdlet);
        let piped: Vec<&Value> = piped
            .filter(|_| takes_piped_path || kind == Kind::InvokeExpression)
            .map(|v| v.iter().collect())
            .unwrap_or_default();
        // `-Path` (wildcards) or `-LiteralPath`, else what the pipeline passes in.
        let sources = |bound: &Bound| -> Vec<(String, bool)> {
            let mut found: Vec<(String, bool)> = bound.values("path").iter().map(|v| (v.text.clone(), true)).collect();
            found.extend(bound.values("literalpath").iter().map(|v| (v.text.clone(), false)));
            if found.is_empty() {
                found.extend(piped.iter().map(|v| (v.text.clone(), true)));
            }
            found
        };
        // A file it writes that the walk could not compute may be any guarded location the call
        // names (P-18), whatever its text shows.
        let piped_path = !bound.has("path") && !bound.has("literalpath") && takes_piped_path;
        let written = cmdlets::written_params(kind).iter().flat_map(|param| bound.values(param));
        let uncomputed = written.chain(piped.iter().copied().filter(|_| piped_path)).any(|value| value.dynamic);
        if uncomputed && !whatif {
            self.uncomputed(&base);
        }
        match kind {
            Kind::WritesPaths if !whatif => {
                if cmdlet == "remove-item" {
                    let removed: Vec<String> = sources(bound).into_iter().map(|(path, _)| path).collect();
                    self.undefine(scope, &removed);
                }
                let mut written = sources(bound);
                // `alias:w`, `function:f`: no file.
                written.retain(|(path, _)| drive_item(path).is_none());
                for param in ["filepath", "outputmodule"] {
                    written.extend(bound.values(param).iter().map(|v| (v.text.clone(), false)));
                }
                for (path, wildcard) in written {
                    self.add(&path, &base, wildcard);
                }
            }
            Kind::NewItem if !whatif => {
                let item_type = bound.values("itemtype").first().map(|v| v.text.to_lowercase()).unwrap_or_default();
                let mut paths = texts(&bound.values("path"));
                let names = texts(&bound.values("name"));
                if paths.is_empty() {
                    paths.push(".".to_string());
                }
                if paths.iter().any(|path| drive_item(path).is_some()) {
                    let mut items = Vec::new();
                    for path in &paths {
                        items.extend(names.iter().map(|name| joined(path, name)));
                        if names.is_empty() {
                            items.push(path.clone());
                        }
                    }
                    let value = bound.values("value").first().map(|value| (*value).clone());
                    for item in items {
                        self.define_item(scope, &Value::literal(&item), value.as_ref())?;
                    }
                    return Ok(None);
                }
                if item_type.starts_with('d') {
                    let made: Vec<String> = if names.is_empty() {
                        paths.clone()
                    } else {
                        paths.iter().flat_map(|path| names.iter().map(|name| joined(path, name))).collect()
                    };
                    self.made(made.iter().map(String::as_str), &base);
                    return Ok(None);
                }
                for path in &paths {
                    if names.is_empty() {
                        self.add(path, &base, false);
                    }
                    for name in &names {
                        self.add(&joined(path, name), &base, false);
                    }
                }
                if ["symboliclink", "hardlink", "junction"].iter().any(|link| link.starts_with(&item_type))
                    && !item_type.is_empty()
                {
                    for target in bound.values("value") {
                        self.add(&target.text, &base, false);
                    }
                }
            }
            Kind::Copy | Kind::Move if !whatif => {
                let sources = sources(bound);
                let mut destinations = texts(&bound.values("destination"));
                if destinations.is_empty() {
                    destinations.push(".".to_string());
                }
                for destination in &destinations {
                    // A source lands inside the destination when that is a folder. That it is
                    // not (`Copy-Item approval.md backup.bak`) the walk proves from the disk and
                    // from what the call ran before (docs/decisions.md#p-18): creating its parent
                    // (`mkdir backup`) does not make it one.
                    let into =
                        self.may_be_made_dir(destination, &base, walk) || copies_into(destination, &sources, &base);
                    self.add(destination, &base, false);
                    if !into {
                        continue;
                    }
                    for (source, _) in &sources {
                        let name = basename(source);
                        if !name.is_empty() && name != "." && name != ".." {
                            self.add(&joined(destination, name), &base, true);
                        }
                    }
                }
                if kind == Kind::Move {
                    for (source, wildcard) in &sources {
                        self.add(source, &base, *wildcard);
                    }
                }
            }
            Kind::Archive if !whatif => {
                let destinations = bound.values("destinationpath");
                // An archive the walk cannot name may be any guarded file the call names.
                if destinations.iter().any(|destination| destination.dynamic) {
                    let named: Vec<Value> = bound.named.iter().flat_map(|(_, values)| values.iter().cloned()).collect();
                    for value in named {
                        self.add_if_guarded(&value.text, &base);
                    }
                }
                for destination in texts(&destinations) {
                    // Compress-Archive adds `.zip` to a name without it.
                    if !destination.to_ascii_lowercase().ends_with(".zip") {
                        self.add(&format!("{destination}.zip"), &base, false);
                    }
                    self.add(&destination, &base, false);
                }
            }
            Kind::Rename if !whatif => {
                let new_names = texts(&bound.values("newname"));
                for (source, wildcard) in sources(bound) {
                    self.add(&source, &base, wildcard);
                    for new_name in &new_names {
                        self.add(&joined(parent(&source), basename(new_name)), &base, false);
                    }
                }
            }
            Kind::SetLocation | Kind::PushLocation | Kind::PopLocation if bound.has("stackname") => {
                self.note_location_change(walk, scope);
                // Another stack than the default: where it goes, and what the default holds after,
                // the walk does not follow.
                crate::powershell::pop_location::forget_stack(scope);
                if kind == Kind::PopLocation {
                    return Ok(None);
                }
                let to = bound.values("path").into_iter().chain(bound.values("literalpath")).next().cloned();
                if let Some(to) = to.and_then(|to| resolve(&to.text, &base)) {
                    self.moved(&scope.base, &to);
                    scope.base = to;
                    self.reach(scope);
                }
            }
            Kind::SetLocation | Kind::PushLocation => {
                self.note_location_change(walk, scope);
                let wildcard = !bound.has("literalpath");
                let to = bound.values("path").into_iter().chain(bound.values("literalpath")).next().cloned();
                let dynamic = to.as_ref().is_some_and(|to| to.dynamic);
                let to = match to {
                    Some(to) if to.text == "-" || to.text == "+" => return Ok(None),
                    Some(to) => location(&to.text, &base, wildcard),
                    None if kind == Kind::SetLocation => self.home.as_ref().map(PathBuf::from),
                    None => None,
                };
                if let Some(to) = to {
                    if dynamic && self.uncomputed_locations.len() < MAX_UNCOMPUTED_LOCATIONS {
                        self.uncomputed_locations.push(to.clone());
                    }
                    if kind == Kind::PushLocation {
                        scope.stack.push(base);
                        self.pushed_location(scope);
                    }
                    self.moved(&scope.base, &to);
                    scope.base = to;
                    self.reach(scope);
                }
            }
            Kind::PopLocation => {
                let sure = self.sure_pop(walk, scope);
                self.note_location_change(walk, scope);
                let depth = scope.stack.len();
                if let Some(top) = scope.stack.pop() {
                    if !sure {
                        self.moved(&scope.base, &top);
                    } else if let Some(beneath) = scope.stack.last().cloned() {
                        // Sure to return where its `Push-Location` left, unless that push failed:
                        // then it returns to the location beneath.
                        self.moved(&beneath, &top);
                    }
                    scope.base = top.clone();
                    self.reach(scope);
                    if sure {
                        let own = self.last_place.as_ref().map(|(_, at)| *at);
                        self.popped_location(depth, &top, own);
                    }
                }
            }
            Kind::InvokeExpression => {
                let mut commands: Vec<Value> = bound.values("command").into_iter().cloned().collect();
                if commands.is_empty() {
                    commands.extend(piped.iter().map(|v| (*v).clone()));
                }
                self.run_texts(&commands, walk, scope)?;
            }
            Kind::StartProcess => {
                for param in ["redirectstandardoutput", "redirectstandarderror"] {
                    for file in bound.values(param) {
                        self.add(&file.text, &base, false);
                    }
                }
                let Some(program) = bound.values("filepath").first().map(|v| v.text.clone()) else { return Ok(None) };
                let line = texts(&bound.values("argumentlist")).join(" ");
                let chars: Vec<char> = line.chars().collect();
                let mut elements = Vec::new();
                for word in words::split_blank(&chars) {
                    elements
                        .push(Element::Arg(words::argument(&word.iter().collect::<String>(), &self.context(scope))?));
                }
                let mut child = Session { own: false, ..scope.clone() };
                if let Some(dir) = bound.values("workingdirectory").first().and_then(|dir| resolve(&dir.text, &base)) {
                    child.base = dir;
                }
                let mut apart = child.clone();
                self.run(&program, &elements, walk, &mut child, None)?;
                // The list's items are joined with blanks and split again, as PowerShell documents;
                // a version that quoted each item would pass them whole: that reading is judged too.
                let items: Vec<Element> =
                    bound.values("argumentlist").into_iter().map(|item| Element::Arg(vec![item.clone()])).collect();
                if items.len() > 1 {
                    self.run(&program, &items, walk, &mut apart, None)?;
                }
            }
            Kind::SetAlias if !whatif => {
                let target = bound.values("value").first().map(|target| (*target).clone());
                for name in bound.values("name").into_iter().cloned().collect::<Vec<_>>() {
                    self.define_alias(scope, &name, target.as_ref());
                }
            }
            Kind::RemoveAlias if !whatif => {
                let names: Vec<String> =
                    bound.values("name").iter().map(|name| format!("alias:{}", name.text)).collect();
                self.undefine(scope, &names);
            }
            Kind::ReadOnly if cmdlet == "import-alias" => {
                // Aliases from a file: any command may now be one.
                Rc::make_mut(&mut scope.defined).any_alias = true;
                self.reach(scope);
            }
            Kind::SetVariable if !whatif => {
                let values: Vec<Value> = bound.values("value").into_iter().cloned().collect();
                for name in bound.values("name").into_iter().filter(|name| !name.dynamic).cloned().collect::<Vec<_>>() {
                    let values = if values.is_empty() { vec![Value::literal("")] } else { values.clone() };
                    self.assign(scope, words::variable_key(&name.text), values)?;
                }
            }
            Kind::SetItem if !whatif => {
                let value = bound.values("value").first().map(|value| (*value).clone());
                let items: Vec<Value> =
                    bound.values("path").into_iter().chain(bound.values("literalpath")).cloned().collect();
                for item in &items {
                    if drive_item(&item.text).is_some() {
                        self.define_item(scope, item, value.as_ref())?;
                    } else {
                        let all: Vec<Value> = items.iter().chain(value.iter()).cloned().collect();
                        for value in all {
                            self.add_if_guarded(&value.text, &base);
                        }
                    }
                }
            }
            Kind::ReadOnly if matches!(cmdlet, "get-childitem" | "get-item") => {
                let listing = cmdlet == "get-childitem";
                let mut output = Vec::new();
                let mut listed = sources(bound);
                listed.extend(bound.rest.iter().flatten().map(|v| (v.text.clone(), true)));
                for (path, _) in listed {
                    if listing {
                        output.push(Value::new(joined(&path, "*"), false));
                    }
                    output.push(Value::literal(&path));
                }
                if output.is_empty() && listing {
                    output.push(Value::literal("*"));
                }
                return Ok(Some(output));
            }
            _ => {}
        }
        Ok(None)
    }

    /// A location change where the walk cannot tell whether it ran makes later pops unsure.
    fn note_location_change(&mut self, walk: &Walk, scope: &Session) {
        self.stack_unsure |= !self.runs_surely(walk, scope);
    }

    /// Whether a command here runs in the shell itself whenever the line gets this far: a
    /// statement of the line (not in a block, a nested script, a chain after `&&`/`||`).
    fn runs_surely(&self, walk: &Walk, scope: &Session) -> bool {
        scope.own && walk.nesting == 0 && self.conditional == 0 && self.chained == 0
    }

    /// A `Pop-Location` sure to return where the walk's stack says (P-18): it runs surely, the
    /// stack is the shell's as the walk keeps it, and no location change ran where the walk
    /// could not tell whether it did. It fails only when that location is gone.
    fn sure_pop(&self, walk: &Walk, scope: &Session) -> bool {
        self.runs_surely(walk, scope)
            && !self.stack_unsure
            && !self.moved_in_block
            && crate::powershell::pop_location::stack_known(scope)
    }

    /// Script text run as code (`Invoke-Expression`): each value walked as a script here. Text
    /// the walk could not compute whole may be any command: it writes every guarded location the
    /// call names (docs/decisions.md#p-18).
    pub(super) fn run_texts(&mut self, texts: &[Value], walk: &Walk, scope: &mut Session) -> Result<(), Unscannable> {
        for text in texts {
            if text.dynamic {
                self.uncomputed(&scope.base.clone());
            }
            self.script(&text.text, scope, walk.nesting + 1)?;
        }
        Ok(())
    }

    /// `[scriptblock]::Create(text)`: the block may run where it is made or anywhere later
    /// (`& $b`, `.Invoke()`), so its text is walked here as a block that may run.
    pub(super) fn created_block(
        &mut self,
        texts: &[Value],
        walk: &Walk,
        scope: &mut Session,
    ) -> Result<(), Unscannable> {
        let before = (scope.base.clone(), scope.stack.clone());
        self.conditional += 1;
        let result = self.run_texts(texts, walk, scope);
        self.conditional -= 1;
        if scope.own && (scope.base != before.0 || scope.stack != before.1) {
            self.moved_in_block = true;
        }
        result
    }

    /// A command the walk cannot see into (a cmdlet the table does not know, a name only known
    /// at run time, a function without a body): [`Self::unknown`] on its words, and it may have
    /// made any directory.
    pub(super) fn unknown_command(&mut self, elements: &[Element], scope: &Session) {
        self.dirs_unseen = true;
        self.unknown(elements, scope);
    }

    /// Words the walk does not know the use of: every guarded location they name is written.
    pub(super) fn unknown(&mut self, elements: &[Element], scope: &Session) {
        let base = scope.base.clone();
        for value in cmdlets::all_values(elements) {
            if self.add_if_guarded(&value.text, &base) {
                continue;
            }
            // A guarded location inside a longer text (`'sc docs/superpowers/plans/x.md x'`)
            // may be what it writes too (P-18).
            for location in paths::everything_named(&value.text, paths::Dialect::PowerShell) {
                self.add_absolute(paths::absolute(location, &base));
            }
        }
    }

    /// A program: judged by the bash writer table on the same words, reading what the pipeline
    /// gives it (`piped`) on its standard input: the values the walk knows, and for one it could
    /// not compute, every guarded location the call names (P-18).
    pub(super) fn program(
        &mut self,
        name: &str,
        args: &[String],
        piped: Option<&[Value]>,
        scope: &Session,
    ) -> Result<(), Unscannable> {
        let program = basename(name);
        let program = program.strip_suffix(".exe").unwrap_or(program);
        let mut line = String::new();
        if let Some(piped) = piped {
            line.push_str("printf '%s\\n'");
            for value in piped.iter().filter(|value| !value.dynamic) {
                line.push(' ');
                line.push_str(&bash_quote(&as_path_word(&value.text)));
            }
            if piped.iter().any(|value| value.dynamic) {
                for location in self.named_by_call().iter() {
                    line.push(' ');
                    line.push_str(&bash_quote(&location.to_string_lossy()));
                }
            }
            line.push_str(" | ");
        }
        // `$env:OUT = 'plans/p.md'; mytool`: the program's environment holds what the call set,
        // every value a variable may have. A name bash cannot assign (`${env:my-var}`) gives its
        // values as words, which the program is judged on all the same.
        // A variable an interpreter reads (its options, its temporary folder) counts whatever it
        // names: one value the walk knows as it is, any other as a value bash cannot compute.
        let mut environment: Vec<(&str, &str)> = Vec::new();
        let mut uncomputed: Vec<&str> = Vec::new();
        for (key, values) in scope.vars.iter() {
            let Some(name) = key.strip_prefix("env:") else { continue };
            if read_by_interpreters(name) {
                match values.as_slice() {
                    [value] if !value.dynamic => environment.push((name, value.text.as_str())),
                    _ => uncomputed.push(name),
                }
                continue;
            }
            let named = values.iter().filter(|value| paths::may_name_guarded(value.text.as_bytes()));
            environment.extend(named.map(|value| (name, value.text.as_str())));
        }
        environment.sort_unstable();
        uncomputed.sort_unstable();
        let mut words: Vec<String> = Vec::new();
        for (name, value) in &environment {
            if is_shell_name(name) {
                line.push_str(&format!("{}={} ", name.to_ascii_uppercase(), bash_quote(&as_path_word(value))));
            } else {
                words.push(value.to_string());
            }
        }
        for name in uncomputed {
            line.push_str(&format!("{}={UNCOMPUTED_WORD} ", name.to_ascii_uppercase()));
        }
        line.push_str(&bash_quote(program));
        for arg in args.iter().chain(&words) {
            line.push(' ');
            line.push_str(&bash_quote(&as_path_word(arg)));
        }
        for target in self.analyses.bash(&line, &scope.base)? {
            self.add_absolute(target);
        }
        Ok(())
    }

    /// A `cmd /c` line, run in the current location.
    pub(super) fn cmd_line(&mut self, line: &str, scope: &Session, nesting: usize) -> Result<(), Unscannable> {
        if nesting > MAX_SCRIPT_NESTING {
            return Err(Unscannable::ScriptsTooDeep);
        }
        let mut base = scope.base.clone();
        for step in cmd::steps(line) {
            for file in &step.redirected {
                self.add(file, &base, false);
            }
            let Some(first) = step.words.first() else { continue };
            let program = basename(first).to_ascii_lowercase();
            let program = program.strip_suffix(".exe").unwrap_or(&program).to_string();
            let rest = step.words.get(1..).unwrap_or_default();
            match cmd_exe::effects(&program, rest) {
                Some(effects) => {
                    for effect in effects {
                        self.cmd_effect(effect, rest, &mut base, scope, nesting)?;
                    }
                }
                None if invocation::is_powershell(first) => {
                    if let Some(script) = invocation::invoked_script(rest, None) {
                        let mut child = Session::process(&base);
                        self.script(&script, &mut child, nesting + 1)?;
                    }
                }
                None => {
                    let mut at_base = Session { own: false, ..scope.clone() };
                    at_base.base = base.clone();
                    self.program(first, rest, None, &at_base)?;
                }
            }
        }
        Ok(())
    }

    /// One effect of cmd's own commands ([`cmd_exe`]), from the directory `base`.
    fn cmd_effect(
        &mut self,
        effect: CmdEffect,
        args: &[String],
        base: &mut PathBuf,
        scope: &Session,
        nesting: usize,
    ) -> Result<(), Unscannable> {
        match effect {
            CmdEffect::Write { path, wildcard } => self.add(path, base, wildcard),
            CmdEffect::WriteEntry { dir, name, wildcard } => {
                let dir = match dir {
                    EntryDir::Is(dir) => dir,
                    EntryDir::ParentOf(path) => parent(path),
                };
                self.add(&joined(dir, basename(name)), base, wildcard);
            }
            CmdEffect::Cd(dir) => {
                if let Some(to) = resolve(dir, base) {
                    *base = to;
                }
            }
            CmdEffect::Cmd => {
                if let Some(inner) = cmd::script(args) {
                    let mut inner_scope = Session { own: false, ..scope.clone() };
                    inner_scope.base = base.clone();
                    self.cmd_line(&inner, &inner_scope, nesting + 1)?;
                }
            }
        }
        Ok(())
    }
}

/// Programs PowerShell on Windows runs as a cmdlet alias and elsewhere as the program itself:
/// both are judged.
pub(super) const NATIVE_ON_UNIX: [&str; 8] = ["cp", "mv", "rm", "rmdir", "tee", "sort", "cat", "ls"];

/// A word for bash: single-quoted.
/// A bash word whose value the walk cannot compute and that runs nothing: what a variable
/// PowerShell could not compute is given to a program as.
const UNCOMPUTED_WORD: &str = "\"$RANDOM\"";

/// Whether an interpreter reads the variable named so (lower case, as PowerShell keys it).
fn read_by_interpreters(name: &str) -> bool {
    let named = |variable: &&str| variable.eq_ignore_ascii_case(name);
    INTERPRETER_VARIABLES.iter().any(named) || TEMPORARY_VARIABLES.iter().any(named)
}

fn bash_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Arguments as a program receives them; a path typed with `\` reaches it with `/`.
pub(super) fn program_words(elements: &[Element]) -> Vec<String> {
    let mut words = Vec::new();
    for element in elements {
        match element {
            Element::Param { text, value, .. } => {
                let mut word = text.clone();
                if let Some(values) = value {
                    word.push(':');
                    word.push_str(&values.iter().map(|v| v.text.as_str()).collect::<Vec<_>>().join(","));
                }
                words.push(word);
            }
            Element::Arg(values) => words.extend(values.iter().map(|value| value.text.clone())),
        }
    }
    words
}

fn as_path_word(word: &str) -> String {
    if word.contains('\\') && !word.contains(char::is_whitespace) {
        paths::from_windows(word)
    } else {
        word.to_string()
    }
}

/// Whether Copy-Item or Move-Item puts its sources inside `destination`: it ends in a separator,
/// is computed (`$env:TEMP` may be a folder), there are several sources or a wildcard, or it is
/// a folder now.
fn copies_into(destination: &str, sources: &[(String, bool)], base: &std::path::Path) -> bool {
    destination.ends_with(['/', '\\'])
        || destination.contains('$')
        || sources.len() > 1
        || sources.iter().any(|(source, wildcard)| *wildcard && source.contains(['*', '?', '[']))
        || resolve(destination, base).is_some_and(|dir| crate::analysis::fs::is_dir(&dir))
}

fn texts(values: &[&Value]) -> Vec<String> {
    values.iter().map(|value| value.text.clone()).collect()
}

/// Whether `name` can be assigned in bash (`NAME=value cmd`): a letter or `_`, then letters,
/// digits or `_`.
fn is_shell_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
