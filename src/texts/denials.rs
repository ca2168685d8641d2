//! Why a tool call is refused, and why a bash command is not parsed.

use std::fmt;

use super::DENIAL_PREFIX;
use crate::bash::{self, Unscannable};
use crate::patch::PatchError;

/// Why a tool call is refused. `Display` renders the full text, prefix included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// Gate A: no visible content, no Spec line, or a Spec outside `openspec/changes/` (D-9).
    PlanNeedsSpec,
    /// Gate A: the plan's change has no design approval.
    DesignNotApproved { change_id: String },
    /// Gate B: no approved plan section; `None` keeps the literal `<id>` (the plan could not be read).
    PlanNotApproved { change_id: Option<String> },
    /// Gate B: the plan's bytes differ from the approved sha256 (D-10).
    PlanChanged,
    /// Gate B: an sdd reference whose plan file does not exist.
    PlanNotFound { plan_name: String },
    /// Gate C: only `/approve` and `request_approval` write approval.md (D-1).
    ApprovalWrittenOnlyByApprove,
    /// A bash command over one of the parser's caps whose raw text names a guarded path.
    CommandTooLarge { limit: Unscannable },
    /// A PowerShell command over one of its analysis's caps whose raw text names a guarded path
    /// (its caps are not bash's, so the text names the kind of limit only).
    PowerShellTooLarge { limit: Unscannable },
    /// A patch over one of the patch parser's caps whose raw text names a guarded path.
    PatchTooLarge { limit: PatchError },
    /// A persistent shell whose possible states outgrew their cap, and a command that names a
    /// guarded path: the earlier calls' effects are no longer all known.
    ShellStateTooLarge,
    /// The engine itself failed (a bug); the call is refused rather than waved through.
    InternalError,
    /// A Claude Code file tool or an MCP tool writing Claude Code's configuration (a `.claude`
    /// folder, `.mcp.json`, `~/.claude.json`) or this package's files (the installed hook).
    HostConfiguration { path: String },
    /// A write that reaches the approval ledger's folder (P-17): beneath it, or an ancestor.
    LedgerWrittenOnlyByApprove,
    /// A shell call that asks to run outside the host's sandbox while approvals are sealed.
    LeavingSandboxWhileSealed { requested: String },
    /// A tool that runs the model's code outside every sandbox (DSH's `run_code`), while sealed.
    UnconfinedWhileSealed { tool: String },
    /// A tool judged by its strings (docs/decisions.md#p-18) whose strings name more guarded
    /// locations than one check judges (`limit`).
    ToolNamesTooManyLocations { limit: usize },
}

impl fmt::Display for Denial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(DENIAL_PREFIX)?;
        match self {
            Denial::PlanNeedsSpec => f.write_str("plan must carry **Spec:** pointing to openspec/changes/<id>"),
            Denial::DesignNotApproved { change_id } => {
                write!(f, "design not approved; run /approve {change_id} design")
            }
            Denial::PlanNotApproved { change_id } => {
                let id = change_id.as_deref().unwrap_or("<id>");
                write!(f, "plan not approved; run /approve {id} plan")
            }
            Denial::PlanChanged => f.write_str("plan changed after approval; re-approve"),
            Denial::PlanNotFound { plan_name } => write!(f, "plan not found: {plan_name}"),
            Denial::ApprovalWrittenOnlyByApprove => f.write_str("approval.md is written only by /approve"),
            Denial::CommandTooLarge { limit } => {
                write!(f, "bash command is {limit} to check and names a guarded path; split it up")
            }
            Denial::PowerShellTooLarge { limit } => {
                let kind = match limit {
                    Unscannable::TooComplex => "too complex",
                    Unscannable::TooDeep | Unscannable::ScriptsTooDeep => "too deeply nested",
                    Unscannable::ParserUnavailable => "not parseable (the PowerShell parser could not be set up)",
                    _ => "too large",
                };
                write!(f, "PowerShell command is {kind} to check and names a guarded path; split it up")
            }
            Denial::PatchTooLarge { limit } => write!(f, "patch {limit} to check and names a guarded path; split it up"),
            Denial::ShellStateTooLarge => f.write_str(
                "this persistent shell's earlier commands left too many possible states to track, and this command names a guarded path; start a new shell",
            ),
            Denial::InternalError => {
                f.write_str("internal error while checking this call; the call is refused (please report it)")
            }
            Denial::HostConfiguration { path } => write!(
                f,
                "{path} configures Claude Code or approval-gates (settings, hooks, commands, MCP servers); only the owner changes it, outside the agent"
            ),
            Denial::LedgerWrittenOnlyByApprove => f.write_str("the approval ledger is written only by /approve"),
            Denial::LeavingSandboxWhileSealed { requested } => write!(
                f,
                "approvals are sealed here, so no command leaves the sandbox (sandbox_permissions: {requested}); run it in the sandbox, or ask the owner to run it"
            ),
            Denial::UnconfinedWhileSealed { tool } => write!(
                f,
                "approvals are sealed here, and {tool} runs its program in the host's own process, outside the sandbox; use the shell tools, which run confined"
            ),
            Denial::ToolNamesTooManyLocations { limit } => {
                write!(f, "this tool call names over {limit} guarded paths to check; split it up")
            }
        }
    }
}

/// Why a bash command is not parsed, as the denial above and `bashTargets`' error say it.
impl fmt::Display for Unscannable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unscannable::TooLarge => write!(f, "too large (over {} MiB)", bash::MAX_COMMAND_BYTES >> 20),
            Unscannable::TooComplex => f.write_str("too complex (over the parser's work budget)"),
            Unscannable::TooDeep => write!(f, "too deeply nested (over {} levels)", bash::MAX_TREE_DEPTH),
            Unscannable::ScriptsTooDeep => {
                write!(f, "too deeply nested (bash -c/eval strings over {} levels)", bash::MAX_SCRIPT_NESTING)
            }
            Unscannable::ExpansionTooLarge => {
                write!(f, "too large (a word expanding to over {} words)", bash::MAX_WORD_EXPANSION)
            }
            Unscannable::TooManyWords => {
                write!(f, "too large (a command expanding to over {} words)", bash::MAX_COMMAND_WORDS)
            }
            Unscannable::TooMuchText => {
                write!(f, "too large (expanding to over {} KiB of text)", bash::MAX_EXPANDED_BYTES >> 10)
            }
            Unscannable::TooManyTargets => {
                write!(f, "too large (writing over {} files)", bash::MAX_TARGETS)
            }
            Unscannable::ParserUnavailable => f.write_str("impossible (the bash parser is unavailable)"),
        }
    }
}

/// The error `bashTargets` throws for a command it does not parse.
pub fn unscannable_error(limit: Unscannable) -> String {
    format!("bashTargets: the command is {limit} to parse")
}

/// The `TypeError` `bashTargets` throws for a command that is not a string.
pub const BASH_TARGETS_NOT_A_STRING: &str = "bashTargets: command must be a string";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denials_carry_the_prefix_and_the_seed_texts() {
        let id = || "feat-x".to_string();
        let cases = [
            (Denial::PlanNeedsSpec, "plan must carry **Spec:** pointing to openspec/changes/<id>"),
            (Denial::DesignNotApproved { change_id: id() }, "design not approved; run /approve feat-x design"),
            (Denial::PlanNotApproved { change_id: None }, "plan not approved; run /approve <id> plan"),
            (Denial::PlanNotApproved { change_id: Some(id()) }, "plan not approved; run /approve feat-x plan"),
            (Denial::PlanChanged, "plan changed after approval; re-approve"),
            (Denial::PlanNotFound { plan_name: "p".into() }, "plan not found: p"),
            (Denial::ApprovalWrittenOnlyByApprove, "approval.md is written only by /approve"),
            (
                Denial::CommandTooLarge { limit: Unscannable::TooLarge },
                "bash command is too large (over 1 MiB) to check and names a guarded path; split it up",
            ),
            (
                Denial::CommandTooLarge { limit: Unscannable::TooDeep },
                "bash command is too deeply nested (over 1000 levels) to check and names a guarded path; split it up",
            ),
        ];
        for (denial, reason) in cases {
            assert_eq!(denial.to_string(), format!("BLOCKED [approval-gates]: {reason}"));
        }
    }
}
