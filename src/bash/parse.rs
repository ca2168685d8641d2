//! One tree-sitter parser per thread, reused across calls, with a deterministic work budget.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::sync::OnceLock;

use tree_sitter::{Language, Node, Parser, Tree, TreeCursor};

use super::Unscannable;
use crate::analysis::budget::{Budget, parse_within};

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `source` as bash. tree-sitter always returns a tree; syntax errors are nodes in it.
pub fn parse(source: &str, budget: &Budget) -> Result<Tree, Unscannable> {
    PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| Unscannable::ParserUnavailable)?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&tree_sitter_bash::LANGUAGE.into()).map_err(|_| Unscannable::ParserUnavailable)?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut().ok_or(Unscannable::ParserUnavailable)?;
        parse_within(parser, source, budget)
    })
}

/// Node kind and field names by id, read once from the grammar: `Node::kind` and
/// `TreeCursor::field_name` measure and validate a C string on every call, and the walker asks
/// for every node.
struct Names {
    kinds: Vec<&'static str>,
    fields: Vec<Option<&'static str>>,
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        static LANGUAGE: OnceLock<Language> = OnceLock::new();
        let language: &'static Language = LANGUAGE.get_or_init(|| tree_sitter_bash::LANGUAGE.into());
        // The grammar's names are static: borrowed, not copied (a hook process builds this table
        // on every call).
        let kinds = (0..language.node_kind_count())
            .map(|id| u16::try_from(id).ok().and_then(|id| language.node_kind_for_id(id)).unwrap_or(""))
            .collect();
        let fields = (0..=language.field_count())
            .map(|id| u16::try_from(id).ok().and_then(|id| language.field_name_for_id(id)))
            .collect();
        Names { kinds, fields }
    })
}

/// `node.kind()`, from the table.
pub fn node_kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    match node.borrow().kind_id() {
        // tree-sitter's reserved symbols for syntax errors, outside the grammar's table.
        u16::MAX => "ERROR",
        ERROR_REPEAT => "_ERROR",
        id => names().kinds.get(usize::from(id)).copied().unwrap_or(""),
    }
}

const ERROR_REPEAT: u16 = u16::MAX - 1;

/// `cursor.field_name()`, from the table.
pub fn field_name(cursor: &TreeCursor) -> Option<&'static str> {
    let id = cursor.field_id()?;
    *names().fields.get(usize::from(id.get()))?
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// How often the parser resumed a paused stack version (began error recovery) on `source`,
    /// and whether the tree has an error.
    fn recoveries(source: &str) -> (usize, bool) {
        let resumed = Arc::new(Mutex::new(0));
        let count = Arc::clone(&resumed);
        let mut parser = Parser::new();
        parser.set_language(&tree_sitter_bash::LANGUAGE.into()).expect("grammar");
        parser.set_logger(Some(Box::new(move |_, message: &str| {
            if message.starts_with("resume version") {
                *count.lock().expect("counter") += 1;
            }
        })));
        let tree = parser.parse(source, None).expect("parses");
        drop(parser);
        let resumed = *resumed.lock().expect("counter");
        (resumed, tree.root_node().has_error())
    }

    #[test]
    fn a_clean_pipeline_is_parsed_without_error_recovery() {
        // Unpatched, tree-sitter 0.27.1 resumes the losing, paused version of every pipeline of
        // three stages or more after the clean tree is finished (vendor/README.md).
        let stages =
            ["cat f", "grep -v x", "sed s/a/b/", "sort", "uniq -c", "sort -rn", "head -20", "tr a b", "cut -c1-8"];
        for count in 2..=stages.len() {
            let pipeline = stages[..count].join(" | ");
            assert_eq!(recoveries(&pipeline), (0, false), "{pipeline}");
        }
    }

    #[test]
    fn a_line_with_a_syntax_error_is_still_recovered() {
        let (resumed, has_error) = recoveries("cat f | grep x | ) sort");
        assert!(resumed > 0 && has_error);
    }
}
