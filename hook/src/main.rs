//! `approval-gates-hook [check] [--cwd DIR] [--json]`: the CLI's `check` as a native process, so a
//! Claude Code PreToolUse hook judges a call without starting node. Arguments, stdin and exit
//! codes only; the core (`approval_gates::gates`) decides, exactly as it does for the addon.

mod claude_code;
mod input;

use std::io::{self, IsTerminal, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

use approval_gates::gates;
use approval_gates::texts::Denial;
use approval_gates::texts::hook::{ArgumentProblem, CHECK_HELP, InputProblem};

/// Exit codes of the CLI's `check`: 2 blocks the call in a Claude Code hook.
const OK: u8 = 0;
const USAGE: u8 = 2;
const DENIED: u8 = 2;

#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    help: bool,
    json: bool,
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

/// The PreToolUse permission decision `--json` prints for a denial.
fn deny_decision(reason: &str) -> String {
    let decision = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    });
    format!("{decision}\n")
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
    let call = input::tool_call(&text)?;
    let session_dir = || input::session_dir(options.cwd.as_deref(), call.cwd.as_deref(), &process_cwd());
    // As in the addon: a panic is a bug, and the call is refused rather than waved through.
    let verdict = catch_unwind(AssertUnwindSafe(|| match call.claude_code {
        true => gates::check_claude_code_call(&call.name, &call.arguments, session_dir, &claude_code::config_places()),
        false => gates::check_tool_call(&call.name, &call.arguments, session_dir),
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
    let stdin = io::stdin();
    let outcome = match options.positionals.first() {
        Some(argument) => Err(InputProblem::UnexpectedArgument(argument.clone())),
        None if stdin.is_terminal() => Err(InputProblem::NothingPiped),
        None => judge(&options, &mut stdin.lock()),
    };
    match outcome {
        Ok(None) => Ok(OK),
        Ok(Some(reason)) if options.json => {
            stdout.write_all(deny_decision(&reason).as_bytes())?;
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
    let code = run(std::env::args().skip(1), &mut stdout, &mut stderr).unwrap_or(USAGE);
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
    }

    #[test]
    fn denials_as_permission_decisions() {
        let reason = "BLOCKED [approval-gates]: \"quoted\"\n";
        let printed: serde_json::Value = serde_json::from_str(&deny_decision(reason)).expect("JSON");
        assert_eq!(printed["hookSpecificOutput"]["permissionDecisionReason"], reason);
        assert_eq!(printed["hookSpecificOutput"]["permissionDecision"], "deny");
    }
}
