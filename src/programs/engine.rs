//! The analysis shared by the languages that call functions: one pass over the tokens that
//! remembers variables assigned from path expressions, evaluates the arguments of the calls in a
//! language's table of write-capable and process-starting operations, and keeps every string that
//! names a guarded location for the fail-closed verdict. Values are strings with holes
//! ([`HOLE`]) for what the program computes at run time.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use super::lex::{HOLE, Kind, Token};
use super::{Findings, MAX_ANALYSIS_WORK};

/// The deepest expression evaluated; deeper parts are unknown.
const MAX_EXPRESSION_DEPTH: usize = 48;
/// The longest string value computed; a longer one is unknown (joining the same literal a
/// thousand times must not cost quadratic time).
const MAX_VALUE_BYTES: usize = 4 << 10;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    /// A string, with [`HOLE`] for unknown parts.
    Str(String),
    List(Vec<Val>),
    /// What `require('x')`/`import` of module `x` gives.
    Module(String),
    Unknown,
}

impl Val {
    pub fn text(&self) -> Option<&str> {
        match self {
            Val::Str(text) => Some(text),
            _ => None,
        }
    }
}

fn concat(left: Val, right: Val, separator: &str) -> Val {
    let piece = |val: Val| match val {
        Val::Str(text) => text,
        _ => HOLE.to_string(),
    };
    if matches!((&left, &right), (Val::Unknown, Val::Unknown)) {
        return Val::Unknown;
    }
    let (left, right) = (piece(left), piece(right));
    if left.len() + right.len() > MAX_VALUE_BYTES {
        return Val::Unknown;
    }
    if separator.is_empty() || left.is_empty() || left.ends_with('/') || right.starts_with('/') && separator == "/" {
        if separator == "/" && right.starts_with('/') {
            // An absolute right side replaces the left (os.path.join, pathlib, path.resolve).
            return Val::Str(right);
        }
        return Val::Str(left + &right);
    }
    Val::Str(format!("{left}{separator}{right}"))
}

/// Where the receiver of a call must come from for a rule to apply.
#[derive(Debug, Clone, Copy)]
pub enum Receiver {
    /// Any receiver, or none.
    Any,
    /// No receiver, or one whose last name is in the list (`os.remove`, `from os import remove`).
    Module(&'static [&'static str]),
    /// A receiver whose last name is in the list; never bare.
    Only(&'static [&'static str]),
    /// A path object (`Path(…)`, a variable assigned one).
    PathLike,
    /// No receiver at all.
    Bare,
}

/// What a call does.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    /// Writes the arguments at these positions.
    Write(&'static [usize]),
    /// Writes every argument.
    WriteAll,
    /// Writes the argument named `name` or at `position`.
    WriteNamed(&'static str, usize),
    /// Opens `path`; writes when the mode at `mode` (or named `named`) allows writing.
    Open { path: usize, mode: usize, named: &'static str },
    /// `os.open(path, flags)`: writes when the flags name a write.
    OpenFlags { path: usize, flags: usize },
    /// Writes the receiver (`Path(p).write_text(…)`).
    Receiver,
    /// `Path(p).open('w')`: the receiver, when the mode at this position allows writing.
    ReceiverOpen(usize),
    /// `Path(p).rename(q)`: the receiver and the argument.
    ReceiverAnd(usize),
    /// Runs the command (a string, or an argv list) at this position.
    Run(usize),
    /// Runs a program and its arguments given as separate arguments or a list after it.
    RunArgv,
    /// Changes the directory relative paths resolve against.
    Chdir(usize),
    /// Runs code the analysis cannot see (`eval`, `exec`, reflection).
    Opaque,
    /// Perl's `open`: `open(FH, '>', $path)`, `open(FH, ">$path")`, `open(FH, '|-', @cmd)`.
    PerlOpen,
}

#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub name: &'static str,
    pub receiver: Receiver,
    pub op: Op,
}

pub const fn rule(name: &'static str, receiver: Receiver, op: Op) -> Rule {
    Rule { name, receiver, op }
}

/// How one language's expressions compose paths.
pub struct Grammar {
    pub rules: &'static [Rule],
    /// Binary operators that concatenate strings, with the separator they put between.
    pub concat: &'static [(&'static str, &'static str)],
    /// Calls (by their last one or two names) that join their arguments with `/`.
    pub joins: &'static [&'static str],
    /// Calls that concatenate their arguments.
    pub concats: &'static [&'static str],
    /// Calls and methods that return their first argument or receiver as a path.
    pub identities: &'static [&'static str],
    /// Calls that make a path object (their variables are [`Receiver::PathLike`]).
    pub path_types: &'static [&'static str],
    pub assignments: &'static [&'static str],
    /// Characters that start a variable's name (`$x`, `@x`) and are not part of it.
    pub sigils: &'static str,
    /// Python's `'%s/x' % name`.
    pub percent_format: bool,
    /// Perl, Ruby, Lua, R: `unlink $f`, `File.write "x", y` without parentheses.
    pub calls_without_parentheses: bool,
    /// Member separators besides `.`.
    pub members: &'static [&'static str],
    /// `.` separates members (not in Perl and PHP, where it concatenates, nor in R's names).
    pub dot_member: bool,
    /// awk: adjacent values concatenate (`"dir/" name ".md"`).
    pub juxtapose: bool,
}

impl Grammar {
    /// No rules, operators or calls: each language's grammar states only what it has.
    pub const NONE: Grammar = Grammar {
        rules: &[],
        concat: &[],
        joins: &[],
        concats: &[],
        identities: &[],
        path_types: &[],
        assignments: &[],
        sigils: "",
        percent_format: false,
        calls_without_parentheses: false,
        members: &[],
        dot_member: false,
        juxtapose: false,
    };
}

/// One argument of a call: its name when passed by keyword, and its tokens.
struct Argument {
    name: Option<String>,
    start: usize,
    end: usize,
}

pub struct Engine<'a> {
    tokens: &'a [Token],
    grammar: &'a Grammar,
    vars: HashMap<String, Val>,
    path_vars: HashSet<String>,
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

    fn var_name<'t>(&self, text: &'t str) -> &'t str {
        text.trim_start_matches(|c| self.grammar.sigils.contains(c))
    }

    /// The whole pass; a language may run its own rules on the tokens before or after.
    pub fn run(&mut self) {
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
            if token.kind == Kind::Ident {
                self.assignment(at);
                self.call(at);
            }
            at += 1;
        }
    }

    fn note_text(&mut self, text: &str) {
        if self.findings.named.len() < 64
            && crate::paths::names_guarded(text, crate::paths::Dialect::Program)
            && !self.findings.named.iter().any(|named| named == text)
        {
            self.findings.named.push(text.to_string());
        }
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
        let Some(op) = self.token(at + 1) else { return };
        if op.kind != Kind::Punct || !self.grammar.assignments.contains(&op.text.as_str()) {
            return;
        }
        if at > 0 && self.token(at - 1).is_some_and(|before| self.is_member(before)) {
            return;
        }
        // `==` is lexed whole, so `=` here is an assignment.
        let mut pos = at + 2;
        let end = self.statement_end(pos);
        let value = self.expr(&mut pos, end, 0);
        self.note(&value);
        let name = self.var_name(&name.text).to_string();
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
            at = match at.checked_sub(1) {
                Some(previous) => previous,
                None => return Some(0),
            };
        }
    }

    fn call(&mut self, at: usize) {
        let Some(name) = self.token(at) else { return };
        let open = self.token(at + 1);
        let parenthesized = open.is_some_and(|t| t.is("(") && !t.line_start);
        let bare_args = !parenthesized
            && self.grammar.calls_without_parentheses
            && open.is_some_and(|t| {
                !t.line_start && (t.is_str() || t.kind == Kind::Ident || t.kind == Kind::Number || t.is("["))
            });
        if !parenthesized && !bare_args {
            return;
        }
        if !self.grammar.rules.iter().any(|rule| rule.name == name.text) {
            return;
        }
        let (names, start) = self.chain(at);
        let qualifier: Option<&str> = names.len().checked_sub(2).and_then(|i| names.get(i)).copied();
        // `Path('x').write_text`, `/re/.exec`: a method of a value that is not a name.
        let expression_receiver =
            qualifier.is_none() && start > 0 && self.token(start - 1).is_some_and(|dot| self.is_member(dot));
        let applies = |rule: &Rule| match rule.receiver {
            Receiver::Any => true,
            Receiver::Bare => qualifier.is_none() && !expression_receiver,
            Receiver::Module(modules) => {
                (qualifier.is_none() && !expression_receiver)
                    || qualifier.is_some_and(|q| modules.contains(&q) || self.is_module_var(q, modules))
                    || expression_receiver && self.receiver_mentions(start, modules)
            }
            Receiver::Only(modules) => {
                qualifier.is_some_and(|q| modules.contains(&q) || self.is_module_var(q, modules))
                    || expression_receiver && self.receiver_mentions(start, modules)
            }
            Receiver::PathLike => {
                qualifier.is_some_and(|q| self.path_vars.contains(self.var_name(q)))
                    || expression_receiver && self.receiver_is_path(start)
            }
        };
        let Some(rule) = self.grammar.rules.iter().find(|rule| rule.name == name.text && applies(rule)) else { return };
        let args = if parenthesized { self.arguments(at + 1) } else { self.bare_arguments(at + 1) };
        let receiver_range = if expression_receiver {
            start.checked_sub(1).and_then(|dot| self.receiver_start(dot).map(|from| (from, dot)))
        } else {
            // `p.write_text()`: the receiver is the chain before the method.
            at.checked_sub(1).filter(|_| start + 2 <= at).map(|dot| (start, dot))
        };
        let receiver = || receiver_range;
        match rule.op {
            Op::Write(positions) => {
                for &position in positions {
                    if let Some(arg) = positional(&args, position) {
                        let value = self.argument(arg);
                        self.write(value);
                    }
                }
            }
            Op::WriteAll => {
                for arg in args.iter().filter(|a| a.name.is_none()) {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::WriteNamed(named, position) => {
                let arg = named_argument(&args, named).or_else(|| positional(&args, position));
                if let Some(arg) = arg {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::Open { path, mode, named } => {
                let mode = named_argument(&args, named).or_else(|| positional(&args, mode));
                let writes = match mode {
                    None => false,
                    Some(mode) => writes_mode(&self.argument(mode)),
                };
                if let Some(arg) = positional(&args, path) {
                    let value = self.argument(arg);
                    if writes {
                        self.write(value);
                    }
                }
            }
            Op::OpenFlags { path, flags } => {
                let writes = positional(&args, flags).is_none_or(|flags| {
                    let text = self.source_text(flags.start, flags.end);
                    ["WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND"].iter().any(|flag| text.contains(flag))
                        || !text.contains("RDONLY")
                });
                if let Some(arg) = positional(&args, path) {
                    let value = self.argument(arg);
                    if writes {
                        self.write(value);
                    }
                }
            }
            Op::Receiver => {
                let value = self.receiver_value(receiver());
                self.write(value);
            }
            Op::ReceiverOpen(mode) => {
                let writes = positional(&args, mode).is_some_and(|mode| writes_mode(&self.argument(mode)));
                if writes {
                    let value = self.receiver_value(receiver());
                    self.write(value);
                }
            }
            Op::ReceiverAnd(position) => {
                let value = self.receiver_value(receiver());
                self.write(value);
                if let Some(arg) = positional(&args, position) {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::Run(position) => match positional(&args, position) {
                Some(arg) => {
                    let value = self.argument(arg);
                    self.command(&value);
                }
                None => self.findings.sure = false,
            },
            Op::RunArgv if args.len() == 1 && args.first().is_some_and(|a| a.name.is_none()) => {
                // `system("a command line")`: one string is a command line for the shell.
                match args.first().map(|arg| self.argument(arg)) {
                    Some(Val::List(items)) => self.command(&Val::List(items)),
                    Some(value) => self.command(&value),
                    None => self.findings.sure = false,
                }
            }
            Op::RunArgv => {
                let mut argv = Vec::new();
                for arg in args.iter().filter(|a| a.name.is_none()) {
                    match self.argument(arg) {
                        Val::List(items) => argv.extend(items),
                        other => argv.push(other),
                    }
                }
                self.command(&Val::List(argv));
            }
            Op::Chdir(position) => {
                let value = positional(&args, position).map(|arg| self.argument(arg));
                match value {
                    Some(Val::Str(dir)) if !dir.contains(HOLE) => {
                        self.dir = if dir.starts_with('/') { dir } else { join_dir(&self.dir, &dir) };
                    }
                    _ => self.findings.sure = false,
                }
            }
            Op::Opaque => self.findings.sure = false,
            Op::PerlOpen => self.perl_open(&args),
        }
    }

    fn perl_open(&mut self, args: &[Argument]) {
        let values: Vec<Val> = args.iter().skip(1).map(|arg| self.argument(arg)).collect();
        match values.as_slice() {
            [Val::Str(mode), rest @ ..] if !rest.is_empty() => {
                let mode = mode.trim();
                if mode.contains('|') {
                    let argv = Val::List(rest.to_vec());
                    match rest {
                        [single] => self.command(single),
                        _ => self.command(&argv),
                    }
                } else if mode.contains(['>', '+']) || mode.contains(super::lex::HOLE) {
                    for value in rest.iter().take(1) {
                        self.write(value.clone());
                    }
                }
            }
            [Val::Str(spec)] => {
                let spec = spec.trim();
                if let Some(command) = spec.strip_prefix('|').or_else(|| spec.strip_suffix('|')) {
                    self.command(&Val::Str(command.trim().to_string()));
                } else if let Some(path) = ["+<", "+>", ">>", ">"].iter().find_map(|mode| spec.strip_prefix(mode)) {
                    self.write(Val::Str(path.trim().to_string()));
                }
            }
            [] => {}
            _ => self.findings.sure = false,
        }
    }

    fn is_module_var(&self, name: &str, modules: &[&str]) -> bool {
        matches!(self.vars.get(self.var_name(name)), Some(Val::Module(module)) if modules.contains(&module.trim_start_matches("node:")))
    }

    /// `require('child_process').execSync(…)`: the receiver expression names the module.
    fn receiver_mentions(&self, start: usize, modules: &[&str]) -> bool {
        let Some(from) = start.checked_sub(1).and_then(|dot| self.receiver_start(dot)) else { return false };
        self.tokens
            .get(from..start)
            .unwrap_or_default()
            .iter()
            .any(|t| (t.is_str() || t.kind == Kind::Ident) && modules.contains(&t.text.trim_start_matches("node:")))
    }

    fn receiver_is_path(&self, start: usize) -> bool {
        let Some(from) = start.checked_sub(1).and_then(|dot| self.receiver_start(dot)) else { return false };
        self.tokens.get(from..start).unwrap_or_default().iter().any(|t| {
            t.kind == Kind::Ident
                && (self.grammar.path_types.contains(&t.text.as_str()) || self.path_vars.contains(&t.text))
        })
    }

    fn receiver_value(&mut self, range: Option<(usize, usize)>) -> Val {
        match range {
            Some((from, to)) => {
                let mut pos = from;
                self.expr(&mut pos, to, 0)
            }
            None => Val::Unknown,
        }
    }

    fn source_text(&self, from: usize, to: usize) -> String {
        let mut text = String::new();
        for token in self.tokens.get(from..to).unwrap_or_default() {
            text.push_str(&token.text);
            text.push(' ');
        }
        text
    }

    fn argument(&mut self, arg: &Argument) -> Val {
        let mut pos = arg.start;
        let value = self.expr(&mut pos, arg.end, 0);
        self.note(&value);
        value
    }

    /// The arguments of the call whose `(` is at `open`.
    fn arguments(&self, open: usize) -> Vec<Argument> {
        let mut args = Vec::new();
        let mut depth = 0usize;
        let mut start = open + 1;
        let mut at = open + 1;
        while let Some(token) = self.token(at) {
            if self.spent() {
                break;
            }
            if token.kind == Kind::Punct {
                match token.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" if depth == 0 => {
                        self.push_argument(&mut args, start, at);
                        return args;
                    }
                    ")" | "]" | "}" => depth -= 1,
                    "," if depth == 0 => {
                        self.push_argument(&mut args, start, at);
                        start = at + 1;
                    }
                    _ => {}
                }
            }
            at += 1;
        }
        self.push_argument(&mut args, start, at);
        args
    }

    /// `unlink $a, $b;`: the arguments up to the end of the statement.
    fn bare_arguments(&self, from: usize) -> Vec<Argument> {
        let end = self.statement_end(from);
        let mut args = Vec::new();
        let mut depth = 0usize;
        let mut start = from;
        for at in from..end {
            let Some(token) = self.token(at) else { break };
            if token.kind == Kind::Punct {
                match token.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    "," if depth == 0 => {
                        self.push_argument(&mut args, start, at);
                        start = at + 1;
                    }
                    _ => {}
                }
            } else if depth == 0
                && token.kind == Kind::Ident
                && matches!(token.text.as_str(), "if" | "unless" | "or" | "and" | "do")
            {
                self.push_argument(&mut args, start, at);
                return args;
            }
        }
        self.push_argument(&mut args, start, end);
        args
    }

    fn push_argument(&self, args: &mut Vec<Argument>, start: usize, end: usize) {
        if start >= end {
            return;
        }
        // `mode='w'`, `file = p`, `mode: 'w'`.
        let named = match (self.token(start), self.token(start + 1)) {
            (Some(name), Some(eq)) if name.kind == Kind::Ident && (eq.is("=") || eq.is(":")) && start + 2 < end => {
                Some(name.text.clone())
            }
            _ => None,
        };
        match named {
            Some(name) => args.push(Argument { name: Some(name), start: start + 2, end }),
            None => args.push(Argument { name: None, start, end }),
        }
    }

    /// A file the program writes.
    pub fn write(&mut self, value: Val) {
        match value {
            Val::Str(text) if !text.is_empty() => {
                // A computed part could make any path; one that names a guarded location is
                // judged as it stands.
                if text.contains(HOLE) && !crate::paths::names_guarded(&text, crate::paths::Dialect::Program) {
                    self.findings.sure = false;
                }
                let located =
                    if text.starts_with('/') || self.dir.is_empty() { text } else { join_dir(&self.dir, &text) };
                self.findings.writes.push(located);
            }
            Val::List(items) => {
                for item in items {
                    self.write(item);
                }
            }
            _ => self.findings.sure = false,
        }
    }

    /// A command line the program starts.
    pub fn command(&mut self, value: &Val) {
        let line = match value {
            Val::Str(text) => Some(text.clone()),
            Val::List(items) if !items.is_empty() => {
                let words: Option<Vec<String>> = items.iter().map(|item| item.text().map(shell_word)).collect();
                words.map(|words| words.join(" "))
            }
            _ => None,
        };
        match line {
            Some(line) => {
                let line = if self.dir.is_empty() { line } else { format!("cd {} && {line}", shell_word(&self.dir)) };
                self.findings.commands.push(line.replace(HOLE, "${PROGRAM_VALUE}"));
            }
            None => self.findings.sure = false,
        }
    }

    /// The value of the expression at `*pos` (before `end`).
    pub fn expr(&mut self, pos: &mut usize, end: usize, depth: usize) -> Val {
        if depth > MAX_EXPRESSION_DEPTH || self.spent() {
            return Val::Unknown;
        }
        let mut value = self.term(pos, end, depth + 1);
        while *pos < end {
            let Some(token) = self.token(*pos) else { break };
            if self.grammar.juxtapose && token.kind != Kind::Punct && !token.line_start {
                let right = self.term(pos, end, depth + 1);
                value = concat(value, right, "");
                continue;
            }
            if token.kind != Kind::Punct {
                break;
            }
            if let Some(&(_, separator)) = self.grammar.concat.iter().find(|(op, _)| token.text == *op) {
                *pos += 1;
                let right = self.term(pos, end, depth + 1);
                value = concat(value, right, separator);
                continue;
            }
            if self.grammar.percent_format && token.is("%") {
                *pos += 1;
                let _arguments = self.term(pos, end, depth + 1);
                value = match value {
                    Val::Str(text) => Val::Str(percent_holes(&text)),
                    _ => Val::Unknown,
                };
                continue;
            }
            break;
        }
        value
    }

    fn term(&mut self, pos: &mut usize, end: usize, depth: usize) -> Val {
        if depth > MAX_EXPRESSION_DEPTH || *pos >= end || self.spent() {
            return Val::Unknown;
        }
        let Some(token) = self.token(*pos) else { return Val::Unknown };
        *pos += 1;
        let mut value = match &token.kind {
            Kind::Str { .. } => Val::Str(token.text.clone()),
            Kind::Number => Val::Str(token.text.clone()),
            Kind::Ident if matches!(token.text.as_str(), "new" | "await" | "r" | "b") => self.term(pos, end, depth + 1),
            Kind::Ident => self.named(token, pos, end, depth),
            Kind::Punct if token.is("(") => {
                let inner = self.expr(pos, end, depth + 1);
                self.skip_to_close(pos, end);
                inner
            }
            Kind::Punct if token.is("[") => Val::List(self.list(pos, end, depth, "]")),
            Kind::Punct => Val::Unknown,
        };
        // Method calls and subscripts after the value.
        while *pos + 1 < end {
            let (Some(dot), Some(method)) = (self.token(*pos), self.token(*pos + 1)) else { break };
            if dot.is("[") {
                *pos += 1;
                self.skip_to_close(pos, end);
                value = Val::Unknown;
                continue;
            }
            if !self.is_member(dot) || method.kind != Kind::Ident {
                break;
            }
            *pos += 2;
            let called = self.token(*pos).is_some_and(|t| t.is("("));
            let args = if called {
                *pos += 1;
                self.list(pos, end, depth, ")")
            } else {
                Vec::new()
            };
            value = self.method(value, &method.text, args);
        }
        value
    }

    fn method(&self, value: Val, method: &str, args: Vec<Val>) -> Val {
        if self.grammar.identities.contains(&method) {
            return value;
        }
        match (method, value) {
            ("format", Val::Str(text)) => Val::Str(brace_holes(&text)),
            ("join", Val::Str(separator)) => match args.into_iter().next() {
                Some(Val::List(items)) => {
                    items.into_iter().reduce(|a, b| concat(a, b, &separator)).unwrap_or(Val::Str(String::new()))
                }
                _ => Val::Unknown,
            },
            ("joinpath", value @ Val::Str(_)) => args.into_iter().fold(value, |a, b| concat(a, b, "/")),
            ("parent", Val::Str(text)) => {
                Val::Str(text.rsplit_once('/').map_or_else(|| ".".to_string(), |(dir, _)| dir.to_string()))
            }
            ("concat", value @ Val::Str(_)) => args.into_iter().fold(value, |a, b| concat(a, b, "")),
            _ => Val::Unknown,
        }
    }

    /// An identifier: a variable, or a call of a function the grammar knows.
    fn named(&mut self, token: &'a Token, pos: &mut usize, end: usize, depth: usize) -> Val {
        let mut names: Vec<&'a str> = vec![&token.text];
        while *pos + 1 < end {
            let (Some(dot), Some(next)) = (self.token(*pos), self.token(*pos + 1)) else { break };
            if !self.is_member(dot) || next.kind != Kind::Ident {
                break;
            }
            names.push(&next.text);
            *pos += 2;
        }
        let called = *pos < end && self.token(*pos).is_some_and(|t| t.is("("));
        if !called {
            return match names.as_slice() {
                [only] => self.vars.get(self.var_name(only)).cloned().unwrap_or(Val::Unknown),
                [.., last] if matches!(*last, "curdir" | "__dirname") => Val::Str(".".to_string()),
                _ => Val::Unknown,
            };
        }
        *pos += 1;
        let args = self.list(pos, end, depth, ")");
        let last = names.last().copied().unwrap_or_default();
        let before_last = names.len().checked_sub(2).and_then(|at| names.get(at)).copied();
        // An entry is a last name (`join`) or the last two (`path.join`).
        let known = |list: &[&str]| {
            list.iter().any(|entry| {
                *entry == last
                    || entry
                        .strip_suffix(last)
                        .and_then(|head| head.strip_suffix('.'))
                        .is_some_and(|qualifier| before_last == Some(qualifier))
            })
        };
        if known(self.grammar.joins) || known(self.grammar.path_types) {
            return args.into_iter().reduce(|a, b| concat(a, b, "/")).unwrap_or(Val::Str(".".to_string()));
        }
        if known(self.grammar.concats) {
            return args.into_iter().reduce(|a, b| concat(a, b, "")).unwrap_or(Val::Str(String::new()));
        }
        if known(self.grammar.identities) {
            return args.into_iter().next().unwrap_or(Val::Unknown);
        }
        if matches!(last, "cwd" | "getcwd" | "pwd") {
            return Val::Str(".".to_string());
        }
        if matches!(last, "require") {
            return match args.into_iter().next() {
                Some(Val::Str(spec)) => Val::Module(spec),
                _ => Val::Unknown,
            };
        }
        Val::Unknown
    }

    /// Comma-separated values up to the closing `close`.
    fn list(&mut self, pos: &mut usize, end: usize, depth: usize, close: &str) -> Vec<Val> {
        let mut items = Vec::new();
        while *pos < end {
            if self.spent() {
                break;
            }
            let Some(token) = self.token(*pos) else { break };
            if token.is(close) {
                *pos += 1;
                return items;
            }
            if token.is(",") {
                *pos += 1;
                continue;
            }
            let before = *pos;
            // Keyword arguments: `sep='/'` is not a value of the list.
            let keyword = self.token(*pos + 1).is_some_and(|t| t.is("=")) && token.kind == Kind::Ident;
            if keyword {
                *pos += 2;
                let _ = self.expr(pos, end, depth + 1);
            } else {
                let item = self.expr(pos, end, depth + 1);
                items.push(item);
            }
            if *pos == before {
                // Something the evaluator does not read: skip it, stay in the list.
                *pos += 1;
                if let Some(last) = items.last_mut() {
                    *last = Val::Unknown;
                }
            }
        }
        items
    }

    /// Moves past the `)` or `]` that closes the group the cursor is in.
    fn skip_to_close(&self, pos: &mut usize, end: usize) {
        let mut depth = 0usize;
        while *pos < end {
            let Some(token) = self.token(*pos) else { return };
            *pos += 1;
            if self.spent() {
                return;
            }
            if token.kind != Kind::Punct {
                continue;
            }
            match token.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => return,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
    }
}

fn positional(args: &[Argument], position: usize) -> Option<&Argument> {
    args.iter().filter(|a| a.name.is_none()).nth(position)
}

fn named_argument<'x>(args: &'x [Argument], name: &str) -> Option<&'x Argument> {
    if name.is_empty() {
        return None;
    }
    args.iter().find(|a| a.name.as_deref() == Some(name))
}

/// A mode or flags value that allows writing (`'w'`, `'a+'`, `'r+'`, `'x'`, unknown).
pub fn writes_mode(mode: &Val) -> bool {
    match mode {
        Val::Str(text) => {
            text.contains(HOLE) || text.contains(['w', 'a', 'x', '+', 'W', 'A']) || text.contains("WRITE")
        }
        // `{ flag: 'w' }` objects and computed modes.
        _ => true,
    }
}

fn join_dir(dir: &str, path: &str) -> String {
    if dir.is_empty() { path.to_string() } else { format!("{}/{path}", dir.trim_end_matches('/')) }
}

/// `%s`, `%d`, `%(name)s` become holes.
fn percent_holes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('%') => {
                chars.next();
                out.push('%');
            }
            Some(_) => {
                for next in chars.by_ref() {
                    if next.is_ascii_alphabetic() {
                        break;
                    }
                }
                out.push(HOLE);
            }
            None => out.push('%'),
        }
    }
    out
}

/// `{}`, `{0}`, `{name}` become holes (`str.format`).
fn brace_holes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                for next in chars.by_ref() {
                    if next == '}' {
                        break;
                    }
                }
                out.push(HOLE);
            }
            other => out.push(other),
        }
    }
    out
}

/// A word quoted for bash, with holes left outside the quotes.
pub fn shell_word(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:@%,".contains(c)) {
        return text.to_string();
    }
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str(r"'\''"),
            HOLE => out.push_str("'\u{1}'"),
            other => out.push(other),
        }
    }
    out.push('\'');
    out
}
