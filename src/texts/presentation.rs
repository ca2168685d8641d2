//! The approval presentation: what the owner reads before deciding, in every channel.

use std::fmt;

/// The `TypeError` `presentApproval` throws for an asker it does not know.
pub fn unknown_asker(names: &[&str]) -> String {
    format!("presentApproval: asker must be one of {}", names.join(", "))
}

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
