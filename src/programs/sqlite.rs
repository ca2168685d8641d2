//! sqlite3: the database file itself (unless `-readonly`), the dot commands that write a file
//! (`.output`, `.once`, `.save`, `.backup`, `.clone`, `.open`) or run one (`.shell`, `.system`,
//! `.output |cmd`), and the SQL that writes one (`VACUUM INTO`, `ATTACH`, `writefile()`).

use super::engine::{Engine, Grammar, Op, Receiver, Rule, Val, rule};
use super::lex::{Interpolation, Quote, Syntax, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

const QUOTES: &[Quote] = &[quote("'", "'", false, Interpolation::None), quote("\"", "\"", false, Interpolation::None)];

const SYNTAX: Syntax =
    Syntax { line_comments: &["--"], block_comments: &[("/*", "*/")], quotes: QUOTES, ..Syntax::PLAIN };

const RULES: &[Rule] = &[rule("writefile", Receiver::Any, Op::Write(&[0])), rule("edit", Receiver::Any, Op::Opaque)];

const GRAMMAR: Grammar = Grammar { rules: RULES, concat: &[("||", "")], ..Grammar::NONE };

pub fn analyze(text: &str) -> Findings {
    let mut sql = String::new();
    let mut findings = Findings::sure();
    for line in text.lines() {
        match line.trim_start().strip_prefix('.') {
            Some(command) => dot_command(command, &mut findings),
            None => {
                sql.push_str(line);
                sql.push('\n');
            }
        }
    }
    let Some(tokens) = super::lex::tokens(&sql, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.findings = findings;
    engine.run();
    for (at, token) in tokens.iter().enumerate() {
        let keyword =
            |offset: usize, word: &str| tokens.get(at + offset).is_some_and(|t| t.text.eq_ignore_ascii_case(word));
        let target = if keyword(0, "vacuum") {
            tokens.iter().skip(at + 1).take(3).position(|t| t.text.eq_ignore_ascii_case("into")).map(|p| at + 2 + p)
        } else if keyword(0, "attach") {
            Some(if keyword(1, "database") { at + 2 } else { at + 1 })
        } else {
            None
        };
        if let Some(mut pos) = target {
            let end = engine.statement_end(pos);
            let value = engine.expr(&mut pos, end, 0);
            engine.note(&value);
            if value != Val::Str(":memory:".to_string()) && value != Val::Str(String::new()) {
                engine.write(value);
            }
        }
        let _ = token;
    }
    engine.finish()
}

/// One dot command (without its `.`).
fn dot_command(command: &str, findings: &mut Findings) {
    let words = split_words(command);
    let Some((name, args)) = words.split_first() else { return };
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    match name.as_str() {
        "output" | "once" | "save" | "clone" | "open" | "excel" => {
            if let Some(file) = operands.last() {
                match file.strip_prefix('|') {
                    Some(command) => findings.commands.push(command.trim().to_string()),
                    None => findings.writes.push((*file).clone()),
                }
            }
        }
        "backup" => findings.writes.extend(operands.last().map(|f| (*f).clone())),
        "shell" | "system" => findings.commands.push(args.join(" ")),
        "read" | "import" if operands.first().is_some_and(|f| f.starts_with('|')) => {
            findings.commands.push(operands.first().map(|f| f.trim_start_matches('|').to_string()).unwrap_or_default())
        }
        // Another file of SQL: not read here.
        "read" => findings.sure = false,
        _ => {}
    }
}

/// A dot command's words: blanks separate, quotes group.
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        words.push(word);
    }
    words
}

/// `sqlite3 [options] [database [sql…]]`; without SQL operands, standard input is the program.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut readonly = false;
    let mut commands = Vec::new();
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if !operands.is_empty() || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        let option = arg.trim_start_matches('-');
        match option {
            "readonly" => readonly = true,
            "cmd" => {
                commands.extend(args.get(at).cloned());
                at += 1;
            }
            "init" | "separator" | "newline" | "nullvalue" | "mmap" | "heap" | "lookaside" | "pagecache" | "vfs"
            | "maxsize" | "escape" => at += 1,
            _ => {}
        }
    }
    let mut operands = operands.into_iter();
    let database = operands.next();
    commands.extend(operands);
    let source = if commands.is_empty() { super::stdin_source(stdin) } else { Source::Text(commands.join("\n")) };
    let writes = database.filter(|db| !readonly && db != ":memory:" && !db.is_empty()).into_iter().collect();
    Invocation { language: Language::Sqlite, source, args: Vec::new(), writes, trees: Vec::new(), prelude: String::new() }
}
