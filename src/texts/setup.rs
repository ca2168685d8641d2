//! The enforced-or-advisory report and the host checks behind it.

use std::fmt;

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
