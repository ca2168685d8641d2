//! What a line defines besides variables: functions (`function f {…}`, `${function:f} = {…}`),
//! aliases (`Set-Alias`, `alias:`), and their removal; a definition in a block that may not run
//! leaves its name maybe-defined.

use std::rc::Rc;

use tree_sitter::Node;

use super::{Session, Walk, Walker, child_of_kind, children};
use crate::analysis::Unscannable;
use crate::analysis::values::Value;
use crate::powershell::state::{Definitions, Function, Param};
use crate::powershell::words;

/// How many aliases one command name is followed through (`Set-Alias a b; Set-Alias b sc`).
pub(super) const MAX_ALIAS_HOPS: usize = 8;

impl Walker<'_> {
    /// `function f($a) { … }`, `filter f { … }`: the body is walked where it stands, in a scope of
    /// its own (what it writes counts wherever it is called from), and kept for its calls.
    pub(super) fn function_statement(
        &mut self,
        node: Node,
        walk: &Walk,
        scope: &mut Session,
        depth: usize,
    ) -> Result<(), Unscannable> {
        let mut apart = Session { own: false, ..scope.clone() };
        self.block(node, walk, &mut apart, depth)?;
        let Some(name) = child_of_kind(node, "function_name").map(|name| function_key(walk.text(name))) else {
            return Ok(());
        };
        let Some(body) = child_of_kind(node, "script_block") else { return Ok(()) };
        let mut params = Vec::new();
        if let Some(declared) = child_of_kind(node, "function_parameter_declaration") {
            params = parameters(declared, walk);
        }
        if let Some(block) = child_of_kind(body, "param_block") {
            params.extend(parameters(block, walk));
        }
        self.define_function(scope, name, Function { params, body: Some(Rc::from(walk.text(body))) });
        Ok(())
    }

    pub(super) fn define_function(&mut self, scope: &mut Session, name: String, function: Function) {
        let conditional = self.conditional > 0;
        let defined = Rc::make_mut(&mut scope.defined);
        set_maybe(defined, &name, conditional);
        defined.functions.insert(name, function);
        self.reach(scope);
    }

    pub(super) fn define_alias(&mut self, scope: &mut Session, name: &Value, target: Option<&Value>) {
        let defined = Rc::make_mut(&mut scope.defined);
        if name.dynamic {
            defined.any_alias = true;
        } else {
            let target = target.filter(|target| !target.dynamic).map(|target| target.text.trim().to_string());
            let name = name.text.trim().to_lowercase();
            set_maybe(defined, &name, self.conditional > 0);
            defined.aliases.insert(name, target);
        }
        self.reach(scope);
    }

    /// `Remove-Item alias:w`, `Remove-Item function:f`, `Remove-Alias w`: the name is the
    /// command it was before. In a block that may not run, it may also still be defined, and a
    /// function or alias left defined by the walk could move the location where it is called.
    pub(super) fn undefine(&mut self, scope: &mut Session, items: &[String]) {
        let mut removed = false;
        for item in items {
            let Some((drive, name)) = drive_item(item) else { continue };
            let name = name.to_lowercase();
            let defined = Rc::make_mut(&mut scope.defined);
            defined.maybe.remove(&name);
            removed |= match drive {
                Drive::Alias => defined.aliases.remove(&name).is_some(),
                Drive::Function => defined.functions.remove(&function_key(&name)).is_some(),
                Drive::Variable | Drive::Env => false,
            };
        }
        if removed {
            if self.conditional > 0 && scope.own {
                self.moved_in_block = true;
            }
            self.reach(scope);
        }
    }

    /// `Set-Item alias:w Set-Content`, `New-Item function:f -Value …`, `variable:p`, `env:X`: a
    /// definition on one of PowerShell's own drives.
    pub(super) fn define_item(
        &mut self,
        scope: &mut Session,
        item: &Value,
        value: Option<&Value>,
    ) -> Result<(), Unscannable> {
        let Some((drive, name)) = drive_item(&item.text).filter(|(_, name)| !name.is_empty()) else { return Ok(()) };
        let name = Value::new(name.to_string(), item.dynamic);
        match drive {
            Drive::Alias => self.define_alias(scope, &name, value),
            Drive::Function if name.dynamic => Rc::make_mut(&mut scope.defined).any_alias = true,
            Drive::Function => {
                // A string becomes the body; a script block's text is not kept whole in a value.
                let body = value.filter(|value| !value.dynamic).map(|value| Rc::from(value.text.as_str()));
                self.define_function(scope, function_key(&name.text), Function { params: Vec::new(), body });
            }
            Drive::Variable | Drive::Env if name.dynamic => {}
            Drive::Variable | Drive::Env => {
                let key = match drive {
                    Drive::Env => format!("env:{}", name.text.to_lowercase()),
                    _ => words::variable_key(&name.text),
                };
                self.assign(scope, key, vec![value.cloned().unwrap_or_else(|| Value::literal(""))])?;
            }
        }
        Ok(())
    }
}

/// PowerShell's drives of definitions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Drive {
    Alias,
    Function,
    Variable,
    Env,
}

/// `alias:w`, `Function:\f`, `variable:/p`, `env:X`: the drive and the item's name.
pub(super) fn drive_item(text: &str) -> Option<(Drive, &str)> {
    let (drive, name) = text.trim().split_once(':')?;
    let drive = match drive.to_ascii_lowercase().as_str() {
        "alias" => Drive::Alias,
        "function" => Drive::Function,
        "variable" => Drive::Variable,
        "env" => Drive::Env,
        _ => return None,
    };
    Some((drive, name.trim_start_matches(['/', '\\'])))
}

/// A definition in a block that may not run leaves its name maybe-defined; one outside makes it
/// sure.
fn set_maybe(defined: &mut Definitions, name: &str, conditional: bool) {
    if conditional {
        defined.maybe.insert(name.to_string());
    } else {
        defined.maybe.remove(name);
    }
}

/// The maybe-defined names running `name` goes through: it, the aliases it leads to, the
/// function it ends at.
pub(super) fn uncertain_names(defined: &Definitions, name: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if defined.maybe.is_empty() {
        return names;
    }
    let mut current = name.to_string();
    for _ in 0..=MAX_ALIAS_HOPS {
        for key in [current.to_lowercase(), function_key(&current)] {
            if defined.maybe.contains(&key) && !names.contains(&key) {
                names.push(key);
            }
        }
        match defined.aliases.get(&current.to_lowercase()) {
            Some(Some(target)) => current = target.clone(),
            _ => break,
        }
    }
    names
}

/// A function's name as the walk keys it: lower case, without `global:`, `script:`, ….
pub(super) fn function_key(name: &str) -> String {
    words::variable_key(name.trim())
}

/// The parameters a `function f(…)` declaration or `param(…)` block declares, in order.
pub(super) fn parameters(node: Node, walk: &Walk) -> Vec<Param> {
    let Some(list) = child_of_kind(node, "parameter_list") else { return Vec::new() };
    let mut params = Vec::new();
    for param in children(list).into_iter().filter(|child| child.kind() == "script_parameter") {
        let Some(variable) = child_of_kind(param, "variable") else { continue };
        let switch = child_of_kind(param, "attribute_list")
            .is_some_and(|types| walk.text(types).to_ascii_lowercase().contains("[switch]"));
        let default = child_of_kind(param, "script_parameter_default")
            .map(|default| walk.text(default).trim().trim_start_matches('=').trim().to_string());
        params.push(Param { name: words::variable_key(walk.text(variable)), switch, default });
    }
    params
}
