//! What the owner is shown before an approval, the same in every channel (DSH's question card,
//! the CLI's `approve` prompt, a host's prompt-side `/approve`): who asked, what approving
//! writes, and the text being approved — the design's or the plan's, or its beginning with the
//! size and the path to read the rest. Host-neutral: the structure, plus a Markdown and a
//! plain-text rendering whose sentences come from `texts::PresentText`.
//!
//! Bounded: a document is read once as a stream; only the first `MAX_EXCERPT_BYTES` /
//! `MAX_EXCERPT_LINES` are kept, cut at a line end where one is in reach and never inside a UTF-8
//! character, and the cut is marked. A plan's sha256 is of the very bytes its excerpt comes from,
//! so the hash the owner is shown (and the write later insists on, P-10) is of what was read.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{DESIGN_FILES, Kind, Ready, read_record};
use crate::paths;
use crate::texts::{ApprovalText, Asker, PresentText, Style};

/// The most bytes of a document the presentation keeps.
pub const MAX_EXCERPT_BYTES: usize = 16 << 10;
/// The most lines of a document the presentation keeps.
pub const MAX_EXCERPT_LINES: usize = 200;

/// Who asked; the names are the ones the JS API takes.
pub const ASKERS: [(&str, Asker); 4] = [
    ("owner-command", Asker::OwnerCommand),
    ("agent-tool", Asker::AgentTool),
    ("cli", Asker::Cli),
    ("prompt", Asker::Prompt),
];

pub fn parse_asker(name: &str) -> Option<Asker> {
    ASKERS.iter().find(|(known, _)| *known == name).map(|(_, asker)| *asker)
}

pub fn asker_name(asker: Asker) -> &'static str {
    ASKERS.iter().find(|(_, known)| *known == asker).map_or("", |(name, _)| name)
}

/// What a document is to the approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Design,
    Proposal,
    BuilderCheck,
    Plan,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Design => "design",
            Role::Proposal => "proposal",
            Role::BuilderCheck => "builder-check",
            Role::Plan => "plan",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Role::Design => "Design",
            Role::Proposal => "Proposal",
            Role::BuilderCheck => "Builder-check",
            Role::Plan => "Plan",
        }
    }
}

/// The beginning of a document as shown: `text` is lossless UTF-8 of the first `bytes` bytes
/// (invalid sequences shown as U+FFFD), `lines` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    pub text: String,
    pub bytes: u64,
    pub lines: u64,
    pub truncated: bool,
}

/// One file of the change. `excerpt` is present for the document being approved; the others are
/// shown by path and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub role: Role,
    /// Relative to the repository root, with `/`.
    pub path: String,
    pub bytes: u64,
    /// Counted for a document with an excerpt.
    pub lines: Option<u64>,
    pub sha256: Option<String>,
    pub excerpt: Option<Excerpt>,
}

/// The section approving would replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Previous {
    pub by: String,
    pub at: String,
    pub sha256: Option<String>,
}

/// What approving writes: `section` of `file` with `by: owner`, `at:` the time of the answer and,
/// for a plan, `sha256`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    pub file: String,
    pub section: &'static str,
    pub by: &'static str,
    pub sha256: Option<String>,
    pub replaces: Option<Previous>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    pub change_id: String,
    pub kind: Kind,
    pub asker: Asker,
    pub documents: Vec<Document>,
    pub write: Write,
}

/// The kind as the texts and approval.md name it.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Design => "design",
        Kind::Plan => "plan",
    }
}

/// The presentation of an approval whose preconditions `ready` met. Reads the documents again:
/// a plan's sha256 here is of the bytes shown, which may be newer than `ready`'s.
pub fn present(ready: &Ready, asker: Asker, root: &Path) -> Result<Presentation, ApprovalText> {
    let change_dir = paths::change_dir(root, &ready.change_id);
    let change_display = format!("{}/{}", paths::CHANGES_DIR.join("/"), ready.change_id);
    let unreadable = |path: &str, error: io::Error| ApprovalText::PlanUnreadable {
        plan: path.to_string(),
        reason: error.to_string(),
    };
    let documents = match &ready.plan {
        None => {
            let mut documents = Vec::with_capacity(DESIGN_FILES.len());
            for (file, role) in DESIGN_FILES.iter().zip([Role::Proposal, Role::Design, Role::BuilderCheck]) {
                let path = format!("{change_display}/{file}");
                let on_disk = change_dir.join(file);
                let document = if role == Role::Design {
                    read_document(role, path.clone(), &on_disk, false)
                } else {
                    on_disk.metadata().map(|meta| Document {
                        role,
                        path: path.clone(),
                        bytes: meta.len(),
                        lines: None,
                        sha256: None,
                        excerpt: None,
                    })
                };
                documents.push(document.map_err(|error| unreadable(&path, error))?);
            }
            // The design first: it is what is being approved.
            documents.sort_by_key(|document| document.role != Role::Design);
            documents
        }
        Some(plan) => {
            vec![
                read_document(Role::Plan, plan.display.clone(), &plan.path, true)
                    .map_err(|error| unreadable(&plan.display, error))?,
            ]
        }
    };
    let section = kind_name(ready.kind);
    let replaces = read_record(root, &ready.change_id).section(section).and_then(|previous| {
        Some(Previous {
            by: previous.field("by")?.to_string(),
            at: previous.field("at")?.to_string(),
            sha256: previous.field("sha256").map(str::to_string),
        })
    });
    let sha256 = documents.iter().find(|document| document.role == Role::Plan).and_then(|plan| plan.sha256.clone());
    Ok(Presentation {
        change_id: ready.change_id.clone(),
        kind: ready.kind,
        asker,
        documents,
        write: Write {
            file: format!("{change_display}/{}", paths::APPROVAL_FILE),
            section,
            by: "owner",
            sha256,
            replaces,
        },
    })
}

/// Checks the preconditions (`approval::check`) and presents what passed them. The plan's
/// sha256 in the returned `Ready` is the one shown, so the write can insist on it (P-10).
pub fn prepare(change_id: &str, kind: &str, asker: Asker, root: &Path) -> Result<(Ready, Presentation), ApprovalText> {
    let mut ready = super::check(change_id, kind, root)?;
    let presentation = present(&ready, asker, root)?;
    if let (Some(plan), Some(shown)) = (ready.plan.as_mut(), presentation.sha256()) {
        plan.sha256 = shown.to_string();
    }
    Ok((ready, presentation))
}

/// Reads `path` once as a stream: its size, its line count, the excerpt and, with `hash`, the
/// sha256 of every byte.
fn read_document(role: Role, display: String, path: &Path, hash: bool) -> io::Result<Document> {
    let mut file = File::open(path)?;
    let mut hasher = hash.then(Sha256::new);
    let mut head: Vec<u8> = Vec::with_capacity(MAX_EXCERPT_BYTES + 4);
    let mut bytes: u64 = 0;
    let mut newlines: u64 = 0;
    let mut last = None;
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let read = match file.read(&mut chunk) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            outcome => outcome?,
        };
        if read == 0 {
            break;
        }
        let part = chunk.get(..read).unwrap_or_default();
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(part);
        }
        // A few bytes past the cap show whether the cut splits a character.
        let room = (MAX_EXCERPT_BYTES + 4).saturating_sub(head.len());
        head.extend_from_slice(part.get(..room.min(read)).unwrap_or_default());
        bytes += read as u64;
        newlines += part.iter().filter(|&&byte| byte == b'\n').count() as u64;
        last = part.last().copied();
    }
    let lines = newlines + u64::from(last.is_some_and(|byte| byte != b'\n'));
    let excerpt = excerpt(&head, bytes, lines);
    Ok(Document {
        role,
        path: display,
        bytes,
        lines: Some(lines),
        sha256: hasher.map(|hasher| crate::plan::hex(&hasher.finalize())),
        excerpt: Some(excerpt),
    })
}

/// The first bytes of a document of `total` bytes and `total_lines` lines, within the caps.
fn excerpt(head: &[u8], total: u64, total_lines: u64) -> Excerpt {
    let mut cut = head.len().min(MAX_EXCERPT_BYTES);
    // The line cap: the end of line MAX_EXCERPT_LINES.
    if let Some((at, _)) = head
        .get(..cut)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|(_, byte)| **byte == b'\n')
        .nth(MAX_EXCERPT_LINES - 1)
    {
        cut = at + 1;
    }
    let truncated = (cut as u64) < total;
    if truncated {
        // Cut after the last whole line in reach (unless that drops over half of what fits),
        // else before the character the cap falls in.
        match head.get(..cut).unwrap_or_default().iter().rposition(|&byte| byte == b'\n') {
            Some(at) if at + 1 >= cut / 2 => cut = at + 1,
            _ => {
                while cut > 0 && head.get(cut).is_some_and(|&byte| byte & 0b1100_0000 == 0b1000_0000) {
                    cut -= 1;
                }
            }
        }
    }
    let shown = head.get(..cut).unwrap_or_default();
    let lines = if truncated {
        shown.iter().filter(|&&byte| byte == b'\n').count() as u64
            + u64::from(shown.last().is_some_and(|&byte| byte != b'\n'))
    } else {
        total_lines
    };
    Excerpt { text: String::from_utf8_lossy(shown).into_owned(), bytes: cut as u64, lines, truncated }
}

/// The text as it may be shown: control characters other than tab and newline, and the
/// characters that reorder text on screen (bidi controls), are written as `<U+XXXX>`, so a
/// document cannot hide or overwrite what the owner reads (a carriage return, a terminal escape,
/// a right-to-left override). A `\r` before `\n` is dropped.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let hidden = matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}');
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if hidden {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A fence line opening or closing a Markdown code block: its character, length and whether
/// anything but spaces follows (a closing fence has nothing after it).
fn fence(line: &str) -> Option<(char, usize, bool)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = line.get(indent..)?;
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.len() - rest.trim_start_matches(c).len();
    if run < 3 {
        return None;
    }
    let after = rest.get(run..)?.trim();
    // An info string of a backtick fence cannot hold a backtick.
    if c == '`' && after.contains('`') {
        return None;
    }
    Some((c, run, !after.is_empty()))
}

/// Whether a line outside code would be a Markdown link reference definition (`[label]: url`),
/// which a renderer shows as nothing.
fn defines_link(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let Some(rest) = line.get(indent..).filter(|_| indent <= 3) else { return false };
    rest.strip_prefix('[')
        .and_then(|label| label.find(']').map(|end| (end, label)))
        .is_some_and(|(end, label)| end > 0 && label.get(end + 1..).is_some_and(|after| after.starts_with(':')))
}

/// A document's text as Markdown to render: a link reference definition outside code gets a
/// backslash, so it is shown rather than swallowed, and a code block the text leaves open (a cut
/// inside it) is closed, so what follows is not swallowed either.
fn shown_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut open: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        match (open, fence(line.trim_end_matches(['\n', '\r']))) {
            (None, Some((c, run, _))) => open = Some((c, run)),
            (Some((c, run)), Some((close, length, false))) if close == c && length >= run => open = None,
            (None, None) if defines_link(line) => {
                let indent = line.len() - line.trim_start_matches(' ').len();
                out.push_str(line.get(..indent).unwrap_or_default());
                out.push('\\');
                out.push_str(line.get(indent..).unwrap_or_default());
                continue;
            }
            _ => {}
        }
        out.push_str(line);
    }
    if let Some((c, run)) = open {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&c.to_string().repeat(run));
    }
    out
}

impl Presentation {
    pub fn title(&self) -> String {
        PresentText::Title { kind: kind_name(self.kind), change_id: &self.change_id }.render(Style::Plain)
    }

    /// The sha256 of the plan's bytes shown: what the owner approves (P-10).
    pub fn sha256(&self) -> Option<&str> {
        self.write.sha256.as_deref()
    }

    fn document(&self) -> Option<&Document> {
        self.documents.iter().find(|document| document.excerpt.is_some())
    }

    /// The paragraphs before the document: who asked, what approving writes, the other files.
    fn preface(&self, style: Style) -> Vec<String> {
        let kind = kind_name(self.kind);
        let mut paragraphs =
            vec![PresentText::AskedBy { asker: self.asker, change_id: &self.change_id, kind }.render(style)];
        let mut writes =
            PresentText::Writes { file: &self.write.file, section: self.write.section, sha256: self.sha256() }
                .render(style);
        if let Some(previous) = &self.write.replaces {
            writes.push(' ');
            writes.push_str(
                &PresentText::Replaces {
                    section: self.write.section,
                    by: &previous.by,
                    at: &previous.at,
                    sha256: previous.sha256.as_deref(),
                }
                .render(style),
            );
        }
        paragraphs.push(writes);
        let others: Vec<(String, u64)> = self
            .documents
            .iter()
            .filter(|document| document.excerpt.is_none())
            .map(|document| (document.path.clone(), document.bytes))
            .collect();
        if !others.is_empty() {
            paragraphs.push(PresentText::AlsoInChange { files: &others }.render(style));
        }
        paragraphs
    }

    fn heading(document: &Document, style: Style) -> String {
        PresentText::DocumentHeading {
            role: document.role.label(),
            path: &document.path,
            bytes: document.bytes,
            lines: document.lines.unwrap_or(0),
        }
        .render(style)
    }

    fn closing(document: &Document, excerpt: &Excerpt, style: Style) -> String {
        if excerpt.truncated {
            PresentText::ShownPart {
                path: &document.path,
                shown_lines: excerpt.lines,
                lines: document.lines.unwrap_or(0),
                shown_bytes: excerpt.bytes,
                bytes: document.bytes,
            }
            .render(style)
        } else {
            PresentText::ShownWhole { path: &document.path }.render(style)
        }
    }

    /// For a host that renders Markdown (DSH's question `detail`): the preface, a rule, the
    /// document's heading and its text as Markdown (`shown_markdown`), a rule and where the text
    /// ends.
    pub fn markdown(&self) -> String {
        let style = Style::Markdown;
        let mut blocks = self.preface(style);
        if let Some(document) = self.document()
            && let Some(excerpt) = &document.excerpt
        {
            blocks.push("---".to_string());
            blocks.push(Self::heading(document, style));
            if excerpt.text.is_empty() {
                blocks.push(PresentText::Empty { path: &document.path }.render(style));
            } else {
                let text = shown_markdown(&visible(&excerpt.text));
                blocks.push(text.trim_end_matches('\n').to_string());
                blocks.push("---".to_string());
                blocks.push(format!("*{}*", Self::closing(document, excerpt, style)));
            }
        }
        blocks.join("\n\n")
    }

    /// For a terminal: the title, the preface, and the document's text between two rules.
    pub fn text(&self) -> String {
        let style = Style::Plain;
        let mut out = self.title();
        out.push_str("\n\n");
        for paragraph in self.preface(style) {
            out.push_str(&paragraph);
            out.push('\n');
        }
        if let Some(document) = self.document()
            && let Some(excerpt) = &document.excerpt
        {
            out.push_str(&format!("\n──── {} ────\n", Self::heading(document, style)));
            if excerpt.text.is_empty() {
                out.push_str(&PresentText::Empty { path: &document.path }.render(style));
                out.push('\n');
            } else {
                let text = visible(&excerpt.text);
                out.push_str(&text);
                if !text.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&format!("──── {} ────\n", Self::closing(document, excerpt, style)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
