//! The one answer every analysis gives about a call: the locations it could write, how each is
//! reached, and whether the analysis is sure. The gates judge this answer and nothing else.

use std::path::PathBuf;

/// How far a write under a directory may reach (P-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The path itself and nothing beneath it: a file the call names as what it writes.
    File,
    /// A command that names the directory (an unknown command's argument): the guarded locations
    /// the name itself shows; a partial folder (`docs/superpowers`) only when the rest exists.
    Named,
    /// A whole tree written into it (recursive copy, sync, extract, checkout from a revision):
    /// a partial folder always, and a directory that holds a guarded folder on disk (a
    /// repository root).
    Tree,
}

/// What an analysis found a call could write. `Limit` is the analysis's own account of a budget
/// that stopped it (its caps are its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer<Limit> {
    /// In the order the call writes them.
    pub locations: Vec<Location>,
    /// Command lines the call starts, for the analysis of the shell that runs them.
    pub starts: Vec<String>,
    pub proof: Proof<Limit>,
}

/// One place a call could write (absolute, lexically normalized, or relative to the directory the
/// analysis was given when it cannot know more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub reach: Reach,
    /// The text written there as the call shows it (a patch's added lines); `None` when the call
    /// does not show it.
    pub shown: Option<Vec<String>>,
}

impl Location {
    /// The file at `path`, with text the call does not show.
    pub fn file(path: PathBuf) -> Location {
        Location { path, reach: Reach::File, shown: None }
    }

    /// A tree written into the directory at `path` (a recursive copy, an archive extracted).
    pub fn tree(path: PathBuf) -> Location {
        Location { path, reach: Reach::Tree, shown: None }
    }
}

/// How sure the analysis is of [`Answer::locations`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof<Limit> {
    /// Every write of the call is among the locations.
    Proven,
    /// The call may write elsewhere too; the locations are what it names.
    Unproven { why: Unsure },
    /// A work budget stopped the analysis: the locations are what it read before (or what the
    /// raw text names), and the call's raw text decides.
    Stopped { limit: Limit },
}

/// Why an analysis that read the whole call is not sure of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsure {
    /// A write or a process whose target is computed at run time (`eval`, a joined path).
    ComputedTarget,
    /// The program's own text could not be read (a missing, oversized or binary script file).
    UnreadableProgram,
    /// It may load code from where no analysis reads (a module search path given it).
    UnseenCode,
}

impl<Limit> Answer<Limit> {
    /// Every file in `paths` written, and nothing else.
    pub fn proven(paths: impl IntoIterator<Item = PathBuf>) -> Self {
        Answer { locations: paths.into_iter().map(Location::file).collect(), starts: Vec::new(), proof: Proof::Proven }
    }

    /// Stopped by `limit` before anything was known.
    pub fn stopped(limit: Limit) -> Self {
        Answer { locations: Vec::new(), starts: Vec::new(), proof: Proof::Stopped { limit } }
    }

    /// A result of an analysis that either found `paths` or stopped on a limit.
    pub fn of(result: Result<Vec<PathBuf>, Limit>) -> Self {
        match result {
            Ok(paths) => Answer::proven(paths),
            Err(limit) => Answer::stopped(limit),
        }
    }

    /// The budget that stopped the analysis, if one did.
    pub fn limit(&self) -> Option<&Limit> {
        match &self.proof {
            Proof::Stopped { limit } => Some(limit),
            Proof::Proven | Proof::Unproven { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_maps_to_a_proven_or_stopped_answer() {
        let found: Answer<&str> = Answer::of(Ok(vec![PathBuf::from("/r/a.md")]));
        assert_eq!(found.proof, Proof::Proven);
        assert_eq!(found.locations, vec![Location { path: PathBuf::from("/r/a.md"), reach: Reach::File, shown: None }]);
        assert_eq!(found.limit(), None);
        let stopped: Answer<&str> = Answer::of(Err("too large"));
        assert_eq!(stopped.proof, Proof::Stopped { limit: "too large" });
        assert!(stopped.locations.is_empty());
        assert_eq!(stopped.limit(), Some(&"too large"));
    }
}
