//! The calls in a language's table: which argument is written or run, and from where.

use super::value::{copied_into, guarded_matches, join_dir, push_new, run_in, shell_word, wildcarded};
use super::{Argument, Engine, Op, Receiver, Rule, Val, writes_mode};
use crate::programs::lex::{HOLE, Kind};

impl Engine<'_> {
    /// Judges the call at identifier `at` by the language's table; true when a rule applied.
    pub(super) fn call(&mut self, at: usize) -> bool {
        let Some(name) = self.token(at) else { return false };
        let open = self.token(at + 1).filter(|t| !t.line_start);
        let parenthesized = open.is_some_and(|t| t.is("("));
        let bare_args = !parenthesized
            && self.grammar.calls_without_parentheses
            && open.is_some_and(|t| t.is_str() || t.kind == Kind::Ident || t.kind == Kind::Number || t.is("["));
        let defines = at
            .checked_sub(1)
            .and_then(|b| self.token(b))
            .is_some_and(|b| b.kind == Kind::Ident && self.grammar.definitions.contains(&b.text.as_str()));
        if defines || !self.grammar.rules.iter().any(|rule| rule.name == name.text) {
            return false;
        }
        let block = self.grammar.calls_without_parentheses && open.is_some_and(|t| t.is("{"));
        // Perl's `unlink;`: on the default variable.
        let defaulted = !self.grammar.default_argument.is_empty() && self.ends_statement(at + 1);
        let called = parenthesized || bare_args || defaulted;
        if !called && !block && !self.grammar.function_values {
            return false;
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
        let Some(rule) = self.grammar.rules.iter().find(|rule| rule.name == name.text && applies(rule)) else {
            return false;
        };
        if block || !called {
            // P-18: `pcall(os.remove, p)`, `system { $program } @args`: a writer passed on, or
            // given what a block computes; called with arguments the analysis does not see.
            self.findings.sure = false;
            return true;
        }
        let mut args = if parenthesized {
            self.arguments(at + 1)
        } else if bare_args {
            self.bare_arguments(at + 1)
        } else {
            Vec::new()
        };
        if let Some(&(_, formals)) = self.grammar.formals.iter().find(|(callee, _)| *callee == name.text) {
            self.match_formals(&mut args, formals);
        }
        if args.iter().any(|arg| self.spreads(arg)) {
            // `copy(...$paths)`: arguments the call's text does not place.
            self.findings.sure = false;
            return true;
        }
        if args.is_empty() && defaulted && qualifier.is_none() && !expression_receiver {
            self.default_call(rule.op);
            return true;
        }
        let Some(dir) = self.command_dir(&args, rule.op, &name.text) else { return true };
        let outer = dir.map(|dir| std::mem::replace(&mut self.dir, dir));
        let receiver_range = if expression_receiver {
            start.checked_sub(1).and_then(|dot| self.receiver_start(dot).map(|from| (from, dot)))
        } else {
            // `p.write_text()`: the receiver is the chain before the method.
            at.checked_sub(1).filter(|_| start + 2 <= at).map(|dot| (start, dot))
        };
        self.apply(rule.op, &args, receiver_range);
        if let Some(outer) = outer {
            self.dir = outer;
        }
        true
    }

    /// Where the statement goes on after a callee at `at`: nothing of it is left (`;`, a closing
    /// bracket, a new line) or a statement modifier follows (Perl's `unlink if $x`).
    fn ends_statement(&self, at: usize) -> bool {
        match self.token(at) {
            None => true,
            Some(t) if t.line_start => true,
            Some(t) if t.kind == Kind::Punct => matches!(t.text.as_str(), ";" | "}" | ")"),
            Some(t) => {
                matches!(t.text.as_str(), "if" | "unless" | "for" | "foreach" | "while" | "until" | "or" | "and")
            }
        }
    }

    /// A writer called without arguments, on the language's default variable (Perl's
    /// `unlink;` removes `$_`).
    fn default_call(&mut self, op: Op) {
        let value = self.vars.get(self.grammar.default_argument).cloned().unwrap_or(Val::Unknown);
        match op {
            Op::Write(_) | Op::WriteAll | Op::WriteFrom(0) | Op::Receiver => self.write(value),
            Op::Run(0) | Op::RunArgv => self.command(&value),
            Op::Opaque => self.findings.sure = false,
            _ => {}
        }
    }

    /// An argument spread from a list (`...$a`): it fills places the call's text does not show.
    fn spreads(&self, arg: &Argument) -> bool {
        let text: String =
            self.tokens.get(arg.start..arg.end).unwrap_or_default().iter().take(2).map(|t| t.text.as_str()).collect();
        text.starts_with("...") && arg.end > arg.start + 2
    }

    /// The directory a command the call starts runs in when the call names one (`system(…,
    /// chdir: d)`); `None` when it names one the analysis cannot compute.
    fn command_dir(&mut self, args: &[Argument], op: Op, callee: &str) -> Option<Option<String>> {
        let starts = matches!(op, Op::Run(_) | Op::RunArgv | Op::PipeOpen { .. });
        let option = self.grammar.chdir_option;
        let formals = self.grammar.formals.iter().find(|(name, _)| *name == callee).map(|(_, formals)| *formals);
        let placed = formals.and_then(|formals| formals.iter().position(|formal| *formal == option));
        let given = named_argument(args, option).or_else(|| placed.and_then(|place| positional(args, place)));
        let Some(arg) = given.filter(|_| starts) else { return Some(None) };
        match self.argument(arg) {
            Val::Str(dir) if !dir.contains(HOLE) => {
                Some(Some(if dir.starts_with('/') { dir } else { join_dir(&self.dir, &dir) }))
            }
            _ => {
                self.findings.sure = false;
                None
            }
        }
    }

    /// What the rule's operation writes and starts, given the call's arguments and the range of
    /// its receiver.
    fn apply(&mut self, op: Op, args: &[Argument], receiver_range: Option<(usize, usize)>) {
        let receiver = || receiver_range;
        match op {
            Op::Write(positions) => {
                for &position in positions {
                    if let Some(arg) = positional(args, position) {
                        let value = self.argument(arg);
                        self.write(value);
                    }
                }
            }
            Op::Move(from, to) => {
                if let Some(arg) = positional(args, from) {
                    let value = self.argument(arg);
                    self.write(value);
                }
                self.tree_at(args, to);
            }
            Op::Copy(from, to) => {
                let source = positional(args, from).map(|arg| self.argument(arg));
                if let Some(arg) = positional(args, to) {
                    let destination = self.argument(arg);
                    let source = source.as_ref().and_then(Val::text);
                    if let Some(landed) = destination.text().and_then(|dir| copied_into(source, dir)) {
                        self.write(Val::Str(landed));
                    }
                    self.write(destination);
                }
            }
            Op::WriteTree(position) => self.tree_at(args, position),
            Op::WriteAll => {
                for arg in args.iter().filter(|a| a.name.is_none()) {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::WriteFrom(first) => {
                for arg in args.iter().filter(|a| a.position.is_some_and(|position| position >= first)) {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::WriteNamed(named, position) => {
                let arg = named_argument(args, named).or_else(|| positional(args, position));
                if let Some(arg) = arg {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::Open { path, mode, named } => {
                let mode = named_argument(args, named).or_else(|| positional(args, mode));
                let writes = match mode {
                    None => false,
                    Some(mode) => writes_mode(&self.argument(mode)),
                };
                if let Some(arg) = positional(args, path) {
                    let value = self.argument(arg);
                    if writes {
                        self.write(value);
                    }
                }
            }
            Op::OpenFlags { path, flags } => {
                let writes = positional(args, flags).is_none_or(|flags| {
                    let text = self.source_text(flags.start, flags.end);
                    ["WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND"].iter().any(|flag| text.contains(flag))
                        || !text.contains("RDONLY")
                });
                if let Some(arg) = positional(args, path) {
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
                let writes = positional(args, mode).is_some_and(|mode| writes_mode(&self.argument(mode)));
                if writes {
                    let value = self.receiver_value(receiver());
                    self.write(value);
                }
            }
            Op::ReceiverAnd(position) => {
                let value = self.receiver_value(receiver());
                self.write(value);
                if let Some(arg) = positional(args, position) {
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::Run(position) => match positional(args, position) {
                Some(arg) => {
                    let value = self.argument(arg);
                    self.command(&value);
                }
                None => self.findings.sure = false,
            },
            Op::RunArgv if args.iter().filter(|a| a.name.is_none()).count() == 1 => {
                // `system("a command line")`: one string is a command line for the shell.
                match args.iter().find(|a| a.name.is_none()).map(|arg| self.argument(arg)) {
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
            Op::RunPasted { program, words, outputs, env } => {
                self.run_pasted(args, program, words, env);
                for &output in outputs {
                    let Some(arg) = positional(args, output).filter(|arg| !self.is_keyword(arg)) else { continue };
                    let value = self.argument(arg);
                    self.write(value);
                }
            }
            Op::Chdir(position) => {
                let value = positional(args, position).map(|arg| self.argument(arg));
                match value {
                    Some(Val::Str(dir)) if !dir.contains(HOLE) => {
                        self.dir = if dir.starts_with('/') { dir } else { join_dir(&self.dir, &dir) };
                    }
                    _ => self.findings.sure = false,
                }
            }
            Op::Opaque => self.findings.sure = false,
            Op::PerlOpen => self.perl_open(args),
            Op::PerlIoFile => self.perl_io_file(args),
            Op::PipeOpen { path, mode } => self.pipe_open(args, path, mode),
        }
    }

    /// Perl's `IO::File->new(P, MODE)`: a mode string (`>`, `>>`, `+<`, `w`, `a`, `r+`) or
    /// `O_*` flags; with one argument, a two-argument `open` spec (`">P"`).
    pub(super) fn perl_io_file(&mut self, args: &[Argument]) {
        let Some(path) = positional(args, 0) else { return };
        let Some(mode) = positional(args, 1) else {
            let spec = self.argument(path);
            match spec {
                Val::Str(spec) => self.perl_spec(&spec),
                _ => self.findings.sure = false,
            }
            return;
        };
        let writes = match self.argument(mode) {
            Val::Str(mode) => mode.contains(HOLE) || mode.contains(['>', '+', 'w', 'a']),
            _ => {
                let text = self.source_text(mode.start, mode.end);
                !text.contains("RDONLY")
                    || ["WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND"].iter().any(|f| text.contains(f))
            }
        };
        let value = self.argument(path);
        if writes {
            self.write(value);
        }
    }

    /// Ruby's `Kernel.open`/`open`: `"|cmd"` runs a command, a write mode writes the path.
    pub(super) fn pipe_open(&mut self, args: &[Argument], path: usize, mode: usize) {
        let Some(path) = positional(args, path) else { return };
        let value = self.argument(path);
        if let Val::Str(text) = &value
            && let Some(command) = text.strip_prefix('|')
        {
            self.command(&Val::Str(command.to_string()));
            return;
        }
        let writes = match named_argument(args, "mode").or_else(|| positional(args, mode)) {
            None => false,
            Some(mode) => writes_mode(&self.argument(mode)),
        };
        if writes {
            self.write(value);
        }
    }

    pub(super) fn perl_open(&mut self, args: &[Argument]) {
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
                } else if mode.contains(['>', '+']) || mode.contains(HOLE) {
                    for value in rest.iter().take(1) {
                        self.write(value.clone());
                    }
                }
            }
            [Val::Str(spec)] => self.perl_spec(spec),
            [] => self.perl_open_handle(args),
            _ => self.findings.sure = false,
        }
    }

    /// One-argument `open F`: the spec is the package scalar of the handle's name (`$F`).
    fn perl_open_handle(&mut self, args: &[Argument]) {
        let handle = args.first().and_then(|arg| match self.tokens.get(arg.start..arg.end) {
            Some([name]) if name.kind == Kind::Ident => Some(self.var_name(&name.text).to_string()),
            _ => None,
        });
        match handle.and_then(|name| self.vars.get(&name).cloned()) {
            Some(Val::Str(spec)) => self.perl_spec(&spec),
            _ if args.is_empty() => {}
            _ => self.findings.sure = false,
        }
    }

    /// A two-argument `open` spec: `">P"`, `">>P"`, `"+<P"`, `"|cmd"`, `"cmd|"`.
    fn perl_spec(&mut self, spec: &str) {
        let spec = spec.trim();
        if let Some(command) = spec.strip_prefix('|').or_else(|| spec.strip_suffix('|')) {
            self.command(&Val::Str(command.trim().to_string()));
        } else if let Some(path) = ["+<", "+>", ">>", ">"].iter().find_map(|mode| spec.strip_prefix(mode)) {
            self.write(Val::Str(path.trim().to_string()));
        } else if spec.starts_with(HOLE) {
            // A computed mode could be `>`.
            self.findings.sure = false;
        }
    }

    pub(super) fn is_module_var(&self, name: &str, modules: &[&str]) -> bool {
        matches!(self.vars.get(self.var_name(name)), Some(Val::Module(module)) if modules.contains(&module.trim_start_matches("node:")))
    }

    /// `require('child_process').execSync(…)`: the receiver expression names the module.
    pub(super) fn receiver_mentions(&self, start: usize, modules: &[&str]) -> bool {
        let Some(from) = start.checked_sub(1).and_then(|dot| self.receiver_start(dot)) else { return false };
        self.tokens
            .get(from..start)
            .unwrap_or_default()
            .iter()
            .any(|t| (t.is_str() || t.kind == Kind::Ident) && modules.contains(&t.text.trim_start_matches("node:")))
    }

    pub(super) fn receiver_is_path(&self, start: usize) -> bool {
        let Some(from) = start.checked_sub(1).and_then(|dot| self.receiver_start(dot)) else { return false };
        self.tokens.get(from..start).unwrap_or_default().iter().any(|t| {
            t.kind == Kind::Ident
                && (self.grammar.path_types.contains(&t.text.as_str()) || self.path_vars.contains(&t.text))
        })
    }

    pub(super) fn receiver_value(&mut self, range: Option<(usize, usize)>) -> Val {
        match range {
            Some((from, to)) => {
                let mut pos = from;
                self.expr(&mut pos, to, 0)
            }
            None => Val::Unknown,
        }
    }

    pub(super) fn source_text(&self, from: usize, to: usize) -> String {
        let mut text = String::new();
        for token in self.tokens.get(from..to).unwrap_or_default() {
            text.push_str(&token.text);
            text.push(' ');
        }
        text
    }

    pub(super) fn argument(&mut self, arg: &Argument) -> Val {
        let mut pos = arg.start;
        let value = self.expr(&mut pos, arg.end, 0);
        self.note(&value);
        value
    }

    /// The arguments of the call whose `(` is at `open`.
    pub(super) fn arguments(&self, open: usize) -> Vec<Argument> {
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
                    "," | "=>" if depth == 0 && self.is_comma(token) => {
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
    pub(super) fn bare_arguments(&self, from: usize) -> Vec<Argument> {
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
                    "," | "=>" if depth == 0 && self.is_comma(token) => {
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

    pub(super) fn push_argument(&self, args: &mut Vec<Argument>, start: usize, end: usize) {
        if start >= end {
            return;
        }
        // `mode='w'`, `file = p`, `mode: 'w'`; not Lua's method call `p:lower()`.
        let named = match (self.token(start), self.token(start + 1)) {
            (Some(name), Some(eq))
                if name.kind == Kind::Ident
                    && (eq.is("=") || (eq.is(":") && !self.is_member(eq)))
                    && start + 2 < end =>
            {
                Some(name.text.clone())
            }
            _ => None,
        };
        match named {
            Some(name) => args.push(Argument { name: Some(name), position: None, start: start + 2, end }),
            None => {
                let position = args.iter().filter(|a| a.name.is_none()).count();
                args.push(Argument { name: None, position: Some(position), start, end });
            }
        }
    }

    /// R's argument matching: exact names first, then a name that is the prefix of one formal
    /// before `...` (`co =` is `con =`), then the unnamed arguments in order into the formals
    /// left before `...`. An argument forwarding `...` could fill any formal: unsure.
    fn match_formals(&mut self, args: &mut [Argument], formals: &[&str]) {
        let dots = formals.iter().position(|formal| *formal == "...").unwrap_or(formals.len());
        let mut taken = vec![false; formals.len()];
        for arg in args.iter_mut() {
            let exact = arg.name.as_deref().and_then(|name| formals.iter().position(|formal| *formal == name));
            arg.position = exact.filter(|&position| position != dots && take(&mut taken, position));
        }
        for arg in args.iter_mut().filter(|arg| arg.position.is_none()) {
            let Some(name) = arg.name.as_deref() else { continue };
            let mut prefixed = formals
                .iter()
                .enumerate()
                .take(dots)
                .filter(|(position, formal)| formal.starts_with(name) && taken.get(*position) == Some(&false));
            // A prefix of two formals is an error in R: the call fails before it writes.
            if let (Some((position, formal)), None) = (prefixed.next(), prefixed.next()) {
                arg.name = Some((*formal).to_string());
                arg.position = Some(position).filter(|&position| take(&mut taken, position));
            }
        }
        let mut free = (0..dots).filter(|position| taken.get(*position) == Some(&false));
        for arg in args.iter_mut().filter(|arg| arg.name.is_none()) {
            arg.position = free.next();
        }
        if args.iter().any(|arg| self.forwards_dots(arg)) {
            self.findings.sure = false;
        }
    }

    /// `system2(program, words)`: `'program' word word…`, the words as the shell reads them.
    fn run_pasted(&mut self, args: &[Argument], program: usize, words: usize, env: usize) {
        let program = positional(args, program).map(|arg| self.argument(arg));
        let words = positional(args, words).map(|arg| self.argument(arg)).unwrap_or(Val::List(Vec::new()));
        let words: Option<Vec<String>> = match words {
            Val::Str(word) => Some(vec![word]),
            Val::List(items) => items.iter().map(|item| item.text().map(str::to_string)).collect(),
            _ => None,
        };
        match (program, words) {
            (Some(Val::Str(program)), Some(words)) if positional(args, env).is_none() => {
                let line = std::iter::once(shell_word(&program)).chain(words).collect::<Vec<_>>().join(" ");
                self.command(&Val::Str(line));
            }
            _ => self.findings.sure = false,
        }
    }

    /// An argument that is one of the language's keywords (`TRUE`, `NULL`).
    fn is_keyword(&self, arg: &Argument) -> bool {
        let tokens = self.tokens.get(arg.start..arg.end).unwrap_or_default();
        matches!(tokens, [word] if word.kind == Kind::Ident && self.grammar.keywords.contains(&word.text.as_str()))
    }

    /// `f(...)`: the argument is the caller's `...`.
    fn forwards_dots(&self, arg: &Argument) -> bool {
        let text: String =
            self.tokens.get(arg.start..arg.end).unwrap_or_default().iter().map(|t| t.text.as_str()).collect();
        text == "..."
    }

    /// The argument at `position` filled with a tree.
    fn tree_at(&mut self, args: &[Argument], position: usize) {
        if let Some(arg) = positional(args, position) {
            let value = self.argument(arg);
            self.record(value, true);
        }
    }

    /// A file the program writes.
    pub fn write(&mut self, value: Val) {
        self.record(value, false);
    }

    /// A directory the program fills with a tree.
    pub fn write_tree(&mut self, value: Val) {
        self.record(value, true);
    }

    /// A path written, as a file or a tree.
    fn record(&mut self, value: Val, tree: bool) {
        match value {
            Val::Str(text) if !text.is_empty() => {
                let text = self.unwrapped(text);
                // A computed part could make any path; one that names a guarded location is
                // judged as it stands.
                if text.contains(HOLE) && !crate::paths::names_guarded(&text, crate::paths::Dialect::Program) {
                    self.findings.sure = false;
                }
                let locate = |text: String| {
                    if text.starts_with('/') || self.dir.is_empty() { text } else { join_dir(&self.dir, &text) }
                };
                // Under P-18's default, a computed part may be any guarded location around it.
                let computed = self.grammar.unknown_calls_unproven
                    && !crate::paths::names_guarded(&text, crate::paths::Dialect::Program);
                let matches: Vec<String> =
                    if computed { guarded_matches(&text).into_iter().map(locate).collect() } else { Vec::new() };
                self.findings.writes.extend(matches);
                let located = locate(text);
                if tree { push_new(&mut self.findings.trees, located) } else { self.findings.writes.push(located) }
            }
            Val::List(items) => {
                for item in items {
                    self.record(item, tree);
                }
            }
            _ => self.findings.sure = false,
        }
    }

    /// The file inside a stream wrapper's path (PHP's `php://filter/…/resource=P` is `P`).
    fn unwrapped(&self, text: String) -> String {
        let lower = text.to_ascii_lowercase();
        let inner = self.grammar.wrappers.iter().find_map(|(prefix, marker)| {
            let rest = lower.strip_prefix(prefix)?;
            let from = text.len() - rest.len() + if marker.is_empty() { 0 } else { rest.find(marker)? + marker.len() };
            text.get(from..)
        });
        match inner {
            // A wrapped path may be wrapped again (`php://filter/resource=compress.zlib://P`).
            Some(inner) if !inner.is_empty() && inner.len() < text.len() => self.unwrapped(inner.to_string()),
            _ => text,
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
        // P-18: a command whose name the analysis could not compute (`` `$c` ``, `system($cmd)`,
        // `ls; $rest`) may be any command; a computed argument is read as any name (`*`).
        let uncomputed = match value {
            Val::List(items) => items.first().and_then(Val::text).is_some_and(|program| program.contains(HOLE)),
            _ => line.as_ref().is_some_and(|line| {
                line.split(['\n', ';', '&', '|', '(', ')', '`'])
                    .any(|command| command.split_whitespace().next().is_some_and(|name| name.contains(HOLE)))
            }),
        };
        match line {
            Some(line) => {
                self.findings.sure &= !uncomputed;
                self.findings.commands.push(wildcarded(&run_in(&self.dir, line)));
            }
            None => self.findings.sure = false,
        }
    }
}

/// Marks the formal at `position` filled; false when it already was.
fn take(taken: &mut [bool], position: usize) -> bool {
    taken.get_mut(position).is_some_and(|slot| !std::mem::replace(slot, true))
}

pub(super) fn positional(args: &[Argument], position: usize) -> Option<&Argument> {
    args.iter().find(|a| a.position == Some(position))
}

pub(super) fn named_argument<'x>(args: &'x [Argument], name: &str) -> Option<&'x Argument> {
    if name.is_empty() {
        return None;
    }
    args.iter().find(|a| a.name.as_deref() == Some(name))
}
