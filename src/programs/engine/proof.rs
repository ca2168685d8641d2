//! P-18's inverted default for the lexical languages: a call is proven when a rule of the
//! language's table judged it (a writer or runner whose targets the engine computed), when it is
//! in the language's read-only table, when it computes a path value only (joins, identities), or
//! when the program defines it (its body is read where it stands). Any other call, and any module
//! loaded from outside the standard library, makes the findings unsure: the gates then judge every
//! guarded location the program or its arguments name as written.

use super::Engine;
use crate::programs::lex::Kind;

impl Engine<'_> {
    /// The names the program defines (`sub x`, `def x`, `def self.x`, `function M.x`).
    pub(super) fn collect_definitions(&mut self) {
        if !self.grammar.unknown_calls_unproven {
            return;
        }
        for (at, token) in self.tokens.iter().enumerate() {
            if self.spent() {
                return;
            }
            if token.kind != Kind::Ident || !self.grammar.definitions.contains(&token.text.as_str()) {
                continue;
            }
            // The last name of `a.b.c` or `self.x` after the keyword.
            let mut name = at + 1;
            while self.token(name + 1).is_some_and(|t| self.is_member(t))
                && self.token(name + 2).is_some_and(|t| t.kind == Kind::Ident)
            {
                name += 2;
            }
            if let Some(defined) = self.token(name).filter(|t| t.kind == Kind::Ident) {
                self.defined.insert(defined.text.clone());
            }
        }
    }

    /// Called for an identifier no rule judged: unsure when it is a call nothing proves.
    pub(super) fn prove_call(&mut self, at: usize) {
        if !self.grammar.unknown_calls_unproven || !self.findings.sure {
            return;
        }
        if self.loaded_module(at) {
            return;
        }
        if self.is_call_site(at) && !self.proven(at) {
            self.findings.sure = false;
        }
    }

    /// `use File::Copy;`, `require 'digest'`: true when `at` is a loader (the findings are unsure
    /// unless the module is a library the language's table knows).
    fn loaded_module(&mut self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        if !self.grammar.loaders.contains(&token.text.as_str()) {
            return false;
        }
        if at > 0 && self.token(at - 1).is_some_and(|before| self.is_member(before)) {
            return false;
        }
        let mut module = String::new();
        let mut pos = at + 1;
        if self.token(pos).is_some_and(|t| t.is("(")) {
            pos += 1;
        }
        match self.token(pos) {
            Some(name) if name.is_str() => module.push_str(&name.text),
            Some(name) if name.kind == Kind::Ident => {
                // `File::Copy`: the names and separators up to the first other token.
                while let Some(part) = self.token(pos) {
                    let separator = part.kind == Kind::Punct && part.is("::");
                    if (part.kind != Kind::Ident && !separator) || (pos > at + 1 && part.line_start) {
                        break;
                    }
                    module.push_str(&part.text);
                    pos += 1;
                }
            }
            _ => {}
        }
        if !self.grammar.libraries.contains(&module.as_str()) {
            self.findings.sure = false;
        }
        true
    }

    /// Whether identifier `at` is called: before `(` on its line, after a method member, or with
    /// arguments and no parentheses where the language allows it.
    fn is_call_site(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        let text = token.text.as_str();
        let grammar = self.grammar;
        if token.kind != Kind::Ident
            || grammar.keywords.contains(&text)
            || grammar.definitions.contains(&text)
            || text.starts_with(|c| grammar.sigils.contains(c))
            || text.starts_with(|c: char| c.is_ascii_digit())
        {
            return false;
        }
        let before = at.checked_sub(1).and_then(|b| self.token(b));
        let after_member = before.is_some_and(|b| self.is_member(b));
        if before.is_some_and(|b| b.kind == Kind::Punct && grammar.method_members.contains(&b.text.as_str())) {
            return true;
        }
        // A definition's own name (`def x(`, `function x(`).
        if before.is_some_and(|b| b.kind == Kind::Ident && grammar.definitions.contains(&b.text.as_str())) {
            return false;
        }
        let Some(next) = self.token(at + 1).filter(|t| !t.line_start) else { return false };
        if next.is("(") {
            return true;
        }
        let argument = next.is_str()
            || next.kind == Kind::Number
            || next.kind == Kind::Ident && !grammar.keywords.contains(&next.text.as_str());
        grammar.calls_without_parentheses && !after_member && argument && !self.vars.contains_key(self.var_name(text))
    }

    /// A call the language's tables prove: read-only, a value computation, or defined here.
    fn proven(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        let name = self.var_name(&token.text);
        if self.defined.contains(name) {
            return true;
        }
        let qualifier = at
            .checked_sub(2)
            .filter(|_| at.checked_sub(1).and_then(|b| self.token(b)).is_some_and(|b| self.is_member(b)))
            .and_then(|q| self.token(q))
            .filter(|q| q.kind == Kind::Ident)
            .map(|q| self.var_name(&q.text));
        let listed = |list: &[&str]| {
            list.iter().any(|entry| match entry.rsplit_once('.') {
                Some((owner, last)) => last == name && qualifier == Some(owner),
                None => *entry == name,
            })
        };
        let grammar = self.grammar;
        [grammar.read_only, grammar.joins, grammar.concats, grammar.identities, grammar.path_types, grammar.lowers, grammar.list_joins, grammar.formats, grammar.globs]
            .iter()
            .any(|list| listed(list))
    }
}
