//! Interpreter programs (P-13): what a program in another language, run from bash, writes.
//!
//! The bash walker hands over "a program in language L with text T, run in directory D, with
//! these arguments" ([`Invocation`], from [`invocation`] over a command's words); [`judge`]
//! answers which paths it could write (as typed, relative to D) and which command lines it starts
//! (judged as bash by the walker). Each language is read by a bounded lexical analysis
//! ([`lex`], [`engine`]): string literals and the expressions that join them (`+`, f-strings,
//! `os.path.join`, pathlib's `/`, `path.join`, `%`/`.format`, variables), and a table of the
//! write-capable and process-starting calls of the language.
//!
//! Fail closed: when a program has a write or a process whose target the analysis cannot know
//! (a computed path, `eval`, reflection), every guarded location the program or its arguments
//! name is reported as written, and the gates judge it with their own texts. A program over a cap
//! is judged by its raw text with [`crate::paths::names_guarded`], like a bash command
//! over the parser's caps.

mod applescript;
mod awk;
pub mod engine;
mod fields;
mod javascript;
mod jq;
pub mod lex;
mod lua;
mod perl;
mod php;
mod python;
mod r;
mod ruby;
mod sqlite;
mod tcl;

use std::path::{Path, PathBuf};

use crate::analysis::answer::{Answer, Location, Proof, Unsure};
pub use crate::analysis::handoff::{Invocation, Language, MAX_SCRIPT_FILE_BYTES, Place, ProgramLimit, Source};
use crate::paths::{self, GuardedName};

/// Programs longer than this are judged by their raw text (256 KiB).
pub const MAX_PROGRAM_BYTES: usize = 256 << 10;
/// The most tokens one program is read into.
pub const MAX_PROGRAM_TOKENS: usize = 64 << 10;
/// The analysis's work budget for one program, in steps (a token visited, a value computed):
/// deterministic, unlike a timer.
pub const MAX_ANALYSIS_WORK: usize = 400_000;

/// What a program does that the gates care about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Paths as typed, relative to the program's directory.
    pub writes: Vec<String>,
    /// Directories it fills with a tree (a recursive copy, an archive extracted, a move onto
    /// them), as typed.
    pub trees: Vec<String>,
    /// Command lines it starts, for the bash walker.
    pub commands: Vec<String>,
}

impl Verdict {
    /// Every path written, files and trees, as typed (what a test compares).
    #[cfg(test)]
    pub fn written(self) -> Vec<String> {
        self.writes.into_iter().chain(self.trees).collect()
    }
}

/// The most strings [`Findings::note`] keeps of each kind.
const MAX_NOTED: usize = 64;

/// What one language's analysis found.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub writes: Vec<String>,
    /// Directories written as a tree (`shutil.copytree(src, dst)`, `extractall(dir)`).
    pub trees: Vec<String>,
    pub commands: Vec<String>,
    /// Every write and process target is known.
    pub sure: bool,
    /// The strings that name a guarded location.
    pub named: Vec<String>,
    /// The strings that name the changes folder without a guarded location in it (a change,
    /// `openspec/changes`): a tree there holds approval.md.
    pub changes: Vec<String>,
    /// The work budget ran out: judge the raw text.
    pub over_budget: bool,
}

impl Findings {
    pub fn sure() -> Self {
        Findings { sure: true, ..Findings::default() }
    }

    /// A program the analysis does not read: its raw text decides.
    pub fn unreadable() -> Self {
        Findings { over_budget: true, ..Findings::default() }
    }

    /// Keeps a string the program computes when it names a guarded location or the changes
    /// folder, for the verdict of an unproven program (at most [`MAX_NOTED`] of each).
    pub fn note(&mut self, text: &str) {
        let program = paths::Dialect::Program;
        let list = if paths::names_guarded(text, program) {
            &mut self.named
        } else if paths::names_changes_folder(text, program) {
            &mut self.changes
        } else {
            return;
        };
        if list.len() < MAX_NOTED && !list.iter().any(|noted| noted == text) {
            list.push(text.to_string());
        }
    }

    /// A path the program writes (a directory filled with a tree when `tree`), located where the
    /// program runs. A computed part could make any path: one that names a guarded location is
    /// judged as it stands; one that does not leaves the findings unsure and may be any guarded
    /// location its known parts match (a hole or a glob, `'docs/superpowers/' + pick() + '/p.md'`).
    /// A random name ([`lex::NAME_HOLE`]) keeps the findings sure: the path is one of the names
    /// its glob matches in its folder, and only the guarded ones among them are written
    /// (`/tmp/tmp*.md` none, `/tmp/*.md` may be `/tmp/approval.md`).
    pub fn written(&mut self, located: String, tree: bool) {
        if !paths::names_guarded(&located, paths::Dialect::Program) {
            let matched = if located.contains(lex::HOLE) {
                self.sure = false;
                engine::guarded_matches(&located)
            } else if located.contains(lex::NAME_HOLE) {
                paths::guarded_glob_matches(&engine::wildcarded(&located))
            } else {
                engine::guarded_matches(&located)
            };
            for matched in matched {
                engine::push_new(&mut self.writes, matched);
            }
        }
        engine::push_new(if tree { &mut self.trees } else { &mut self.writes }, located);
    }
}

/// The language a command runs programs in, by its name (`python3.12`, `/usr/bin/node`).
pub fn language_of(command: &str) -> Option<Language> {
    let name = command.rsplit('/').next().unwrap_or(command);
    let language = match name {
        "python" | "python3" | "pypy3" => Language::Python,
        "node" | "nodejs" | "bun" => Language::JavaScript,
        "deno" | "tsx" | "ts-node" | "ts-node-esm" => Language::TypeScript,
        "perl" => Language::Perl,
        "ruby" => Language::Ruby,
        "php" => Language::Php,
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => Language::Awk,
        "lua" | "luajit" => Language::Lua,
        "tclsh" | "wish" | "expect" => Language::Tcl,
        "Rscript" | "R" => Language::R,
        "osascript" => Language::AppleScript,
        "sqlite3" | "sqlite" => Language::Sqlite,
        "jq" | "yq" | "gojq" | "jaq" => Language::Jq,
        // `python3.12`, `perl5.36`, `lua5.4`, `tclsh8.6`: only a name ending in a version.
        _ if name.ends_with(|c: char| c.is_ascii_digit()) => return versioned(name),
        _ => return None,
    };
    Some(language)
}

fn versioned(name: &str) -> Option<Language> {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match prefix {
        "python" | "pypy" => Some(Language::Python),
        "perl" => Some(Language::Perl),
        "ruby" => Some(Language::Ruby),
        "php" => Some(Language::Php),
        "lua" => Some(Language::Lua),
        "tclsh" => Some(Language::Tcl),
        _ => None,
    }
}

/// The language a script's `#!` line names, when it is not a shell.
pub fn language_of_shebang(text: &str) -> Option<Language> {
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let mut program = words.next()?;
    if program.ends_with("/env") {
        program = words.find(|word| !word.starts_with('-'))?;
    }
    language_of(program)
}

/// The interpreter run by `argv` (its name first), when it is one; `stdin` is the text of its
/// heredoc or here-string, or what a pipeline feeds it.
pub fn invocation(argv: &[String], stdin: Option<&str>) -> Option<Invocation> {
    let (name, args) = argv.split_first()?;
    let language = language_of(name)?;
    let command = name.rsplit('/').next().unwrap_or(name);
    let mut invocation = match language {
        Language::Python => python::invocation(args, stdin),
        Language::JavaScript | Language::TypeScript => javascript::invocation(command, args, stdin),
        Language::Perl => perl::invocation(args, stdin),
        Language::Ruby => ruby::invocation(args, stdin),
        Language::Php => php::invocation(args, stdin),
        Language::Awk => awk::invocation(args, stdin),
        Language::Lua => lua::invocation(args, stdin),
        Language::Tcl => tcl::invocation(args, stdin),
        Language::R => r::invocation(command, args, stdin),
        Language::AppleScript => applescript::invocation(args, stdin),
        Language::Sqlite => sqlite::invocation(args, stdin),
        Language::Jq => jq::invocation(command, args),
    };
    // Standard input that is not the program may still be code it runs (`exec(input())`, a
    // debugger's commands): for an unproven program, what it names counts as its arguments' do.
    if let Some(stdin) = stdin
        && !matches!(&invocation.source, Source::Text(text) if text == stdin)
        && paths::may_name_guarded(stdin.as_bytes())
    {
        invocation.args.push(stdin.to_string());
    }
    Some(invocation)
}

/// What a program in `language` writes and starts when run at `place` with `args`, as the answer
/// every analysis gives: the locations absolute, the command lines it starts for the walker.
/// `text` is `None` when its script file could not be read (missing, oversized, binary): then
/// only what the command line shows counts.
pub fn analyze(
    language: Language,
    text: Option<&str>,
    args: &[String],
    place: Place,
    unseen_code: bool,
) -> Answer<ProgramLimit> {
    let (verdict, proof) = judged(language, text, args, place, unseen_code);
    let located = |write: &String| ledger_through_variable(write).unwrap_or_else(|| paths::absolute(write, place.dir));
    let files = verdict.writes.iter().map(|write| Location::file(located(write)));
    let trees = verdict.trees.iter().map(|tree| Location::tree(located(tree)));
    let locations = files.chain(trees).collect();
    Answer { locations, starts: verdict.commands, proof }
}

/// [`analyze`] with the paths as typed (relative to `dir`, holes as `*`), the temporary folder
/// `/tmp`.
pub fn judge(language: Language, text: Option<&str>, args: &[String], dir: &Path) -> Verdict {
    judged(language, text, args, Place { dir, temporary: Some("/tmp") }, false).0
}

fn judged(
    language: Language,
    text: Option<&str>,
    args: &[String],
    place: Place,
    unseen_code: bool,
) -> (Verdict, Proof<ProgramLimit>) {
    let dir = place.dir;
    let (mut findings, stopped) = match text {
        Some(text) if text.len() > MAX_PROGRAM_BYTES => (Findings::unreadable(), Some(ProgramLimit::TooLarge)),
        Some(text) => (analyze_text(language, text, place), None),
        None => (Findings { sure: false, ..Findings::default() }, None),
    };
    findings.sure &= !unseen_code;
    let unsure = match text {
        None => Unsure::UnreadableProgram,
        Some(_) if unseen_code => Unsure::UnseenCode,
        Some(_) => Unsure::ComputedTarget,
    };
    let text = text.unwrap_or_default();
    let mut verdict = Verdict::default();
    if findings.over_budget {
        for text in std::iter::once(text).chain(args.iter().map(String::as_str)) {
            guarded_words(text, &mut verdict.writes);
        }
        named_across_words(text, &mut verdict.writes);
        return (verdict, Proof::Stopped { limit: stopped.unwrap_or(ProgramLimit::OverBudget) });
    }
    verdict.writes = findings.writes.iter().map(|w| engine::wildcarded(w)).collect();
    verdict.trees = findings.trees.iter().map(|w| engine::wildcarded(w)).collect();
    // An empty command line starts nothing (`` `  ` ``, `system('')`).
    verdict.commands = findings.commands.into_iter().filter(|command| !command.trim().is_empty()).collect();
    if findings.sure {
        return (verdict, Proof::Proven);
    }
    // An unproven program may write anything at a guarded location it names: a tree there
    // (a change folder named is its approval.md).
    for named in findings.named.iter().map(String::as_str).chain(args.iter().map(String::as_str)) {
        guarded_words(named, &mut verdict.trees);
    }
    for arg in args {
        guarded_argument(arg, dir, &mut verdict.trees);
    }
    // A change it names (or the changes folder) may get a tree, as an unknown command's word
    // does (P-12): an archive extracted into it brings an approval.md.
    for text in findings.changes.iter().chain(args) {
        for word in words(text).filter(|word| !paths::guarded_here(&paths::absolute(word, dir)).is_empty()) {
            engine::push_new(&mut verdict.trees, engine::wildcarded(word));
        }
    }
    // A pattern in the program (`'docs/superpowers/*lans/p.md'` printed by a process it reads)
    // may stand for the guarded locations it matches.
    for word in words(text).filter(|word| word.contains(['*', '?', '['])) {
        for path in engine::guarded_matches(word).into_iter().filter(|path| !verdict.writes.contains(path)) {
            engine::push_new(&mut verdict.trees, path);
        }
    }
    let names_guarded = |write: &String| paths::names_guarded(write, paths::Dialect::Program);
    if !verdict.writes.iter().chain(&verdict.trees).any(names_guarded) {
        guarded_words(text, &mut verdict.trees);
        named_across_words(text, &mut verdict.trees);
    }
    (verdict, Proof::Unproven { why: unsure })
}

/// A program argument that is guarded where the program runs (`cd docs/superpowers/plans; awk …
/// p.md`), or a pattern that could match a guarded location (`docs/superpowers/*lans/p.md`), as
/// the absolute path or the matches.
fn guarded_argument(arg: &str, dir: &Path, out: &mut Vec<String>) {
    if arg.starts_with('-') || paths::names_guarded(arg, paths::Dialect::Program) {
        return;
    }
    let absolute = paths::absolute(arg, dir).to_string_lossy().into_owned();
    let found = if paths::names_guarded(&absolute, paths::Dialect::Program) {
        vec![absolute]
    } else {
        engine::guarded_matches(arg)
    };
    for path in found {
        engine::push_new(out, path);
    }
}

/// When `text` names a guarded location only across words or quotes and no write found names
/// one, the guarded locations themselves.
fn named_across_words(text: &str, out: &mut Vec<String>) {
    let program = paths::Dialect::Program;
    if paths::names_guarded(text, program) && !out.iter().any(|write| paths::names_guarded(write, program)) {
        let ledger = paths::names_this(text, program, GuardedName::Ledger).then_some(GuardedName::Ledger);
        let named = GuardedName::IN_REPOSITORY.into_iter().chain(ledger);
        out.extend(named.filter_map(GuardedName::everything_in).map(|path| path.to_string_lossy().into_owned()));
    }
}

fn analyze_text(language: Language, text: &str, place: Place) -> Findings {
    match language {
        Language::Python => python::analyze(text, place),
        Language::JavaScript => javascript::analyze(text, place, javascript::Flavor::JavaScript),
        Language::TypeScript => javascript::analyze(text, place, javascript::Flavor::TypeScript),
        Language::Perl => perl::analyze(text),
        Language::Ruby => ruby::analyze(text),
        Language::Php => php::analyze(text),
        Language::Awk => awk::analyze(text),
        Language::Lua => lua::analyze(text),
        Language::Tcl => tcl::analyze(text),
        Language::R => r::analyze(text),
        Language::AppleScript => applescript::analyze(text),
        Language::Sqlite => sqlite::analyze(text),
        Language::Jq => Findings::sure(),
    }
}

/// Runs a language's grammar over its tokens; over the token cap, the raw text decides.
fn run_grammar(text: &str, syntax: &lex::Syntax, grammar: &engine::Grammar) -> Findings {
    let Some(tokens) = lex::tokens(text, syntax, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut engine = engine::Engine::new(&tokens, grammar);
    engine.run();
    engine.finish()
}

/// The words of a program's text, split at blanks, quotes and punctuation (a glob's `[…]` and
/// `*` stay in the word).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "'\"`;()<>|&,={}".contains(c)).filter(|word| !word.is_empty())
}

/// The words of `text` that name a guarded location, as paths (holes as `*`).
fn guarded_words(text: &str, out: &mut Vec<String>) {
    if !paths::names_guarded(text, paths::Dialect::Program) {
        return;
    }
    for word in text.split(|c: char| c.is_whitespace() || "'\"`;()<>|&,=[]{}".contains(c)) {
        if word.is_empty() || !paths::names_guarded(word, paths::Dialect::Program) {
            continue;
        }
        let word = engine::wildcarded(word);
        if !out.contains(&word) {
            out.push(word);
        }
    }
}

/// A word that names the ledger's folder through a variable the program expands (`~`, `$HOME`,
/// `$XDG_STATE_HOME`): the folder itself, as the environment names it.
fn ledger_through_variable(word: &str) -> Option<PathBuf> {
    let by_variable =
        !word.starts_with('/') && paths::guarded_named(word, paths::Dialect::Program) == Some(GuardedName::Ledger);
    by_variable.then(|| GuardedName::Ledger.location()).flatten()
}

/// Options of an interpreter's command line: which take a value, which take the program text.
struct Cli {
    /// Options whose value is program text (`-c`, `-e`, `--eval`); several are joined by lines.
    inline: &'static [&'static str],
    /// Options whose value is a script file (`-f`).
    file: &'static [&'static str],
    /// Other options that take a value (`-m` is not here: it ends the options).
    valued: &'static [&'static str],
    /// Options after which the rest are arguments and no program is read (`-m module`).
    module: &'static [&'static str],
}

/// The program text, script file or standard input an interpreter runs, and its arguments.
fn parse_cli(args: &[String], cli: &Cli, stdin: Option<&str>) -> (Source, Vec<String>) {
    let mut inline: Vec<String> = Vec::new();
    let mut file = None;
    let mut at = 0;
    let takes = |list: &[&str], option: &str| list.contains(&option);
    while let Some(arg) = args.get(at) {
        at += 1;
        if arg == "--" {
            break;
        }
        if arg == "-" || !arg.starts_with('-') {
            at -= 1;
            break;
        }
        let (option, attached) = match arg.split_once('=').filter(|_| arg.starts_with("--")) {
            Some((option, value)) => (option.to_string(), Some(value.to_string())),
            None => (arg.clone(), None),
        };
        let mut handle = |option: &str, attached: Option<String>, at: &mut usize| -> bool {
            let value = |at: &mut usize| {
                attached.clone().or_else(|| {
                    let value = args.get(*at).cloned();
                    *at += 1;
                    value
                })
            };
            if takes(cli.inline, option) {
                inline.extend(value(at));
            } else if takes(cli.file, option) {
                file = value(at);
            } else if takes(cli.module, option) {
                let _ = value(at);
                return true;
            } else if takes(cli.valued, option) {
                let _ = value(at);
            }
            false
        };
        if option.starts_with("--") || option.len() == 2 {
            if handle(&option, attached, &mut at) {
                return (Source::Nothing, args.get(at..).unwrap_or_default().to_vec());
            }
            continue;
        }
        // A cluster of short options: `-pe`, `-uc`, `-ne 'code'`, `-cCODE`.
        for (offset, letter) in option.char_indices().skip(1) {
            let short = format!("-{letter}");
            let rest = option.get(offset + letter.len_utf8()..).unwrap_or_default();
            let value_taking = [cli.inline, cli.file, cli.valued, cli.module].iter().any(|list| takes(list, &short));
            if value_taking {
                let attached = (!rest.is_empty()).then(|| rest.to_string());
                if handle(&short, attached, &mut at) {
                    return (Source::Nothing, args.get(at..).unwrap_or_default().to_vec());
                }
                break;
            }
        }
    }
    let rest = args.get(at..).unwrap_or_default();
    if !inline.is_empty() {
        return (Source::Text(inline.join("\n")), rest.to_vec());
    }
    if let Some(file) = file {
        return (Source::File(file), rest.to_vec());
    }
    match rest.split_first() {
        Some((script, args)) if script != "-" => (Source::File(script.clone()), args.to_vec()),
        Some((_, args)) => (stdin_source(stdin), args.to_vec()),
        None => (stdin_source(stdin), Vec::new()),
    }
}

fn stdin_source(stdin: Option<&str>) -> Source {
    stdin.map_or(Source::Nothing, |text| Source::Text(text.to_string()))
}

fn simple(language: Language, (source, args): (Source, Vec<String>)) -> Invocation {
    Invocation::new(language, source, args)
}

#[cfg(test)]
mod tests;
