//! The shape of the core, checked: the shared floor (`analysis`) and `paths` import no analysis
//! and not the judge above them, the analyses do not import one another (the shells may consult
//! the command table beneath them, never the reverse), the top-level modules import one another
//! without a cycle, and so do the files inside `analysis/`.
//!
//! Every `src/**/*.rs` file is read for the module paths its code names (`use crate::…`,
//! `crate::…`, `super::…`, `self::…`), with comments and string literals removed first; code
//! compiled only for tests (`#[cfg(test)]` items and the files they declare) is left out, since
//! a test may drive the whole wiring.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The analyses: none of them may be imported by the floor.
const ANALYSES: [&str; 5] = ["bash", "powershell", "programs", "patch", "commands"];
/// The analyses that hand text to one another through `analysis::handoff`, never by importing
/// one another; the command table (`commands`) is among them, below the shells.
const SIBLINGS: [&str; 5] = ["bash", "powershell", "programs", "patch", "commands"];
/// The analyses that may consult the command table beneath them.
const SHELLS: [&str; 2] = ["bash", "powershell"];
/// What sits above the analyses.
const ABOVE: [&str; 3] = ["analyses", "gates", "approval"];
/// The floor every analysis stands on.
const FLOOR: [&str; 2] = ["analysis", "paths"];

/// One source file: its module path (`["bash", "walk"]`; empty for `lib.rs`) and its code.
struct Source {
    module: Vec<String>,
    code: String,
}

/// Which modules import which: each edge with the file that makes it, for the message.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

#[test]
fn the_floor_imports_no_analysis_and_nothing_above_it() {
    let graph = top_level_graph(&sources());
    assert_eq!(floor_violations(&graph), Vec::<String>::new());
}

#[test]
fn the_analyses_do_not_import_one_another() {
    let graph = top_level_graph(&sources());
    assert_eq!(sibling_imports(&graph), Vec::<String>::new());
}

#[test]
fn the_top_level_modules_import_one_another_without_a_cycle() {
    let graph = top_level_graph(&sources());
    assert_eq!(cycle(&graph), None);
}

#[test]
fn the_files_of_the_floor_import_one_another_without_a_cycle() {
    let graph = file_graph(&sources(), "analysis");
    assert!(graph.len() >= 5, "the floor's files were read: {graph:?}");
    assert_eq!(cycle(&graph), None);
}

#[test]
fn the_checker_sees_a_bad_import_and_a_cycle() {
    let file = |module: &[&str], code: &str| Source {
        module: module.iter().map(|part| part.to_string()).collect(),
        code: code_only(code),
    };
    let sound = [
        file(&["analysis", "fs"], "use std::path::Path;\nuse super::budget::Budget;"),
        file(&["analysis", "budget"], "pub struct Budget;"),
        file(&["bash"], "use crate::analysis::{fs, budget::Budget};\nuse crate::paths;"),
        file(&["paths"], "pub fn is_dir() -> bool { crate::analysis::fs::is_dir() }"),
        file(&["gates"], "use crate::{bash, paths};\n#[cfg(test)]\nmod tests {\n    use crate::analyses;\n}"),
        file(&["analyses"], "use crate::gates;"),
    ];
    let graph = top_level_graph(&sound);
    assert_eq!(floor_violations(&graph), Vec::<String>::new());
    assert_eq!(cycle(&graph), None);
    assert_eq!(cycle(&file_graph(&sound, "analysis")), None);

    assert_eq!(sibling_imports(&graph), Vec::<String>::new());
    let sideways = [file(&["bash", "walk"], "use crate::programs::judge;"), file(&["programs"], "")];
    assert_eq!(sibling_imports(&top_level_graph(&sideways)), ["bash imports programs (bash::walk)"]);
    let table = [
        file(&["bash", "walk"], "use crate::commands::{self, Effect};"),
        file(&["powershell"], "use crate::commands::pwsh_host;"),
        file(&["commands", "runners"], "use crate::bash::words::Arg;"),
        file(&["patch"], "const S: usize = crate::commands::BASENAME_STRIP;"),
    ];
    assert_eq!(
        sibling_imports(&top_level_graph(&table)),
        ["patch imports commands (patch)", "commands imports bash (commands::runners)"]
    );

    let upward = [file(&["paths"], "fn f() { crate::bash::cache::is_dir(p) }"), file(&["bash"], "")];
    assert_eq!(floor_violations(&top_level_graph(&upward)), ["paths imports bash (paths)"]);

    let around = [
        file(&["bash", "walk"], "use crate::powershell::write_targets;"),
        file(&["powershell"], "use crate::{analysis::values, bash::{self, Scope}};"),
    ];
    assert_eq!(cycle(&top_level_graph(&around)), Some(vec!["bash".into(), "powershell".into(), "bash".into()]));

    let inside = [
        file(&["analysis", "moves"], "use super::targets::Targets;"),
        file(&["analysis", "targets"], "pub fn f() { super::moves::record_move() }"),
    ];
    assert!(cycle(&file_graph(&inside, "analysis")).is_some());

    let hidden = [file(&["paths"], "// crate::bash::x\nconst S: &str = \"crate::bash::y\";"), file(&["bash"], "")];
    assert_eq!(floor_violations(&top_level_graph(&hidden)), Vec::<String>::new());
}

/// Every non-test source file of the crate.
fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let test_only = test_only_files(&root, &files);
    files
        .iter()
        .filter(|path| !test_only.contains(*path))
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            Source { module: module_of(&root, path), code: code_only(&text) }
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// `src/bash/walk.rs` is `bash::walk`, `src/bash/mod.rs` is `bash`, `src/lib.rs` the root.
fn module_of(root: &Path, path: &Path) -> Vec<String> {
    let relative = path.strip_prefix(root).unwrap_or(path).with_extension("");
    let mut module: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
        module.pop();
    }
    module
}

/// The files declared behind `#[cfg(test)]` (`mod tests;`), and every file beneath them.
fn test_only_files(root: &Path, files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let module = module_of(root, path);
        let lines: Vec<&str> = text.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            if line.trim() != "#[cfg(test)]" {
                continue;
            }
            let declared = lines.get(at + 1).and_then(|next| next.trim().split_once("mod ")).map(|(_, rest)| rest);
            if let Some(name) = declared.and_then(|rest| rest.strip_suffix(';')) {
                test_modules.push(module.iter().cloned().chain([name.to_string()]).collect());
            }
        }
    }
    files
        .iter()
        .filter(|path| {
            let module = module_of(root, path);
            test_modules.iter().any(|test| module.starts_with(test))
        })
        .cloned()
        .collect()
}

/// The code of a file without comments, string and character literals, and `#[cfg(test)]` items.
fn code_only(text: &str) -> String {
    without_test_items(&without_literals(text))
}

/// Comments and literals blanked; lifetimes (`'a`) kept as code.
fn without_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        let next = chars.get(at + 1).copied();
        if c == '/' && next == Some('/') {
            while chars.get(at).is_some_and(|&c| c != '\n') {
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            at = chars
                .windows(2)
                .skip(at + 2)
                .position(|pair| pair == ['*', '/'])
                .map_or(chars.len(), |end| at + end + 4);
        } else if let Some(end) = raw_string_end(&chars, at) {
            at = end;
            out.push_str("\"\"");
        } else if c == '"' {
            at += 1;
            while let Some(&c) = chars.get(at) {
                at += if c == '\\' { 2 } else { 1 };
                if c == '"' {
                    break;
                }
            }
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            at = chars.iter().skip(at + 2).position(|&c| c == '\'').map_or(chars.len(), |end| at + end + 3);
            out.push_str("' '");
        } else if c == '\'' && chars.get(at + 2) == Some(&'\'') {
            at += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            at += 1;
        }
    }
    out
}

/// Where a raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `at` ends.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let starts_word = at == 0 || chars.get(at - 1).is_some_and(|c| !c.is_alphanumeric() && *c != '_');
    let mut p = at + usize::from(chars.get(at) == Some(&'b'));
    if !starts_word || chars.get(p) != Some(&'r') {
        return None;
    }
    p += 1;
    let hashes = chars.iter().skip(p).take_while(|&&c| c == '#').count();
    p += hashes;
    if chars.get(p) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let end = chars.windows(closing.len()).skip(p + 1).position(|window| window == closing.as_slice());
    Some(end.map_or(chars.len(), |end| p + 1 + end + closing.len()))
}

/// The item after each `#[cfg(test)]` removed: a `use` up to its `;`, another one-line item, or
/// everything up to the `}` that closes the item at its own indentation (rustfmt's layout).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut lines = code.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let Some(item) = lines.next() else { break };
        if item.trim_start().starts_with("use ") || item.trim_start().starts_with("pub use ") {
            if !item.trim_end().ends_with(';') {
                lines.by_ref().find(|rest| rest.trim_end().ends_with(';'));
            }
            continue;
        }
        if item.trim_end().ends_with(';') {
            continue;
        }
        let indent = item.len() - item.trim_start().len();
        let closing = format!("{}}}", " ".repeat(indent));
        for rest in lines.by_ref() {
            if rest.trim_end() == closing {
                break;
            }
        }
    }
    out
}

/// The absolute module paths `code`, in `module`, names: `crate::a::{b, c::D}` is `a::b` and
/// `a::c::D`; `super::x` and `self::x` are resolved against `module`.
fn references(module: &[String], code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let before_is_word = at > 0 && chars.get(at - 1).is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == ':');
        let word: String = chars.iter().skip(at).take_while(|c| c.is_alphanumeric() || **c == '_').collect();
        if before_is_word || word.is_empty() {
            at += 1;
            continue;
        }
        let start: Option<Vec<String>> = match word.as_str() {
            "crate" => Some(Vec::new()),
            "self" => Some(module.to_vec()),
            "super" => Some(module.get(..module.len().saturating_sub(1)).unwrap_or_default().to_vec()),
            _ => None,
        };
        at += word.chars().count();
        if let Some(prefix) = start
            && chars.get(at..at + 2) == Some(&[':', ':'])
        {
            let mut paths = Vec::new();
            at = tree(&chars, at + 2, prefix, &mut paths);
            found.extend(paths);
        }
    }
    found
}

/// Reads a use tree at `at` (after `::`): a path, or a `{…}` group of trees.
fn tree(chars: &[char], mut at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        while chars.get(at).is_some_and(|c| c.is_whitespace()) {
            at += 1;
        }
        if chars.get(at) == Some(&'{') {
            at += 1;
            loop {
                at = tree(chars, at, path.clone(), out);
                while chars.get(at).is_some_and(|c| c.is_whitespace() || *c == ',') {
                    at += 1;
                }
                match chars.get(at) {
                    Some('}') => return at + 1,
                    None => return at,
                    _ => {}
                }
            }
        }
        let word: String = chars.iter().skip(at).take_while(|c| c.is_alphanumeric() || **c == '_').collect();
        if word.is_empty() {
            out.push(path);
            return at;
        }
        at += word.chars().count();
        match word.as_str() {
            "super" => {
                path.pop();
            }
            "self" => {}
            _ => path.push(word),
        }
        if chars.get(at..at + 2) != Some(&[':', ':']) {
            out.push(path);
            return at;
        }
        at += 2;
    }
}

/// Top-level module → the top-level modules it names (`lib.rs` and the crate's own re-exports
/// are left out).
fn top_level_graph(sources: &[Source]) -> Graph {
    let known: BTreeSet<&str> = sources.iter().filter_map(|source| source.module.first()).map(String::as_str).collect();
    let mut graph = Graph::new();
    for source in sources {
        let Some(from) = source.module.first() else { continue };
        let edges = graph.entry(from.clone()).or_default();
        for reference in references(&source.module, &source.code) {
            if let Some(to) = reference.first()
                && to != from
                && known.contains(to.as_str())
            {
                edges.entry(to.clone()).or_insert_with(|| source.module.join("::"));
            }
        }
    }
    graph
}

/// Within top-level module `within`: file → the files of it that it names.
fn file_graph(sources: &[Source], within: &str) -> Graph {
    let inside: Vec<&Source> =
        sources.iter().filter(|source| source.module.first().is_some_and(|m| m == within)).collect();
    let files: BTreeSet<String> = inside.iter().map(|source| source.module.join("::")).collect();
    let mut graph = Graph::new();
    for source in &inside {
        let from = source.module.join("::");
        let edges = graph.entry(from.clone()).or_default();
        for reference in references(&source.module, &source.code) {
            // The longest prefix that is a file of the module: `analysis::fs::is_dir` is `analysis::fs`.
            let file = (1..=reference.len())
                .rev()
                .filter_map(|len| reference.get(..len))
                .map(|part| part.join("::"))
                .find(|name| files.contains(name));
            if let Some(to) = file
                && to != from
                && to != within
            {
                edges.entry(to).or_insert_with(|| from.clone());
            }
        }
    }
    graph
}

/// Each import of an analysis or of what sits above them by the floor, as `from imports to (file)`.
fn floor_violations(graph: &Graph) -> Vec<String> {
    let mut violations = Vec::new();
    for floor in FLOOR {
        for (to, file) in graph.get(floor).into_iter().flatten() {
            if ANALYSES.contains(&to.as_str()) || ABOVE.contains(&to.as_str()) {
                violations.push(format!("{floor} imports {to} ({file})"));
            }
        }
    }
    violations
}

/// Each import of one analysis by another, as `from imports to (file)`: all but a shell's import
/// of the command table.
fn sibling_imports(graph: &Graph) -> Vec<String> {
    let mut imports = Vec::new();
    for from in SIBLINGS {
        for (to, file) in graph.get(from).into_iter().flatten() {
            let table_below_shell = to == "commands" && SHELLS.contains(&from);
            if SIBLINGS.contains(&to.as_str()) && !table_below_shell {
                imports.push(format!("{from} imports {to} ({file})"));
            }
        }
    }
    imports
}

/// A cycle of the graph, as the nodes around it with the first repeated at the end; `None` when
/// there is none.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: BTreeMap<&str, Mark> = BTreeMap::new();
    for start in graph.keys() {
        if marks.contains_key(start.as_str()) {
            continue;
        }
        // Depth first, iteratively: the path from `start` and, for each node on it, the edges left.
        let mut path: Vec<(&str, Vec<&str>)> = vec![(start, successors(graph, start))];
        marks.insert(start, Mark::Open);
        while let Some((node, left)) = path.last_mut() {
            let node: &str = node;
            let Some(next) = left.pop() else {
                marks.insert(node, Mark::Done);
                path.pop();
                continue;
            };
            match marks.get(next) {
                Some(Mark::Open) => {
                    let from = path.iter().position(|(on, _)| *on == next).unwrap_or(0);
                    let mut around: Vec<String> = path.iter().skip(from).map(|(on, _)| on.to_string()).collect();
                    around.push(next.to_string());
                    return Some(around);
                }
                Some(Mark::Done) => {}
                None => {
                    marks.insert(next, Mark::Open);
                    path.push((next, successors(graph, next)));
                }
            }
        }
    }
    None
}

/// The nodes `node` points at, last first (so the walk takes them in order).
fn successors<'g>(graph: &'g Graph, node: &str) -> Vec<&'g str> {
    graph.get(node).map(|edges| edges.keys().rev().map(String::as_str).collect()).unwrap_or_default()
}
