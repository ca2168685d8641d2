#![no_main]
//! The approval ledger's reader: any bytes, no panic; what it reads is valid and reads back as
//! written; a copy torn anywhere holds no approval the whole one does not, but for the last
//! line's final field cut short.
use std::path::Path;

use approval_gates::approval::ledger::Ledger;
use approval_gates::approval::ledger::format::check_approval;
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| within_time_limit(|| {
    let root = Path::new("/home/me/repo");
    let Ok(ledger) = Ledger::parse(bytes, root) else { return };
    for approval in ledger.approvals() {
        assert_eq!(check_approval(approval), Ok(()), "{approval:?}");
    }
    let text = ledger.render();
    assert_eq!(Ledger::parse(text.as_bytes(), root).as_ref(), Ok(&ledger));
    assert!(Ledger::parse(text.as_bytes(), Path::new("/home/me/other")).is_err());
    for cut in (0..text.len()).step_by(7) {
        let Ok(torn) = Ledger::parse(&text.as_bytes()[..cut], root) else { continue };
        let last = torn.approvals().len().saturating_sub(1);
        for (index, approval) in torn.approvals().iter().enumerate() {
            let whole = ledger.get(&approval.change_id, approval.kind);
            let same = whole == Some(approval);
            let cut_short = index == last
                && whole.is_some_and(|w| w.plan.is_none() && w.at.starts_with(&approval.at) && w.at != approval.at);
            assert!(same || cut_short, "{approval:?} torn at {cut}");
        }
    }
}));
