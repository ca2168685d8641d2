//! `approval-gates-hook [check] [--host HOST] [--cwd DIR] [--json]`: the CLI's `check` as a
//! native process, so a host's tool hook (Claude Code's or Codex CLI's PreToolUse, Gemini CLI's
//! BeforeTool) judges a call without starting node. Arguments, stdin and exit codes only; the
//! core (`approval_gates::gates`) decides, exactly as it does for the addon.

mod claude_code;
mod codex;
mod gemini;
mod host;
mod input;

use std::io::{self, IsTerminal, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

use approval_gates::gates;
use approval_gates::texts::Denial;
use approval_gates::texts::hook::{ArgumentProblem, CHECK_HELP, InputProblem};
use host::Host;

/// Exit codes of the CLI's `check`: 2 blocks the call in a Claude Code hook.
const OK: u8 = 0;
const USAGE: u8 = 2;
const DENIED: u8 = 2;

#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    help: bool,
    json: bool,
    host: Host,
    deadline: Option<u64>,
    cwd: Option<String>,
    positionals: Vec<String>,
}

/// `check`'s command line, read as node's `util.parseArgs` reads it in strict mode.
fn options(mut args: impl Iterator<Item = String>) -> Result<Options, ArgumentProblem> {
    let mut options = Options::default();
    let mut first = true;
    while let Some(arg) = args.next() {
        let leading_check = std::mem::take(&mut first) && arg == "check";
        if leading_check {
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => options.help = true,
            "--json" => options.json = true,
            "--cwd" => options.cwd = Some(args.next().ok_or(ArgumentProblem::MissingValue("--cwd"))?),
            "--deadline" => {
                options.deadline = Some(seconds(args.next().ok_or(ArgumentProblem::MissingValue("--deadline"))?)?)
            }
            _ if arg.starts_with("--deadline=") => {
                options.deadline = Some(seconds(arg.get("--deadline=".len()..).unwrap_or("").to_owned())?)
            }
            "--host" => options.host = Host::named(&args.next().ok_or(ArgumentProblem::MissingValue("--host"))?)?,
            _ if arg.starts_with("--host=") => options.host = Host::named(arg.get("--host=".len()..).unwrap_or(""))?,
            "--" => options.positionals.extend(args.by_ref()),
            _ if arg.starts_with("--cwd=") => options.cwd = arg.get("--cwd=".len()..).map(str::to_owned),
            _ if arg.starts_with("--json=") => return Err(ArgumentProblem::TakesNoValue("--json")),
            _ if arg.starts_with("--help=") => return Err(ArgumentProblem::TakesNoValue("--help")),
            _ if arg.starts_with('-') && arg != "-" => return Err(ArgumentProblem::UnknownOption(arg)),
            _ => options.positionals.push(arg),
        }
    }
    Ok(options)
}

fn seconds(value: String) -> Result<u64, ArgumentProblem> {
    value.parse().ok().filter(|seconds| *seconds > 0).ok_or(ArgumentProblem::NotSeconds(value))
}

/// `--deadline`: past it the call is refused and the process ends, before a host's own timeout
/// would let the call run (Codex and Gemini CLI treat a timed-out hook as a failure to ignore).
/// The verdict itself never depends on time: the engine's caps are work budgets; this only turns
/// a hang (a stuck file system, a stdin that never closes) into a refusal.
fn refuse_after(seconds: u64) {
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(seconds));
        let _ = writeln!(io::stderr(), "{}", InputProblem::OutOfTime(seconds));
        std::process::exit(i32::from(DENIED));
    });
}

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// Judges the call on stdin: `Ok(None)` allows it, `Ok(Some(reason))` refuses it.
fn judge(options: &Options, stdin: &mut impl Read) -> Result<Option<String>, InputProblem> {
    // Most payloads fit: one read instead of a doubling series of small ones.
    let mut text = String::with_capacity(16 << 10);
    stdin.read_to_string(&mut text).map_err(|error| match error.kind() {
        io::ErrorKind::InvalidData => InputProblem::NotJson("stdin is not UTF-8".into()),
        _ => InputProblem::Unreadable(error.to_string()),
    })?;
    let call = options.host.tool_call(&text)?;
    let session_dir = || input::session_dir(options.cwd.as_deref(), call.cwd.as_deref(), &process_cwd());
    // As in the addon: a panic is a bug, and the call is refused rather than waved through.
    let verdict = catch_unwind(AssertUnwindSafe(|| match options.host {
        Host::ClaudeCode => {
            gates::check_claude_code_call(&call.name, &call.arguments, session_dir, &claude_code::config_places())
        }
        _ => gates::check_tool_call(&call.name, &call.arguments, session_dir),
    }))
    .unwrap_or(Some(Denial::InternalError));
    Ok(verdict.map(|denial| denial.to_string()))
}

fn run(args: impl Iterator<Item = String>, stdout: &mut impl Write, stderr: &mut impl Write) -> io::Result<u8> {
    let options = match options(args) {
        Ok(options) => options,
        Err(problem) => {
            write!(stderr, "approval-gates check: {problem}\n\n{CHECK_HELP}")?;
            return Ok(USAGE);
        }
    };
    if options.help {
        stdout.write_all(CHECK_HELP.as_bytes())?;
        return Ok(OK);
    }
    if let Some(seconds) = options.deadline {
        refuse_after(seconds);
    }
    let stdin = io::stdin();
    let outcome = match options.positionals.first() {
        Some(argument) => Err(InputProblem::UnexpectedArgument(argument.clone())),
        None if stdin.is_terminal() => Err(InputProblem::NothingPiped),
        None => judge(&options, &mut stdin.lock()),
    };
    match outcome {
        Ok(None) => Ok(OK),
        Ok(Some(reason)) if options.json => {
            stdout.write_all(options.host.json_denial(&reason).as_bytes())?;
            Ok(OK)
        }
        Ok(Some(reason)) => {
            writeln!(stderr, "{reason}")?;
            Ok(DENIED)
        }
        Err(problem) => {
            writeln!(stderr, "{problem}")?;
            Ok(USAGE)
        }
    }
}

fn main() -> ExitCode {
    let (mut stdout, mut stderr) = (io::stdout().lock(), io::stderr().lock());
    // A hook that cannot even report must still block: a write error exits with the usage code.
    let mut args = std::env::args().skip(1).peekable();
    let code = if args.peek().is_some_and(|first| first == "prompt") {
        args.next();
        claude_code::prompt_command(args, &mut stdout, &mut stderr)
    } else {
        run(args, &mut stdout, &mut stderr)
    };
    let code = code.unwrap_or(USAGE);
    let flushed = stdout.flush().is_ok();
    ExitCode::from(if flushed { code } else { USAGE })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, ArgumentProblem> {
        options(args.iter().map(|arg| arg.to_string()))
    }

    #[test]
    fn options_read_like_parse_args() {
        let cwd = Some("/r".to_string());
        assert_eq!(
            parse(&["check", "--json", "--cwd", "/r"]),
            Ok(Options { json: true, cwd: cwd.clone(), ..Default::default() })
        );
        assert_eq!(parse(&["--cwd=/r"]), Ok(Options { cwd, ..Default::default() }));
        assert_eq!(parse(&["-h"]), Ok(Options { help: true, ..Default::default() }));
        assert_eq!(parse(&["check", "check"]).map(|o| o.positionals), Ok(vec!["check".to_string()]));
        assert_eq!(parse(&["--", "--json"]).map(|o| o.positionals), Ok(vec!["--json".to_string()]));
        assert_eq!(parse(&["--cwd"]), Err(ArgumentProblem::MissingValue("--cwd")));
        assert_eq!(parse(&["--json=yes"]), Err(ArgumentProblem::TakesNoValue("--json")));
        assert_eq!(parse(&["--verbose"]), Err(ArgumentProblem::UnknownOption("--verbose".into())));
        assert_eq!(parse(&["-x"]), Err(ArgumentProblem::UnknownOption("-x".into())));
        assert_eq!(parse(&["--host", "codex"]).map(|o| o.host), Ok(Host::Codex));
        assert_eq!(parse(&["check", "--host=gemini", "--json"]).map(|o| o.host), Ok(Host::Gemini));
        assert_eq!(parse(&["--host"]), Err(ArgumentProblem::MissingValue("--host")));
        assert_eq!(parse(&["--host=dsh"]), Err(ArgumentProblem::UnknownHost("dsh".into())));
        assert_eq!(parse(&["--deadline", "50"]).map(|o| o.deadline), Ok(Some(50)));
        assert_eq!(parse(&["--deadline=0"]), Err(ArgumentProblem::NotSeconds("0".into())));
        assert_eq!(parse(&["--deadline", "1.5"]), Err(ArgumentProblem::NotSeconds("1.5".into())));
    }

    #[test]
    fn denials_as_permission_decisions() {
        let reason = "BLOCKED [approval-gates]: \"quoted\"\n";
        let printed: serde_json::Value = serde_json::from_str(&Host::ClaudeCode.json_denial(reason)).expect("JSON");
        assert_eq!(printed["hookSpecificOutput"]["permissionDecisionReason"], reason);
        assert_eq!(printed["hookSpecificOutput"]["permissionDecision"], "deny");
    }
}
