//! A bash syntax tree laid out flat, in pre-order, read by index. The walk asks the same nodes
//! for their children, fields and kinds many times over; through tree-sitter each such question
//! is a cursor step or a node call that looks through hidden nodes and the grammar's tables. Here
//! the tree is read once with a cursor (one step per node) and every later question is a load.

use std::borrow::Borrow;
use std::ops::Range;

use tree_sitter::Tree;

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
        let mut entries: Vec<Entry> = Vec::with_capacity(root.descendant_count());
        let offset = |byte: usize| u32::try_from(byte).map_err(|_| Unscannable::TooLarge);
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
                named: node.is_named(),
                missing: node.is_missing(),
                error: node.has_error(),
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

    /// The first child in field `name`.
    pub fn child_by_field_name(&self, name: &str) -> Option<Node<'t>> {
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
