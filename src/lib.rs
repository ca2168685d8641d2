//! approval-gates: the gates of an agent's development loop, judged natively.
//!
//! The core is plain Rust in modules by concern; this file only converts JS values and maps
//! errors (see `binding`).

pub mod analyses;
pub mod analysis;
pub mod approval;
pub mod bash;
pub mod commands;
pub mod gates;
pub mod patch;
pub mod paths;
pub mod plan;
pub mod powershell;
pub mod programs;
pub mod setup;
pub mod status;
pub mod texts;

#[cfg(feature = "napi")]
mod binding;

#[cfg(test)]
mod architecture_tests;
#[cfg(test)]
mod test_corpus;
#[cfg(test)]
mod test_repo;
