//! Word expansion at a point of the walk, and what assignments and `for` loops do to the
//! variables.

use std::rc::Rc;

use super::{Walk, Walker, word_groups};
use crate::analysis::scope::Scope;
use crate::bash::state::Bash;
use crate::bash::tree::{Node, node_kind};
use crate::bash::words::{self, Arg, Context, MAX_VALUES, Value};
use crate::bash::{MAX_COMMAND_WORDS, Unscannable};

impl Walker<'_> {
    /// The words bash would pass, after grouping the nodes of each word and expanding them.
    pub(super) fn expand_words<'t>(
        &self,
        words: &[Node<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<Vec<Arg>, Unscannable> {
        let mut argv = Vec::with_capacity(words.len());
        for group in word_groups(words, walk.source) {
            self.expand(group, walk, scope, &mut argv)?;
        }
        Ok(argv)
    }

    /// [`Self::expand_words`], and when a word has several possible values, the argument lists
    /// that take each of them (the i-th value of every such word, its last when it has fewer), at
    /// most [`MAX_VALUES`]: each is judged as well.
    pub(super) fn expand_variants<'t>(
        &self,
        words: &[Node<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
    ) -> Result<(Vec<Arg>, Vec<Vec<Arg>>), Unscannable> {
        let mut argv = Vec::with_capacity(words.len());
        // Where each word with several possible values lies in `argv`, with those values.
        let mut several = Vec::new();
        for group in word_groups(words, walk.source) {
            let expansion = words::expand_word(group, &self.context(walk, scope))?;
            let start = argv.len();
            argv.extend(expansion.args);
            self.expanded(&argv)?;
            if !expansion.alternatives.is_empty() {
                several.push((start..argv.len(), expansion.alternatives));
            }
        }
        let count = several.iter().map(|(_, alternatives)| alternatives.len()).max().unwrap_or(0).min(MAX_VALUES);
        let mut variants = Vec::with_capacity(count);
        for index in 0..count {
            let mut variant = Vec::with_capacity(argv.len());
            let mut copied = 0;
            for (at, alternatives) in &several {
                variant.extend(argv.get(copied..at.start).unwrap_or_default().iter().cloned());
                variant.extend(alternatives.get(index).or(alternatives.last()).into_iter().flatten().cloned());
                copied = at.end;
            }
            variant.extend(argv.get(copied..).unwrap_or_default().iter().cloned());
            variants.push(variant);
        }
        Ok((argv, variants))
    }

    /// The caps on a command's words, checked as they grow.
    fn expanded(&self, out: &[Arg]) -> Result<(), Unscannable> {
        if self.text.exhausted() {
            return Err(Unscannable::TooMuchText);
        }
        // Each word is capped on its own; this caps them together, before any path work.
        if out.len() > MAX_COMMAND_WORDS {
            return Err(Unscannable::TooManyWords);
        }
        Ok(())
    }

    /// What word expansion sees at this point of the walk.
    pub(super) fn context<'a>(&'a self, walk: &Walk<'a>, scope: &'a Scope<Bash>) -> Context<'a> {
        Context {
            source: walk.source,
            budget: &self.text,
            vars: &scope.vars,
            pwd: &scope.base,
            oldpwd: scope.oldpwd.as_deref(),
            home: &self.home,
            positional: scope.positional().map(Rc::as_ref),
            outputs: true,
            defined: &scope.defined,
        }
    }

    pub(super) fn expand<'t>(
        &self,
        group: &[Node<'t>],
        walk: &Walk,
        scope: &Scope<Bash>,
        out: &mut Vec<Arg>,
    ) -> Result<(), Unscannable> {
        words::expand(group, &self.context(walk, scope), out)?;
        self.expanded(out)
    }

    pub(super) fn for_loop<'t>(
        &mut self,
        node: Node<'t>,
        walk: &Walk,
        scope: &mut Scope<Bash>,
    ) -> Result<(), Unscannable> {
        let mut name = None;
        let mut values = Vec::new();
        let mut listed = false;
        for (child, field) in node.children() {
            match field {
                Some("variable") => name = Some(walk.text(child)),
                Some("value") => values.push(child),
                _ => listed |= node_kind(child) == "in",
            }
        }
        let Some(name) = name else { return Ok(()) };
        let mut args = Vec::new();
        for group in word_groups(&values, walk.source) {
            self.expand(group, walk, scope, &mut args)?;
        }
        if listed {
            // A glob in the list may expand to a guarded folder (`for d in docs/*/pl*/`): that too.
            // Not to approval.md by a bare last `*` (`for f in build/*`): the name the loop then
            // writes is judged where it is written.
            let mut values: Vec<Value> = Vec::new();
            for arg in args {
                if arg.glob {
                    let folders = words::glob_folders(&arg.text, &scope.base);
                    values.extend(folders.iter().map(|text| Value::literal(text)));
                }
                values.push(arg.into_value());
            }
            scope.assign(name, values);
            if !scope.vars.contains_key(name) {
                self.assigned_uncomputed(name);
            }
        } else {
            scope.forget(name);
        }
        Ok(())
    }

    pub(super) fn assignment<'t>(&mut self, node: Node<'t>, walk: &Walk, scope: &mut Scope<Bash>) {
        let Some(target) = node.child_by_field_name("name") else { return };
        let name = match node_kind(target) {
            "variable_name" => walk.text(target).to_string(),
            // `a[1]=x`: that element, and one more possible value of any element.
            "subscript" => {
                let (Some(array), Some(index)) =
                    (target.child_by_field_name("name"), target.child_by_field_name("index"))
                else {
                    return;
                };
                let array = walk.text(array);
                let known = matches!(node_kind(index), "number" | "word");
                let values = match node.child_by_field_name("value") {
                    Some(value) => words::value(value, &self.context(walk, scope)),
                    None => vec![Value::literal("")],
                };
                let any = words::element_name(array, "@");
                let mut all = scope.vars.get(&any).cloned().unwrap_or_default();
                all.extend(values.iter().cloned());
                if known {
                    scope.assign(&words::element_name(array, walk.text(index)), values);
                }
                scope.assign(&any, all);
                return;
            }
            _ => return,
        };
        let appends = node.children().any(|(child, _)| node_kind(child) == "+=");
        if appends {
            scope.forget(&name);
            return;
        }
        match node.child_by_field_name("value") {
            Some(value) if node_kind(value) == "array" => self.array(&name, value, walk, scope),
            Some(value) => {
                let values = words::value(value, &self.context(walk, scope));
                scope.assign(&name, values);
                if !scope.vars.contains_key(&name) {
                    self.assigned_uncomputed(&name);
                }
            }
            None => scope.assign(&name, vec![Value::literal("")]),
        }
    }

    /// `a=(x y)`: `${a[0]}` is x, `${a[1]}` y, `$a` x, `${a[@]}` both.
    fn array<'t>(&self, name: &str, value: Node<'t>, walk: &Walk, scope: &mut Scope<Bash>) {
        scope.forget(name);
        let elements: Vec<Node> = value.children().map(|(c, _)| c).filter(Node::is_named).collect();
        let mut args = Vec::new();
        for group in word_groups(&elements, walk.source) {
            if self.expand(group, walk, scope, &mut args).is_err() {
                return;
            }
        }
        if args.len() > MAX_VALUES {
            return;
        }
        let values: Vec<Value> = args.into_iter().map(|arg| arg.into_value()).collect();
        for (index, value) in values.iter().enumerate() {
            scope.assign(&words::element_name(name, &index.to_string()), vec![value.clone()]);
        }
        if let Some(first) = values.first() {
            scope.assign(name, vec![first.clone()]);
        }
        scope.assign(&words::element_name(name, "@"), values);
    }
}
