//! DSH's `pwsh` tool (issue 12, P-16): judged like bash. Every file the PowerShell command line
//! writes is a write whose content the gates cannot see.

use std::path::Path;

use super::{NewTexts, ToolArgs, judge_write};
use crate::paths;
use crate::powershell;
use crate::texts::Denial;

/// A `pwsh` call: `command`, and `workdir` relative to the session cwd (as for bash; a Windows
/// path is read as [`paths::from_windows`] reads it). The first denial wins.
pub fn check(args: &dyn ToolArgs, cwd: &Path) -> Option<Denial> {
    let command = args.string("command")?;
    let base = match args.string("workdir") {
        Some(workdir) if !workdir.is_empty() => paths::absolute(paths::from_windows(&workdir), cwd),
        _ => cwd.to_path_buf(),
    };
    judge_command(&command, &base)
}

pub fn judge_command(command: &str, base: &Path) -> Option<Denial> {
    match powershell::write_targets(command, base) {
        Ok(targets) => {
            let invisible = NewTexts::invisible();
            targets.iter().find_map(|target| judge_write(target, &invisible))
        }
        // Over a cap: a fixed verdict on the raw text.
        Err(limit) => paths::names_guarded_location(command).then_some(Denial::CommandTooLarge { limit }),
    }
}
