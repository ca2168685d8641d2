//! A command as PowerShell looks its name up: an alias the line (or the shell) defined, then a
//! function, whose body is walked with its parameters bound, then a cmdlet or a program.

use std::rc::Rc;

use tree_sitter::{Node, Tree};

use super::cmdlet::{NATIVE_ON_UNIX, program_words};
use super::definitions::{MAX_ALIAS_HOPS, function_key, parameters, uncertain_names};
use super::hashtables::splatted;
use super::targets::basename;
use super::{Session, Walk, Walker, child_of_kind, children, escapes_blank};
use crate::analysis::Unscannable;
use crate::analysis::fs;
use crate::analysis::handoff::MAX_SCRIPT_FILE_BYTES;
use crate::analysis::values::Value;
use crate::powershell::cmdlets::{self, Element};
use crate::powershell::state::Function;
use crate::powershell::words;
use crate::powershell::{cmd, invocation};

impl Walker<'_> {
    /// One command; returns the paths it passes down a pipeline when they are known.
    pub(super) fn command(
        &mut self,
        node: Node,
        walk: &Walk,
        scope: &mut Session,
        depth: usize,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        if let Some(piped) = piped {
            for name in ["_", "psitem"] {
                Rc::make_mut(&mut scope.vars).insert(name.to_string(), piped.to_vec());
            }
        }
        let name_node = node.child_by_field_name("command_name");
        let mut names = Vec::new();
        if let Some(name_node) = name_node {
            if name_node.kind() == "command_name_expr" {
                self.children(name_node, walk, scope, depth + 1)?;
                let invoked = children(name_node).into_iter().find(|child| child.is_named());
                if invoked.is_some_and(|child| child.kind() != "script_block_expression") {
                    names = words::argument(walk.text(name_node), &self.context(scope))?;
                }
            } else {
                names.push(Value::literal(walk.text(name_node)));
            }
        }
        let mut elements = Vec::new();
        if let Some(list) = node.child_by_field_name("command_elements") {
            self.elements(list, walk, scope, depth + 1, &mut elements)?;
        }
        if names.len() > 1 {
            return self.any_of(&names, &elements, walk, scope);
        }
        let Some(name) = names.into_iter().next() else { return Ok(None) };
        if name.dynamic {
            self.unknown_command(&elements, scope);
            // It may have been one of the shell's functions or aliases, which may move it.
            if scope.own && !scope.defined.is_empty() {
                self.moved_in_block = true;
            }
            return Ok(None);
        }
        self.run(&name.text, &elements, walk, scope, piped)
    }

    /// `& $name` where `$name` may hold several commands: each known one runs apart (what it
    /// writes, from here), the arguments are judged as an unknown command's, and where the shell
    /// is afterwards is no longer known.
    fn any_of(
        &mut self,
        names: &[Value],
        elements: &[Element],
        walk: &Walk,
        scope: &mut Session,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        for name in names.iter().filter(|name| !name.dynamic) {
            let mut apart = Session { own: false, ..scope.clone() };
            self.run(&name.text, elements, walk, &mut apart, None)?;
        }
        self.unknown_command(elements, scope);
        if scope.own {
            self.moved_in_block = true;
        }
        Ok(None)
    }

    /// A command's arguments: words separated by blanks, `-Param` and `-Param:value`; the code
    /// inside them (script blocks, sub-expressions) is walked; redirections are judged.
    fn elements(
        &mut self,
        list: Node,
        walk: &Walk,
        scope: &mut Session,
        depth: usize,
        elements: &mut Vec<Element>,
    ) -> Result<(), Unscannable> {
        let mut group: Option<(usize, usize)> = None;
        let mut attach = false;
        for child in children(list) {
            match child.kind() {
                "command_argument_sep" if escapes_blank(group, walk) => {
                    group = group.map(|(start, _)| (start, child.end_byte()));
                }
                "command_argument_sep" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    attach = walk.text(child).trim() == ":" && matches!(elements.last(), Some(Element::Param { .. }));
                }
                "command_parameter" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    let text = walk.text(child);
                    let name = text.trim_start_matches('-').trim_end_matches(':').to_lowercase();
                    if name.is_empty() {
                        elements.push(Element::Arg(vec![Value::literal(text)]));
                        continue;
                    }
                    attach = text.ends_with(':');
                    elements.push(Element::Param { name, text: text.trim_end_matches(':').to_string(), value: None });
                }
                "redirection" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    self.redirection(child, walk, scope)?;
                }
                "stop_parsing" => {
                    self.flush(&mut group, &mut attach, walk, scope, elements)?;
                    let rest: Vec<char> = walk.text(child).trim_start_matches("--%").chars().collect();
                    for word in words::split_blank(&rest) {
                        elements.push(Element::Arg(vec![Value::literal(&word.iter().collect::<String>())]));
                    }
                }
                kind => {
                    let range = child.byte_range();
                    group = Some(match group {
                        Some((start, _)) => (start, range.end),
                        None => (range.start, range.end),
                    });
                    if kind != "generic_token" {
                        self.node(child, walk, scope, depth + 1)?;
                    }
                }
            }
        }
        self.flush(&mut group, &mut attach, walk, scope, elements)
    }

    fn flush(
        &self,
        group: &mut Option<(usize, usize)>,
        attach: &mut bool,
        walk: &Walk,
        scope: &Session,
        elements: &mut Vec<Element>,
    ) -> Result<(), Unscannable> {
        let Some((start, end)) = group.take() else { return Ok(()) };
        let text = walk.source.get(start..end).unwrap_or_default();
        if let Some(name) = splatted(text) {
            elements.extend(self.splat(name, scope));
            *attach = false;
            return Ok(());
        }
        let values = words::argument(text, &self.context(scope))?;
        match elements.last_mut() {
            Some(Element::Param { value, .. }) if *attach => *value = Some(values),
            _ => elements.push(Element::Arg(values)),
        }
        *attach = false;
        Ok(())
    }

    /// Runs the command named `name` (as typed) with `elements`: an alias the shell defined
    /// stands for its command, a function it defined runs its body, else the cmdlet or program.
    pub(super) fn run(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        if scope.defined.is_empty() {
            return self.run_command(name, elements, walk, scope, piped);
        }
        let uncertain = uncertain_names(&scope.defined, name);
        if uncertain.is_empty() {
            return self.run_defined(name, elements, walk, scope, piped);
        }
        // Definitions in a block that may not have run: the name as it is without them runs too, apart
        // (what it writes from here); if the two leave the shell in different places, where it is
        // afterwards is no longer known.
        let mut without = (*scope.defined).clone();
        for name in &uncertain {
            without.aliases.remove(name);
            without.functions.remove(name);
            without.maybe.remove(name);
        }
        let mut apart = Session { own: false, ..scope.clone() };
        apart.defined = Rc::new(without);
        self.run(name, elements, walk, &mut apart, piped)?;
        let result = self.run_defined(name, elements, walk, scope, piped);
        if scope.own && (apart.base != scope.base || apart.stack != scope.stack) {
            self.moved_in_block = true;
        }
        result
    }

    /// [`Walker::run`] with the shell's aliases and functions taken as defined.
    fn run_defined(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let defined = scope.defined.clone();
        if defined.any_alias {
            // Any name may be an alias of anything.
            self.unknown_command(elements, scope);
        }
        let mut resolved = name;
        for hop in 0..=MAX_ALIAS_HOPS {
            match defined.aliases.get(&resolved.to_lowercase()) {
                None => break,
                Some(Some(target)) if hop < MAX_ALIAS_HOPS => resolved = target,
                // Known only at run time, or a chain too long to follow.
                Some(_) => {
                    self.unknown_command(elements, scope);
                    if scope.own {
                        self.moved_in_block = true;
                    }
                    return Ok(None);
                }
            }
        }
        let key = function_key(resolved);
        match defined.functions.get(&key) {
            // A function calling itself: its body is being walked already; where the recursion
            // leaves the shell is unknown.
            Some(_) if self.calling.contains(&key) => {
                self.unknown_command(elements, scope);
                if scope.own {
                    self.moved_in_block = true;
                }
                Ok(None)
            }
            Some(function) => {
                let defaults = self.defaults(&key, scope);
                self.calling.push(key);
                let result = self.call(function, elements, &defaults, None, walk, scope, piped);
                self.calling.pop();
                result
            }
            None => self.run_command(resolved, elements, walk, scope, piped),
        }
    }

    /// A `.ps1` script file run (`./x.ps1 a`, `& x.ps1`, `. x.ps1`, `pwsh -File x.ps1 a`): its
    /// text, read at check time, walked like a function's body, the call's arguments bound to
    /// the parameters of its `param()` block and the rest in `$args` (and judged as an unknown
    /// command's words too, as for any argument a body reads that way, or that binds to no
    /// parameter). A file the walk cannot read is judged by its words alone.
    fn script_file(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let path = crate::paths::absolute(name.replace('\\', "/"), &scope.base);
        let Some(text) = fs::read_text_file(&path, MAX_SCRIPT_FILE_BYTES) else {
            self.unknown_command(elements, scope);
            return Ok(None);
        };
        let nesting = walk.nesting + 1;
        let text = text.trim_start_matches('\u{feff}');
        let (tree, respelled) = self.parse(text, nesting)?;
        let body: Rc<str> = Rc::from(respelled.as_deref().unwrap_or(text));
        let file = Walk { source: &body, nesting };
        let params = child_of_kind(tree.root_node(), "param_block").map(|block| parameters(block, &file));
        let script = Function { params: params.unwrap_or_default(), body: Some(body.clone()) };
        self.call(&script, elements, &[], Some(&tree), walk, scope, piped)
    }

    /// A call of a function the shell defined: its body is walked here, in this location, with
    /// its parameters bound to the call's arguments. Arguments the body reads otherwise
    /// (`$args`, splats), or that bind to no parameter, are judged as an unknown command's.
    /// `parsed`: the body's tree, when the caller has it already (a script file's).
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        function: &Function,
        elements: &[Element],
        defaults: &[(String, Value)],
        parsed: Option<&Tree>,
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        let Some(body) = &function.body else {
            self.unknown_command(elements, scope);
            if scope.own {
                self.moved_in_block = true;
            }
            return Ok(None);
        };
        let binding = {
            let cx = self.context(scope);
            let default = |text: &str| words::expression(text, &cx).unwrap_or_else(|_| vec![Value::unset(text)]);
            function.bind(elements, default)
        };
        let mut bound = binding.params;
        // `$PSDefaultParameterValues` reaches an advanced function's parameters the call left
        // unbound; which functions are advanced the walk does not tell, so any function's.
        for (name, values) in &mut bound {
            let applies = |param: &str| param == name.as_str() || param == "*";
            if binding.defaulted.contains(name) {
                values.extend(defaults.iter().filter(|(param, _)| applies(param)).map(|(_, value)| value.clone()));
            }
        }
        if let Some(piped) = piped {
            // Any parameter may take the pipeline's input (`ValueFromPipeline`).
            for (name, values) in &mut bound {
                if binding.defaulted.contains(name) {
                    values.extend(piped.iter().cloned());
                }
            }
        }
        bound.push(("args".to_string(), binding.rest));
        bound.push(("input".to_string(), piped.map(<[Value]>::to_vec).unwrap_or_default()));
        let mut earlier = Vec::new();
        for (name, values) in bound {
            earlier.push((name.clone(), Rc::make_mut(&mut scope.vars).insert(name, values)));
        }
        self.conditional += 1;
        let result = match parsed {
            Some(tree) => self.walk_tree(body, tree, scope, walk.nesting + 1),
            None => self.script(body, scope, walk.nesting + 1),
        };
        self.conditional -= 1;
        // Parameters are the function's own.
        for (name, values) in earlier.into_iter().rev() {
            match values {
                Some(values) => Rc::make_mut(&mut scope.vars).insert(name, values),
                None => Rc::make_mut(&mut scope.vars).remove(&name),
            };
        }
        result?;
        if !binding.clean || function.reads_raw_arguments() {
            self.unknown(elements, scope);
        }
        Ok(None)
    }

    fn run_command(
        &mut self,
        name: &str,
        elements: &[Element],
        walk: &Walk,
        scope: &mut Session,
        piped: Option<&[Value]>,
    ) -> Result<Option<Vec<Value>>, Unscannable> {
        // `Microsoft.PowerShell.Management\Set-Content`: the module does not change the cmdlet.
        let unqualified = match name.rsplit_once('\\') {
            Some((_, cmdlet)) if cmdlets::is_cmdlet_name(cmdlet) => cmdlet,
            _ => name,
        };
        let program = basename(name).to_ascii_lowercase();
        let program = program.strip_suffix(".exe").unwrap_or(&program).to_string();
        if invocation::is_powershell(name) {
            if let Some(script) = invocation::invoked_script(&program_words(elements), None) {
                let mut child = Session::process(&scope.base);
                self.script(&script, &mut child, walk.nesting + 1)?;
            }
            return Ok(None);
        }
        if program == "cmd" {
            self.dirs_unseen = true;
            if let Some(line) = cmd::script(&program_words(elements)) {
                self.cmd_line(&line, scope, walk.nesting + 1)?;
            }
            return Ok(None);
        }
        if program.ends_with(".ps1") {
            return self.script_file(name, elements, walk, scope, piped);
        }
        let cmdlet = cmdlets::canonical(unqualified);
        let defaults = self.defaults(&cmdlet, scope);
        match cmdlets::lookup(&cmdlet) {
            Some((spec, kind)) => {
                let mut bound = cmdlets::bind(elements, spec);
                cmdlets::bind_defaults(&mut bound, spec, &defaults);
                // A default for a parameter the walk could not compute may name what it writes.
                let any_param: Vec<Element> = defaults
                    .iter()
                    .filter(|(param, _)| param == "*")
                    .map(|(_, value)| Element::Arg(vec![value.clone()]))
                    .collect();
                if !cmdlets::written_params(kind).is_empty() {
                    self.unknown(&any_param, scope);
                }
                let output = self.cmdlet(&cmdlet, kind, &bound, walk, scope, piped)?;
                if NATIVE_ON_UNIX.contains(&unqualified.to_ascii_lowercase().as_str()) {
                    self.program(name, &program_words(elements), piped, scope)?;
                }
                Ok(output)
            }
            None if cmdlets::is_cmdlet_name(&cmdlet) => {
                self.unknown_command(elements, scope);
                // What it is given otherwise may be a path it writes too.
                let mut given: Vec<Element> =
                    defaults.into_iter().map(|(_, value)| Element::Arg(vec![value])).collect();
                given.extend(piped.map(|piped| Element::Arg(piped.to_vec())));
                self.unknown(&given, scope);
                Ok(None)
            }
            None => {
                let words = program_words(elements);
                self.program_ran(&program, &words, &scope.base);
                self.program(name, &words, piped, scope)?;
                Ok(None)
            }
        }
    }
}
