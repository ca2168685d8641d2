//! Variables changed in place, whose values the analysis then no longer knows: given to a
//! call that changes them (`table.sort(t)`, `chop $x`, awk's `sub(/a/, "b", v)`) or assigned
//! through a subscript (`t[1] = p`).

use super::Engine;
use crate::programs::lex::Kind;

impl Engine<'_> {
    /// Forgets what the identifier at `at` changes in place: the variables among a mutator's
    /// arguments and its receiver, or itself before `[…] =`.
    pub(super) fn changed_in_place(&mut self, at: usize) {
        let Some(token) = self.token(at) else { return };
        let next = self.token(at + 1).filter(|t| !t.line_start);
        // `t[1] = p`; Perl's `$h{k} = p`.
        let hash = next.is_some_and(|t| t.is("{")) && token.text.starts_with(|c| self.grammar.sigils.contains(c));
        if (next.is_some_and(|t| t.is("[")) || hash) && self.assigned_through_subscript(at + 1) {
            let name = token.text.clone();
            self.forget(&name);
            return;
        }
        if self.destructured(at) {
            let name = token.text.clone();
            self.forget(&name);
            return;
        }
        if self.is_mutator(at) {
            for name in self.variables_given(at) {
                self.forget(&name);
            }
        }
    }

    /// `[…]` (or `{…}`) from `open`, then more subscripts and `=` or a compound assignment.
    fn assigned_through_subscript(&self, open: usize) -> bool {
        let mut depth = 0usize;
        let mut at = open;
        while let Some(token) = self.token(at) {
            if self.spent() {
                return true;
            }
            match token.text.as_str() {
                "[" | "(" | "{" if token.kind == Kind::Punct => depth += 1,
                "]" | ")" | "}" if token.kind == Kind::Punct => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return self.token(at + 1).is_some_and(|t| (t.is("[") || t.is("{")) && !t.line_start)
                            && self.assigned_through_subscript(at + 1)
                            || self.assignment_kind(at + 1).is_some();
                    }
                }
                _ => {}
            }
            at += 1;
        }
        false
    }

    /// One of several names assigned at once (`a, b = …`, `my ($a, $b) = …`, `[$a, $b] = …`,
    /// `list($a, $b) = …`): the analysis does not match the values to the names.
    fn destructured(&self, at: usize) -> bool {
        let mut depth = 0usize;
        let mut listed = false;
        for position in at + 1..at + 64 {
            let Some(token) = self.token(position) else { return false };
            match token.kind {
                Kind::Ident | Kind::Str { .. } => {}
                Kind::Number => return false,
                Kind::Punct => match token.text.as_str() {
                    "," | "=>" => listed = true,
                    "(" | "[" => depth += 1,
                    ")" | "]" if depth > 0 => depth -= 1,
                    // The group the name stands in closes: `(…) =`.
                    ")" | "]" => return self.assignment_kind(position + 1).is_some(),
                    _ if depth == 0 && listed => return self.assignment_kind(position).is_some(),
                    _ => return false,
                },
            }
        }
        false
    }

    /// A call of one of the language's mutators, by its last name or its last two.
    fn is_mutator(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        let next = self.token(at + 1).filter(|t| !t.line_start);
        let called = next.is_some_and(|t| t.is("(") || self.grammar.calls_without_parentheses && t.kind != Kind::Punct);
        if !called || self.grammar.mutators.is_empty() {
            return false;
        }
        let qualifier = at
            .checked_sub(1)
            .filter(|&dot| self.token(dot).is_some_and(|d| self.is_member(d)))
            .and_then(|dot| dot.checked_sub(1))
            .and_then(|q| self.token(q));
        self.grammar.mutators.iter().any(|entry| match entry.rsplit_once('.') {
            Some((owner, last)) => last == token.text && qualifier.is_some_and(|q| q.text == owner),
            None => *entry == token.text,
        })
    }

    /// The variables a call at `at` is given: every name among its arguments that is not itself
    /// called, and the variable it is a method of.
    fn variables_given(&self, at: usize) -> Vec<String> {
        let parenthesized = self.token(at + 1).is_some_and(|t| t.is("("));
        let args = if parenthesized { self.arguments(at + 1) } else { self.bare_arguments(at + 1) };
        let mut names = Vec::new();
        for arg in &args {
            for position in arg.start..arg.end {
                let Some(token) = self.token(position) else { break };
                let called = self.token(position + 1).is_some_and(|t| t.is("("));
                let member = position > 0 && self.token(position - 1).is_some_and(|b| self.is_member(b));
                if token.kind == Kind::Ident
                    && !called
                    && !member
                    && !self.grammar.keywords.contains(&token.text.as_str())
                {
                    names.push(token.text.clone());
                }
            }
        }
        let receiver = at
            .checked_sub(2)
            .filter(|_| at.checked_sub(1).and_then(|dot| self.token(dot)).is_some_and(|d| self.is_member(d)))
            .and_then(|q| self.token(q))
            .filter(|q| q.kind == Kind::Ident && self.vars.contains_key(self.var_name(&q.text)));
        names.extend(receiver.map(|q| q.text.clone()));
        names
    }
}
