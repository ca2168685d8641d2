//! Any wrapping of the CLI's `approve`, as an agent would spell it, still writes approval.md
//! (P-11): the command table's wrappers and runners, through the whole bash analysis.

use std::path::Path;

use proptest::prelude::*;

use crate::analyses::bash_write_targets as write_targets;
use crate::paths;

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A wrapper around `inner`: the command it runs, as an agent would spell it.
fn wrap(wrapper: usize, inner: &str) -> String {
    match wrapper {
        0 => format!("script -qec {} /dev/null", quote(inner)),
        1 => format!("bash -c {}", quote(inner)),
        2 => format!("ssh -t localhost {}", quote(inner)),
        3 => format!("expect -c {}", quote(&format!("spawn {inner}; send yes\\r; interact"))),
        4 => format!("tmux send-keys -t s {} Enter", quote(inner)),
        5 => format!("timeout 60 {inner}"),
        6 => format!("sudo -u owner {inner}"),
        7 => format!("env -i PATH=/bin {inner}"),
        8 => format!("python3 -c {}", quote(&format!("import os; os.system({inner:?})"))),
        9 => format!("node -e {}", quote(&format!("require('child_process').execSync({inner:?})"))),
        10 => format!("watch -n1 {}", quote(inner)),
        11 => format!("unbuffer {inner}"),
        12 => format!("socat - EXEC:{},pty", quote(inner)),
        _ => format!("nohup {inner} &"),
    }
}

const APPROVALS: [&str; 4] = [
    "approval-gates approve c plan",
    "npx approval-gates approve c design",
    "./node_modules/.bin/approval-gates approve c plan",
    "pnpm dlx approval-gates@latest approve c plan",
];

proptest! {
    #[test]
    fn any_wrapping_of_an_approval_still_writes_approval_md(
        inner in 0..APPROVALS.len(),
        wrappers in prop::collection::vec(0usize..14, 1..4),
    ) {
        let command = wrappers.iter().fold(APPROVALS[inner].to_string(), |inner, &wrapper| wrap(wrapper, &inner));
        let targets = write_targets(&command, Path::new("/repo")).unwrap_or_default();
        prop_assert!(targets.iter().any(|target| paths::is_approval_file(target)), "{command}: {targets:?}");
    }
}
