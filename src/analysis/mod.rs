//! The floor every analysis (bash, PowerShell, programs, patches) stands on: what they share, and
//! nothing that knows any of them.
//!
//! - [`answer`]: the one answer every analysis gives;
//! - [`scope`] and [`persistent`]: the state a shell carries, and the store of a persistent shell;
//! - [`fs`]: the file-system questions an analysis asks, recorded so a cache can trust them;
//! - [`budget`]: deterministic work budgets, the budgeted parse, and why an analysis stopped;
//! - [`handoff`]: how one analysis hands text to another without importing it.

pub mod answer;
pub mod budget;
pub mod fs;
pub mod handoff;
pub mod persistent;
pub mod scope;

pub use budget::Unscannable;
