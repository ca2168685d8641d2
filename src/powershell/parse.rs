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

/// Where `tree` read a path typed as a command name (`./x.ps1 $p`) as the dot-source operator
/// `.` followed by broken text: tree-sitter-powershell cannot start a command name with `/`, so
/// unless its lexer takes the whole path as one name it splits off the `.`, and what follows
/// becomes an ERROR node and a dot-sourced command named by the next word (`$p`). PowerShell reads
/// a `.` right before `/` or `\` as the start of the name, never as the operator (that needs a
/// blank: `. ./x.ps1`). The byte offsets of those `.`s.
pub fn misread_path_names(source: &str, tree: &Tree) -> Vec<usize> {
    let bytes = source.as_bytes();
    let root = tree.root_node();
    (0..bytes.len().saturating_sub(1))
        .filter(|&at| bytes.get(at) == Some(&b'.') && matches!(bytes.get(at + 1), Some(b'/' | b'\\')))
        .filter(|&at| {
            let Some(node) = root.descendant_for_byte_range(at, at + 1) else { return false };
            let operator = if node.kind() == "command_invokation_operator" { Some(node) } else { node.parent() };
            operator.is_some_and(|op| op.kind() == "command_invokation_operator" && op.byte_range() == (at..at + 1))
        })
        .collect()
}

/// `source` with the call operator `& ` before each of the path names at `starts` (offsets from
/// [`misread_path_names`]): what PowerShell runs the same way (`./x.ps1 $p` is `& ./x.ps1 $p`),
/// in a spelling the grammar reads as a command.
pub fn with_call_operators(source: &str, starts: &[usize]) -> String {
    let mut text = String::with_capacity(source.len() + 2 * starts.len());
    let mut at = 0;
    for &start in starts {
        text.push_str(source.get(at..start).unwrap_or_default());
        text.push_str("& ");
        at = start;
    }
    text.push_str(source.get(at..).unwrap_or_default());
    text
}
