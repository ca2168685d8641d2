//! The gates' exports: `checkGuard`, `dropShell` and `bashTargets`.

use std::cell::OnceCell;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::js_read::{JsRead, JsToolArgs};
use super::{directory, guarded, internal_error};
use crate::analysis::persistent;
use crate::gates;
use crate::texts::{self, Denial};

/// Judge one tool call. `null` allows it; otherwise the full denial text. Never throws.
/// `options.shell` names a persistent shell: calls with the same name share its state (P-15);
/// without it a shell call is one-shot. With `options.callId` as well, the host reports how the
/// call ends (`shellCallRan`), and until it does, where the call started and the fresh shell
/// stay possible. `options.sandbox` is the mode the host will run the call
/// in when wider than its default (DSH: a session switched to `danger-full-access`); while
/// approvals are sealed such a call is refused (P-17). `options.host: 'claude-code'` judges a
/// Claude Code call, whose file tools may not write Claude Code's configuration either.
#[napi(
    js_name = "checkGuard",
    ts_args_type = "toolCall: { name: string; arguments?: unknown }, cwd: string, options?: { shell?: string; callId?: string; sandbox?: string; host?: 'claude-code' }"
)]
pub fn check_guard(env: Env, tool_call: Unknown, cwd: Unknown, options: Unknown) -> Option<String> {
    guarded(
        || Some(Denial::InternalError.to_string()),
        || {
            let call = JsRead::new(&env, &tool_call);
            let name = call.property("name")?.string()?;
            let args = JsToolArgs { call, arguments: OnceCell::new() };
            let session_dir = || directory(JsRead::new(&env, &cwd).string());
            // Read only for a shell call, so every other call costs what it did.
            let shell = || {
                let options = JsRead::new(&env, &options);
                let shell = options.property("shell")?.string()?;
                let call_id = options.property("callId").and_then(|id| id.string()).filter(|id| !id.is_empty());
                Some(gates::ShellCall { shell, call_id })
            };
            // Read only for a call that can leave the host's sandbox.
            let sandbox = || JsRead::new(&env, &options).property("sandbox").and_then(|mode| mode.string());
            let verdict = gates::check_tool_call_hosted(&name, &args, session_dir, shell, sandbox);
            // `options.host: 'claude-code'` (the CLI's check of a Claude Code payload) also keeps
            // Claude Code's configuration out of its file tools' reach; read for those tools only.
            let claude_code = || {
                gates::claude_code::judges(&name)
                    && JsRead::new(&env, &options).property("host").and_then(|host| host.string()).as_deref()
                        == Some("claude-code")
            };
            let verdict = verdict.or_else(|| {
                claude_code()
                    .then(|| {
                        let places = gates::claude_code::ConfigPlaces::from_env(|name| std::env::var_os(name));
                        gates::claude_code::check(&name, &args, session_dir, &places)
                    })
                    .flatten()
            });
            verdict.map(|denial| denial.to_string())
        },
    )
}

/// The host reports that call `callId` of persistent shell `shell`, judged with that `callId`,
/// ran to its end and the shell was not reset: where it started is no longer possible. Returns
/// whether the call was the shell's unsettled one; never throws.
#[napi(js_name = "shellCallRan", ts_args_type = "shell: string, callId: string")]
pub fn shell_call_ran(env: Env, shell: Unknown, call_id: Unknown) -> bool {
    guarded(
        || false,
        || {
            let (Some(shell), Some(call_id)) =
                (JsRead::new(&env, &shell).string(), JsRead::new(&env, &call_id).string())
            else {
                return false;
            };
            persistent::settle(&shell, &call_id)
        },
    )
}

/// Forgets the state of persistent shell `shell` (its session ended). Returns whether it had
/// any; never throws (a non-string is `false`).
#[napi(js_name = "dropShell", ts_args_type = "shell: string")]
pub fn drop_shell(env: Env, shell: Unknown) -> bool {
    guarded(|| false, || JsRead::new(&env, &shell).string().is_some_and(|shell| persistent::drop_shell(&shell)))
}

/// The absolute, normalized files a bash command line writes (the old `harness_target.py
/// targets`), run in `cwd`. Throws a `TypeError` when `command` is not a string and an `Error`
/// when the command is over one of the parser's caps.
#[napi(js_name = "bashTargets", ts_args_type = "command: string, cwd: string", ts_return_type = "string[]")]
pub fn bash_targets(env: Env, command: Unknown, cwd: Unknown) -> Result<Vec<String>> {
    guarded(internal_error, || {
        let Some(command) = JsRead::new(&env, &command).string() else {
            env.throw_type_error(texts::BASH_TARGETS_NOT_A_STRING, None)?;
            return Err(Error::new(Status::PendingException, texts::BASH_TARGETS_NOT_A_STRING));
        };
        let base = directory(JsRead::new(&env, &cwd).string());
        match crate::analyses::bash_write_targets(&command, &base) {
            Ok(targets) => Ok(targets.iter().map(|path| path.to_string_lossy().into_owned()).collect()),
            Err(limit) => Err(Error::new(Status::GenericFailure, texts::unscannable_error(limit))),
        }
    })
}
