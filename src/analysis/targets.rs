//! The set of files one command line writes, in the order they are found, without duplicates,
//! and capped: the gates resolve each one's real path (P-8), so the cap bounds a call's time.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The most distinct files one command line may write.
pub const MAX_TARGETS: usize = 1_024;

/// Below this many files a set is searched in order: a line writes one to three files, and a
/// path's hash walks its components (a third of the cost of adding a file, measured).
const SCANNED: usize = 32;

/// The files found so far; one past [`MAX_TARGETS`] is not kept but marks the set over its cap.
#[derive(Debug, Default)]
pub struct Targets {
    found: Vec<PathBuf>,
    /// The same files, once there are more than [`SCANNED`].
    seen: HashSet<PathBuf>,
    over_cap: bool,
}

impl Targets {
    /// Adds `path` unless it is already there; at the cap, marks the set over it instead.
    pub fn add(&mut self, path: PathBuf) {
        if self.found.len() >= MAX_TARGETS {
            self.over_cap = true;
        } else if !self.contains(&path) {
            if self.found.len() == SCANNED {
                self.seen.extend(self.found.iter().cloned());
            }
            if self.found.len() >= SCANNED {
                self.seen.insert(path.clone());
            }
            self.found.push(path);
        }
    }

    pub fn len(&self) -> usize {
        self.found.len()
    }

    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    pub fn contains(&self, path: &Path) -> bool {
        if self.found.len() > SCANNED { self.seen.contains(path) } else { self.found.iter().any(|found| found == path) }
    }

    /// Whether `path` was among the first `count` files found.
    pub fn found_before(&self, path: &Path, count: usize) -> bool {
        self.contains(path) && self.found.get(..count).unwrap_or(&self.found).iter().any(|found| found == path)
    }

    /// The `at`-th file found.
    pub fn get(&self, at: usize) -> Option<&PathBuf> {
        self.found.get(at)
    }

    /// The files found from the `at`-th on.
    pub fn since(&self, at: usize) -> &[PathBuf] {
        self.found.get(at..).unwrap_or_default()
    }

    /// More files were written than [`MAX_TARGETS`].
    pub fn over_cap(&self) -> bool {
        self.over_cap
    }

    pub fn into_paths(self) -> Vec<PathBuf> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_keeps_the_first_of_each_path_up_to_its_cap() {
        let mut targets = Targets::default();
        targets.add(PathBuf::from("/r/a"));
        targets.add(PathBuf::from("/r/a"));
        assert_eq!(targets.len(), 1);
        for n in 0..MAX_TARGETS {
            targets.add(PathBuf::from(format!("/r/{n}")));
        }
        assert_eq!(targets.len(), MAX_TARGETS);
        assert!(targets.over_cap());
        assert!(!targets.contains(Path::new(&format!("/r/{}", MAX_TARGETS - 1))));
    }

    #[test]
    fn a_set_finds_its_paths_below_and_above_the_scanned_size() {
        let mut targets = Targets::default();
        for n in 0..SCANNED * 2 {
            targets.add(PathBuf::from(format!("/r/{n}")));
            targets.add(PathBuf::from(format!("/r/{n}/")));
            assert_eq!(targets.len(), n + 1);
            assert!((0..=n).all(|m| targets.contains(Path::new(&format!("/r/{m}")))), "{n}");
            assert!(!targets.contains(Path::new(&format!("/r/{}", n + 1))), "{n}");
        }
    }
}
