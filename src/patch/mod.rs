//! Patch formats in one place (P-14): which files a patch writes, and the text it visibly adds.
//!
//! Two formats: the unified diff (plain `diff -u`, `git diff`/`format-patch` with their extended
//! headers `new file`, `deleted file`, `rename from/to`, `copy to`) and the `*** Begin Patch`
//! envelope of `apply_patch` (`*** Add File:`, `*** Update File:`, `*** Delete File:`,
//! `*** Move to:`). The parser never fails: text it does not recognise is skipped, so a file a
//! patch really writes is found wherever its header is well formed. Its work is bounded by
//! [`MAX_PATCH_BYTES`] and [`MAX_PATCH_FILES`].

use std::path::Path;

use crate::analysis::answer::{Answer, Location, Proof};
pub use crate::analysis::handoff::{MAX_PATCH_BYTES, Strip};
use crate::paths::{self, Reach};

/// The most files one patch may name before it is [`PatchError::TooManyFiles`].
pub const MAX_PATCH_FILES: usize = 1_024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchError {
    /// Longer than [`MAX_PATCH_BYTES`].
    TooLarge,
    /// More than [`MAX_PATCH_FILES`] files.
    TooManyFiles,
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PatchError::TooLarge => "too large",
            PatchError::TooManyFiles => "names too many files",
        })
    }
}

/// What a patch does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Created: its `+` lines are all of its content.
    Add,
    /// Changed in place: its `+` lines are fragments.
    Update,
    Delete,
    /// Removed as the source of a rename.
    MovedAway,
    /// Created as a rename's or copy's destination: its content is not in the patch.
    MovedHere,
}

/// One file a patch writes, its path as the patch names it after stripping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: String,
    pub change: Change,
    /// The text the patch visibly gives the file: for [`Change::Add`] one text (all `+` lines),
    /// for [`Change::Update`] one text per hunk, else none.
    pub texts: Vec<String>,
}

/// The files `text` writes, in order of appearance, for either format.
pub fn files_written(text: &str, strip: Strip) -> Result<Vec<Written>, PatchError> {
    if text.len() > MAX_PATCH_BYTES {
        return Err(PatchError::TooLarge);
    }
    let mut found = Vec::new();
    if text.lines().any(|line| line.trim_end() == "*** Begin Patch") {
        envelope(text, &mut found);
    }
    unified(text, strip, &mut found);
    if found.len() > MAX_PATCH_FILES {
        return Err(PatchError::TooManyFiles);
    }
    Ok(found)
}

/// What `text` writes when applied in `cwd` (absolute), as the answer every analysis gives: each
/// file absolute, with the text the patch shows for it, or the cap that stopped the parse.
pub fn analyze(text: &str, strip: Strip, cwd: &Path) -> Answer<PatchError> {
    match files_written(text, strip) {
        Ok(files) => {
            let located = files.into_iter().map(|file| Location {
                path: paths::absolute(&file.path, cwd),
                reach: Reach::File,
                shown: (!file.texts.is_empty()).then_some(file.texts),
            });
            Answer { locations: located.collect(), starts: Vec::new(), proof: Proof::Proven }
        }
        Err(limit) => Answer::stopped(limit),
    }
}

/// Whether `text` looks like a patch at all (either format): a tool field that carries one.
pub fn is_patch(text: &str) -> bool {
    text.lines()
        .any(|line| line.trim_end() == "*** Begin Patch" || line.starts_with("+++ ") || line.starts_with("diff --git "))
}

fn push(found: &mut Vec<Written>, path: &str, change: Change, texts: Vec<String>) {
    let path = path.trim();
    if !path.is_empty() && found.len() <= MAX_PATCH_FILES {
        found.push(Written { path: path.to_string(), change, texts });
    }
}

/// The `apply_patch` envelope. Lines of a file's section that start with `+` are its new text;
/// an `@@` line starts another hunk of an update.
fn envelope(text: &str, found: &mut Vec<Written>) {
    // The file being read: its path, its change, and the `+` lines of each of its hunks.
    let mut current: Option<(String, Change, Vec<Vec<&str>>)> = None;
    let mut inside = false;
    let flush = |current: &mut Option<(String, Change, Vec<Vec<&str>>)>, found: &mut Vec<Written>| {
        if let Some((path, change, hunks)) = current.take() {
            let texts = hunks.into_iter().filter(|lines| !lines.is_empty()).map(|lines| lines.join("\n")).collect();
            push(found, &path, change, texts);
        }
    };
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let header = line.trim_end();
        if header == "*** Begin Patch" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if header == "*** End Patch" {
            flush(&mut current, found);
            inside = false;
            continue;
        }
        if let Some(path) = header.strip_prefix("*** Add File:") {
            flush(&mut current, found);
            current = Some((path.trim().to_string(), Change::Add, vec![Vec::new()]));
        } else if let Some(path) = header.strip_prefix("*** Update File:") {
            flush(&mut current, found);
            current = Some((path.trim().to_string(), Change::Update, vec![Vec::new()]));
        } else if let Some(path) = header.strip_prefix("*** Delete File:") {
            flush(&mut current, found);
            push(found, path, Change::Delete, Vec::new());
        } else if let Some(path) = header.strip_prefix("*** Move to:") {
            // The updated file leaves its old path and lands, with the update applied, on the new one.
            if let Some((old, _, hunks)) = current.take() {
                push(found, &old, Change::MovedAway, Vec::new());
                current = Some((path.trim().to_string(), Change::MovedHere, hunks));
            }
        } else if let Some((_, change, hunks)) = current.as_mut() {
            if let Some(added) = line.strip_prefix('+') {
                if let Some(last) = hunks.last_mut() {
                    last.push(added);
                }
            } else if line.starts_with("@@") && *change != Change::Add && hunks.last().is_some_and(|h| !h.is_empty()) {
                hunks.push(Vec::new());
            }
        }
    }
    flush(&mut current, found);
}

/// A header path: quotes removed (git's C-style quoting, the common escapes), a trailing tab and
/// timestamp dropped, `strip` leading components removed. `None` for `/dev/null` or a path with
/// fewer components than `strip`.
fn header_path(raw: &str, strip: usize) -> Option<String> {
    let raw = raw.split('\t').next().unwrap_or(raw).trim_end();
    let path = unquote(raw);
    if path == "/dev/null" || path.is_empty() {
        return None;
    }
    if strip == Strip::BASENAME.0 {
        return path.rsplit('/').next().filter(|name| !name.is_empty()).map(str::to_string);
    }
    let mut rest = path.as_str();
    for _ in 0..strip {
        let (_, after) = rest.split_once('/')?;
        rest = after.trim_start_matches('/');
    }
    (!rest.is_empty()).then(|| rest.to_string())
}

fn unquote(raw: &str) -> String {
    let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else { return raw.to_string() };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The two paths of `diff --git a/x b/y`: split where both halves name the same file when they
/// do, else at the last ` b/`.
fn git_header_paths(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim_end();
    if rest.starts_with('"') {
        let close = rest.get(1..)?.find('"')? + 2;
        let (old, new) = rest.split_at(close);
        return Some((unquote(old), unquote(new.trim_start())));
    }
    let bytes = rest.as_bytes();
    if bytes.len() % 2 == 1 {
        let half = bytes.len() / 2;
        if bytes.get(half) == Some(&b' ')
            && let (Some(old), Some(new)) = (rest.get(..half), rest.get(half + 1..))
            && old.split_once('/').map(|(_, p)| p) == new.split_once('/').map(|(_, p)| p)
        {
            return Some((old.to_string(), new.to_string()));
        }
    }
    let at = rest.rfind(" b/").or_else(|| rest.rfind(' '))?;
    Some((rest.get(..at)?.to_string(), rest.get(at + 1..)?.to_string()))
}

/// One file section of a unified diff while its headers are read.
#[derive(Default)]
struct Section {
    git_old: Option<String>,
    git_new: Option<String>,
    old: Option<Option<String>>,
    new: Option<Option<String>>,
    created: bool,
    deleted: bool,
    rename_from: Option<String>,
    rename_to: Option<String>,
    copy_to: Option<String>,
    hunks: Vec<String>,
}

impl Section {
    fn flush(self, found: &mut Vec<Written>) {
        if let Some(to) = &self.rename_to {
            if let Some(from) = &self.rename_from {
                push(found, from, Change::MovedAway, Vec::new());
            }
            push(found, to, Change::MovedHere, Vec::new());
        }
        if let Some(to) = &self.copy_to {
            push(found, to, Change::MovedHere, Vec::new());
        }
        let new = self.new.clone().flatten();
        let old = self.old.clone().flatten();
        let added = self.created || (self.old.is_some() && old.is_none());
        let deleted = self.deleted || (self.new.is_some() && new.is_none());
        let texts: Vec<String> = self.hunks.into_iter().filter(|text| !text.is_empty()).collect();
        if added {
            let path = new.or(self.git_new);
            if let Some(path) = path {
                push(found, &path, Change::Add, vec![texts.join("\n")]);
            }
        } else if deleted {
            if let Some(path) = old.or(self.git_old) {
                push(found, &path, Change::Delete, Vec::new());
            }
        } else if let Some(path) = new.or(old) {
            // Patches apply to the new name (`+++`); GNU patch may pick the old one, so a
            // different old name is written too.
            let old_differs = self.old.clone().flatten().filter(|old| *old != path);
            push(found, &path, Change::Update, texts);
            if let Some(old) = old_differs.filter(|_| self.rename_to.is_none()) {
                push(found, &old, Change::Update, Vec::new());
            }
        } else if self.rename_to.is_none()
            && self.copy_to.is_none()
            && let Some(path) = self.git_new
        {
            // A mode change or a binary patch: the file is written, its text unseen.
            push(found, &path, Change::Update, Vec::new());
        }
    }
}

/// The counts of a hunk header `@@ -a[,b] +c[,d] @@`.
fn hunk_counts(line: &str) -> Option<(usize, usize)> {
    let body = line.strip_prefix("@@ ")?;
    let body = body.split(" @@").next()?;
    let mut parts = body.split(' ');
    let count = |part: Option<&str>, sign: char| -> Option<usize> {
        let range = part?.strip_prefix(sign)?;
        match range.split_once(',') {
            Some((_, len)) => len.parse().ok(),
            None => Some(1),
        }
    };
    Some((count(parts.next(), '-')?, count(parts.next(), '+')?))
}

fn unified(text: &str, strip: Strip, found: &mut Vec<Written>) {
    let extended = if strip == Strip::BASENAME { strip.0 } else { strip.0.saturating_sub(1) };
    let mut section: Option<Section> = None;
    let lines: Vec<&str> = text.lines().map(|line| line.strip_suffix('\r').unwrap_or(line)).collect();
    let mut at = 0;
    while let Some(&line) = lines.get(at) {
        at += 1;
        if found.len() > MAX_PATCH_FILES {
            return;
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            if let Some(done) = section.take() {
                done.flush(found);
            }
            let (old, new) = git_header_paths(rest).unzip();
            section = Some(Section {
                git_old: old.and_then(|p| header_path(&p, strip.0)),
                git_new: new.and_then(|p| header_path(&p, strip.0)),
                ..Section::default()
            });
            continue;
        }
        if let Some(rest) = line.strip_prefix("--- ")
            && let Some(next) = lines.get(at).and_then(|next| next.strip_prefix("+++ "))
        {
            // A `---` after a `+++` starts another file of a plain diff.
            let current = section.get_or_insert_with(Section::default);
            if current.new.is_some()
                && let Some(done) = section.take()
            {
                done.flush(found);
            }
            let current = section.get_or_insert_with(Section::default);
            current.old = Some(header_path(rest, strip.0));
            current.new = Some(header_path(next, strip.0));
            at += 1;
            continue;
        }
        if let Some((mut old, mut new)) = hunk_counts(line) {
            let mut added: Vec<&str> = Vec::new();
            while old > 0 || new > 0 {
                let Some(&body) = lines.get(at) else { break };
                match body.as_bytes().first() {
                    Some(b'+') => {
                        added.push(body.get(1..).unwrap_or_default());
                        new = new.saturating_sub(1);
                    }
                    Some(b'-') => old = old.saturating_sub(1),
                    Some(b' ') | None => {
                        old = old.saturating_sub(1);
                        new = new.saturating_sub(1);
                    }
                    Some(b'\\') => {}
                    Some(_) => break,
                }
                at += 1;
            }
            section.get_or_insert_with(Section::default).hunks.push(added.join("\n"));
            continue;
        }
        let Some(current) = section.as_mut() else { continue };
        if line.starts_with("new file mode") {
            current.created = true;
        } else if line.starts_with("deleted file mode") {
            current.deleted = true;
        } else if let Some(path) = line.strip_prefix("rename from ").or_else(|| line.strip_prefix("rename old ")) {
            current.rename_from = header_path(path, extended);
        } else if let Some(path) = line.strip_prefix("rename to ").or_else(|| line.strip_prefix("rename new ")) {
            current.rename_to = header_path(path, extended);
        } else if let Some(path) = line.strip_prefix("copy to ") {
            current.copy_to = header_path(path, extended);
        }
    }
    if let Some(done) = section.take() {
        done.flush(found);
    }
}

#[cfg(test)]
mod tests;
