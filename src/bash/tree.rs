//! A bash syntax tree laid out flat, in pre-order, read by index. The walk asks the same nodes
//! for their children, fields and kinds many times over; through tree-sitter each such question
//! is a cursor step or a node call that looks through hidden nodes and the grammar's tables. Here
//! the tree is read once with a cursor (one step per node) and every later question is a load.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::ops::Range;
use std::sync::OnceLock;

use tree_sitter::{Language, Tree};

use super::Unscannable;
use super::parse::{field_name, node_kind as kind_of};

/// No such node (the root's parent, a last child's next sibling).
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Entry {
    kind: &'static str,
    /// The field this node fills in its parent.
    field: Option<&'static str>,
    start: u32,
    end: u32,
    parent: u32,
    next_sibling: u32,
    /// Its first child, when it has any, is the next entry.
    child_count: u32,
    named: bool,
    missing: bool,
    /// It or a node inside it is a syntax error.
    error: bool,
}

/// Where an index would point outside the array (never, by construction): an empty leaf.
const NO_ENTRY: Entry = Entry {
    kind: "",
    field: None,
    start: 0,
    end: 0,
    parent: NONE,
    next_sibling: NONE,
    child_count: 0,
    named: false,
    missing: false,
    error: false,
};

/// One parsed script's nodes.
pub struct Flat {
    entries: Vec<Entry>,
}

impl Flat {
    /// Every node of `tree` in pre-order, with its kind, field, byte range and links. A source
    /// over 4 GiB (far past every cap) is [`Unscannable::TooLarge`].
    pub fn new(tree: &Tree) -> Result<Flat, Unscannable> {
        let root = tree.root_node();
        let mut entries =
            POOL.with(|pool| pool.try_borrow_mut().ok().and_then(|mut pool| pool.pop())).unwrap_or_default();
        entries.reserve(root.descendant_count());
        let offset = |byte: usize| u32::try_from(byte).map_err(|_| Unscannable::TooLarge);
        // A missing node is an error, and an error marks every node around it: in a tree without
        // one, no node needs asking.
        let clean = !root.has_error();
        let named = named_kinds();
        let mut cursor = root.walk();
        let mut parent = NONE;
        loop {
            let node = cursor.node();
            let at = offset(entries.len())?;
            if let Some(up) = entries.get_mut(index(parent)) {
                up.child_count += 1;
            }
            entries.push(Entry {
                kind: kind_of(node),
                field: field_name(&cursor),
                start: offset(node.start_byte())?,
                end: offset(node.end_byte())?,
                parent,
                next_sibling: NONE,
                child_count: 0,
                named: named.get(usize::from(node.kind_id())).copied().unwrap_or(true),
                missing: !clean && node.is_missing(),
                error: !clean && node.has_error(),
            });
            if cursor.goto_first_child() {
                parent = at;
                continue;
            }
            // Up from the node just read until one has a next sibling.
            let mut done = at;
            loop {
                let up = entries.get(index(done)).map_or(NONE, |entry| entry.parent);
                if up == NONE {
                    return Ok(Flat { entries });
                }
                if cursor.goto_next_sibling() {
                    let next = offset(entries.len())?;
                    if let Some(entry) = entries.get_mut(index(done)) {
                        entry.next_sibling = next;
                    }
                    parent = up;
                    break;
                }
                cursor.goto_parent();
                done = up;
            }
        }
    }

    pub fn root(&self) -> Node<'_> {
        Node { flat: self, at: 0 }
    }
}

/// A few arrays kept per thread for the next trees (a command and the scripts nested in it):
/// each is one large allocation, the walk's largest.
const POOLED_ARRAYS: usize = 8;
/// Arrays with room for more nodes than this are freed, not kept (a 60 KB script's).
const MAX_POOLED_NODES: usize = 4_096;

thread_local! {
    static POOL: RefCell<Vec<Vec<Entry>>> = const { RefCell::new(Vec::new()) };
}

impl Drop for Flat {
    fn drop(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        if entries.capacity() > MAX_POOLED_NODES {
            return;
        }
        entries.clear();
        // A thread that is exiting keeps nothing.
        let _ = POOL.try_with(|pool| {
            if let Ok(mut pool) = pool.try_borrow_mut()
                && pool.len() < POOLED_ARRAYS
            {
                pool.push(entries);
            }
        });
    }
}

/// Whether nodes of each kind id are named: an alias's kind is its own, so this is
/// `Node::is_named` without a call per node. Ids past the grammar's are tree-sitter's own error
/// symbols, named.
fn named_kinds() -> &'static [bool] {
    static NAMED: OnceLock<Vec<bool>> = OnceLock::new();
    NAMED.get_or_init(|| {
        let language: Language = tree_sitter_bash::LANGUAGE.into();
        (0..language.node_kind_count())
            .map(|id| u16::try_from(id).is_ok_and(|id| language.node_kind_is_named(id)))
            .collect()
    })
}

fn index(at: u32) -> usize {
    usize::try_from(at).unwrap_or(usize::MAX)
}

/// A node of a [`Flat`] tree, with the part of tree-sitter's `Node` interface the walk uses.
#[derive(Clone, Copy)]
pub struct Node<'t> {
    flat: &'t Flat,
    at: u32,
}

impl<'t> Node<'t> {
    fn entry(&self) -> &'t Entry {
        self.flat.entries.get(index(self.at)).unwrap_or(&NO_ENTRY)
    }

    fn at(&self, at: u32) -> Option<Node<'t>> {
        (at != NONE).then_some(Node { flat: self.flat, at })
    }

    /// Unique within its tree.
    pub fn id(&self) -> usize {
        index(self.at)
    }

    pub fn kind(&self) -> &'static str {
        self.entry().kind
    }

    /// The field this node fills in its parent.
    pub fn field(&self) -> Option<&'static str> {
        self.entry().field
    }

    pub fn start_byte(&self) -> usize {
        index(self.entry().start)
    }

    pub fn end_byte(&self) -> usize {
        index(self.entry().end)
    }

    pub fn byte_range(&self) -> Range<usize> {
        self.start_byte()..self.end_byte()
    }

    pub fn is_named(&self) -> bool {
        self.entry().named
    }

    pub fn is_missing(&self) -> bool {
        self.entry().missing
    }

    pub fn has_error(&self) -> bool {
        self.entry().error
    }

    pub fn parent(&self) -> Option<Node<'t>> {
        self.at(self.entry().parent)
    }

    pub fn next_sibling(&self) -> Option<Node<'t>> {
        self.at(self.entry().next_sibling)
    }

    pub fn child_count(&self) -> u32 {
        self.entry().child_count
    }

    /// Its children in order, each with the field it fills.
    pub fn children(&self) -> Children<'t> {
        let first = if self.entry().child_count > 0 { self.at.saturating_add(1) } else { NONE };
        Children { flat: self.flat, next: first }
    }

    pub fn named_children(&self) -> impl Iterator<Item = Node<'t>> + use<'t> {
        self.children().map(|(child, _)| child).filter(Node::is_named)
    }

    pub fn child(&self, i: u32) -> Option<Node<'t>> {
        self.children().nth(index(i)).map(|(child, _)| child)
    }

    pub fn named_child(&self, i: u32) -> Option<Node<'t>> {
        self.named_children().nth(index(i))
    }

    /// The first child in field `name`. Of an error node, none, as tree-sitter answers (it reads the
    /// error node's own, empty, field map; its cursor, which [`Node::children`] follows, the fields
    /// of the hidden nodes inside).
    pub fn child_by_field_name(&self, name: &str) -> Option<Node<'t>> {
        if self.kind() == "ERROR" {
            return None;
        }
        self.children().find(|(_, field)| *field == Some(name)).map(|(child, _)| child)
    }
}

/// A node's kind.
pub fn node_kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    node.borrow().kind()
}

/// The children of one node, each with its field.
#[derive(Clone)]
pub struct Children<'t> {
    flat: &'t Flat,
    next: u32,
}

impl<'t> Iterator for Children<'t> {
    type Item = (Node<'t>, Option<&'static str>);

    fn next(&mut self) -> Option<Self::Item> {
        let node = Node { flat: self.flat, at: self.next };
        let entry = self.flat.entries.get(index(self.next))?;
        self.next = entry.next_sibling;
        Some((node, entry.field))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use tree_sitter::Parser;

    use super::*;

    const CORPUS: &str = include_str!("../../__test__/fixtures/bash-targets.jsonl");
    /// Every field of the bash grammar the walk asks for.
    const FIELDS: [&str; 14] = [
        "argument",
        "body",
        "descriptor",
        "destination",
        "index",
        "name",
        "operator",
        "redirect",
        "right",
        "value",
        "variable",
        "left",
        "condition",
        "operand",
    ];

    /// Every command of the corpus and every bash fuzz seed, with broken variants of each (cut in
    /// half, an unclosed quote) so that error and missing nodes are in the trees too.
    fn sources() -> Vec<String> {
        let mut sources: Vec<String> = CORPUS
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let row: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
                row["cmd"].as_str().expect("cmd").to_string()
            })
            .collect();
        let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/bash_targets");
        for entry in std::fs::read_dir(seeds).expect("seed folder") {
            let bytes = std::fs::read(entry.expect("seed").path()).expect("seed file");
            sources.push(String::from_utf8_lossy(&bytes).into_owned());
        }
        let broken: Vec<String> = sources
            .iter()
            .flat_map(|source| {
                let half = (0..=source.len() / 2).rev().find(|&at| source.is_char_boundary(at)).unwrap_or(0);
                [source[..half].to_string(), format!("{source} \"x"), format!("$( {source}")]
            })
            .collect();
        sources.extend(broken);
        sources
    }

    /// The node and its flat twin agree on everything the walk reads, children included.
    fn assert_same(tree_node: tree_sitter::Node, node: Node, source: &str) {
        let what = || format!("{:?} in {source:?}", tree_node.to_sexp());
        assert_eq!(node.kind(), kind_of(tree_node), "{}", what());
        assert_eq!(node.byte_range(), tree_node.byte_range(), "{}", what());
        assert_eq!(node.is_named(), tree_node.is_named(), "{}", what());
        assert_eq!(node.is_missing(), tree_node.is_missing(), "{}", what());
        assert_eq!(node.has_error(), tree_node.has_error(), "{}", what());
        assert_eq!(node.child_count(), tree_node.child_count(), "{}", what());
        for i in 0..tree_node.child_count() {
            let (theirs, ours) = (tree_node.child(i).expect("child"), node.child(i).expect("flat child"));
            assert_eq!(ours.byte_range(), theirs.byte_range(), "child {i} of {}", what());
            assert_eq!(ours.field(), tree_node.field_name_for_child(i), "field of child {i} of {}", what());
        }
        for i in 0..=u32::try_from(tree_node.named_child_count()).expect("count") {
            let theirs = tree_node.named_child(i).map(|child| child.byte_range());
            assert_eq!(node.named_child(i).map(|child| child.byte_range()), theirs, "named child {i} of {}", what());
        }
        for field in FIELDS {
            let theirs = tree_node.child_by_field_name(field).map(|child| (child.byte_range(), kind_of(child)));
            let ours = node.child_by_field_name(field).map(|child| (child.byte_range(), child.kind()));
            assert_eq!(ours, theirs, "field {field} of {}", what());
        }
    }

    #[test]
    fn the_flat_tree_reads_as_tree_sitter_does() {
        let mut parser = Parser::new();
        parser.set_language(&tree_sitter_bash::LANGUAGE.into()).expect("bash grammar");
        let (mut trees, mut broken) = (0, 0);
        for source in sources() {
            let tree = parser.parse(&source, None).expect("a tree");
            let flat = Flat::new(&tree).expect("flat tree");
            broken += usize::from(tree.root_node().has_error());
            // Pre-order, as the walk meets them.
            let mut cursor = tree.root_node().walk();
            let mut at = 0;
            'walk: loop {
                let node = Node { flat: &flat, at };
                assert_same(cursor.node(), node, &source);
                assert_eq!(node.field(), field_name(&cursor), "field of {:?} in {source:?}", cursor.node().to_sexp());
                at += 1;
                if cursor.goto_first_child() {
                    continue;
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
            assert_eq!(index(at), flat.entries.len(), "{source:?}");
            trees += 1;
        }
        assert!(trees > 1_000 && broken > 300, "{trees} trees, {broken} with errors");
    }
}
