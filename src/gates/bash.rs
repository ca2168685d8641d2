//! Bash (docs/decisions.md#bash, P-2, P-5): every command is parsed and each file it writes is judged
//! like a write whose content the gates cannot see, so gate A always refuses a bash write into
//! the plans folder; gates C and the write entry of B apply as to any write.

use std::path::Path;

use super::{NewTexts, ToolArgs, judge_write};
use crate::paths;
use crate::persistent::{self, States};
use crate::bash::{self, Scope};
use crate::texts::Denial;

/// A `bash` call: `command`, and `workdir` relative to the session cwd (P-2); a persistent bash
/// has only `command`. The first denial wins; a command with no guarded target is allowed.
pub fn check(args: &dyn ToolArgs, cwd: &Path) -> Option<Denial> {
    check_fields(args, &["command"], "workdir", cwd)
}

/// A shell call whose command is in the first of `command_fields` that holds one, run in
/// `workdir_field` (relative to the session cwd, P-2).
pub fn check_fields(args: &dyn ToolArgs, command_fields: &[&str], workdir_field: &str, cwd: &Path) -> Option<Denial> {
    let command = command_fields.iter().find_map(|field| command_text(args, field))?;
    let base = match args.string(workdir_field) {
        Some(workdir) if !workdir.is_empty() => paths::absolute(workdir, cwd),
        _ => cwd.to_path_buf(),
    };
    judge_command(&command, &base)
}

/// A command field as a bash command line: a string as it is, an argv array (Codex's `shell`)
/// as the line that runs exactly those words.
fn command_text(args: &dyn ToolArgs, field: &str) -> Option<String> {
    args.string(field).or_else(|| args.strings(field).filter(|argv| !argv.is_empty()).map(|argv| argv_line(&argv)))
}

/// The bash line that runs `argv` word for word: each word single-quoted, a `'` inside as `'\''`.
/// Nothing in a single-quoted word is special to bash, so the parse gives back exactly `argv`.
pub fn argv_line(argv: &[String]) -> String {
    let mut line = String::new();
    for (index, word) in argv.iter().enumerate() {
        if index > 0 {
            line.push(' ');
        }
        line.push('\'');
        line.push_str(&word.replace('\'', "'\\''"));
        line.push('\'');
    }
    line
}

pub fn judge_command(command: &str, base: &Path) -> Option<Denial> {
    match bash::write_targets(command, base) {
        Ok(targets) => {
            let invisible = NewTexts::invisible();
            targets.iter().find_map(|target| judge_write(target, &invisible))
        }
        // Over a cap: a fixed verdict on the raw text.
        Err(limit) => paths::names_guarded_location(command).then_some(Denial::CommandTooLarge { limit }),
    }
}

/// A call of persistent shell `shell` (P-15): judged against every state its earlier calls may
/// have left; an allowed call records the states it may leave, a refused one changes nothing.
pub fn check_persistent(args: &dyn ToolArgs, cwd: &Path, shell: &str) -> Option<Denial> {
    let command = args.string("command")?;
    let fresh = Scope::fresh(cwd);
    let known = persistent::bash_states(shell, &fresh);
    let mut states = match known.states {
        States::Bash(states) => states,
        States::PowerShell(_) => vec![fresh.clone()],
    };
    if !states.contains(&fresh) {
        // The shell may have been reset (a timeout, an exit): it starts again in the cwd.
        states.push(fresh);
    }
    if known.overflowed && paths::names_guarded_location(&command) {
        return Some(Denial::ShellStateTooLarge);
    }
    let invisible = NewTexts::invisible();
    let mut next = states.clone();
    let mut overflowed = known.overflowed;
    for state in &states {
        match bash::write_targets_from(&command, state) {
            Ok((targets, after)) => {
                if let Some(denial) = targets.iter().find_map(|target| judge_write(target, &invisible)) {
                    return Some(denial);
                }
                next.extend(after);
            }
            Err(limit) => {
                if paths::names_guarded_location(&command) {
                    return Some(Denial::CommandTooLarge { limit });
                }
                // Where a command too large to read leaves the shell is unknown.
                overflowed = true;
            }
        }
    }
    persistent::record_bash(shell, next, overflowed);
    None
}
