//! Patch tools (P-14): `apply_patch` and a patch in an MCP tool's field. Each file the patch
//! names is judged as a write; an added file's `+` lines are its visible content, an update's
//! `+` lines per hunk are fragments (as an edit's), a deletion or a rename has none.

use std::path::Path;

use super::ToolArgs;
use super::judge::{RawText, judge};
use crate::patch::{self, Strip};
use crate::paths::{self, Dialect};
use crate::texts::Denial;

/// The first of `fields` that holds a patch is the patch (else the first that holds a string);
/// its paths are relative to `cwd`: a git diff's `a/`/`b/` are stripped (`-p1`), a plain diff's
/// paths are taken as they are.
pub fn check(args: &dyn ToolArgs, fields: &[&str], cwd: &Path) -> Option<Denial> {
    let texts: Vec<String> = fields.iter().filter_map(|field| args.string(field)).collect();
    let text = texts.iter().find(|text| patch::is_patch(text)).or(texts.first())?;
    judge_patch(text, strip_of(text), cwd)
}

/// The paths the patch in the first of `fields` that holds one names, as they are written in it
/// (relative to the session directory). A patch over the parser's caps names the raw text itself,
/// so a caller judging names lexically still sees every one.
pub fn files_named(args: &dyn ToolArgs, fields: &[&str]) -> Vec<String> {
    let texts: Vec<String> = fields.iter().filter_map(|field| args.string(field)).collect();
    let Some(text) = texts.iter().find(|text| patch::is_patch(text)).or(texts.first()) else {
        return Vec::new();
    };
    match patch::files_written(text, strip_of(text)) {
        Ok(files) => files.into_iter().map(|file| file.path).collect(),
        Err(_) => text.split_whitespace().map(str::to_owned).collect(),
    }
}

/// `-p1` for a git-style diff (`diff --git`, or `+++ b/…`), `-p0` for any other.
fn strip_of(text: &str) -> Strip {
    let git_style = text.lines().any(|line| line.starts_with("diff --git ") || line.starts_with("+++ b/"));
    Strip(usize::from(git_style))
}

pub fn judge_patch(text: &str, strip: Strip, cwd: &Path) -> Option<Denial> {
    let raw = RawText { text, dialect: Dialect::Raw, over_cap: |limit| Denial::PatchTooLarge { limit } };
    judge(&patch::analyze(text, strip, cwd), &raw).denial()
}

/// Whether `target` is the plans folder itself (any case), not a file in it.
pub fn is_plans_folder(target: &Path) -> bool {
    paths::plans_root(target)
        .is_some_and(|root| target.components().count() == root.components().count() + paths::PLANS_DIR.len())
}
