//! The approval ledger's folder (P-17) as a guarded location: where the environment puts it, and
//! whether a write reaches it. The ledger's own files are named in `approval::ledger::location`.

use std::cell::RefCell;
use std::path::{Component, Path, PathBuf};

use crate::paths;

/// The ledger's folder under the state directory.
pub const FOLDER: &str = "approval-gates";

/// The folder of the approval ledger (`…/approval-gates`), from the environment: on Windows
/// `%LOCALAPPDATA%\approval-gates`, elsewhere `$XDG_STATE_HOME/approval-gates`, else
/// `$HOME/.local/state/approval-gates`. Relative values are ignored (as the XDG spec says); `None`
/// when nothing absolute is set.
pub fn ledger_folder() -> Option<PathBuf> {
    #[cfg(test)]
    return TEST_FOLDER
        .with(|folder| folder.borrow().clone())
        .unwrap_or_else(|| TEST_STATE.with(|state| Some(state.path().join(FOLDER))));
    #[cfg(not(test))]
    folder_from(|name| std::env::var_os(name))
}

/// [`ledger_folder`] for a given environment.
pub fn folder_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let base = if cfg!(windows) {
        absolute("LOCALAPPDATA")?
    } else {
        absolute("XDG_STATE_HOME").or_else(|| absolute("HOME").map(|home| home.join(".local").join("state")))?
    };
    Some(paths::normalize(&base.join(FOLDER)))
}

#[cfg(test)]
thread_local! {
    /// Unit tests name their own ledger folder (or none) per thread.
    static TEST_FOLDER: RefCell<Option<Option<PathBuf>>> = const { RefCell::new(None) };
    /// Else each test thread has a state directory of its own, removed with the thread.
    static TEST_STATE: tempfile::TempDir = tempfile::tempdir().expect("test state directory");
}

/// Runs `body` with the ledger folder at `folder` on this thread (unit tests).
#[cfg(test)]
pub fn with_folder<T>(folder: Option<&Path>, body: impl FnOnce() -> T) -> T {
    let previous = TEST_FOLDER.with(|cell| cell.replace(Some(folder.map(Path::to_path_buf))));
    let result = body();
    TEST_FOLDER.with(|cell| *cell.borrow_mut() = previous);
    result
}

/// The normal components of a path, case-folded for comparison (P-7: case-insensitive file
/// systems; a drive or UNC prefix is dropped, as `paths::from_windows` drops it).
pub(crate) fn folded(path: &Path) -> Vec<Vec<u8>> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.as_encoded_bytes().to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Whether a write to `path` (absolute, normalized) reaches the ledger: `path` is the ledger's
/// folder, lies beneath it, or is an ancestor that moving or removing would take the ledger with
/// (the state directory holding the folder, and every directory between it and the home
/// directory; not the home directory or anything above, which ordinary work writes into).
/// Compared with the folder as the environment names it and as it really is.
///
/// Asked for every write target, so it allocates nothing past reading the environment: the
/// folder's components are kept per thread while the variables that name it stay the same.
pub fn reaches_ledger(path: &Path) -> bool {
    with_place(|place| place.spans.iter().any(|span| span.reaches(path)))
}

/// `body` with the ledger's folder as the environment names it now (`None`: no folder), from the
/// per-thread place: the environment is only compared, nothing is built, while it stays the same.
pub fn with_current_folder<T>(body: impl FnOnce(Option<&Path>) -> T) -> T {
    with_place(|place| body(place.folder.as_deref()))
}

/// Within one judged call the environment is compared once (see [`call_scope`]).
pub struct CallScope(());

impl Drop for CallScope {
    fn drop(&mut self) {
        SCOPE.with(|scope| scope.set(CallState::None));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CallState {
    /// Outside a judged call: the environment is compared at every question.
    None,
    /// In a judged call, not compared yet.
    Fresh,
    /// In a judged call, compared.
    Checked,
}

/// Held while one tool call is judged: the environment that names the ledger is compared with
/// the per-thread place at the first question only, however many targets the call has.
pub fn call_scope() -> CallScope {
    SCOPE.with(|scope| scope.set(CallState::Fresh));
    CallScope(())
}

fn with_place<T>(body: impl FnOnce(&Place) -> T) -> T {
    PLACE.with(|place| {
        let mut place = place.borrow_mut();
        let checked = SCOPE.with(|scope| {
            let was = scope.get();
            if was == CallState::Fresh {
                scope.set(CallState::Checked);
            }
            was == CallState::Checked
        });
        if place.as_ref().is_none_or(|known| !checked && !known.key.is_current()) {
            *place = Some(Place::of(PlaceKey::now()));
        }
        match place.as_ref() {
            Some(known) => body(known),
            None => body(&Place { key: PlaceKey::now(), folder: None, spans: Vec::new() }),
        }
    })
}

/// The variables that name the ledger's folder (and the home directory), per platform.
#[cfg(not(windows))]
const PLACE_VARS: [&str; 2] = ["XDG_STATE_HOME", "HOME"];
#[cfg(windows)]
const PLACE_VARS: [&str; 2] = ["LOCALAPPDATA", "USERPROFILE"];

/// What names the ledger's folder: the environment (or a unit test's folder).
#[derive(PartialEq, Eq)]
struct PlaceKey {
    #[cfg(test)]
    folder: Option<PathBuf>,
    vars: [Option<Vec<u8>>; 2],
}

impl PlaceKey {
    fn now() -> PlaceKey {
        PlaceKey {
            #[cfg(test)]
            folder: ledger_folder(),
            vars: PLACE_VARS.map(|name| env_value(name, <[u8]>::to_vec)),
        }
    }

    /// The environment still says what it said (compared in place, nothing copied).
    fn is_current(&self) -> bool {
        #[cfg(test)]
        if self.folder != ledger_folder() {
            return false;
        }
        PLACE_VARS
            .iter()
            .zip(&self.vars)
            .all(|(name, known)| env_value(name, |now| known.as_deref() == Some(now)).unwrap_or(known.is_none()))
    }
}

/// `with` applied to a variable's bytes, `None` when it is unset. On Linux straight from the C
/// environment (no lock, no copy), which is where Node's `process.env` writes; the addon runs on
/// Node's thread, as those writes do.
#[cfg(target_os = "linux")]
fn env_value<T>(name: &str, with: impl FnOnce(&[u8]) -> T) -> Option<T> {
    let mut key = [0u8; 32];
    key.get_mut(..name.len())?.copy_from_slice(name.as_bytes());
    // SAFETY: `key` is NUL-terminated (names are short literals); getenv returns a pointer into
    // the environment or null, read at once.
    let value = unsafe { libc::getenv(key.as_ptr().cast()) };
    if value.is_null() {
        return None;
    }
    // SAFETY: a non-null getenv result is a NUL-terminated string.
    Some(with(unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes()))
}

#[cfg(not(target_os = "linux"))]
fn env_value<T>(name: &str, with: impl FnOnce(&[u8]) -> T) -> Option<T> {
    std::env::var_os(name).map(|value| with(value.as_encoded_bytes()))
}

/// The ledger's folder as named and as it really is, each with the ancestors a write may not take.
struct Place {
    key: PlaceKey,
    folder: Option<PathBuf>,
    spans: Vec<Span>,
}

/// One spelling of the folder: its components, case-folded, and how many of its leading
/// components a write may still target without reaching it (`floor`).
struct Span {
    folder: Vec<Vec<u8>>,
    floor: usize,
}

impl Place {
    fn of(key: PlaceKey) -> Place {
        let Some(folder) = ledger_folder() else { return Place { key, folder: None, spans: Vec::new() } };
        let home = ["HOME", "USERPROFILE"]
            .iter()
            .find_map(|name| std::env::var_os(name).map(PathBuf::from).filter(|home| home.is_absolute()))
            .map(|home| folded(&paths::normalize(&home)));
        let span = |folder: Vec<Vec<u8>>| {
            let floor = match &home {
                Some(home) if home.len() < folder.len() && folder[..home.len()] == home[..] => home.len(),
                _ => folder.len().saturating_sub(2),
            };
            Span { folder, floor }
        };
        let named = folded(&folder);
        let real = folded(&paths::real_path(&folder));
        let mut spans = vec![span(named)];
        if spans[0].folder != real {
            spans.push(span(real));
        }
        Place { key, folder: Some(folder), spans }
    }
}

impl Span {
    /// `path` is the folder, beneath it, or an ancestor deeper than the floor.
    fn reaches(&self, path: &Path) -> bool {
        let mut depth = 0;
        for name in normal_names(path) {
            let Some(expected) = self.folder.get(depth) else { return true };
            // Compared whole first: most paths are spelled in lower case already.
            if name != expected.as_slice() && !name.eq_ignore_ascii_case(expected) {
                return false;
            }
            depth += 1;
        }
        depth >= self.folder.len() || depth > self.floor
    }
}

/// The normal components of `path`, as `Path::components` gives them. Asked of every write
/// target, so on Unix the bytes are split at `/` directly: the same names, without the general
/// parse (no prefixes there; empty, `.` and `..` segments are not names).
#[cfg(unix)]
fn normal_names(path: &Path) -> impl Iterator<Item = &[u8]> {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes.split(|&byte| byte == b'/').filter(|name| !matches!(*name, b"" | b"." | b".."))
}

#[cfg(not(unix))]
fn normal_names(path: &Path) -> impl Iterator<Item = &[u8]> {
    path.components().filter_map(|component| match component {
        Component::Normal(name) => Some(name.as_encoded_bytes()),
        _ => None,
    })
}

thread_local! {
    static PLACE: RefCell<Option<Place>> = const { RefCell::new(None) };
    static SCOPE: std::cell::Cell<CallState> = const { std::cell::Cell::new(CallState::None) };
}
