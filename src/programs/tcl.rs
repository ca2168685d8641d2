//! Tcl (`tclsh`, `wish`, `expect`): `open path w|a|RDWR…`, `file delete|rename|copy|mkdir|link`,
//! `exec`; words joined by `[file join …]`, variables from `set`.

use std::collections::{HashMap, HashSet};

use super::engine::{COMPUTED_PART, Val, shell_word};
use super::lex::{HOLE, Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Cli, Findings, Invocation, Language, MAX_ANALYSIS_WORK, MAX_PROGRAM_TOKENS, parse_cli, simple};

/// The deepest `[…]` substitution read.
const MAX_NESTING: usize = 32;

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::DollarBraces)];

const SYNTAX: Syntax = Syntax { line_comments: &["#"], quotes: QUOTES, ident_chars: "$:.-/~*?+", ..Syntax::PLAIN };

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut reader = Reader {
        tokens: &tokens,
        vars: HashMap::new(),
        findings: Findings::sure(),
        work: 0,
        dir: String::new(),
        procs: HashSet::new(),
    };
    reader.procs = defined_procs(&tokens);
    let mut at = 0;
    while at < tokens.len() {
        let next = reader.command(at);
        at = next.max(at + 1);
        if reader.work > MAX_ANALYSIS_WORK {
            return Findings::unreadable();
        }
    }
    reader.findings
}

struct Reader<'t> {
    tokens: &'t [Token],
    vars: HashMap<String, Val>,
    findings: Findings,
    work: usize,
    /// Relative paths resolve against this after a literal `cd`.
    dir: String,
    /// The procedures the program defines (`proc name …`): read where they stand.
    procs: HashSet<String>,
}

/// The names after `proc`.
fn defined_procs(tokens: &[Token]) -> HashSet<String> {
    let mut names = HashSet::new();
    for pair in tokens.windows(2) {
        if let [keyword, name] = pair
            && keyword.is_ident("proc")
        {
            names.insert(name.text.clone());
        }
    }
    names
}

/// Commands that write no file and start nothing (P-18); `open` and `exec` are judged, and
/// `file`'s subcommands are below.
const READ_ONLY: &[&str] = &[
    "set",
    "puts",
    "close",
    "read",
    "gets",
    "string",
    "list",
    "lindex",
    "llength",
    "lappend",
    "lsort",
    "lrange",
    "lsearch",
    "lreplace",
    "linsert",
    "lassign",
    "lmap",
    "join",
    "split",
    "concat",
    "expr",
    "incr",
    "if",
    "else",
    "elseif",
    "then",
    "while",
    "for",
    "foreach",
    "switch",
    "return",
    "break",
    "continue",
    "proc",
    "glob",
    "format",
    "scan",
    "regexp",
    "regsub",
    "info",
    "append",
    "dict",
    "array",
    "catch",
    "try",
    "error",
    "throw",
    "exit",
    "package",
    "namespace",
    "upvar",
    "global",
    "variable",
    "flush",
    "fconfigure",
    "binary",
    "encoding",
    "clock",
    "after",
    "pwd",
    "eof",
    "seek",
    "tell",
    "fblocked",
    "unset",
    "subst",
    "apply",
    "lreverse",
    "lset",
    "chan",
    "open",
    "exec",
    "file",
    "cd",
    "default",
    "finally",
    "on",
    "trap",
];

/// Commands that set the variables they are given by name (besides `set` and `append`).
const SETS_VARIABLES: &[&str] = &[
    "lappend", "lset", "incr", "regsub", "regexp", "scan", "gets", "foreach", "lmap", "lassign", "dict", "array",
    "upvar", "global", "variable", "binary", "unset", "catch", "try", "vwait",
];

/// `file` subcommands that write nothing.
const FILE_READS: &[&str] = &[
    "exists",
    "isfile",
    "isdirectory",
    "size",
    "mtime",
    "atime",
    "join",
    "dirname",
    "tail",
    "extension",
    "rootname",
    "normalize",
    "split",
    "readable",
    "writable",
    "executable",
    "stat",
    "lstat",
    "type",
    "nativename",
    "pathtype",
    "separator",
    "owned",
    "readlink",
    "channels",
    "volumes",
    "home",
];

/// The access of an `open` that only reads: a mode, or the flags of a braced list.
const READ_ACCESS: &[&str] = &["r", "rb", "RDONLY", "BINARY", "NOCTTY", "NONBLOCK"];

impl Reader<'_> {
    /// The words of the command starting at `at` (up to a line end, `;`, or its closing `]`),
    /// judged; returns where the next command starts.
    fn command(&mut self, at: usize) -> usize {
        let mut words: Vec<Val> = Vec::new();
        let mut pos = at;
        while let Some(token) = self.tokens.get(pos) {
            self.work += 1;
            // `open p {WRONLY TRUNC}`: an access list, not a body.
            let access = token.is("{") && matches!(words.as_slice(), [Val::Str(open), _] if open == "open");
            if access {
                while let Some(flag) = self.tokens.get(pos).filter(|t| !t.is("]")) {
                    words.push(self.word(flag));
                    pos += 1;
                    if flag.is("}") {
                        break;
                    }
                }
                continue;
            }
            if pos > at && token.line_start || token.is(";") || token.is("]") || token.is("{") || token.is("}") {
                break;
            }
            if token.is("[") {
                // A nested command: its value is a word of this one.
                let (value, next) = self.substitution(pos + 1, 0);
                words.push(value);
                pos = next;
                continue;
            }
            words.push(self.word(token));
            pos += 1;
        }
        // `proc name {a b} {…}`: the braced argument names are not a command.
        let arguments_of_proc = at >= 3
            && self.tokens.get(at - 1).is_some_and(|t| t.is("{"))
            && self.tokens.get(at - 3).is_some_and(|t| t.is_ident("proc"));
        self.judge(&words, !arguments_of_proc);
        if self.tokens.get(pos).is_some_and(|t| t.is(";") || t.is("]") || t.is("{") || t.is("}")) {
            pos + 1
        } else {
            pos
        }
    }

    /// `[cmd …]` from after its `[`: its value and where it ends. Nested deeper than
    /// [`MAX_NESTING`], a `[` is a plain word.
    fn substitution(&mut self, from: usize, depth: usize) -> (Val, usize) {
        let mut words = Vec::new();
        let mut pos = from;
        while let Some(token) = self.tokens.get(pos) {
            self.work += 1;
            if self.work > MAX_ANALYSIS_WORK {
                return (Val::Unknown, self.tokens.len());
            }
            if token.is("]") {
                pos += 1;
                break;
            }
            if token.is("[") && depth < MAX_NESTING {
                let (value, next) = self.substitution(pos + 1, depth + 1);
                words.push(value);
                pos = next;
                continue;
            }
            words.push(self.word(token));
            pos += 1;
        }
        self.judge(&words, true);
        let value = match words.as_slice() {
            [Val::Str(file), Val::Str(join), parts @ ..] if file == "file" && join == "join" => {
                let texts: Vec<String> =
                    parts.iter().map(|p| p.text().map_or(HOLE.to_string(), str::to_string)).collect();
                Val::Str(texts.join("/"))
            }
            [Val::Str(glob), patterns @ ..] if glob == "glob" => Val::List(
                patterns
                    .iter()
                    .filter(|p| p.text().is_some_and(|t| !t.starts_with('-') && t != "{" && t != "}"))
                    .cloned()
                    .collect(),
            ),
            [Val::Str(lindex), Val::List(items), Val::Str(index)] if lindex == "lindex" => {
                index.parse::<usize>().ok().and_then(|i| items.get(i).cloned()).unwrap_or(Val::Unknown)
            }
            [Val::Str(string), Val::Str(cat), parts @ ..] if string == "string" && cat == "cat" => {
                Val::Str(parts.iter().map(|p| p.text().map_or(HOLE.to_string(), str::to_string)).collect())
            }
            [Val::Str(string), Val::Str(lower), Val::Str(text)] if string == "string" && lower == "tolower" => {
                Val::Str(text.to_lowercase())
            }
            _ => Val::Unknown,
        };
        (value, pos)
    }

    fn word(&self, token: &Token) -> Val {
        match token.kind {
            Kind::Str { .. } => Val::Str(self.substituted(&token.text)),
            Kind::Ident if token.text.starts_with('$') => {
                let name = token.text.trim_start_matches('$').trim_matches(|c| c == '{' || c == '}');
                self.vars.get(name).cloned().unwrap_or(Val::Str(HOLE.to_string()))
            }
            _ => Val::Str(token.text.clone()),
        }
    }

    /// A quoted word with its `$name` variables replaced by their values (a hole where unknown).
    fn substituted(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(rest.get(..at).unwrap_or_default());
            let after = rest.get(at + 1..).unwrap_or_default();
            let length = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            if length == 0 {
                out.push('$');
            } else {
                let name = after.get(..length).unwrap_or_default();
                match self.vars.get(name).and_then(Val::text) {
                    Some(value) => out.push_str(value),
                    None => out.push(HOLE),
                }
            }
            rest = after.get(length..).unwrap_or_default();
        }
        out.push_str(rest);
        out
    }

    fn judge(&mut self, words: &[Val], command: bool) {
        for text in words.iter().filter_map(Val::text) {
            self.findings.note(text);
        }
        let texts: Vec<Option<&str>> = words.iter().map(Val::text).collect();
        match texts.as_slice() {
            [Some("set"), Some(name), ..] => {
                if let Some(value) = words.get(2) {
                    self.vars.insert((*name).to_string(), value.clone());
                }
            }
            [Some("append"), Some(name), values @ ..] => {
                let old = self.vars.get(*name).and_then(Val::text).map_or(String::new(), str::to_string);
                let added: String = values.iter().map(|value| value.map_or(HOLE.to_string(), str::to_string)).collect();
                self.vars.insert((*name).to_string(), Val::Str(old + &added));
            }
            [Some(command), ..] if SETS_VARIABLES.contains(command) => {
                // `lset p …`, `regsub a $s b p`, `foreach p {…} {…}`: a variable named among the
                // words may now hold anything.
                for name in texts.iter().skip(1).flatten() {
                    if let Some(value) = self.vars.get_mut(*name) {
                        *value = Val::Str(HOLE.to_string());
                    }
                }
            }
            [Some("open"), Some(pipe), ..] if pipe.starts_with('|') => {
                // `open "|cmd …"`: a command pipeline; `open |[list …]` one the reader does not
                // compute.
                let line = pipe.trim_start_matches('|');
                self.findings.sure &= !line.contains(HOLE) && !line.trim().is_empty();
                self.findings.commands.push(line.replace(HOLE, COMPUTED_PART));
            }
            [Some("open"), _, access @ ..] => {
                // `open p ?access? ?permissions?`: a mode, or a braced list of flags.
                let access: &[Option<&str>] = match access {
                    [Some("{"), flags @ ..] => flags.split(|flag| *flag == Some("}")).next().unwrap_or_default(),
                    [mode, ..] => std::slice::from_ref(mode),
                    [] => &[],
                };
                if !access.iter().all(|flag| flag.is_some_and(|flag| READ_ACCESS.contains(&flag))) {
                    self.write(words.get(1));
                }
            }
            [Some("file"), Some("mtime"), _, Some(_), ..] => self.write(words.get(2)),
            [Some("file"), Some("delete" | "mkdir"), ..] => {
                for word in words.iter().skip(2).filter(|w| !w.text().is_some_and(|t| t.starts_with('-'))) {
                    self.write(Some(word));
                }
            }
            [Some("file"), Some("rename" | "copy" | "link"), ..] => {
                let operands: Vec<&Val> =
                    words.iter().skip(2).filter(|w| !w.text().is_some_and(|t| t.starts_with('-'))).collect();
                let subcommand = texts.get(1).copied().flatten();
                for (index, operand) in operands.iter().enumerate() {
                    // `file rename` writes both names, `file copy` its destination, `file link`
                    // the link it makes; a copy or rename's destination gets a tree (a folder
                    // copied or moved onto it, or into it).
                    let last = index + 1 == operands.len();
                    let written = match subcommand {
                        Some("rename") => true,
                        Some("link") => index == 0,
                        _ => last,
                    };
                    if written {
                        self.record(Some(operand), last && subcommand != Some("link"));
                    }
                }
            }
            [Some("exec"), ..] => {
                let mut line = Vec::new();
                for word in words.iter().skip(1) {
                    match word.text() {
                        Some(redirect @ (">" | ">>" | "2>" | "<" | "|" | "&")) => line.push(redirect.to_string()),
                        Some(text) => line.push(shell_word(text).replace(HOLE, COMPUTED_PART)),
                        None => line.push(COMPUTED_PART.to_string()),
                    }
                }
                if !line.is_empty() {
                    self.findings.commands.push(line.join(" "));
                }
            }
            [Some("eval" | "uplevel" | "source" | "interp" | "load"), ..] => self.findings.sure = false,
            [Some("cd"), Some(dir)] if !dir.contains(HOLE) => {
                self.dir = if dir.starts_with('/') { (*dir).to_string() } else { join(&self.dir, dir) };
            }
            [Some("cd"), ..] => self.findings.sure = false,
            _ => {}
        }
        if command {
            self.prove(&texts);
        }
    }

    /// P-18: a command neither judged above nor read-only makes the findings unsure. A first
    /// word that is a variable or a number is left alone: inside braces the reader sees
    /// expressions (`{$i < 3}`) as commands.
    fn prove(&mut self, texts: &[Option<&str>]) {
        let Some(Some(name)) = texts.first() else { return };
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == ':') {
            return;
        }
        let name = name.trim_start_matches("::");
        let known = match name {
            "file" => texts.get(1).copied().flatten().is_some_and(|sub| {
                FILE_READS.contains(&sub) || matches!(sub, "delete" | "mkdir" | "rename" | "copy" | "link")
            }),
            "string" => !matches!(texts.get(1), Some(Some("eval"))),
            _ => READ_ONLY.contains(&name) || self.procs.contains(name),
        };
        if !known {
            self.findings.sure = false;
        }
    }

    fn write(&mut self, word: Option<&Val>) {
        self.record(word, false);
    }

    /// A path written, as a file or as a tree.
    fn record(&mut self, word: Option<&Val>, tree: bool) {
        match word {
            Some(Val::Str(path)) if !path.is_empty() => {
                if path.contains(HOLE) {
                    self.findings.sure = false;
                }
                let named = crate::paths::names_guarded(path, crate::paths::Dialect::Program);
                let computed = if named { Vec::new() } else { super::engine::guarded_matches(path) };
                let locate =
                    |spelled: String| if spelled.starts_with('/') { spelled } else { join(&self.dir, &spelled) };
                for spelled in computed {
                    self.findings.writes.push(locate(spelled));
                }
                let located = locate(path.clone());
                if tree { self.findings.trees.push(located) } else { self.findings.writes.push(located) }
            }
            _ => self.findings.sure = false,
        }
    }
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() { path.to_string() } else { format!("{}/{path}", dir.trim_end_matches('/')) }
}

const CLI: Cli = Cli { inline: &[], file: &["-f"], valued: &["-encoding"], module: &[] };

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    simple(Language::Tcl, parse_cli(args, &CLI, stdin))
}
