//! Every text an agent or an owner reads comes from here: the denials are part of the contract
//! (docs/decisions.md#about: the quoted texts are verbatim), so they live in one place and nowhere else.

use std::fmt;

use crate::patch::PatchError;
use crate::bash::{self, Unscannable};

pub const DENIAL_PREFIX: &str = "BLOCKED [approval-gates]: ";

/// Thrown by an export given a non-string where a string (or nothing) belongs.
pub fn not_a_string(argument: &str) -> String {
    format!("approval-gates: {argument} must be a string")
}

/// Thrown by an export whose core panicked (a bug).
pub const INTERNAL_ERROR: &str = "approval-gates: internal error (please report it)";

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
        }
    }
}

/// What is wrong with the arguments of an approval: the part of a usage refusal after the usage line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageProblem {
    /// `what` ("change id", "kind") came from JS as something other than a string.
    NotAString {
        what: &'static str,
    },
    MissingId,
    UnsafeId {
        change_id: String,
    },
    MissingKind,
    UnknownKind {
        kind: String,
    },
}

impl fmt::Display for UsageProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageProblem::NotAString { what } => write!(f, "{what} must be a string"),
            UsageProblem::MissingId => f.write_str("the change id is missing"),
            UsageProblem::UnsafeId { change_id } => {
                write!(f, "change id {change_id:?} must be one path segment")
            }
            UsageProblem::MissingKind => f.write_str("design or plan is missing"),
            UsageProblem::UnknownKind { kind } => write!(f, "kind {kind:?} must be design or plan"),
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

/// The `TypeError` `presentApproval` throws for an asker it does not know.
pub fn unknown_asker(names: &[&str]) -> String {
    format!("presentApproval: asker must be one of {}", names.join(", "))
}

/// The outcome texts of `/approve`, `request_approval` and the CLI's `approve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalText {
    Usage {
        problem: UsageProblem,
    },
    MissingFiles {
        change_id: String,
        files: Vec<String>,
    },
    DesignNotApproved {
        change_id: String,
    },
    NoPlan {
        change_id: String,
    },
    SeveralPlans {
        change_id: String,
        plans: Vec<String>,
    },
    PlanUnreadable {
        plan: String,
        reason: String,
    },
    ReadyDesign {
        change_id: String,
    },
    ReadyPlan {
        change_id: String,
        plan: String,
        sha256: String,
    },
    NotConfirmed,
    PlanChangedSinceShown {
        change_id: String,
        plan: String,
    },
    Unsafe {
        path: String,
        reason: String,
    },
    WriteFailed {
        path: String,
        reason: String,
    },
    ApprovedDesign {
        change_id: String,
    },
    ApprovedPlan {
        change_id: String,
        plan: String,
        sha256: String,
    },
    /// P-17: the ledger cannot be used; nothing was written in each of these.
    NoLedgerFolder,
    LedgerUnwritable {
        path: String,
        reason: String,
    },
    LedgerUnsafe {
        path: String,
        reason: String,
    },
    LedgerBroken {
        file: String,
        reason: String,
        root: String,
    },
    LedgerFull {
        file: String,
    },
    /// The ledger holds the approval; approval.md could not be written after it.
    RecordedNotWritten {
        path: String,
        reason: String,
        change_id: String,
        kind: &'static str,
    },
    /// Said after an approval that sealed the repository: sections that stopped counting.
    SealedNow {
        unrecorded: usize,
    },
}

/// Where approvals are recorded only from, said by every refusal to record one elsewhere.
const OWNER_SIDE: &str = "approvals are recorded only from the owner's side (/approve or request_approval in the host, approval-gates approve in the owner's own terminal), never from inside the agent's sandbox";

pub const USAGE: &str = "usage: /approve <change-id> design|plan";

impl fmt::Display for ApprovalText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApprovalText::Usage { problem } => write!(f, "{USAGE} ({problem})"),
            ApprovalText::MissingFiles { change_id, files } => write!(
                f,
                "cannot approve design of {change_id}: missing in openspec/changes/{change_id}/: {}",
                files.join(", ")
            ),
            ApprovalText::DesignNotApproved { change_id } => {
                write!(f, "design not approved; run /approve {change_id} design")
            }
            ApprovalText::NoPlan { change_id } => {
                write!(f, "no plan in docs/superpowers/plans/ carries **Spec:** openspec/changes/{change_id}")
            }
            ApprovalText::SeveralPlans { change_id, plans } => write!(
                f,
                "several plans carry **Spec:** openspec/changes/{change_id}, exactly one must: {}",
                plans.join(", ")
            ),
            ApprovalText::PlanUnreadable { plan, reason } => {
                write!(f, "cannot read plan {plan}: {reason}")
            }
            ApprovalText::ReadyDesign { change_id } => {
                write!(f, "design of {change_id} is ready for approval")
            }
            ApprovalText::ReadyPlan { change_id, plan, sha256 } => {
                write!(f, "plan {plan} of {change_id} is ready for approval (sha256 {sha256})")
            }
            ApprovalText::NotConfirmed => f.write_str("not confirmed"),
            ApprovalText::PlanChangedSinceShown { change_id, plan } => write!(
                f,
                "plan {plan} changed after it was shown to the owner; nothing written, run /approve {change_id} plan again"
            ),
            ApprovalText::Unsafe { path, reason } => {
                write!(f, "refusing to write {path}: {reason}")
            }
            ApprovalText::WriteFailed { path, reason } => {
                write!(f, "could not write {path}: {reason}")
            }
            ApprovalText::ApprovedDesign { change_id } => {
                write!(f, "design of {change_id} approved")
            }
            ApprovalText::ApprovedPlan { change_id, plan, sha256 } => {
                write!(f, "plan {plan} of {change_id} approved (sha256 {sha256})")
            }
            ApprovalText::NoLedgerFolder => write!(
                f,
                "nothing approved: the approval ledger has no folder here (XDG_STATE_HOME and HOME are not absolute paths; LOCALAPPDATA on Windows); {OWNER_SIDE}"
            ),
            ApprovalText::LedgerUnwritable { path, reason } => {
                write!(f, "nothing approved: the approval ledger cannot be written ({path}: {reason}); {OWNER_SIDE}")
            }
            ApprovalText::LedgerUnsafe { path, reason } => {
                write!(f, "nothing approved: refusing to write the approval ledger through {path}: {reason}")
            }
            ApprovalText::LedgerBroken { file, reason, root } => write!(
                f,
                "nothing approved: the approval ledger {file} does not read ({reason}), so no approval counts in {root}; \
                 look at it (it is text), then move it aside and run `approval-gates seal` in {root} to record again the approvals approval.md holds"
            ),
            ApprovalText::LedgerFull { file } => write!(
                f,
                "nothing approved: the approval ledger {file} is full ({} approvals or {} MiB) even without the changes that are gone; \
                 move it aside and run `approval-gates seal` to record again the approvals approval.md holds",
                crate::approval::ledger::format::MAX_APPROVALS,
                crate::approval::ledger::format::MAX_BYTES >> 20
            ),
            ApprovalText::RecordedNotWritten { path, reason, change_id, kind } => write!(
                f,
                "the approval is recorded in the ledger, but {path} could not be written ({reason}), so it does not count yet; \
                 run /approve {change_id} {kind} again or `approval-gates seal` to write it"
            ),
            ApprovalText::SealedNow { unrecorded } => {
                let sections = if *unrecorded == 1 { "section" } else { "sections" };
                write!(
                    f,
                    "approvals are now sealed in this repository: {unrecorded} approval.md {sections} the ledger does not hold no longer count (run `approval-gates seal` to review them)"
                )
            }
        }
    }
}

/// What `approval-gates seal` says about sections it did not act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealText {
    /// The section changed (or went) between showing it and the owner's yes.
    ChangedSinceShown,
    /// The section lacks what an approval needs (a `by`, an `at`, a safe plan).
    NotRecordable,
    /// What sealing did.
    Done { recorded: usize, restored: usize, skipped: usize, file: String, sealed_now: bool },
}

impl fmt::Display for SealText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealText::ChangedSinceShown => f.write_str("it changed after it was shown; run approval-gates seal again"),
            SealText::NotRecordable => {
                f.write_str("it is not a complete approval (by, at and, for a plan, a sha256 of one plan)")
            }
            SealText::Done { recorded, restored, skipped, file, sealed_now } => {
                let count = |n: &usize, one: &str, many: &str| format!("{n} {}", if *n == 1 { one } else { many });
                let what = if *sealed_now { "sealed" } else { "still sealed" };
                write!(
                    f,
                    "{what}: recorded {}, wrote back {}",
                    count(recorded, "approval", "approvals"),
                    count(restored, "approval.md section", "approval.md sections")
                )?;
                if *skipped > 0 {
                    write!(f, ", skipped {}", count(skipped, "section", "sections"))?;
                }
                write!(f, "; the ledger is {file}")
            }
        }
    }
}

/// What the enforced-or-advisory report says (`approvalSetup`, `approval-gates status`, the DSH
/// plugin at start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupText {
    NoLedgerFolder,
    SetStateHome,
    NotSealed,
    RunSeal,
    Sealed { file: String },
    SealedAbove { above: String },
    LedgerBroken { refusal: String },
    LedgerInWorkspace { folder: String, workspace: String },
    LedgerInTemp { folder: String, temp: String },
    MoveStateHome,
    LedgerOutside { folder: String },
    LedgerNotInTemp,
    NoHost,
    UnknownHost { host: String },
    NameHost,
}

impl fmt::Display for SetupText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupText::NoLedgerFolder => f.write_str(
                "the approval ledger has no folder (XDG_STATE_HOME and HOME are not absolute paths; LOCALAPPDATA on Windows), so approvals cannot be sealed",
            ),
            SetupText::SetStateHome => f.write_str("set HOME (or XDG_STATE_HOME) to an absolute path for the host and the CLI"),
            SetupText::NotSealed => f.write_str(
                "approvals are not sealed in this repository yet: a hand-written approval.md counts as an approval",
            ),
            SetupText::RunSeal => f.write_str(
                "run `approval-gates seal` here in your own terminal (or approve once with /approve): from then on only approvals in the ledger count",
            ),
            SetupText::Sealed { file } => write!(f, "approvals are sealed here by the ledger {file}"),
            SetupText::SealedAbove { above } => {
                write!(f, "approvals are sealed here by the ledger of {above}, a directory above this repository")
            }
            SetupText::LedgerBroken { refusal } => f.write_str(refusal.strip_prefix("nothing approved: ").unwrap_or(refusal)),
            SetupText::LedgerInWorkspace { folder, workspace } => write!(
                f,
                "the approval ledger's folder {folder} lies inside the workspace {workspace}, which the agent's commands may write"
            ),
            SetupText::LedgerInTemp { folder, temp } => write!(
                f,
                "the approval ledger's folder {folder} lies in the temporary area {temp}, which the hosts' sandboxes let the agent write"
            ),
            SetupText::MoveStateHome => f.write_str(
                "point XDG_STATE_HOME (or HOME) of the host and of your terminal at a folder outside every workspace and temporary area, then run `approval-gates seal` again",
            ),
            SetupText::LedgerOutside { folder } => write!(f, "the approval ledger's folder {folder} lies outside the workspace"),
            SetupText::LedgerNotInTemp => f.write_str("the approval ledger's folder is not in a temporary area"),
            SetupText::NoHost => f.write_str(
                "no agent host was named or found, so whether the agent's commands run confined is unknown",
            ),
            SetupText::UnknownHost { host } => write!(f, "approval-gates has no checks for the host {host:?}"),
            SetupText::NameHost => f.write_str(
                "run the host with the agent's commands confined (README, Sealed approvals) and check again with `approval-gates status --host <host>`",
            ),
        }
    }
}

/// One check of a host's setup, judged by one fact the host integration supplies: the values
/// that hold, and the texts (`{value}` is the fact's value). The data behind `setup::assess`.
pub struct HostCheck {
    pub host: &'static str,
    pub fact: &'static str,
    pub holds: &'static [&'static str],
    pub holds_text: &'static str,
    pub fails_text: &'static str,
    pub unknown: &'static str,
    pub fix: &'static str,
}

pub static HOST_CHECKS: &[HostCheck] = &[
    // DSH (0.1.0-rc.8): facts from the plugin at start (lib/dsh.mjs) or from a profile on disk
    // (lib/cli/setup.mjs).
    HostCheck {
        host: "dsh",
        fact: "sandbox-mode",
        holds: &["workspace-write", "read-only"],
        holds_text: "DSH confines the agent's commands in sandbox mode {value}",
        fails_text: "DSH runs the agent's commands in sandbox mode {value}: they can write the approval ledger",
        unknown: "DSH's sandbox mode is not known",
        fix: "run DSH with the sandbox in workspace-write: leave DSH_PERMISSION_MODE unset (or workspace-write) and the sandbox-policy row's mode at workspace-write",
    },
    HostCheck {
        host: "dsh",
        fact: "shell",
        holds: &["sandboxed"],
        holds_text: "DSH's shell tool runs commands through its sandbox executor",
        fails_text: "DSH's shell tool runs commands unconfined ({value})",
        unknown: "whether DSH's shell runs through its sandbox executor is not known",
        fix: "keep the bash-sandbox row (pwsh-sandbox on Windows) enabled, with the sandbox and sandbox-policy rows",
    },
    HostCheck {
        host: "dsh",
        fact: "runner",
        holds: &["bwrap", "bwrap --cap-drop ALL", "landlock", "seatbelt", "windows-acl", "runnerCommand"],
        holds_text: "DSH's sandbox runner is {value}",
        fails_text: "DSH's sandbox runner is {value}: a confined command keeps root's capabilities and can remount / writable",
        unknown: "DSH's sandbox runner is not known",
        fix: "when DSH runs as root, give the sandbox row `runnerCommand: [bwrap, --cap-drop, ALL]` and `runnerFailureSignatures: ['bwrap: ']`",
    },
    HostCheck {
        host: "dsh",
        fact: "owner-channel",
        holds: &["host"],
        holds_text: "the owner answers approvals in DSH's own interface, which the agent's processes cannot reach",
        fails_text: "DSH web's API on 127.0.0.1 has no credential and the agent's shell gets DSH_WEB_URL and DSH_SESSION_ID: \
                     any process on this machine can answer the owner's question cards (request_approval, /approve, a sandbox escalation) \
                     and run commands as the user ({value})",
        unknown: "whether DSH serves its web API is not known",
        fix: "approve in your own terminal (`approval-gates approve <id> design|plan`); DSH must give its web API a credential the agent's processes cannot read before its cards can carry an approval",
    },
    HostCheck {
        host: "claude-code",
        fact: "sandbox",
        holds: &["on"],
        holds_text: "Claude Code runs the agent's commands in its sandbox (enabled, failIfUnavailable, no unsandboxed retry)",
        fails_text: "Claude Code's sandbox is {value}: the agent's commands can write the approval ledger",
        unknown: "whether Claude Code's sandbox is on is not known",
        fix: "run `approval-gates init claude-code` (sandbox.enabled, failIfUnavailable and allowUnsandboxedCommands: false in ~/.claude/settings.json), and let no project or local settings file turn them off",
    },
    HostCheck {
        host: "claude-code",
        fact: "file-tools",
        holds: &["confined"],
        holds_text: "Claude Code's file tools, which run outside its sandbox, may not write outside the working directories",
        fails_text: "Claude Code's file tools run outside its sandbox and may write anywhere ({value}): a shell profile or a service they write would run the agent's code unconfined",
        unknown: "whether Claude Code's file tools are kept to the working directories is not known",
        fix: "set permissions.blockWritesOutsideWorkingDirectories in ~/.claude/settings.json (`approval-gates init claude-code` does)",
    },
    HostCheck {
        host: "claude-code",
        fact: "tool-hook",
        holds: &["fail-closed"],
        holds_text: "approval-gates judges every tool call before it runs, and a hook that cannot run refuses the call",
        fails_text: "the PreToolUse hook {value}",
        unknown: "whether approval-gates' PreToolUse hook is set up is not known",
        fix: "run `approval-gates init claude-code` in the project (or `--user`, for sessions started below its root)",
    },
    HostCheck {
        host: "claude-code",
        fact: "prompt-hook",
        holds: &["owner-only", "none"],
        holds_text: "the prompt-side /approve: {value} (owner-only: only what the owner types reaches it; none: the owner approves in a terminal)",
        fails_text: "the prompt-side /approve {value}",
        unknown: "whether the prompt-side /approve is set up is not known",
        fix: "run `approval-gates init claude-code` again: it writes the /approve command with disable-model-invocation: true",
    },
    HostCheck {
        host: "claude-code",
        fact: "scheduling",
        holds: &["denied", "no prompt hook"],
        holds_text: "the scheduling tools (CronCreate, ScheduleWakeup): {value}",
        fails_text: "{value} may schedule prompts beside the prompt-side /approve",
        unknown: "whether the scheduling tools are denied is not known",
        fix: "deny CronCreate and ScheduleWakeup in the settings that hold the prompt hook (`approval-gates init claude-code` does)",
    },
    // Codex CLI (0.171): facts from $CODEX_HOME/hooks.json and config.toml (lib/cli/codex-setup.mjs),
    // as measured by __test__/e2e/codex.test.mjs.
    HostCheck {
        host: "codex",
        fact: "tool-hook",
        holds: &["fail-closed"],
        holds_text: "approval-gates judges every Codex tool call before it runs (a trusted PreToolUse hook for every tool), and a hook that cannot run refuses the call",
        fails_text: "the PreToolUse hook {value}",
        unknown: "whether approval-gates' PreToolUse hook is set up for Codex is not known",
        fix: "run `approval-gates init codex`: it installs the hook outside every workspace, writes $CODEX_HOME/hooks.json and the hook's trust record in config.toml",
    },
    HostCheck {
        host: "codex",
        fact: "sandbox",
        holds: &[
            "workspace-write",
            "read-only",
            "not set (Codex's default: read-only, or workspace-write in a trusted project)",
        ],
        holds_text: "Codex's sandbox mode is {value}: the agent's commands cannot write the approval ledger, the hook, $CODEX_HOME or the project's .codex/ \
                     (unless Codex is started with --sandbox danger-full-access or --dangerously-bypass-approvals-and-sandbox)",
        fails_text: "Codex runs the agent's commands {value}: they can write the approval ledger",
        unknown: "Codex's sandbox mode is not known",
        fix: "keep sandbox_mode at workspace-write (or read-only) in $CODEX_HOME/config.toml, its active profile and a trusted project's .codex/config.toml, keep the ledger's folder, the hook and $CODEX_HOME out of [sandbox_workspace_write] writable_roots, \
              and do not start Codex with --sandbox danger-full-access or --dangerously-bypass-approvals-and-sandbox",
    },
    HostCheck {
        host: "codex",
        fact: "prompt-hook",
        holds: &["none"],
        holds_text: "no prompt-side /approve: the owner approves with `approval-gates approve <id> design|plan` in a terminal of their own \
                     (Codex's UserPromptSubmit hook also receives the task of a subagent the model spawns, so a prompt there is not the owner's word)",
        fails_text: "a UserPromptSubmit hook {value}, which the model reaches: Codex submits a spawned subagent's task through the same hook",
        unknown: "whether a UserPromptSubmit hook runs approval-gates is not known",
        fix: "remove that hook from $CODEX_HOME/hooks.json and approve with `approval-gates approve <id> design|plan` in a terminal of your own",
    },
    // Gemini CLI (0.61): facts from its settings files (lib/cli/gemini-setup.mjs), as measured by
    // __test__/e2e/gemini.test.mjs. No confinement value holds: without security.toolSandboxing the
    // agent's commands run unconfined; with it, as root, bubblewrap keeps root's capabilities; as a
    // user of its own, the workspace's .gemini/settings.json stays writable and switches the hook
    // and the sandbox off for the next session in a trusted folder.
    HostCheck {
        host: "gemini",
        fact: "tool-hook",
        holds: &["fail-closed"],
        holds_text: "approval-gates judges every Gemini CLI tool call before it runs (a BeforeTool hook for every tool), and a hook that cannot run refuses the call",
        fails_text: "the BeforeTool hook {value}",
        unknown: "whether approval-gates' BeforeTool hook is set up for Gemini CLI is not known",
        fix: "run `approval-gates init gemini` (~/.gemini/settings.json), and let no settings file switch hooks or the hook approval-gates off (hooksConfig)",
    },
    HostCheck {
        host: "gemini",
        fact: "confinement",
        holds: &[],
        holds_text: "Gemini CLI confines the agent's commands ({value})",
        fails_text: "Gemini CLI does not keep the agent's commands off the approval ledger and approval-gates' own hook: {value}",
        unknown: "whether Gemini CLI confines the agent's commands is not known",
        fix: "approve with `approval-gates approve <id> design|plan` in a terminal of your own, and count approvals here as advisory: for them to be enforced, \
              Gemini CLI's sandbox must keep the workspace's .gemini/ read-only to the agent's tools (or its user and system settings must be able to forbid a workspace to change hooksConfig and security), \
              and drop every capability when Gemini CLI runs as root",
    },
    HostCheck {
        host: "gemini",
        fact: "prompt-hook",
        holds: &["none"],
        holds_text: "no prompt-side /approve: the owner approves with `approval-gates approve <id> design|plan` in a terminal of their own \
                     (a nested `gemini -p` the model runs through run_shell_command fires BeforeAgent, so a prompt there is not the owner's word)",
        fails_text: "a BeforeAgent hook {value}, which the model reaches: a nested `gemini -p` it runs fires BeforeAgent",
        unknown: "whether a BeforeAgent hook runs approval-gates is not known",
        fix: "remove that hook from the settings file and approve with `approval-gates approve <id> design|plan` in a terminal of your own",
    },
];


/// How a text of the approval presentation is set: Markdown (DSH's question card renders a
/// question's `detail` as Markdown) or plain text (a terminal prompt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Markdown,
    Plain,
}

impl Style {
    /// `text` as code: a Markdown code span holding it verbatim, or the text itself.
    pub fn code(self, text: &str) -> String {
        match self {
            Style::Plain => text.to_string(),
            Style::Markdown => code_span(text),
        }
    }

    fn strong(self, text: &str) -> String {
        match self {
            Style::Plain => text.to_string(),
            Style::Markdown => format!("**{text}**"),
        }
    }
}

/// A Markdown code span holding `text` verbatim: a fence longer than any run of backticks inside,
/// padded when the text starts or ends with a backtick (CommonMark 6.1).
pub fn code_span(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A size as a person reads it: bytes up to 1 KiB, then KiB or MiB with one decimal.
pub fn size(bytes: u64) -> String {
    match bytes {
        1 => "1 byte".to_string(),
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

fn lines(count: u64) -> String {
    if count == 1 { "1 line".to_string() } else { format!("{count} lines") }
}

/// Who asked the owner for an approval, as the presentation says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// The owner typed `/approve <id> <kind>` in the host (DSH's slash command).
    OwnerCommand,
    /// The agent called its `request_approval` tool.
    AgentTool,
    /// The owner ran `approval-gates approve <id> <kind>` in a terminal.
    Cli,
    /// The owner typed `/approve <id> <kind>` in a host's prompt (a prompt-side approval).
    Prompt,
}

/// One text of the approval presentation (`approval::present`): what the owner reads before
/// deciding, the same in every channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PresentText<'a> {
    /// The question itself.
    Title { kind: &'a str, change_id: &'a str },
    /// Who asked for this approval.
    AskedBy { asker: Asker, change_id: &'a str, kind: &'a str },
    /// What approving writes; `sha256` for a plan.
    Writes { file: &'a str, section: &'a str, sha256: Option<&'a str> },
    /// The section approving replaces (a re-approval).
    Replaces { section: &'a str, by: &'a str, at: &'a str, sha256: Option<&'a str> },
    /// The heading over a document's text (a plan's sha256 is in `Writes`).
    DocumentHeading { role: &'a str, path: &'a str, bytes: u64, lines: u64 },
    /// The other files of the change a design approval needs, present with their sizes.
    AlsoInChange { files: &'a [(String, u64)] },
    /// A document with no bytes.
    Empty { path: &'a str },
    /// The excerpt is the beginning of the document only.
    ShownPart { path: &'a str, shown_lines: u64, lines: u64, shown_bytes: u64, bytes: u64 },
    /// The excerpt is the whole document.
    ShownWhole { path: &'a str },
}

impl PresentText<'_> {
    pub fn render(&self, style: Style) -> String {
        let code = |text: &str| style.code(text);
        match self {
            PresentText::Title { kind, change_id } => format!("Approve the {kind} of {change_id}?"),
            PresentText::AskedBy { asker, change_id, kind } => {
                let owner = |command: String, place: &str| {
                    format!("{} {}{place}.", style.strong("You asked for this approval:"), code(&command))
                };
                match asker {
                    Asker::OwnerCommand => owner(format!("/approve {change_id} {kind}"), ""),
                    Asker::AgentTool => format!(
                        "{} with its {} tool; only your answer approves.",
                        style.strong("The agent asks you for this approval,"),
                        code("request_approval")
                    ),
                    Asker::Cli => owner(format!("approval-gates approve {change_id} {kind}"), " in this terminal"),
                    Asker::Prompt => owner(format!("/approve {change_id} {kind}"), " in the prompt"),
                }
            }
            PresentText::Writes { file, section, sha256 } => match sha256 {
                None => format!(
                    "Approving writes the {} section of {}: {} and {} the time you approve. A design \
                     approval is not bound to design.md's bytes (it keeps growing with decisions). \
                     Any other answer writes nothing.",
                    code(section),
                    code(file),
                    code("by: owner"),
                    code("at:")
                ),
                Some(sha256) => format!(
                    "Approving writes the {} section of {}: {}, {} the time you approve, and {}. The \
                     approval holds only while the plan's bytes have this sha256; the design section \
                     stays as it is. Any other answer writes nothing.",
                    code(section),
                    code(file),
                    code("by: owner"),
                    code("at:"),
                    code(&format!("sha256: {sha256}"))
                ),
            },
            PresentText::Replaces { section, by, at, sha256 } => {
                let hash = sha256.map(|sha256| format!(", sha256 {}", code(sha256))).unwrap_or_default();
                format!("It replaces the {section} section there now (by {by}, at {at}{hash}).")
            }
            PresentText::DocumentHeading { role, path, bytes, lines: count } => {
                format!("{} {} · {} · {}", style.strong(role), code(path), size(*bytes), lines(*count))
            }
            PresentText::AlsoInChange { files } => {
                let listed: Vec<String> =
                    files.iter().map(|(path, bytes)| format!("{} ({})", code(path), size(*bytes))).collect();
                format!("Also in the change: {}.", listed.join(", "))
            }
            PresentText::Empty { path } => format!("{} is empty.", code(path)),
            PresentText::ShownPart { path, shown_lines, lines: count, shown_bytes, bytes } => format!(
                "Shown: the first {} of {} ({} of {}). Read the whole file in {}.",
                lines(*shown_lines),
                lines(*count),
                size(*shown_bytes),
                size(*bytes),
                code(path)
            ),
            PresentText::ShownWhole { path } => format!("End of {}.", code(path)),
        }
    }
}

/// The owner's prompt-side `/approve` (`approval::prompt`): the texts around the presentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptText<'a> {
    /// Anything typed after `/approve` that is not one of its two lines.
    Usage,
    /// After the presentation: the one line that approves what was shown (`plan`: bound to the
    /// plan's sha256 shown).
    HowToConfirm { command: &'a str, plan: bool },
    /// A confirmation whose code is not the one last shown for this change and kind.
    UnknownCode { change_id: &'a str, kind: &'a str },
    /// The code of a showing could not be kept, or a confirmation could not use it up (the hook
    /// runs where the state folder is read-only: inside a sandbox).
    PendingUnwritable { path: String, reason: String },
    /// An expansion of `/approve` that the owner did not type (an MCP prompt of that name).
    NotTyped,
    /// No state folder to keep a code in (no `HOME`, `XDG_STATE_HOME` or `LOCALAPPDATA`).
    NoStateFolder,
}

impl fmt::Display for PromptText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromptText::Usage => f.write_str(
                "nothing approved. Type /approve <change-id> design|plan alone on the prompt line: it shows what you \
                 would approve, and the line that approves it.",
            ),
            PromptText::HowToConfirm { command, plan } => write!(
                f,
                "Nothing is approved yet. To approve what is shown above, type this line exactly (it works once{}):\n\n    \
                 {command}\n\nAnything else approves nothing.",
                if *plan { ", and only while the plan is the one shown" } else { "" }
            ),
            PromptText::UnknownCode { change_id, kind } => write!(
                f,
                "nothing approved: that is not the code shown for the {kind} of {change_id} (a code works once, after \
                 /approve {change_id} {kind} has shown what you approve). Type /approve {change_id} {kind} to see it again."
            ),
            PromptText::NotTyped => f.write_str(
                "nothing approved: only /approve typed by the owner in the prompt approves, and this expansion was not typed.",
            ),
            PromptText::NoStateFolder => f.write_str(
                "nothing approved: no folder to keep the confirmation code in (set HOME or XDG_STATE_HOME for Claude Code).",
            ),
            PromptText::PendingUnwritable { path, reason } => write!(
                f,
                "nothing approved: the confirmation code could not be kept or used up in {path} ({reason}). This runs \
                 only on the owner's side, outside the agent's sandbox."
            ),
        }
    }
}

/// What `approval-gates status` suggests doing next for a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    WriteChangeFiles { change_id: String, files: Vec<String> },
    ApproveDesign { change_id: String },
    WritePlan { change_id: String },
    KeepOnePlan { change_id: String, plans: Vec<String> },
    ApprovePlan { change_id: String },
    ReapprovePlan { change_id: String },
    Implement { plan: String },
}

impl fmt::Display for NextStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NextStep::WriteChangeFiles { change_id, files } => {
                write!(f, "write {} in openspec/changes/{change_id}/", files.join(", "))
            }
            NextStep::ApproveDesign { change_id } => write!(f, "/approve {change_id} design"),
            NextStep::WritePlan { change_id } => {
                write!(f, "write a plan in docs/superpowers/plans/ with **Spec:** openspec/changes/{change_id}")
            }
            NextStep::KeepOnePlan { change_id, plans } => {
                write!(f, "keep one plan for {change_id}: {}", plans.join(", "))
            }
            NextStep::ApprovePlan { change_id } => write!(f, "/approve {change_id} plan"),
            NextStep::ReapprovePlan { change_id } => {
                write!(f, "/approve {change_id} plan (the plan changed after its approval)")
            }
            NextStep::Implement { plan } => write!(f, "implement {plan} (sdd)"),
        }
    }
}

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

/// The native hook process (`approval-gates-hook`), in the words of the JS CLI's `check`
/// (`lib/cli/main.mjs`), so a hook behaves the same whichever of the two runs it.
pub mod hook {
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
                PromptInputProblem::OtherEvent(event) => write!(
                    f,
                    "reads Claude Code's UserPromptExpansion payloads; this one is for {event}; nothing approved"
                ),
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
}
