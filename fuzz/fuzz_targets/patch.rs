#![no_main]
//! The patch parser: any text, no panic, bounded output, and every path it reports is one the
//! text names (after stripping), never empty.
use approval_gates::patch::{self, MAX_PATCH_FILES, Strip};
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| within_time_limit(|| {
    for strip in [Strip(0), Strip(1), Strip(3), Strip::BASENAME] {
        if let Ok(files) = patch::files_written(text, strip) {
            assert!(files.len() <= MAX_PATCH_FILES);
            for file in files {
                assert!(!file.path.trim().is_empty(), "empty path from {text:?}");
            }
        }
    }
    let _ = patch::is_patch(text);
}));
