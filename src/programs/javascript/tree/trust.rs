//! The values of `os.tmpdir()` and `fs.mkdtempSync(prefix)`, which the analysis computes only
//! where the program cannot have changed them first (P-18): the environment `os.tmpdir()` reads
//! (`process.env.TMPDIR = …`, `Object.assign(process.env, …)`), and the `os` and `fs` modules'
//! functions (`os.tmpdir = …`, a module object passed to a function or bound twice). Read before
//! the walk, in no order: a loop may run a change before a call it follows.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Reader, arguments, named, type_erased};
use crate::programs::MAX_ANALYSIS_WORK;
use crate::programs::fields::Fields;

/// The modules whose functions' values the analysis computes (without `node:`).
const TRUSTED_MODULES: [&str; 2] = ["os", "fs"];

/// Properties of those modules that hold objects with their functions: handed anywhere, they may
/// be changed there (`Object.assign(fs.promises, …)`).
const HOLDING_OBJECTS: [&str; 2] = ["promises", "default"];

/// Names through which a program reaches its own process object, and so its environment.
const GLOBAL_OBJECTS: [&str; 2] = ["globalThis", "global"];

/// What the program may have changed before it asks for a temporary folder.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Trust {
    /// Its environment is only read: `process.env.X`, never written nor handed on.
    pub environment: bool,
    /// The `os` module's functions are its own.
    pub os: bool,
    /// The `fs` module's functions are its own.
    pub fs: bool,
}

/// A name bound to one of the modules, or to something taken from one, whose every other use
/// must keep it as it is.
struct Binding<'t> {
    name: &'t str,
    /// The node that binds it.
    at: usize,
    module: &'static str,
    /// It holds an object whose functions can be replaced (the module, `promises`), not a
    /// function.
    object: bool,
}

/// How a program loads a module.
enum Loaded<'n> {
    /// `require(…)`, `await import(…)`: this call's value is the module.
    Value(Node<'n>),
    /// `import … from '…'`: the names it binds.
    Declaration,
    /// `import(…)` not awaited: a promise hands the module to callbacks the analysis does not follow.
    Promised,
}

/// How a value taken from a module is used.
enum Use<'n> {
    Kept,
    Bound(Binding<'n>),
    Destructured(Node<'n>),
    Changed,
}

impl<'t> Reader<'t, '_> {
    /// What the program may have changed, over all of its nodes.
    pub(super) fn trust(&self, nodes: &[Node<'t>]) -> Trust {
        let mut trust = Trust { environment: true, os: true, fs: true };
        let mut bindings: Vec<Binding> = Vec::new();
        let mut names: HashMap<&str, Vec<Node>> = HashMap::new();
        for node in nodes {
            if matches!(
                node.kind_name(),
                "identifier" | "shorthand_property_identifier" | "shorthand_property_identifier_pattern"
            ) {
                names.entry(self.source(*node)).or_default().push(*node);
            }
            if !self.environment_kept(*node) {
                trust.environment = false;
            }
            let Some((spec, start)) = self.module_loaded(*node) else { continue };
            let family = family(&spec);
            if family == "process" {
                trust.environment = false;
            }
            let Some(module) = TRUSTED_MODULES.into_iter().find(|module| *module == family) else { continue };
            match start {
                Loaded::Value(start) if self.used(start, module, true, &mut bindings) => {}
                Loaded::Declaration => self.imported(*node, module, &mut bindings),
                _ => distrust(&mut trust, module),
            }
        }
        // Each use looked at counts against the budget: past it, nothing is trusted.
        let mut work = 0usize;
        while let Some(binding) = bindings.pop() {
            let uses = names.get(binding.name).map_or(&[][..], Vec::as_slice);
            work = work.saturating_add(uses.len());
            if work > MAX_ANALYSIS_WORK {
                return Trust { environment: trust.environment, os: false, fs: false };
            }
            if !self.binding_kept(&binding, uses, &mut bindings) {
                distrust(&mut trust, binding.module);
            }
        }
        trust
    }

    /// A module the node loads, by its specifier, and how.
    fn module_loaded(&self, node: Node<'t>) -> Option<(String, Loaded<'t>)> {
        match node.kind_name() {
            "call_expression" => {
                let function = node.field("function")?;
                let dynamic = function.kind_name() == "import";
                if !dynamic && self.function_name(function).as_deref() != Some("require") {
                    return None;
                }
                let spec = arguments(node).first().and_then(|first| self.eval(*first, 0))?;
                // `import(…)` gives a promise, whose `then` hands the module to a callback.
                let awaited = node.parent().is_some_and(|parent| parent.kind_name() == "await_expression");
                Some((spec, if dynamic && !awaited { Loaded::Promised } else { Loaded::Value(node) }))
            }
            "import_statement" => Some((self.eval(node.field("source")?, 0)?, Loaded::Declaration)),
            _ => None,
        }
    }

    /// The names an `import` declaration of a trusted module binds.
    fn imported(&self, statement: Node<'t>, module: &'static str, bindings: &mut Vec<Binding<'t>>) {
        for clause in named(statement).into_iter().filter(|c| c.kind_name() == "import_clause") {
            for part in named(clause) {
                match part.kind_name() {
                    "identifier" => bindings.push(self.binding(part, module, true)),
                    "namespace_import" => {
                        bindings.extend(named(part).into_iter().map(|name| self.binding(name, module, true)));
                    }
                    "named_imports" => {
                        for specifier in named(part) {
                            let Some(name) = specifier.field("name") else { continue };
                            let local = specifier.field("alias").unwrap_or(name);
                            let object = HOLDING_OBJECTS.contains(&self.source(name));
                            bindings.push(self.binding(local, module, object));
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn binding(&self, name: Node<'t>, module: &'static str, object: bool) -> Binding<'t> {
        Binding { name: self.source(name), at: name.id(), module, object }
    }

    /// Whether every use of a bound name but its binding keeps what it holds.
    fn binding_kept(&self, binding: &Binding<'t>, uses: &[Node<'t>], bindings: &mut Vec<Binding<'t>>) -> bool {
        uses.iter()
            .filter(|node| node.id() != binding.at)
            .all(|node| node.kind_name() == "identifier" && self.used(*node, binding.module, binding.object, bindings))
    }

    /// Whether a use of a module (or of what a name took from it) keeps it: a call, a property
    /// read, a name bound to it (checked in turn); not a write, a computed member, nor the
    /// module or an object of it handed anywhere.
    fn used(&self, start: Node<'t>, module: &'static str, object: bool, bindings: &mut Vec<Binding<'t>>) -> bool {
        match self.use_of(start, object) {
            Use::Kept => true,
            Use::Changed => false,
            Use::Bound(binding) => {
                bindings.push(Binding { module, ..binding });
                true
            }
            Use::Destructured(pattern) => self.destructured(pattern, module, bindings),
        }
    }

    fn use_of(&self, start: Node<'t>, object: bool) -> Use<'t> {
        let (top, parent) = member_chain(start);
        let property = (top != start).then(|| top.field("property").map(|p| self.source(p))).flatten();
        let holds_object = property.map_or(object, |property| HOLDING_OBJECTS.contains(&property));
        let Some(parent) = parent else { return Use::Kept };
        let is = |field: &'static str| parent.field(field) == Some(top);
        match parent.kind_name() {
            "call_expression" if is("function") => Use::Kept,
            "new_expression" if is("constructor") => Use::Kept,
            "variable_declarator" if is("value") => match parent.field("name") {
                Some(name) if name.kind_name() == "identifier" => Use::Bound(self.binding(name, "", holds_object)),
                Some(pattern) if pattern.kind_name() == "object_pattern" => Use::Destructured(pattern),
                _ => Use::Changed,
            },
            _ if written(top, parent) => Use::Changed,
            "subscript_expression" if is("object") => Use::Changed,
            _ if holds_object => Use::Changed,
            _ => Use::Kept,
        }
    }

    /// `const {tmpdir, promises: p} = require('os')`: each name bound, checked in turn; a default
    /// value or a rest element may hold anything.
    fn destructured(&self, pattern: Node<'t>, module: &'static str, bindings: &mut Vec<Binding<'t>>) -> bool {
        for part in named(pattern) {
            let (property, local) = match part.kind_name() {
                "shorthand_property_identifier_pattern" => (self.source(part), part),
                "pair_pattern" => match (part.field("key"), part.field("value")) {
                    (Some(key), Some(value)) if value.kind_name() == "identifier" => (self.source(key), value),
                    _ => return false,
                },
                _ => return false,
            };
            bindings.push(self.binding(local, module, HOLDING_OBJECTS.contains(&property)));
        }
        true
    }

    /// Whether `node` leaves the environment as it is: `process` only as `process.x` (and
    /// `process.env` only as `process.env.X` or `process.env[k]` read), the global object only
    /// as `globalThis.x`, `this` only as `this.x`, no property named `process`, no `'process'`
    /// module.
    fn environment_kept(&self, node: Node<'t>) -> bool {
        let text = self.source(node);
        match node.kind_name() {
            "identifier" if text == "process" => self.process_read(node),
            "identifier" if GLOBAL_OBJECTS.contains(&text) => self.plain_member(node),
            "this" => self.plain_member(node),
            "property_identifier" | "shorthand_property_identifier" | "shorthand_property_identifier_pattern" => {
                text != "process"
            }
            "string_fragment" => !matches!(text, "process" | "node:process"),
            _ => true,
        }
    }

    /// `node.x`, `x` not `process`.
    fn plain_member(&self, node: Node<'t>) -> bool {
        let parent = node.parent().filter(|p| p.kind_name() == "member_expression" && p.field("object") == Some(node));
        parent.and_then(|p| p.field("property")).is_some_and(|property| self.source(property) != "process")
    }

    /// `process.x`, with `process.env` only read for a variable.
    fn process_read(&self, node: Node<'t>) -> bool {
        let Some(member) =
            node.parent().filter(|p| p.kind_name() == "member_expression" && p.field("object") == Some(node))
        else {
            return false;
        };
        if member.field("property").is_none_or(|property| self.source(property) != "env") {
            return true;
        }
        let variable = member.parent().filter(|outer| {
            matches!(outer.kind_name(), "member_expression" | "subscript_expression")
                && outer.field("object") == Some(member)
        });
        variable.is_some_and(|variable| variable.parent().is_none_or(|parent| !written(variable, parent)))
    }
}

/// The member expressions with plain properties that start at `start` (`os.x.y`), through
/// parentheses, `await` and type assertions, and what holds the last.
fn member_chain(start: Node) -> (Node, Option<Node>) {
    let mut top = start;
    loop {
        let mut parent = top.parent();
        while let Some(wrapper) = parent.filter(|p| {
            matches!(p.kind_name(), "parenthesized_expression" | "await_expression") || type_erased(*p).is_some()
        }) {
            top = wrapper;
            parent = wrapper.parent();
        }
        match parent {
            Some(member)
                if member.kind_name() == "member_expression"
                    && member.field("object") == Some(top)
                    && member.field("property").is_some_and(|p| p.kind_name() == "property_identifier") =>
            {
                top = member;
            }
            _ => return (top, parent),
        }
    }
}

/// Whether `parent` writes `value` (assigns, updates, deletes it, or binds it in a pattern or a
/// loop).
fn written(value: Node, parent: Node) -> bool {
    let is = |field: &'static str| parent.field(field) == Some(value);
    match parent.kind_name() {
        "assignment_expression" | "augmented_assignment_expression" | "for_in_statement" => is("left"),
        "update_expression" => true,
        "unary_expression" => parent.field("operator").is_some_and(|operator| operator.kind_name() == "delete"),
        "array_pattern"
        | "object_pattern"
        | "pair_pattern"
        | "assignment_pattern"
        | "rest_pattern"
        | "object_assignment_pattern" => true,
        _ => false,
    }
}

/// A module specifier's module without `node:` and any subpath (`node:fs/promises` is `fs`).
fn family(spec: &str) -> &str {
    let spec = spec.strip_prefix("node:").unwrap_or(spec);
    spec.split('/').next().unwrap_or(spec)
}

fn distrust(trust: &mut Trust, module: &str) {
    match module {
        "os" => trust.os = false,
        "fs" => trust.fs = false,
        _ => {}
    }
}
