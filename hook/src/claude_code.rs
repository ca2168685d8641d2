//! Claude Code's side of the hook: where its configuration lives, as this process sees it, and
//! the owner's prompt-side `/approve` (`approval-gates-hook prompt`).

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

use approval_gates::approval::{ledger, prompt};
use approval_gates::gates::claude_code::ConfigPlaces;
use approval_gates::texts::PromptText;
use approval_gates::texts::hook::{PROMPT_HELP, PromptInputProblem};
use serde_json::Value;

/// Where the codes of showings wait for their confirmation: beside the approval ledger, in this
/// package's state folder outside every workspace (read-only to Claude Code's sandbox).
fn pending_dir(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    ledger::location::folder_from(var).map(|folder| folder.join("pending"))
}

/// Claude Code's configuration and this package's files, from the environment Claude Code gave
/// this hook, with the executable that is judging the call: an agent that rewrote it would run
/// its own code outside the sandbox at the next call.
pub fn config_places() -> ConfigPlaces {
    let places = ConfigPlaces::from_env(|name| std::env::var_os(name));
    match std::env::current_exe() {
        Ok(exe) => {
            let real = std::fs::canonicalize(&exe).unwrap_or_else(|_| exe.clone());
            places.with_owner_path(&exe).with_owner_path(&real)
        }
        Err(_) => places,
    }
}

/// `approval-gates-hook prompt [--help]`: the payload on stdin, or the help.
pub fn prompt_command(
    mut args: impl Iterator<Item = String>,
    stdout: &mut impl Write,
    stderr: &mut impl Write,
) -> io::Result<u8> {
    match args.next() {
        Some(arg) if arg == "-h" || arg == "--help" => {
            stdout.write_all(PROMPT_HELP.as_bytes())?;
            return Ok(PASS);
        }
        Some(arg) => {
            write!(stderr, "approval-gates prompt: unexpected argument {arg:?}\n\n{PROMPT_HELP}")?;
            return Ok(BLOCK);
        }
        None => {}
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        writeln!(stderr, "{}", PromptInputProblem::NothingPiped)?;
        return Ok(BLOCK);
    }
    run_prompt(&mut stdin.lock(), stdout, stderr)
}

/// `approval-gates-hook prompt`: Claude Code's `UserPromptExpansion` hook on the `/approve`
/// command, the owner's prompt-side approval. The command file is marked
/// `disable-model-invocation: true`, and Claude Code expands a command this way only for what the
/// owner types: a prompt the model schedules (`CronCreate`, `ScheduleWakeup`, a durable task),
/// a subagent's notice or another session's message reaches the model as text and never fires
/// this hook (measured with Claude Code 2.1.332, `__test__/e2e/claude-code.test.mjs`). The
/// answer always blocks the expansion, so the command file's text never reaches the model: the
/// owner reads what was shown, approved or refused.
pub fn run_prompt(stdin: &mut impl Read, stdout: &mut impl Write, stderr: &mut impl Write) -> io::Result<u8> {
    let mut text = String::with_capacity(4 << 10);
    if let Err(error) = stdin.read_to_string(&mut text) {
        writeln!(stderr, "{}", PromptInputProblem::Unreadable(error.to_string()))?;
        return Ok(BLOCK);
    }
    let payload = match expansion(&text) {
        Ok(Some(payload)) => payload,
        // Another command: not ours to judge.
        Ok(None) => return Ok(PASS),
        Err(problem) => {
            writeln!(stderr, "{problem}")?;
            return Ok(BLOCK);
        }
    };
    let cwd = PathBuf::from(&payload.cwd);
    let answer = match (payload.typed, pending_dir(|name| std::env::var_os(name))) {
        (false, _) => prompt::Answer { approved: false, text: PromptText::NotTyped.to_string() },
        (true, None) => prompt::Answer { approved: false, text: PromptText::NoStateFolder.to_string() },
        (true, Some(pending)) => prompt::answer(&payload.prompt, &cwd, &pending),
    };
    let decision = serde_json::json!({ "decision": "block", "reason": answer.text });
    writeln!(stdout, "{decision}")?;
    Ok(PASS)
}

/// Exit codes: 0 with the JSON decision (or nothing, for another command); 2 blocks the prompt.
const PASS: u8 = 0;
const BLOCK: u8 = 2;

/// The fields of a `UserPromptExpansion` payload this hook reads.
#[derive(Debug, PartialEq, Eq)]
struct Expansion {
    prompt: String,
    cwd: String,
    /// A slash command the owner typed (not an MCP prompt).
    typed: bool,
}

/// The `/approve` expansion in `text`, `None` for another command's.
fn expansion(text: &str) -> Result<Option<Expansion>, PromptInputProblem> {
    let payload: Value = serde_json::from_str(text).map_err(|error| PromptInputProblem::NotJson(error.to_string()))?;
    let field = |name: &str| payload.get(name).and_then(Value::as_str);
    match field("hook_event_name") {
        Some("UserPromptExpansion") => {}
        other => return Err(PromptInputProblem::OtherEvent(other.unwrap_or("none").to_string())),
    }
    if field("command_name") != Some(APPROVE_COMMAND) {
        return Ok(None);
    }
    let (Some(prompt), Some(cwd)) = (field("prompt"), field("cwd")) else {
        return Err(PromptInputProblem::MissingFields);
    };
    let typed = field("expansion_type") == Some("slash_command");
    Ok(Some(Expansion { prompt: prompt.to_string(), cwd: cwd.to_string(), typed }))
}

/// The command file's name (`.claude/commands/approve.md`).
const APPROVE_COMMAND: &str = "approve";

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(command: &str, kind: &str) -> String {
        serde_json::json!({
            "session_id": "s", "cwd": "/r", "hook_event_name": "UserPromptExpansion", "expansion_type": kind,
            "command_name": command, "command_args": "foo design", "command_source": "projectSettings",
            "prompt": "/approve foo design",
        })
        .to_string()
    }

    #[test]
    fn only_the_approve_expansion_is_read() {
        let expected = Expansion { prompt: "/approve foo design".into(), cwd: "/r".into(), typed: true };
        assert_eq!(expansion(&payload("approve", "slash_command")), Ok(Some(expected)));
        assert_eq!(expansion(&payload("approve", "mcp_prompt")).map(|e| e.map(|e| e.typed)), Ok(Some(false)));
        assert_eq!(expansion(&payload("review", "slash_command")), Ok(None));
        assert!(matches!(expansion("{"), Err(PromptInputProblem::NotJson(_))));
        assert_eq!(
            expansion(r#"{"hook_event_name":"UserPromptSubmit","prompt":"/approve foo design"}"#),
            Err(PromptInputProblem::OtherEvent("UserPromptSubmit".into()))
        );
        assert_eq!(
            expansion(r#"{"hook_event_name":"UserPromptExpansion","command_name":"approve"}"#),
            Err(PromptInputProblem::MissingFields)
        );
    }

    #[test]
    fn every_answer_blocks_the_expansion() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_prompt(&mut payload("approve", "mcp_prompt").as_bytes(), &mut out, &mut err).expect("run");
        assert_eq!(code, PASS);
        let decision: Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(decision["decision"], "block");
        assert_eq!(decision["reason"], PromptText::NotTyped.to_string());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            run_prompt(&mut payload("review", "slash_command").as_bytes(), &mut out, &mut err).expect("run"),
            PASS
        );
        assert!(out.is_empty());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(run_prompt(&mut "[]".as_bytes(), &mut out, &mut err).expect("run"), BLOCK);
        assert!(out.is_empty() && !err.is_empty());
    }

    #[test]
    fn the_pending_folder_is_beside_the_ledger_outside_every_workspace() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(key, _)| *key == name).map(|(_, value)| OsString::from(value))
        };
        let folder = |pairs| ledger::location::folder_from(env(pairs)).map(|folder| folder.join("pending"));
        for pairs in
            [&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")][..], &[("HOME", "/h")], &[("XDG_STATE_HOME", "rel")], &[]]
        {
            assert_eq!(pending_dir(env(pairs)), folder(pairs));
        }
        #[cfg(unix)]
        assert_eq!(pending_dir(env(&[("HOME", "/h")])), Some(PathBuf::from("/h/.local/state/approval-gates/pending")));
        assert_eq!(pending_dir(env(&[])), None);
    }
}
