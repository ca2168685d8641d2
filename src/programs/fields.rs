//! A grammar node's child by field name, at the cost of a number. Tree-sitter turns a field's
//! name into its number by comparing the name with the grammar's field names one by one, on
//! every call: a twentieth of a 1 KB Python program's analysis (callgrind). Here each name's
//! number is kept after its first lookup, found again by where the name is (the names are
//! literals) and which grammar asks.
//!
//! (A direct-mapped table of 128 slots indexed by the address missed a third of the lookups of
//! a JavaScript program: the literals of neighbouring names shared slots.)

use std::cell::RefCell;

use tree_sitter::{Language, Node};

/// Slots of the cache of numbers, in pairs: a name looks in the two slots of its pair, so two
/// names whose addresses fall in one pair (or one name in two grammars) are both kept.
const SLOTS: usize = 256;

/// A field name's number in one grammar (`None`: the grammar has no such field).
struct Known {
    name: &'static str,
    language: Language,
    id: Option<u16>,
}

thread_local! {
    static KNOWN: RefCell<Vec<Option<Known>>> = RefCell::new((0..SLOTS).map(|_| None).collect());
}

pub trait Fields<'t> {
    /// The child in field `name`, as [`Node::child_by_field_name`] finds it.
    fn field(&self, name: &'static str) -> Option<Node<'t>>;

    /// The node's kind, as [`Node::kind`] names it, from a table of the grammar's names:
    /// `Node::kind` measures and validates the name as UTF-8 on every call.
    fn kind_name(&self) -> &'t str;
}

impl<'t> Fields<'t> for Node<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        field_id(&self.language(), name).and_then(|id| self.child_by_field_id(id))
    }

    fn kind_name(&self) -> &'t str {
        let id = usize::from(self.kind_id());
        let known = KIND_NAMES.with(|tables| {
            let mut tables = tables.try_borrow_mut().ok()?;
            let language = self.language();
            let at = match tables.iter().position(|(known, _)| *known == *language) {
                Some(at) => at,
                None => {
                    tables.push((language.clone(), kind_names(&language)));
                    tables.len() - 1
                }
            };
            tables.get(at)?.1.get(id).copied()
        });
        // The error symbols are numbered past the table.
        known.unwrap_or_else(|| self.kind())
    }
}

thread_local! {
    /// Each grammar's kind names by number, made once per thread and grammar.
    static KIND_NAMES: RefCell<Vec<(Language, &'static [&'static str])>> = const { RefCell::new(Vec::new()) };
}

/// The names of `language`'s kinds by number. Kept for the life of the process: a few kilobytes
/// a grammar and thread, the grammars being static themselves.
fn kind_names(language: &Language) -> &'static [&'static str] {
    let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
    let names: Vec<&'static str> =
        (0..count).map(|id| &*Box::leak(language.node_kind_for_id(id).unwrap_or_default().into())).collect();
    Box::leak(names.into_boxed_slice())
}

/// The first slot of `name`'s pair: the literals' addresses lie close together, so they are
/// spread by a multiplicative hash rather than taken modulo the table.
fn pair_of(name: &'static str) -> usize {
    let spread = (name.as_ptr() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (spread >> (64 - SLOTS.trailing_zeros())) as usize & !1
}

fn field_id(language: &Language, name: &'static str) -> Option<u16> {
    let pair = pair_of(name);
    let same = |known: &&Known| std::ptr::eq(known.name, name) && known.language == *language;
    let cached = KNOWN
        .with(|known| known.try_borrow().ok()?.get(pair..pair + 2)?.iter().flatten().find(same).map(|known| known.id));
    if let Some(id) = cached {
        return id;
    }
    let id = language.field_id_for_name(name).map(u16::from);
    KNOWN.with(|known| {
        if let Ok(mut known) = known.try_borrow_mut()
            && let Some(slots) = known.get_mut(pair..pair + 2)
        {
            // The newest in the first slot, the one it displaces in the second.
            slots.swap(0, 1);
            slots[0] = Some(Known { name, language: language.clone(), id });
        }
    });
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(language: Language, text: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language).expect("grammar");
        parser.parse(text, None).expect("tree")
    }

    /// Every field of every node, asked by number and by name, in two grammars that number
    /// their fields differently, asked in turns so each finds the other's numbers cached.
    #[test]
    fn a_field_by_number_is_the_field_by_name_in_each_grammar() {
        const NAMES: [&str; 8] = ["left", "right", "function", "arguments", "name", "value", "object", "body"];
        let python = parsed(tree_sitter_python::LANGUAGE.into(), "x = f(a, b=c)\ndef g(y): return y.z\n");
        let javascript =
            parsed(tree_sitter_javascript::LANGUAGE.into(), "x = f(a, {b: c}); function g(y) { return y.z }");
        let mut checked = 0;
        for _ in 0..2 {
            for tree in [&python, &javascript] {
                let mut stack = vec![tree.root_node()];
                while let Some(node) = stack.pop() {
                    for name in NAMES {
                        assert_eq!(node.field(name), node.child_by_field_name(name), "{name} of {}", node.kind());
                        checked += usize::from(node.field(name).is_some());
                    }
                    let mut cursor = node.walk();
                    stack.extend(node.children(&mut cursor));
                }
            }
        }
        assert!(checked > 20, "{checked} fields found");
    }

    /// Every node's kind from the table is its kind by name, error nodes included, in each
    /// grammar the programs are read with.
    #[test]
    fn a_kind_from_the_table_is_the_kind_by_name() {
        let trees = [
            parsed(tree_sitter_python::LANGUAGE.into(), "x = f(a, b=c)\ndef g(y): return y.z\nif (:\n"),
            parsed(tree_sitter_javascript::LANGUAGE.into(), "x = f(a, {b: c}); function g(y) { return y.z } )("),
            parsed(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), "let x: number = f<T>(a) as any; }{"),
        ];
        let mut errors = 0;
        for _ in 0..2 {
            for tree in &trees {
                let mut stack = vec![tree.root_node()];
                while let Some(node) = stack.pop() {
                    assert_eq!(node.kind_name(), node.kind());
                    errors += usize::from(node.is_error());
                    let mut cursor = node.walk();
                    stack.extend(node.children(&mut cursor));
                }
            }
        }
        assert!(errors >= 3, "{errors} error nodes seen");
    }
}
