//! Hashtables the walk follows (docs/decisions.md#p-18): a variable assigned `@{ key = value }`
//! (or given entries by `$h[key] = v`, `$h.key = v`, `$h.Add(key, v)`) keeps its entries in a
//! hidden variable `@name`; a splat `@name` binds them by name (an array's items by position);
//! `$PSDefaultParameterValues` entries bind where a call leaves their parameter unbound. A splat
//! of a variable the walk does not know is a value it cannot compute.

use std::rc::Rc;

use super::{Session, Walker};
use crate::analysis::Unscannable;
use crate::analysis::values::{Value, Wildcards, wildcard_matches};
use crate::powershell::cmdlets::Element;
use crate::powershell::words;

/// The variable holding the defaults every call binds.
const DEFAULTS: &str = "psdefaultparametervalues";

/// A key the walk could not compute: it may be any parameter.
const ANY_KEY: &str = "*";

/// The hidden variable holding the entries of hashtable `key`: `@` is no variable name's.
fn entries_key(key: &str) -> String {
    format!("@{key}")
}

/// One entry as the hidden variable keeps it: `key=value`, the key in lower case (no parameter
/// name holds `=`), dynamic when the key or the value is.
fn entry(key: &Value, value: &Value) -> Value {
    let name = if key.dynamic { ANY_KEY.to_string() } else { key.text.trim().to_lowercase() };
    Value::new(format!("{name}={}", value.text), key.dynamic || value.dynamic)
}

fn split_entry(entry: &Value) -> (&str, Value) {
    let (key, value) = entry.text.split_once('=').unwrap_or((ANY_KEY, entry.text.as_str()));
    (key, Value::new(value.to_string(), entry.dynamic))
}

impl Walker<'_> {
    /// `$name = value`: the entries of a hashtable literal or of the hashtable variable `value`
    /// names, else none (in a block that may not run, the earlier entries stay too).
    pub(super) fn assign_entries(
        &mut self,
        scope: &mut Session,
        key: &str,
        value: &str,
        entries: Option<Vec<words::Entry>>,
    ) -> Result<(), Unscannable> {
        let hidden = entries_key(key);
        // `$q = $p`: the same hashtable.
        let copied = value.trim().strip_prefix('$').map(|name| entries_key(&words::variable_key(name)));
        if let Some(kept) = copied.and_then(|from| scope.vars.get(&from)).cloned() {
            return self.assign(scope, hidden, kept);
        }
        let Some(entries) = entries else {
            if self.conditional == 0 && scope.vars.contains_key(&hidden) {
                Rc::make_mut(&mut scope.vars).remove(&hidden);
                self.reach_var(scope, &hidden);
            }
            return Ok(());
        };
        let mut kept = Vec::new();
        for (keys, values) in &entries {
            for key in keys {
                kept.extend(values.iter().map(|value| entry(key, value)));
            }
        }
        self.assign(scope, hidden, kept)
    }

    /// `$h[key] = value`, `$h.key = value`, `$h.Add(key, value)`: one more entry of `$h`.
    pub(super) fn add_entry(
        &mut self,
        scope: &mut Session,
        key: &str,
        keys: &[Value],
        values: &[Value],
    ) -> Result<(), Unscannable> {
        let hidden = entries_key(key);
        let mut kept = scope.vars.get(&hidden).cloned().unwrap_or_default();
        for name in keys {
            kept.extend(values.iter().map(|value| entry(name, value)));
        }
        kept.dedup();
        if kept.len() > crate::analysis::values::MAX_VALUES {
            return Err(Unscannable::ExpansionTooLarge);
        }
        Rc::make_mut(&mut scope.vars).insert(hidden.clone(), kept);
        self.reach_var(scope, &hidden);
        Ok(())
    }

    /// Does the walk keep the entries of variable `key`?
    pub(super) fn follows_entries(&self, key: &str, scope: &Session) -> bool {
        key == DEFAULTS || scope.vars.contains_key(&entries_key(key))
    }

    /// The elements a splat `@name` stands for: a hashtable's entries as `-key value`, an array's
    /// items as arguments, and a variable the walk does not know as a value it cannot compute.
    pub(super) fn splat(&self, name: &str, scope: &Session) -> Vec<Element> {
        let key = words::variable_key(name);
        if let Some(entries) = scope.vars.get(&entries_key(&key)) {
            return entries
                .iter()
                .map(|kept| match split_entry(kept) {
                    (ANY_KEY, value) => Element::Arg(vec![Value { dynamic: true, ..value }]),
                    (param, value) => {
                        Element::Param { name: param.to_string(), text: format!("-{param}"), value: Some(vec![value]) }
                    }
                })
                .collect();
        }
        match scope.vars.get(&key) {
            Some(items) if !items.iter().all(|item| item.dynamic) => {
                items.iter().map(|item| Element::Arg(vec![item.clone()])).collect()
            }
            _ => vec![Element::Arg(vec![Value::unset(name)])],
        }
    }

    /// The `$PSDefaultParameterValues` entries that apply to `cmdlet` (lower case): the
    /// parameter each names (lower case; [`ANY_KEY`] for a key the walk could not compute) and
    /// its value.
    pub(super) fn defaults(&self, cmdlet: &str, scope: &Session) -> Vec<(String, Value)> {
        let Some(entries) = scope.vars.get(&entries_key(DEFAULTS)) else { return Vec::new() };
        let mut found = Vec::new();
        for kept in entries {
            let (key, value) = split_entry(kept);
            // A key without `:` is no parameter's (`Disabled`).
            let (pattern, param) = match key {
                ANY_KEY => (ANY_KEY, ANY_KEY),
                key => match key.rsplit_once(':') {
                    Some(split) => split,
                    None => continue,
                },
            };
            if wildcard_matches(pattern, cmdlet, Wildcards::PowerShell) {
                found.push((param.to_string(), value));
            }
        }
        found
    }
}

/// `@name` (a splat), as a command argument: the variable's name.
pub(super) fn splatted(text: &str) -> Option<&str> {
    let name = text.strip_prefix('@')?;
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':');
    plain.then_some(name)
}
