//! The analysis shared by the languages that call functions: one pass over the tokens that
//! remembers variables assigned from path expressions, evaluates the arguments of the calls in a
//! language's table of write-capable and process-starting operations, and keeps every string that
//! names a guarded location for the fail-closed verdict. Values are strings with holes
//! ([`HOLE`](super::lex::HOLE)) for what the program computes at run time.
//!
//! The pass and its state live here; the calls it judges in `calls`, the expressions it evaluates
//! in `expr`, a language's table and grammar in `language`, values and their text in `value`.

mod calls;
mod changes;
mod expr;
mod language;
mod parameters;
mod proof;
mod value;

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

pub use self::language::{Grammar, Op, Receiver, Rule, rule};
pub use self::value::{
    COMPUTED_PART, Val, copied_into, guarded_matches, printf_filled, push_new, run_in, shell_word, wildcarded,
    writes_mode,
};
use super::lex::{Kind, Token};
use super::{Findings, MAX_ANALYSIS_WORK};

/// What an assignment operator does to its variable.
#[derive(Clone, Copy)]
enum Assignment {
    /// `=`: the value on the right.
    Plain,
    /// `.=`, `+=` of a concatenating operator: the old value, the separator, the new one.
    Append(&'static str),
    /// Any other compound operator: a value the analysis does not compute.
    Other,
}

/// One argument of a call: its name when passed by keyword, the position of the parameter it
/// fills, and its tokens.
#[derive(Clone)]
struct Argument {
    name: Option<String>,
    position: Option<usize>,
    start: usize,
    end: usize,
}

pub struct Engine<'a> {
    tokens: &'a [Token],
    grammar: &'a Grammar,
    vars: HashMap<String, Val>,
    path_vars: HashSet<String>,
    /// Functions the program defines (P-18: their calls are read where they are defined).
    defined: HashSet<String>,
    /// How many times each variable is assigned or changed in place, anywhere in the program.
    assigned: HashMap<String, usize>,
    /// Steps taken, against [`MAX_ANALYSIS_WORK`]; a cell so that the scans that only look can
    /// count too.
    work: Cell<usize>,
    /// Relative paths are taken against this (after a literal `chdir`).
    dir: String,
    pub findings: Findings,
}

impl<'a> Engine<'a> {
    pub fn new(tokens: &'a [Token], grammar: &'a Grammar) -> Self {
        Engine {
            tokens,
            grammar,
            vars: HashMap::new(),
            path_vars: HashSet::new(),
            defined: HashSet::new(),
            assigned: HashMap::new(),
            work: Cell::new(0),
            dir: String::new(),
            findings: Findings::sure(),
        }
    }

    pub fn tokens(&self) -> &'a [Token] {
        self.tokens
    }

    fn token(&self, at: usize) -> Option<&'a Token> {
        self.tokens.get(at)
    }

    /// Counts one step; true once the budget is spent (the findings then say so).
    fn spent(&self) -> bool {
        let work = self.work.get().saturating_add(1);
        self.work.set(work);
        work > MAX_ANALYSIS_WORK
    }

    /// The findings, marked over budget when the work budget ran out anywhere.
    pub fn finish(mut self) -> Findings {
        self.findings.over_budget |= self.work.get() > MAX_ANALYSIS_WORK;
        self.findings
    }

    pub fn var(&self, name: &str) -> Option<&Val> {
        self.vars.get(name)
    }

    pub fn set_var(&mut self, name: &str, value: Val) {
        self.vars.insert(name.to_string(), value);
    }

    /// How many places assign `name` or change it in place (awk's main rules run once per
    /// record, so a variable assigned twice may hold either value wherever it is read).
    pub fn assignments(&self, name: &str) -> usize {
        self.assigned.get(self.var_name(name)).copied().unwrap_or(0)
    }

    /// The variable's value is no longer known (changed in place by a call or an operator).
    pub fn forget(&mut self, name: &str) {
        let name = self.var_name(name).to_string();
        *self.assigned.entry(name.clone()).or_insert(0) += 2;
        self.path_vars.remove(&name);
        self.vars.insert(name, Val::Unknown);
    }

    fn var_name<'t>(&self, text: &'t str) -> &'t str {
        text.trim_start_matches(|c| self.grammar.sigils.contains(c))
    }

    /// The whole pass; a language may run its own rules on the tokens before or after.
    pub fn run(&mut self) {
        self.collect_definitions();
        let parameters = self.parameters_may_hold_paths();
        let mut at = 0;
        while at < self.tokens.len() {
            if self.spent() {
                self.findings.over_budget = true;
                return;
            }
            let Some(token) = self.token(at) else { break };
            if let Kind::Str { command } = token.kind {
                self.note_text(&token.text);
                if command {
                    self.command(&Val::Str(token.text.clone()));
                }
            }
            if parameters {
                self.parameters(at);
            }
            if token.kind == Kind::Ident {
                self.assignment(at);
                self.changed_in_place(at);
                if !self.call(at) {
                    self.prove_call(at);
                }
            } else if token.is("(") {
                self.computed_call(at);
            }
            at += 1;
        }
    }

    fn note_text(&mut self, text: &str) {
        self.findings.note(text);
    }

    /// Remembers a string that names a guarded location.
    pub fn note(&mut self, val: &Val) {
        match val {
            Val::Str(text) => self.note_text(text),
            Val::List(items) => {
                for item in items.iter().take(64) {
                    self.note(item);
                }
            }
            _ => {}
        }
    }

    fn assignment(&mut self, at: usize) {
        let Some(name) = self.token(at) else { return };
        if at > 0 && self.token(at - 1).is_some_and(|before| self.is_member(before)) {
            return;
        }
        let Some(kind) = self.assignment_kind(at + 1) else { return };
        let key = self.var_name(&name.text).to_string();
        // `puts <<~EOS` is no append: only a variable the program assigned is appended to.
        let appends = self.token(at + 1).is_some_and(|op| self.grammar.appends.contains(&op.text.as_str()));
        if appends && !self.vars.contains_key(&key) {
            return;
        }
        *self.assigned.entry(key.clone()).or_insert(0) += 1;
        let (mut pos, separator) = match kind {
            Assignment::Plain => (at + 2, None),
            Assignment::Append(separator) => (at + 2, Some(separator)),
            Assignment::Other => {
                self.forget(&name.text);
                return;
            }
        };
        // `==` is lexed whole, so `=` here is an assignment.
        let end = self.statement_end(pos);
        let mut value = self.expr(&mut pos, end, 0);
        self.note(&value);
        if let Some(separator) = separator {
            value = match self.vars.get(&key).cloned().unwrap_or(Val::Unknown) {
                // Ruby's `a << x` of a list adds an item.
                Val::List(mut items) => {
                    items.push(value);
                    Val::List(items)
                }
                old => value::concat(old, value, separator),
            };
        }
        let name = key;
        let path_like = self.tokens.get(at + 2..end).unwrap_or_default().iter().any(|t| {
            t.kind == Kind::Ident
                && (self.grammar.path_types.contains(&t.text.as_str()) || self.path_vars.contains(&t.text))
        });
        if path_like {
            self.path_vars.insert(name.clone());
        } else {
            self.path_vars.remove(&name);
        }
        self.vars.insert(name, value);
    }

    /// What the operator at `op` does to the variable before it: `=` (the language's
    /// assignments), `.=`/`+=` where `.`/`+` concatenate and the language's appending operators
    /// (Ruby's `<<`: the old value with the new one after it), or another compound operator (`-=`, `||=`, `&&=`, `??=`) or Perl's `=~ s///`: a value
    /// left unknown.
    fn assignment_kind(&self, op: usize) -> Option<Assignment> {
        let token = self.token(op).filter(|t| t.kind == Kind::Punct)?;
        if self.grammar.assignments.contains(&token.text.as_str()) {
            return Some(Assignment::Plain);
        }
        // Perl's `$p =~ s/a/b/` and `tr`/`y`: the variable changed in place.
        if token.is("=~") {
            let substitutes = self.token(op + 1).is_some_and(|t| ["s", "tr", "y"].iter().any(|word| t.is_ident(word)));
            return substitutes.then_some(Assignment::Other);
        }
        if self.grammar.appends.contains(&token.text.as_str()) {
            return Some(Assignment::Append(""));
        }
        if let Some(head) = token.text.strip_suffix('=').filter(|head| matches!(*head, "+" | ".")) {
            let separator = self.grammar.concat.iter().find(|(concat, _)| *concat == head).map(|(_, sep)| *sep);
            return Some(separator.map_or(Assignment::Other, Assignment::Append));
        }
        let operators = ["-", "*", "/", "%", "|", "||", "&", "&&", "^", "?", "**", "<<", ">>"];
        let compound = (op..op + 3)
            .map_while(|at| self.token(at))
            .take_while(|t| !t.line_start || t.is("="))
            .find(|t| !(t.kind == Kind::Punct && operators.contains(&t.text.as_str())))
            .is_some_and(|t| t.is("="));
        (compound && operators.contains(&token.text.as_str())).then_some(Assignment::Other)
    }

    fn is_member(&self, token: &Token) -> bool {
        (self.grammar.dot_member && token.is(".")) || self.grammar.members.iter().any(|m| token.is(m))
    }

    /// Where the statement starting at `from` ends: a `;`, a new line at depth 0, or a closing
    /// bracket of the enclosing expression.
    pub fn statement_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        let mut at = from;
        while let Some(token) = self.token(at) {
            if self.spent() {
                return at;
            }
            if at > from && depth == 0 && token.line_start && !self.continues(at) {
                return at;
            }
            if token.kind == Kind::Punct {
                match token.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" if depth == 0 => return at,
                    ")" | "]" | "}" => depth -= 1,
                    ";" if depth == 0 => return at,
                    _ => {}
                }
            }
            at += 1;
        }
        at
    }

    /// A new line that continues an expression (the line before ended in an operator).
    fn continues(&self, at: usize) -> bool {
        let before = at.checked_sub(1).and_then(|b| self.token(b));
        let after = self.token(at);
        before.is_some_and(|t| {
            t.kind == Kind::Punct && matches!(t.text.as_str(), "+" | "," | "." | "(" | "=" | "/" | ".." | "&")
        }) || after.is_some_and(|t| t.kind == Kind::Punct && matches!(t.text.as_str(), "+" | "." | ".." | "&"))
    }

    /// The qualified name ending at identifier `at` (`os.path.join`), where it starts, and
    /// whether a non-name expression comes before it (`Path('x').write_text`).
    fn chain(&self, at: usize) -> (Vec<&'a str>, usize) {
        let mut names = vec![self.token(at).map_or("", |t| t.text.as_str())];
        let mut start = at;
        while start >= 2 {
            let (Some(dot), Some(before)) = (self.token(start - 1), self.token(start - 2)) else { break };
            if !self.is_member(dot) || before.kind != Kind::Ident {
                break;
            }
            names.insert(0, before.text.as_str());
            start -= 2;
        }
        (names, start)
    }

    /// The receiver expression of a method call whose chain starts at `start` after a `)` or
    /// `]`: its first token.
    fn receiver_start(&self, dot: usize) -> Option<usize> {
        let mut at = dot.checked_sub(1)?;
        let mut depth = 0usize;
        loop {
            if self.spent() {
                return None;
            }
            let token = self.token(at)?;
            if token.kind == Kind::Punct {
                match token.text.as_str() {
                    ")" | "]" => depth += 1,
                    "(" | "[" => depth = depth.checked_sub(1)?,
                    _ if depth == 0 => return Some(at + 1),
                    _ => {}
                }
            } else if depth == 0 {
                let before = at.checked_sub(1).and_then(|b| self.token(b));
                if before.is_some_and(|b| self.is_member(b)) {
                    at = at.checked_sub(2)?;
                    continue;
                }
                let after_call = before.is_some_and(|b| b.is(")") || b.is("]"));
                if !after_call {
                    return Some(at);
                }
            }
            // A receiver does not start before the line it stands on (`require 'x'` above).
            if depth == 0 && token.line_start {
                return Some(at);
            }
            at = match at.checked_sub(1) {
                Some(previous) => previous,
                None => return Some(0),
            };
        }
    }
}
