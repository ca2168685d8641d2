//! What bash carries from one command to the next beyond the shared [`Scope`]: positional
//! parameters, functions, aliases, the links the line made and the text a loop reads. A
//! persistent bash keeps a set of scopes between calls (`docs/decisions.md#p-15`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use super::words::{MAX_VALUES, Positional, Value};
use crate::analysis::handoff::INTERPRETER_VARIABLES;
use crate::analysis::scope::{Dialect, PastMaxValues, Scope, VarsOf};
use crate::analysis::values::Holes;
use crate::commands::Environment;

/// The variables whose value the walk keeps even when it could not compute it, besides
/// [`INTERPRETER_VARIABLES`].
const KEPT_UNCOMPUTED: [&str; 8] = ["HOME", "OLDPWD", "PWD", "CDPATH", "TMPDIR", "TMP", "TEMP", "PATH"];

/// Bash's [`Dialect`]: an unset variable reads as empty, and one with more values than are kept
/// is unknown.
#[derive(Debug)]
pub enum Bash {}

impl Dialect for Bash {
    type Value = Value;
    type Defined = Shared<Defined>;
    const MAX_VALUES: usize = MAX_VALUES;
    const PAST_MAX_VALUES: PastMaxValues = PastMaxValues::Forgotten;

    fn unset(_: &str) -> Value {
        Value::literal("")
    }

    fn defined_weight(defined: &Shared<Defined>) -> usize {
        defined.read().map_or(0, Defined::weight)
    }

    /// Bash scopes fold only with the same definitions.
    fn folds_with(defined: &Shared<Defined>, other: &Shared<Defined>) -> bool {
        defined == other
    }

    fn fold_defined(defined: &mut Shared<Defined>, other: &Shared<Defined>) -> bool {
        defined == other
    }
}

/// The most exported names one line's state remembers; later ones are not.
const MAX_EXPORTED: usize = 64;

/// The state a line can define besides variables and directories.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defined {
    /// `$0`, `$1`, …: known inside a function the line calls or a `bash -c '…' a b` it runs.
    pub(super) positional: Option<Rc<Positional>>,
    /// Functions the line defined: their bodies, run again where they are called.
    pub(super) functions: HashMap<String, Rc<str>>,
    pub(super) aliases: HashMap<String, String>,
    /// Symbolic links the line made, absolute: (link, what it points to).
    pub(super) links: Vec<(PathBuf, PathBuf)>,
    /// The known text a loop reads (`while read f; do …; done <<< A`, `echo A | while read …`).
    pub(super) input: Option<Rc<str>>,
    /// Variables the line exported (`export P=…`, `declare -x P`): the commands it starts see them.
    pub(super) exported: Vec<String>,
    /// `set -a` is on: every variable the line assigns from here is exported.
    pub(super) exports_assignments: bool,
    /// More names were exported than [`MAX_EXPORTED`]: every variable counts as exported.
    pub(super) exports_everything: bool,
}

/// A value scopes share, allocated when first written: most command lines define nothing.
#[derive(Clone, Debug)]
pub struct Shared<T>(Option<Rc<T>>);

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl<T: Eq> Eq for Shared<T> {}

/// Whether a command of this name may run other than the program its name says (so that what it
/// prints is not what that program prints): a function or alias the line defined, or a program
/// looked up through a `PATH` the line set (or `hash -p` standing for one), bash's own printers
/// aside.
pub(super) fn rebound(defined: &Shared<Defined>, vars: &VarsOf<Bash>, name: &str) -> bool {
    let defines = defined
        .read()
        .is_some_and(|defined| defined.functions.contains_key(name) || defined.aliases.contains_key(name));
    let path = vars
        .get("PATH")
        .is_some_and(|values| values.iter().any(|path| crate::commands::path_rebinds(&path.text, path.dynamic)));
    defines || path && !matches!(name, "echo" | "printf" | "pwd")
}

impl Defined {
    /// Roughly the bytes these definitions hold (a persistent shell's state cap).
    fn weight(&self) -> usize {
        let functions: usize = self.functions.iter().map(|(name, body)| name.len() + body.len()).sum();
        let aliases: usize = self.aliases.iter().map(|(name, value)| name.len() + value.len()).sum();
        let links: usize =
            self.links.iter().map(|(link, target)| link.as_os_str().len() + target.as_os_str().len()).sum();
        let input = self.input.as_ref().map_or(0, |input| input.len());
        let exported: usize = self.exported.iter().map(String::len).sum();
        functions + aliases + links + input + exported
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared(None)
    }
}

impl<T: Clone + Default> Shared<T> {
    pub(super) fn read(&self) -> Option<&T> {
        self.0.as_deref()
    }

    pub(super) fn make_mut(&mut self) -> &mut T {
        Rc::make_mut(self.0.get_or_insert_with(Rc::default))
    }
}

impl Scope<Bash> {
    /// A child shell (`bash -c`, a piped script): the same directory, variables and links,
    /// its own parameters, none of the functions or aliases (they are not exported).
    pub(super) fn child(&self, positional: Option<Positional>) -> Self {
        let mut child = Scope { defined: Shared::default(), ..self.clone() };
        if let Some(positional) = positional {
            child.defined.make_mut().positional = Some(Rc::new(positional));
        }
        if !self.links().is_empty() {
            child.defined.make_mut().links = self.links().to_vec();
        }
        if let Some(defined) = self.defined.read()
            && (!defined.exported.is_empty() || defined.exports_assignments || defined.exports_everything)
        {
            let inherited = child.defined.make_mut();
            inherited.exported = defined.exported.clone();
            inherited.exports_assignments = defined.exports_assignments;
            inherited.exports_everything = defined.exports_everything;
        }
        child
    }

    /// The variables the line exported, by name.
    pub(super) fn exported(&self) -> &[String] {
        self.defined.read().map_or(&[], |defined| defined.exported.as_slice())
    }

    /// Whether every variable counts as exported (more were exported than the state keeps).
    pub(super) fn exports_everything(&self) -> bool {
        self.defined.read().is_some_and(|defined| defined.exports_everything)
    }

    /// Whether `set -a` is on, so that an assignment exports its variable.
    pub(super) fn exports_assignments(&self) -> bool {
        self.defined.read().is_some_and(|defined| defined.exports_assignments)
    }

    /// `set -a` / `set +a`.
    pub(super) fn set_exports_assignments(&mut self, on: bool) {
        if on != self.exports_assignments() {
            self.defined.make_mut().exports_assignments = on;
        }
    }

    /// Kept sorted, so that two shells that exported the same names are the same state.
    pub(super) fn export(&mut self, name: &str) {
        if let Err(at) = self.exported().binary_search_by(|exported| exported.as_str().cmp(name)) {
            if self.exported().len() < MAX_EXPORTED {
                self.defined.make_mut().exported.insert(at, name.to_string());
            } else if !self.exports_everything() {
                self.defined.make_mut().exports_everything = true;
            }
        }
    }

    /// The variables a command's environment gives the shell it starts: none of this shell's
    /// after `env -i`, then each one set (to a value the walk could not compute: kept as
    /// uncomputed) or removed.
    pub(super) fn take_environment(&mut self, environment: &Environment) {
        if !environment.cleared && environment.changes.is_empty() {
            return;
        }
        let vars = Rc::make_mut(&mut self.vars);
        if environment.cleared {
            vars.clear();
        }
        for (name, value) in &environment.changes {
            match value {
                Some(value) => vars.insert(name.clone(), vec![value.to_value()]),
                None => vars.remove(name),
            };
        }
        // In the environment of the shell started, so of what that shell starts in turn.
        for (name, value) in &environment.changes {
            if value.is_some() {
                self.export(name);
            }
        }
    }

    pub(super) fn links(&self) -> &[(PathBuf, PathBuf)] {
        self.defined.read().map_or(&[], |defined| defined.links.as_slice())
    }

    pub(super) fn positional(&self) -> Option<&Rc<Positional>> {
        self.defined.read()?.positional.as_ref()
    }

    pub(super) fn set_positional(&mut self, positional: Option<Rc<Positional>>) {
        if positional.is_some() || self.positional().is_some() {
            self.defined.make_mut().positional = positional;
        }
    }

    pub(super) fn input(&self) -> Option<&Rc<str>> {
        self.defined.read()?.input.as_ref()
    }

    pub(super) fn set_input(&mut self, input: Option<Rc<str>>) {
        if input.is_some() || self.input().is_some() {
            self.defined.make_mut().input = input;
        }
    }

    pub(super) fn function(&self, name: &str) -> Option<Rc<str>> {
        self.defined.read()?.functions.get(name).cloned()
    }

    pub(super) fn alias(&self, name: &str) -> Option<String> {
        self.defined.read()?.aliases.get(name).cloned()
    }

    pub(super) fn forget(&mut self, name: &str) {
        if self.vars.contains_key(name) {
            Rc::make_mut(&mut self.vars).remove(name);
        }
        // An array's elements go with it.
        let element = |key: &String| key.strip_prefix(name).is_some_and(|rest| rest.starts_with('['));
        if self.vars.keys().any(element) {
            Rc::make_mut(&mut self.vars).retain(|key, _| !element(key));
        }
    }

    pub(super) fn assign(&mut self, name: &str, values: Vec<Value>) {
        // Variables that would otherwise be read from elsewhere are kept uncomputed (P-18):
        // forgotten, an interpreter's options would read as the inherited ones in a shell the
        // line starts, and `$HOME`, `~`, `cd -` or `$TMPDIR` (a program's `$TMP`, `$TEMP`) as the
        // process's or the walk's own.
        // A value whose unknown parts hold no `/` is kept: it says which folder it stays in.
        let kept = KEPT_UNCOMPUTED.contains(&name) || INTERPRETER_VARIABLES.contains(&name);
        let unknown = values.iter().all(|v| v.dynamic && v.holes == Holes::Any) && !kept;
        if values.is_empty() || values.len() > MAX_VALUES || unknown {
            self.forget(name);
        } else {
            Rc::make_mut(&mut self.vars).insert(name.to_string(), values);
        }
    }
}
