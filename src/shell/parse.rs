//! One tree-sitter parser per thread, reused across calls, with a deterministic work budget.

use std::cell::RefCell;
use std::ops::ControlFlow;

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

use super::Unscannable;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// What is left of the parser's work budget for one command and the scripts nested in it.
pub struct Budget {
    checks_left: usize,
}

impl Budget {
    pub fn new(checks: usize) -> Self {
        Budget { checks_left: checks }
    }
}

/// Parses `source` as bash. tree-sitter always returns a tree; syntax errors are nodes in it.
pub fn parse(source: &str, budget: &mut Budget) -> Result<Tree, Unscannable> {
    PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| Unscannable::ParserUnavailable)?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .map_err(|_| Unscannable::ParserUnavailable)?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut().ok_or(Unscannable::ParserUnavailable)?;
        // A parse cut short would otherwise resume on the next call.
        parser.reset();
        let bytes = source.as_bytes();
        let mut exhausted = false;
        let mut progress = |_: &ParseState| {
            if budget.checks_left == 0 {
                exhausted = true;
                ControlFlow::Break(())
            } else {
                budget.checks_left -= 1;
                ControlFlow::Continue(())
            }
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if exhausted {
            parser.reset();
            return Err(Unscannable::TooComplex);
        }
        tree.ok_or(Unscannable::ParserUnavailable)
    })
}
