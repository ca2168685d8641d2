//! The native hook process (`approval-gates-hook`), in the words of the JS CLI's `check`
//! (`lib/cli/main.mjs`), so a hook behaves the same whichever of the two runs it.

use std::fmt;

pub const CHECK_HELP: &str = "usage: approval-gates check [--host claude-code|codex|gemini] [--cwd DIR] [--json]

Reads one tool call as JSON on stdin, either DSH-shaped {\"name\", \"arguments\"} or a host's hook
payload {\"hook_event_name\", \"tool_name\", \"tool_input\", \"cwd\"}, and judges it.

  allowed    exit 0, nothing printed
  denied     the reason on stderr, exit 2 (the host blocks the call and shows the reason)
  --json     a denial is printed on stdout in the host's JSON form, exit 0
  bad input  a message on stderr, exit 2: a guard that cannot read its input blocks

  --host     whose hook payload this is (default claude-code):
           claude-code  Claude Code's PreToolUse; --json prints a permission decision
           codex        Codex CLI's PreToolUse; --json prints a permission decision
           gemini       Gemini CLI's BeforeTool; --json prints {\"decision\": \"deny\", \"reason\"}
  --cwd DIR  the session directory (default: the payload's cwd, else the current directory)
  --deadline SECONDS
         refuse the call (exit 2) if no verdict is reached by then, before the host's own
         hook timeout, at which Codex and Gemini CLI would let the call run
";

/// What is wrong with the command line; printed as `approval-gates check: <problem>` + help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentProblem {
    UnknownOption(String),
    MissingValue(&'static str),
    TakesNoValue(&'static str),
    UnknownHost(String),
    NotSeconds(String),
}

impl fmt::Display for ArgumentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentProblem::UnknownOption(option) => write!(f, "Unknown option '{option}'"),
            ArgumentProblem::MissingValue(option) => write!(f, "Option '{option} <value>' argument missing"),
            ArgumentProblem::TakesNoValue(option) => write!(f, "Option '{option}' does not take an argument"),
            ArgumentProblem::NotSeconds(value) => write!(f, "--deadline takes whole seconds, not {value:?}"),
            ArgumentProblem::UnknownHost(host) => {
                write!(f, "unknown host {host:?}; expected claude-code, codex or gemini")
            }
        }
    }
}

pub const PROMPT_HELP: &str = "usage: approval-gates-hook prompt

Claude Code's UserPromptExpansion hook for the owner's /approve (approval-gates init claude-code
writes it). Reads the hook's payload as JSON on stdin. For the /approve command it always prints a
decision that blocks the expansion, with the answer as its reason: what /approve <id> design|plan
would approve and the line that confirms it, or the result of that line. Another command's
expansion passes (exit 0, nothing printed); input it cannot read blocks the prompt (exit 2).
";

/// Why `approval-gates-hook prompt` cannot read its payload; the prompt is blocked (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptInputProblem {
    NotJson(String),
    /// A payload for another hook event (its `hook_event_name`).
    OtherEvent(String),
    /// An `/approve` expansion without its `prompt` or `cwd`.
    MissingFields,
    /// Run on a terminal: nothing was piped in.
    NothingPiped,
    Unreadable(String),
}

impl fmt::Display for PromptInputProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("approval-gates prompt: ")?;
        match self {
            PromptInputProblem::NotJson(reason) => write!(f, "stdin is not JSON ({reason}); nothing approved"),
            PromptInputProblem::OtherEvent(event) => {
                write!(f, "reads Claude Code's UserPromptExpansion payloads; this one is for {event}; nothing approved")
            }
            PromptInputProblem::MissingFields => {
                f.write_str("the /approve expansion carries no prompt or cwd; nothing approved")
            }
            PromptInputProblem::NothingPiped => {
                f.write_str("reads Claude Code's hook payload as JSON on stdin; nothing was piped in")
            }
            PromptInputProblem::Unreadable(reason) => write!(f, "stdin cannot be read ({reason}); nothing approved"),
        }
    }
}

/// Why the input cannot be judged; the call is blocked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputProblem {
    /// A positional argument: the tool call is read from stdin.
    UnexpectedArgument(String),
    NothingPiped,
    NotJson(String),
    NotAnObject,
    NotAToolCall,
    /// A Claude Code payload for another event; the event as JSON.
    OtherEvent(String),
    /// Another host's payload for an event other than its tool hook (`expected`).
    OtherHostEvent {
        event: String,
        expected: &'static str,
    },
    Unreadable(String),
    /// No verdict within `--deadline` seconds.
    OutOfTime(u64),
}

impl fmt::Display for InputProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("approval-gates check: ")?;
        match self {
            InputProblem::UnexpectedArgument(argument) => {
                write!(f, "unexpected argument {argument:?}; the tool call is read from stdin")
            }
            InputProblem::NothingPiped => f.write_str("reads one tool call as JSON on stdin; nothing was piped in"),
            InputProblem::NotJson(reason) => write!(f, "stdin is not JSON ({reason}); the call is blocked"),
            InputProblem::NotAnObject => f.write_str("stdin must hold one JSON object; the call is blocked"),
            InputProblem::NotAToolCall => f.write_str(
                "expected a DSH tool call {\"name\", \"arguments\"} or a Claude Code PreToolUse payload \
                 {\"tool_name\", \"tool_input\", …}; the call is blocked",
            ),
            InputProblem::OtherEvent(event) => {
                write!(f, "check judges PreToolUse payloads; this one is for {event}; the call is blocked")
            }
            InputProblem::OtherHostEvent { event, expected } => {
                write!(f, "check judges {expected} payloads; this one is for {event}; the call is blocked")
            }
            InputProblem::Unreadable(reason) => write!(f, "stdin cannot be read ({reason}); the call is blocked"),
            InputProblem::OutOfTime(seconds) => write!(f, "no verdict within {seconds} s; the call is blocked"),
        }
    }
}
