//! The floor every analysis (bash, PowerShell, programs, patches) stands on: what they share, and
//! nothing that knows any of them.
//!
//! - [`answer`]: the one answer every analysis gives;
//! - [`scope`] and [`persistent`]: the state a shell carries, and the store of a persistent shell;
//! - [`fs`]: the file-system questions an analysis asks, recorded so a cache can trust them;
//! - [`budget`]: deterministic work budgets, the budgeted parse, and why an analysis stopped;
//! - [`formats`]: printf's conversions and composite formats' fields, read once for all;
//! - [`handoff`]: how one analysis hands text to another without importing it;
//! - [`values`]: one value of a word or variable, and the one wildcard matcher of both shells;
//! - [`moves`] and [`targets`]: directory changes, and the capped set of files a line writes.

pub mod answer;
pub mod budget;
pub mod formats;
pub mod fs;
pub mod handoff;
pub mod moves;
pub mod persistent;
pub mod scope;
pub mod targets;
pub mod values;

pub use budget::Unscannable;
