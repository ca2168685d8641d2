//! One tree-sitter PowerShell parser per thread, reused across calls, with a deterministic work
//! budget shared by a command and the scripts nested in it.

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

use crate::analysis::budget::{Budget, Unscannable, parse_within};

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `source` as PowerShell, charging `checks` (tree-sitter progress checks, each about 100
/// parser operations). tree-sitter always returns a tree; syntax errors are nodes in it.
pub fn parse(source: &str, checks: &Budget) -> Result<Tree, Unscannable> {
    PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| Unscannable::ParserUnavailable)?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_powershell::LANGUAGE.into())
                .map_err(|_| Unscannable::ParserUnavailable)?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut().ok_or(Unscannable::ParserUnavailable)?;
        parse_within(parser, source, checks)
    })
}
