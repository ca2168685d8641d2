//! Shared by the fuzz targets.

use std::time::{Duration, Instant};

/// An input that takes this long is a bug (issue 7), even under the sanitizer's slowdown.
pub const TIME_LIMIT: Duration = Duration::from_millis(100);

pub fn within_time_limit(run: impl FnOnce()) {
    let started = Instant::now();
    run();
    let elapsed = started.elapsed();
    assert!(elapsed < TIME_LIMIT, "slow input: {elapsed:?}");
}
