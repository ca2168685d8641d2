//! What an interpreter takes from the environment the line gives it: options, code run before
//! the program, folders it loads modules from ([`Language::environment`]); and the files the line
//! wrote that a program may load as code (P-18).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Walk, Walker};
use crate::analysis::answer::Answer;
use crate::analysis::fs;
use crate::analysis::handoff::{
    Invocation, Language, MAX_SCRIPT_FILE_BYTES, Place, ProgramLimit, Reads, Source, TEMPORARY_VARIABLES,
};
use crate::analysis::scope::Scope;
use crate::analysis::values::{self, Value};
use crate::bash::Unscannable;
use crate::bash::state::Bash;
use crate::commands::{Environment, Variable};
use crate::paths;

/// What an interpreter takes from its environment ([`Walker::taken_from_environment`]).
pub(super) struct Taken {
    /// Options it reads before its command line's.
    pub options: Vec<String>,
    /// Code it runs before the program's own.
    prelude: String,
    /// Folders, and files, it may load code from.
    search: Vec<String>,
    /// It may load code from where no analysis reads, or a value the walk could not compute.
    unseen_code: bool,
    /// Its temporary folder ([`Invocation::temporary`]).
    temporary: Option<String>,
}

impl Taken {
    /// `invocation` (read from a command line that has [`Self::options`]) with the rest of what
    /// the environment gives the interpreter.
    pub fn give(self, invocation: &mut Invocation) {
        invocation.prelude.insert_str(0, &self.prelude);
        invocation.search.extend(self.search);
        invocation.unseen_code |= self.unseen_code;
        invocation.temporary = self.temporary;
    }
}

impl Walker<'_> {
    /// `argv` with the options the interpreter it runs reads from `environment` put after its
    /// name, as it reads them, and the rest it takes from there; no more when `argv` runs no
    /// interpreter.
    pub(super) fn with_environment(
        &mut self,
        mut argv: Vec<String>,
        environment: &Environment,
        dir: &str,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> (Vec<String>, Option<Taken>) {
        let Some(language) = self.analyses.program_run(&argv, None).map(|run| run.language) else {
            return (argv, None);
        };
        let base = paths::absolute(dir, &scope.base);
        let mut taken = self.taken_from_environment(language, environment, &base, walk, scope);
        let at = argv.len().min(1);
        argv.splice(at..at, std::mem::take(&mut taken.options));
        (argv, Some(taken))
    }

    /// What the interpreter of `language`, run in `base` with `environment`, takes from it; a value
    /// the walk could not compute may hold anything (P-18).
    pub(super) fn taken_from_environment(
        &mut self,
        language: Language,
        environment: &Environment,
        base: &Path,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Taken {
        let mut taken = Taken {
            options: Vec::new(),
            prelude: String::new(),
            search: Vec::new(),
            unseen_code: false,
            temporary: temporary_folder(environment, walk.source, scope),
        };
        for &(variable, reads) in language.environment() {
            let Some(words) = options_of(variable, environment, walk.source, scope) else {
                taken.unseen_code = true;
                continue;
            };
            if words.is_empty() {
                continue;
            }
            match reads {
                Reads::Options => taken.options.extend(words),
                Reads::OptionValue(option) => taken.options.push(format!("{option}{}", words.join(" "))),
                Reads::Switches => taken.options.extend(words.into_iter().map(|word| match word.starts_with('-') {
                    true => word,
                    false => format!("-{word}"),
                })),
                Reads::Code => {
                    let code = words.join(" ");
                    match code.strip_prefix('@') {
                        Some(file) => self.code_file(file, base, &mut taken),
                        None => {
                            taken.prelude.push_str(&code);
                            taken.prelude.push('\n');
                        }
                    }
                }
                Reads::File => self.code_file(&words.join(" "), base, &mut taken),
                Reads::Folders(separator) => {
                    let value = words.join(" ");
                    let entries = value.split(separator).filter(|entry| !entry.is_empty());
                    taken.search.extend(entries.map(|entry| searched_folder(entry).to_string()));
                    taken.unseen_code = true;
                }
            }
        }
        taken
    }

    /// A file of code the interpreter runs first, read as a script file is; one the walk cannot
    /// read is code no analysis reads (and one the line wrote unseen is found among the files it
    /// may load). A file that is not there, and that the line did not write, runs nothing.
    fn code_file(&self, file: &str, base: &Path, taken: &mut Taken) {
        let path = paths::absolute(file, base);
        let text = match self.shown_text(&path) {
            Some(text) => Some(text.to_string()),
            None if self.targets.contains(&path) => None,
            None => match fs::read_regular_file(&path, MAX_SCRIPT_FILE_BYTES) {
                None => return,
                Some(bytes) => String::from_utf8(bytes)
                    .ok()
                    .filter(|text| text.len() as u64 <= MAX_SCRIPT_FILE_BYTES && !text.contains('\0')),
            },
        };
        match text {
            Some(text) => {
                taken.prelude.push_str(&text);
                taken.prelude.push('\n');
            }
            None => {
                taken.unseen_code = true;
                taken.search.push(file.to_string());
            }
        }
    }

    /// The files the line wrote before an unproven program that it may load as code (P-18):
    /// beneath a folder it loads modules from (where it runs, its script's, one its options or
    /// environment give it) with a suffix its language loads, or named by its text, or a file its
    /// environment names. One whose text the line shows is judged as the program's own code;
    /// settings, native modules and files the line wrote unseen may do anything the line names.
    pub(super) fn loaded_files(
        &mut self,
        invocation: &Invocation,
        text: &str,
        base: &Path,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let (code, other) = invocation.language.loaded_files();
        let script = match &invocation.source {
            Source::File(path) => Some(paths::absolute(path, base)),
            _ => None,
        };
        let mut folders = vec![base.to_path_buf()];
        folders.extend(script.as_deref().and_then(Path::parent).map(Path::to_path_buf));
        folders.extend(invocation.search.iter().map(|folder| paths::absolute(folder, base)));
        let loaded: Vec<PathBuf> = self
            .targets
            .since(0)
            .iter()
            .filter(|path| Some(*path) != script.as_ref())
            .filter(|path| {
                let loads = suffix(path).is_none_or(|suffix| code.contains(&suffix) || other.contains(&suffix));
                folders.iter().any(|folder| *path == folder || loads && path.starts_with(folder))
                    || loads && named_by(text, path, base)
            })
            .cloned()
            .collect();
        for path in loaded {
            let shown = self.shown_text(&path).map(str::to_string);
            match shown.filter(|_| suffix(&path).is_none_or(|suffix| code.contains(&suffix))) {
                Some(module) => {
                    let place = Place { dir: base, temporary: invocation.temporary.as_deref() };
                    let answer =
                        self.analyses.program(invocation.language, Some(&module), &invocation.args, place, false);
                    self.program_answer(answer, base, walk, scope)?;
                }
                None => self.add_uncomputed(walk, scope),
            }
        }
        Ok(())
    }

    /// What a program's analysis found: the locations it writes, and the commands it starts,
    /// walked as scripts apart in `base`.
    pub(super) fn program_answer(
        &mut self,
        answer: Answer<ProgramLimit>,
        base: &Path,
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<(), Unscannable> {
        for location in answer.locations {
            // The program's analysis gives them absolute and normalized already.
            let path = if location.path.is_absolute() { location.path } else { paths::absolute(location.path, base) };
            self.add_reached(path, location.reach, scope);
        }
        for command in &answer.starts {
            // A process the program starts: what it does to its shell stays there. It may have
            // set the process's temporary folder anywhere first (`os.environ['TMPDIR'] = …`,
            // `env={…}`).
            let mut child = scope.child(None);
            child.base = base.to_path_buf();
            for variable in TEMPORARY_VARIABLES {
                child.assign(variable, vec![Value::unset(variable)]);
            }
            self.script_apart(command, &mut child, walk)?;
        }
        Ok(())
    }
}

fn suffix(path: &Path) -> Option<&str> {
    path.extension().and_then(OsStr::to_str)
}

/// Whether a program's text names `path` (absolute, or from `base`), with or without its suffix
/// (`require("/tmp/x")`, `-r ./lib/x.rb`), as a whole name (`/tmp/l` is not in `/tmp/lm`).
fn named_by(text: &str, path: &Path, base: &Path) -> bool {
    let stem = path.with_extension("");
    let relative = stem.strip_prefix(base).ok().filter(|relative| !relative.as_os_str().is_empty());
    let name_goes_on = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    [Some(stem.as_path()), relative].into_iter().flatten().any(|stem| {
        let stem = stem.to_string_lossy();
        text.match_indices(&*stem).any(|(at, _)| {
            let before = text.get(..at).and_then(|before| before.chars().next_back());
            let after = text.get(at + stem.len()..).and_then(|after| after.chars().next());
            !before.is_some_and(name_goes_on) && !after.is_some_and(name_goes_on)
        })
    })
}

/// The folder a module search path's entry names: a Lua template's (`/opt/lib/?.lua`) is where
/// its `?` stands.
fn searched_folder(entry: &str) -> &str {
    match entry.split_once('?') {
        Some((before, _)) => {
            before.rsplit_once('/').map_or(".", |(folder, _)| if folder.is_empty() { "/" } else { folder })
        }
        None => entry,
    }
}

/// The temporary folder a program run with `environment` gets: the value the line gives
/// [`TEMPORARY_VARIABLES`] (on the way to it, or as the shell has it), else the system's. An
/// interpreter takes the first of them it can use, so `None` (P-18: any folder) unless every one
/// the line sets has the same value the walk knows.
fn temporary_folder(environment: &Environment, source: &str, scope: &Scope<Bash>) -> Option<String> {
    let mut folder: Option<String> = None;
    for variable in TEMPORARY_VARIABLES {
        let (text, dynamic) = match environment.variable(variable) {
            Variable::Set(value) => (value.text.as_str(), value.dynamic),
            Variable::Shell => match scope.vars.get(variable).map(Vec::as_slice) {
                Some([value]) => (value.text.as_str(), value.dynamic),
                Some(_) => return None,
                // Set in a way the walk did not follow (`read TMPDIR`): only the text tells.
                None if inherited_options(source, variable).is_none() => return None,
                None => continue,
            },
            Variable::Unset => continue,
        };
        match folder.as_deref() {
            _ if dynamic => return None,
            _ if text.is_empty() => {}
            Some(earlier) if earlier != text => return None,
            _ => folder = Some(text.to_string()),
        }
    }
    Some(folder.unwrap_or_else(|| values::temporary_folder().text))
}

/// The words of the options variable `variable` a command run with `environment` gets: as
/// assigned on the way to it (`NODE_OPTIONS=… node`, `env NODE_OPTIONS=…`), else as the shell has
/// it (set in the line or exported before it) unless the way removed it (`env -u NODE_OPTIONS`,
/// `env -i`); `None` when the walk could not compute them.
pub(super) fn options_of(
    variable: &str,
    environment: &Environment,
    source: &str,
    scope: &Scope<Bash>,
) -> Option<Vec<String>> {
    match environment.variable(variable) {
        Variable::Set(value) => value_options(variable, &value.text, value.dynamic, source),
        Variable::Shell => match scope.vars.get(variable).map(Vec::as_slice) {
            Some([value]) => value_options(variable, &value.text, value.dynamic, source),
            Some(_) => None,
            // Never set in the line, or set in a way the walk did not follow (`read
            // NODE_OPTIONS`): only the text tells them apart.
            None => inherited_options(source, variable),
        },
        Variable::Unset => Some(Vec::new()),
    }
}

/// The words of a value of an options variable. Where it holds the variable's earlier value
/// (`"$NODE_OPTIONS --max-old-space-size=4096"`), that is the options the shell inherited, which
/// every program it starts gets alike, and those the line's text adds to them.
fn value_options(variable: &str, text: &str, dynamic: bool, source: &str) -> Option<Vec<String>> {
    let Options { mut words, extends } = options_in(variable, text, dynamic)?;
    if extends {
        words.extend(inherited_options(source, variable)?);
    }
    Some(words)
}

/// An options variable's value, word by word.
struct Options {
    words: Vec<String>,
    /// It holds the variable's earlier value ([`reads_itself`]).
    extends: bool,
}

/// The words of an options variable's value; `None` when a part the walk could not compute is
/// anything but the variable's earlier value.
fn options_in(variable: &str, text: &str, dynamic: bool) -> Option<Options> {
    let mut options = Options { words: Vec::new(), extends: false };
    for word in text.split_whitespace() {
        match word {
            _ if !dynamic => options.words.push(word.to_string()),
            _ if reads_itself(word, variable) => options.extends = true,
            _ if word.contains(['$', '`', '\u{1}']) => return None,
            _ => options.words.push(word.to_string()),
        }
    }
    Some(options)
}

/// `$NODE_OPTIONS`, `${NODE_OPTIONS}`, or with an empty default (`${NODE_OPTIONS:-}`,
/// `${NODE_OPTIONS-''}`): the variable's value and nothing else. The walk reads the default
/// forms as an empty word where the line did not set the variable; the line's text, which
/// [`inherited_options`] reads, still spells them.
fn reads_itself(word: &str, variable: &str) -> bool {
    if let Some(braced) = word.strip_prefix("${").and_then(|rest| rest.strip_suffix('}')) {
        let default = braced.strip_prefix(variable);
        return default.is_some_and(|default| EMPTY_DEFAULTS.contains(&default));
    }
    word.strip_prefix('$') == Some(variable)
}

/// What may follow a variable's name in `${…}` for its value or, unset, nothing.
const EMPTY_DEFAULTS: [&str; 7] = ["", "-", ":-", "-''", ":-''", "-\"\"", ":-\"\""];

/// Where the walk holds no value of the options variable `variable`: the words the line's text
/// adds to the inherited value (`export NODE_OPTIONS="$NODE_OPTIONS --max-old-space-size=1"`);
/// `None` when it may give it a value the walk could not keep (`read NODE_OPTIONS`,
/// `NODE_OPTIONS=$(cat f)`, `${NODE_OPTIONS:=…}`). Reading it (`$NODE_OPTIONS`,
/// `${NODE_OPTIONS:-x}`), `export` and `unset` add nothing.
fn inherited_options(source: &str, variable: &str) -> Option<Vec<String>> {
    let mut added = Vec::new();
    for (at, _) in source.match_indices(variable) {
        let before = source.get(..at).and_then(|text| text.chars().next_back());
        let after = source.get(at + variable.len()..).unwrap_or_default();
        let keyword = source.get(..at).unwrap_or_default().trim_end().rsplit([' ', ';', '&', '|', '\n']).next();
        // Part of a longer name (`LUA_INIT_5_4`, `MY_NODE_OPTIONS`): another variable.
        let name_goes_on = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if before.is_some_and(name_goes_on) || after.starts_with(name_goes_on) {
            continue;
        }
        match (before, after.strip_prefix('=')) {
            (Some('{'), _) if after.starts_with(":=") || after.starts_with('=') => return None,
            (Some('$' | '{'), _) => {}
            (_, None) if matches!(keyword, Some("unset" | "export")) => {}
            (_, Some(value)) => {
                let options = assigned_options(variable, value)?;
                if options.extends {
                    added.extend(options.words);
                }
            }
            _ => return None,
        }
    }
    Some(added)
}

/// The value an assignment's text gives an options variable (what follows `NODE_OPTIONS=`),
/// quoted or not; `None` when the text alone cannot tell.
fn assigned_options(variable: &str, text: &str) -> Option<Options> {
    let (value, dynamic) = match text.chars().next() {
        Some('\'') => (text.get(1..).unwrap_or_default().split('\'').next().unwrap_or_default(), false),
        Some('"') => (text.get(1..).unwrap_or_default().split('"').next().unwrap_or_default(), true),
        _ => (text.split([' ', '\t', ';', '&', '|', '\n']).next().unwrap_or_default(), true),
    };
    if dynamic && value.contains('\\') {
        return None;
    }
    options_in(variable, value, dynamic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_names_a_file_by_its_path_without_its_suffix_as_a_whole_name() {
        let base = Path::new("/repo");
        for (text, path) in [
            ("require(\"/tmp/x\")", "/tmp/x.js"),
            ("require('/tmp/x.js')", "/tmp/x.js"),
            ("import helper", "/repo/helper.py"),
            ("require './lib/x'", "/repo/lib/x.rb"),
        ] {
            assert!(named_by(text, Path::new(path), base), "{text} names {path}");
        }
        for (text, path) in
            [("open('/tmp/lm')", "/tmp/l"), ("import helpers", "/repo/helper.py"), ("f('/tmp/x_y')", "/tmp/x.js")]
        {
            assert!(!named_by(text, Path::new(path), base), "{text} does not name {path}");
        }
    }

    #[test]
    fn a_lua_template_searches_the_folder_its_question_mark_stands_in() {
        for (entry, folder) in
            [("/opt/lib/?.lua", "/opt/lib"), ("./?.lua", "."), ("?.lua", "."), ("/?.so", "/"), ("/tmp/m", "/tmp/m")]
        {
            assert_eq!(searched_folder(entry), folder, "{entry}");
        }
    }
}
