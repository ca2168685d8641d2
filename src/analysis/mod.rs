//! What every analysis (bash, PowerShell, programs, patches) shares, beneath all of them.

pub mod answer;
pub mod persistent;
pub mod scope;
