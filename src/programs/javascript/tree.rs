//! JavaScript read by the maintained tree-sitter grammar, with the little dataflow P-18 needs:
//! aliases of functions (`const {appendFileSync: w} = require('fs')`, `const w = fs.writeFileSync`,
//! `import {rmSync as r} from 'fs'`), computed members (`fs['write' + 'FileSync']`, `fs[name]`),
//! `.call`/`.apply`/`.bind`, string values of bound names and `process.env.X`, and joins (`+`,
//! template literals, `path.join`/`path.resolve`, `.concat`, an array's `.join`).
//!
//! The inverted default: every call is either a known writer or runner (its targets computed and
//! judged), a call kept as read-only data, or a function the program itself defines. Any other call
//! leaves the findings unsure, and `judged()` then counts every guarded location the program names
//! as written.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use tree_sitter::{Node, Parser};

use crate::analysis::budget::{Budget, parse_within};
use crate::analysis::formats::{self, Printf};
use crate::programs::engine::{run_in, shell_word};
use crate::programs::fields::Fields;
use crate::programs::lex::{HOLE, NAME_HOLE};
use crate::programs::{Findings, MAX_ANALYSIS_WORK, Place};

mod trust;

/// Which grammar a JavaScript-family program is read by: JavaScript, or TypeScript (which tree-sitter reads with the
/// TSX grammar too, for a program with JSX in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    JavaScript,
    TypeScript,
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
    static TYPESCRIPT_PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
    static TSX_PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// The parser's budget, in progress checks (about 100 parser operations each).
const MAX_PARSE_CHECKS: usize = 20_000;
/// How deep one expression is evaluated; deeper is an unknown value.
const MAX_EVAL_DEPTH: usize = 48;
/// The most parents looked through for the loop around a binding.
const MAX_LOOP_NESTING: usize = 256;
/// The longest string value kept; longer is an unknown value.
const MAX_VALUE_BYTES: usize = 4096;

/// Writers: the function's name and the arguments that are paths it writes.
const WRITERS: &[(&str, &[usize])] = &[
    ("writeFile", &[0]),
    ("writeFileSync", &[0]),
    ("appendFile", &[0]),
    ("appendFileSync", &[0]),
    ("createWriteStream", &[0]),
    ("outputFile", &[0]),
    ("outputFileSync", &[0]),
    ("writeJson", &[0]),
    ("writeJsonSync", &[0]),
    ("outputJson", &[0]),
    ("outputJsonSync", &[0]),
    ("truncate", &[0]),
    ("truncateSync", &[0]),
    ("unlink", &[0]),
    ("unlinkSync", &[0]),
    ("rm", &[0]),
    ("rmSync", &[0]),
    ("rmdir", &[0]),
    ("rmdirSync", &[0]),
    ("remove", &[0]),
    ("removeSync", &[0]),
    ("emptyDir", &[0]),
    ("emptyDirSync", &[0]),
    ("mkdir", &[0]),
    ("mkdirSync", &[0]),
    ("mkdirp", &[0]),
    ("ensureFile", &[0]),
    ("ensureFileSync", &[0]),
    ("copyFile", &[1]),
    ("copyFileSync", &[1]),
    ("cp", &[1]),
    ("cpSync", &[1]),
    ("copy", &[1]),
    ("copySync", &[1]),
    ("move", &[0, 1]),
    ("moveSync", &[0, 1]),
    ("rename", &[0, 1]),
    ("renameSync", &[0, 1]),
    ("link", &[0, 1]),
    ("linkSync", &[0, 1]),
    ("symlink", &[1]),
    ("symlinkSync", &[1]),
    ("ensureSymlink", &[1]),
    ("ensureSymlinkSync", &[1]),
    ("ensureLink", &[1]),
    ("chmod", &[0]),
    ("chmodSync", &[0]),
    ("utimes", &[0]),
    ("utimesSync", &[0]),
    ("writeTextFile", &[0]),
    ("writeTextFileSync", &[0]),
];

/// Writers that make a symbolic link (their second argument) to their first, which a later write
/// through the link changes.
const SYMLINKS: &[&str] = &["symlink", "symlinkSync", "ensureSymlink", "ensureSymlinkSync"];

/// Where a name is bound rather than read.
/// Whether every `console` in `text` is the receiver of a method call (`console.log(`), so the
/// program neither replaces its methods nor hands it on; the global object named at all may.
fn console_only_called(text: &str) -> bool {
    let names_global = ["globalThis", "global.", "global[", "window", "self."].iter().any(|name| text.contains(name));
    !names_global
        && text.match_indices("console").all(|(at, _)| {
            let rest = &text[at + "console".len()..];
            let method = rest.strip_prefix('.').map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric()));
            method.is_some_and(|after| after.starts_with('(') && after.len() < rest.len() - 1)
        })
}

const BINDING_SITES: &[&str] = &[
    "import_specifier",
    "namespace_import",
    "import_clause",
    "formal_parameters",
    "required_parameter",
    "optional_parameter",
    "function_declaration",
    "class_declaration",
    "method_definition",
    "catch_clause",
    "pair_pattern",
    "object_pattern",
    "array_pattern",
    "assignment_pattern",
    "rest_pattern",
];

/// `fs.mkdtempSync(prefix)`, `mkdtemp`: a folder named `prefix` and six random letters or digits.
const TEMPORARY_FOLDER_MAKERS: &[&str] = &["mkdtempSync", "mkdtemp"];

/// Methods of a `Bun.file(p)` that write or remove p.
const BUN_FILE_WRITERS: &[&str] = &["write", "writer", "delete", "unlink"];

/// Writers whose destination (their second argument) gets a whole tree: a directory copied or
/// moved onto or into it (`fs.cpSync(src, dst, {recursive: true})`, fs-extra's `copy`).
const TREE_WRITERS: &[&str] = &["cp", "cpSync", "copy", "copySync", "move", "moveSync", "rename", "renameSync"];

/// Runners whose first argument is a command line.
const LINE_RUNNERS: &[&str] = &["exec", "execSync", "execaCommand", "execaCommandSync"];
/// Runners whose first argument is a program and the second its arguments (or the first an argv).
const ARGV_RUNNERS: &[&str] = &["execFile", "execFileSync", "spawn", "spawnSync", "execa", "execaSync"];
/// Calls that run code the analysis does not see.
const OPAQUE: &[&str] = &[
    "eval",
    "Function",
    "fork",
    "runInThisContext",
    "runInNewContext",
    "runInContext",
    "compileFunction",
    "Script",
    "dlopen",
    "Worker",
    "Command",
    "run",
];

/// Calls that write nothing, by name: printing, parsing, reading, hashing, string and array
/// methods, `path.*`, `Math.*`; writes on a stream or a descriptor go where its open went, which is
/// judged there. This package's read-only exports are proven by their own list
/// (`super::READ_ONLY_EXPORTS`).
const READ_ONLY: &[&str] = &[
    // console, JSON, process
    "log",
    "error",
    "warn",
    "info",
    "debug",
    "trace",
    "dir",
    "table",
    "assert",
    "count",
    "time",
    "timeEnd",
    "group",
    "groupEnd",
    "parse",
    "stringify",
    "exit",
    "cwd",
    "hrtime",
    "uptime",
    "memoryUsage",
    "nextTick",
    "on",
    "once",
    "off",
    "emit",
    "pipe",
    "pipeline",
    "removeListener",
    "setEncoding",
    "resume",
    "pause",
    "write",
    "end",
    "close",
    "closeSync",
    "writeSync",
    "fsync",
    "fsyncSync",
    "question",
    "createInterface",
    // reading the filesystem
    "readFileSync",
    "readFile",
    "readTextFile",
    "readTextFileSync",
    "readJson",
    "readJsonSync",
    "readJSON",
    "existsSync",
    "exists",
    "pathExists",
    "pathExistsSync",
    "statSync",
    "stat",
    "lstatSync",
    "lstat",
    "fstat",
    "fstatSync",
    "readdirSync",
    "readdir",
    // a `Dirent` or `Stats`
    "isFile",
    "isDirectory",
    "isSymbolicLink",
    "isFIFO",
    "isSocket",
    "isBlockDevice",
    "isCharacterDevice",
    "readDir",
    "readDirSync",
    "opendir",
    "opendirSync",
    "createReadStream",
    "accessSync",
    "access",
    "realpathSync",
    "realpath",
    "readlinkSync",
    "readlink",
    "readSync",
    "read",
    "watch",
    "glob",
    "globSync",
    "text",
    "json",
    "arrayBuffer",
    "file",
    // crypto
    "createHash",
    "createHmac",
    "update",
    "digest",
    "randomUUID",
    "randomBytes",
    "randomInt",
    "timingSafeEqual",
    // strings, arrays, objects, numbers
    "split",
    "join",
    "replace",
    "replaceAll",
    "trim",
    "trimStart",
    "trimEnd",
    "toLowerCase",
    "toUpperCase",
    "startsWith",
    "endsWith",
    "includes",
    "indexOf",
    "lastIndexOf",
    "slice",
    "substring",
    "substr",
    "padStart",
    "padEnd",
    "match",
    "matchAll",
    "test",
    "exec",
    "search",
    "map",
    "filter",
    "forEach",
    "reduce",
    "reduceRight",
    "some",
    "every",
    "find",
    "findIndex",
    "findLast",
    "push",
    "pop",
    "shift",
    "unshift",
    "sort",
    "reverse",
    "keys",
    "values",
    "entries",
    "concat",
    "flat",
    "flatMap",
    "at",
    "charAt",
    "charCodeAt",
    "codePointAt",
    "fromCharCode",
    "toString",
    "toFixed",
    "toISOString",
    "toJSON",
    "valueOf",
    "repeat",
    "localeCompare",
    "normalize",
    "has",
    "get",
    "set",
    "add",
    "delete",
    "clear",
    "fill",
    "splice",
    "isArray",
    "from",
    "of",
    "assign",
    "freeze",
    "fromEntries",
    "hasOwnProperty",
    "getOwnPropertyNames",
    "defineProperty",
    "raw",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "isInteger",
    "Number",
    "String",
    "Boolean",
    "Array",
    "Object",
    "Date",
    "now",
    "getTime",
    "getFullYear",
    "Symbol",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "RegExp",
    "Error",
    "TypeError",
    "RangeError",
    "Promise",
    "then",
    "catch",
    "finally",
    "all",
    "allSettled",
    "race",
    "any",
    "resolve",
    "reject",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "setImmediate",
    "TextEncoder",
    "TextDecoder",
    "encode",
    "decode",
    // path, os, url, util, Buffer, Math
    "dirname",
    "basename",
    "extname",
    "relative",
    "isAbsolute",
    "format",
    "toNamespacedPath",
    "fileURLToPath",
    "pathToFileURL",
    "URL",
    "URLSearchParams",
    "inspect",
    "promisify",
    "isDeepStrictEqual",
    "homedir",
    "tmpdir",
    "platform",
    "hostname",
    "cpus",
    "alloc",
    "isBuffer",
    "byteLength",
    "floor",
    "ceil",
    "round",
    "max",
    "min",
    "abs",
    "random",
    "pow",
    "sqrt",
    "trunc",
    "sign",
    "log2",
    "log10",
    "strictEqual",
    "deepStrictEqual",
    "equal",
    "deepEqual",
    "ok",
    "notStrictEqual",
];

/// Receivers of `exec`/`spawn` that are `child_process` by their usual names.
const CHILD: &[&str] = &["child_process", "cp", "childProcess", "child", "proc"];

/// What the tree adds to the lexical findings; `false` when the program is over a cap (then the
/// raw text decides).
pub fn check(text: &str, place: Place, flavor: Flavor, findings: &mut Findings) -> bool {
    let parsed = match flavor {
        Flavor::JavaScript => parse(&PARSER, tree_sitter_javascript::LANGUAGE.into(), text),
        Flavor::TypeScript => match parse(&TYPESCRIPT_PARSER, tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), text)
        {
            Some(tree) if tree.root_node().has_error() => {
                parse(&TSX_PARSER, tree_sitter_typescript::LANGUAGE_TSX.into(), text)
                    .filter(|tsx| !tsx.root_node().has_error())
                    .or(Some(tree))
            }
            parsed => parsed,
        },
    };
    let Some(tree) = parsed else { return false };
    let mut reader = Reader {
        text,
        dir: place.dir,
        temporary: None,
        trust: trust::Trust::default(),
        findings,
        vars: HashMap::new(),
        aliases: HashMap::new(),
        modules: HashMap::new(),
        local: Vec::new(),
        cwd: String::new(),
        bun_files: Vec::new(),
        callee: None,
        regexes: Vec::new(),
        loop_bound: HashMap::new(),
        loop_functions: Default::default(),
    };
    let nodes = in_source_order(tree.root_node());
    reader.collect_local_functions(&nodes);
    reader.collect_loop_bindings(&nodes);
    // Only a program that names a temporary folder's function needs to know what it may have
    // changed first; for any other, the default trusts nothing, which keeps such values uncomputed.
    if std::iter::once(&"tmpdir").chain(TEMPORARY_FOLDER_MAKERS).any(|name| text.contains(name)) {
        reader.trust = reader.trust(&nodes);
    }
    // Node's `os.tmpdir()`: the variable as it is, but a trailing `/`.
    reader.temporary = place.temporary.filter(|_| reader.trust.environment).map(|folder| match folder {
        "/" => folder.to_string(),
        _ => folder.strip_suffix('/').unwrap_or(folder).to_string(),
    });
    reader.walk(&nodes)
}

/// The first [`MAX_ANALYSIS_WORK`] nodes in source order, and one more when there are more: a
/// cursor step costs hundreds of instructions, so the tree is stepped through once for both
/// readings.
fn in_source_order(root: Node) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(root.descendant_count().min(MAX_ANALYSIS_WORK + 1));
    let mut cursor = root.walk();
    loop {
        nodes.push(cursor.node());
        if nodes.len() > MAX_ANALYSIS_WORK {
            return nodes;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return nodes;
            }
        }
    }
}

/// `text` parsed by the thread's parser for `language`, within the parse budget.
fn parse(
    parser: &'static std::thread::LocalKey<RefCell<Option<Parser>>>,
    language: tree_sitter::Language,
    text: &str,
) -> Option<tree_sitter::Tree> {
    parser.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&language).ok()?;
            *slot = Some(parser);
        }
        parse_within(slot.as_mut()?, text, &Budget::new(MAX_PARSE_CHECKS)).ok()
    })
}

/// The value inside a TypeScript type assertion (`p as string`, `p!`, `p satisfies T`, `<T>p`),
/// which the program computes as if the type were not there.
fn type_erased(node: Node) -> Option<Node> {
    match node.kind_name() {
        "as_expression" | "satisfies_expression" | "non_null_expression" => node.named_child(0),
        "type_assertion" => last_named(node),
        _ => None,
    }
}

struct Reader<'t, 'f> {
    text: &'t str,
    dir: &'t Path,
    /// What `os.tmpdir()` gives, when the analysis knows it.
    temporary: Option<String>,
    /// What the program cannot have changed ([`trust::Trust`]).
    trust: trust::Trust,
    findings: &'f mut Findings,
    /// Bound names and `process.env.X` with their string values (`None`: unknown).
    vars: HashMap<String, Option<String>>,
    /// A name bound to a function of a module: `w` → `appendFileSync`.
    aliases: HashMap<String, String>,
    /// A name bound to a module: `cp` → `child_process`.
    modules: HashMap<String, String>,
    /// Functions the program defines (their bodies are read like the rest).
    local: Vec<String>,
    /// The directory `process.chdir` moved to.
    cwd: String,
    /// Names bound to a `Bun.file(…)` (their paths are in `vars`).
    bun_files: Vec<String>,
    /// The node id of the callee of the call visited last.
    callee: Option<usize>,
    /// Names bound to a regular expression (whose `exec` is no process's).
    regexes: Vec<String>,
    /// Names a loop binds, with where the first such loop starts: from there on a name holds
    /// any value a pass gives it, so the walk's one value is not its value.
    loop_bound: HashMap<String, usize>,
    /// Names a loop binds to something that may be a function (`w = fs.unlinkSync`): where such
    /// a name goes, it may be a writer.
    loop_functions: std::collections::HashSet<String>,
}

impl<'t> Reader<'t, '_> {
    fn source(&self, node: Node) -> &'t str {
        self.text.get(node.byte_range()).unwrap_or_default()
    }

    fn unsure(&mut self) {
        self.findings.sure = false;
    }

    /// Every node in source order ([`in_source_order`]); `false` when there are more than the
    /// work cap allows.
    fn walk(&mut self, nodes: &[Node]) -> bool {
        for node in nodes.iter().take(MAX_ANALYSIS_WORK) {
            self.visit(*node);
        }
        nodes.len() <= MAX_ANALYSIS_WORK
    }

    fn collect_local_functions(&mut self, nodes: &[Node]) {
        for node in nodes {
            let declared = match node.kind_name() {
                "function_declaration"
                | "generator_function_declaration"
                | "class_declaration"
                | "method_definition" => node.field("name"),
                "variable_declarator" => node
                    .field("value")
                    .filter(|value| {
                        matches!(value.kind_name(), "arrow_function" | "function_expression" | "function" | "class")
                    })
                    .and(node.field("name")),
                _ => None,
            };
            if let Some(name) = declared {
                self.local.push(self.source(name).to_string());
            }
        }
    }

    /// Records each name a loop binds (`p = …`, `p += …`, `var p`, `for (p of …)`), against the
    /// outermost loop around the binding.
    fn collect_loop_bindings(&mut self, nodes: &[Node]) {
        for node in nodes {
            let target = match node.kind_name() {
                "assignment_expression" | "augmented_assignment_expression" => node.field("left"),
                "update_expression" => node.field("argument"),
                "variable_declarator"
                    if node.parent().is_some_and(|declaration| declaration.kind_name() == "variable_declaration") =>
                {
                    node.field("name")
                }
                "for_in_statement" => node.field("left"),
                _ => None,
            };
            let Some(target) = target else { continue };
            let Some(start) = outermost_loop_start(*node) else { continue };
            let mut names = Vec::new();
            self.bound_names(target, &mut names, 0);
            let value = node.field("right").or_else(|| node.field("value"));
            let function = value.is_some_and(|value| match value.kind_name() {
                "call_expression" => self.function_name(value).is_some(),
                "binary_expression" => self.hands_on(value),
                kind => matches!(
                    kind,
                    "identifier"
                        | "member_expression"
                        | "subscript_expression"
                        | "ternary_expression"
                        | "parenthesized_expression"
                        | "sequence_expression"
                        | "await_expression"
                ),
            });
            for name in names {
                if function && node.kind_name() != "augmented_assignment_expression" {
                    self.loop_functions.insert(name.clone());
                }
                let first = self.loop_bound.entry(name).or_insert(start);
                *first = (*first).min(start);
            }
        }
    }

    /// The names a binding's target binds: a name, a member, or every name in a pattern.
    fn bound_names(&self, target: Node, names: &mut Vec<String>, depth: usize) {
        if depth > MAX_EVAL_DEPTH {
            return;
        }
        match target.kind_name() {
            "identifier" | "member_expression" | "shorthand_property_identifier_pattern" => {
                names.push(self.source(target).to_string());
            }
            _ => {
                let mut cursor = target.walk();
                for child in target.named_children(&mut cursor) {
                    self.bound_names(child, names, depth + 1);
                }
            }
        }
    }

    /// Whether the name read at `node` has the one value the walk holds: not when a loop that
    /// starts before it binds it (the loop's next pass, or the pass after the loop, sees any
    /// value the loop gave it).
    fn settled(&self, node: Node, name: &str) -> bool {
        self.loop_bound.get(name).is_none_or(|start| node.start_byte() < *start)
    }

    fn visit(&mut self, node: Node) {
        match node.kind_name() {
            "variable_declarator" => {
                if let (Some(name), value) = (node.field("name"), node.field("value")) {
                    self.bind(name, value);
                }
            }
            "assignment_expression" => {
                if let Some(left) = node.field("left") {
                    self.bind(left, node.field("right"));
                }
            }
            "augmented_assignment_expression" => {
                if let Some(left) = node.field("left") {
                    let key = self.source(left).to_string();
                    let before = self.vars.get(&key).cloned().flatten();
                    let added = node.field("right").and_then(|r| self.eval(r, 0));
                    let value = before.zip(added).map(|(a, b)| a + &b);
                    self.vars.insert(key, value);
                }
            }
            "import_statement" => self.import(node),
            "call_expression" | "new_expression" => {
                if node.kind_name() == "call_expression" && self.bun_file(node).is_some() && self.loses(node) {
                    self.unsure();
                }
                self.call(node);
            }
            "identifier" | "shorthand_property_identifier" => {
                let name = self.source(node);
                if self.bun_files.iter().any(|file| file == name) && self.loses(node) {
                    self.unsure();
                }
                if self.callee != Some(node.id()) && self.names_writer(node, name) && self.escapes(node) {
                    self.unsure();
                }
            }
            "member_expression" | "subscript_expression"
                if self.callee != Some(node.id()) && self.names_writer(node, "") && self.escapes(node) =>
            {
                self.unsure();
            }
            _ => {}
        }
    }

    /// Whether `node` (a name, a member, a computed member) is a writer, a runner or a code
    /// loader; `name` is a name's text.
    fn names_writer(&self, node: Node, name: &str) -> bool {
        match node.kind_name() {
            "identifier" | "shorthand_property_identifier" => {
                matches!(name, "eval" | "Function" | "require")
                    || self.aliases.get(name).is_some_and(|function| is_known(function))
                    || (self.loop_functions.contains(name) && !self.settled(node, name))
            }
            "member_expression" => {
                node.field("property").is_some_and(|property| self.writer_member(node, self.source(property)))
            }
            _ => self.function_name(node).is_some_and(|function| self.writer_member(node, &function)),
        }
    }

    /// Whether the member `name` of `node`'s object is a writer or runner (`re.exec` is a regular
    /// expression's).
    fn writer_member(&self, node: Node, name: &str) -> bool {
        is_known(name) && (name != "exec" || !node.field("object").is_some_and(|object| self.is_regex(object)))
    }

    /// Whether a writer, runner or code loader referenced at `node` goes where the walk loses it
    /// (`setTimeout(fs.rmSync, 0, p)`, `[p].forEach(fs.unlinkSync)`, `.then(fs.rmSync)`, a
    /// getter's `return fs.unlinkSync`, an object's property), to be called there with whatever
    /// it is given (P-18). It stays in sight where it is called (`fs.rmSync(p)`, `.call`,
    /// `.apply`, a `.bind` called or bound), bound to a name (an alias the walk follows), or
    /// where a property of it is read (`require.resolve`).
    fn escapes(&self, node: Node) -> bool {
        let (mut value, mut parent) = (node, node.parent());
        while let Some(wrapper) = parent.filter(|p| {
            matches!(p.kind_name(), "parenthesized_expression" | "await_expression" | "sequence_expression")
                || type_erased(*p).is_some()
        }) {
            (value, parent) = (wrapper, wrapper.parent());
        }
        let Some(parent) = parent else { return false };
        let is = |field: &'static str| parent.field(field) == Some(value);
        let bare = |field: &'static str| parent.field(field).is_some_and(|n| n.kind_name() == "identifier");
        match parent.kind_name() {
            "call_expression" => !is("function"),
            "new_expression" => !is("constructor"),
            "arguments" if self.promisified(value, parent) => parent.parent().is_none_or(|call| self.escapes(call)),
            "member_expression" if is("object") => {
                let property = parent.field("property").map(|p| self.source(p)).unwrap_or_default();
                property == "bind" && parent.parent().is_none_or(|bound| self.escapes(bound))
            }
            "variable_declarator" => is("value") && !bare("name"),
            "assignment_expression" => is("right") && !bare("left"),
            "expression_statement" => false,
            // Made a string (`'dir/' + f`, `${f}`), a value is not called; `||`, `&&` and `??`
            // hand it on as it is.
            "binary_expression" => self.hands_on(parent),
            "template_substitution" => false,
            // The name a `for … of`/`in` binds, and what it iterates, are not called there.
            "for_in_statement" => false,
            "arguments" if self.printed(parent) => false,
            kind => !BINDING_SITES.contains(&kind),
        }
    }

    /// Whether a binary expression gives one of its operands as it is (`||`, `&&`, `??`), not a
    /// value made of them.
    fn hands_on(&self, binary: Node) -> bool {
        binary.field("operator").is_some_and(|o| matches!(self.source(o), "||" | "&&" | "??"))
    }

    /// Whether `arguments` are a `console` method's, which prints them and calls none, in a
    /// program that names `console` only to call its methods (it cannot have replaced them).
    fn printed(&self, arguments: Node) -> bool {
        let Some(callee) = arguments.parent().and_then(|call| call.field("function")) else { return false };
        let object = callee.field("object").filter(|_| callee.kind_name() == "member_expression");
        object.is_some_and(|object| self.source(object) == "console") && console_only_called(self.text)
    }

    /// Whether a `Bun.file(…)`, or a name bound to one, goes where the walk loses it (into a
    /// list, a parameter, an object, a callback: `for (const f of [Bun.file(p)]) f.write(x)`), so
    /// that a write through it would go unseen. It stays in sight as the receiver of a method or
    /// property (`f.text()`, `f.size`; a writer only when called there), as the value a name or a
    /// declaration binds, and among `Bun.write`'s arguments.
    fn loses(&self, node: Node) -> bool {
        let (mut value, mut parent) = (node, node.parent());
        while let Some(wrapper) = parent.filter(|p| {
            matches!(p.kind_name(), "parenthesized_expression" | "await_expression") || type_erased(*p).is_some()
        }) {
            (value, parent) = (wrapper, wrapper.parent());
        }
        let Some(parent) = parent else { return false };
        let is = |field: &'static str| parent.field(field) == Some(value);
        match parent.kind_name() {
            "member_expression" if is("object") => {
                let property = parent.field("property").map(|p| self.source(p)).unwrap_or_default();
                let called = parent.parent().is_some_and(|call| {
                    call.kind_name() == "call_expression" && call.field("function") == Some(parent)
                });
                BUN_FILE_WRITERS.contains(&property) && !called
            }
            "variable_declarator" => {
                !(is("name") || parent.field("name").is_some_and(|n| n.kind_name() == "identifier"))
            }
            "assignment_expression" => {
                !(is("left") || parent.field("left").is_some_and(|l| l.kind_name() == "identifier"))
            }
            "arguments" => !parent.parent().is_some_and(|call| {
                let function = call.field("function").map(|f| self.source(f)).unwrap_or_default();
                function.strip_suffix(".write").is_some_and(|receiver| is_global(receiver, "Bun"))
            }),
            "expression_statement" => false,
            _ => true,
        }
    }

    /// `x = value`, `const {a: b} = value`, `process.env.X = value`.
    fn bind(&mut self, name: Node, value: Option<Node>) {
        match name.kind_name() {
            "identifier" | "member_expression" => {
                let key = self.source(name).to_string();
                let Some(value) = value else {
                    self.vars.insert(key, None);
                    return;
                };
                if let Some(spec) = self.required(value) {
                    self.modules.insert(key.clone(), spec);
                }
                match self.function_name(value) {
                    Some(function) if is_known(&function) => {
                        self.aliases.insert(key.clone(), function);
                    }
                    _ => {
                        self.aliases.remove(&key);
                    }
                }
                self.bun_files.retain(|file| *file != key);
                if self.bun_file(value).is_some() {
                    self.bun_files.push(key.clone());
                }
                self.regexes.retain(|regex| *regex != key);
                if self.is_regex(value) {
                    self.regexes.push(key.clone());
                }
                let string = self.eval(value, 0);
                self.vars.insert(key, string);
            }
            "object_pattern" => self.destructure(name, value),
            // `[p] = […]`: what each name is given goes uncomputed.
            _ => {
                let mut names = Vec::new();
                self.bound_names(name, &mut names, 0);
                for bound in names {
                    self.aliases.remove(&bound);
                    self.vars.insert(bound, None);
                }
            }
        }
    }

    /// `{appendFileSync: w, rmSync, promises: p}`: each local name is an alias of its property.
    fn destructure(&mut self, pattern: Node, value: Option<Node>) {
        let module = value.and_then(|v| self.required(v));
        let mut cursor = pattern.walk();
        for child in pattern.named_children(&mut cursor) {
            let (property, local) = match child.kind_name() {
                "shorthand_property_identifier_pattern" => (self.source(child).to_string(), child),
                "pair_pattern" => {
                    let (Some(key), Some(local)) = (child.field("key"), child.field("value")) else {
                        continue;
                    };
                    let local = match local.kind_name() {
                        "assignment_pattern" => local.field("left").unwrap_or(local),
                        _ => local,
                    };
                    let key = self.eval(key, 0).unwrap_or_else(|| self.source(key).to_string());
                    (key, local)
                }
                "object_assignment_pattern" => {
                    let Some(left) = child.field("left") else { continue };
                    (self.source(left).to_string(), left)
                }
                _ => continue,
            };
            let local_name = self.source(local).to_string();
            if local.kind_name() == "object_pattern" {
                self.destructure(local, None);
                continue;
            }
            if let Some(module) = &module {
                self.modules.insert(local_name.clone(), format!("{module}/{property}"));
            }
            self.aliases.insert(local_name.clone(), property);
            self.vars.insert(local_name, None);
        }
    }

    /// `import x from 'm'`, `import * as x from 'm'`, `import {a as b} from 'm'`.
    fn import(&mut self, node: Node) {
        let Some(source) = node.field("source") else { return };
        let spec = self.eval(source, 0).unwrap_or_default();
        self.load(&spec);
        let mut cursor = node.walk();
        for clause in node.named_children(&mut cursor).filter(|c| c.kind_name() == "import_clause") {
            let mut inner = clause.walk();
            for part in clause.named_children(&mut inner) {
                match part.kind_name() {
                    "identifier" => {
                        self.modules.insert(self.source(part).to_string(), spec.clone());
                    }
                    "namespace_import" => {
                        let mut names = part.walk();
                        if let Some(name) = part.named_children(&mut names).find(|n| n.kind_name() == "identifier") {
                            self.modules.insert(self.source(name).to_string(), spec.clone());
                        }
                    }
                    "named_imports" => {
                        let mut specifiers = part.walk();
                        for specifier in part.named_children(&mut specifiers) {
                            let Some(name) = specifier.field("name") else { continue };
                            let local = specifier.field("alias").unwrap_or(name);
                            let property = self.source(name).trim_matches(['"', '\'']).to_string();
                            self.modules.insert(self.source(local).to_string(), format!("{spec}/{property}"));
                            self.aliases.insert(self.source(local).to_string(), property);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// A module the program loads: a local file other than this package is code the analysis does
    /// not read.
    fn load(&mut self, spec: &str) {
        let local = spec.starts_with('.') || spec.starts_with('/') || spec.starts_with("file:");
        if spec.is_empty() || local && !super::is_this_package(spec, self.dir) {
            self.unsure();
        }
    }

    /// The module of `require('m')`, `require('m').promises`, `await import('m')`, `import('m')`.
    fn required(&self, node: Node) -> Option<String> {
        if let Some(inner) = type_erased(node) {
            return self.required(inner);
        }
        match node.kind_name() {
            "call_expression" => {
                let function = node.field("function")?;
                if !matches!(self.source(function), "require" | "import") {
                    return None;
                }
                let first = arguments(node).into_iter().next()?;
                self.eval(first, 0)
            }
            "member_expression" => {
                let object = self.required(node.field("object")?)?;
                Some(format!("{object}/{}", self.source(node.field("property")?)))
            }
            "await_expression" | "parenthesized_expression" => self.required(node.named_child(0)?),
            "identifier" => self.modules.get(self.source(node)).cloned(),
            _ => None,
        }
    }

    /// The name of the function a callee or a bound value refers to: `fs.writeFileSync`,
    /// `fs['write' + 'FileSync']`, an alias, `f.bind(x)`.
    fn function_name(&self, node: Node) -> Option<String> {
        if let Some(inner) = type_erased(node) {
            return self.function_name(inner);
        }
        match node.kind_name() {
            "identifier" => {
                let name = self.source(node);
                if !self.settled(node, name) {
                    return None;
                }
                Some(self.aliases.get(name).cloned().unwrap_or_else(|| name.to_string()))
            }
            "member_expression" => Some(self.source(node.field("property")?).to_string()),
            "subscript_expression" => self.eval(node.field("index")?, 0),
            "parenthesized_expression" | "await_expression" => self.function_name(last_named(node)?),
            "sequence_expression" => self.function_name(last_named(node)?),
            "call_expression" => {
                // `fs.writeFileSync.bind(fs)`, `util.promisify(fs.rm)`
                let function = node.field("function")?;
                match self.function_name(function).as_deref() {
                    Some("bind") if function.kind_name() == "member_expression" => {
                        self.function_name(function.field("object")?)
                    }
                    Some("promisify") => self.function_name(*arguments(node).first()?),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `value` is what `util.promisify(value)` wraps: the function it returns is the same
    /// function, followed where it is called or bound.
    fn promisified(&self, value: Node, arguments: Node) -> bool {
        let call = arguments.parent().filter(|call| call.kind_name() == "call_expression");
        let wraps = call.and_then(|call| call.field("function")).and_then(|f| self.function_name(f));
        wraps.as_deref() == Some("promisify") && arguments.named_child(0) == Some(value)
    }

    fn call(&mut self, node: Node) {
        let field = if node.kind_name() == "new_expression" { "constructor" } else { "function" };
        let Some(callee) = node.field(field) else { return };
        // The callee comes next in source order: a call, judged here.
        self.callee = Some(callee.id());
        let Some(args_node) = node.field("arguments") else {
            // `new Foo` without arguments.
            return self.judge_call(callee, Vec::new());
        };
        if args_node.kind_name() == "template_string" {
            return self.tagged(callee, args_node);
        }
        self.judge_call(callee, arguments(node));
    }

    /// zx's `` $`command` ``; `String.raw` and other tags are calls like any other.
    fn tagged(&mut self, callee: Node, template: Node) {
        if self.source(callee) == "$" {
            match self.eval(template, 0) {
                Some(line) => self.command(&self.cwd.clone(), line),
                None => self.unsure(),
            }
        } else {
            self.judge_call(callee, vec![template]);
        }
    }

    fn judge_call<'n>(&mut self, callee: Node<'n>, args: Vec<Node<'n>>) {
        let (callee, args) = self.unwrap_call_apply(callee, args);
        match callee.kind_name() {
            // `import('node:fs')` loads a module as `require` does.
            "import" => {
                return match args.first().and_then(|a| self.eval(*a, 0)) {
                    Some(spec) => self.load(&spec),
                    None => self.unsure(),
                };
            }
            "arrow_function" | "function_expression" | "function" => return,
            "parenthesized_expression"
                if last_named(callee).is_some_and(|n| {
                    matches!(n.kind_name(), "arrow_function" | "function_expression" | "function")
                }) =>
            {
                return;
            }
            _ => {}
        }
        let Some(name) = self.function_name(callee) else { return self.unsure() };
        let receiver = callee.field("object").map(|o| self.source(o)).unwrap_or_default();
        if name == "require" {
            return match args.first().and_then(|a| self.eval(*a, 0)) {
                Some(spec) => self.load(&spec),
                None => self.unsure(),
            };
        }
        if name == "chdir" {
            return match args.first().and_then(|a| self.eval(*a, 0)) {
                Some(dir) => self.cwd = join(&self.cwd, &dir),
                None => self.unsure(),
            };
        }
        if BUN_FILE_WRITERS.contains(&name.as_str())
            && let Some(path) = callee.field("object").and_then(|file| self.bun_file(file))
        {
            return match path {
                Some(path) if !path.is_empty() => self.write(path, false),
                _ => self.unsure(),
            };
        }
        if TEMPORARY_FOLDER_MAKERS.contains(&name.as_str()) {
            return match args.first().and_then(|prefix| self.temporary_folder_made(*prefix)) {
                Some(folder) => self.write(folder, false),
                None => self.unsure(),
            };
        }
        if SYMLINKS.contains(&name.as_str()) {
            self.link_target(&args);
        }
        if let Some((_, indices)) = WRITERS.iter().find(|(writer, _)| *writer == name) {
            let tree_at = TREE_WRITERS.contains(&name.as_str()).then_some(1);
            return self.writes(&args, indices, tree_at);
        }
        if matches!(name.as_str(), "open" | "openSync") {
            return self.open(&args);
        }
        // `Bun.write`, `globalThis.Bun.write`, `Deno.create`.
        let global = |object: &str| is_global(receiver, object);
        if (name == "write" && global("Bun")) || (name == "create" && global("Deno")) {
            return self.writes(&args, &[0], None);
        }
        if self.is_runner(&name, receiver) {
            return self.run(&name, &args);
        }
        // `exec` on a value the walk lost may be child_process's (`[cp][0].exec(…)`).
        if name == "exec" && !callee.field("object").is_some_and(|object| self.is_regex(object)) {
            return self.unsure();
        }
        if OPAQUE.contains(&name.as_str()) {
            return self.unsure();
        }
        // This package's read-only exports are proven too (one list, in `javascript.rs`).
        let read_only = READ_ONLY.contains(&name.as_str()) || super::READ_ONLY_EXPORTS.contains(&name.as_str());
        if read_only || self.local.contains(&name) || name == "$" {
            return;
        }
        self.unsure();
    }

    /// `f.call(this, a)` is `f(a)`; `f.apply(this, [a])` is `f(a)`; `f.bind(this, a)(b)` is `f(a, b)`.
    fn unwrap_call_apply<'n>(&self, callee: Node<'n>, args: Vec<Node<'n>>) -> (Node<'n>, Vec<Node<'n>>) {
        if callee.kind_name() == "member_expression" {
            let property = callee.field("property").map(|p| self.source(p));
            let object = callee.field("object");
            match (property, object) {
                (Some("call"), Some(object)) => return (object, args.into_iter().skip(1).collect()),
                (Some("apply"), Some(object)) => {
                    let spread =
                        args.get(1).filter(|a| a.kind_name() == "array").map(|a| named(*a)).unwrap_or_default();
                    return (object, spread);
                }
                _ => {}
            }
        }
        if callee.kind_name() == "call_expression" {
            let function = callee.field("function");
            let bind = function
                .filter(|f| f.kind_name() == "member_expression")
                .filter(|f| f.field("property").is_some_and(|p| self.source(p) == "bind"));
            if let Some(object) = bind.and_then(|f| f.field("object")) {
                let bound: Vec<Node> = arguments(callee).into_iter().skip(1).chain(args).collect();
                return (object, bound);
            }
        }
        (callee, args)
    }

    fn is_runner(&self, name: &str, receiver: &str) -> bool {
        if !LINE_RUNNERS.contains(&name) && !ARGV_RUNNERS.contains(&name) {
            return false;
        }
        // `re.exec(s)` is a regular expression's; bare names come from destructuring.
        let child_module =
            |module: &str| module.contains("child_process") || module.starts_with("execa") || module.starts_with("zx");
        receiver.is_empty()
            || receiver == "Bun"
            || CHILD.contains(&receiver)
            || receiver.contains("child_process")
            || self.modules.get(receiver).is_some_and(|m| child_module(m))
            || name != "exec"
    }

    /// A regular expression: a literal, `new RegExp(…)`, or a name bound to one.
    fn is_regex(&self, node: Node) -> bool {
        match node.kind_name() {
            "regex" => true,
            "new_expression" => node.field("constructor").is_some_and(|c| self.source(c) == "RegExp"),
            "identifier" => self.regexes.iter().any(|name| name == self.source(node)),
            "parenthesized_expression" => last_named(node).is_some_and(|inner| self.is_regex(inner)),
            _ => false,
        }
    }

    /// `Bun.file(p)` (or a name bound to one): `Some` of its path, `None` inside when unknown.
    fn bun_file(&self, node: Node) -> Option<Option<String>> {
        if let Some(inner) = type_erased(node) {
            return self.bun_file(inner);
        }
        match node.kind_name() {
            "call_expression" => {
                let function = node.field("function")?;
                let receiver = function.field("object").map(|o| self.source(o))?;
                let file = function.field("property").is_some_and(|p| self.source(p) == "file");
                (file && is_global(receiver, "Bun"))
                    .then(|| arguments(node).first().and_then(|path| self.eval(*path, 0)))
            }
            "identifier" => {
                let name = self.source(node);
                self.bun_files.iter().any(|file| file == name).then(|| self.vars.get(name).cloned().flatten())
            }
            "parenthesized_expression" | "await_expression" => self.bun_file(last_named(node)?),
            _ => None,
        }
    }

    /// The arguments at `indices` written; the one at `tree_at` as a tree. A path the arguments
    /// do not show (`w()`, `w(...a)`, `w.apply(fs, a)`) could be any: unsure.
    fn writes(&mut self, args: &[Node], indices: &[usize], tree_at: Option<usize>) {
        let spread = args.iter().position(|a| a.kind_name() == "spread_element");
        for index in indices {
            if spread.is_some_and(|spread| spread <= *index) {
                self.unsure();
                continue;
            }
            let Some(arg) = args.get(*index) else {
                self.unsure();
                continue;
            };
            match self.eval(*arg, 0).or_else(|| self.holed(*arg, 0)) {
                Some(path) if !path.is_empty() => self.write(path, tree_at == Some(*index)),
                _ => self.unsure(),
            }
        }
    }

    /// Where a symbolic link made by `symlink(target, path)` points: `target`, taken from the
    /// folder the link is in, is written by whatever later writes through the link.
    fn link_target(&mut self, args: &[Node]) {
        let value = |at: usize| {
            let arg = args.get(at).filter(|a| a.kind_name() != "spread_element")?;
            self.eval(*arg, 0).or_else(|| self.holed(*arg, 0))
        };
        match (value(0), value(1)) {
            (Some(target), _) if target.starts_with(['/', HOLE]) => self.write(target, false),
            (Some(target), Some(link)) => {
                let folder = match link.rsplit_once('/') {
                    Some(("", _)) => "/",
                    Some((folder, _)) => folder,
                    None => "",
                };
                self.write(join(folder, &target), false);
            }
            _ => self.unsure(),
        }
    }

    /// `open(P)` and `open(P, 'r')` read; any other mode writes.
    fn open(&mut self, args: &[Node]) {
        if args.iter().take(2).any(|a| a.kind_name() == "spread_element") {
            return self.unsure();
        }
        let mode = args.get(1).map(|m| self.eval(*m, 0));
        let reads = match mode {
            None => true,
            Some(Some(mode)) => mode.starts_with('r') && !mode.contains('+'),
            Some(None) => false,
        };
        if !reads {
            self.writes(args, &[0], None);
        }
    }

    /// A path written (a directory filled with a tree when `tree`), as [`Findings::written`]
    /// judges it.
    fn write(&mut self, path: String, tree: bool) {
        let located = if path.starts_with('/') || self.cwd.is_empty() { path } else { join(&self.cwd, &path) };
        self.findings.written(located, tree);
    }

    fn run(&mut self, name: &str, args: &[Node]) {
        let Some(first) = args.first() else { return self.unsure() };
        let Some(options) = self.spawn_options(args) else { return self.unsure() };
        let words = if LINE_RUNNERS.contains(&name) {
            None
        } else if first.kind_name() == "array" {
            Some(named(*first))
        } else {
            // `spawn(cmd, [args], options)` or `spawn(cmd, options)`; arguments in a name or a
            // spread are words the analysis does not see.
            match args.get(1) {
                Some(list) if list.kind_name() == "array" => {
                    Some(std::iter::once(*first).chain(named(*list)).collect())
                }
                Some(options) if options.kind_name() != "object" && !is_function(*options) => return self.unsure(),
                _ => Some(vec![*first]),
            }
        };
        let line = match (words, &options.shell) {
            (None, _) => self.eval(*first, 0),
            // Through a shell, node joins the words with blanks, unquoted.
            (Some(words), Some(_)) => {
                let words: Option<Vec<String>> = words.into_iter().map(|word| self.eval(word, 0)).collect();
                words.map(|words| words.join(" "))
            }
            (Some(words), None) => self.argv(words),
        };
        let line = match (line, options.shell) {
            (Some(line), Some(Some(shell))) => Some(format!("{} -c {}", shell_word(&shell), shell_word(&line))),
            (line, _) => line,
        };
        match line {
            Some(line) => self.command(&options.cwd, line),
            None => self.unsure(),
        }
    }

    /// The options object of a process runner (after the command and its argument list): the
    /// directory it runs in and the shell it runs through. `None` when the analysis cannot read
    /// them (a name, a spread, a computed key or value).
    fn spawn_options(&self, args: &[Node]) -> Option<Spawn> {
        let mut spawn = Spawn { cwd: self.cwd.clone(), shell: None };
        let options = args.iter().skip(1).find(|arg| arg.kind_name() != "array" && !is_function(**arg));
        let Some(options) = options.filter(|o| !matches!(o.kind_name(), "undefined" | "null")) else {
            return Some(spawn);
        };
        if options.kind_name() != "object" {
            return None;
        }
        for property in named(*options) {
            let (key, value) = match property.kind_name() {
                "pair" => (property.field("key")?, property.field("value")?),
                "shorthand_property_identifier" => (property, property),
                "method_definition" => continue,
                _ => return None,
            };
            let key = match key.kind_name() {
                "property_identifier" | "shorthand_property_identifier" => self.source(key).to_string(),
                "string" => string_content(key, self.text),
                _ => return None,
            };
            match (key.as_str(), value.kind_name()) {
                ("cwd", _) => spawn.cwd = join(&self.cwd, &self.eval(value, 0)?),
                ("shell", "true") => spawn.shell = Some(None),
                ("shell", "false") => spawn.shell = None,
                ("shell", _) => spawn.shell = Some(Some(self.eval(value, 0)?)),
                _ => {}
            }
        }
        Some(spawn)
    }

    /// The command line of an argument list; a join whose parts are partly unknown keeps them as
    /// holes (the walk reads each as any name there), and leaves the program unsure.
    fn argv(&mut self, words: Vec<Node>) -> Option<String> {
        let mut holed = false;
        let mut line = Vec::new();
        for word in words {
            let value = match self.eval(word, 0) {
                Some(value) => value,
                None => {
                    holed = true;
                    self.holed(word, 0)?
                }
            };
            line.push(shell_word(&value));
        }
        if holed {
            self.unsure();
        }
        Some(line.join(" ")).filter(|line| !line.is_empty())
    }

    fn command(&mut self, dir: &str, line: String) {
        let line = run_in(dir, line);
        if !self.findings.commands.contains(&line) {
            self.findings.commands.push(line);
        }
    }

    /// The string an expression has, when the program fixes it.
    fn eval(&self, node: Node, depth: usize) -> Option<String> {
        if depth > MAX_EVAL_DEPTH {
            return None;
        }
        if let Some(inner) = type_erased(node) {
            return self.eval(inner, depth + 1);
        }
        let value = match node.kind_name() {
            "string" => Some(string_content(node, self.text)),
            "template_string" => self.template(node, depth),
            "number" => Some(self.source(node).to_string()),
            "binary_expression" => {
                let operator = node.field("operator").map(|o| self.source(o));
                if operator != Some("+") {
                    return None;
                }
                let left = self.eval(node.field("left")?, depth + 1)?;
                let right = self.eval(node.field("right")?, depth + 1)?;
                Some(left + &right)
            }
            "parenthesized_expression" | "await_expression" => self.eval(last_named(node)?, depth + 1),
            "identifier" | "member_expression" => {
                let name = self.source(node);
                self.vars.get(name).filter(|_| self.settled(node, name)).cloned().flatten()
            }
            "call_expression" => self.eval_call(node, depth),
            _ => None,
        };
        value.filter(|v| v.len() <= MAX_VALUE_BYTES)
    }

    /// A join whose parts are partly unknown, the unknown parts as holes; `None` for anything
    /// that is not a join.
    fn holed(&self, node: Node, depth: usize) -> Option<String> {
        if depth > MAX_EVAL_DEPTH {
            return None;
        }
        if let Some(inner) = type_erased(node) {
            return self.holed(inner, depth + 1);
        }
        let part = |child: Node| {
            self.eval(child, depth + 1).or_else(|| self.holed(child, depth + 1)).unwrap_or_else(|| HOLE.to_string())
        };
        let value = match node.kind_name() {
            "binary_expression" if node.field("operator").is_some_and(|o| self.source(o) == "+") => {
                part(node.field("left")?) + &part(node.field("right")?)
            }
            "template_string" => {
                let mut cursor = node.walk();
                let mut out = String::new();
                for child in node.named_children(&mut cursor) {
                    match child.kind_name() {
                        "string_fragment" => out.push_str(self.source(child)),
                        "escape_sequence" => out.push_str(&unescape(self.source(child))),
                        _ => out.push_str(&child.named_child(0).map(part).unwrap_or_else(|| HOLE.to_string())),
                    }
                }
                out
            }
            "parenthesized_expression" => self.holed(last_named(node)?, depth + 1)?,
            _ => return None,
        };
        Some(value).filter(|v| v.len() <= MAX_VALUE_BYTES)
    }

    fn template(&self, node: Node, depth: usize) -> Option<String> {
        let mut out = String::new();
        let mut cursor = node.walk();
        for part in node.named_children(&mut cursor) {
            match part.kind_name() {
                "string_fragment" => out.push_str(self.source(part)),
                "escape_sequence" => out.push_str(&unescape(self.source(part))),
                "template_substitution" => out.push_str(&self.eval(part.named_child(0)?, depth + 1)?),
                _ => return None,
            }
        }
        Some(out)
    }

    /// `path.join(a, b)`, `path.resolve(…)`, `a.concat(b)`, `[a, b].join('/')`, `String(a)`,
    /// `a.toString()`, `a.trim()`, `a.toLowerCase()`, `a.toUpperCase()`.
    fn eval_call(&self, node: Node, depth: usize) -> Option<String> {
        let function = node.field("function")?;
        let args = arguments(node);
        let values = || args.iter().map(|a| self.eval(*a, depth + 1)).collect::<Option<Vec<String>>>();
        let name = self.function_name(function)?;
        let object = function.field("object");
        match name.as_str() {
            "join" if object.is_some_and(|o| o.kind_name() == "array") => {
                let items: Option<Vec<String>> = named(object?).into_iter().map(|i| self.eval(i, depth + 1)).collect();
                let separator = match args.first() {
                    Some(sep) => self.eval(*sep, depth + 1)?,
                    None => ",".to_string(),
                };
                Some(items?.join(&separator))
            }
            "join" | "resolve" | "normalize" => {
                let parts = values()?;
                Some(parts.iter().filter(|p| !p.is_empty()).fold(String::new(), |acc, part| join(&acc, part)))
            }
            "concat" => Some(self.eval(object?, depth + 1)? + &values()?.concat()),
            "String" | "fileURLToPath" => self.eval(*args.first()?, depth + 1),
            "tmpdir" if self.trust.os && self.module_of(function).as_deref() == Some("os") => self.temporary.clone(),
            // The folder `fs.mkdtempSync` made, or `fs.promises.mkdtemp` resolves to.
            "mkdtempSync" | "mkdtemp" if self.trust.fs => {
                let module = if name == "mkdtemp" { "fs/promises" } else { "fs" };
                if self.module_of(function).as_deref() != Some(module) {
                    return None;
                }
                self.temporary_folder_made(*args.first()?)
            }
            "cwd" if object.is_some_and(|o| is_global(self.source(o), "process")) => {
                Some(join(&self.dir.to_string_lossy(), &self.cwd))
            }
            // `Bun.write(Bun.file(p), …)` writes p.
            "file" if object.is_some_and(|o| is_global(self.source(o), "Bun")) => self.eval(*args.first()?, depth + 1),
            "toString" => self.eval(object?, depth + 1),
            "trim" => Some(self.eval(object?, depth + 1)?.trim().to_string()),
            "trimStart" | "trimLeft" => Some(self.eval(object?, depth + 1)?.trim_start().to_string()),
            "trimEnd" | "trimRight" => Some(self.eval(object?, depth + 1)?.trim_end().to_string()),
            // A string pattern, and a replacement without `$` patterns (`$&`, `$1`).
            "replace" | "replaceAll" => {
                let text = self.eval(object?, depth + 1)?;
                let [pattern, replacement] = values()?.try_into().ok()?;
                let count = if name == "replace" { 1 } else { text.matches(pattern.as_str()).count() };
                // The size is known before the text is built.
                if replacement.contains('$')
                    || pattern.is_empty()
                    || text.len() + count * replacement.len() > MAX_VALUE_BYTES
                {
                    return None;
                }
                Some(text.replacen(&pattern, &replacement, count))
            }
            "format" if object.is_some_and(|o| is_util(self.source(o))) => {
                let values = values()?;
                let (format, rest) = values.split_first()?;
                util_format(format, rest)
            }
            "toLowerCase" | "toLocaleLowerCase" => Some(self.eval(object?, depth + 1)?.to_lowercase()),
            "toUpperCase" | "toLocaleUpperCase" => Some(self.eval(object?, depth + 1)?.to_uppercase()),
            _ => None,
        }
    }
}

impl Reader<'_, '_> {
    /// The folder a `mkdtemp` call with this prefix makes: the prefix and its random name.
    fn temporary_folder_made(&self, prefix: Node) -> Option<String> {
        let prefix = self.eval(prefix, 0).or_else(|| self.holed(prefix, 0))?;
        Some(format!("{prefix}{NAME_HOLE}"))
    }

    /// The module a called function is taken from (without `node:`): `fs` for `fs.mkdtempSync`
    /// or a `mkdtempSync` destructured or imported from `node:fs`, `fs/promises` for
    /// `require('fs').promises.mkdtemp`.
    fn module_of(&self, function: Node) -> Option<String> {
        let module = match function.kind_name() {
            "identifier" => self.modules.get(self.source(function))?.rsplit_once('/')?.0.to_string(),
            "member_expression" => self.required(function.field("object")?)?,
            _ => return None,
        };
        Some(module.strip_prefix("node:").unwrap_or(&module).to_string())
    }
}

/// Node's `util` module: `util`, `require('util')`, `require('node:util')`.
fn is_util(receiver: &str) -> bool {
    let module = receiver.trim_start_matches("require(").trim_end_matches(')').trim_matches(['\'', '"', '`']);
    matches!(module.strip_prefix("node:").unwrap_or(module), "util")
}

/// `util.format('%s/p.md', d)`: `%s`, `%d` and `%i` of decimal text filled, `%%` a `%`, the
/// arguments left over appended after a blank; `None` for any other conversion (`%j`, `%o`, `%c`,
/// `%5s`, which Node prints as written) and one without an argument.
fn util_format(format: &str, args: &[String]) -> Option<String> {
    let mut args = args.iter();
    let mut out = String::new();
    for piece in formats::printf_pieces(format) {
        match piece {
            Printf::Text(text) => out.push_str(text),
            Printf::Conversion(conversion) => {
                if !conversion.is_plain() || !matches!(conversion.letter, 's' | 'd' | 'i') {
                    return None;
                }
                out.push_str(&conversion.print(args.next()?, &[])?);
            }
        }
    }
    for arg in args {
        out.push(' ');
        out.push_str(arg);
    }
    Some(out).filter(|v| v.len() <= MAX_VALUE_BYTES)
}

/// `Bun` or `globalThis.Bun` (any owner before the last `.`).
fn is_global(receiver: &str, object: &str) -> bool {
    receiver == object || receiver.strip_suffix(object).is_some_and(|r| r.ends_with('.'))
}

/// Where and how a process runner runs its command line (its options object).
struct Spawn {
    cwd: String,
    /// `shell: true` (`Some(None)`) or the shell's program (`shell: '/bin/bash'`).
    shell: Option<Option<String>>,
}

/// Where the outermost loop around `node` starts, its own statement included (a
/// `for (p of …)`); past [`MAX_LOOP_NESTING`] parents, the program's start.
fn outermost_loop_start(node: Node) -> Option<usize> {
    let mut found = None;
    let mut at = Some(node);
    for _ in 0..MAX_LOOP_NESTING {
        let Some(current) = at else { return found };
        if matches!(current.kind_name(), "for_statement" | "for_in_statement" | "while_statement" | "do_statement") {
            found = Some(current.start_byte());
        }
        at = current.parent();
    }
    at.map_or(found, |_| Some(0))
}

fn is_function(node: Node) -> bool {
    matches!(node.kind_name(), "arrow_function" | "function_expression" | "function")
}

fn is_known(function: &str) -> bool {
    WRITERS.iter().any(|(writer, _)| *writer == function)
        || LINE_RUNNERS.contains(&function)
        || ARGV_RUNNERS.contains(&function)
        || OPAQUE.contains(&function)
        || matches!(function, "open" | "openSync")
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{path}", dir.trim_end_matches('/'))
    }
}

fn arguments(call: Node) -> Vec<Node> {
    call.field("arguments").map(named).unwrap_or_default()
}

fn named(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|n| n.kind_name() != "comment").collect()
}

fn last_named(node: Node) -> Option<Node> {
    named(node).into_iter().last()
}

fn string_content(node: Node, text: &str) -> String {
    let mut out = String::new();
    let mut cursor = node.walk();
    for part in node.named_children(&mut cursor) {
        let piece = text.get(part.byte_range()).unwrap_or_default();
        match part.kind_name() {
            "escape_sequence" => out.push_str(&unescape(piece)),
            _ => out.push_str(piece),
        }
    }
    out
}

/// `\n`, `\t`, `\\`, `\'`: the character meant; others lose the backslash.
fn unescape(sequence: &str) -> String {
    match sequence.strip_prefix('\\') {
        Some("n") => "\n".to_string(),
        Some("t") => "\t".to_string(),
        Some(rest) => rest.to_string(),
        None => sequence.to_string(),
    }
}
