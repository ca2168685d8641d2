//! The owner's `/approve` typed in a host's own prompt (docs/decisions.md#p-17: an owner channel in a host
//! with a prompt hook the model cannot trigger, Claude Code's `UserPromptExpansion` on a command
//! the model may not invoke). Host-neutral: the host's hook hands over the typed line and the
//! session directory, and shows the owner the text this returns.
//!
//! Two typed lines, the same preconditions and confirmation as `/approve` in DSH (docs/decisions.md#approve):
//! `/approve <id> design|plan` shows what would be approved (the presentation every channel
//! shares: who asked, what is written, the design's or the plan's text and sha256) and the line
//! that confirms it, `/approve <id> <kind> <code>`, with a code drawn for this showing and kept
//! outside every workspace. Only that line approves, once, and only while the plan is the one
//! shown (P-10). Anything else typed after `/approve` approves nothing.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::Kind;
use super::present::{self, kind_name};
use crate::paths;
use crate::plan;
use crate::texts::{ApprovalText, Asker, PromptText};

/// The command word the owner types.
pub const COMMAND: &str = "/approve";
/// Hex digits of a confirmation code.
const CODE_DIGITS: usize = 8;
/// The first line of a pending confirmation's file.
const PENDING_HEADER: &str = "approval-gates pending confirmation v1";
/// A pending file longer than this is not one of ours.
const MAX_PENDING_BYTES: u64 = 4096;

/// What the owner typed, read whole: nothing may come before `/approve` or after its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `/approve <id> <kind>`: show what would be approved and how to confirm it.
    Show { change_id: String, kind: String },
    /// `/approve <id> <kind> <code>`: approve what was shown with `code`.
    Confirm { change_id: String, kind: String, code: String },
}

impl Request {
    /// The request a typed prompt is, or `None` for anything else: another command, more words,
    /// a second line. Blanks around the words and between them are allowed.
    pub fn parse(prompt: &str) -> Option<Request> {
        let line = prompt.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\r' || c == '\n');
        if line.contains(['\n', '\r']) {
            return None;
        }
        let mut words = line.split([' ', '\t']).filter(|word| !word.is_empty());
        if words.next()? != COMMAND {
            return None;
        }
        let (change_id, kind) = (words.next()?.to_string(), words.next()?.to_string());
        match (words.next(), words.next()) {
            (None, _) => Some(Request::Show { change_id, kind }),
            (Some(code), None) if is_code(code) => {
                Some(Request::Confirm { change_id, kind, code: code.to_ascii_lowercase() })
            }
            _ => None,
        }
    }
}

fn is_code(word: &str) -> bool {
    word.len() == CODE_DIGITS && word.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// What the hook shows the owner; `approved` only when approval.md (and the ledger) now hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub approved: bool,
    pub text: String,
}

impl Answer {
    fn refused(text: impl ToString) -> Self {
        Answer { approved: false, text: text.to_string() }
    }
}

/// The repository a session in `cwd` works on: the nearest directory at or above `cwd` with an
/// `openspec/changes/` folder, else `cwd` itself (whose preconditions then say what is missing).
pub fn repository_root(cwd: &Path) -> PathBuf {
    let cwd = paths::normalize(cwd);
    cwd.ancestors()
        .find(|dir| dir.join(paths::CHANGES_DIR.join("/")).is_dir())
        .map_or_else(|| cwd.clone(), Path::to_path_buf)
}

/// Answers the owner's typed `prompt` in a session at `cwd`. `pending_dir` keeps the codes of
/// showings not yet confirmed; it lies outside every workspace (next to the ledger).
pub fn answer(prompt: &str, cwd: &Path, pending_dir: &Path) -> Answer {
    let Some(request) = Request::parse(prompt) else {
        return Answer::refused(PromptText::Usage);
    };
    let root = repository_root(cwd);
    match request {
        Request::Show { change_id, kind } => show(&change_id, &kind, &root, pending_dir),
        Request::Confirm { change_id, kind, code } => confirm(&change_id, &kind, &code, &root, pending_dir),
    }
}

fn show(change_id: &str, kind: &str, root: &Path, pending_dir: &Path) -> Answer {
    let (ready, presentation) = match present::prepare(change_id, kind, Asker::Prompt, root) {
        Ok(prepared) => prepared,
        Err(refusal) => return Answer::refused(refusal),
    };
    let kind = kind_name(ready.kind);
    let code = random_code();
    let pending = Pending {
        root: root.to_path_buf(),
        change_id: ready.change_id.clone(),
        kind: kind.to_string(),
        code: code.clone(),
        sha256: presentation.sha256().map(str::to_string),
    };
    if let Err(error) = pending.store(pending_dir) {
        return Answer::refused(PromptText::PendingUnwritable {
            path: pending_dir.display().to_string(),
            reason: error.to_string(),
        });
    }
    let command = format!("{COMMAND} {} {kind} {code}", ready.change_id);
    let mut text = presentation.text();
    text.push('\n');
    text.push_str(&PromptText::HowToConfirm { command: &command, plan: ready.kind == Kind::Plan }.to_string());
    Answer::refused(text)
}

fn confirm(change_id: &str, kind: &str, code: &str, root: &Path, pending_dir: &Path) -> Answer {
    // Arguments are checked as `/approve` checks them before any pending file is named.
    if let Err(refusal) = super::check(change_id, kind, root).map(|_| ())
        && matches!(refusal, ApprovalText::Usage { .. })
    {
        return Answer::refused(refusal);
    }
    let Some(kind) = Kind::parse(kind).map(kind_name) else {
        return Answer::refused(PromptText::Usage);
    };
    let path = Pending::path(pending_dir, root, change_id, kind);
    let shown = Pending::load(&path).filter(|pending| {
        pending.root == root && pending.change_id == change_id && pending.kind == kind && pending.code == code
    });
    let Some(shown) = shown else {
        return Answer::refused(PromptText::UnknownCode { change_id, kind });
    };
    // A code works once, whatever the write decides; and one that cannot be used up (a hook run
    // inside a sandbox, where the state folder is read-only) approves nothing.
    if let Err(error) = fs::remove_file(&path) {
        return Answer::refused(PromptText::PendingUnwritable {
            path: path.display().to_string(),
            reason: error.to_string(),
        });
    }
    let outcome = super::write(change_id, kind, true, root, shown.sha256.as_deref());
    Answer { approved: outcome.approved, text: outcome.text() }
}

/// A showing waiting for its confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    root: PathBuf,
    change_id: String,
    kind: String,
    code: String,
    /// The plan's sha256 shown (a plan approval).
    sha256: Option<String>,
}

impl Pending {
    /// One file per repository, change and kind: a new showing replaces the code of the last.
    fn path(dir: &Path, root: &Path, change_id: &str, kind: &str) -> PathBuf {
        let key = format!("{}\0{change_id}\0{kind}", root.display());
        let digest = plan::sha256_hex(key.as_bytes());
        dir.join(format!("{}.pending", digest.get(..32).unwrap_or(&digest)))
    }

    fn render(&self) -> String {
        let mut text = format!(
            "{PENDING_HEADER}\nroot: {}\nchange: {}\nkind: {}\ncode: {}\n",
            self.root.display(),
            self.change_id,
            self.kind,
            self.code
        );
        if let Some(sha256) = &self.sha256 {
            text.push_str(&format!("sha256: {sha256}\n"));
        }
        text
    }

    /// Parsed tolerantly; a file that is not a whole pending record of ours is none.
    fn parse(text: &str) -> Option<Pending> {
        let mut lines = text.lines();
        if lines.next()? != PENDING_HEADER {
            return None;
        }
        let (mut root, mut change_id, mut kind, mut code, mut sha256) = (None, None, None, None, None);
        for line in lines {
            let Some((key, value)) = line.split_once(": ") else { continue };
            let slot = match key {
                "root" => &mut root,
                "change" => &mut change_id,
                "kind" => &mut kind,
                "code" => &mut code,
                "sha256" => &mut sha256,
                _ => continue,
            };
            if slot.replace(value.to_string()).is_some() {
                return None;
            }
        }
        Some(Pending { root: PathBuf::from(root?), change_id: change_id?, kind: kind?, code: code?, sha256 })
    }

    fn load(path: &Path) -> Option<Pending> {
        let file = File::open(path).ok()?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut text = String::new();
        file.take(MAX_PENDING_BYTES).read_to_string(&mut text).ok()?;
        Pending::parse(&text)
    }

    /// Written whole (a temporary file renamed into place), readable by the owner only.
    fn store(&self, dir: &Path) -> io::Result<()> {
        create_private_dir(dir)?;
        let target = Pending::path(dir, &self.root, &self.change_id, &self.kind);
        let temp = target.with_extension(format!("{}.tmp", std::process::id()));
        let written = private_file(&temp).and_then(|mut file| {
            file.write_all(self.render().as_bytes())?;
            file.sync_all()
        });
        let result = written.and_then(|()| fs::rename(&temp, &target));
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        }
        result
    }
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

#[cfg(unix)]
fn private_file(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

/// A code no one could have known before it was shown: from the system's random source, else
/// from the randomly keyed hasher the standard library seeds from it.
fn random_code() -> String {
    let mut bytes = [0u8; CODE_DIGITS / 2];
    let from_system = File::open("/dev/urandom").and_then(|mut source| source.read_exact(&mut bytes)).is_ok();
    if !from_system {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher
            .write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        bytes.copy_from_slice(hasher.finish().to_le_bytes().get(..CODE_DIGITS / 2).unwrap_or(&[0; CODE_DIGITS / 2]));
    }
    plan::hex(&bytes)
}

#[cfg(test)]
mod tests;
