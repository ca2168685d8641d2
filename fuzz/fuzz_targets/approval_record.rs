#![no_main]
//! approval.md reader and section writer: any bytes, no panic; a written section reads back.
use approval_gates::approval::record::{ApprovalRecord, render_section, replace_section};
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| within_time_limit(|| {
    let before = ApprovalRecord::parse(bytes);
    let plan = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "ab")]);
    let after = ApprovalRecord::parse(&replace_section(bytes, "plan", &plan));
    assert_eq!(after.plan_sha256(), Some("ab"));
    assert_eq!(before.section("design").is_some(), after.section("design").is_some());
}));
