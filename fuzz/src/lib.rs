//! Shared by the fuzz targets.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// An input slower than this is a bug (docs/development.md#fuzzing): 100 ms, or `FUZZ_TIME_LIMIT_MS`. AddressSanitizer
/// slows tree-sitter about 25-fold, so `run.sh` fuzzes under it with a 1 s limit and then replays
/// every input on a build without it at 100 ms.
pub fn time_limit() -> Duration {
    static LIMIT: OnceLock<Duration> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let millis = std::env::var("FUZZ_TIME_LIMIT_MS").ok().and_then(|ms| ms.parse().ok()).unwrap_or(100);
        Duration::from_millis(millis)
    })
}

pub fn within_time_limit(run: impl FnOnce()) {
    let started = Instant::now();
    run();
    let elapsed = started.elapsed();
    assert!(elapsed < time_limit(), "slow input: {elapsed:?}");
}

/// A shell tool call's only field, `command`.
struct Command<'a>(&'a str);

impl approval_gates::gates::ToolArgs for Command<'_> {
    fn string(&self, field: &str) -> Option<String> {
        (field == "command").then(|| self.0.to_string())
    }
    fn strings_of(&self, _: &str, _: &str) -> Option<Vec<Option<String>>> {
        None
    }
}

/// A shell's target finder on any text: no panic, no parse over the time limit, every target
/// absolute and normalized; then the gate entry `tool` on the same command. The gate is not timed:
/// on top of the parse it costs one real-path lookup per target, at most `MAX_TARGETS` of them
/// (about 7 ms in a release build; the sanitizer's syscall overhead would say nothing about it).
pub fn shell_command<E>(command: &str, write_targets: fn(&str, &Path) -> Result<Vec<PathBuf>, E>, tool: &str) {
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
    let session = || PathBuf::from("/nonexistent/fuzz-repo");
    if let Some(denial) = approval_gates::gates::check_tool_call(tool, &Command(command), session) {
        assert!(denial.to_string().starts_with(approval_gates::texts::DENIAL_PREFIX));
    }
}
