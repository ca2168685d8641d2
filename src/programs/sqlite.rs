//! sqlite3: the database file itself (unless `-readonly`), the dot commands that write a file
//! (`.output`, `.once`, `.save`, `.backup`, `.clone`, `.open`, `.excel`, `.log`) or run one
//! (`.shell`, `.system`, `.output |cmd`), and the SQL that writes one (`VACUUM INTO`, `ATTACH`,
//! `writefile()`). Under P-18's inverted default, a dot command outside [`READ_ONLY_DOTS`]
//! (`.load`, `.cd`, `.read`, `.archive`, an abbreviation), `-init FILE`, and a SQL function
//! outside [`READ_ONLY`] (`load_extension`, `edit`, the `zipfile` module, any other) leave the
//! program unproven: every guarded location it or the database operand names counts as written.

use super::engine::{Engine, Grammar, Op, Receiver, Rule, Val, rule};
use super::lex::{Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Source};

// `'…'` is a string; `"…"`, `` `…` `` and `[…]` quote an identifier (which a `(` makes a call).
const QUOTES: &[Quote] = &[
    quote("'", "'", false, Interpolation::None),
    quote("\"", "\"", false, Interpolation::None),
    quote("`", "`", false, Interpolation::None),
    quote("[", "]", false, Interpolation::None),
];

const SYNTAX: Syntax =
    Syntax { line_comments: &["--"], block_comments: &[("/*", "*/")], quotes: QUOTES, ..Syntax::PLAIN };

const RULES: &[Rule] = &[
    rule("writefile", Receiver::Any, Op::Write(&[0])),
    rule("edit", Receiver::Any, Op::Opaque),
    rule("load_extension", Receiver::Any, Op::Opaque),
    // The virtual table that writes zip archives (`CREATE VIRTUAL TABLE z USING zipfile('a.zip')`).
    rule("zipfile", Receiver::Any, Op::Opaque),
];

/// SQL functions that write no file and start nothing (P-18): the core, aggregate, date, JSON,
/// math and window functions, and the shell's `readfile`, `sha3` and `fsdir`.
const READ_ONLY: &[&str] = &[
    "abs",
    "changes",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "format",
    "glob",
    "hex",
    "ifnull",
    "iif",
    "instr",
    "last_insert_rowid",
    "length",
    "like",
    "likelihood",
    "likely",
    "lower",
    "ltrim",
    "max",
    "min",
    "nullif",
    "octet_length",
    "printf",
    "quote",
    "random",
    "randomblob",
    "replace",
    "round",
    "rtrim",
    "sign",
    "soundex",
    "sqlite_version",
    "sqlite_source_id",
    "substr",
    "substring",
    "total_changes",
    "trim",
    "typeof",
    "unhex",
    "unicode",
    "unlikely",
    "upper",
    "zeroblob",
    "avg",
    "count",
    "group_concat",
    "string_agg",
    "sum",
    "total",
    "date",
    "time",
    "datetime",
    "julianday",
    "unixepoch",
    "strftime",
    "timediff",
    "json",
    "jsonb",
    "json_array",
    "json_array_length",
    "json_extract",
    "json_insert",
    "json_object",
    "json_patch",
    "json_remove",
    "json_replace",
    "json_set",
    "json_type",
    "json_valid",
    "json_quote",
    "json_group_array",
    "json_group_object",
    "json_each",
    "json_tree",
    "acos",
    "asin",
    "atan",
    "atan2",
    "ceil",
    "ceiling",
    "cos",
    "exp",
    "floor",
    "ln",
    "log",
    "log2",
    "log10",
    "mod",
    "pi",
    "pow",
    "power",
    "sin",
    "sqrt",
    "tan",
    "trunc",
    "row_number",
    "rank",
    "dense_rank",
    "percent_rank",
    "cume_dist",
    "ntile",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "nth_value",
    "readfile",
    "sha3",
    "sha3_query",
    "fsdir",
    "pragma_table_info",
    "pragma_index_list",
    "fts3",
    "fts4",
    "fts5",
    "rtree",
];

/// SQL words a `(` may follow (`IN (…)`, `CAST(…)`, `VARCHAR(10)`): not calls.
const KEYWORDS: &[&str] = &[
    "select",
    "from",
    "where",
    "and",
    "or",
    "not",
    "in",
    "values",
    "cast",
    "as",
    "over",
    "filter",
    "using",
    "key",
    "primary",
    "foreign",
    "unique",
    "check",
    "default",
    "conflict",
    "on",
    "when",
    "then",
    "else",
    "case",
    "end",
    "join",
    "by",
    "having",
    "set",
    "is",
    "between",
    "returning",
    "constraint",
    "collate",
    "within",
    "partition",
    "window",
    "distinct",
    "all",
    "union",
    "except",
    "intersect",
    "limit",
    "offset",
    "order",
    "group",
    "index",
    "generated",
    "always",
    "raise",
    "null",
    "escape",
    "match",
    "regexp",
    "insert",
    "update",
    "delete",
    "create",
    "drop",
    "alter",
    "add",
    "column",
    "rename",
    "to",
    "do",
    "nothing",
    "if",
    "natural",
    "left",
    "right",
    "full",
    "inner",
    "outer",
    "cross",
    "rows",
    "range",
    "groups",
    "integer",
    "int",
    "text",
    "real",
    "blob",
    "numeric",
    "varchar",
    "nvarchar",
    "nchar",
    "character",
    "varying",
    "decimal",
    "boolean",
    "float",
    "double",
    "bigint",
    "smallint",
    "tinyint",
    "timestamp",
    "clob",
    "virtual",
    "temp",
    "temporary",
    "recursive",
    "materialized",
];

const GRAMMAR: Grammar = Grammar {
    rules: RULES,
    concat: &[("||", "")],
    unknown_calls_unproven: true,
    read_only: READ_ONLY,
    keywords: KEYWORDS,
    // The name after these is a table's (`CREATE TABLE t(…)`, `INSERT INTO t(…)`, `WITH t(a) AS`),
    // read as a function the program defines; a writer is a rule, judged before this.
    definitions: &["table", "into", "references", "view", "exists", "with"],
    dot_member: true,
    ..Grammar::NONE
};

/// Dot commands that write no file and start nothing; `.import` reads its file into the
/// database, which is judged apart.
const READ_ONLY_DOTS: &[&str] = &[
    "tables",
    "schema",
    "fullschema",
    "headers",
    "header",
    "mode",
    "dump",
    "quit",
    "exit",
    "indexes",
    "indices",
    "databases",
    "show",
    "help",
    "width",
    "separator",
    "nullvalue",
    "print",
    "echo",
    "timer",
    "changes",
    "bail",
    "eqp",
    "explain",
    "stats",
    "dbinfo",
    "prompt",
    "timeout",
    "import",
    "sha3sum",
    "scanstats",
    "version",
    "lint",
    "expert",
    "binary",
    "crnl",
    "limit",
];

/// Dot commands that write the file they name last, or run `|cmd`.
const WRITING_DOTS: &[&str] = &["output", "once", "save", "clone", "open", "excel", "log"];

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
    // SQL's names are not case-sensitive (`WriteFile(…)` is `writefile(…)`).
    let tokens = super::lex::lowercase_identifiers(free_form(quoted_calls(tokens)));
    let mut engine = Engine::new(&tokens, &GRAMMAR);
    engine.findings = findings;
    engine.run();
    for at in 0..tokens.len() {
        let keyword = |offset: usize, word: &str| tokens.get(at + offset).is_some_and(|t| t.is_ident(word));
        let target = if keyword(0, "vacuum") {
            tokens.iter().skip(at + 1).take(3).position(|t| t.is_ident("into")).map(|p| at + 2 + p)
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
    }
    engine.finish()
}

/// A quoted name before `(` is the function it quotes: SQL has no call of a string, and sqlite
/// calls `"writefile"(…)`, `` `writefile`(…) `` and `[writefile](…)` as `writefile(…)`.
fn quoted_calls(mut tokens: Vec<Token>) -> Vec<Token> {
    let calls: Vec<usize> = tokens
        .windows(2)
        .enumerate()
        .filter(|(_, pair)| pair.first().is_some_and(Token::is_str) && pair.get(1).is_some_and(|t| t.is("(")))
        .map(|(at, _)| at)
        .collect();
    for at in calls {
        if let Some(name) = tokens.get_mut(at) {
            name.kind = Kind::Ident;
        }
    }
    tokens
}

/// SQL ends a statement at `;`, never at a line break: `writefile\n(…)` is still a call.
fn free_form(mut tokens: Vec<Token>) -> Vec<Token> {
    for token in &mut tokens {
        token.line_start = false;
    }
    tokens
}

/// One dot command (without its `.`).
fn dot_command(command: &str, findings: &mut Findings) {
    let words = split_words(command);
    let Some((name, args)) = words.split_first() else { return };
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    match name.as_str() {
        name if WRITING_DOTS.contains(&name) => {
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
        name if READ_ONLY_DOTS.contains(&name) => {}
        // Another file of SQL (not read here), an extension, a directory change, anything else.
        _ => findings.sure = false,
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
/// `-init FILE` runs a file of SQL first, as `.read FILE` would. The database is also an argument
/// of the program: an unproven one may write it even under `-readonly`.
pub fn invocation(args: &[String], stdin: Option<&str>) -> Invocation {
    let mut readonly = false;
    let mut commands = Vec::new();
    let mut init = None;
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
            "init" => {
                init = args.get(at).map(|file| format!(".read {file}"));
                at += 1;
            }
            "separator" | "newline" | "nullvalue" | "mmap" | "heap" | "lookaside" | "pagecache" | "vfs" | "maxsize"
            | "escape" => at += 1,
            _ => {}
        }
    }
    let mut operands = operands.into_iter();
    let database = operands.next().filter(|db| db != ":memory:" && !db.is_empty());
    commands.extend(operands);
    let source = match (init, commands.is_empty(), stdin) {
        (init, false, _) => Source::Text(init.into_iter().chain(commands).collect::<Vec<_>>().join("\n")),
        (Some(init), true, Some(stdin)) => Source::Text(format!("{init}\n{stdin}")),
        (Some(init), true, None) => Source::Text(init),
        (None, true, stdin) => super::stdin_source(stdin),
    };
    let writes = database.iter().filter(|_| !readonly).cloned().collect();
    Invocation { writes, ..Invocation::new(Language::Sqlite, source, database.into_iter().collect()) }
}
