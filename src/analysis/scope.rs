//! What a shell carries from one command to the next, for bash and PowerShell alike: the
//! directory it is in, the directories it may return to, the variables the line defined with
//! every value they may hold, and what else it defined ([`Dialect::Defined`]: bash's functions,
//! aliases and links, PowerShell's functions and aliases). A persistent shell keeps a set of
//! scopes between calls ([`crate::analysis::persistent`], `docs/decisions.md#p-15`); scopes in the
//! same place fold into one whose variables take the values of both.

use std::collections::HashMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What a variable that had more than [`Dialect::MAX_VALUES`] values becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PastMaxValues {
    /// It is forgotten: the walk reads it as unknown.
    Forgotten,
    /// Its first values are kept and the scope is no longer whole.
    Truncated,
}

/// How one shell's scope differs from another's.
pub trait Dialect: 'static {
    /// One possible value of a variable, read as its text ([`crate::analysis::values::Value`]
    /// for both shells).
    type Value: Clone + PartialEq + Eq + Debug + AsRef<str>;
    /// What the shell defines besides variables and directories.
    type Defined: Clone + PartialEq + Eq + Debug + Default;
    /// The most values a variable keeps.
    const MAX_VALUES: usize;
    const PAST_MAX_VALUES: PastMaxValues;
    /// What variable `name` reads as in a state that did not set it.
    fn unset(name: &str) -> Self::Value;
    /// Roughly the bytes the definitions hold (a persistent shell's cap).
    fn defined_weight(defined: &Self::Defined) -> usize;
    /// Whether `other`'s definitions fold into `defined` ([`Dialect::fold_defined`]).
    fn folds_with(defined: &Self::Defined, other: &Self::Defined) -> bool;
    /// Folds `other`'s definitions into `defined`; false (and nothing changed) when they do not fold.
    fn fold_defined(defined: &mut Self::Defined, other: &Self::Defined) -> bool;
}

/// The variables a shell knows, each with every value it may hold.
pub type VarsOf<D> = HashMap<String, Vec<<D as Dialect>::Value>>;

/// One possible state of a shell.
pub struct Scope<D: Dialect> {
    pub base: PathBuf,
    /// Where `cd -` goes (bash's `$OLDPWD`); PowerShell's walk keeps none.
    pub oldpwd: Option<PathBuf>,
    /// The `pushd` / `Push-Location` stack.
    pub stack: Vec<PathBuf>,
    /// Shared between scopes until one of them assigns.
    pub vars: Rc<VarsOf<D>>,
    pub defined: D::Defined,
}

impl<D: Dialect> Clone for Scope<D> {
    fn clone(&self) -> Self {
        Scope {
            base: self.base.clone(),
            oldpwd: self.oldpwd.clone(),
            stack: self.stack.clone(),
            vars: self.vars.clone(),
            defined: self.defined.clone(),
        }
    }
}

impl<D: Dialect> PartialEq for Scope<D> {
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base
            && self.oldpwd == other.oldpwd
            && self.stack == other.stack
            && self.vars == other.vars
            && self.defined == other.defined
    }
}

impl<D: Dialect> Eq for Scope<D> {}

impl<D: Dialect> Debug for Scope<D> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Scope")
            .field("base", &self.base)
            .field("oldpwd", &self.oldpwd)
            .field("stack", &self.stack)
            .field("vars", &self.vars)
            .field("defined", &self.defined)
            .finish()
    }
}

/// Roughly the bytes variables hold: names and every value.
pub fn vars_weight<D: Dialect>(vars: &VarsOf<D>) -> usize {
    vars.iter().map(|(name, values)| name.len() + values.iter().map(|v| v.as_ref().len() + 8).sum::<usize>()).sum()
}

impl<D: Dialect> Scope<D> {
    /// A shell that has just started in `base`.
    pub fn fresh(base: &Path) -> Self {
        Scope {
            base: base.to_path_buf(),
            oldpwd: None,
            stack: Vec::new(),
            vars: Rc::default(),
            defined: D::Defined::default(),
        }
    }

    /// In the same directories (`$PWD`, `$OLDPWD`, the stack) with the same definitions.
    pub fn same_place(&self, other: &Self) -> bool {
        self.same_directories(other) && self.defined == other.defined
    }

    fn same_directories(&self, other: &Self) -> bool {
        self.base == other.base && self.oldpwd == other.oldpwd && self.stack == other.stack
    }

    /// Whether [`Scope::fold`] folds `other` into this scope.
    pub fn folds_with(&self, other: &Self) -> bool {
        self.same_directories(other) && (self.defined == other.defined || D::folds_with(&self.defined, &other.defined))
    }

    /// Folds `other` into this scope when both are in the same directories and their
    /// definitions fold: a variable takes the values of both (set in one only, it may also be
    /// unset). `None` when they do not fold; `Some(false)` when a variable had more than
    /// [`Dialect::MAX_VALUES`] values and kept only the first.
    pub fn fold(&mut self, other: &Self) -> Option<bool> {
        if !self.same_directories(other) {
            return None;
        }
        if self.defined != other.defined && !D::fold_defined(&mut self.defined, &other.defined) {
            return None;
        }
        Some(self.merge_vars(other))
    }

    fn merge_vars(&mut self, other: &Self) -> bool {
        if Rc::ptr_eq(&self.vars, &other.vars) || self.vars == other.vars {
            return true;
        }
        let mut within = true;
        let names: Vec<String> = self.vars.keys().chain(other.vars.keys()).cloned().collect();
        for name in names {
            if self.vars.contains_key(&name) && self.vars.get(&name) == other.vars.get(&name) {
                continue;
            }
            let theirs = other.vars.get(&name).cloned().unwrap_or_else(|| vec![D::unset(&name)]);
            within &= self.add_values(&name, &theirs);
        }
        within
    }

    /// Adds `values` to those variable `name` may hold (unset, when it had none here). Past
    /// [`Dialect::MAX_VALUES`] the variable is forgotten or keeps its first values
    /// ([`Dialect::PAST_MAX_VALUES`]); false when values were dropped.
    pub fn add_values(&mut self, name: &str, values: &[D::Value]) -> bool {
        let vars = Rc::make_mut(&mut self.vars);
        let kept = vars.entry(name.to_string()).or_insert_with(|| vec![D::unset(name)]);
        for value in values {
            if !kept.contains(value) {
                kept.push(value.clone());
            }
        }
        if kept.len() <= D::MAX_VALUES {
            return true;
        }
        match D::PAST_MAX_VALUES {
            PastMaxValues::Forgotten => {
                vars.remove(name);
                true
            }
            PastMaxValues::Truncated => {
                kept.truncate(D::MAX_VALUES);
                false
            }
        }
    }

    /// Bytes this scope holds, for the persistent store's cap: directories, variables with all
    /// their values, and definitions.
    pub fn weight(&self) -> usize {
        let stack: usize = self.stack.iter().map(|dir| dir.as_os_str().len()).sum();
        self.base.as_os_str().len()
            + self.oldpwd.as_ref().map_or(0, |dir| dir.as_os_str().len())
            + stack
            + vars_weight::<D>(&self.vars)
            + D::defined_weight(&self.defined)
    }

    /// The same place, no variables.
    pub fn without_vars(&self) -> Self {
        Scope { vars: Rc::default(), ..self.clone() }
    }

    /// Moves to `to`, remembering where it came from for `cd -`.
    pub fn cd(&mut self, to: PathBuf) {
        let from = std::mem::replace(&mut self.base, to);
        self.oldpwd = Some(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dialect of plain strings, with the past-cap rule as a parameter.
    #[derive(Debug)]
    enum Forgets {}
    #[derive(Debug)]
    enum Truncates {}

    macro_rules! dialect {
        ($name:ident, $rule:expr) => {
            impl Dialect for $name {
                type Value = String;
                type Defined = Vec<String>;
                const MAX_VALUES: usize = 2;
                const PAST_MAX_VALUES: PastMaxValues = $rule;
                fn unset(name: &str) -> String {
                    format!("${name}")
                }
                fn defined_weight(defined: &Vec<String>) -> usize {
                    defined.iter().map(String::len).sum()
                }
                fn folds_with(_: &Vec<String>, _: &Vec<String>) -> bool {
                    false
                }
                fn fold_defined(_: &mut Vec<String>, _: &Vec<String>) -> bool {
                    false
                }
            }
        };
    }
    dialect!(Forgets, PastMaxValues::Forgotten);
    dialect!(Truncates, PastMaxValues::Truncated);

    fn with<D: Dialect<Value = String>>(values: &[&str]) -> Scope<D> {
        let mut scope = Scope::<D>::fresh(Path::new("/repo"));
        let values = values.iter().map(|value| value.to_string()).collect();
        Rc::make_mut(&mut scope.vars).insert("p".to_string(), values);
        scope
    }

    #[test]
    fn a_fold_takes_the_values_of_both_and_a_variable_set_in_one_may_be_unset() {
        let mut scope = with::<Truncates>(&["a"]);
        assert_eq!(scope.fold(&Scope::fresh(Path::new("/repo"))), Some(true));
        assert_eq!(scope.vars["p"], ["a", "$p"]);
        assert_eq!(scope.fold(&Scope::fresh(Path::new("/elsewhere"))), None);
        let mut moved = Scope::<Truncates>::fresh(Path::new("/repo"));
        moved.cd(PathBuf::from("/repo/sub"));
        assert_eq!(moved.oldpwd.as_deref(), Some(Path::new("/repo")));
        assert_eq!(moved.fold(&Scope::fresh(Path::new("/repo/sub"))), None, "another $OLDPWD");
    }

    #[test]
    fn past_the_value_cap_a_variable_is_forgotten_or_keeps_its_first_values() {
        let mut forgets = with::<Forgets>(&["a", "b"]);
        assert_eq!(forgets.fold(&Scope::fresh(Path::new("/repo"))), Some(true));
        assert!(!forgets.vars.contains_key("p"));
        let mut truncates = with::<Truncates>(&["a", "b"]);
        assert_eq!(truncates.fold(&Scope::fresh(Path::new("/repo"))), Some(false));
        assert_eq!(truncates.vars["p"], ["a", "b"]);
    }

    #[test]
    fn the_weight_counts_directories_variables_and_definitions() {
        let mut scope = with::<Forgets>(&["abc"]);
        scope.defined.push("fn".to_string());
        assert_eq!(scope.weight(), "/repo".len() + "p".len() + "abc".len() + 8 + "fn".len());
        assert_eq!(scope.without_vars().weight(), "/repo".len() + "fn".len());
    }
}
