#![no_main]
//! Spec-line extraction and change-id resolution: any text, no panic, only safe ids.
use std::path::Path;

use approval_gates::{paths, plan};
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| within_time_limit(|| {
    if let Some(id) = plan::plan_change_id(text, Path::new("/repo")) {
        assert!(paths::is_safe_segment(&id), "unsafe id {id:?}");
    }
}));
