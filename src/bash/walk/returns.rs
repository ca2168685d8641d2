//! A `popd` or `cd -` the shell itself runs whatever came before ([P-18](docs/decisions.md#p-18)).
//! A `popd` returns to where a `pushd` left, which is there, so its failure is not followed; only
//! if that `pushd` failed does it return elsewhere: to the directory beneath on the stack. For a
//! persistent shell, what a sure return leaves again was only passed through ([P-15]
//! (docs/decisions.md#p-15)): the call leaves the shell there only if it stopped before its end.

use std::path::PathBuf;

use super::{Frame, Walk, Walker};
use crate::analysis::scope::Scope;
use crate::bash::popd::{cannot_fail, in_the_shell, stack_known};
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::paths;

/// What a sure `popd` leaves to follow: where it may go instead of the top of the stack, and
/// where it returns to.
pub(super) struct SurePopd {
    beneath: Option<(PathBuf, PathBuf)>,
    back: SureReturn,
}

/// A return the shell makes for sure: the directory it goes back to, and the states it leaves
/// again (from the first state after the move it undoes, and how many targets were recorded
/// before that move).
pub(super) struct SureReturn {
    to: PathBuf,
    undoes: Option<(usize, usize)>,
}

/// Whether `statement`, a redirected statement, has redirections and every one [`cannot_fail`].
pub(super) fn redirections_cannot_fail(statement: Node, walk: &Walk) -> bool {
    let mut redirects = statement.children().filter(|(_, field)| *field == Some("redirect")).peekable();
    redirects.peek().is_some() && redirects.all(|(redirect, _)| cannot_fail(walk.text(redirect)))
}

/// The words of `node`, a command, when its redirections cannot fail (`popd >/dev/null`).
fn words_running_whatever<'s>(node: Node, walk: &Walk<'s>) -> Option<Vec<&'s str>> {
    let (redirects, words): (Vec<_>, Vec<_>) =
        node.named_children().partition(|child| node_kind(*child).ends_with("_redirect"));
    redirects
        .iter()
        .all(|redirect| cannot_fail(walk.text(*redirect)))
        .then(|| words.iter().map(|word| walk.source.get(word.byte_range()).unwrap_or_default()).collect())
}

impl Walker<'_> {
    /// `Some` when `node`, a command element of the line itself, is a bare builtin `popd` that
    /// runs unless the shell is gone ([`Self::runs_whatever`]), with a directory on the stack.
    pub(super) fn sure_popd(
        &self,
        node: Node,
        ancestors: &[Frame],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Option<SurePopd> {
        let bare = words_running_whatever(node, walk).is_some_and(|words| words == ["popd"]);
        if !bare || !stack_known(scope) || !self.builtin("popd", walk, scope) {
            return None;
        }
        let top = scope.stack.last()?;
        if !self.runs_whatever(node, ancestors, walk) {
            return None;
        }
        let beneath = scope.stack.len().checked_sub(2).and_then(|at| scope.stack.get(at));
        let beneath = beneath.map(|beneath| (beneath.clone(), top.clone()));
        let depth = scope.stack.len();
        let undoes = self.pushed.iter().rev().find(|pushed| pushed.depth == depth);
        let undoes = undoes.map(|pushed| (pushed.first_state, pushed.targets));
        Some(SurePopd { beneath, back: SureReturn { to: top.clone(), undoes } })
    }

    /// `Some` when `node` is a builtin `cd -` that runs unless the shell is gone, back to an
    /// `$OLDPWD` the walk set (only a `cd` that succeeded sets it): it leaves the state the
    /// line's last change of directory reached.
    pub(super) fn sure_cd_back(
        &self,
        node: Node,
        ancestors: &[Frame],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Option<SureReturn> {
        let cd_back = words_running_whatever(node, walk).is_some_and(|words| words == ["cd", "-"]);
        if !cd_back || !self.builtin("cd", walk, scope) || scope.vars.contains_key("OLDPWD") {
            return None;
        }
        let to = scope.oldpwd.clone()?;
        self.runs_whatever(node, ancestors, walk).then_some(SureReturn { to, undoes: self.last_cd })
    }

    /// `Some` when `node` is a builtin `cd DIR` or `pushd DIR` that runs unless the shell is
    /// gone, DIR an absolute plain directory that exists and anyone may enter, as typed or as
    /// the walk computes it (`cd "$ROOT"` after `ROOT=$PWD`, `cd "$(git rev-parse
    /// --show-toplevel)"`): it cannot fail, so after it the line is there whatever its earlier
    /// changes of directory did, and it leaves every state they reached.
    pub(super) fn sure_cd_to(
        &self,
        node: Node,
        ancestors: &[Frame],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Option<SureReturn> {
        let words = words_running_whatever(node, walk)?;
        let [name @ ("cd" | "pushd"), directory] = words.as_slice() else { return None };
        if !self.builtin(name, walk, scope) {
            return None;
        }
        let directory = match directory.starts_with('/') {
            true => (*directory).to_string(),
            false => self.computed_directory(node, walk, scope)?,
        };
        let sure = paths::sure_to_enter(&directory, &scope.base) && self.runs_whatever(node, ancestors, walk);
        sure.then(|| SureReturn { to: PathBuf::from(directory), undoes: Some((0, 0)) })
    }

    /// The one absolute directory the argument of `node`, a `cd` or `pushd`, expands to, when the
    /// walk knows it.
    fn computed_directory(&self, node: Node, walk: &Walk, scope: &Scope<Bash>) -> Option<String> {
        let (argument, _) = node.children().find(|(_, field)| *field == Some("argument"))?;
        match self.expand_words(&[argument], walk, scope).ok()?.as_slice() {
            [directory] if !directory.dynamic && !directory.glob && directory.text.starts_with('/') => {
                Some(directory.text.clone())
            }
            _ => None,
        }
    }

    /// Whether `name` is the shell's builtin here: no function or alias of the line hides it,
    /// and it runs in the shell itself, not in a nested script or a scope of its own.
    fn builtin(&self, name: &str, walk: &Walk, scope: &Scope<Bash>) -> bool {
        walk.nesting == 0 && self.isolated == 0 && scope.function(name).is_none() && scope.alias(name).is_none()
    }

    /// Whether `node`, a command element of the line itself, runs unless the shell is gone: a
    /// statement of the line, or the first of an `&&`/`||` list that is, run by the shell (not
    /// `&`, not in a pipeline), its redirections unable to fail.
    fn runs_whatever(&self, node: Node, ancestors: &[Frame], walk: &Walk) -> bool {
        let mut current = node;
        for ancestor in ancestors.iter().rev() {
            if node_kind(ancestor.node) == "redirected_statement"
                && current.field() == Some("body")
                && redirections_cannot_fail(ancestor.node, walk)
            {
                current = ancestor.node;
                continue;
            }
            if !in_the_shell(walk.source.get(current.end_byte()..).unwrap_or_default()) {
                return false;
            }
            match node_kind(ancestor.node) {
                "program" => return true,
                "list" if ancestor.node.named_child(0).is_some_and(|first| first.id() == current.id()) => {
                    current = ancestor.node;
                }
                _ => return false,
            }
        }
        false
    }

    /// After a sure `popd` ran: the change it recorded (from `moves_before` on) is replaced by
    /// the one its `pushd`'s failure would make, and what it leaves again was passed through.
    pub(super) fn popped(&mut self, sure: SurePopd, moves_before: usize) {
        self.moves.truncate(moves_before);
        if let Some((beneath, top)) = &sure.beneath {
            crate::analysis::moves::record_move(&mut self.moves, beneath, top, self.targets.len());
        }
        self.returned(&sure.back);
    }

    /// After a sure return ran: the states a persistent shell reached since the move it undoes,
    /// up to the return's own (the last), are left when the call runs to its end, unless the
    /// line wrote the directory it returns to or one above it since: it may be gone, and the
    /// return fail.
    pub(super) fn returned(&mut self, back: &SureReturn) {
        let (Some(states), Some((first_state, targets))) = (&mut self.states, back.undoes) else { return };
        if self.targets.since(targets).iter().any(|written| back.to.starts_with(written)) {
            return;
        }
        let last = states.len().saturating_sub(1);
        for reached in states.get_mut(first_state..last).into_iter().flatten() {
            reached.passed = true;
        }
    }
}
