//! Every text an agent or an owner reads comes from here: the denials are part of the contract
//! (docs/decisions.md#about: the quoted texts are verbatim), so they live in one place and nowhere else.
//!
//! One module, a file per audience: the gates' denials, the approval's answers, the presentation
//! an owner reads before deciding, the setup report, the status and seal texts, the native hook.

mod approval;
mod denials;
pub mod hook;
mod presentation;
mod setup;
mod status;

pub use approval::{ApprovalText, USAGE, UsageProblem};
pub use denials::{BASH_TARGETS_NOT_A_STRING, Denial, unscannable_error};
pub use presentation::{Asker, PresentText, PromptText, Style, code_span, size, unknown_asker};
pub use setup::{HOST_CHECKS, HostCheck, SetupText};
pub use status::{NextStep, SealText};

pub const DENIAL_PREFIX: &str = "BLOCKED [approval-gates]: ";

/// Thrown by an export given a non-string where a string (or nothing) belongs.
pub fn not_a_string(argument: &str) -> String {
    format!("approval-gates: {argument} must be a string")
}

/// Thrown by an export whose core panicked (a bug).
pub const INTERNAL_ERROR: &str = "approval-gates: internal error (please report it)";
