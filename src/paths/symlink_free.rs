//! P-8's fast path on Linux: one `openat2(RESOLVE_NO_SYMLINKS)` per existing ancestor tells that a
//! path has no symlink on its way, so it lands on itself, without a `readlink` per directory. Any
//! other answer (a link somewhere, a file used as a directory, no `openat2` in this kernel or
//! sandbox) is left to the portable resolution, which follows links.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// `struct open_how` of `linux/openat2.h` (libc's is `non_exhaustive`).
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

/// Set once the kernel (or a seccomp filter) has said `openat2` is not there.
static UNAVAILABLE: AtomicBool = AtomicBool::new(false);

enum Lookup {
    /// Every component exists and none is a symlink.
    SymlinkFree,
    /// A component is missing before any symlink.
    Missing,
    /// A symlink on the way, or anything this path cannot tell.
    Undecided,
}

fn open_without_symlinks(path: &Path) -> Lookup {
    let Ok(path) = CString::new(path.as_os_str().as_bytes()) else {
        return Lookup::Undecided;
    };
    let how = OpenHow { flags: (libc::O_PATH | libc::O_CLOEXEC) as u64, mode: 0, resolve: libc::RESOLVE_NO_SYMLINKS };
    // SAFETY: a NUL-terminated path and an `open_how` of the size passed; the descriptor is closed.
    let fd = unsafe {
        libc::syscall(libc::SYS_openat2, libc::AT_FDCWD, path.as_ptr(), &how as *const OpenHow, size_of::<OpenHow>())
    };
    if fd >= 0 {
        // SAFETY: `fd` is a descriptor this function just opened and owns.
        unsafe { libc::close(fd as libc::c_int) };
        return Lookup::SymlinkFree;
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::ENOENT) => Lookup::Missing,
        Some(libc::ENOSYS | libc::EPERM) => {
            UNAVAILABLE.store(true, Ordering::Relaxed);
            Lookup::Undecided
        }
        _ => Lookup::Undecided,
    }
}

/// Does a write to `path` (absolute, normalized) land on `path` itself? `true` when neither it
/// nor its deepest existing ancestor has a symlink among its components; `false` means "not
/// known here", never "it does not".
pub fn lands_on_itself(path: &Path) -> bool {
    if UNAVAILABLE.load(Ordering::Relaxed) {
        return false;
    }
    let mut current = path;
    loop {
        match open_without_symlinks(current) {
            Lookup::SymlinkFree => return true,
            Lookup::Missing => match current.parent() {
                Some(parent) => current = parent,
                None => return false,
            },
            Lookup::Undecided => return false,
        }
    }
}
