//! The files the walk finds written: resolved the way PowerShell resolves a path, wildcards
//! matched against the guarded locations, and each location change recorded.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::Walker;
use crate::analysis::moves;
use crate::analysis::values::{Wildcards, has_wildcard, wildcard_matches};
use crate::paths;

impl Walker<'_> {
    /// Adds `text` if it is a guarded path, or a wildcard that may match approval.md; says
    /// whether it was.
    pub(super) fn add_if_guarded(&mut self, text: &str, base: &Path) -> bool {
        let guarded = resolve(text, base)
            .is_some_and(|path| paths::is_guarded(&path) || self.wildcard_approval(text, &path).is_some());
        if guarded {
            self.add(text, base, true);
        }
        guarded
    }

    /// A wildcard whose last component could match approval.md names it too.
    fn wildcard_approval(&self, text: &str, path: &Path) -> Option<PathBuf> {
        let name = basename(text);
        (has_wildcard(name) && wildcard_matches(name, paths::APPROVAL_FILE, Wildcards::PowerShell))
            .then(|| path.parent().map(|dir| dir.join(paths::APPROVAL_FILE)))
            .flatten()
    }

    /// A write of `text` (a PowerShell path) from `base`; a wildcard path writes approval.md too
    /// when its last component could match it.
    pub(super) fn add(&mut self, text: &str, base: &Path, wildcard: bool) {
        let Some(path) = resolve(text, base) else { return };
        if wildcard && let Some(approval) = self.wildcard_approval(text, &path) {
            self.add_absolute(approval);
        }
        // A wildcard path may match a guarded folder (`docs/*/plans/x.md`), from where the walk is:
        // that file too.
        if wildcard && has_wildcard(text) {
            for spelled in paths::guarded_glob_matches(&paths::glob_from(base, &paths::from_windows(text))) {
                self.add_absolute(paths::absolute(spelled, base));
            }
        }
        // A path computed at run time (`"{0}\approval.md" -f $d`) that names a guarded location
        // is taken to reach it; any such path, or a relative one from a location the walk could
        // not compute (`Set-Location $d`), may be every guarded location the call names.
        let relative = !paths::from_windows(text).starts_with('/');
        if computed(text) || (relative && self.computed_location(base)) {
            self.uncomputed(base);
        }
        if computed(text)
            && !paths::is_guarded(&path)
            && let Some(named) = paths::guarded_named(text, paths::Dialect::PowerShell).and_then(|name| name.location())
        {
            self.add_absolute(paths::absolute(named, base));
        }
        self.add_absolute(path);
    }

    /// Did the walk move to `base` through a location it could not compute (`Set-Location $d`)?
    /// Only what it added to where the call started counts (that folder may hold `$` or `(`).
    fn computed_location(&self, base: &Path) -> bool {
        let added = base.strip_prefix(&self.start_base).unwrap_or(base);
        computed(&added.to_string_lossy())
            || self.uncomputed_locations.iter().any(|location| base.starts_with(location))
    }

    /// A write whose target the walk could not compute (P-18): it may be any guarded location the
    /// call names, in any spelling [`paths::everything_named`] sees.
    pub(super) fn uncomputed(&mut self, base: &Path) {
        for location in self.named_by_call().iter() {
            self.add_absolute(paths::absolute(location, base));
        }
    }

    /// Every guarded location the call names, in any spelling [`paths::everything_named`] sees.
    pub(super) fn named_by_call(&self) -> Rc<[PathBuf]> {
        let named = self
            .everything_named
            .get_or_init(|| paths::everything_named(self.command, paths::Dialect::PowerShell).into());
        Rc::clone(named)
    }

    /// Directories a command made, as typed from `base`; one the walk cannot compute may be any.
    pub(super) fn made<'t>(&mut self, dirs: impl IntoIterator<Item = &'t str>, base: &Path) {
        for dir in dirs {
            match resolve(dir, base) {
                Some(path) if !computed(dir) && self.made_dirs.len() < super::MAX_MADE_DIRS => {
                    self.made_dirs.push(path)
                }
                _ => self.dirs_unseen = true,
            }
        }
    }

    /// A program ran with `words`: `mkdir`/`md` (PowerShell's function over `New-Item -ItemType
    /// Directory`) makes the directories it names; the programs PowerShell also runs as cmdlets
    /// (`cp`, `mv`) make only what they are judged to write; any other may make any directory.
    pub(super) fn program_ran(&mut self, program: &str, words: &[String], base: &Path) {
        match program {
            "mkdir" | "md" => self.made(words.iter().map(String::as_str).filter(|word| !word.starts_with('-')), base),
            _ if super::cmdlet::NATIVE_ON_UNIX.contains(&program) => {}
            _ => self.dirs_unseen = true,
        }
    }

    /// Whether `destination` may be a directory by the time a command here runs though the disk
    /// says it is not: its text is computed, the walk cannot tell what ran before it (a block, a
    /// nested script, a call that is not the whole tool call), or an earlier command made it,
    /// wrote beneath it, or may have made any directory.
    pub(super) fn may_be_made_dir(&self, destination: &str, base: &Path, walk: &super::Walk) -> bool {
        if !self.whole_call || walk.nesting > 0 || self.conditional > 0 || self.dirs_unseen || computed(destination) {
            return true;
        }
        let Some(dir) = resolve(destination, base) else { return true };
        self.made_dirs.iter().chain(self.targets.since(0)).any(|made| made.starts_with(&dir))
    }

    /// A location change ([`moves::from_every_directory`]).
    pub(super) fn moved(&mut self, from: &Path, to: &Path) {
        moves::record_move(&mut self.moves, from, to, self.targets.len());
    }

    pub(super) fn add_absolute(&mut self, path: PathBuf) {
        self.targets.add(path);
    }
}

/// Is `text` a path only known at run time: a variable, a subexpression, an expression the
/// walk kept as its source (a component that starts with `(`)?
fn computed(text: &str) -> bool {
    text.contains('$') || text.split(['/', '\\']).any(|component| component.trim_start().starts_with('('))
}

/// A provider-qualified path (`FileSystem::C:\x`, `Microsoft.PowerShell.Core\FileSystem::/x`)
/// without its provider.
fn without_provider(text: &str) -> &str {
    match text.split_once("::") {
        Some((provider, rest)) if provider.to_ascii_lowercase().ends_with("filesystem") => rest,
        _ => text,
    }
}

/// Where `Set-Location`/`Push-Location -Path` (wildcards) goes: the guarded folder a wildcard
/// could match from where the walk is, if any (as bash's `cd pl*`; the walk also judges what
/// follows where it came from), else where the text lands.
pub(super) fn location(text: &str, base: &Path, wildcard: bool) -> Option<PathBuf> {
    if wildcard
        && has_wildcard(text)
        && let Some(guarded) =
            paths::guarded_glob_matches(&paths::glob_from(base, &paths::from_windows(text))).into_iter().next()
    {
        return Some(paths::absolute(guarded, base));
    }
    resolve(text, base)
}

/// Where `text`, typed as a PowerShell path, lands; `None` for the null device.
pub(super) fn resolve(text: &str, base: &Path) -> Option<PathBuf> {
    let text = without_provider(text.trim());
    let lower = text.to_ascii_lowercase();
    if matches!(lower.as_str(), "" | "nul" | "nul:" | "$null" | "/dev/null" | "/dev/stdout" | "/dev/stderr") {
        return None;
    }
    Some(paths::absolute(paths::from_windows(text), base))
}

/// The last component of a path as typed (`\` or `/`).
pub(super) fn basename(text: &str) -> &str {
    let trimmed = text.trim_end_matches(['/', '\\']);
    trimmed.rsplit(['/', '\\']).next().unwrap_or(trimmed)
}

pub(super) fn parent(text: &str) -> &str {
    let trimmed = text.trim_end_matches(['/', '\\']);
    match trimmed.rfind(['/', '\\']) {
        Some(0) => "/",
        Some(at) => trimmed.get(..at).unwrap_or_default(),
        None => ".",
    }
}

pub(super) fn joined(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches(['/', '\\']))
}
