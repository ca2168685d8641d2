//! approval.md as the gates count it (P-17): in a sealed repository a section counts only when
//! the ledger holds the same approval; elsewhere it counts as written (docs/decisions.md#artifacts).
//!
//! The ledger is read only when approval.md claims the approval asked about, so a change with no
//! approval costs what it did before.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use super::Kind;
use super::ledger::{self, Approval, Broken, Seal};
use super::record::ApprovalRecord;
use super::store::read_record;

/// What approval.md claims for one change and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub by: String,
    pub at: String,
    /// The approved plan hash, lowercase (plans only).
    pub sha256: Option<String>,
}

/// How an approval stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// approval.md claims none.
    None,
    /// The repository is not sealed: the claim counts as written.
    Open(Claim),
    /// The ledger holds the claim: it counts.
    Sealed(Claim),
    /// The repository is sealed and its ledger does not hold the claim (forged, copied from
    /// another change, restored from git or a swapped tree): it does not count. `held` is what
    /// the ledger holds for the change and kind, if anything.
    Unrecorded { claim: Claim, held: Option<Approval> },
    /// The repository's ledger does not read: no claim counts.
    Broken { claim: Claim, broken: Broken },
}

impl Standing {
    pub fn counts(&self) -> bool {
        matches!(self, Standing::Open(_) | Standing::Sealed(_))
    }

    /// The claim, whatever its standing.
    pub fn claim(&self) -> Option<&Claim> {
        match self {
            Standing::None => None,
            Standing::Open(claim) | Standing::Sealed(claim) => Some(claim),
            Standing::Unrecorded { claim, .. } | Standing::Broken { claim, .. } => Some(claim),
        }
    }
}

/// The approvals of one change, read from approval.md, judged against the ledger on demand.
pub struct Approvals {
    root: PathBuf,
    record: ApprovalRecord,
    seal: OnceCell<Seal>,
}

/// The approvals of `change_id` under `root`; approval.md is read now, the ledger when needed.
pub fn read(root: &Path, change_id: &str) -> Approvals {
    Approvals { root: root.to_path_buf(), record: read_record(root, change_id), seal: OnceCell::new() }
}

impl Approvals {
    /// With the seal already known (status and seal read it once for every change).
    pub fn with_seal(root: &Path, change_id: &str, seal: Seal) -> Approvals {
        let approvals = read(root, change_id);
        let _ = approvals.seal.set(seal);
        approvals
    }

    pub fn record(&self) -> &ApprovalRecord {
        &self.record
    }

    fn seal(&self) -> &Seal {
        self.seal.get_or_init(|| ledger::seal_of(&self.root))
    }

    /// What approval.md claims for `kind`: a design with `by` and `at`; a plan with `sha256`.
    pub fn claim(&self, kind: Kind) -> Option<Claim> {
        let field = |name: &str, key: &str| {
            self.record.section(name).and_then(|section| section.field(key)).map(str::to_string)
        };
        match kind {
            Kind::Design if self.record.design_approved() => {
                Some(Claim { by: field("design", "by")?, at: field("design", "at")?, sha256: None })
            }
            Kind::Design => None,
            Kind::Plan => {
                let sha256 = self.record.plan_sha256()?.to_ascii_lowercase();
                Some(Claim {
                    by: field("plan", "by").unwrap_or_default(),
                    at: field("plan", "at").unwrap_or_default(),
                    sha256: Some(sha256),
                })
            }
        }
    }

    /// The standing of `kind`'s claim. For a plan, `plan` is the plan it must be bound to
    /// (`docs/superpowers/plans/<name>.md`); `None` accepts the plan the ledger names.
    pub fn standing(&self, change_id: &str, kind: Kind, plan: Option<&str>) -> Standing {
        let Some(claim) = self.claim(kind) else { return Standing::None };
        let Seal::Sealed(sealed) = self.seal() else { return Standing::Open(claim) };
        let ledger = match &sealed.ledger {
            Ok(ledger) => ledger,
            Err(broken) => return Standing::Broken { claim, broken: broken.clone() },
        };
        let held = ledger.get(change_id, kind);
        if held.is_some_and(|held| holds(held, &claim, plan)) {
            Standing::Sealed(claim)
        } else {
            Standing::Unrecorded { claim, held: held.cloned() }
        }
    }

    /// Gate A and `/approve plan`'s precondition.
    pub fn design_approved(&self, change_id: &str) -> bool {
        self.standing(change_id, Kind::Design, None).counts()
    }

    /// Gate B: the approved sha256 of the change's plan when it counts for `plan`.
    pub fn plan_sha256(&self, change_id: &str, plan: &str) -> Option<String> {
        match self.standing(change_id, Kind::Plan, Some(plan)) {
            Standing::Open(claim) | Standing::Sealed(claim) => claim.sha256,
            _ => None,
        }
    }
}

/// Whether the ledger's approval `held` is the one approval.md claims (same by, at and, for a
/// plan, sha256 and plan path).
pub fn holds(held: &Approval, claim: &Claim, plan: Option<&str>) -> bool {
    if held.by != claim.by || held.at != claim.at {
        return false;
    }
    match (&held.plan, &claim.sha256) {
        (None, None) => true,
        (Some(binding), Some(sha256)) => {
            binding.sha256.eq_ignore_ascii_case(sha256) && plan.is_none_or(|plan| plan == binding.path)
        }
        _ => false,
    }
}
