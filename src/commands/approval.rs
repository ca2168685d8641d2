//! The self-approval rule (P-11): the CLI's `approve` writes approval.md and its `seal` the
//! ledger (P-17), however they are run — by name, through a package runner, a wrapper, a
//! program's words or its standard input.

use super::Arg;
use super::argv::tokens;
use super::options::{operands, spec};
use super::sink::Sink;
use crate::paths;

/// The names the project's CLI goes by (`bin/approval-gates.mjs`).
pub(super) fn is_cli(name: &str) -> bool {
    matches!(name, "approval-gates" | "approval-gates.mjs" | "approval-gates.js")
}

/// A package spec as a command: `approval-gates@0.1.0`, `@scope/approval-gates@1` → its name.
pub(super) fn package_bin(word: &str) -> &str {
    let name = super::command_name(word);
    match name.find('@') {
        Some(at) if at > 0 => name.get(..at).unwrap_or(name),
        _ => name,
    }
}

/// The CLI's `approve <id> design|plan` writes `openspec/changes/<id>/approval.md`.
pub(super) fn cli(args: &[Arg], sink: &mut Sink) {
    let words = operands(args, &spec("", &["cwd"]));
    // No subcommand: one fed later (`xargs approval-gates`, `find -exec approval-gates {}`) may
    // be `approve`.
    let Some(sub) = words.first() else {
        if !args.iter().any(|arg| matches!(arg.text.as_str(), "--help" | "-h" | "--version")) {
            sink.write_text(paths::APPROVAL_FILE);
        }
        return;
    };
    if sub.text == "seal" {
        return seal(sink);
    }
    // `{}`: what `find -exec` or `xargs -I{}` puts there may be `approve`.
    if !(sub.dynamic || sub.text == "approve" || sub.text.contains("{}")) {
        return;
    }
    match words.get(1) {
        Some(id) if !id.dynamic && paths::is_safe_segment(&id.text) => sink.write_text(&paths::approval_text(&id.text)),
        _ => sink.write_text(paths::APPROVAL_FILE),
    }
}

/// Any word (or the standard input) of a command that can run programs: the CLI's name followed
/// by `approve` as tokens, however quoted or nested, is a run of the approve path. (The name
/// alone is not: `cargo test -p approval-gates`, `watch approval-gates status`.)
pub(super) fn approval_through_cli(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let words = || args.iter().map(|arg| arg.text.as_str()).chain(stdin);
    // Every name of the CLI holds this; most commands do not, and need no tokens.
    if !words().any(|word| word.contains("approval-gates")) {
        return;
    }
    let words = words();
    let mut stream = words.flat_map(tokens).peekable();
    while let Some(token) = stream.next() {
        if !is_cli(package_bin(token)) {
            continue;
        }
        match stream.peek() {
            Some(&"approve") => {}
            Some(&"seal") => return seal(sink),
            _ => continue,
        }
        match stream.nth(1).filter(|id| paths::is_safe_segment(id)) {
            Some(id) => sink.write_text(&paths::approval_text(id)),
            None => sink.write_text(paths::APPROVAL_FILE),
        }
        return;
    }
}

/// `seal` records approvals in the ledger: a write of the ledger's folder (of approval.md where
/// the environment names no folder, so the call is still refused).
fn seal(sink: &mut Sink) {
    match paths::ledger::ledger_folder() {
        Some(folder) => sink.write_text(&folder.to_string_lossy()),
        None => sink.write_text(paths::APPROVAL_FILE),
    }
}
