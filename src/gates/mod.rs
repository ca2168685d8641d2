//! Gates A to C (docs/decisions.md#gate-a): one entry, [`check_tool_call`], judges every tool call.

mod bash;
pub mod claude_code;
mod dispatch;
mod judge;
mod patches;
mod persistent_shell;
mod plan_gate;
mod powershell;
mod sandbox;
mod sdd_gate;
pub mod tools;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

pub use crate::analysis::persistent::ShellCall;
use crate::paths;
use crate::texts::Denial;
pub use tools::ToolArgs;
use tools::{Action, Content};

/// Judges one tool call. `session_dir` gives the session directory (absolute); it is asked only
/// for a call the gates look at. `None` allows the call.
pub fn check_tool_call(name: &str, args: &dyn ToolArgs, session_dir: impl FnOnce() -> PathBuf) -> Option<Denial> {
    check_tool_call_in(name, args, session_dir, || None)
}

/// [`check_tool_call`] where `shell` may name a persistent shell (P-15), asked only for a shell
/// call: it is judged with every state the shell's earlier calls may have left. `None` (or an
/// empty name) is a one-shot call.
pub fn check_tool_call_in(
    name: &str,
    args: &dyn ToolArgs,
    session_dir: impl FnOnce() -> PathBuf,
    shell: impl FnOnce() -> Option<String>,
) -> Option<Denial> {
    check_tool_call_hosted(name, args, session_dir, || shell().map(ShellCall::unreported), || None)
}

/// [`check_tool_call_in`] where `sandbox` names the mode the host will run the call in when that
/// is wider than the host's standing default (DSH: a session switched to `danger-full-access`),
/// asked only for a tool that can leave the sandbox: while approvals are sealed it is refused as
/// the call's own `sandbox_permissions` is.
pub fn check_tool_call_hosted(
    name: &str,
    args: &dyn ToolArgs,
    session_dir: impl FnOnce() -> PathBuf,
    shell: impl FnOnce() -> Option<ShellCall>,
    sandbox: impl FnOnce() -> Option<String>,
) -> Option<Denial> {
    let _ledger = crate::approval::ledger::location::call_scope();
    if let Some(denial) = sandbox::check(name, args, sandbox) {
        return Some(denial);
    }
    match tools::action(name, args) {
        action @ (Action::WriteFile { .. }
        | Action::WriteEach { .. }
        | Action::CreateDirectory { .. }
        | Action::Shell { .. }) => judge_fields(action, args, session_dir),
        Action::Patch { fields } => patches::check(args, fields, &session_dir()),
        Action::Dispatch { text_field } => dispatch::check(&args.string(text_field)?, &session_dir()),
        Action::DispatchEach { texts } => dispatch::check_each(args, texts, session_dir),
        Action::Bash => match shell().filter(|call| !call.shell.is_empty()) {
            Some(call) => persistent_shell::check::<bash::PersistentBash>(args, &session_dir(), &call),
            None => bash::check(args, &session_dir()),
        },
        Action::PowerShell => match shell().filter(|call| !call.shell.is_empty()) {
            Some(call) => persistent_shell::check::<powershell::PersistentPowerShell>(args, &session_dir(), &call),
            None => powershell::check(args, &session_dir()),
        },
        Action::Unknown { .. } => judge_every_string(args, &[], session_dir),
        Action::Known { known, fields } => {
            let dir = asked_once(session_dir);
            judge_fields(*known, args, &dir).or_else(|| judge_every_string(args, fields, dir))
        }
        Action::Unguarded => None,
    }
}

/// A tool whose fields say what it writes or runs: its target (with its new text for gate A),
/// its targets, the directory it creates, its command.
fn judge_fields(action: Action, args: &dyn ToolArgs, session_dir: impl FnOnce() -> PathBuf) -> Option<Denial> {
    match action {
        Action::WriteFile { path_field, content } => {
            let target = paths::absolute(args.string(path_field)?, &session_dir());
            judge_write(&target, &NewTexts::of(args, content))
        }
        Action::WriteEach { path_fields, source_fields, content } => {
            let fields = path_fields.iter().chain(source_fields);
            let named: Vec<String> = fields.filter_map(|field| args.string(field)).collect();
            if named.is_empty() {
                return None;
            }
            let (texts, dir) = (NewTexts::of(args, content), session_dir());
            named.iter().find_map(|path| judge_write(&paths::absolute(path, &dir), &texts))
        }
        Action::CreateDirectory { path_field } => {
            let target = paths::absolute(args.string(path_field)?, &session_dir());
            if patches::is_plans_folder(&target) { None } else { judge_write(&target, &NewTexts::invisible()) }
        }
        Action::Shell { command_fields, workdir_field } => {
            bash::check_fields(args, command_fields, workdir_field, &session_dir())
        }
        _ => None,
    }
}

/// A tool known by nothing but its arguments: every string it carries that names a guarded
/// location is a write there, carrying the text of its content field if it has one (gate A);
/// the values at `judged` (key paths, see [`tools::strings::json_strings_outside`]) were judged
/// already by their meaning (docs/decisions.md#p-18).
fn judge_every_string(args: &dyn ToolArgs, judged: &[&str], session_dir: impl FnOnce() -> PathBuf) -> Option<Denial> {
    let strings = tools::strings::json_strings_outside(&args.arguments_json()?, judged);
    let named: Vec<&String> = strings.iter().filter(|text| tools::strings::names_guarded(text)).collect();
    if named.is_empty() {
        return None;
    }
    let (dir, texts) = (session_dir(), NewTexts::of(args, Content::Recognised));
    let mut locations = Vec::new();
    for text in named {
        if tools::strings::add_named_locations(text, &dir, &mut locations).is_err() {
            return Some(Denial::ToolNamesTooManyLocations { limit: tools::strings::MAX_NAMED_LOCATIONS });
        }
    }
    locations.iter().find_map(|target| judge_write(target, &texts))
}

/// [`check_tool_call`] for Claude Code (the hook's PreToolUse payloads): the gates, then its own
/// configuration out of reach of the file tools that run outside its sandbox ([`claude_code`]).
pub fn check_claude_code_call(
    name: &str,
    args: &dyn ToolArgs,
    session_dir: impl FnOnce() -> PathBuf,
    places: &claude_code::ConfigPlaces,
) -> Option<Denial> {
    let dir = asked_once(session_dir);
    check_tool_call(name, args, &dir).or_else(|| claude_code::check(name, args, &dir, places))
}

/// `session_dir` asked at most once, whichever of several judges needs it first.
fn asked_once(session_dir: impl FnOnce() -> PathBuf) -> impl Fn() -> PathBuf {
    let (once, known) = (std::cell::Cell::new(Some(session_dir)), OnceCell::new());
    move || known.get_or_init(|| once.take().map_or_else(PathBuf::new, |ask| ask())).clone()
}

/// The text a write carries, fetched at most once and only when gate A needs it.
pub struct NewTexts<'a> {
    source: Option<(&'a dyn ToolArgs, Content)>,
    /// Texts the call shows, borrowed from its answer.
    shown: Option<&'a [String]>,
    texts: OnceCell<Option<Vec<String>>>,
}

impl<'a> NewTexts<'a> {
    pub fn of(args: &'a dyn ToolArgs, content: Content) -> Self {
        NewTexts { source: Some((args, content)), shown: None, texts: OnceCell::new() }
    }

    /// A write whose texts are already known (a patch's `+` lines).
    pub fn given(texts: &'a [String]) -> Self {
        NewTexts { source: None, shown: Some(texts), texts: OnceCell::new() }
    }

    /// A write whose text the gates cannot see (a bash target).
    pub fn invisible() -> Self {
        NewTexts { source: None, shown: None, texts: OnceCell::new() }
    }

    fn get(&self) -> Option<&[String]> {
        if let Some(shown) = self.shown {
            return Some(shown);
        }
        self.texts.get_or_init(|| self.source.and_then(|(args, content)| tools::new_texts(args, content))).as_deref()
    }
}

/// A write to `target` (absolute, normalized), judged where it is typed and where it really lands
/// (P-8); the first denial wins.
pub fn judge_write(target: &Path, texts: &NewTexts) -> Option<Denial> {
    judge_location(target, texts).or_else(|| {
        let real = paths::real_path(target);
        if real == target { None } else { judge_location(&real, texts) }
    })
}

/// Gate A, then gate C, then the write entry of gate B.
fn judge_location(path: &Path, texts: &NewTexts) -> Option<Denial> {
    if let Some(root) = paths::plans_root(path)
        && let Some(denial) = plan_gate::check(&root, texts.get())
    {
        return Some(denial);
    }
    if paths::is_approval_file(path) {
        return Some(Denial::ApprovalWrittenOnlyByApprove);
    }
    if crate::approval::ledger::reaches_ledger(path) {
        return Some(Denial::LedgerWrittenOnlyByApprove);
    }
    let sdd = paths::sdd_target(path)?;
    sdd_gate::check_sdd_reference(&sdd.root, &sdd.plan_name)
}

#[cfg(test)]
mod test_json;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_false_positives;
#[cfg(test)]
mod tests_hosts;
#[cfg(test)]
mod tests_ledger;
#[cfg(test)]
mod tests_tools_strings;
