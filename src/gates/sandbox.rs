//! A call that asks the host to run it outside its sandbox (DSH's `sandbox_permissions` on
//! `bash`, `pwsh`, `write` and `edit`) while approvals are sealed on this machine (P-17): an
//! unconfined command could rewrite the ledger of any repository, so it is refused before the
//! host asks anyone. Asking for a confined mode stays allowed.

use std::fs;

use crate::approval::ledger::{self, location};
use crate::texts::Denial;

use super::ToolArgs;

/// The tools whose arguments may carry `sandbox_permissions` (DSH rc.8).
const ESCALATING_TOOLS: [&str; 4] = ["bash", "pwsh", "write", "edit"];
const FIELD: &str = "sandbox_permissions";
const CONFINED_MODES: [&str; 2] = ["read-only", "workspace-write"];

/// `Some` denial when `name` asks to leave the sandbox and a ledger exists.
pub fn check(name: &str, args: &dyn ToolArgs) -> Option<Denial> {
    if !ESCALATING_TOOLS.contains(&name) {
        return None;
    }
    let requested = args.string(FIELD)?;
    if CONFINED_MODES.contains(&requested.as_str()) || !any_ledger() {
        return None;
    }
    Some(Denial::LeavingSandboxWhileSealed { requested })
}

/// Whether the ledger's folder holds any repository's ledger (or cannot be looked at, which
/// counts as holding one: fail closed).
fn any_ledger() -> bool {
    let Some(folder) = ledger::ledger_folder() else { return false };
    match fs::read_dir(folder.join(location::REPOS)) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .any(|entry| entry.file_name().to_string_lossy().ends_with(&format!(".{}", location::EXTENSION))),
        Err(error) => error.kind() != std::io::ErrorKind::NotFound,
    }
}
