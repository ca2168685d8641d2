//! What a persistent PowerShell keeps between calls (`docs/decisions.md#p-15`) beyond the shared
//! [`Scope`]: the functions and aliases it defined. A call is walked from each possible scope;
//! scopes in the same place (location, stack, definitions) fold into one whose variables take the
//! values of both.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::cmdlets::Element;
use crate::analysis::scope::{Dialect, PastMaxValues, Scope};
use crate::analysis::values::{MAX_VALUES, Value};

/// PowerShell's [`Dialect`]: an unset variable reads as its own unknown text, a variable keeps
/// its first [`MAX_VALUES`] values, and scopes that differ only in a function or alias one of
/// them defined fold (the name kept as maybe-defined).
#[derive(Debug)]
pub enum PowerShell {}

impl Dialect for PowerShell {
    type Value = Value;
    type Defined = Rc<Definitions>;
    const MAX_VALUES: usize = MAX_VALUES;
    const PAST_MAX_VALUES: PastMaxValues = PastMaxValues::Truncated;

    fn unset(name: &str) -> Value {
        Value::unset(name)
    }

    fn defined_weight(defined: &Rc<Definitions>) -> usize {
        defined.weight()
    }

    fn folds_with(defined: &Rc<Definitions>, other: &Rc<Definitions>) -> bool {
        defined.folds_with(other)
    }

    fn fold_defined(defined: &mut Rc<Definitions>, other: &Rc<Definitions>) -> bool {
        if !defined.folds_with(other) {
            return false;
        }
        Rc::make_mut(defined).fold(other);
        true
    }
}

/// Functions and aliases a shell defined, by lower-case name without scope.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Definitions {
    pub functions: BTreeMap<String, Function>,
    /// The command each alias stands for; `None` when it is only known at run time.
    pub aliases: BTreeMap<String, Option<String>>,
    /// An alias or function whose name is only known at run time was defined: any command may
    /// be one.
    pub any_alias: bool,
    /// Names defined here that a state folded into this one did not define: there the name is
    /// whatever it is without them. [`Scope::expand`] tells the two apart for a call that uses it.
    pub maybe: BTreeSet<String>,
}

/// A function: its parameters in order and its body as typed (`param(…)` included); `None`
/// when the body is only known at run time (`Set-Item function:f $code`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub params: Vec<Param>,
    pub body: Option<Rc<str>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Lower case, without `$`.
    pub name: String,
    pub switch: bool,
    /// The default value's source text.
    pub default: Option<String>,
}

/// What a call binds a function's parameters to.
pub struct Binding {
    pub params: Vec<(String, Vec<Value>)>,
    /// Arguments no parameter took (`$args`).
    pub rest: Vec<Value>,
    /// Parameters the call left to their default: what a pipeline passes may bind to them.
    pub defaulted: Vec<String>,
    /// Every argument went where PowerShell puts it: no unknown `-Name`, no parameter left
    /// without its value.
    pub clean: bool,
}

/// The most states one stored state expands into for a call ([`Scope::expand`]).
pub const MAX_EXPANDED: usize = 32;

impl Definitions {
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty() && self.aliases.is_empty() && !self.any_alias
    }

    fn weight(&self) -> usize {
        let functions: usize = self
            .functions
            .iter()
            .map(|(name, function)| {
                let params: usize = function
                    .params
                    .iter()
                    .map(|param| param.name.len() + param.default.as_ref().map_or(0, String::len) + 8)
                    .sum();
                name.len() + function.body.as_ref().map_or(0, |body| body.len()) + params
            })
            .sum();
        let aliases: usize =
            self.aliases.iter().map(|(name, target)| name.len() + target.as_ref().map_or(0, String::len) + 8).sum();
        let maybe: usize = self.maybe.iter().map(String::len).sum();
        functions + aliases + maybe
    }

    fn names(&self) -> BTreeSet<&String> {
        self.functions.keys().chain(self.aliases.keys()).collect()
    }

    fn defines(&self, name: &str) -> bool {
        self.functions.contains_key(name) || self.aliases.contains_key(name)
    }

    /// Can `other` fold into this: every name both define is defined the same (function and
    /// alias alike)?
    fn folds_with(&self, other: &Definitions) -> bool {
        self.names().into_iter().filter(|name| other.defines(name)).all(|name| {
            self.functions.get(name) == other.functions.get(name) && self.aliases.get(name) == other.aliases.get(name)
        })
    }

    /// Folds `other` (see [`Definitions::folds_with`]): names only one of them defines become maybe.
    fn fold(&mut self, other: &Definitions) {
        let only_one: Vec<String> = self
            .names()
            .into_iter()
            .filter(|name| !other.defines(name))
            .chain(other.names().into_iter().filter(|name| !self.defines(name)))
            .cloned()
            .collect();
        for (name, function) in &other.functions {
            self.functions.entry(name.clone()).or_insert_with(|| function.clone());
        }
        for (name, target) in &other.aliases {
            self.aliases.entry(name.clone()).or_insert_with(|| target.clone());
        }
        self.maybe.extend(only_one);
        self.maybe.extend(other.maybe.iter().cloned());
        self.any_alias |= other.any_alias;
    }

    /// The maybe-names `command` may run: named as a command word in its text or in a variable's
    /// value, or in the body or target of a definition it may run, transitively (case folded, as PowerShell matches
    /// names). Each text is cut into words once.
    fn used_maybe<'v>(&self, command: &str, values: impl Iterator<Item = &'v str>) -> Vec<String> {
        if self.maybe.is_empty() {
            return Vec::new();
        }
        let names = self.names();
        // Names made of word characters are looked up by word; the others by search.
        let (mut plain, mut odd): (BTreeSet<&String>, Vec<&String>) = (BTreeSet::new(), Vec::new());
        for name in names {
            if name.chars().all(is_name_char) {
                plain.insert(name);
            } else {
                odd.push(name);
            }
        }
        let mut reached: Vec<&String> = Vec::new();
        let mut pending = vec![command.to_lowercase()];
        pending.extend(values.map(str::to_lowercase));
        while let Some(text) = pending.pop() {
            let mut now: Vec<&String> = Vec::new();
            for word in text.split(|c: char| !is_name_char(c)).filter(|word| !word.is_empty()) {
                if let Some(name) = plain.take(&word.to_string()) {
                    now.push(name);
                }
            }
            let (found, rest): (Vec<&String>, Vec<&String>) = odd.into_iter().partition(|name| mentions(&text, name));
            odd = rest;
            now.extend(found);
            for name in now {
                if let Some(body) = self.functions.get(name).and_then(|function| function.body.as_ref()) {
                    pending.push(body.to_lowercase());
                }
                if let Some(Some(target)) = self.aliases.get(name) {
                    pending.push(target.to_lowercase());
                }
                reached.push(name);
            }
        }
        reached.into_iter().filter(|name| self.maybe.contains(*name)).cloned().collect()
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// Does `text` hold `name` as a whole command word (not inside a longer name)?
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text.get(..at).and_then(|head| head.chars().next_back());
        let after = text.get(at + name.len()..).and_then(|tail| tail.chars().next());
        !before.is_some_and(is_name_char) && !after.is_some_and(is_name_char)
    })
}

impl Scope<PowerShell> {
    /// The states this one stands for that a call of `command` can tell apart: for each maybe-
    /// name it may run, one with the name defined and one without. `None` past [`MAX_EXPANDED`].
    pub fn expand(&self, command: &str) -> Option<Vec<Scope<PowerShell>>> {
        // A variable's value may be run as a command name too (`& $name`).
        let values = self.vars.values().flatten().map(|value| value.text.as_str());
        let used = self.defined.used_maybe(command, values);
        if used.is_empty() {
            return Some(vec![self.clone()]);
        }
        if used.len() >= usize::BITS as usize || 1usize << used.len() > MAX_EXPANDED {
            return None;
        }
        let mut states = Vec::new();
        for subset in 0..1usize << used.len() {
            let mut defined = (*self.defined).clone();
            for (at, name) in used.iter().enumerate() {
                defined.maybe.remove(name);
                if subset & (1 << at) != 0 {
                    defined.functions.remove(name);
                    defined.aliases.remove(name);
                }
            }
            states.push(Scope { defined: Rc::new(defined), ..self.clone() });
        }
        Some(states)
    }
}

impl Function {
    /// Does the body read its arguments other than through its parameters (`$args`, `@args`,
    /// `$input`, `$PSBoundParameters`, any splat)? Then what it writes is not bound here.
    pub fn reads_raw_arguments(&self) -> bool {
        let Some(body) = &self.body else { return true };
        let lower = body.to_lowercase();
        let splat = lower.char_indices().any(|(at, c)| {
            c == '@' && lower.get(at + 1..).and_then(|rest| rest.chars().next()).is_some_and(char::is_alphabetic)
        });
        splat || ["$args", "$input", "psboundparameters", "$myinvocation"].iter().any(|name| lower.contains(name))
    }

    /// Binds a call's `elements` as PowerShell binds a function's: `-Name` (or a prefix of it)
    /// with its value, then the rest by position; unbound parameters take their default.
    pub fn bind(&self, elements: &[Element], default: impl Fn(&str) -> Vec<Value>) -> Binding {
        let mut params: Vec<(String, Vec<Value>)> = Vec::new();
        let mut positional: Vec<Vec<Value>> = Vec::new();
        let mut clean = true;
        let mut at = 0;
        while let Some(element) = elements.get(at) {
            at += 1;
            match element {
                Element::Arg(values) => positional.push(values.clone()),
                Element::Param { name, text, value } => {
                    let Some(param) = self.param_named(name) else {
                        clean = false;
                        positional.push(vec![Value::literal(text)]);
                        continue;
                    };
                    let values = match (param.switch, value) {
                        (_, Some(values)) => values.clone(),
                        (true, None) => vec![Value::literal("True")],
                        (false, None) => match elements.get(at) {
                            Some(Element::Arg(values)) => {
                                at += 1;
                                values.clone()
                            }
                            _ => {
                                clean = false;
                                Vec::new()
                            }
                        },
                    };
                    params.push((param.name.clone(), values));
                }
            }
        }
        let mut rest = Vec::new();
        let named: Vec<String> = params.iter().map(|(name, _)| name.clone()).collect();
        let mut free = self.params.iter().filter(|param| !param.switch && !named.contains(&param.name));
        for values in positional {
            match free.next() {
                Some(param) => params.push((param.name.clone(), values)),
                None => rest.extend(values),
            }
        }
        let mut defaulted = Vec::new();
        for param in &self.params {
            if !params.iter().any(|(name, _)| *name == param.name) {
                defaulted.push(param.name.clone());
                let values = match &param.default {
                    Some(text) => default(text),
                    None if param.switch => vec![Value::literal("False")],
                    None => vec![Value::literal("")],
                };
                params.push((param.name.clone(), values));
            }
        }
        Binding { params, rest, defaulted, clean }
    }

    fn param_named(&self, typed: &str) -> Option<&Param> {
        if typed.is_empty() {
            return None;
        }
        self.params
            .iter()
            .find(|param| param.name == typed)
            .or_else(|| self.params.iter().find(|param| param.name.starts_with(typed)))
    }
}
