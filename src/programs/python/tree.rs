//! The syntax tree of a Python program, read by tree-sitter-python within a parse budget, and the
//! little dataflow the verdict needs: imports and their aliases, names bound once, strings
//! joined, the environment the program sets, and every call judged against the tables.
//!
//! P-18: a call is proven when it is a known writer whose targets are computed, a process whose
//! command line is computed (the walker judges it), a call in the read-only tables, or a
//! function the program defines (its body is judged where it stands). Anything else makes the
//! findings unsure, and the gates count every guarded location the program names as written.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser};

use super::tables::{self, Also, Kind, Made, Process, Shell, Writer};
use crate::analysis::budget::{Budget, parse_within};
use crate::analysis::formats::{self, Composite};
use crate::programs::engine::{copied_into, printf_filled, run_in, shell_word, wildcarded, writes_mode};
use crate::programs::fields::Fields;
use crate::programs::lex::{HOLE, NAME_HOLE};
use crate::programs::{Findings, MAX_ANALYSIS_WORK, Place};

/// Parser progress checks for one program (each about a hundred parser operations).
pub const MAX_PARSE_CHECKS: usize = 50_000;
/// The deepest syntax tree walked; a deeper one is judged by its raw text.
pub const MAX_DEPTH: usize = 1_000;
/// The longest string value computed; a longer one is unknown.
const MAX_VALUE_BYTES: usize = 4 << 10;
/// The most items of a list value kept.
const MAX_LIST_ITEMS: usize = 256;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// What a Python program run at `place` writes and starts, read from its syntax tree.
pub fn analyze(text: &str, place: Place) -> Findings {
    let parsed = PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&tree_sitter_python::LANGUAGE.into()).ok()?;
            *slot = Some(parser);
        }
        parse_within(slot.as_mut()?, text, &Budget::new(MAX_PARSE_CHECKS)).ok()
    });
    let Some(tree) = parsed else { return Findings::unreadable() };
    let root = tree.root_node();
    let mut program = Program::new(text, place);
    // Python runs no program it cannot parse, but what tree-sitter does not parse may be a call.
    if root.has_error() {
        program.unsure();
    }
    program.count_sites(root);
    program.visit(root, 0);
    program.finish()
}

/// A value the program computes, as far as the analysis follows it.
#[derive(Debug, Clone, PartialEq)]
enum V {
    /// A string, with [`HOLE`] for parts computed at run time.
    Str(String),
    /// A pathlib path.
    Path(String),
    List(Vec<V>),
    /// A module, a function or a class by qualified name (`os.path`, `shutil.copy`, `open`).
    Name(String),
    /// A method taken from a value without calling it (`o = Path(p).open`).
    Method(Box<V>, String),
    /// What a known call returned.
    Object(Kind),
    /// `True` or `False` (`shell=True`).
    Bool(bool),
    /// A function or class the program defines: its body is judged where it stands.
    Local,
    /// A class the analysis does not name (`type(x)`, `x.__class__`): its functions, taken from
    /// it, are called with whatever they are given.
    Class,
    /// A `tempfile.NamedTemporaryFile`: a file object whose `name` is this path.
    TemporaryFile(String),
    /// A `tempfile.TemporaryDirectory`: its `name`, and what `with … as d` binds, is this path.
    TemporaryDirectory(String),
    /// A name the program never binds nor takes from a builtin: calling it raises.
    Undefined,
    Unknown,
}

impl V {
    fn text(&self) -> Option<&str> {
        match self {
            V::Str(text) | V::Path(text) => Some(text),
            _ => None,
        }
    }
}

struct Program<'s> {
    source: &'s str,
    /// Where the program runs and the temporary folder the line gives it.
    place: Place<'s>,
    /// The temporary folder, absolute, once `tempfile` has looked it up (it keeps the first).
    temporary: Option<String>,
    /// How many places bind each name (assignments, loops, parameters, imports, mutations): a
    /// name bound once has one value wherever it is read; any other is unknown.
    sites: HashMap<&'s str, u32>,
    vars: HashMap<&'s str, V>,
    env: HashMap<String, V>,
    /// A `from m import *`: names the program does not bind may come from it.
    star: bool,
    /// The program reaches a namespace (`builtins.__dict__[…] = …`, `sys.modules[m].f = …`):
    /// a name it never binds may be bound there.
    namespaces: bool,
    /// The names imports bind, with the module they name.
    imports: std::collections::HashSet<(&'s str, &'s str)>,
    /// Names whose list may change where the walk does not see it: a method changes it in place
    /// (`cmd.append(x)`), or the list goes on under another name (`c2 = cmd`, `[cmd]`, a call
    /// that is not a list reader, `return cmd`). A list bound to one has no one value.
    mutated: std::collections::HashSet<&'s str>,
    /// Names whose list's items go on (`for x in cmd`, `cmd[0]`, `sorted(cmd)`): a list of lists
    /// bound to one has no one value.
    items_shared: std::collections::HashSet<&'s str>,
    /// Names passed to a call, with the callee's text and whether only their items go on; judged
    /// once every binding site is counted.
    passed_to: Vec<(&'s str, &'s str, bool)>,
    /// Functions the program defines: `self.helper()` calls one of them.
    defined: Vec<&'s str>,
    /// Relative paths are taken against this after a literal `os.chdir`.
    dir: String,
    /// The walk is in a class's body, where a name bound is an attribute Python may call
    /// unseen (`__eq__ = os.remove`).
    class_body: bool,
    work: usize,
    findings: Findings,
}

impl<'s> Program<'s> {
    fn new(source: &'s str, place: Place<'s>) -> Self {
        Program {
            source,
            place,
            temporary: None,
            sites: HashMap::new(),
            vars: HashMap::new(),
            env: HashMap::new(),
            star: false,
            namespaces: false,
            defined: Vec::new(),
            imports: Default::default(),
            mutated: Default::default(),
            items_shared: Default::default(),
            passed_to: Vec::new(),
            dir: String::new(),
            class_body: false,
            work: 0,
            findings: Findings::sure(),
        }
    }

    fn finish(mut self) -> Findings {
        self.findings.over_budget |= self.work > MAX_ANALYSIS_WORK;
        self.findings
    }

    /// Counts one step; true once the budget or the depth cap is spent.
    fn spent(&mut self, depth: usize) -> bool {
        self.work = self.work.saturating_add(1);
        if depth > MAX_DEPTH {
            self.work = MAX_ANALYSIS_WORK + 1;
        }
        self.work > MAX_ANALYSIS_WORK
    }

    fn text_of(&self, node: Node) -> &'s str {
        self.source.get(node.byte_range()).unwrap_or_default()
    }

    fn unsure(&mut self) {
        self.findings.sure = false;
    }

    // ---------------------------------------------------------------------------------------
    // The binding sites of each name, before the walk.
    // ---------------------------------------------------------------------------------------

    fn site(&mut self, node: Node, weight: u32) {
        let name = self.text_of(node);
        let count = self.sites.entry(name).or_insert(0);
        *count = count.saturating_add(weight);
    }

    /// The names a target binds: one site for a plain name, two (unknown) for the parts of an
    /// unpacking and for the list or dict a subscript assignment changes.
    fn target_sites(&mut self, node: Node, weight: u32, depth: usize) {
        if self.spent(depth) {
            return;
        }
        match node.kind_name() {
            "identifier" => self.site(node, weight),
            "subscript" => {
                if let Some(value) = node.field("value") {
                    self.target_sites(value, 2, depth + 1);
                }
            }
            "attribute" => {}
            _ => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.target_sites(child, 2, depth + 1);
                }
            }
        }
    }

    /// Counts the binding sites of the tree under `root`, and the names whose list may change
    /// unseen once every site is known.
    fn count_sites(&mut self, root: Node) {
        self.count_each_site(root);
        let modules: HashMap<&str, &str> = self.imports.iter().copied().collect();
        for (name, callee, items) in std::mem::take(&mut self.passed_to) {
            let only_items = items || self.reads_lists(callee, &modules);
            let list = if only_items { &mut self.items_shared } else { &mut self.mutated };
            list.insert(name);
        }
    }

    /// One walk of one cursor (a cursor for each node's children cost a third of the count).
    fn count_each_site(&mut self, root: Node) {
        let mut cursor = root.walk();
        let mut depth = 0;
        // The cursor's ancestors: tree-sitter finds a node's parent by walking down from the root.
        let mut ancestors = Vec::new();
        loop {
            if self.spent(depth) {
                return;
            }
            let node = cursor.node();
            self.count_site(node, depth, &ancestors);
            if cursor.goto_first_child() {
                ancestors.push(node);
                depth += 1;
                continue;
            }
            while !cursor.goto_next_sibling() {
                if depth == 0 || !cursor.goto_parent() {
                    return;
                }
                ancestors.pop();
                depth -= 1;
            }
        }
    }

    fn count_site(&mut self, node: Node, depth: usize, ancestors: &[Node]) {
        let field = |name: &'static str| node.field(name);
        match node.kind_name() {
            "assignment" => {
                if let Some(left) = field("left") {
                    self.target_sites(left, 1, depth + 1);
                }
            }
            "augmented_assignment" | "for_statement" | "for_in_clause" => {
                if let Some(left) = field("left") {
                    self.target_sites(left, 2, depth + 1);
                }
            }
            "named_expression" => {
                if let Some(name) = field("name") {
                    self.site(name, 2);
                }
            }
            // `with tarfile.open(a) as t` binds `t` once, like an assignment; `except E as e`
            // binds what was raised.
            "as_pattern_target" => match bare_alias(node).filter(|_| is_with_alias(node)) {
                Some(name) => self.site(name, 1),
                None => self.target_sites(node, 2, depth + 1),
            },
            "parameters" | "lambda_parameters" | "global_statement" | "nonlocal_statement" | "delete_statement"
            | "case_pattern" => self.target_sites(node, 2, depth + 1),
            "function_definition" | "class_definition" => {
                if let Some(name) = field("name") {
                    self.site(name, 1);
                    self.defined.push(self.text_of(name));
                }
            }
            "aliased_import" => {
                if let (Some(alias), Some(name)) = (field("alias"), field("name")) {
                    self.import_site(alias, name);
                }
            }
            "import_statement" | "import_from_statement" => {
                let mut cursor = node.walk();
                self.star |= node.children(&mut cursor).any(|child| child.kind_name() == "wildcard_import");
                self.import_sites(node);
            }
            "identifier" if tables::NAMESPACES.contains(&self.text_of(node)) => self.namespaces = true,
            "identifier" => self.list_use(node, ancestors),
            "attribute" => {
                // `cmd.append(x)`, `map(cmd.append, xs)`: the list has more than one value.
                if let (Some(object), Some(method)) = (field("object"), field("attribute"))
                    && object.kind_name() == "identifier"
                    && tables::MUTATORS.contains(&self.text_of(method))
                {
                    self.mutated.insert(self.text_of(object));
                }
            }
            _ => {}
        }
    }

    /// Where a name read at `node` sends its list, if it holds one: nowhere (`len(cmd)`, `if cmd`,
    /// `cmd.index(x)`), its items only (`cmd[1:]`, `for x in cmd`, `cmd + more`), or the list
    /// itself, which may then change wherever it went (P-18).
    fn list_use(&mut self, node: Node, ancestors: &[Node]) {
        let name = self.text_of(node);
        let mut up = ancestors.iter().rev().copied();
        let Some(mut parent) = up.next() else { return };
        let is = |parent: Node, field: &'static str, value: Node| parent.field(field) == Some(value);
        if [("assignment", "left"), ("attribute", "attribute"), ("keyword_argument", "name")]
            .iter()
            .any(|(kind, field)| parent.kind_name() == *kind && is(parent, field, node))
        {
            return;
        }
        let (mut value, mut items) = (node, false);
        for _ in 0..MAX_DEPTH {
            match parent.kind_name() {
                // What these give may be the list itself (`cmd or []`).
                "parenthesized_expression" | "boolean_operator" | "conditional_expression" => {}
                "subscript" if is(parent, "value", value) => items = true,
                _ => break,
            }
            value = parent;
            let Some(next) = up.next() else { return };
            parent = next;
        }
        let arguments = match parent.kind_name() {
            "argument_list" => Some(parent),
            "keyword_argument" if is(parent, "value", value) => up.next(),
            _ => None,
        };
        let call = arguments.and_then(|_| up.next()).filter(|call| call.kind_name() == "call");
        let callee = call.and_then(|call| call.field("function"));
        if let Some(callee) = callee {
            if self.string_method(callee) {
                self.items_shared.insert(name);
            } else {
                self.passed_to.push((name, self.text_of(callee), items));
            }
            return;
        }
        let goes_on = match parent.kind_name() {
            "attribute" => {
                let method = parent.field("attribute").map(|m| self.text_of(m)).unwrap_or_default();
                tables::MUTATORS.contains(&method) || method.starts_with("__")
            }
            "comparison_operator"
            | "not_operator"
            | "expression_statement"
            | "interpolation"
            | "if_statement"
            | "elif_clause"
            | "while_statement"
            | "assert_statement" => false,
            "for_statement" | "for_in_clause" if is(parent, "right", value) => {
                items = true;
                false
            }
            "binary_operator" => {
                items = true;
                false
            }
            _ => true,
        };
        if goes_on {
            if items {
                self.items_shared.insert(name)
            } else {
                self.mutated.insert(name)
            };
        }
    }

    /// `' '.join`, `'{} {}'.format`: a string's method, which reads the list it is given.
    fn string_method(&self, callee: Node) -> bool {
        let object = callee.field("object").map(|object| object.kind_name());
        let method = callee.field("attribute").map(|method| self.text_of(method));
        callee.kind_name() == "attribute"
            && matches!(object, Some("string" | "concatenated_string"))
            && matches!(method, Some("join" | "format"))
    }

    /// Whether a callee, by its text, is a [`tables::LIST_READERS`] function or a writer the
    /// tables know: a builtin the program does not rebind, or a module's function through a name
    /// only an import binds.
    fn reads_lists(&self, callee: &str, modules: &HashMap<&str, &str>) -> bool {
        let known = |name: &str| {
            tables::LIST_READERS.contains(&name) || tables::writer(name).is_some_and(|w| !matches!(w, Writer::Opaque))
        };
        let word = |part: &str| !part.is_empty() && part.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric());
        if !callee.split('.').all(word) {
            return false;
        }
        let mut parts = callee.split('.');
        let first = parts.next().unwrap_or_default();
        if first == callee {
            return !self.star && !self.namespaces && !self.sites.contains_key(first) && known(first);
        }
        // Bound once, by an import.
        let Some(module) = modules.get(first).filter(|_| self.sites.get(first) == Some(&1)) else { return false };
        known(&parts.fold(module.to_string(), |object, part| tables::attribute(&object, part)))
    }

    /// `import os` in two places binds one module: one site.
    fn import_site(&mut self, name: Node, module: Node) {
        let (name_text, module_text) = (self.text_of(name), self.text_of(module));
        if self.imports.insert((name_text, module_text)) {
            self.site(name, 1);
        }
    }

    fn import_sites(&mut self, node: Node) {
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            if name.kind_name() == "dotted_name"
                && let Some(first) = name.named_child(0)
            {
                let module = node.field("module_name").unwrap_or(first);
                self.import_site(first, module);
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Statements.
    // ---------------------------------------------------------------------------------------

    fn visit(&mut self, node: Node, depth: usize) {
        if self.spent(depth) {
            return;
        }
        match node.kind_name() {
            "comment" => {}
            "import_statement" => self.import(node),
            "import_from_statement" => self.import_from(node),
            "future_import_statement" => {}
            "assignment" => self.assignment(node, depth),
            "augmented_assignment" => {
                self.eval_field(node, "right", depth);
                if let Some(left) = node.field("left") {
                    self.store(left, V::Unknown, depth);
                }
            }
            "function_definition" | "class_definition" => self.definition(node, depth),
            "for_statement" => {
                self.eval_field(node, "right", depth);
                self.visit_children_except(node, &["left", "right"], depth);
            }
            "with_item" => match node.field("value").and_then(with_pattern) {
                Some(pattern) => {
                    let value = pattern.named_child(0).map_or(V::Unknown, |inner| self.eval(inner, depth + 1));
                    if let Some(alias) = pattern.field("alias") {
                        self.store_pattern(alias, entered(value), depth);
                    }
                }
                None => {
                    self.eval_field(node, "value", depth);
                }
            },
            "module"
            | "block"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "while_statement"
            | "try_statement"
            | "except_clause"
            | "finally_clause"
            | "with_statement"
            | "with_clause"
            | "decorated_definition"
            | "match_statement"
            | "case_clause"
            | "expression_statement"
            | "delete_statement"
            | "raise_statement"
            | "assert_statement"
            | "print_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "pass_statement"
            | "break_statement"
            | "continue_statement"
            | "type_alias_statement"
            | "ERROR" => self.visit_children(node, depth),
            "exec_statement" => self.unsure(),
            // What a function returns goes where the walk does not follow it.
            "return_statement" => self.eval_all(node, depth),
            "decorator" => {
                // `@name` calls `name` with the function.
                let value = node.named_child(0).map_or(V::Unknown, |inner| self.eval(inner, depth + 1));
                match value {
                    V::Name(name) if tables::read_only(&name) => {}
                    V::Local | V::Object(_) => {}
                    V::Method(..) if !may_write_when_called(&value) => {}
                    _ => self.unsure(),
                }
            }
            _ if node.is_named() => {
                self.eval(node, depth + 1);
            }
            _ => {}
        }
    }

    fn visit_children(&mut self, node: Node, depth: usize) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.visit(child, depth + 1);
        }
    }

    fn visit_children_except(&mut self, node: Node, fields: &[&str], depth: usize) {
        let mut cursor = node.walk();
        for (index, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(index).ok().and_then(|index| node.field_name_for_child(index));
            if child.is_named() && !field.is_some_and(|field| fields.contains(&field)) {
                self.visit(child, depth + 1);
            }
        }
    }

    fn eval_field(&mut self, node: Node, field: &'static str, depth: usize) -> V {
        node.field(field).map_or(V::Unknown, |child| self.eval(child, depth + 1))
    }

    fn import(&mut self, node: Node) {
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            match name.kind_name() {
                "aliased_import" => {
                    let module = name.field("name").map(|n| self.text_of(n)).unwrap_or_default();
                    self.imported(module);
                    if let Some(alias) = name.field("alias") {
                        self.vars.insert(self.text_of(alias), V::Name(module.to_string()));
                    }
                }
                _ => {
                    let module = self.text_of(name);
                    self.imported(module);
                    let first = module.split('.').next().unwrap_or(module);
                    self.vars.insert(first_name(self.source, name).unwrap_or(first), V::Name(first.to_string()));
                }
            }
        }
    }

    /// An import of a module outside the standard library may run the program's own code (a
    /// file beside it): unproven.
    fn imported(&mut self, module: &str) {
        let top = module.split('.').next().unwrap_or(module);
        if module.starts_with('.') || !(tables::STANDARD.contains(&top) || tables::LIBRARIES.contains(&top)) {
            self.unsure();
        }
    }

    fn import_from(&mut self, node: Node) {
        let Some(module) = node.field("module_name") else { return };
        let module = self.text_of(module);
        self.imported(module);
        let mut cursor = node.walk();
        if node.children(&mut cursor).any(|child| child.kind_name() == "wildcard_import") {
            self.star = true;
        }
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            let (original, alias) = match name.kind_name() {
                "aliased_import" => (name.field("name"), name.field("alias")),
                _ => (Some(name), Some(name)),
            };
            if let (Some(original), Some(alias)) = (original, alias) {
                let qualified = tables::attribute(module, self.text_of(original));
                self.vars.insert(self.text_of(alias), V::Name(qualified));
            }
        }
    }

    fn definition(&mut self, node: Node, depth: usize) {
        if let Some(name) = node.field("name") {
            self.vars.insert(self.text_of(name), V::Local);
        }
        // Defaults, decorators' arguments, base classes: evaluated where they stand.
        for field in ["parameters", "superclasses"] {
            if let Some(child) = node.field(field) {
                self.eval_parameters(child, depth + 1);
            }
        }
        let outer = std::mem::replace(&mut self.class_body, node.kind_name() == "class_definition");
        if let Some(body) = node.field("body") {
            self.visit(body, depth + 1);
        }
        self.class_body = outer;
    }

    fn eval_parameters(&mut self, node: Node, depth: usize) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind_name() {
                "default_parameter" | "typed_default_parameter" => {
                    self.eval_field(child, "value", depth);
                }
                "identifier" | "typed_parameter" | "list_splat_pattern" | "dictionary_splat_pattern" => {}
                _ => {
                    self.eval(child, depth + 1);
                }
            }
        }
    }

    fn assignment(&mut self, node: Node, depth: usize) {
        let value = self.eval_field(node, "right", depth);
        if self.class_body {
            self.passed(&value);
        }
        if let Some(left) = node.field("left") {
            self.store(left, value, depth);
        }
    }

    /// Binds `target` to `value`: a name, `os.environ['X']`, or the parts of an unpacking.
    fn store(&mut self, target: Node, value: V, depth: usize) {
        match target.kind_name() {
            "identifier" => {
                let name = self.text_of(target);
                // Bound more than once, a name reads as unknown: what it held goes unseen.
                if self.sites.get(name).copied().unwrap_or(0) > 1 {
                    self.passed(&value);
                }
                self.vars.insert(name, value);
            }
            "subscript" => {
                self.passed(&value);
                let key = target.field("subscript").map(|key| self.eval(key, depth + 1));
                let object = target.field("value").map(|object| self.eval(object, depth + 1));
                if object == Some(V::Name("os.environ".to_string()))
                    && let Some(V::Str(key)) = key
                {
                    self.env.insert(key, value);
                }
            }
            "attribute" => {
                // An object's attribute may be called unseen (`K.__eq__ = os.remove`).
                self.passed(&value);
                // `os.path.exists = os.remove`: a table's name no longer means what it says.
                if let Some(V::Name(_)) = target.field("object").map(|object| self.eval(object, depth + 1)) {
                    self.unsure();
                }
            }
            _ => self.store_pattern(target, V::Unknown, depth),
        }
    }

    fn store_pattern(&mut self, target: Node, value: V, depth: usize) {
        if target.kind_name() == "identifier" {
            self.vars.insert(self.text_of(target), value);
            return;
        }
        // `as t`: the name inside the alias.
        if let Some(name) = bare_alias(target) {
            self.vars.insert(self.text_of(name), value);
            return;
        }
        if self.spent(depth) {
            return;
        }
        let mut cursor = target.walk();
        for child in target.named_children(&mut cursor) {
            self.store(child, V::Unknown, depth + 1);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Expressions.
    // ---------------------------------------------------------------------------------------

    fn eval(&mut self, node: Node, depth: usize) -> V {
        if self.spent(depth) {
            return V::Unknown;
        }
        let value = match node.kind_name() {
            "string" => self.string(node, depth),
            "concatenated_string" => {
                let mut out = V::Str(String::new());
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    let part = self.eval(child, depth + 1);
                    out = concat(out, part, "");
                }
                out
            }
            "identifier" => self.lookup(self.text_of(node)),
            "attribute" => self.attribute(node, depth),
            "call" => self.call(node, depth),
            "binary_operator" => self.binary(node, depth),
            "parenthesized_expression" => {
                let inner = node.named_child(0);
                inner.map_or(V::Unknown, |inner| self.eval(inner, depth + 1))
            }
            "list" | "tuple" => self.list(node, depth),
            "subscript" => self.subscript(node, depth),
            "named_expression" => {
                let value = self.eval_field(node, "value", depth);
                // A name bound by `:=` reads as unknown: what it held goes unseen.
                self.passed(&value);
                if let Some(name) = node.field("name") {
                    self.vars.insert(self.text_of(name), value.clone());
                }
                value
            }
            "conditional_expression" | "boolean_operator" => {
                self.eval_all(node, depth);
                V::Unknown
            }
            "lambda" => {
                let returned = self.eval_field(node, "body", depth);
                self.passed(&returned);
                V::Local
            }
            "await" => node.named_child(0).map_or(V::Unknown, |inner| self.eval(inner, depth + 1)),
            "true" => V::Bool(true),
            "false" => V::Bool(false),
            "integer" | "float" | "none" | "ellipsis" | "comment" => V::Unknown,
            _ => {
                self.eval_all(node, depth);
                V::Unknown
            }
        };
        self.note(&value);
        value
    }

    fn eval_all(&mut self, node: Node, depth: usize) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let value = self.eval(child, depth + 1);
            self.passed(&value);
        }
    }

    /// Keeps a string that names a guarded location for the fail-closed verdict.
    fn note(&mut self, value: &V) {
        if let Some(text) = value.text() {
            self.findings.note(text);
        }
    }

    fn lookup(&self, name: &str) -> V {
        if self.sites.get(name).copied().unwrap_or(0) > 1 {
            return V::Unknown;
        }
        if let Some(value) = self.vars.get(name) {
            if let V::List(items) = value {
                let nested = items.iter().any(|item| matches!(item, V::List(_)));
                if self.mutated.contains(name) || (nested && self.items_shared.contains(name)) {
                    return V::Unknown;
                }
            }
            return value.clone();
        }
        if self.sites.contains_key(name) || self.star || self.namespaces {
            // Bound somewhere the walk has not reached yet (a loop, a function's later caller).
            return V::Unknown;
        }
        if tables::writer(name).is_some() || tables::read_only(name) {
            return V::Name(name.to_string());
        }
        V::Undefined
    }

    fn string(&mut self, node: Node, depth: usize) -> V {
        let start = node.child(0).map(|start| self.text_of(start)).unwrap_or_default();
        let prefix = start.trim_end_matches(['\'', '"']).to_ascii_lowercase();
        let raw = prefix.contains('r');
        let mut out = String::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind_name() {
                "string_content" => {
                    let text = self.text_of(child);
                    if raw { out.push_str(text) } else { unescape(text, &mut out) }
                }
                "interpolation" => {
                    let value = match child.named_child(0) {
                        // `{x!r}`, `{x:.5}` and `{x=}` print something other than the value.
                        Some(inner) if !changes_its_value(child, self.source) => self.eval(inner, depth + 1),
                        _ => V::Unknown,
                    };
                    match value {
                        V::Str(text) | V::Path(text) => out.push_str(&text),
                        _ => out.push(HOLE),
                    }
                }
                _ => {}
            }
            if out.len() > MAX_VALUE_BYTES {
                return V::Unknown;
            }
        }
        V::Str(out)
    }

    fn attribute(&mut self, node: Node, depth: usize) -> V {
        let object = self.eval_field(node, "object", depth);
        let name = node.field("attribute").map(|n| self.text_of(n)).unwrap_or_default();
        match object {
            V::Undefined => V::Undefined,
            object if name == "__class__" => class_of(&object),
            V::TemporaryFile(path) | V::TemporaryDirectory(path) if name == "name" => V::Str(path),
            V::Name(module) => {
                let qualified = tables::attribute(&module, name);
                match tables::STRINGS.iter().find(|(constant, _)| *constant == qualified) {
                    Some((_, text)) => V::Str((*text).to_string()),
                    None => V::Name(qualified),
                }
            }
            V::Path(path) if name == "parent" => V::Path(parent(&path)),
            V::Path(_) if matches!(name, "name" | "stem" | "suffix") => V::Str(HOLE.to_string()),
            receiver => V::Method(Box::new(receiver), name.to_string()),
        }
    }

    fn list(&mut self, node: Node, depth: usize) -> V {
        let mut items = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let value = self.eval(child, depth + 1);
            self.passed(&value);
            if child.kind_name() == "list_splat" || items.len() >= MAX_LIST_ITEMS {
                return V::Unknown;
            }
            items.push(value);
        }
        V::List(items)
    }

    fn subscript(&mut self, node: Node, depth: usize) -> V {
        let object = self.eval_field(node, "value", depth);
        let key = self.eval_field(node, "subscript", depth);
        let index = node.field("subscript").and_then(|key| self.text_of(key).parse::<isize>().ok());
        // `sys.modules['os']`, `f.__globals__['os']`: a module the walk does not follow.
        let last = match &object {
            V::Name(name) => name.rsplit('.').next(),
            V::Method(_, name) => Some(name.as_str()),
            _ => None,
        };
        if last.is_some_and(|last| tables::NAMESPACES.contains(&last)) {
            self.unsure();
        }
        match (object, key) {
            (V::Name(environ), V::Str(key)) if environ == "os.environ" => {
                self.env.get(&key).cloned().unwrap_or(V::Unknown)
            }
            // `glob.glob(pattern)[0]`: one of the paths the pattern matches.
            (V::List(items), _) if items.len() == 1 => items.into_iter().next().unwrap_or(V::Unknown),
            // `tempfile.mkstemp()[1]`, `parts[-1]`.
            (V::List(items), _) if index.is_some() => {
                let at = index.and_then(|index| {
                    if index < 0 { items.len().checked_sub(index.unsigned_abs()) } else { usize::try_from(index).ok() }
                });
                at.and_then(|at| items.into_iter().nth(at)).unwrap_or(V::Unknown)
            }
            _ => V::Unknown,
        }
    }

    fn binary(&mut self, node: Node, depth: usize) -> V {
        let left = self.eval_field(node, "left", depth);
        let right = self.eval_field(node, "right", depth);
        let operator = node.field("operator").map(|o| self.text_of(o)).unwrap_or_default();
        match (operator, left, right) {
            ("+", left @ (V::Str(_) | V::Unknown), right @ (V::Str(_) | V::Unknown)) => concat(left, right, ""),
            ("/", V::Path(left), right) => match concat(V::Str(left), right, "/") {
                V::Str(joined) => V::Path(joined),
                _ => V::Unknown,
            },
            ("%", V::Str(format), values) => V::Str(percent(&format, &values)),
            _ => V::Unknown,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Calls.
    // ---------------------------------------------------------------------------------------

    fn call(&mut self, node: Node, depth: usize) -> V {
        let callee = self.eval_field(node, "function", depth);
        let args = self.arguments(node, depth);
        match callee {
            V::Name(name) => self.named_call(&name, &args),
            V::Method(receiver, method) => self.method_call(*receiver, &method, &args),
            V::Local => V::Unknown,
            V::Undefined => V::Unknown,
            _ => {
                self.unsure();
                V::Unknown
            }
        }
    }

    fn arguments(&mut self, node: Node, depth: usize) -> Args {
        let mut args = Args::default();
        let Some(list) = node.field("arguments") else { return args };
        let mut cursor = list.walk();
        for child in list.named_children(&mut cursor) {
            match child.kind_name() {
                "keyword_argument" => {
                    let name = child.field("name").map(|n| self.text_of(n).to_string());
                    let value = self.eval_field(child, "value", depth);
                    self.passed(&value);
                    args.named.push((name.unwrap_or_default(), value));
                }
                "list_splat" | "dictionary_splat" => {
                    self.eval_all(child, depth);
                    args.splat = true;
                }
                "comment" => {}
                _ => {
                    let value = self.eval(child, depth + 1);
                    self.passed(&value);
                    args.positional.push(value);
                }
            }
        }
        args
    }

    /// A function passed as a value (`map(os.remove, paths)`, `key=Path.unlink`, a class's
    /// `__eq__`, a return value) is called where the analysis does not see, with whatever it
    /// is given: proven only when it is read-only itself (P-18).
    fn passed(&mut self, value: &V) {
        if may_write_when_called(value) {
            self.unsure();
        }
    }

    fn named_call(&mut self, name: &str, args: &Args) -> V {
        let name = name.strip_prefix("builtins.").unwrap_or(name);
        let name = canonical(name);
        // `__import__('os')` is `import os`, giving the top package.
        if name == "__import__"
            && args.positional.len() == 1
            && args.named.is_empty()
            && !args.splat
            && let Some(V::Str(module)) = args.get(0, "name")
            && !module.contains(HOLE)
            && !module.is_empty()
        {
            let module = module.clone();
            self.imported(&module);
            return V::Name(module.split('.').next().unwrap_or(&module).to_string());
        }
        if let Some(writer) = tables::writer(&name) {
            return self.writer(writer, args);
        }
        match name.as_str() {
            "pathlib.Path" | "pathlib.PurePath" | "pathlib.PosixPath" | "pathlib.PurePosixPath" => {
                return path_of(args);
            }
            "os.path.join" | "posixpath.join" => {
                return args.positional.iter().cloned().reduce(|a, b| concat(a, b, "/")).unwrap_or(V::Unknown);
            }
            "os.getenv" | "os.environ.get" => {
                return args.text(0, "key").and_then(|key| self.env.get(key).cloned()).unwrap_or(V::Unknown);
            }
            "os.putenv" => {
                if let Some(key) = args.text(0, "key") {
                    self.env.insert(key.to_string(), args.get(1, "value").cloned().unwrap_or(V::Unknown));
                }
                return V::Unknown;
            }
            "str" | "os.fspath" | "os.path.abspath" | "os.path.realpath" | "os.path.normpath"
            | "os.path.expanduser" | "os.path.expandvars" => {
                return match args.get(0, "") {
                    Some(V::Str(text) | V::Path(text)) => V::Str(text.clone()),
                    _ => V::Unknown,
                };
            }
            // The files a pattern matches: its wildcards are parts computed at run time (a hole
            // each), so a write matches them against the guarded locations and a command line
            // gets them as a glob the walk reads.
            "glob.glob" | "glob.iglob" => {
                return match args.get(0, "pathname") {
                    Some(V::Str(pattern) | V::Path(pattern)) => V::List(vec![V::Str(wildcards_as_holes(pattern))]),
                    Some(other) => V::List(vec![other.clone()]),
                    None => V::Unknown,
                };
            }
            "logging.getLogger" | "hashlib.sha256" | "hashlib.md5" | "hashlib.sha1" | "hashlib.new" => {
                return V::Object(Kind::Inert);
            }
            "type" => {
                return match (args.positional.as_slice(), args.named.is_empty() && !args.splat) {
                    ([value], true) => class_of(value),
                    _ => V::Class,
                };
            }
            "tempfile.gettempdir" | "tempfile.gettempdirb" => return V::Str(self.temporary_folder()),
            "operator.methodcaller" | "operator.attrgetter" => {
                if !getter_harmless(&name, args) {
                    self.unsure();
                }
                return V::Unknown;
            }
            "yaml.load" | "yaml.load_all" if safe_yaml_loader(args) => return V::Unknown,
            _ => {}
        }
        // `pathlib.Path.unlink(p)`: a path's writer, taken from its class, called on `p`.
        if let Some((class, method)) = name.rsplit_once('.')
            && tables::PATH_CLASSES.contains(&class)
            && tables::PATH_WRITERS.iter().any(|(writer, _)| *writer == method)
        {
            let rest = Args { positional: args.positional.iter().skip(1).cloned().collect(), ..args.clone() };
            return match args.positional.first() {
                Some(V::Path(path) | V::Str(path)) if !args.splat => self.path_method(path.clone(), method, &rest),
                _ => {
                    self.unsure();
                    V::Unknown
                }
            };
        }
        if !tables::read_only(&name) {
            self.unsure();
        }
        V::Unknown
    }

    fn writer(&mut self, writer: Writer, args: &Args) -> V {
        match writer {
            Writer::Paths(targets) => {
                for &(position, keyword) in targets {
                    match args.get(position, keyword) {
                        Some(value) => self.write(value.clone()),
                        None if args.splat => self.unsure(),
                        None => {}
                    }
                }
                V::Unknown
            }
            Writer::Tree((position, keyword)) => {
                let dir = args.get(position, keyword).cloned();
                self.write_tree(dir.unwrap_or_else(|| V::Str(".".to_string())));
                V::Unknown
            }
            Writer::Move(src, dst) => {
                self.arg_written(args, src, false);
                self.arg_written(args, dst, true);
                V::Unknown
            }
            Writer::Copy(src, dst) => {
                self.arg_written(args, dst, false);
                // Into a directory, under the source's own name.
                let source = args.get(src.0, src.1).and_then(V::text);
                if let Some(V::Str(dir) | V::Path(dir)) = args.get(dst.0, dst.1)
                    && let Some(landed) = copied_into(source, dir)
                {
                    self.write(V::Str(landed));
                }
                V::Unknown
            }
            Writer::Open { path, mode, default, kind } => {
                let mode = args.get(mode.0, mode.1).cloned().unwrap_or_else(|| V::Str(default.to_string()));
                let writes = match &mode {
                    V::Str(text) => writes_mode(&crate::programs::engine::Val::Str(text.clone())) || text == "c",
                    _ => true,
                };
                if writes || args.splat {
                    match args.get(path.0, path.1) {
                        Some(target) => self.write(target.clone()),
                        None if kind == Kind::Inert && path.0 == usize::MAX => {}
                        None => self.unsure(),
                    }
                }
                V::Object(kind)
            }
            Writer::OpenFlags => {
                let flags = args.get(1, "flags").cloned();
                let read_only = matches!(&flags, Some(V::Name(flag)) if flag == "os.O_RDONLY");
                if !read_only {
                    match args.get(0, "path") {
                        Some(target) => self.write(target.clone()),
                        None => self.unsure(),
                    }
                }
                V::Unknown
            }
            Writer::Database((position, keyword)) => {
                match args.get(position, keyword) {
                    Some(V::Str(name)) if name == ":memory:" || name.is_empty() => {}
                    Some(database) => self.write(database.clone()),
                    None => self.unsure(),
                }
                V::Object(Kind::Database)
            }
            Writer::Run(process) => {
                self.process(process, args);
                V::Object(Kind::Inert)
            }
            Writer::Symlink(src, dst) => {
                self.arg_written(args, dst, false);
                // The link's text is taken from the folder the link is in.
                match (args.get(src.0, src.1), args.get(dst.0, dst.1)) {
                    (Some(V::Str(target) | V::Path(target)), _) if target.starts_with('/') => {
                        self.write(V::Str(target.clone()));
                    }
                    (Some(V::Str(target) | V::Path(target)), Some(V::Str(link) | V::Path(link))) => {
                        self.write(V::Str(join_dir(&parent_dir(link), target)));
                    }
                    _ => self.unsure(),
                }
                V::Unknown
            }
            Writer::Chdir => {
                match args.get(0, "path") {
                    Some(V::Str(dir) | V::Path(dir)) if !dir.contains(HOLE) => {
                        self.dir = if dir.starts_with('/') { dir.clone() } else { join_dir(&self.dir, dir) };
                    }
                    _ => self.unsure(),
                }
                V::Unknown
            }
            Writer::Opaque => {
                self.unsure();
                V::Unknown
            }
            Writer::Temporary { suffix, prefix, dir, made } => self.temporary(args, [suffix, prefix, dir], made),
        }
    }

    /// A `tempfile` call: `prefix`, a random name and `suffix` in the folder `dir` names, else the
    /// temporary folder; what it makes there is written, and it returns the path (absolute, as
    /// Python gives it) or an object holding it.
    fn temporary(&mut self, args: &Args, [suffix, prefix, dir]: [tables::Arg; 3], made: Made) -> V {
        if args.splat {
            self.unsure();
        }
        let text = |at: tables::Arg, default: &str| match args.get(at.0, at.1) {
            None => default.to_string(),
            Some(V::Str(text) | V::Path(text)) => text.clone(),
            Some(_) => HOLE.to_string(),
        };
        let folder = match args.get(dir.0, dir.1) {
            None => self.temporary_folder(),
            Some(V::Str(folder) | V::Path(folder)) => self.absolute(folder),
            Some(_) => HOLE.to_string(),
        };
        let path = join_dir(&folder, &format!("{}{NAME_HOLE}{}", text(prefix, "tmp"), text(suffix, "")));
        if made != Made::Name {
            self.write(V::Str(path.clone()));
        }
        match made {
            Made::Folder | Made::Name => V::Str(path),
            Made::Directory => V::TemporaryDirectory(path),
            Made::Pair => V::List(vec![V::Unknown, V::Str(path)]),
            Made::NamedFile => V::TemporaryFile(path),
            Made::File => V::Object(Kind::File),
        }
    }

    /// The folder `tempfile` puts things in: the one the line gives the program, absolute, as
    /// Python looks it up once. A program that may change its environment (it names `environ`,
    /// `putenv`) may have pointed it anywhere first: unknown then.
    fn temporary_folder(&mut self) -> String {
        if let Some(folder) = &self.temporary {
            return folder.clone();
        }
        let changed = ["environ", "putenv", "unsetenv"].iter().any(|name| self.source.contains(name));
        let folder = match self.place.temporary {
            Some(folder) if !changed && !folder.is_empty() => self.absolute(folder),
            _ => HOLE.to_string(),
        };
        self.temporary = Some(folder.clone());
        folder
    }

    /// A path the program names, made absolute against where it runs now (`os.path.abspath`).
    fn absolute(&self, path: &str) -> String {
        if path.starts_with('/') || path.contains(HOLE) {
            return path.to_string();
        }
        crate::paths::absolute(join_dir(&self.dir, path), self.place.dir).to_string_lossy().into_owned()
    }

    fn method_call(&mut self, receiver: V, method: &str, args: &Args) -> V {
        match (&receiver, method) {
            (V::Path(path), _) => return self.path_method(path.clone(), method, args),
            (V::Str(text), "format") => return V::Str(braces(text, args)),
            (V::Str(separator), "join") => return joined(separator, args.get(0, "")),
            (V::Str(text), "lower") => return V::Str(text.to_lowercase()),
            (V::Str(text), "upper") => return V::Str(text.to_uppercase()),
            (V::Str(text), "strip") if args.positional.is_empty() => return V::Str(text.trim().to_string()),
            (V::Str(text), "lstrip") if args.positional.is_empty() => return V::Str(text.trim_start().to_string()),
            (V::Str(text), "rstrip") if args.positional.is_empty() => return V::Str(text.trim_end().to_string()),
            (V::Str(text), "replace") if args.positional.len() == 2 && args.named.is_empty() => {
                return match (args.text(0, ""), args.text(1, "")) {
                    // The size is known before the text is built.
                    (Some(old), Some(new))
                        if !old.is_empty()
                            && ![text, old, new].iter().any(|t| t.contains(HOLE))
                            && text.len() + text.matches(old).count() * new.len() <= MAX_VALUE_BYTES =>
                    {
                        V::Str(text.replace(old, new))
                    }
                    _ => V::Unknown,
                };
            }
            (V::Object(Kind::Archive), _) => {
                if let Some((_, (position, keyword))) = tables::EXTRACTORS.iter().find(|(name, _)| *name == method) {
                    let target = args.get(*position, keyword).cloned().unwrap_or_else(|| V::Str(".".to_string()));
                    self.write_tree(target);
                    return V::Unknown;
                }
            }
            (V::Object(Kind::Inert | Kind::File) | V::TemporaryFile(_), _) => return V::Unknown,
            // It removes its own folder, written where it was made.
            (V::TemporaryDirectory(_), "cleanup") => return V::Unknown,
            (V::Object(Kind::Database), _) => return self.database_method(method, args),
            _ => {}
        }
        // `t.extractall(d)` on a value the walk lost (a loop's, a parameter's, a call's): unproven
        // whatever it is, and the tree at `d` if it is an archive.
        if receiver == V::Unknown
            && let Some((_, (position, keyword))) = tables::EXTRACTORS.iter().find(|(name, _)| *name == method)
            && let Some(target) = args.get(*position, keyword)
        {
            self.write_tree(target.clone());
        }
        if tables::ARGUMENT_WRITERS.contains(&method) {
            match args.get(0, "path_or_buf").or_else(|| args.get(0, "fname")) {
                Some(target) => self.write(target.clone()),
                None => self.unsure(),
            }
            return V::Unknown;
        }
        let string_replace = method == "replace" && args.positional.len() == 2;
        // A method the program defines: its body is judged where it stands.
        let own = receiver == V::Unknown
            && self.defined.contains(&method)
            && !tables::PATH_WRITERS.iter().any(|(name, _)| *name == method);
        if !(tables::READ_ONLY_METHODS.contains(&method) || string_replace || own) {
            self.unsure();
        }
        V::Unknown
    }

    /// A connection's or cursor's method: the SQL it runs is judged as sqlite3's (`ATTACH`,
    /// `VACUUM INTO`), with a computed statement unproven.
    fn database_method(&mut self, method: &str, args: &Args) -> V {
        match method {
            "execute" | "executemany" | "executescript" => {
                match args.get(0, "sql").or_else(|| args.get(0, "sql_script")) {
                    Some(V::Str(sql)) if !sql.contains(HOLE) => self.sql(&sql.clone()),
                    _ => self.unsure(),
                }
                V::Object(Kind::Database)
            }
            "cursor" => V::Object(Kind::Database),
            _ if tables::DATABASE_METHODS.contains(&method) => V::Unknown,
            _ => {
                self.unsure();
                V::Unknown
            }
        }
    }

    fn sql(&mut self, sql: &str) {
        let found = crate::programs::sqlite::analyze(sql);
        if !found.sure || found.over_budget || !found.commands.is_empty() {
            self.unsure();
        }
        for written in found.writes {
            self.write(V::Str(written));
        }
        for tree in found.trees {
            self.write_tree(V::Str(tree));
        }
    }

    fn path_method(&mut self, path: String, method: &str, args: &Args) -> V {
        if let Some((_, also)) = tables::PATH_WRITERS.iter().find(|(name, _)| *name == method) {
            self.write(V::Path(path.clone()));
            let target = args.get(0, "target").cloned();
            match (also, target) {
                (Also::Nothing, _) => {}
                (Also::Target, Some(target)) => self.write(target),
                // The link's text is taken from the folder the link is in.
                (Also::LinkTarget, Some(V::Str(target) | V::Path(target))) if !target.starts_with('/') => {
                    self.write(V::Str(join_dir(&parent_dir(&path), &target)));
                }
                (Also::LinkTarget, Some(target)) => self.write(target),
                (_, None) => self.unsure(),
            }
            return V::Unknown;
        }
        match method {
            "open" => {
                let mode = args.get(0, "mode").cloned().unwrap_or_else(|| V::Str("r".to_string()));
                let writes =
                    !matches!(&mode, V::Str(text) if !writes_mode(&crate::programs::engine::Val::Str(text.clone())));
                if writes {
                    self.write(V::Path(path));
                }
                V::Object(Kind::File)
            }
            "joinpath" => {
                let mut joined = V::Str(path);
                for part in &args.positional {
                    joined = concat(joined, part.clone(), "/");
                }
                joined.text().map_or(V::Unknown, |text| V::Path(text.to_string()))
            }
            "resolve" | "absolute" | "expanduser" => V::Path(path),
            "as_posix" => V::Str(path),
            "with_name" | "with_suffix" | "with_stem" => V::Path(format!("{}{HOLE}", parent_dir(&path))),
            _ if tables::READ_ONLY_METHODS.contains(&method) => V::Unknown,
            _ => {
                self.unsure();
                V::Unknown
            }
        }
    }

    /// The argument at `at` written, as a file or as a tree; a missing one is unproven.
    fn arg_written(&mut self, args: &Args, (position, keyword): tables::Arg, tree: bool) {
        match args.get(position, keyword).cloned() {
            Some(value) if tree => self.write_tree(value),
            Some(value) => self.write(value),
            None => self.unsure(),
        }
    }

    fn write(&mut self, value: V) {
        self.record(value, false);
    }

    /// A directory filled with a tree.
    fn write_tree(&mut self, value: V) {
        self.record(value, true);
    }

    fn record(&mut self, value: V, tree: bool) {
        match value {
            V::Str(text) | V::Path(text) if !text.is_empty() => {
                let located =
                    if text.starts_with('/') || self.dir.is_empty() { text } else { join_dir(&self.dir, &text) };
                self.findings.written(located, tree);
            }
            V::List(items) => {
                for item in items {
                    self.record(item, tree);
                }
            }
            // An open file object or a descriptor (`shutil.copy(src, f)` is not a thing, but
            // `os.open` results are): judged where it was made.
            V::Object(_) | V::TemporaryFile(_) | V::TemporaryDirectory(_) => {}
            _ => self.unsure(),
        }
    }

    /// A process started: its command line for the walker, as the program really run gets it
    /// (through a shell, or `executable=` in the place of the first word), in the directory it
    /// runs in. With a `shell=` the analysis cannot read, both ways.
    fn process(&mut self, process: Process, args: &Args) {
        let Some(line) = args.get(process.args.0, process.args.1) else { return self.unsure() };
        let arg = |(position, keyword): tables::Arg| args.get(position, keyword);
        let program = match process.program.and_then(arg) {
            None => None,
            Some(V::Str(program) | V::Path(program)) => Some(program.as_str()),
            Some(_) => return self.unsure(),
        };
        let dir = match process.cwd.and_then(arg) {
            None => self.dir.clone(),
            Some(V::Str(dir) | V::Path(dir)) if !dir.contains(HOLE) => {
                if dir.starts_with('/') {
                    dir.clone()
                } else {
                    join_dir(&self.dir, dir)
                }
            }
            Some(_) => {
                self.unsure();
                self.dir.clone()
            }
        };
        let shells: &[bool] = match process.shell {
            Shell::Always => &[true],
            Shell::Never => &[false],
            Shell::When(at) => match arg(at) {
                None | Some(V::Bool(false)) => &[false],
                Some(V::Bool(true)) => &[true],
                Some(_) => &[false, true],
            },
        };
        for &shell in shells {
            match command_line(line, program, shell) {
                Some(line) => self.findings.commands.push(wildcarded(&run_in(&dir, line))),
                None => self.unsure(),
            }
        }
    }
}

/// The command line a process runs: a string as the shell reads it, an argv list as words;
/// through a shell (`shell=True`), a list's first item is the shell's program and the others its
/// `$0`, `$1`, …; `program` stands for the shell, or for the first word.
fn command_line(line: &V, program: Option<&str>, shell: bool) -> Option<String> {
    let words = |items: &[V]| items.iter().map(|item| item.text().map(shell_word)).collect::<Option<Vec<String>>>();
    let line = match (line, shell) {
        (V::Str(text), true) => match program {
            Some(program) => format!("{} -c {}", shell_word(program), shell_word(text)),
            None => text.clone(),
        },
        (V::Str(text), false) => program.map_or_else(|| text.clone(), shell_word),
        (V::List(items), true) => {
            let (first, rest) = items.split_first()?;
            let shell = shell_word(program.unwrap_or("/bin/sh"));
            let rest = words(rest)?;
            format!("{shell} -c {} {}", shell_word(first.text()?), rest.join(" "))
        }
        (V::List(items), false) => match program {
            Some(program) => {
                std::iter::once(shell_word(program)).chain(words(items.get(1..)?)?).collect::<Vec<_>>().join(" ")
            }
            None if !items.is_empty() => words(items)?.join(" "),
            None => return None,
        },
        _ => return None,
    };
    Some(line)
}

/// A call's arguments, evaluated.
#[derive(Default, Clone)]
struct Args {
    positional: Vec<V>,
    named: Vec<(String, V)>,
    /// `*args` or `**kwargs`: any argument may be anything.
    splat: bool,
}

impl Args {
    fn get(&self, position: usize, keyword: &str) -> Option<&V> {
        let named = || self.named.iter().find(|(name, _)| !keyword.is_empty() && name == keyword).map(|(_, v)| v);
        self.positional.get(position).or_else(named)
    }

    fn text(&self, position: usize, keyword: &str) -> Option<&str> {
        self.get(position, keyword).and_then(V::text)
    }
}

/// `operator.methodcaller(name, …)` calls the method it names on what it is given,
/// `operator.attrgetter(…)` gets the attributes it names (a bound method among them): harmless
/// when the names are known, a called method is read-only and none is a writer's
/// (`key=operator.methodcaller('unlink')` is not).
fn getter_harmless(getter: &str, args: &Args) -> bool {
    let calls = getter == "operator.methodcaller";
    let names = if calls { args.positional.get(..1).unwrap_or_default() } else { &args.positional[..] };
    let harmless = |value: &V| {
        value.text().is_some_and(|text| {
            !text.contains(HOLE)
                && (!calls || tables::READ_ONLY_METHODS.contains(&text))
                && !text.split('.').any(tables::writer_method)
        })
    };
    !names.is_empty() && !args.splat && names.iter().all(harmless)
}

/// `yaml.load(f, Loader=yaml.SafeLoader)`: a loader that builds only plain data.
fn safe_yaml_loader(args: &Args) -> bool {
    matches!(args.get(1, "Loader"), Some(V::Name(loader)) if tables::SAFE_YAML_LOADERS.contains(&loader.as_str()))
}

/// `from os import path` gives `os.path`; a few modules re-export under another name.
fn canonical(name: &str) -> String {
    let name = name.strip_prefix("posix.").map_or_else(|| name.to_string(), |rest| format!("os.{rest}"));
    match name.as_str() {
        "pathlib.Path.open" => "open".to_string(),
        "urllib.urlretrieve" => "urllib.request.urlretrieve".to_string(),
        _ => name,
    }
}

/// The `as` pattern of a `with` item, in parentheses or not (`with (a as t):`).
fn with_pattern(value: Node) -> Option<Node> {
    match value.kind_name() {
        "as_pattern" => Some(value),
        "parenthesized_expression" => value.named_child(0).and_then(with_pattern),
        _ => None,
    }
}

/// Whether an `as` target is a `with` item's (`with … as t`), not an `except … as e`.
fn is_with_alias(target: Node) -> bool {
    let item = target.parent().and_then(|pattern| pattern.parent());
    let item = match item {
        Some(parenthesized) if parenthesized.kind_name() == "parenthesized_expression" => parenthesized.parent(),
        item => item,
    };
    item.is_some_and(|item| item.kind_name() == "with_item")
}

/// The one name an `as` target binds (`as t`, not `as (a, b)` nor `as self.t`).
fn bare_alias(target: Node) -> Option<Node> {
    let name = target.named_child(0).filter(|name| name.kind_name() == "identifier")?;
    (target.kind_name() == "as_pattern_target" && target.named_child_count() == 1).then_some(name)
}

/// What `with value as t` binds to `t`: what `value.__enter__()` returns. The objects the
/// tables make (files, archives, processes, handlers) return themselves, a temporary directory
/// its path; of anything else the analysis does not know it.
fn entered(value: V) -> V {
    match value {
        V::Object(_) | V::TemporaryFile(_) => value,
        V::TemporaryDirectory(path) => V::Str(path),
        _ => V::Unknown,
    }
}

/// Whether a value, called where the analysis does not see with whatever it is given, may write
/// (P-18): a name the tables do not prove harmless, a class it does not name, a function taken
/// from a path, an archive, a database or such a class unless it is read-only (`key=str.lower`
/// passes, `key=type(p).unlink` does not), the same function reached through a dunder
/// (`p.unlink.__func__`), and a writer's name taken from a value the walk lost (`q.unlink`,
/// `x.__class__.__mro__[0].unlink`).
fn may_write_when_called(value: &V) -> bool {
    match value {
        V::Name(name) => !tables::harmless_value(name),
        V::Class => true,
        V::Method(receiver, method) => match &**receiver {
            V::Class if tables::CLASS_DATA.contains(&method.as_str()) => false,
            V::Path(_) | V::Object(Kind::Archive | Kind::Database) | V::Class => {
                !tables::READ_ONLY_METHODS.contains(&method.as_str())
            }
            inner @ V::Method(..) if method.starts_with("__") => may_write_when_called(inner),
            V::Str(_) | V::Bool(_) | V::Object(Kind::File | Kind::Inert) | V::TemporaryFile(_) => false,
            _ => tables::writer_method(method),
        },
        _ => false,
    }
}

/// `type(value)`, `value.__class__`: the builtin or pathlib class of a value the analysis
/// knows, else a class it does not name.
fn class_of(value: &V) -> V {
    let class = match value {
        V::Path(_) => "pathlib.Path",
        V::Str(_) => "str",
        V::List(_) => "list",
        V::Bool(_) => "bool",
        _ => return V::Class,
    };
    V::Name(class.to_string())
}

fn first_name<'s>(source: &'s str, dotted: Node) -> Option<&'s str> {
    dotted.named_child(0).and_then(|first| source.get(first.byte_range()))
}

fn path_of(args: &Args) -> V {
    if args.positional.is_empty() {
        return V::Path(".".to_string());
    }
    let joined = args.positional.iter().cloned().reduce(|a, b| concat(a, b, "/"));
    match joined {
        Some(V::Str(text) | V::Path(text)) => V::Path(text),
        _ => V::Unknown,
    }
}

fn concat(left: V, right: V, separator: &str) -> V {
    let piece = |value: V| match value {
        V::Str(text) | V::Path(text) => text,
        _ => HOLE.to_string(),
    };
    if matches!((&left, &right), (V::Unknown, V::Unknown)) {
        return V::Unknown;
    }
    let (left, right) = (piece(left), piece(right));
    if left.len() + right.len() > MAX_VALUE_BYTES {
        return V::Unknown;
    }
    if separator == "/" && right.starts_with('/') {
        // An absolute right side replaces the left (os.path.join, pathlib).
        return V::Str(right);
    }
    if separator.is_empty() || left.is_empty() || left.ends_with('/') {
        return V::Str(left + &right);
    }
    V::Str(format!("{left}{separator}{right}"))
}

fn joined(separator: &str, items: Option<&V>) -> V {
    let Some(V::List(items)) = items else { return V::Unknown };
    let mut out = String::new();
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push_str(separator);
        }
        match item.text() {
            Some(text) => out.push_str(text),
            None => out.push(HOLE),
        }
        if out.len() > MAX_VALUE_BYTES {
            return V::Unknown;
        }
    }
    V::Str(out)
}

/// `docs/*/pl?ns/[a-z].md` with each wildcard (`*`, `?`, a `[…]` class) a [`HOLE`].
fn wildcards_as_holes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut class = false;
    for c in pattern.chars() {
        match (class, c) {
            (true, ']') => class = false,
            (true, _) => {}
            (false, '[') => {
                class = true;
                out.push(HOLE);
            }
            (false, '*' | '?') => out.push(HOLE),
            (false, other) => out.push(other),
        }
    }
    out
}

fn join_dir(dir: &str, path: &str) -> String {
    if dir.is_empty() { path.to_string() } else { format!("{}/{path}", dir.trim_end_matches('/')) }
}

fn parent(path: &str) -> String {
    match path.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".to_string(),
        Some((parent, _)) => parent.to_string(),
        None => ".".to_string(),
    }
}

fn parent_dir(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((parent, _)) => format!("{parent}/"),
        None => String::new(),
    }
}

/// `'%s/x.md' % name`: the format filled from the value (a tuple's items in order), as
/// [`printf_filled`] fills it.
fn percent(format: &str, values: &V) -> String {
    let texts: Vec<Option<&str>> = match values {
        V::List(items) => items.iter().map(V::text).collect(),
        other => vec![other.text()],
    };
    printf_filled(format, &texts)
}

/// `str.format`: `{}` and `{0}` take the positional argument, `{name}` the keyword one; a
/// value the analysis does not know, and a field that converts or formats its value (`{!r}`,
/// `{:.5}`), are holes.
fn braces(text: &str, args: &Args) -> String {
    let mut next = 0;
    let mut out = String::new();
    for piece in formats::composite_pieces(text) {
        let field = match piece {
            Composite::Text(text) => {
                out.push_str(text);
                continue;
            }
            Composite::Field(field) => field,
        };
        let (name, changed) = match field.find([':', '!']) {
            Some(at) => (&field[..at], !matches!(&field[at..], "!s" | ":")),
            None => (field, false),
        };
        let value = if name.is_empty() {
            next += 1;
            args.positional.get(next - 1)
        } else {
            match name.parse::<usize>() {
                Ok(index) => args.positional.get(index),
                Err(_) => args.named.iter().find(|(key, _)| key == name).map(|(_, value)| value),
            }
        };
        match value.and_then(V::text).filter(|_| !changed) {
            Some(text) => out.push_str(text),
            None => out.push(HOLE),
        }
    }
    out
}

/// An f-string's `{…}` that converts or formats its value (`!r`, `:.5`) or prints its text with
/// it (`=`); `!s` prints the value as it is.
fn changes_its_value(interpolation: Node, source: &str) -> bool {
    let mut cursor = interpolation.walk();
    interpolation.children(&mut cursor).any(|part| match part.kind_name() {
        "format_specifier" | "=" => true,
        "type_conversion" => source.get(part.byte_range()) != Some("!s"),
        _ => false,
    })
}

/// A string literal's escapes: the common ones decoded, any other kept as written (`\d` in a
/// regular expression stays `\d`), a line continuation dropped.
fn unescape(text: &str, out: &mut String) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\n') => {}
            Some(quote @ ('\\' | '\'' | '"')) => out.push(quote),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) => out.push(decoded),
                    None => out.push(HOLE),
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
}
