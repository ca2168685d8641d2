//! The ledger of one repository as text: a reader that takes nothing on trust and a writer whose
//! output it reads back exactly.
//!
//! ```text
//! # approval-gates ledger: the approvals the owner gave in one repository.
//! approval-gates ledger 1
//! root /home/me/my%20repo
//! sealed 2026-10-25T09:00:00Z
//! design feat owner 2026-10-25T10:00:00Z
//! plan feat owner 2026-10-25T11:30:00Z docs/superpowers/plans/p.md <sha256>
//! ```
//!
//! One line per fact, fields separated by blanks, every field percent-encoded outside a small set
//! of plain characters (so a root or a hand-written `by:` with blanks or newlines stays one field).
//! Blank lines, `#` comments and lines of a kind this version does not know are skipped; a line of
//! a known kind that does not read, a second header or root, a root other than the repository's,
//! or anything over the caps makes the whole ledger unreadable: nothing in it counts.

use std::fmt;
use std::path::Path;

use crate::approval::Kind;
use crate::paths;

/// The first line that is not a comment.
pub const HEADER: &str = "approval-gates ledger 1";
const HEADER_STEM: &str = "approval-gates ledger ";

/// The caps of one repository's ledger: its bytes and its approvals (one per change and kind).
/// The writer never goes past them (see [`super::store`]); a file over them is not read.
pub const MAX_BYTES: usize = 1 << 20;
pub const MAX_APPROVALS: usize = 4096;

const COMMENT: &str = "\
# approval-gates ledger: the approvals the owner gave in one repository.
# Written only by approval-gates (/approve, request_approval, approval-gates approve and seal).
# Do not edit it: if it does not read back, no approval counts in this repository.
";

/// A plan approval's binding: the plan's path under the root and the sha256 of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanBinding {
    /// `docs/superpowers/plans/<name>.md`, with `/`.
    pub path: String,
    /// 64 lowercase hex digits.
    pub sha256: String,
}

/// One approval the owner gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    pub change_id: String,
    pub kind: Kind,
    pub by: String,
    pub at: String,
    /// `Some` exactly for a plan approval.
    pub plan: Option<PlanBinding>,
}

/// The ledger of one repository: its canonical root, when it was sealed, and the latest approval
/// of each change and kind, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ledger {
    root: Vec<u8>,
    sealed_at: Option<String>,
    approvals: Vec<Approval>,
}

/// Why a ledger's text is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    TooLarge {
        bytes: usize,
    },
    TooManyApprovals,
    NoHeader,
    /// A header of another version, as written.
    OtherVersion {
        header: String,
    },
    NoRoot,
    /// The root the ledger names, lossily decoded.
    OtherRoot {
        root: String,
    },
    /// A line of a known kind that does not read: its number (1-based) and why.
    BadLine {
        line: usize,
        reason: &'static str,
    },
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::TooLarge { bytes } => write!(f, "it is {bytes} bytes, over the cap of {MAX_BYTES}"),
            Unreadable::TooManyApprovals => write!(f, "it holds over {MAX_APPROVALS} approvals"),
            Unreadable::NoHeader => write!(f, "it does not start with the line {HEADER:?}"),
            Unreadable::OtherVersion { header } => {
                write!(f, "it is {header:?}, a version this approval-gates does not read")
            }
            Unreadable::NoRoot => f.write_str("it names no repository root"),
            Unreadable::OtherRoot { root } => write!(f, "it is the ledger of another repository ({root})"),
            Unreadable::BadLine { line, reason } => write!(f, "line {line} {reason}"),
        }
    }
}

impl Ledger {
    /// An empty ledger of `root` (canonical), sealed at `sealed_at`.
    pub fn new(root: &Path, sealed_at: &str) -> Ledger {
        Ledger { root: root_bytes(root), sealed_at: Some(sealed_at.to_string()), approvals: Vec::new() }
    }

    /// The ledger of a repository that has none of its own (a directory above it is sealed).
    pub fn empty(root: &Path) -> Ledger {
        Ledger { root: root_bytes(root), sealed_at: None, approvals: Vec::new() }
    }

    pub fn sealed_at(&self) -> Option<&str> {
        self.sealed_at.as_deref()
    }

    /// The latest approval of `change_id` and `kind`.
    pub fn get(&self, change_id: &str, kind: Kind) -> Option<&Approval> {
        self.approvals.iter().rev().find(|a| a.kind == kind && a.change_id == change_id)
    }

    pub fn approvals(&self) -> &[Approval] {
        &self.approvals
    }

    /// Records `approval` as the latest of its change and kind (an earlier one is replaced).
    pub fn put(&mut self, approval: Approval) {
        self.approvals.retain(|a| !(a.kind == approval.kind && a.change_id == approval.change_id));
        self.approvals.push(approval);
    }

    /// Keeps the approvals `keep` says yes to.
    pub fn retain(&mut self, keep: impl FnMut(&Approval) -> bool) {
        self.approvals.retain(keep);
    }

    /// Reads `bytes` as the ledger of `root` (canonical).
    pub fn parse(bytes: &[u8], root: &Path) -> Result<Ledger, Unreadable> {
        if bytes.len() > MAX_BYTES {
            return Err(Unreadable::TooLarge { bytes: bytes.len() });
        }
        let mut header = false;
        let mut found_root: Option<Vec<u8>> = None;
        let mut ledger = Ledger { root: Vec::new(), sealed_at: None, approvals: Vec::new() };
        for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let line = index + 1;
            let bad = |reason| Unreadable::BadLine { line, reason };
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let Ok(text) = std::str::from_utf8(raw) else { return Err(bad("is not text")) };
            let trimmed = text.trim_matches([' ', '\t']);
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !header {
                if trimmed == HEADER {
                    header = true;
                    continue;
                }
                return Err(match trimmed.strip_prefix(HEADER_STEM) {
                    Some(_) => Unreadable::OtherVersion { header: trimmed.chars().take(80).collect() },
                    None => Unreadable::NoHeader,
                });
            }
            let fields: Vec<&str> = trimmed.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
            let decoded = |at: usize| fields.get(at).and_then(|field| decode(field));
            let text_field = |at: usize| decoded(at).and_then(|bytes| String::from_utf8(bytes).ok());
            match fields.first().copied() {
                Some("approval-gates") => return Err(bad("repeats the header")),
                Some("root") => {
                    if found_root.is_some() {
                        return Err(bad("names a second root"));
                    }
                    let (Some(value), 2) = (decoded(1), fields.len()) else {
                        return Err(bad("is not `root <path>`"));
                    };
                    found_root = Some(value);
                }
                Some("sealed") => {
                    let (Some(at), 2) = (text_field(1), fields.len()) else {
                        return Err(bad("is not `sealed <time>`"));
                    };
                    if ledger.sealed_at.replace(at).is_some() {
                        return Err(bad("seals the repository a second time"));
                    }
                }
                Some("design") => {
                    let (Some(change_id), Some(by), Some(at), 4) =
                        (text_field(1), text_field(2), text_field(3), fields.len())
                    else {
                        return Err(bad("is not `design <change> <by> <at>`"));
                    };
                    let approval = Approval { change_id, kind: Kind::Design, by, at, plan: None };
                    check_approval(&approval).map_err(bad)?;
                    ledger.put_read(approval)?;
                }
                Some("plan") => {
                    let (Some(change_id), Some(by), Some(at), Some(path), Some(sha256), 6) =
                        (text_field(1), text_field(2), text_field(3), text_field(4), text_field(5), fields.len())
                    else {
                        return Err(bad("is not `plan <change> <by> <at> <plan> <sha256>`"));
                    };
                    let plan = Some(PlanBinding { path, sha256 });
                    let approval = Approval { change_id, kind: Kind::Plan, by, at, plan };
                    check_approval(&approval).map_err(bad)?;
                    ledger.put_read(approval)?;
                }
                // A kind of line a later version may write: it approves nothing, so it is skipped.
                Some(word) if word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => {}
                _ => return Err(bad("is not a ledger line")),
            }
        }
        if !header {
            return Err(Unreadable::NoHeader);
        }
        let Some(found_root) = found_root else { return Err(Unreadable::NoRoot) };
        if found_root != root_bytes(root) {
            return Err(Unreadable::OtherRoot {
                root: String::from_utf8_lossy(&found_root).chars().take(400).collect(),
            });
        }
        ledger.root = found_root;
        Ok(ledger)
    }

    /// An approval read from the file: the last line of a change and kind wins, as the writer
    /// would have left it.
    fn put_read(&mut self, approval: Approval) -> Result<(), Unreadable> {
        self.put(approval);
        if self.approvals.len() > MAX_APPROVALS { Err(Unreadable::TooManyApprovals) } else { Ok(()) }
    }

    /// The file's text; [`Ledger::parse`] reads it back as this ledger.
    pub fn render(&self) -> String {
        let mut text = String::from(COMMENT);
        text.push_str(HEADER);
        text.push('\n');
        text.push_str(&format!("root {}\n", encode(&self.root)));
        if let Some(at) = &self.sealed_at {
            text.push_str(&format!("sealed {}\n", encode(at.as_bytes())));
        }
        for approval in &self.approvals {
            let [change_id, by, at] = [&approval.change_id, &approval.by, &approval.at].map(|v| encode(v.as_bytes()));
            match &approval.plan {
                None => text.push_str(&format!("design {change_id} {by} {at}\n")),
                Some(plan) => text.push_str(&format!(
                    "plan {change_id} {by} {at} {} {}\n",
                    encode(plan.path.as_bytes()),
                    encode(plan.sha256.as_bytes())
                )),
            }
        }
        text
    }
}

/// What every approval must be, read or written: a safe change id, non-empty `by` and `at`, and
/// for a plan a plan path in the plans folder and a sha256.
pub fn check_approval(approval: &Approval) -> Result<(), &'static str> {
    if !paths::is_safe_segment(&approval.change_id) {
        return Err("names an unsafe change id");
    }
    if approval.by.is_empty() || approval.at.is_empty() {
        return Err("has an empty by or at");
    }
    match (&approval.plan, approval.kind) {
        (None, Kind::Design) => Ok(()),
        (Some(plan), Kind::Plan) => {
            let name = plan.path.strip_prefix(&format!("{}/", paths::PLANS_DIR.join("/")));
            if !name.and_then(|name| name.strip_suffix(".md")).is_some_and(paths::is_safe_segment) {
                return Err("names a plan outside docs/superpowers/plans/");
            }
            let hex = plan.sha256.len() == 64 && plan.sha256.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if hex { Ok(()) } else { Err("has a sha256 that is not 64 lowercase hex digits") }
        }
        _ => Err("mixes a design and a plan"),
    }
}

/// The bytes a root is recorded and compared by.
fn root_bytes(root: &Path) -> Vec<u8> {
    root.as_os_str().as_encoded_bytes().to_vec()
}

/// Bytes kept as they are in a field; everything else is `%XX`.
fn plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~/:+@,=".contains(&byte)
}

pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &byte in bytes {
        if plain(byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A field back to its bytes; `None` when it holds a byte the writer would have encoded, or a
/// broken escape.
fn decode(field: &str) -> Option<Vec<u8>> {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'%' => {
                let hex = field.get(at + 1..at + 3)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                out.push(u8::from_str_radix(hex, 16).ok()?);
                at += 3;
            }
            byte if plain(byte) => {
                out.push(byte);
                at += 1;
            }
            _ => return None,
        }
    }
    Some(out)
}
