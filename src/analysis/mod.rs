//! The layer both shells stand on.

pub mod persistent;
pub mod scope;
