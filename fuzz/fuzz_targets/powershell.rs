#![no_main]
//! The PowerShell parser and target finder: any text, no panic, no parse over the time limit,
//! every target absolute and normalized; then the gate entry (`pwsh`) on the same command.
use std::path::{Component, Path, PathBuf};

use approval_gates::gates::{ToolArgs, check_tool_call};
use approval_gates::powershell::write_targets;
use approval_gates::texts::DENIAL_PREFIX;
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

struct Command<'a>(&'a str);

impl ToolArgs for Command<'_> {
    fn string(&self, field: &str) -> Option<String> {
        (field == "command").then(|| self.0.to_string())
    }
    fn strings_of(&self, _: &str, _: &str) -> Option<Vec<Option<String>>> {
        None
    }
}

fuzz_target!(|command: &str| {
    within_time_limit(|| {
        if let Ok(targets) = write_targets(command, Path::new("/repo")) {
            for target in &targets {
                assert!(target.is_absolute(), "{target:?}");
                assert!(
                    target.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_))),
                    "not normalized: {target:?}"
                );
            }
        }
    });
    if let Some(denial) = check_tool_call("pwsh", &Command(command), || PathBuf::from("/nonexistent/fuzz-repo")) {
        assert!(denial.to_string().starts_with(DENIAL_PREFIX));
    }
});
