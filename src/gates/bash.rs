//! Bash (docs/decisions.md#bash, P-2, P-5): every command is parsed and each file it writes is judged
//! like a write whose content the gates cannot see, so gate A always refuses a bash write into
//! the plans folder; gates C and the write entry of B apply as to any write.

use std::path::Path;

use super::ToolArgs;
use super::judge::{RawText, judge};
use super::persistent_shell::PersistentShell;
use crate::analyses::Wired;
use crate::analysis::answer::Answer;
use crate::analysis::persistent::Left;
use crate::analysis::scope::Scope;
use crate::bash::{self, Bash, Unscannable};
use crate::paths::{self, Dialect};
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
    judge(&bash::analyze(command, base, &Wired), &raw_text(command)).denial()
}

/// A bash command's raw text, judged when the parse stopped on a cap.
fn raw_text(command: &str) -> RawText<'_, Unscannable> {
    RawText { text: command, dialect: Dialect::Bash, over_cap: |limit| Denial::CommandTooLarge { limit } }
}

/// A persistent bash (`docs/decisions.md#p-15`), judged by [`super::persistent_shell::check`].
pub enum PersistentBash {}

impl PersistentShell for PersistentBash {
    type State = Scope<Bash>;

    fn raw_text(command: &str) -> RawText<'_, Unscannable> {
        raw_text(command)
    }

    fn leaves(state: &Scope<Bash>, command: &str) -> bool {
        bash::begins_by_moving(command, state) || bash::only_assigns(command)
    }

    fn analyze(command: &str, state: &Scope<Bash>) -> (Answer<Unscannable>, Left<Scope<Bash>>, bool) {
        bash::analyze_from(command, state, &Wired)
    }
}
