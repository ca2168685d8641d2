//! Deterministic work budgets, never timers: what one command line may still cost, in units its
//! analysis chooses (parser progress checks, bytes of text), and the parse charged to one.

use std::cell::Cell;
use std::ops::ControlFlow;

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

/// Why a command is not analysed; the gates then judge its raw text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unscannable {
    /// Longer than the analysis's size cap.
    TooLarge,
    /// The parser's work budget ran out.
    TooComplex,
    /// A syntax tree deeper than the analysis walks.
    TooDeep,
    /// Scripts nested in one another (`bash -c`, `eval`, `Invoke-Expression`) deeper than allowed.
    ScriptsTooDeep,
    /// A word or an argument that expands to more values than are kept.
    ExpansionTooLarge,
    /// A command whose words expand to more words together than are kept.
    TooManyWords,
    /// More text from nested scripts and expansions than the line may grow into.
    TooMuchText,
    /// More files written (or directory changes made) than are judged.
    TooManyTargets,
    /// The parser could not be set up (a build defect, not a property of the command).
    ParserUnavailable,
}

/// What is left of one work budget. Every step charges what it costs; once a charge does not
/// fit, the budget is exhausted and stays so, and the analysis stops with its cap's
/// [`Unscannable`]. Shared by reference, so nested scripts charge the same budget.
pub struct Budget {
    left: Cell<usize>,
    exhausted: Cell<bool>,
}

impl Budget {
    pub fn new(units: usize) -> Self {
        Budget { left: Cell::new(units), exhausted: Cell::new(false) }
    }

    /// Takes `units` from the budget; `false` once it is exhausted.
    pub fn charge(&self, units: usize) -> bool {
        match self.left.get().checked_sub(units) {
            Some(rest) if !self.exhausted.get() => {
                self.left.set(rest);
                true
            }
            _ => {
                self.exhausted.set(true);
                false
            }
        }
    }

    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }
}

/// One parse charged to `checks` (tree-sitter progress checks, each about 100 parser
/// operations), for every grammar the core parses with: out of checks, the parse stops and the
/// text is [`Unscannable::TooComplex`].
pub fn parse_within(parser: &mut Parser, source: &str, checks: &Budget) -> Result<Tree, Unscannable> {
    // A parse cut short would otherwise resume on the next call.
    parser.reset();
    let bytes = source.as_bytes();
    let mut exhausted = false;
    let mut progress = |_: &ParseState| {
        if checks.charge(1) {
            ControlFlow::Continue(())
        } else {
            exhausted = true;
            ControlFlow::Break(())
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exhausted_budget_stays_exhausted() {
        let budget = Budget::new(5);
        assert!(budget.charge(3));
        assert!(!budget.charge(3));
        assert!(budget.exhausted());
        assert!(!budget.charge(1), "the two units left are not given out once it ran out");
    }

    #[test]
    fn a_parse_over_its_checks_is_too_complex() {
        let mut parser = Parser::new();
        parser.set_language(&tree_sitter_bash::LANGUAGE.into()).expect("grammar");
        let long: String = (0..2_000).map(|n| format!("echo {n} | cat\n")).collect();
        assert_eq!(parse_within(&mut parser, &long, &Budget::new(1)).err(), Some(Unscannable::TooComplex));
        assert!(parse_within(&mut parser, "echo hi", &Budget::new(1_000)).is_ok());
    }
}
