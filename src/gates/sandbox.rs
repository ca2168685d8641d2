//! A shell call that asks the host to run it outside its sandbox (DSH's `sandbox_permissions` on
//! `bash` and `pwsh`, or a session switched out of it) while approvals are sealed on this machine
//! (P-17): an unconfined command could rewrite the ledger of any repository through a path it
//! computes, so it is refused before the host asks anyone. Asking for a confined mode stays
//! allowed. DSH's `write` and `edit` take the same field, but their target is a path the gates
//! judge (the ledger's folder is a guarded location), so they are not read for it: an ordinary
//! write costs no extra field. DSH's Code Mode `run_code` runs the
//! model's program in a worker thread of DSH's own process, outside every sandbox (measured: it
//! writes outside the workspace), so it is refused too while anything is sealed.

use std::cell::RefCell;
use std::fs;
use std::path::PathBuf;
use std::time::SystemTime;

use crate::approval::ledger::location;
use crate::texts::Denial;

use super::ToolArgs;

/// The shell tool besides PowerShell's whose arguments may carry `sandbox_permissions` (DSH
/// rc.8's `bash` and `pwsh`; PowerShell's in any case, as the gates read it).
const ESCALATING_SHELL: &str = "bash";
/// Tools that run the model's code outside the host's sandbox whatever they are given.
const UNCONFINED_TOOLS: [&str; 1] = ["run_code"];
const FIELD: &str = "sandbox_permissions";
const CONFINED_MODES: [&str; 2] = ["read-only", "workspace-write"];

/// `Some` denial when `name` asks to leave the sandbox (in its arguments, or as the mode the host
/// says it will run it in) and a ledger exists.
pub fn check(name: &str, args: &dyn ToolArgs, host_mode: impl FnOnce() -> Option<String>) -> Option<Denial> {
    if UNCONFINED_TOOLS.contains(&name) {
        return any_ledger().then(|| Denial::UnconfinedWhileSealed { tool: name.to_string() });
    }
    if name != ESCALATING_SHELL && !super::tools::is_powershell_tool(name) {
        return None;
    }
    // The field first: an ordinary call (no such field) costs no file-system question.
    let requested = args.string(FIELD).or_else(host_mode)?;
    if CONFINED_MODES.contains(&requested.as_str()) || !any_ledger() {
        return None;
    }
    Some(Denial::LeavingSandboxWhileSealed { requested })
}

/// Whether the ledger's folder holds any repository's ledger (or cannot be looked at, which
/// counts as holding one: fail closed). One `stat` of the folder a call: its listing is read
/// again only when the folder changed (a new ledger changes its modification time and size).
fn any_ledger() -> bool {
    let Some(repos) = location::with_current_folder(|folder| folder.map(|folder| folder.join(location::REPOS))) else {
        return false;
    };
    let stamp = match fs::metadata(&repos) {
        Ok(meta) => (meta.modified().ok(), meta.len()),
        Err(error) => return error.kind() != std::io::ErrorKind::NotFound,
    };
    LISTED.with(|listed| {
        let mut listed = listed.borrow_mut();
        if let Some((known, stamped, any)) = listed.as_ref()
            && *known == repos
            && *stamped == stamp
        {
            return *any;
        }
        let any = match fs::read_dir(&repos) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .any(|entry| entry.file_name().to_string_lossy().ends_with(&format!(".{}", location::EXTENSION))),
            Err(_) => true,
        };
        *listed = Some((repos, stamp, any));
        any
    })
}

/// The last listing of the ledgers' folder, its stamp, and whether it held a ledger.
type Listing = (PathBuf, (Option<SystemTime>, u64), bool);

thread_local! {
    static LISTED: RefCell<Option<Listing>> = const { RefCell::new(None) };
}
