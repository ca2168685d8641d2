//! A `popd` the shell itself runs whatever came before ([P-18](docs/decisions.md#p-18)): it
//! returns to where a `pushd` left, which is there, so its failure is not followed. Only if that
//! `pushd` failed does it return elsewhere: to the directory beneath on the stack.

use std::path::PathBuf;

use super::{Frame, Walk, Walker};
use crate::analysis::scope::Scope;
use crate::bash::popd::{in_the_shell, stack_known};
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};

/// What a sure `popd` leaves to follow: where it may go instead of the top of the stack.
pub(super) struct SurePopd {
    beneath: Option<(PathBuf, PathBuf)>,
}

impl Walker<'_> {
    /// `Some` when `node`, a command element of the line itself, is a bare builtin `popd` that
    /// runs unless the shell is gone: a statement of the line, or the first of an `&&`/`||` list
    /// that is, run by the shell (not `&`, not in a pipeline), with a directory on the stack.
    pub(super) fn sure_popd(
        &self,
        node: Node,
        ancestors: &[Frame],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Option<SurePopd> {
        if walk.nesting != 0
            || self.isolated != 0
            || !stack_known(scope)
            || scope.function("popd").is_some()
            || scope.alias("popd").is_some()
        {
            return None;
        }
        let bare = node.named_children().count() == 1
            && node.child_by_field_name("name").is_some_and(|name| walk.text(name) == "popd");
        let top = scope.stack.last()?;
        if !bare {
            return None;
        }
        let mut current = node;
        for ancestor in ancestors.iter().rev() {
            if !in_the_shell(walk.source.get(current.end_byte()..).unwrap_or_default()) {
                return None;
            }
            match node_kind(ancestor.node) {
                "program" => {
                    let beneath = scope.stack.len().checked_sub(2).and_then(|at| scope.stack.get(at));
                    return Some(SurePopd { beneath: beneath.map(|beneath| (beneath.clone(), top.clone())) });
                }
                "list" if ancestor.node.named_child(0).is_some_and(|first| first.id() == current.id()) => {
                    current = ancestor.node;
                }
                _ => return None,
            }
        }
        None
    }

    /// After a sure `popd` ran: the change it recorded (from `moves_before` on) is replaced by
    /// the one its `pushd`'s failure would make.
    pub(super) fn popped(&mut self, sure: SurePopd, moves_before: usize) {
        self.moves.truncate(moves_before);
        if let Some((beneath, top)) = sure.beneath {
            crate::analysis::moves::record_move(&mut self.moves, &beneath, &top, self.targets.len());
        }
    }
}
