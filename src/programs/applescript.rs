//! AppleScript (`osascript`): `do shell script …` runs a command (joined by `&`), judged by the
//! bash walker; when the script uses a writing word (`write`, `delete`, `move`, `duplicate`,
//! `make`, `eof`), every `file "…"` it names is written and every `folder`, `disk` or `alias` gets
//! a tree. Under P-18's inverted default the script is proven only when every other word is in
//! [`READ_WORDS`], a name it binds (`set x to`, `repeat with x`, a handler and its parameters),
//! `open for access`, `set` of a plain variable, or `application "Finder"`/`"System Events"`:
//! anything else (`do script`, `run script`, `keystroke`, another application, `set name of …`,
//! `set name to …` inside a `tell` to a file or other object) leaves it unproven. `osascript -l JavaScript` is read as JavaScript.

use std::collections::HashSet;

use super::engine::{Engine, Grammar};
use super::lex::{Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

const QUOTES: &[Quote] = &[quote("\"", "\"", true, Interpolation::None)];

const SYNTAX: Syntax =
    Syntax { line_comments: &["--", "#"], block_comments: &[("(*", "*)")], quotes: QUOTES, ..Syntax::PLAIN };

const GRAMMAR: Grammar = Grammar { concat: &[("&", "")], ..Grammar::NONE };

/// Words that make a script write the files it names.
const WRITING_WORDS: &[&str] = &["write", "delete", "move", "duplicate", "make", "eof"];

/// The references a writing script writes: a file, or a tree at a folder, disk or alias.
const REFERENCES: &[(&str, bool)] = &[("file", false), ("folder", true), ("disk", true), ("alias", true)];

/// Words that write no file and start nothing (P-18): dialogs and notifications, reading a file,
/// the references and properties Finder and System Events read, and the language's own words.
const READ_WORDS: &[&str] = &[
    "display",
    "dialog",
    "alert",
    "notification",
    "message",
    "buttons",
    "button",
    "default",
    "answer",
    "with",
    "title",
    "subtitle",
    "icon",
    "giving",
    "up",
    "after",
    "hidden",
    "returned",
    "return",
    "get",
    "to",
    "of",
    "in",
    "the",
    "a",
    "an",
    "as",
    "is",
    "not",
    "and",
    "or",
    "if",
    "then",
    "else",
    "end",
    "tell",
    "repeat",
    "times",
    "while",
    "until",
    "from",
    "by",
    "thru",
    "through",
    "try",
    "on",
    "error",
    "number",
    "exit",
    "true",
    "false",
    "missing",
    "value",
    "read",
    "file",
    "posix",
    "path",
    "alias",
    "folder",
    "disk",
    "item",
    "items",
    "every",
    "name",
    "exists",
    "count",
    "contents",
    "list",
    "string",
    "text",
    "integer",
    "real",
    "record",
    "quoted",
    "form",
    "log",
    "me",
    "my",
    "it",
    "its",
    "result",
    "length",
    "character",
    "characters",
    "word",
    "words",
    "paragraph",
    "paragraphs",
    "first",
    "last",
    "some",
    "whose",
    "where",
    "contains",
    "contain",
    "starts",
    "begins",
    "ends",
    "equal",
    "equals",
    "than",
    "greater",
    "less",
    "considering",
    "ignoring",
    "case",
    "white",
    "space",
    "applescript",
    "delimiters",
    "s",
    "for",
    "access",
    "close",
    "permission",
    "home",
    "desktop",
    "documents",
    "container",
    "parent",
    "kind",
    "size",
    "modification",
    "creation",
    "date",
    "current",
    "short",
    "long",
    "offset",
    "id",
    "class",
    "type",
    "new",
    "at",
    "properties",
    "extension",
    "displayed",
    "using",
    "delimiter",
    "run",
    "beginning",
    "starting",
    "local",
    "global",
    "property",
    "temporary",
];

/// The applications a script may tell: the ones whose read-only words above are all they do.
const KNOWN_APPLICATIONS: &[&str] = &["Finder", "System Events"];

pub fn analyze(text: &str) -> Findings {
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    // AppleScript's words ignore case (`DO SHELL SCRIPT`).
    let tokens = super::lex::lowercase_identifiers(tokens);
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.run();
    let writes = tokens.iter().any(|t| WRITING_WORDS.iter().any(|w| t.is_ident(w)));
    let bound = bound_names(&tokens);
    let object_tells = object_tells(&tokens);
    let mut proven = true;
    let mut at = 0;
    while let Some(token) = tokens.get(at) {
        let next = |offset: usize| tokens.get(at + offset);
        let word = |offset: usize, text: &str| next(offset).is_some_and(|t| t.is_ident(text));
        // `do shell script "cmd" & x`
        if word(0, "do") && word(1, "shell") && word(2, "script") {
            let mut pos = at + 3;
            let end = engine.statement_end(pos);
            let command = engine.expr(&mut pos, end, 0);
            engine.command(&command);
            at += 3;
            continue;
        }
        if writes
            && let Some(&(_, tree)) = REFERENCES.iter().find(|(class, _)| token.is_ident(class))
            && next(1).is_some_and(|t| t.is_str() || t.kind == Kind::Ident && !READ_WORDS.contains(&t.text.as_str()))
        {
            let mut pos = at + 1;
            let end = engine.statement_end(pos);
            let path = engine.expr(&mut pos, end, 0);
            if tree { engine.write_tree(path) } else { engine.write(path) }
        }
        let object_told = object_tells.get(at).copied().unwrap_or(true);
        proven &= token.kind != Kind::Ident || proven_word(&tokens, at, &bound, object_told);
        at += 1;
    }
    let targets = engine.findings.writes.len() + engine.findings.trees.len();
    // A writing word whose target the script does not show (`delete (POSIX file p)` of a variable).
    if !proven || writes && targets == 0 {
        engine.findings.sure = false;
    }
    engine.finish()
}

/// Whether identifier `at` is a word P-18 proves: read-only, bound by the script, a writing
/// word (judged by the references above), or one of the phrases whose parts are checked here.
/// `object_told`: the innermost `tell` around it targets an object, not an application.
fn proven_word(tokens: &[Token], at: usize, bound: &HashSet<&str>, object_told: bool) -> bool {
    let Some(token) = tokens.get(at) else { return false };
    let next = |offset: usize| tokens.get(at + offset);
    match token.text.as_str() {
        "application" | "app" => next(1).is_some_and(|name| {
            name.is_str() && KNOWN_APPLICATIONS.iter().any(|known| known.eq_ignore_ascii_case(&name.text))
        }),
        // `set x to …`, `set {a, b} to …`: a variable; `set name of f to …` writes a property, and
        // so does `set name to …` told to a file (the object's terms come before the script's).
        "set" => next(1).is_some_and(|target| {
            let to = |offset: usize| next(offset).is_some_and(|t| t.is_ident("to"));
            WRITING_WORDS.contains(&target.text.as_str())
                || target.is_ident("my") && to(3)
                || !object_told && (target.is("{") || to(2))
        }),
        // `open for access f` opens a file (written only `with write permission`, a writing word).
        "open" => next(1).is_some_and(|t| t.is_ident("for")) && next(2).is_some_and(|t| t.is_ident("access")),
        word => READ_WORDS.contains(&word) || WRITING_WORDS.contains(&word) || bound.contains(word),
    }
}

/// The names a script binds: `set x to`, `set {a, b} to`, `repeat with x`, `global`/`local`/
/// `property` names, and a handler's line (`on show(p)`, `to show(p)`, `on run argv`).
fn bound_names(tokens: &[Token]) -> HashSet<&str> {
    let mut names = HashSet::new();
    for (at, token) in tokens.iter().enumerate() {
        let rest = tokens.get(at + 1..).unwrap_or_default();
        let line = || rest.iter().take_while(|t| !t.line_start);
        let first = || rest.iter().take(1);
        let bound = match token.text.as_str() {
            _ if token.kind != Kind::Ident => Vec::new(),
            "on" | "to" if token.line_start => idents(line()),
            "global" | "local" | "property" => idents(line().take_while(|t| !t.is(":"))),
            "set" if rest.first().is_some_and(|t| t.is("{")) => idents(rest.iter().take_while(|t| !t.is("}"))),
            "set" if rest.first().is_some_and(|t| t.is_ident("my")) => idents(rest.iter().skip(1).take(1)),
            "set" => idents(first()),
            "repeat" if rest.first().is_some_and(|t| t.is_ident("with")) => idents(rest.iter().skip(1).take(1)),
            _ => Vec::new(),
        };
        names.extend(bound);
    }
    names
}

/// For each token, whether the innermost `tell` around it targets an object (`tell file "…"`,
/// `tell disk item p`, `tell f`) rather than an application or the script. A `tell … to` applies
/// to the rest of its line (continued by `¬`), a `tell` block up to its `end tell`.
fn object_tells(tokens: &[Token]) -> Vec<bool> {
    let mut blocks: Vec<bool> = Vec::new();
    let mut on_line: Vec<bool> = Vec::new();
    let mut told = Vec::with_capacity(tokens.len());
    for (at, token) in tokens.iter().enumerate() {
        if new_line(tokens, at) {
            on_line.clear();
        }
        if token.is_ident("tell") && after(tokens, at, "end") {
            blocks.pop();
        } else if token.is_ident("tell") {
            let target = tokens.get(at + 1..).unwrap_or_default();
            let object = !is_application(target);
            if tell_to(tokens, at).is_some() { on_line.push(object) } else { blocks.push(object) }
        }
        told.push(on_line.last().or(blocks.last()).copied().unwrap_or(false));
    }
    told
}

/// Whether the token before `at` is the word `word`.
fn after(tokens: &[Token], at: usize, word: &str) -> bool {
    at.checked_sub(1).and_then(|b| tokens.get(b)).is_some_and(|b| b.is_ident(word))
}

/// A line break that ends a statement (one after `¬` continues it).
fn new_line(tokens: &[Token], at: usize) -> bool {
    let continued = at.checked_sub(1).and_then(|b| tokens.get(b)).is_some_and(|b| b.is("¬"));
    tokens.get(at).is_some_and(|t| t.line_start) && !continued
}

/// The `to` of `tell TARGET to STATEMENT`, on the tell's line and outside brackets (`tell (a
/// reference to f)` and `a reference to f` are targets).
fn tell_to(tokens: &[Token], tell: usize) -> Option<usize> {
    let mut depth = 0usize;
    for at in tell + 1.. {
        let token = tokens.get(at)?;
        if new_line(tokens, at) {
            return None;
        }
        match token.text.as_str() {
            "(" | "{" | "[" if token.kind == Kind::Punct => depth += 1,
            ")" | "}" | "]" if token.kind == Kind::Punct => depth = depth.saturating_sub(1),
            "to" if depth == 0 && token.kind == Kind::Ident && !after(tokens, at, "reference") => return Some(at),
            _ => {}
        }
    }
    None
}

/// `application "Finder"`, `app id "com.apple.finder"`, `current application`, `me`: not an
/// object whose properties a bare `set` could change (`application file "x"` is one).
fn is_application(target: &[Token]) -> bool {
    let word = |at: usize, text: &str| target.get(at).is_some_and(|t| t.is_ident(text));
    let skip = usize::from(word(0, "the"));
    let named = target.get(skip + 1).is_some_and(|t| t.is_str() || t.is_ident("id"));
    (word(skip, "application") || word(skip, "app")) && named
        || word(skip, "current") && word(skip + 1, "application")
        || word(skip, "me")
}

fn idents<'t>(tokens: impl Iterator<Item = &'t Token>) -> Vec<&'t str> {
    tokens.filter(|t| t.kind == Kind::Ident).map(|t| t.text.as_str()).collect()
}

pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut statements = Vec::new();
    let mut language = Language::AppleScript;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        match arg.as_str() {
            "-e" => {
                statements.extend(args.get(at).cloned());
                at += 1;
            }
            "-l" => {
                if args.get(at).is_some_and(|l| l == "JavaScript") {
                    language = Language::JavaScript;
                }
                at += 1;
            }
            "-s" => at += 1,
            _ if arg.starts_with('-') && arg != "-" => {}
            _ => {
                at -= 1;
                break;
            }
        }
    }
    let rest = args.get(at..).unwrap_or_default();
    let (source, program_args) = if !statements.is_empty() {
        (Source::Text(statements.join("\n")), rest.to_vec())
    } else {
        match rest.split_first() {
            Some((file, more)) if file != "-" => (Source::File(file.clone()), more.to_vec()),
            _ => (super::stdin_source(stdin), Vec::new()),
        }
    };
    Invocation::new(language, source, program_args)
}
