//! The layer both shells stand on.

pub mod scope;
