//! Ruby's parameters: a block's (`{ |p| … }`, `do |p| … end`), a method's (`def w(p)`) and a
//! lambda's (`->(p) { … }`) get their values where the walk does not see (`Pathname.new(p).then
//! { |q| q.write(x) }`, `w(Pathname.new(p))`). In a program that makes path objects, each may hold
//! one, so its path methods are judged as a path's whose value is unknown; a block's of a call
//! that opens a handle (`File.open(p, 'w') { |f| f.write(x) }`) holds the handle.

use super::Engine;
use crate::programs::lex::{Kind, Token};

impl Engine<'_> {
    /// Whether parameters may hold path objects: the grammar says so and the program names one of
    /// its path types (`Pathname`).
    pub(super) fn parameters_may_hold_paths(&self) -> bool {
        self.grammar.parameters_may_hold_paths
            && self.tokens.iter().any(|t| t.kind == Kind::Ident && self.grammar.path_types.contains(&t.text.as_str()))
    }

    /// Binds the parameters a list at `at` declares, if it is one: the `|` opening a block's, the
    /// `def` of a method, the `->` of a lambda.
    pub(super) fn parameters(&mut self, at: usize) {
        let Some(token) = self.token(at) else { return };
        let before = at.checked_sub(1).and_then(|b| self.token(b));
        let (names, handles) = if token.is("|") && before.is_some_and(|b| b.is("{") || b.is_ident("do")) {
            let handles = at
                .checked_sub(1)
                .and_then(|opening| self.block_owner(opening))
                .is_some_and(|owner| self.grammar.handle_openers.contains(&owner));
            (self.names_until(at + 1, |t| t.is("|")), handles)
        } else if token.is_ident("def") {
            let mut name = at + 1;
            while self.token(name + 1).is_some_and(|t| self.is_member(t)) {
                name += 2;
            }
            let list = name + 1;
            match self.token(list) {
                Some(open) if open.is("(") => (self.names_until(list + 1, |t| t.is(")")), false),
                Some(first) if !first.line_start => (self.names_until(list, |t| t.line_start || t.is(";")), false),
                _ => return,
            }
        } else if token.is("->") && self.token(at + 1).is_some_and(|t| t.is("(")) {
            (self.names_until(at + 2, |t| t.is(")")), false)
        } else {
            return;
        };
        for name in names {
            self.vars.remove(&name);
            if handles {
                self.path_vars.remove(&name);
            } else {
                self.path_vars.insert(name);
            }
        }
    }

    /// The names of a parameter list from `from` to the token `closes` accepts (defaults and
    /// types skipped: `a = 1`, `*rest`, `&block`, `key:`).
    fn names_until(&self, from: usize, closes: impl Fn(&Token) -> bool) -> Vec<String> {
        let mut names = Vec::new();
        let mut expecting = true;
        let mut at = from;
        while let Some(token) = self.token(at) {
            if self.spent() || closes(token) {
                break;
            }
            match token.kind {
                Kind::Ident if expecting => {
                    names.push(self.var_name(&token.text).to_string());
                    expecting = false;
                }
                Kind::Punct if token.is(",") || token.is("(") => expecting = true,
                Kind::Punct if token.is("*") || token.is("&") || token.is("**") => {}
                _ => {}
            }
            at += 1;
        }
        names
    }

    /// The method a block opened at `opening` (`{` or `do`) belongs to: the name before its
    /// parenthesized arguments, or the name right before it (`list.each {`).
    fn block_owner(&self, opening: usize) -> Option<&str> {
        let mut at = opening.checked_sub(1)?;
        if self.token(at)?.is(")") {
            let mut depth = 0usize;
            loop {
                let token = self.token(at)?;
                if token.is(")") {
                    depth += 1;
                } else if token.is("(") {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        break;
                    }
                }
                at = at.checked_sub(1)?;
            }
            at = at.checked_sub(1)?;
        }
        self.token(at).filter(|t| t.kind == Kind::Ident).map(|t| t.text.as_str())
    }
}
