//! Shell words as bash sees them once quotes are removed and the static expansions are done:
//! `"…"`, `'…'`, `$'…'` (ANSI-C escapes), backslashes, brace expansion (`{a,b}`, `{1..3}`), a
//! leading `~`, and variables whose values the walk knows. Whatever stays unknown (`$VAR`,
//! `$(…)`, `$((…))`) is kept as its source text and the word is marked dynamic, so its basename
//! and the rest of its path still count.

use std::cell::OnceCell;
use std::path::Path;

use super::fields;
pub use super::lists::element_name;
use super::lists::{self, Slice};
use super::patsub::{Replace, Substitution};
use super::state::{Defined, Shared, rebound};
use super::tree::{Node, node_kind};
use super::{MAX_WORD_EXPANSION, Unscannable};
use crate::analysis::budget::Budget;
use crate::analysis::fs;
use crate::analysis::values::{HOLE, Holes, TEMPORARY_FOLDER_VARIABLES, has_wildcard, temporary_folder};
pub use crate::analysis::values::{MAX_VALUES, Value, Vars};
pub use crate::commands::{Arg, ansi_c};

/// Placeholders longer than this are shortened.
const MAX_PLACEHOLDER: usize = 64;

/// `$HOME` (absolute, else unknown), read from the environment when a word first needs it: most
/// command lines never do.
#[derive(Default)]
pub struct Home(OnceCell<Option<String>>);

impl Home {
    pub fn get(&self) -> Option<&str> {
        self.0.get_or_init(|| std::env::var("HOME").ok().filter(|home| home.starts_with('/'))).as_deref()
    }
}

/// What expansion reads from the walk.
pub struct Context<'a> {
    pub source: &'a str,
    pub budget: &'a Budget,
    pub vars: &'a Vars,
    pub pwd: &'a Path,
    pub oldpwd: Option<&'a Path>,
    pub home: &'a Home,
    /// `$0`, `$1`, … when the line itself gave them (a function it calls, `bash -c '…' a b`).
    pub positional: Option<&'a Positional>,
    /// `$(echo …)` and `$(printf …)` of known words count as their output (not inside another).
    pub outputs: bool,
    /// The functions and aliases the line defined.
    pub defined: &'a Shared<Defined>,
}

impl Context<'_> {
    /// Whether a command of this name may print other than its program does ([`rebound`]).
    fn rebound(&self, name: &str) -> bool {
        rebound(self.defined, self.vars, name)
    }

    fn text(&self, node: Node) -> &str {
        self.source.get(node.byte_range()).unwrap_or_default()
    }

    /// `$IFS` at this point: bash's default unless the line set it; `None` when it set it to a
    /// value the walk does not know.
    pub fn ifs(&self) -> Option<&str> {
        fields::known_ifs(self.vars.get("IFS").map(Vec::as_slice))
    }

    fn lookup(&self, name: &str) -> Option<Vec<Value>> {
        if let Some(values) = self.positional.and_then(|positional| positional_values(positional, name)) {
            return self.budget.charge(values.iter().map(|value| value.text.len()).sum()).then_some(values);
        }
        if let Some(values) = self.vars.get(name) {
            // Each reference copies the value: `$A $A $A …` multiplies text.
            let bytes = values.iter().map(|value| value.text.len()).sum();
            return self.budget.charge(bytes).then(|| values.clone());
        }
        let path_value = |path: &Path| vec![Value::new(path.to_string_lossy().into_owned(), false)];
        match name {
            "PWD" => Some(path_value(self.pwd)),
            "OLDPWD" => self.oldpwd.map(path_value),
            "HOME" => self.home.get().map(|home| vec![Value::new(home.to_string(), false)]),
            _ if TEMPORARY_FOLDER_VARIABLES.contains(&name) => Some(vec![temporary_folder()]),
            _ if NUMBERS.contains(&name) => Some(vec![Value::hole(Holes::Digits)]),
            "EPOCHREALTIME" => Some(vec![Value::hole(Holes::Name)]),
            _ => None,
        }
    }
}

/// The variables bash keeps a number in: process ids, counters, clocks, exit statuses.
const NUMBERS: [&str; 13] =
    ["$", "!", "?", "#", "BASHPID", "PPID", "UID", "EUID", "RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "LINENO"];

/// `$0`, `$1`, … as the line gives them; `complete` when no others can follow (`xargs sh -c`
/// with input the walk cannot see is not).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Positional {
    pub values: Vec<Value>,
    pub complete: bool,
}

/// `$0`…`$9`, `$@`, `$*` and `$#` from the parameters the line gave.
fn positional_values(positional: &Positional, name: &str) -> Option<Vec<Value>> {
    let values = &positional.values;
    match name {
        "@" | "*" => {
            let mut all = values.get(1..).unwrap_or_default().to_vec();
            if !positional.complete {
                all.push(Value::new(format!("${name}"), true));
            }
            Some(all)
        }
        "#" if positional.complete => Some(vec![Value::new(values.len().saturating_sub(1).to_string(), false)]),
        _ => {
            let index: usize = name.parse().ok()?;
            match values.get(index) {
                Some(value) => Some(vec![value.clone()]),
                None if positional.complete => Some(vec![Value::literal("")]),
                None => None,
            }
        }
    }
}

/// A character of a word and whether bash would still interpret it (unquoted), or an expansion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Ch(char, bool),
    Slot(usize),
}

/// An expansion inside a word: its possible values, or its placeholder when unknown.
struct Slot {
    values: Vec<Value>,
    placeholder: String,
}

struct Builder {
    toks: Vec<Tok>,
    slots: Vec<Slot>,
    pipe: bool,
}

impl Builder {
    fn new() -> Self {
        Builder { toks: Vec::new(), slots: Vec::new(), pipe: false }
    }

    fn chars(&mut self, text: &str, active: bool) {
        self.toks.extend(text.chars().map(|c| Tok::Ch(c, active)));
    }

    fn slot(&mut self, values: Vec<Value>, placeholder: String) {
        self.toks.push(Tok::Slot(self.slots.len()));
        self.slots.push(Slot { values, placeholder });
    }

    fn unknown(&mut self, placeholder: String) {
        let values = vec![Value::new(placeholder.clone(), true)];
        self.slot(values, placeholder);
    }
}

/// The source text of an expansion kept as its stand-in, unless it would add path separators or
/// a colon (`${@:n:1}/` would read as rsync's or scp's `host:path`).
fn placeholder(cx: &Context, node: Node, short: &str) -> String {
    let text = cx.text(node);
    if text.len() <= MAX_PLACEHOLDER && !text.contains(['/', ':']) && !text.is_empty() {
        text.to_string()
    } else {
        short.to_string()
    }
}

/// Expands one shell word made of `group` (nodes that bash reads as one word: a literal, or
/// several joined by line continuations) into zero or more words.
pub fn expand(group: &[Node], cx: &Context, out: &mut Vec<Arg>) -> Result<(), Unscannable> {
    out.extend(expand_word(group, cx)?.args);
    Ok(())
}

/// One shell word expanded: the words bash may pass for it, and when some expansion in it has
/// several possible values (a loop's variable, a line `read` reads, a glob's guarded matches),
/// each possible value's own words: a command is judged once with each (`cp x "$d"` with `$d`
/// either of two folders is two copies, not one copy of two sources).
#[derive(Default)]
pub struct Expansion {
    pub args: Vec<Arg>,
    /// Empty when the word has one possible value.
    pub alternatives: Vec<Vec<Arg>>,
}

pub fn expand_word(group: &[Node], cx: &Context) -> Result<Expansion, Unscannable> {
    if let [node] = group {
        let text = cx.text(*node);
        if node_kind(node) == "word" && node.child_count() == 0 && !text.contains(['\\', '~']) {
            return Ok(Expansion { args: vec![Arg::literal(text)], alternatives: Vec::new() });
        }
        if matches!(node_kind(node), "simple_expansion" | "expansion") {
            return Ok(split_expansion(*node, cx));
        }
        if node_kind(node) == "command_substitution"
            && let Some(output) = substitution_output(*node, cx)
        {
            let mut args = Vec::new();
            split_fields(&output, cx, &mut args);
            return Ok(Expansion { args, alternatives: Vec::new() });
        }
    }
    let mut builder = Builder::new();
    build(group, cx, &mut builder);
    let pipe = builder.pipe;
    let mut words = Vec::new();
    brace_expand(builder.toks, &mut words, cx.budget)?;
    let mut each: Vec<Vec<Arg>> = Vec::with_capacity(words.len());
    for toks in &mut words {
        expand_tildes(toks, &mut builder.slots, cx, TildeAt::Word);
        let mut values = Vec::with_capacity(1);
        substitute(toks, &builder.slots, pipe, &mut values, cx.budget);
        each.push(values);
    }
    // The j-th possible value of each brace word (its last when it has fewer).
    let count = each.iter().map(Vec::len).max().unwrap_or(0);
    let alternatives = match count {
        0 | 1 => Vec::new(),
        _ => (0..count)
            .map(|j| each.iter().filter_map(|values| values.get(j).or(values.last()).cloned()).collect())
            .collect(),
    };
    // Most words have no braces: their values are the words as they are.
    let args = if each.len() == 1 { each.pop().unwrap_or_default() } else { each.into_iter().flatten().collect() };
    Ok(Expansion { args, alternatives })
}

/// A variable's values as they would be assigned: no brace expansion, no word splitting.
pub fn value(node: Node, cx: &Context) -> Vec<Value> {
    let mut builder = Builder::new();
    build(&[node], cx, &mut builder);
    expand_tildes(&mut builder.toks, &mut builder.slots, cx, TildeAt::Value);
    let mut args = Vec::new();
    substitute(&builder.toks, &builder.slots, false, &mut args, cx.budget);
    args.into_iter().map(|arg| arg.into_value()).collect()
}

/// An unquoted word that is just `$VAR` or `${VAR}`: its known values split at blanks.
fn split_expansion(node: Node, cx: &Context) -> Expansion {
    let Some(values) = resolve(node, cx, false) else {
        let unknown = Arg { text: placeholder(cx, node, "${…}"), dynamic: true, ..Arg::default() };
        return Expansion { args: vec![unknown], alternatives: Vec::new() };
    };
    let mut alternatives = Vec::with_capacity(values.len());
    for value in as_expanded(values, false, cx) {
        let mut fields = Vec::new();
        if value.dynamic {
            fields.push(Arg { text: value.text, dynamic: true, holes: value.holes, ..Arg::default() });
        } else {
            split_fields(&value.text, cx, &mut fields);
        }
        alternatives.push(fields);
    }
    if alternatives.len() < 2 {
        return Expansion { args: alternatives.pop().unwrap_or_default(), alternatives: Vec::new() };
    }
    let args = alternatives.iter().flatten().cloned().collect();
    Expansion { args, alternatives }
}

/// An unquoted expansion's known text split into words at `$IFS`; one word the walk does not
/// know when the line gave `IFS` a value it cannot compute.
fn split_fields(text: &str, cx: &Context, out: &mut Vec<Arg>) {
    match cx.ifs() {
        Some(ifs) => out.extend(fields::split(text, ifs).iter().map(|field| Arg::literal(field))),
        None => out.push(Arg { text: text.to_string(), dynamic: true, ..Arg::default() }),
    }
}

/// The known values of `$NAME`/`${NAME}` (and `${NAME:-default}` & co., whose default counts
/// when NAME is unknown); of a list (`"$@"`, `${a[@]:1:2}`), its words.
fn resolve(node: Node, cx: &Context, quoted: bool) -> Option<Vec<Value>> {
    let mut named: [Option<Node>; 4] = [None; 4];
    let mut count = 0;
    for (child, field) in node.children() {
        if child.is_named() || field == Some("operator") {
            if let Some(slot) = named.get_mut(count) {
                *slot = Some(child);
            }
            count += 1;
        }
    }
    if named[0].is_some_and(|first| node_kind(first) == "#") {
        return Some(length(named[1], cx));
    }
    let subscript;
    let name = match named[0] {
        Some(n) if matches!(node_kind(n), "variable_name" | "special_variable_name") => cx.text(n),
        Some(n) if node_kind(n) == "subscript" => {
            subscript = subscript_name(n, cx)?;
            subscript.as_str()
        }
        _ => return None,
    };
    if let Some(words) = named[0].and_then(|list| list_words(node, list, cx, quoted)) {
        return Some(words);
    }
    if let Some(operator) = named[1]
        && let Some(replace) = Replace::of(cx.text(operator))
    {
        return substituted(node, name, operator, replace, cx);
    }
    match (count, named[1], named[2]) {
        (1, _, _) => cx.lookup(name),
        (3, Some(operator), Some(pattern)) if cx.text(operator) == "##" && cx.text(pattern) == "*/" => {
            Some(cx.lookup(name).map_or_else(|| vec![Value::hole(Holes::NoSlash)], last_components))
        }
        (2 | 3, Some(operator), default) if matches!(cx.text(operator), "-" | ":-" | "=" | ":=") => {
            let default = || {
                let text = match default {
                    None => String::new(),
                    Some(default) => static_text(default, cx)?,
                };
                Some(Value::new(text, false))
            };
            match cx.lookup(name) {
                None => Some(vec![default()?]),
                Some(values) if cx.text(operator).starts_with(':') => or_default_where_empty(values, default),
                Some(values) => Some(values),
            }
        }
        _ => None,
    }
}

/// `${#x}`, `${#a[@]}`, `${#}`: a length or a count, the number itself where the walk knows what
/// it counts, else digits.
fn length(counted: Option<Node>, cx: &Context) -> Vec<Value> {
    let count = |count: usize| vec![Value::new(count.to_string(), false)];
    let digits = || vec![Value::hole(Holes::Digits)];
    let Some(counted) = counted else { return cx.lookup("#").unwrap_or_else(digits) };
    match node_kind(counted) {
        "special_variable_name" if matches!(cx.text(counted), "@" | "*") => cx.lookup("#").unwrap_or_else(digits),
        "subscript" if counted.child_by_field_name("index").is_some_and(|i| matches!(cx.text(i), "@" | "*")) => {
            let array = counted.child_by_field_name("name").map_or("", |name| cx.text(name));
            lists::array_elements(cx.vars, array).map_or_else(digits, |elements| count(elements.len()))
        }
        kind => {
            let name = match kind {
                "subscript" => subscript_name(counted, cx),
                _ => Some(cx.text(counted).to_string()),
            };
            let values = name.and_then(|name| cx.lookup(&name)).unwrap_or_default();
            if values.is_empty() || values.iter().any(|value| value.dynamic) {
                return digits();
            }
            values.iter().map(|value| Value::new(value.text.chars().count().to_string(), false)).collect()
        }
    }
}

/// `${x##*/}` of each value: what follows its last `/`. A part the walk did not compute may hold
/// a `/` unless its holes say otherwise, and a pattern (a loop's glob) may match any name: the
/// rest is then a name of unknown letters, which holds no `/`.
fn last_components(values: Vec<Value>) -> Vec<Value> {
    let last = |value: Value| {
        let rest = value.text.rsplit('/').next().unwrap_or_default().to_string();
        match (value.dynamic, value.holes) {
            _ if has_wildcard(&rest) => Value::hole(Holes::NoSlash),
            (false, _) => Value::new(rest, false),
            (true, Holes::Any) => Value::hole(Holes::NoSlash),
            (true, holes) if rest.contains(HOLE) => Value { text: rest, dynamic: true, holes },
            (true, _) => Value::new(rest, false),
        }
    };
    values.into_iter().map(last).collect()
}

/// The members of a list expansion the walk knows, and how many words stand for those it cannot
/// see ([`lists::UNKNOWN_WORDS`] at most).
struct Members {
    known: Vec<Value>,
    unknown: usize,
}

impl Members {
    /// A list the walk does not know, of at most `most` members when the slice's length says so.
    fn unknown(most: Option<usize>) -> Members {
        Members { known: Vec::new(), unknown: most.map_or(lists::UNKNOWN_WORDS, |most| most.min(lists::UNKNOWN_WORDS)) }
    }

    fn known(known: Vec<Value>) -> Members {
        Members { known, unknown: 0 }
    }
}

/// What a list expansion takes of its list.
#[derive(Clone, Copy)]
enum Take {
    All,
    Slice(Slice),
    /// A slice whose offset or length the walk does not compute; at most so many members when its
    /// length is literal.
    Uncomputed(Option<usize>),
}

impl Take {
    /// The most members it takes of a list the walk does not know.
    fn most(self) -> Option<usize> {
        match self {
            Take::All => None,
            Take::Slice(slice) => slice.most(),
            Take::Uncomputed(most) => most,
        }
    }
}

/// `$@`, `$*`, `${a[@]}` and `${a[*]}`, whole or sliced (`${@:1:2}`), as the words bash makes of
/// them ([`lists`]): each member a word, or in double quotes, for `*`, the members joined into one;
/// what the walk does not know, words it could not compute. `None` for any other expansion and
/// for a list under another operator (`${@:-x}`, `${a[@]/x/y}`).
fn list_words(node: Node, list: Node, cx: &Context, quoted: bool) -> Option<Vec<Value>> {
    let (array, star) = match node_kind(list) {
        "special_variable_name" => (None, cx.text(list)),
        "subscript" => (Some(list.child_by_field_name("name").map(|name| cx.text(name))?), {
            list.child_by_field_name("index").map(|index| cx.text(index))?
        }),
        _ => return None,
    };
    let joined = match star {
        "@" => false,
        "*" => true,
        _ => return None,
    };
    let take = match cx.source.get(list.end_byte()..node.end_byte())? {
        "" | "}" => Take::All,
        rest => match rest.strip_prefix(':') {
            Some(spec) if !spec.starts_with(['-', '=', '+', '?']) => match spec.strip_suffix('}') {
                Some(spec) => Slice::parse(spec).map_or(Take::Uncomputed(lists::most_members(spec)), Take::Slice),
                // tree-sitter ends `${@:$n:2}` at its `:`: the rest of the source has its length.
                None => {
                    let after = cx.source.get(node.end_byte()..).unwrap_or_default();
                    Take::Uncomputed(lists::spec_until_brace(after).and_then(lists::most_members))
                }
            },
            _ => return None,
        },
    };
    let members = match array {
        None => positional_members(cx, take),
        Some(array) => array_members(array, cx, take, joined),
    };
    if !cx.budget.charge(members.known.iter().map(|member| member.text.len()).sum()) {
        return None;
    }
    let placeholder = placeholder(cx, node, "${…}");
    if joined && quoted {
        return Some(vec![match members.unknown {
            0 => lists::joined(&members.known, cx.ifs(), &placeholder),
            _ => Value::unknown(&placeholder),
        }]);
    }
    let mut words = members.known;
    words.extend(std::iter::repeat_n(Value::unknown(&placeholder), members.unknown));
    Some(words)
}

/// The positional parameters (`$1` on; from `$0` in a slice) the slice takes, or all of them.
fn positional_members(cx: &Context, take: Take) -> Members {
    let Some(positional) = cx.positional else { return Members::unknown(take.most()) };
    let values = &positional.values;
    let complete = positional.complete;
    match take {
        Take::All if complete => Members::known(values.get(1..).unwrap_or_default().to_vec()),
        Take::Slice(slice) if complete || slice.within(values.len()) => Members::known(slice.of(values).to_vec()),
        // More may follow the parameters the walk sees: after those it takes from them.
        Take::All => Members { known: values.get(1..).unwrap_or_default().to_vec(), ..Members::unknown(None) },
        Take::Slice(slice) if !slice.counts_back() => {
            Members { known: slice.of(values).to_vec(), ..Members::unknown(None) }
        }
        Take::Slice(_) | Take::Uncomputed(_) => Members::unknown(take.most()),
    }
}

/// The elements of array `array` the slice takes, or all of them: only those of an array whose
/// elements the walk knows in order ([`lists::array_elements`]); whole, else, every value an
/// element may hold, one word each (not joined: which of them it holds is unknown).
fn array_members(array: &str, cx: &Context, take: Take, joined: bool) -> Members {
    let elements = lists::array_elements(cx.vars, array);
    match (take, elements) {
        (Take::All, Some(known)) => Members::known(known),
        (Take::All, None) if !joined => match cx.vars.get(&element_name(array, "@")) {
            Some(values) => Members::known(values.clone()),
            None => Members::unknown(None),
        },
        (Take::Slice(slice), Some(known)) => Members::known(slice.of(&known).to_vec()),
        _ => Members::unknown(take.most()),
    }
}

/// `${NAME:-default}` of NAME's values: the default where NAME is empty, and beside a value
/// the walk could not compute, which may be empty.
fn or_default_where_empty(values: Vec<Value>, default: impl FnOnce() -> Option<Value>) -> Option<Vec<Value>> {
    let may_be_empty = values.iter().any(|value| value.dynamic || value.text.is_empty());
    let mut kept: Vec<Value> = values.into_iter().filter(|value| value.dynamic || !value.text.is_empty()).collect();
    if may_be_empty {
        kept.push(default()?);
    }
    Some(kept)
}

/// `${NAME/pattern/replacement}` (and `//`, `/#`, `/%`) of each known value, when the pattern and
/// replacement are literal; a value the walk does not know stays unknown. `nocasematch` in the
/// line would make the match ignore case: uncomputed then.
fn substituted(node: Node, name: &str, operator: Node, replace: Replace, cx: &Context) -> Option<Vec<Value>> {
    if cx.source.contains("nocasematch") {
        return None;
    }
    let body = cx.source.get(operator.end_byte()..node.end_byte())?.strip_suffix('}')?;
    let substitution = Substitution::parse(replace, body)?;
    let mut values = cx.lookup(name)?;
    for value in values.iter_mut().filter(|value| !value.dynamic) {
        value.text = substitution.apply(&value.text);
        if !cx.budget.charge(value.text.len()) {
            return None;
        }
    }
    Some(values)
}

/// `a[1]` for `${a[1]}`; an index the walk cannot read stands for any element (`a[@]`).
fn subscript_name(node: Node, cx: &Context) -> Option<String> {
    let array = node.child_by_field_name("name").map(|n| cx.text(n))?;
    let index = match node.child_by_field_name("index") {
        Some(index) if matches!(node_kind(index), "number" | "word") && !cx.text(index).contains('\\') => {
            cx.text(index).to_string()
        }
        _ => "@".to_string(),
    };
    Some(element_name(array, if index == "*" { "@" } else { &index }))
}

/// The text of a literal with no expansions in it, unquoted; `None` otherwise.
fn static_text(node: Node, cx: &Context) -> Option<String> {
    let text = cx.text(node);
    match node_kind(node) {
        "word" if !text.contains('\\') => Some(text.to_string()),
        "raw_string" => Some(text.trim_matches('\'').to_string()),
        _ => None,
    }
}

/// Lays the word out as characters (quoted or not) and expansion slots, iteratively.
fn build(group: &[Node], cx: &Context, builder: &mut Builder) {
    for (at, &node) in group.iter().enumerate() {
        // What tree-sitter leaves between the nodes of one word: line continuations and escaped
        // characters (`'a'\ b` is the word `a b`).
        if let Some(previous) = at.checked_sub(1).and_then(|before| group.get(before)) {
            let gap = cx.source.get(previous.end_byte()..node.start_byte()).unwrap_or_default();
            unescape_unquoted(&gap.replace("\\\r\n", ""), builder);
        }
        build_node(node, cx, builder);
    }
}

fn build_node<'t>(node: Node<'t>, cx: &Context, builder: &mut Builder) {
    // (node, inside double quotes); a node of `None` stands for the text between two children of
    // a string (tree-sitter leaves the newlines of `"a<newline>b"` out of its content nodes).
    let mut stack: Vec<(Option<Node<'t>>, bool)> = vec![(Some(node), false)];
    let mut gaps: Vec<&str> = Vec::new();
    while let Some((node, quoted)) = stack.pop() {
        let Some(node) = node else {
            if let Some(gap) = gaps.pop() {
                unescape_double_quoted(gap, builder);
            }
            continue;
        };
        let text = cx.text(node);
        let kind = node_kind(node);
        if node.is_missing() {
            continue;
        }
        match kind {
            "simple_expansion" | "expansion" => match resolve(node, cx, quoted) {
                Some(values) => builder.slot(as_expanded(values, quoted, cx), placeholder(cx, node, "${…}")),
                None => builder.unknown(placeholder(cx, node, "${…}")),
            },
            "command_substitution" => {
                let placeholder = placeholder(cx, node, "$(…)");
                let mut values = substitution_globs(node, cx);
                match substitution_output(node, cx) {
                    Some(output) if values.is_empty() => values.push(Value::new(output, false)),
                    _ => match substitution_holes(node, cx) {
                        Some(holes) => values.extend(as_expanded(holes, quoted, cx)),
                        None => values.push(Value::new(placeholder.clone(), true)),
                    },
                }
                builder.slot(values, placeholder);
            }
            "arithmetic_expansion" => builder.slot(vec![Value::hole(Holes::Digits)], placeholder(cx, node, "$((…))")),
            // A pipe, not a file; when what it yields is known, the word is that text.
            "process_substitution" => {
                builder.pipe = true;
                match substitution_output(node, cx) {
                    Some(output) => builder.slot(vec![Value::new(output, false)], "<(…)".to_string()),
                    None => builder.unknown(placeholder(cx, node, "<(…)")),
                }
            }
            "array" => builder.unknown("(…)".to_string()),
            "string_content" => unescape_double_quoted(text, builder),
            "raw_string" => {
                builder.chars(text.strip_prefix('\'').map_or(text, |t| t.strip_suffix('\'').unwrap_or(t)), false)
            }
            "ansi_c_string" => {
                let inner = text.strip_prefix("$'").map_or(text, |t| t.strip_suffix('\'').unwrap_or(t));
                builder.chars(&ansi_c(inner), false);
            }
            "\"" | "``" => {}
            "$" => builder.toks.push(Tok::Ch('$', !quoted)),
            "string" | "translated_string" | "concatenation" => {
                let inner_quoted = quoted || kind != "concatenation";
                let from = stack.len();
                let gaps_from = gaps.len();
                let mut end = None;
                for (child, _) in node.children() {
                    let gap = end.and_then(|end| cx.source.get(end..child.start_byte())).filter(|gap| !gap.is_empty());
                    if let Some(gap) = gap.filter(|_| kind != "concatenation") {
                        stack.push((None, inner_quoted));
                        gaps.push(gap);
                    }
                    end = Some(child.end_byte());
                    // `$"…"`: the `$` marks a translation, not a character.
                    if kind != "translated_string" || child.is_named() {
                        stack.push((Some(child), inner_quoted));
                    }
                }
                if let Some(pushed) = stack.get_mut(from..) {
                    pushed.reverse();
                }
                if let Some(pushed) = gaps.get_mut(gaps_from..) {
                    pushed.reverse();
                }
            }
            _ if node.child_count() > 0 && kind != "brace_expression" && kind != "ERROR" => {
                // `10#$x` and other composites: unknown as a whole.
                builder.unknown(placeholder(cx, node, "${…}"));
            }
            _ if quoted => builder.chars(text, false),
            _ => unescape_unquoted(text, builder),
        }
    }
}

/// An expansion's values as a word takes them: unquoted, bash splits them at `$IFS` and expands
/// wildcards, so a value whose unknown parts may hold a character of `IFS`, or whose known text
/// has one or a wildcard, may become other words: what its holes hold says nothing then.
fn as_expanded(mut values: Vec<Value>, quoted: bool, cx: &Context) -> Vec<Value> {
    if quoted {
        return values;
    }
    for value in values.iter_mut().filter(|value| value.dynamic && value.holes != Holes::Any) {
        let known = value.text.replace(HOLE, "");
        let splits = cx.ifs().is_none_or(|ifs| ifs.chars().any(|c| value.holes.may_hold(c) || known.contains(c)));
        if splits || has_wildcard(&known) || value.holes.may_hold('*') {
            value.holes = Holes::Any;
        }
    }
    values
}

/// What `$(…)` prints when the walk knows what it may hold but not what it is (P-18): a number
/// (`date +%s`, `wc -l`, `grep -c`, `nproc`), a name (`whoami`, `hostname`, `git rev-parse
/// --short HEAD`), `date`'s format around its fields, `mktemp`'s template around its `X`s (or
/// nothing, when it fails). Its last command decides: a pipeline's last stage.
fn substitution_holes(node: Node, cx: &Context) -> Option<Vec<Value>> {
    if !cx.outputs {
        return None;
    }
    let mut commands = node.named_children();
    let mut command = commands.next()?;
    if commands.next().is_some() {
        return None;
    }
    loop {
        command = match node_kind(command) {
            "command" => break,
            "redirected_statement" => command.child_by_field_name("body")?,
            "pipeline" => command.named_children().last()?,
            _ => return None,
        };
    }
    let name = command.child_by_field_name("name").map(|name| cx.text(name)).filter(|name| !cx.rebound(name))?;
    let inner = Context { outputs: false, ..*cx };
    let mut words = Vec::new();
    for (child, field) in command.children() {
        if field == Some("argument") {
            expand(&[child], &inner, &mut words).ok()?;
        }
    }
    if words.iter().any(|word| word.dynamic || word.glob) {
        return None;
    }
    let words: Vec<&str> = words.iter().map(|word| word.text.as_str()).collect();
    let one = |holes| Some(vec![Value::hole(holes)]);
    match (name, words.as_slice()) {
        ("date", _) => printed_date(&words),
        ("whoami" | "uuidgen", []) | ("hostname", [] | ["-s" | "-f" | "--short" | "--fqdn" | "--long"]) => {
            one(Holes::Name)
        }
        ("uname", ["-s" | "-n" | "-r" | "-m" | "-p"]) => one(Holes::Name),
        ("id", ["-u" | "-g"]) | ("nproc", []) => one(Holes::Digits),
        ("id", ["-un" | "-nu" | "-gn" | "-ng"] | ["-u" | "-g", "-n"] | ["-n", "-u" | "-g"]) => one(Holes::Name),
        ("git", ["rev-parse", options @ .., revision]) if hashes(options) && !revision.starts_with('-') => {
            one(Holes::Alnum)
        }
        ("git", ["rev-list", "--count", ..]) | ("wc", [_]) if counts(&words) => one(Holes::Digits),
        ("grep" | "egrep" | "fgrep", _) if counts_matches(&words) => one(Holes::Digits),
        ("stat", [options @ .., _]) if numeric_stat(options) => one(Holes::Digits),
        ("mktemp", _) => temporary_from_template(&words, cx),
        _ => None,
    }
}

/// `git rev-parse --short`, `--verify` (also `-q`): a commit's hash, or nothing. Without them it
/// prints a name it cannot resolve as given.
fn hashes(options: &[&str]) -> bool {
    let hash = |option: &&str| option.starts_with("--short") || option.starts_with("--verify");
    options.iter().any(hash) && options.iter().all(|option| hash(option) || matches!(*option, "-q" | "--quiet"))
}

/// `wc` with one count and no file (it prints just the number), `git rev-list --count`.
fn counts(words: &[&str]) -> bool {
    match words {
        ["rev-list", "--count", rest @ ..] => {
            rest.iter().all(|word| !word.starts_with("--") || word.starts_with("--max"))
        }
        [option] => matches!(*option, "-l" | "-c" | "-w" | "-m" | "-L" | "--lines" | "--bytes" | "--words" | "--chars"),
        _ => false,
    }
}

/// `grep -c` of one file or its standard input: the number of matching lines.
fn counts_matches(words: &[&str]) -> bool {
    let mut counting = false;
    let mut operands = 0usize;
    let mut patterns_given = false;
    let mut at = 0;
    while let Some(word) = words.get(at) {
        at += 1;
        match *word {
            "--count" => counting = true,
            "-e" | "-f" | "--regexp" | "--file" => {
                patterns_given = true;
                at += 1;
            }
            "-m" | "-A" | "-B" | "-C" | "--max-count" => at += 1,
            _ if word.starts_with("--") => {
                if matches!(*word, "--recursive" | "--with-filename" | "--null" | "--dereference-recursive") {
                    return false;
                }
                patterns_given |= word.starts_with("--regexp=") || word.starts_with("--file=");
            }
            _ if word.starts_with('-') && word.len() > 1 => {
                if word.contains(['r', 'R', 'H', 'Z']) {
                    return false;
                }
                counting |= word.contains('c');
                patterns_given |= word.contains(['e', 'f']);
                if word.ends_with(['e', 'f', 'm', 'A', 'B', 'C']) {
                    at += 1;
                }
            }
            _ => operands += 1,
        }
    }
    let files = if patterns_given { operands } else { operands.saturating_sub(1) };
    counting && files <= 1
}

/// `stat -c FORMAT` (`--format=`, `--printf=`) of one file with only numbers in the format:
/// sizes, times, modes, ids.
fn numeric_stat(options: &[&str]) -> bool {
    let format = match options {
        [.., "-c" | "--format" | "--printf", format] => Some(*format),
        [.., format] => ["--format=", "--printf=", "-c"].iter().find_map(|option| format.strip_prefix(option)),
        [] => None,
    };
    let fields: Option<Vec<&str>> = format.map(|format| format.split('%').collect());
    match fields.as_deref() {
        Some(["", fields @ ..]) if !fields.is_empty() => {
            fields.iter().all(|field| field.len() == 1 && "abBdghiosuWXYZ".contains(*field))
        }
        _ => false,
    }
}

/// What `date [-u] [-d when] +FORMAT` (or `-I`) prints: the format's own characters, and each
/// field of digits or `-`, `:`, `+` a hole. A name of the locale's (`%b`), a padding with blanks
/// and `%c`, `%x`, `%D` (which may hold `/`) leave it uncomputed. With a date it reads
/// (`-d`, `-r`) it may fail and print nothing.
fn printed_date(words: &[&str]) -> Option<Vec<Value>> {
    let mut format = None;
    let mut may_fail = false;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match *word {
            "-u" | "--utc" | "--universal" => {}
            "-d" | "-r" | "--date" | "--reference" => {
                may_fail = true;
                words.next()?;
            }
            _ if word.starts_with("--date=") || word.starts_with("--reference=") => may_fail = true,
            "-I" | "--iso-8601" | "-Idate" | "--iso-8601=date" => format = Some("%F".to_string()),
            "-Ihours" | "-Iminutes" | "-Iseconds" => format = Some("%FT%T%:z".to_string()),
            _ => format = Some(word.strip_prefix('+')?.to_string()),
        }
    }
    let mut values = vec![date_fields(&format?)?];
    if may_fail {
        values.push(Value::literal(""));
    }
    Some(values)
}

/// A `date` format with each field a hole ([`printed_date`]); `None` for a field it cannot bound.
fn date_fields(format: &str) -> Option<Value> {
    let mut text = String::new();
    let mut holes = Holes::Digits;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        let mut padded_blank = true;
        while let Some(&flag) = chars.peek().filter(|flag| matches!(flag, '-' | '0' | '^' | '#' | '_' | ':')) {
            padded_blank &= flag != '-' && flag != '0';
            if flag == '_' {
                return None;
            }
            chars.next();
        }
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
        }
        let field = match chars.next()? {
            '%' => {
                text.push('%');
                continue;
            }
            'n' => {
                text.push('\n');
                continue;
            }
            't' => {
                text.push('\t');
                continue;
            }
            'Y' | 'y' | 'C' | 'm' | 'd' | 'H' | 'I' | 'M' | 'S' | 's' | 'j' | 'u' | 'w' | 'U' | 'V' | 'W' | 'G'
            | 'g' | 'N' | 'q' | 'F' => Holes::Digits,
            'e' | 'k' | 'l' if !padded_blank => Holes::Digits,
            'T' | 'R' | 'z' => Holes::Name,
            _ => return None,
        };
        holes = holes.max(field);
        if !text.ends_with(HOLE) {
            text.push_str(HOLE);
        }
    }
    let dynamic = text.contains(HOLE);
    Some(Value { text, dynamic, holes: if dynamic { holes } else { Holes::Any } })
}

/// What `mktemp [-d] [-q] [-u] [-p dir | -t | --tmpdir[=dir]] TEMPLATE` prints: the template
/// (in that folder) with its last `X`s random letters, or nothing when it fails.
fn temporary_from_template(words: &[&str], cx: &Context) -> Option<Vec<Value>> {
    let (template, options) = words.split_last()?;
    let mut folder = None;
    let mut options = options.iter();
    while let Some(option) = options.next() {
        match *option {
            "-d" | "-q" | "-u" | "--directory" | "--quiet" | "--dry-run" => {}
            "-t" | "--tmpdir" => folder = Some(temporary_folder_of(cx)?),
            "-p" => folder = Some((*options.next()?).to_string()),
            _ => folder = Some(option.strip_prefix("--tmpdir=")?.to_string()),
        }
    }
    let stem = template.trim_end_matches('X');
    if template.len() - stem.len() < 3 || template.starts_with('-') {
        return None;
    }
    let path = match folder {
        Some(folder) if !template.starts_with('/') => format!("{}/{stem}{HOLE}", folder.trim_end_matches('/')),
        _ => format!("{stem}{HOLE}"),
    };
    Some(vec![Value { text: path, dynamic: true, holes: Holes::Alnum }, Value::literal("")])
}

/// What `$(…)`, `` `printf …` `` or `<(echo …)` print, when the substitution is one such
/// command of known words; trailing newlines removed as bash does for `$(…)`.
fn substitution_output(node: Node, cx: &Context) -> Option<String> {
    if !cx.outputs {
        return None;
    }
    let mut commands = node.named_children();
    let command = commands.next().filter(|command| node_kind(command) == "command")?;
    if commands.next().is_some() {
        return None;
    }
    let name = command.child_by_field_name("name").map(|name| cx.text(name)).filter(|name| !cx.rebound(name))?;
    match name.rsplit('/').next() {
        Some("echo" | "printf") => {}
        Some("mktemp") => return temporary_name(&argument_nodes(command)?, cx),
        Some("git") => return repository_root(&argument_nodes(command)?, cx),
        Some(tool @ ("pwd" | "dirname" | "basename")) => return path_output(tool, &argument_nodes(command)?, cx),
        _ => return None,
    }
    let inner = Context { outputs: false, ..*cx };
    let mut argv = Vec::new();
    for (child, field) in command.children() {
        match field {
            Some("name") => {
                let literal = child.named_child(0)?;
                expand(&[literal], &inner, &mut argv).ok()?;
            }
            Some("argument") => expand(&[child], &inner, &mut argv).ok()?,
            Some(_) => return None,
            None => {}
        }
    }
    // `$(echo docs/*/pl*)` prints what the glob matches, not the pattern.
    if argv.iter().any(|arg| arg.glob) {
        return None;
    }
    let output = super::printed::printed(&argv)?;
    let output = if node_kind(node) == "command_substitution" { output.trim_end_matches('\n') } else { &output };
    cx.budget.charge(output.len()).then(|| output.to_string())
}

/// The argument nodes of a command that has nothing else: `None` with a prefix assignment
/// (`TMPDIR=… mktemp`) or a redirection, which may change what it prints.
fn argument_nodes(command: Node) -> Option<Vec<Node>> {
    let mut arguments = Vec::new();
    for (child, field) in command.children() {
        match field {
            Some("name") => {}
            Some("argument") => arguments.push(child),
            _ if child.is_named() => return None,
            _ => {}
        }
    }
    Some(arguments)
}

/// What `mktemp` prints given no template and no folder (`mktemp`, `mktemp -d`, `-q`, `-u`): a
/// new name in the temporary folder, `$TMPDIR` as the line has it, which cannot be a guarded
/// location; its random part is shown as `X`s. `None` for any other form, which may name a
/// folder of the line's choosing (`mktemp -d docs/superpowers/plans/XXXX`).
fn temporary_name(arguments: &[Node], cx: &Context) -> Option<String> {
    let plain =
        |argument: &Node| matches!(cx.text(*argument), "-d" | "-q" | "-u" | "-dq" | "-qd" | "--directory" | "--quiet");
    if !arguments.iter().all(plain) {
        return None;
    }
    Some(format!("{}/tmp.XXXXXXXXXX", temporary_folder_of(cx)?.trim_end_matches('/')))
}

/// `$TMPDIR` as the line has it, else the system's temporary folder; `None` when the line gave
/// it a value the walk could not compute.
fn temporary_folder_of(cx: &Context) -> Option<String> {
    match cx.lookup("TMPDIR").as_deref() {
        Some([folder]) if !folder.dynamic && !folder.text.is_empty() => Some(folder.text.clone()),
        Some(_) => None,
        None => Some(temporary_folder().text),
    }
}

/// What `pwd`, `dirname NAME…` and `basename NAME [SUFFIX]` print of words the walk knows: where
/// the walk is (unless the line set `PWD`), each name without its last component, the last
/// component without the suffix. `None` with options, globs or words the walk could not compute.
fn path_output(tool: &str, arguments: &[Node], cx: &Context) -> Option<String> {
    let inner = Context { outputs: false, ..*cx };
    let mut words = Vec::new();
    for argument in arguments {
        expand(std::slice::from_ref(argument), &inner, &mut words).ok()?;
    }
    if words.iter().any(|word| word.dynamic || word.glob || word.text.starts_with('-')) {
        return None;
    }
    let names: Vec<&str> = words.iter().map(|word| word.text.as_str()).collect();
    let output = match (tool, names.as_slice()) {
        ("pwd", []) if !cx.vars.contains_key("PWD") => cx.pwd.to_string_lossy().into_owned(),
        ("dirname", [_, ..]) => names.iter().map(|name| dirname(name)).collect::<Vec<_>>().join("\n"),
        ("basename", [name]) => basename(name, ""),
        ("basename", [name, suffix]) => basename(name, suffix),
        _ => return None,
    };
    cx.budget.charge(output.len()).then_some(output)
}

/// `dirname`'s answer for one name, as GNU coreutils gives it.
fn dirname(name: &str) -> String {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { "." } else { "/" }.to_string();
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(at) => match trimmed.get(..at).unwrap_or_default().trim_end_matches('/') {
            "" => "/".to_string(),
            parent => parent.to_string(),
        },
    }
}

/// `basename`'s answer for one name and suffix, as GNU coreutils gives it.
fn basename(name: &str, suffix: &str) -> String {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { "" } else { "/" }.to_string();
    }
    let last = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match last.strip_suffix(suffix) {
        Some(stem) if !suffix.is_empty() && !stem.is_empty() => stem.to_string(),
        _ => last.to_string(),
    }
}

/// What `git rev-parse --show-toplevel` prints: the nearest folder from where it runs up that
/// holds `.git` (a folder, or a worktree's file), as the analysis's file-system questions find
/// it. `None` for any other `git` command or form, or outside a repository.
fn repository_root(arguments: &[Node], cx: &Context) -> Option<String> {
    let texts: Vec<&str> = arguments.iter().map(|argument| cx.text(*argument)).collect();
    if texts != ["rev-parse", "--show-toplevel"] {
        return None;
    }
    Some(fs::repository_top(cx.pwd)?.to_string_lossy().into_owned())
}

/// Most nodes of a command substitution searched for glob words.
const MAX_SUBSTITUTION_NODES: usize = 256;

/// The guarded folders the glob words of the commands in `$(…)` could match (P-18): what the
/// substitution prints may be any of them (`$(ls -d docs/*/pl*)`, `$(printf %s docs/super*/plans)`).
fn substitution_globs(node: Node, cx: &Context) -> Vec<Value> {
    // Not inside another substitution: what that prints is unknown already.
    if !cx.outputs {
        return Vec::new();
    }
    let inner = Context { outputs: false, ..*cx };
    let mut found: Vec<Value> = Vec::new();
    let mut stack = vec![node];
    let mut seen = 0;
    while let Some(next) = stack.pop() {
        seen += 1;
        if seen > MAX_SUBSTITUTION_NODES {
            break;
        }
        if node_kind(next) != "command" {
            stack.extend(next.named_children());
            continue;
        }
        let mut args = Vec::new();
        for (child, field) in next.children() {
            let word = match field {
                Some("name") => child.named_child(0),
                Some("argument") => Some(child),
                _ => None,
            };
            if let Some(word) = word
                && expand(&[word], &inner, &mut args).is_err()
            {
                break;
            }
        }
        for arg in args.iter().filter(|arg| arg.glob) {
            for folder in glob_folders(&arg.text, cx.pwd) {
                if !found.iter().any(|value| value.text == folder) {
                    found.push(Value::literal(&folder));
                }
            }
        }
    }
    found
}

/// The guarded folders an unquoted glob expanded in `base` could match, and the folders above them
/// it could end in (`docs/*uperpowers`), as paths from the root; not `approval.md`, which a bare
/// last `*` would match in any folder: a name written there is judged where it is written.
pub fn glob_folders(pattern: &str, base: &Path) -> Vec<String> {
    let pattern = crate::paths::glob_from(base, pattern);
    let mut folders = crate::paths::guarded_glob_matches(&pattern);
    folders.retain(|text| !text.ends_with(crate::paths::APPROVAL_FILE));
    folders.extend(crate::paths::guarded_ancestor_glob_matches(&pattern));
    folders
}

/// Unquoted text: a backslash quotes the next character; a line continuation disappears.
fn unescape_unquoted(text: &str, builder: &mut Builder) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\n') => {}
                Some(next) => builder.toks.push(Tok::Ch(next, false)),
                None => builder.toks.push(Tok::Ch('\\', false)),
            }
        } else {
            builder.toks.push(Tok::Ch(c, true));
        }
    }
}

/// Inside `"…"` a backslash only quotes `$`, `` ` ``, `"`, `\` and a newline.
fn unescape_double_quoted(text: &str, builder: &mut Builder) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('\n') => {
                    chars.next();
                }
                Some(&next @ ('$' | '`' | '"' | '\\')) => {
                    chars.next();
                    builder.toks.push(Tok::Ch(next, false));
                }
                _ => builder.toks.push(Tok::Ch('\\', false)),
            }
        } else {
            builder.toks.push(Tok::Ch(c, false));
        }
    }
}

/// Where tilde prefixes may start.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TildeAt {
    /// A word: at its start, and after the `=` and each `:` of `name=…` (bash outside POSIX mode).
    Word,
    /// An assignment's value: at its start and after each `:`.
    Value,
}

/// Tilde prefixes as bash expands them: `~` is `$HOME` as the shell has it (the line's own value,
/// even a relative one, `HOME=docs; rm ~/x`, else the process's absolute one), `~+` is `$PWD` and
/// `~-` is `$OLDPWD` (where the line has been, or what it assigned). A prefix runs to the first
/// `/` (in an assignment, also `:`) and is unquoted; `~user` and `~N` stay as they are. Several
/// possible values, or one the walk could not compute, stand in a slot of their own.
fn expand_tildes(toks: &mut Vec<Tok>, slots: &mut Vec<Slot>, cx: &Context, at: TildeAt) {
    let starts = tilde_starts(toks, at);
    let assignment = at == TildeAt::Value || starts.iter().any(|&start| start > 0);
    // From the last, so that each splice leaves the earlier starts where they are.
    for &start in starts.iter().rev() {
        let rest = toks.get(start + 1..).unwrap_or_default();
        let end = rest
            .iter()
            .position(|tok| matches!(tok, Tok::Ch('/', true)) || assignment && matches!(tok, Tok::Ch(':', true)))
            .map_or(toks.len(), |length| start + 1 + length);
        let prefix: Option<String> = toks
            .get(start + 1..end)
            .unwrap_or_default()
            .iter()
            .map(|tok| match tok {
                Tok::Ch(c, true) => Some(*c),
                _ => None,
            })
            .collect();
        let (name, placeholder) = match prefix.as_deref() {
            Some("") => ("HOME", "~"),
            Some("+") => ("PWD", "~+"),
            Some("-") => ("OLDPWD", "~-"),
            _ => continue,
        };
        match cx.lookup(name).as_deref() {
            None => {}
            Some([value]) if !value.dynamic => {
                toks.splice(start..end, value.text.chars().map(|c| Tok::Ch(c, false)));
            }
            Some(values) => {
                toks.splice(start..end, [Tok::Slot(slots.len())]);
                slots.push(Slot { values: values.to_vec(), placeholder: placeholder.to_string() });
            }
        }
    }
}

/// The positions of `~`s that may start a tilde prefix ([`TildeAt`]).
fn tilde_starts(toks: &[Tok], at: TildeAt) -> Vec<usize> {
    let after_equals = match at {
        TildeAt::Value => Some(0),
        TildeAt::Word => assignment_value_start(toks),
    };
    let mut starts: Vec<usize> = Vec::new();
    if toks.first() == Some(&Tok::Ch('~', true)) {
        starts.push(0);
    }
    if let Some(from) = after_equals {
        for (index, tok) in toks.iter().enumerate().skip(from) {
            let starts_here = index == from || matches!(toks.get(index.wrapping_sub(1)), Some(Tok::Ch(':', true)));
            if *tok == Tok::Ch('~', true) && starts_here && !starts.contains(&index) {
                starts.push(index);
            }
        }
    }
    starts
}

/// Where the value of a word shaped like an assignment begins (past `name=` or `name+=`,
/// unquoted); `None` for any other word.
fn assignment_value_start(toks: &[Tok]) -> Option<usize> {
    let name_length =
        toks.iter().take_while(|tok| matches!(tok, Tok::Ch(c, true) if *c == '_' || c.is_ascii_alphanumeric())).count();
    let starts_as_a_name = matches!(toks.first(), Some(Tok::Ch(c, true)) if !c.is_ascii_digit());
    if name_length == 0 || !starts_as_a_name {
        return None;
    }
    match toks.get(name_length..name_length + 2) {
        Some([Tok::Ch('=', true), ..]) => Some(name_length + 1),
        Some([Tok::Ch('+', true), Tok::Ch('=', true)]) => Some(name_length + 2),
        _ => None,
    }
}

/// A brace group found in a word: `{a,b}` (with the top-level comma positions) or `{1..3}`.
enum Braces {
    Alternatives { open: usize, close: usize, commas: Vec<usize> },
    Sequence { open: usize, close: usize, items: Vec<String> },
}

/// Brace expansion, iteratively, in bash's order; more than [`MAX_WORD_EXPANSION`] words is
/// refused.
fn brace_expand(toks: Vec<Tok>, out: &mut Vec<Vec<Tok>>, text: &Budget) -> Result<(), Unscannable> {
    let start = out.len();
    let mut work = vec![(toks, 0usize)];
    while let Some((word, from)) = work.pop() {
        match find_braces(&word, from)? {
            None => out.push(word),
            Some(Braces::Alternatives { open, close, commas }) => {
                let mut bounds = Vec::with_capacity(commas.len() + 2);
                bounds.push(open);
                bounds.extend(commas);
                bounds.push(close);
                for pair in bounds.windows(2).rev() {
                    let &[a, b] = pair else { continue };
                    let alternative = word.get(a + 1..b).unwrap_or_default();
                    if !text.charge(word.len().saturating_sub(close.saturating_sub(open) + 1) + alternative.len()) {
                        return Err(Unscannable::TooMuchText);
                    }
                    work.push((splice(&word, open, close, alternative), open));
                }
            }
            Some(Braces::Sequence { open, close, items }) => {
                for item in items.iter().rev() {
                    let toks: Vec<Tok> = item.chars().map(|c| Tok::Ch(c, false)).collect();
                    if !text.charge(word.len().saturating_sub(close.saturating_sub(open) + 1) + toks.len()) {
                        return Err(Unscannable::TooMuchText);
                    }
                    work.push((splice(&word, open, close, &toks), open + toks.len()));
                }
            }
        }
        if out.len() - start + work.len() > MAX_WORD_EXPANSION {
            return Err(Unscannable::ExpansionTooLarge);
        }
    }
    Ok(())
}

fn splice(word: &[Tok], open: usize, close: usize, middle: &[Tok]) -> Vec<Tok> {
    let mut out = Vec::with_capacity(word.len());
    out.extend_from_slice(word.get(..open).unwrap_or_default());
    out.extend_from_slice(middle);
    out.extend_from_slice(word.get(close + 1..).unwrap_or_default());
    out
}

/// The first brace group at or after `from` that bash would expand.
fn find_braces(word: &[Tok], from: usize) -> Result<Option<Braces>, Unscannable> {
    let mut open_at = from;
    while open_at < word.len() {
        if word.get(open_at) != Some(&Tok::Ch('{', true)) {
            open_at += 1;
            continue;
        }
        let mut depth = 0usize;
        let mut commas = Vec::new();
        let mut close = None;
        for (at, tok) in word.iter().enumerate().skip(open_at + 1) {
            match tok {
                Tok::Ch('{', true) => depth += 1,
                Tok::Ch('}', true) if depth == 0 => {
                    close = Some(at);
                    break;
                }
                Tok::Ch('}', true) => depth -= 1,
                Tok::Ch(',', true) if depth == 0 => commas.push(at),
                _ => {}
            }
        }
        let Some(close) = close else {
            open_at += 1;
            continue;
        };
        if !commas.is_empty() {
            return Ok(Some(Braces::Alternatives { open: open_at, close, commas }));
        }
        if let Some(items) = sequence(word.get(open_at + 1..close).unwrap_or_default())? {
            return Ok(Some(Braces::Sequence { open: open_at, close, items }));
        }
        open_at += 1;
    }
    Ok(None)
}

/// `1..3`, `3..1`, `1..10..2`, `a..e`: the items of a sequence expression.
fn sequence(inner: &[Tok]) -> Result<Option<Vec<String>>, Unscannable> {
    let mut text = String::with_capacity(inner.len());
    for tok in inner {
        match tok {
            Tok::Ch(c, _) => text.push(*c),
            Tok::Slot(_) => return Ok(None),
        }
    }
    let parts: Vec<&str> = text.split("..").collect();
    let (first, last, step) = match parts.as_slice() {
        [a, b] => (*a, *b, None),
        [a, b, c] => (*a, *b, Some(*c)),
        _ => return Ok(None),
    };
    let step = match step.map(str::parse::<i64>) {
        None => 1,
        Some(Ok(step)) => step.checked_abs().unwrap_or(1).max(1),
        Some(Err(_)) => return Ok(None),
    };
    let limit = MAX_WORD_EXPANSION as i64;
    if let (Ok(a), Ok(b)) = (first.parse::<i64>(), last.parse::<i64>()) {
        let count = (a.abs_diff(b) / step.unsigned_abs()).saturating_add(1);
        if count > limit as u64 {
            return Err(Unscannable::ExpansionTooLarge);
        }
        let (a, step) = (i128::from(a), i128::from(step));
        let width = if [first, last].iter().any(|s| s.trim_start_matches('-').starts_with('0') && s.len() > 1) {
            first.len().max(last.len())
        } else {
            0
        };
        let direction = if i128::from(b) >= a { 1 } else { -1 };
        let items = (0..i128::from(count)).map(|i| format!("{:0width$}", a + direction * i * step)).collect();
        return Ok(Some(items));
    }
    let single = |s: &str| {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c as u8),
            _ => None,
        }
    };
    if let (Some(a), Some(b)) = (single(first), single(last)) {
        let direction: i64 = if b >= a { 1 } else { -1 };
        let count = (i64::from(a) - i64::from(b)).abs() / step + 1;
        let items = (0..count).map(|i| char::from((i64::from(a) + direction * i * step) as u8).to_string()).collect();
        return Ok(Some(items));
    }
    Ok(None)
}

/// Replaces the slots by their values: one word per combination, at most
/// [`MAX_WORD_EXPANSION`]; beyond that each slot stands for itself (unknown).
fn substitute(toks: &[Tok], slots: &[Slot], pipe: bool, out: &mut Vec<Arg>, text: &Budget) {
    // `"$@"` with no parameters is no word at all.
    if let [Tok::Slot(index)] = toks
        && slots.get(*index).is_some_and(|slot| slot.values.is_empty())
    {
        return;
    }
    let used: Vec<usize> = toks
        .iter()
        .filter_map(|tok| match tok {
            Tok::Slot(index) => Some(*index),
            Tok::Ch(..) => None,
        })
        .collect();
    let combinations = used
        .iter()
        .try_fold(1usize, |product, &index| {
            product.checked_mul(slots.get(index).map_or(1, |slot| slot.values.len().max(1)))
        })
        .filter(|&count| count <= MAX_WORD_EXPANSION);
    let collapsed = combinations.is_none();
    let mut choice = vec![0usize; slots.len()];
    loop {
        let length: usize = toks
            .iter()
            .map(|tok| match *tok {
                Tok::Ch(c, _) => c.len_utf8(),
                Tok::Slot(index) => slots.get(index).map_or(0, |slot| match collapsed {
                    true => slot.placeholder.len(),
                    false => slot.values.get(choice.get(index).copied().unwrap_or(0)).map_or(0, |v| v.text.len()),
                }),
            })
            .sum();
        if !text.charge(length) {
            return;
        }
        let mut arg = Arg { text: String::with_capacity(length), pipe, ..Arg::default() };
        let mut holes = Holes::Digits;
        for tok in toks {
            match *tok {
                Tok::Ch(c, active) => {
                    arg.glob |= active && matches!(c, '*' | '?' | '[');
                    arg.text.push(c);
                }
                Tok::Slot(index) => {
                    let Some(slot) = slots.get(index) else { continue };
                    if collapsed {
                        arg.text.push_str(&slot.placeholder);
                        arg.dynamic = true;
                        holes = Holes::Any;
                    } else if let Some(value) = slot.values.get(choice.get(index).copied().unwrap_or(0)) {
                        arg.text.push_str(&value.text);
                        if value.dynamic {
                            arg.dynamic = true;
                            holes = holes.max(value.holes);
                        }
                    }
                }
            }
        }
        if arg.dynamic {
            arg.holes = holes;
        }
        out.push(arg);
        if collapsed || !advance(&mut choice, &used, slots) {
            break;
        }
    }
}

/// The next combination of slot values (an odometer over the slots in use).
fn advance(choice: &mut [usize], used: &[usize], slots: &[Slot]) -> bool {
    for &index in used.iter().rev() {
        let (Some(current), Some(slot)) = (choice.get_mut(index), slots.get(index)) else { continue };
        if *current + 1 < slot.values.len() {
            *current += 1;
            return true;
        }
        *current = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers of the coreutils on this machine are the ground truth.
    #[test]
    fn dirname_and_basename_answer_as_the_coreutils_do() {
        let names =
            ["", "/", "//", "a", "a/", "a/b", "a//b//", "/a", "/a/b/", "docs/superpowers/plans/p.md", "./x", "../x/"];
        let run = |tool: &str, args: &[&str]| {
            let out = std::process::Command::new(tool).args(args).output().expect("coreutils");
            String::from_utf8(out.stdout).expect("utf-8").trim_end_matches('\n').to_string()
        };
        for name in names {
            assert_eq!(dirname(name), run("dirname", &[name]), "dirname {name:?}");
            assert_eq!(basename(name, ""), run("basename", &[name]), "basename {name:?}");
            for suffix in [".md", "p.md", "b", "/"] {
                assert_eq!(basename(name, suffix), run("basename", &[name, suffix]), "basename {name:?} {suffix:?}");
            }
        }
    }

    #[test]
    fn ansi_c_escapes() {
        assert_eq!(ansi_c(r"x\x2emd"), "x.md");
        assert_eq!(ansi_c(r"a\nb\tc\\d\'e"), "a\nb\tc\\d'e");
        assert_eq!(ansi_c(r"\141\u00e9\U0001F600"), "aé😀");
        assert_eq!(ansi_c(r"\q\x"), r"\q\x");
        assert_eq!(ansi_c(r"\cA"), "\u{1}");
        assert_eq!(ansi_c("trailing\\"), "trailing\\");
    }

    fn toks(text: &str) -> Vec<Tok> {
        text.chars().map(|c| Tok::Ch(c, true)).collect()
    }

    fn braces(text: &str) -> Result<Vec<String>, Unscannable> {
        let mut out = Vec::new();
        brace_expand(toks(text), &mut out, &Budget::new(crate::bash::MAX_EXPANDED_BYTES))?;
        Ok(out
            .iter()
            .map(|word| word.iter().filter_map(|t| if let Tok::Ch(c, _) = t { Some(*c) } else { None }).collect())
            .collect())
    }

    #[test]
    fn brace_expansion_in_bash_order() {
        assert_eq!(braces("{a,b}.md").expect("expands"), ["a.md", "b.md"]);
        assert_eq!(braces("x{a,{b,c}}y").expect("expands"), ["xay", "xby", "xcy"]);
        assert_eq!(braces("{a,b}{1,2}").expect("expands"), ["a1", "a2", "b1", "b2"]);
        assert_eq!(braces("f{1..3}").expect("expands"), ["f1", "f2", "f3"]);
        assert_eq!(braces("{3..1}").expect("expands"), ["3", "2", "1"]);
        assert_eq!(braces("{01..03}").expect("expands"), ["01", "02", "03"]);
        assert_eq!(braces("{a..c}").expect("expands"), ["a", "b", "c"]);
        assert_eq!(braces("{1..9..4}").expect("expands"), ["1", "5", "9"]);
        assert_eq!(braces("{}").expect("expands"), ["{}"]);
        assert_eq!(braces("{a}").expect("expands"), ["{a}"]);
        assert_eq!(braces("{a,b").expect("expands"), ["{a,b"]);
        assert_eq!(braces("{x}{a,b}").expect("expands"), ["{x}a", "{x}b"]);
        assert_eq!(braces("{,.bak}").expect("expands"), ["", ".bak"]);
        let extreme = format!("{{{}..{}..{}}}", i64::MIN, i64::MAX, i64::MAX);
        assert_eq!(braces(&extreme).expect("expands").len(), 3);
    }

    #[test]
    fn brace_expansion_is_capped() {
        assert_eq!(braces("{1..100000}"), Err(Unscannable::ExpansionTooLarge));
        assert_eq!(braces(&"{a,b}".repeat(11)), Err(Unscannable::ExpansionTooLarge));
        assert_eq!(braces(&"{a,b}".repeat(10)).map(|w| w.len()), Ok(1024));
    }

    #[test]
    fn quoted_braces_stay() {
        let mut out = Vec::new();
        let word =
            vec![Tok::Ch('{', false), Tok::Ch('a', true), Tok::Ch(',', true), Tok::Ch('b', true), Tok::Ch('}', false)];
        brace_expand(word.clone(), &mut out, &Budget::new(crate::bash::MAX_EXPANDED_BYTES)).expect("expands");
        assert_eq!(out, vec![word]);
    }
}
