//! The judge on top of every analysis: an [`Answer`] in, the first denial out. One adapter for
//! bash, PowerShell and patches, one raw-text fallback, one over-cap denial path.

use std::path::Path;

use super::{NewTexts, judge_write};
use crate::analysis::answer::{Answer, Location, Proof};
use crate::paths::{self, Dialect, Reach};
use crate::texts::Denial;

/// A call's raw text as its analysis reads it, and the denial that names a budget of that
/// analysis: what decides when the analysis stopped.
pub struct RawText<'t, Limit> {
    pub text: &'t str,
    pub dialect: Dialect,
    pub over_cap: fn(Limit) -> Denial,
}

impl<Limit> RawText<'_, Limit> {
    /// Whether the raw text names a guarded location.
    pub fn names_guarded(&self) -> bool {
        paths::names_guarded(self.text, self.dialect)
    }
}

/// What the judge made of an answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Judged {
    Denied(Denial),
    Allowed,
    /// A budget stopped the analysis and the raw text names no guarded location: allowed, though
    /// what the call does is not known (a persistent shell no longer knows where it is).
    Unread,
}

impl Judged {
    pub fn denial(self) -> Option<Denial> {
        match self {
            Judged::Denied(denial) => Some(denial),
            Judged::Allowed | Judged::Unread => None,
        }
    }
}

/// The answer's locations, each judged as a write (the first denial wins); when a budget stopped
/// the analysis, the raw text: naming a guarded location, the call is refused with the cap's
/// own text.
pub fn judge<Limit: Copy>(answer: &Answer<Limit>, raw: &RawText<Limit>) -> Judged {
    if let Some(denial) = judge_locations(&answer.locations) {
        return Judged::Denied(denial);
    }
    match answer.proof {
        Proof::Stopped { limit } if raw.names_guarded() => Judged::Denied((raw.over_cap)(limit)),
        Proof::Stopped { .. } => Judged::Unread,
        Proof::Proven | Proof::Unproven { .. } => Judged::Allowed,
    }
}

fn judge_locations(locations: &[Location]) -> Option<Denial> {
    let invisible = NewTexts::invisible();
    locations.iter().find_map(|location| {
        let shown = location.shown.as_deref().map(NewTexts::given);
        let texts = shown.as_ref().unwrap_or(&invisible);
        match location.reach {
            Reach::File => judge_write(&location.path, texts),
            Reach::Named | Reach::Tree => beneath(&location.path, location.reach, texts),
        }
    })
}

/// A write that names a directory, or a tree written there: each guarded location it reaches.
fn beneath(dir: &Path, reach: Reach, texts: &NewTexts) -> Option<Denial> {
    paths::guarded_beneath(dir, reach).iter().find_map(|target| judge_write(target, texts))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::analysis::answer::Unsure;
    use crate::test_repo::Repo;

    fn raw(text: &str) -> RawText<'_, &'static str> {
        RawText { text, dialect: Dialect::Bash, over_cap: |_| Denial::ShellStateTooLarge }
    }

    #[test]
    fn locations_are_judged_as_writes_whatever_the_proof() {
        let repo = Repo::new();
        repo.change("c");
        let approval = repo.path("openspec/changes/c/approval.md");
        let only_approve = Judged::Denied(Denial::ApprovalWrittenOnlyByApprove);
        let proven: Answer<&str> = Answer::proven([approval.clone()]);
        assert_eq!(judge(&proven, &raw("")), only_approve);
        let unproven = Answer { proof: Proof::Unproven { why: Unsure::ComputedTarget }, ..proven.clone() };
        assert_eq!(judge(&unproven, &raw("")), only_approve);
        let named = Answer {
            locations: vec![Location { path: repo.path("openspec/changes/c"), reach: Reach::Named, shown: None }],
            ..proven
        };
        assert_eq!(judge(&named, &raw("")), only_approve);
        assert_eq!(judge(&Answer::<&str>::proven([repo.path("src/a.rs")]), &raw("")), Judged::Allowed);
    }

    #[test]
    fn a_stopped_analysis_is_judged_by_its_raw_text() {
        let stopped: Answer<&str> = Answer::stopped("cap");
        assert_eq!(judge(&stopped, &raw("cat approval.md")), Judged::Denied(Denial::ShellStateTooLarge));
        assert_eq!(judge(&stopped, &raw("cat notes.md")), Judged::Unread);
        assert_eq!(judge(&stopped, &raw("cat notes.md")).denial(), None);
        let shown = Location { path: PathBuf::from("/r/src/a.rs"), reach: Reach::File, shown: Some(vec!["x".into()]) };
        let found = Answer { locations: vec![shown], ..stopped };
        assert_eq!(judge(&found, &raw("cat notes.md")), Judged::Unread);
    }
}
