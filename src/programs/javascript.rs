//! JavaScript (node, deno, bun), read by its tree-sitter grammar ([`tree`]): `fs` writes (sync,
//! callback and promise forms), `Deno.*`, `Bun.write`, `child_process`, `Bun.spawn`; paths joined
//! by `+`, template literals, `path.join`/`path.resolve`. Its tokens find zx's `$\`…\`` commands
//! and the modules it loads: a program that loads this package writes approval.md unless it
//! provably calls only read-only exports.

use std::path::Path;

use super::engine::{Engine, Grammar, Val};
use super::lex::{Interpolation, Kind, Quote, Syntax, Token, quote};
use super::{Cli, Findings, Invocation, Language, MAX_PROGRAM_TOKENS, Place, Source, parse_cli, simple};
use crate::paths;

mod tree;

pub use self::tree::Flavor;

const QUOTES: &[Quote] = &[
    quote("`", "`", true, Interpolation::DollarBraces),
    quote("\"", "\"", true, Interpolation::None),
    quote("'", "'", true, Interpolation::None),
];

const SYNTAX: Syntax = Syntax {
    line_comments: &["//", "#!"],
    block_comments: &[("/*", "*/")],
    quotes: QUOTES,
    regex_literals: true,
    ident_chars: "$",
    ..Syntax::PLAIN
};

/// The exports of this package that write nothing (`sealApprovals` and `writeApproval` write the
/// ledger and approval.md; `dropShell` is left out because nothing needs it from a command line).
const READ_ONLY_EXPORTS: [&str; 8] = [
    "approvalSetup",
    "bashTargets",
    "checkApproval",
    "checkGuard",
    "loopStatus",
    "planStatus",
    "presentApproval",
    "sealSurvey",
];

pub fn analyze(text: &str, place: Place, flavor: Flavor) -> Findings {
    let dir = place.dir;
    let Some(tokens) = super::lex::tokens(text, &SYNTAX, MAX_PROGRAM_TOKENS) else { return Findings::unreadable() };
    // The calls are read by the grammar (`tree::check`); the tokens still find zx's commands and
    // the modules the program loads.
    let mut engine = Engine::new(&tokens, &Grammar::NONE);
    for (at, token) in tokens.iter().enumerate() {
        // What an unproven program names is what it may write (`judged`).
        if token.is_str() {
            engine.note(&Val::Str(token.text.clone()));
        }
        // zx: $`command`
        if token.is_ident("$") && tokens.get(at + 1).is_some_and(Token::is_str) {
            let command = tokens.get(at + 1).map(|t| t.text.clone()).unwrap_or_default();
            engine.command(&Val::Str(command));
        }
    }
    let loads = loads(&tokens, &mut engine);
    let mut findings = engine.finish();
    // The grammar's reading adds what the tokens cannot see (aliases, computed members,
    // `.call`), and leaves the findings unsure on any call it cannot prove (P-18).
    if !findings.over_budget && !tree::check(text, place, flavor, &mut findings) {
        return Findings::unreadable();
    }
    if text.contains("writeApproval")
        || loads.iter().any(|load| is_this_package(load, dir)) && !read_only_use(&tokens, dir)
    {
        findings.writes.push(paths::APPROVAL_FILE.to_string());
    }
    findings
}

/// The module specifiers the program loads: `require('x')`, `import('x')`, `import … from 'x'`,
/// `import 'x'`. A computed specifier leaves the analysis unsure.
fn loads(tokens: &[Token], engine: &mut Engine) -> Vec<String> {
    let mut found = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        let next = tokens.get(at + 1);
        let loader = token.is_ident("require") || token.is_ident("import");
        if loader && next.is_some_and(|t| t.is("(")) {
            match (tokens.get(at + 2), tokens.get(at + 3)) {
                (Some(spec), Some(close)) if spec.is_str() && close.is(")") => found.push(spec.text.clone()),
                _ => engine.findings.sure = false,
            }
        } else if (token.is_ident("from") || token.is_ident("import")) && next.is_some_and(Token::is_str) {
            found.extend(next.map(|t| t.text.clone()));
        }
    }
    found
}

/// `approval-gates`, a file of it, its native binary, or a path to the directory or `index.js`
/// of a package named `approval-gates`.
fn is_this_package(spec: &str, dir: &Path) -> bool {
    let lower = spec.to_ascii_lowercase();
    if lower == "approval-gates"
        || lower.starts_with("approval-gates/")
        || lower.contains("/approval-gates")
        || lower.contains("approval-gates.")
    {
        return true;
    }
    let local = spec.starts_with('.') || spec.starts_with('/');
    if !local {
        return false;
    }
    let path = paths::absolute(spec, dir);
    // `require('./package.json')` reads data; only code or the native addon is the package.
    let code = path.extension().map(|extension| matches!(extension.to_str(), Some("js" | "mjs" | "cjs" | "node")));
    let package_dir = match code {
        Some(false) => return false,
        Some(true) => path.parent().map(Path::to_path_buf).unwrap_or(path),
        None => path,
    };
    package_name_is_ours(&package_dir.join("package.json"))
}

/// The first 64 KiB of a regular file only: a FIFO would block the check. Read through the
/// analysis cache, which records what it saw.
fn package_name_is_ours(manifest: &Path) -> bool {
    let Some(bytes) = crate::analysis::fs::read_regular_file(manifest, (64 << 10) - 1) else { return false };
    let Ok(text) = String::from_utf8(bytes) else { return false };
    text.contains("\"name\": \"approval-gates\"") || text.contains("\"name\":\"approval-gates\"")
}

/// The package is used only through read-only exports: every name destructured or imported from
/// it is one, and every use of a binding of the module is `binding.readOnlyExport`.
fn read_only_use(tokens: &[Token], dir: &Path) -> bool {
    let mut bindings: Vec<&str> = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        let call = tokens.get(at + 1).is_some_and(|t| t.is("("));
        // `import('approval-gates')`: the module comes back in a promise, whose uses this reading
        // does not follow.
        let ours = |at: usize| tokens.get(at).is_some_and(|t| t.is_str() && is_this_package(&t.text, dir));
        if token.is_ident("import") && call && ours(at + 2) {
            return false;
        }
        let spec_at = if token.is_ident("require") && call {
            at + 2
        } else if token.is_ident("from") {
            at + 1
        } else {
            continue;
        };
        let Some(spec) = tokens.get(spec_at).filter(|t| t.is_str()) else { continue };
        if !is_this_package(&spec.text, dir) {
            continue;
        }
        // `require('approval-gates').checkGuard(…)`
        if token.is_ident("require") {
            let after = tokens.get(spec_at + 2);
            if tokens.get(spec_at + 1).is_some_and(|t| t.is(")")) && after.is_some_and(|t| t.is(".")) {
                if !tokens.get(spec_at + 3).is_some_and(|t| READ_ONLY_EXPORTS.contains(&t.text.as_str())) {
                    return false;
                }
                continue;
            }
        }
        // What it is bound to: the tokens before `= require(` or between `import` and `from`.
        let Some(names) = binding_tokens(tokens, at, token.is_ident("from")) else { return false };
        match names {
            [single] if single.kind == Kind::Ident => bindings.push(&single.text),
            [star, as_, single] if star.is("*") && as_.is_ident("as") => bindings.push(&single.text),
            [open, inner @ .., close] if open.is("{") && close.is("}") => {
                if !destructured_read_only(inner) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    // Every use of a binding reads a read-only export by name.
    tokens.iter().enumerate().all(|(at, token)| {
        if token.kind != Kind::Ident || !bindings.contains(&token.text.as_str()) {
            return true;
        }
        let before = at.checked_sub(1).and_then(|b| tokens.get(b));
        let declaration = before.is_some_and(|b| matches!(b.text.as_str(), "const" | "let" | "var" | "as" | "import"));
        if declaration {
            return true;
        }
        tokens.get(at + 1).is_some_and(|t| t.is(".") || t.is("?."))
            && tokens.get(at + 2).is_some_and(|t| READ_ONLY_EXPORTS.contains(&t.text.as_str()))
    })
}

/// The binding pattern of the load at `at`: `X` in `const X = require(…)`, `{ a, b }` in
/// `import { a, b } from …`.
fn binding_tokens(tokens: &[Token], at: usize, import: bool) -> Option<&[Token]> {
    if import {
        let start = tokens.get(..at)?.iter().rposition(|t| t.is_ident("import"))? + 1;
        return tokens.get(start..at);
    }
    // `= require(`
    let eq = at.checked_sub(1)?;
    if !tokens.get(eq)?.is("=") {
        return None;
    }
    let start = tokens.get(..eq)?.iter().rposition(|t| matches!(t.text.as_str(), "const" | "let" | "var"))? + 1;
    tokens.get(start..eq)
}

/// `{ checkGuard, bashTargets: targets }`: every property taken is read-only.
fn destructured_read_only(inner: &[Token]) -> bool {
    let mut expect_property = true;
    for token in inner {
        if token.is(",") {
            expect_property = true;
        } else if token.is(":") || token.is_ident("as") {
            expect_property = false;
        } else if expect_property {
            if !READ_ONLY_EXPORTS.contains(&token.text.as_str()) {
                return false;
            }
            expect_property = false;
        }
    }
    true
}

const NODE: Cli = Cli {
    inline: &["-e", "--eval", "-p", "--print"],
    file: &[],
    // Every option of node's that takes a value, which may be the next word (V8's take theirs
    // after `=`): a value read as the script would leave the real one unread.
    valued: &[
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "-C",
        "--conditions",
        "--title",
        "--env-file",
        "--env-file-if-exists",
        "--experimental-config-file",
        "--input-type",
        "--stack-size",
        "--allow-fs-read",
        "--allow-fs-write",
        "--build-snapshot-config",
        "--cpu-prof-dir",
        "--cpu-prof-interval",
        "--cpu-prof-name",
        "--diagnostic-dir",
        "--disable-proto",
        "--disable-warning",
        "--dns-result-order",
        "--experimental-default-type",
        "--experimental-policy",
        "--experimental-sea-config",
        "--heap-prof-dir",
        "--heap-prof-interval",
        "--heap-prof-name",
        "--heapsnapshot-near-heap-limit",
        "--heapsnapshot-signal",
        "--icu-data-dir",
        "--inspect-port",
        "--debug-port",
        "--inspect-publish-uid",
        "--localstorage-file",
        "--max-http-header-size",
        "--network-family-autoselection-attempt-timeout",
        "--openssl-config",
        "--policy-integrity",
        "--redirect-warnings",
        "--report-directory",
        "--report-dir",
        "--report-filename",
        "--report-signal",
        "--secure-heap",
        "--secure-heap-min",
        "--snapshot-blob",
        "--test-concurrency",
        "--test-name-pattern",
        "--test-skip-pattern",
        "--test-reporter",
        "--test-reporter-destination",
        "--test-shard",
        "--test-timeout",
        "--tls-cipher-list",
        "--tls-keylog",
        "--trace-event-categories",
        "--trace-event-file-pattern",
        "--trace-require-module",
        "--unhandled-rejections",
        "--use-largepages",
        "--v8-pool-size",
        "--watch-path",
    ],
    module: &[],
};

const BUN: Cli =
    Cli { inline: &["-e", "--eval", "-p", "--print"], file: &[], valued: &["--cwd", "-r", "--preload"], module: &[] };

pub fn invocation(command: &str, args: &[String], stdin: Option<&str>) -> Invocation {
    typed(command, untyped_invocation(command, args, stdin))
}

/// Runners that read TypeScript whatever the file (Deno, tsx, ts-node).
const TYPESCRIPT_RUNNERS: &[&str] = &["deno", "tsx", "ts-node", "ts-node-esm"];
/// Script files Node (23.6 and later) and Bun run as TypeScript by their names.
const TYPESCRIPT_FILES: &[&str] = &[".ts", ".mts", ".cts", ".tsx"];

/// The invocation read as TypeScript when its runner or its script file says so.
fn typed(command: &str, mut invocation: Invocation) -> Invocation {
    let typed_file =
        matches!(&invocation.source, Source::File(file) if TYPESCRIPT_FILES.iter().any(|ext| file.ends_with(ext)));
    if TYPESCRIPT_RUNNERS.contains(&command) || typed_file {
        invocation.language = Language::TypeScript;
    }
    invocation
}

fn untyped_invocation(command: &str, args: &[String], stdin: Option<&str>) -> Invocation {
    match command {
        "deno" => deno(args, stdin),
        "bun" => {
            let rest = match args.first().map(String::as_str) {
                Some("run" | "x") => args.get(1..).unwrap_or_default(),
                _ => args,
            };
            simple(Language::JavaScript, parse_cli(rest, &BUN, stdin))
        }
        _ => {
            let args = node_spelling(args);
            with_options(simple(Language::JavaScript, parse_cli(&args, &NODE, stdin)), &args, stdin)
        }
    }
}

/// Options whose value is a module node loads before the program (a test reporter is one).
const PRELOADS: &[&str] = &["-r", "--require", "--import", "--loader", "--experimental-loader", "--test-reporter"];

/// Options whose value is a file of more options (an env file's `NODE_OPTIONS`, preloads
/// included) or of code node loads (OpenSSL's engines): what they hold the analysis does not see.
const HIDDEN_OPTIONS: &[&str] =
    &["--env-file", "--env-file-if-exists", "--experimental-config-file", "--openssl-config"];

/// Options whose value is a file node writes (`stdout` and `stderr` name the streams).
const OUTPUT_FILES: &[&str] = &[
    "--redirect-warnings",
    "--tls-keylog",
    "--test-reporter-destination",
    "--trace-event-file-pattern",
    "--localstorage-file",
];

/// Files node writes when an option asks for them: in the folder an option names (else
/// `--diagnostic-dir`, else the current one), under the name an option gives or its own.
struct Output {
    /// The options that make node write it.
    asked_by: &'static [&'static str],
    folder: &'static str,
    name: &'static str,
    /// Node's own name for it, with `*` for what it fills in (the date, the process id).
    default: &'static str,
}

const OUTPUTS: &[Output] = &[
    Output {
        asked_by: &["--cpu-prof"],
        folder: "--cpu-prof-dir",
        name: "--cpu-prof-name",
        default: "CPU.*.cpuprofile",
    },
    Output {
        asked_by: &["--heap-prof"],
        folder: "--heap-prof-dir",
        name: "--heap-prof-name",
        default: "Heap.*.heapprofile",
    },
    Output {
        asked_by: &["--report-uncaught-exception", "--report-on-fatalerror", "--report-on-signal"],
        folder: "--report-directory",
        name: "--report-filename",
        default: "report.*.json",
    },
    Output {
        asked_by: &["--heapsnapshot-signal", "--heapsnapshot-near-heap-limit"],
        folder: "",
        name: "",
        default: "Heap.*.heapsnapshot",
    },
    Output { asked_by: &["--prof"], folder: "", name: "", default: "isolate-*-v8.log" },
    Output {
        asked_by: &["--trace-events-enabled", "--trace-event-categories"],
        folder: "",
        name: "",
        default: "node_trace.*.log",
    },
    Output { asked_by: &["--build-snapshot"], folder: "", name: "--snapshot-blob", default: "snapshot.blob" },
];

/// Node's options that write nothing, take no module and read no options: any other option's
/// value (V8's `--logfile=f`, `--redirect-code-traces-to=f`) may name where it writes (P-18).
const QUIET: &[&str] = &[
    "-C",
    "--conditions",
    "--title",
    "--input-type",
    "--stack-size",
    "--max-old-space-size",
    "--max-semi-space-size",
    "--stack-trace-limit",
    "--allow-fs-read",
    "--allow-fs-write",
    "--cpu-prof-interval",
    "--heap-prof-interval",
    "--disable-proto",
    "--disable-warning",
    "--dns-result-order",
    "--experimental-default-type",
    "--experimental-policy",
    "--policy-integrity",
    "--icu-data-dir",
    "--inspect",
    "--inspect-brk",
    "--inspect-wait",
    "--inspect-port",
    "--debug-port",
    "--inspect-publish-uid",
    "--max-http-header-size",
    "--network-family-autoselection-attempt-timeout",
    "--report-signal",
    "--secure-heap",
    "--secure-heap-min",
    "--test-concurrency",
    "--test-name-pattern",
    "--test-skip-pattern",
    "--test-shard",
    "--test-timeout",
    "--tls-cipher-list",
    "--trace-require-module",
    "--unhandled-rejections",
    "--use-largepages",
    "--v8-pool-size",
    "--watch-path",
];

/// `args` with node's options spelled as node reads them, up to the program: `--cpu_prof_dir` is
/// `--cpu-prof-dir`.
fn node_spelling(args: &[String]) -> Vec<String> {
    let mut spelled = args.to_vec();
    let mut at = 0;
    while let Some(arg) = spelled.get_mut(at) {
        at += 1;
        if arg == "--" || arg == "-" || !arg.starts_with('-') {
            break;
        }
        let name_end = arg.find('=').unwrap_or(arg.len());
        if arg.starts_with("--") && arg[..name_end].contains('_') {
            *arg = format!("{}{}", arg[..name_end].replace('_', "-"), &arg[name_end..]);
        }
        let option = arg.get(..name_end).unwrap_or_default();
        if name_end == arg.len() && (NODE.inline.contains(&option) || NODE.valued.contains(&option)) {
            at += 1;
        }
    }
    spelled
}

/// What node's own options do besides naming the program (`NODE_OPTIONS`' words are among them):
/// the modules they preload run first, as `require`s (the walker puts them before the program's
/// text), so a local one leaves it unproven like any local module it loads; an env file may hold
/// more of them; the files they write ([`OUTPUT_FILES`], [`OUTPUTS`]; any other option's value, a
/// tree); and `-i`, whose REPL reads standard input as more program once `-e`'s has run.
fn with_options(mut invocation: Invocation, args: &[String], stdin: Option<&str>) -> Invocation {
    let mut options: Vec<(String, Option<String>)> = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if arg == "--" || arg == "-" || !arg.starts_with('-') {
            break;
        }
        let (option, attached) = match arg.split_once('=') {
            Some((option, value)) if arg.starts_with("--") => (option, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let option = if option == "--report-dir" { "--report-directory".to_string() } else { option.to_string() };
        let takes_value = NODE.inline.contains(&option.as_str()) || NODE.valued.contains(&option.as_str());
        let value = match attached {
            Some(value) => Some(value),
            None if takes_value => {
                at += 1;
                args.get(at - 1).cloned()
            }
            None => None,
        };
        options.push((option, value));
    }
    let value =
        |name: &str| options.iter().rev().find(|(option, _)| option == name).and_then(|(_, value)| value.clone());
    for (option, value) in &options {
        let option = option.as_str();
        let Some(value) = value else { continue };
        if PRELOADS.contains(&option) {
            invocation.prelude.push_str(&format!("require({value:?});\n"));
        } else if HIDDEN_OPTIONS.contains(&option) {
            invocation.prelude.push_str("require(\"./\u{1}\");\n");
        } else if OUTPUT_FILES.contains(&option) {
            if !matches!(value.as_str(), "stdout" | "stderr") {
                invocation.writes.push(value.replace("${pid}", "*").replace("${rotation}", "*"));
            }
        } else if !(QUIET.contains(&option) || NODE.inline.contains(&option) || is_output_option(option)) {
            invocation.trees.push(value.clone());
        }
    }
    let diagnostic = value("--diagnostic-dir");
    for output in OUTPUTS {
        let asked = options.iter().any(|(option, _)| {
            output.asked_by.contains(&option.as_str()) || [output.folder, output.name].contains(&option.as_str())
        });
        if !asked {
            continue;
        }
        let folder = value(output.folder).or_else(|| diagnostic.clone()).unwrap_or_default();
        let name = value(output.name).unwrap_or_else(|| output.default.to_string());
        match folder.trim_end_matches('/') {
            _ if matches!(name.as_str(), "stdout" | "stderr") => {}
            "" => invocation.writes.push(name),
            folder => invocation.writes.push(format!("{folder}/{name}")),
        }
    }
    let interactive = options.iter().any(|(option, _)| matches!(option.as_str(), "-i" | "--interactive"));
    let inline = options.iter().any(|(option, _)| NODE.inline.contains(&option.as_str()));
    if interactive
        && inline
        && let (Source::Text(text), Some(more)) = (&mut invocation.source, stdin)
    {
        text.push('\n');
        text.push_str(more);
    }
    invocation
}

/// An option of [`OUTPUTS`]: a folder (`--diagnostic-dir` is every output's) or a name.
fn is_output_option(option: &str) -> bool {
    option == "--diagnostic-dir" || OUTPUTS.iter().any(|output| [output.folder, output.name].contains(&option))
}

/// `deno eval CODE`, `deno run [flags] FILE`, `deno run -` (stdin).
fn deno(args: &[String], stdin: Option<&str>) -> Invocation {
    let (sub, rest) = args.split_first().map_or(("", &[][..]), |(s, r)| (s.as_str(), r));
    let operands: Vec<&String> = rest.iter().skip_while(|a| a.starts_with('-') && *a != "-").collect();
    let source = match sub {
        "eval" => operands.first().map_or(Source::Nothing, |code| Source::Text((*code).clone())),
        "run" => match operands.first() {
            Some(file) if *file != "-" => Source::File((*file).clone()),
            _ => super::stdin_source(stdin),
        },
        _ => Source::Nothing,
    };
    let program_args = operands.iter().skip(1).map(|a| (*a).clone()).collect();
    Invocation::new(Language::JavaScript, source, program_args)
}

#[cfg(test)]
mod tests;
