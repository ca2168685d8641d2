//! Shared by the fuzz targets.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// An input slower than this is a bug (issue 7): 100 ms, or `FUZZ_TIME_LIMIT_MS`. AddressSanitizer
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
