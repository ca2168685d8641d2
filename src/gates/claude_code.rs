//! Claude Code's own configuration, out of reach of the agent's file tools (docs/decisions.md#p-17).
//!
//! Claude Code runs its hooks, the MCP servers it starts and its `Write`/`Edit`/`NotebookEdit`
//! tools outside its sandbox. So a settings file, a command, an agent or skill definition, an MCP
//! server list or the hook executable written by one of those tools would run the agent's code
//! outside the sandbox at the next call, or hand it the owner's `/approve`. Only the owner edits
//! them. Sandboxed commands cannot write them either (Claude Code's sandbox masks the project's
//! and leaves everything outside the workspace read-only); this module judges the tools that run
//! outside it. DSH's tools are not affected: only Claude Code's names and MCP tools are read, and
//! only by a host that says it is Claude Code.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use super::patches;
use super::tools::{self, Action, ToolArgs};
use crate::paths;
use crate::texts::Denial;

/// The folder that holds a project's (and the user's) Claude Code configuration.
const CONFIG_DIR_NAME: &str = ".claude";
/// Files that configure Claude Code wherever they are: a project's MCP servers, the user's state
/// and MCP servers (`~/.claude.json`, or inside `CLAUDE_CONFIG_DIR`).
const CONFIG_FILE_NAMES: &[&str] = &[".mcp.json", ".claude.json"];

/// Where the configuration of this machine's Claude Code and of this package lives, besides every
/// `.claude` folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigPlaces {
    /// The user's Claude Code folder when `CLAUDE_CONFIG_DIR` moves it (`~/.claude` is a
    /// `.claude` folder already), and the user's own `~/.claude` folder.
    user_dirs: Vec<PathBuf>,
    /// Files and folders only the owner writes: the installed hook executable, this package's
    /// data folder, the managed settings folder.
    owner_paths: Vec<PathBuf>,
}

impl ConfigPlaces {
    /// The places this process's environment names: `CLAUDE_CONFIG_DIR`, `HOME` (`~/.claude`),
    /// `XDG_DATA_HOME` (else `~/.local/share`) for this package's data folder, and the managed
    /// settings folder of the platform.
    pub fn from_env(var: impl Fn(&str) -> Option<OsString>) -> Self {
        let absolute = |value: Option<OsString>| value.map(PathBuf::from).filter(|path| path.is_absolute());
        let home = absolute(var("HOME")).or_else(|| absolute(var("USERPROFILE")));
        let mut places = ConfigPlaces::default();
        if let Some(dir) = absolute(var("CLAUDE_CONFIG_DIR")) {
            places.user_dirs.push(paths::normalize(&dir));
        }
        if let Some(home) = &home {
            places.user_dirs.push(paths::normalize(&home.join(CONFIG_DIR_NAME)));
        }
        let data = absolute(var("XDG_DATA_HOME")).or_else(|| home.as_ref().map(|home| home.join(".local/share")));
        if let Some(data) = data {
            places.owner_paths.push(paths::normalize(&data.join("approval-gates")));
        }
        if let Some(local) = absolute(var("LOCALAPPDATA")) {
            places.owner_paths.push(paths::normalize(&local.join("approval-gates")));
        }
        for managed in MANAGED_SETTINGS_DIRS {
            places.owner_paths.push(PathBuf::from(managed));
        }
        places
    }

    /// Adds a file or folder only the owner writes (the hook executable judging the call).
    pub fn with_owner_path(mut self, path: &Path) -> Self {
        if path.is_absolute() {
            self.owner_paths.push(paths::normalize(path));
        }
        self
    }

    /// Whether `path` (absolute, normalized) is Claude Code's or this package's configuration.
    pub fn is_configuration(&self, path: &Path) -> bool {
        if self.owner_paths.iter().any(|owner| path.starts_with(owner)) {
            return true;
        }
        let name = path.file_name().and_then(|name| name.to_str()).unwrap_or("");
        if CONFIG_FILE_NAMES.iter().any(|file| name.eq_ignore_ascii_case(file)) {
            return true;
        }
        let segments: Vec<&str> = path
            .components()
            .filter_map(|component| match component {
                Component::Normal(segment) => Some(segment.to_str().unwrap_or("\u{fffd}")),
                _ => None,
            })
            .collect();
        // Every configuration folder on the path counts: a worktree under `.claude/worktrees/` is
        // data, but its own `.claude/` configures a session started there.
        (0..segments.len()).any(|at| {
            let is_user_dir = self.user_dirs.iter().any(|dir| depth(dir) == at + 1 && path.starts_with(dir));
            let is_config_dir = is_user_dir || segments[at].eq_ignore_ascii_case(CONFIG_DIR_NAME);
            is_config_dir && !is_data(&segments[at + 1..], is_user_dir)
        })
    }
}

/// The managed settings folders Claude Code reads (highest precedence); only an administrator
/// writes them, and an agent running as one must not.
#[cfg(target_os = "macos")]
const MANAGED_SETTINGS_DIRS: &[&str] = &["/Library/Application Support/ClaudeCode"];
#[cfg(windows)]
const MANAGED_SETTINGS_DIRS: &[&str] = &["C:\\ProgramData\\ClaudeCode", "C:\\Program Files\\ClaudeCode"];
#[cfg(not(any(target_os = "macos", windows)))]
const MANAGED_SETTINGS_DIRS: &[&str] = &["/etc/claude-code"];

/// The number of normal segments of an absolute path.
fn depth(path: &Path) -> usize {
    path.components().filter(|component| matches!(component, Component::Normal(_))).count()
}

/// Whether `rest`, the part of a path below a configuration folder, is data that Claude Code's
/// own tools are told to write and that configures nothing: a worktree's files, an agent's
/// memory, and in the user's folder the auto-memory, the plan-mode plans and the scripts of
/// `Workflow` runs. Matched exactly (lower case): another spelling is configuration, so a file
/// system that ignores case over-blocks rather than lets through.
fn is_data(rest: &[&str], user_dir: bool) -> bool {
    match rest {
        ["worktrees", _slug, _, ..] => true,
        ["agent-memory" | "agent-memory-local", _agent, _, ..] => true,
        ["projects", _project, "memory", _, ..] if user_dir => true,
        ["projects", _project, _session, "workflows", "scripts", _, ..] if user_dir => true,
        ["plans", _, ..] if user_dir => true,
        _ => false,
    }
}

/// Whether `name` is one of Claude Code's file tools or an MCP tool, the calls this module reads.
pub fn judges(name: &str) -> bool {
    matches!(name, "Write" | "Edit" | "MultiEdit" | "NotebookEdit") || name.starts_with("mcp__")
}

/// Refuses a Claude Code file tool's or an MCP tool's write of Claude Code's configuration (or of
/// this package's files), judged where it is typed and where it really lands (P-8). Commands are
/// left to Claude Code's sandbox.
pub fn check(
    name: &str,
    args: &dyn ToolArgs,
    session_dir: impl FnOnce() -> PathBuf,
    places: &ConfigPlaces,
) -> Option<Denial> {
    if !judges(name) {
        return None;
    }
    let written = written_paths(tools::action(name, args), args, session_dir)?;
    written.into_iter().find_map(|target| {
        let real = paths::real_path(&target);
        (places.is_configuration(&target) || places.is_configuration(&real))
            .then(|| Denial::HostConfiguration { path: target.display().to_string() })
    })
}

/// The files a file tool or an MCP tool writes, absolute; `None` when it writes none this module
/// can see (a command, a dispatch, an unknown tool).
fn written_paths(action: Action, args: &dyn ToolArgs, session_dir: impl FnOnce() -> PathBuf) -> Option<Vec<PathBuf>> {
    if let Action::Patch { fields } = action {
        let dir = session_dir();
        return Some(patches::files_named(args, fields).into_iter().map(|path| paths::absolute(path, &dir)).collect());
    }
    let named = named_paths(action, args);
    if named.is_empty() {
        return None;
    }
    let dir = session_dir();
    Some(named.iter().map(|path| paths::absolute(path, &dir)).collect())
}

/// The paths a file tool's or an MCP tool's fields name as written; a tool known by an MCP
/// server's fields names those and every field a writer's name would (another server may write
/// there).
fn named_paths(action: Action, args: &dyn ToolArgs) -> Vec<String> {
    let fields = |fields: &[&str]| fields.iter().filter_map(|field| args.string(field)).collect::<Vec<_>>();
    match action {
        Action::WriteFile { path_field, .. } | Action::CreateDirectory { path_field } => fields(&[path_field]),
        Action::WriteEach { path_fields, source_fields, .. } | Action::Unknown { path_fields, source_fields } => {
            [fields(path_fields), fields(source_fields)].concat()
        }
        Action::Known { known, .. } => {
            let mut named = named_paths(*known, args);
            for path in [fields(tools::PATH_FIELDS), fields(tools::SOURCE_FIELDS)].concat() {
                if !named.contains(&path) {
                    named.push(path);
                }
            }
            named
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> ConfigPlaces {
        let env = |name: &str| match name {
            "HOME" => Some(OsString::from("/home/u")),
            "CLAUDE_CONFIG_DIR" => Some(OsString::from("/home/u/cfg")),
            _ => None,
        };
        ConfigPlaces::from_env(env).with_owner_path(Path::new("/opt/hooks/approval-gates-hook"))
    }

    #[test]
    fn configuration_is_every_claude_folder_and_the_owner_paths() {
        let places = places();
        for path in [
            "/r/.claude/settings.json",
            "/r/.claude/settings.local.json",
            "/r/.claude/commands/approve.md",
            "/r/.claude/skills/approve/SKILL.md",
            "/r/.claude/agents/a.md",
            "/r/.claude/scheduled_tasks.json",
            "/r/.claude",
            "/r/.CLAUDE/Settings.json",
            "/r/sub/.claude/hooks/x.sh",
            "/r/.mcp.json",
            "/r/.MCP.json",
            "/home/u/.claude.json",
            "/home/u/.claude/settings.json",
            "/home/u/.claude/commands/approve.md",
            "/home/u/.claude/projects/p/s.jsonl",
            "/home/u/cfg/settings.json",
            "/home/u/cfg/.claude.json",
            "/home/u/.local/share/approval-gates/bin/approval-gates-hook",
            "/opt/hooks/approval-gates-hook",
            "/etc/claude-code/managed-settings.json",
            // A worktree's own configuration configures a session started there.
            "/r/.claude/worktrees/w/.claude/settings.local.json",
            "/r/.claude/worktrees/w/.mcp.json",
            // Data only where Claude Code keeps it, in that spelling.
            "/r/.claude/Worktrees/w/src/a.rs",
            "/r/.claude/projects/p/memory/m.md",
            "/r/.claude/worktrees/w",
        ] {
            assert!(places.is_configuration(Path::new(path)), "{path}");
        }
        for path in [
            "/r/src/main.rs",
            "/r/claude/settings.json",
            "/r/.claude-notes/x.md",
            "/r/docs/.claude.md",
            "/r/CLAUDE.md",
            "/r/.claude/worktrees/w/src/main.rs",
            "/r/.claude/agent-memory/reviewer/notes.md",
            "/home/u/.claude/projects/-r/memory/MEMORY.md",
            "/home/u/.claude/projects/-r/5e1/workflows/scripts/probe-wf.js",
            "/home/u/.claude/plans/happy-plan.md",
            "/home/u/cfg/plans/p.md",
            "/home/u/.local/share/other/x",
            "/opt/hooks/other",
        ] {
            assert!(!places.is_configuration(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn the_environment_names_the_places() {
        let none = ConfigPlaces::from_env(|_| None);
        assert_eq!(none.user_dirs, Vec::<PathBuf>::new());
        let relative = ConfigPlaces::from_env(|name| (name == "HOME").then(|| OsString::from("rel")));
        assert_eq!(relative.user_dirs, Vec::<PathBuf>::new());
        let xdg = ConfigPlaces::from_env(|name| match name {
            "HOME" => Some(OsString::from("/h")),
            "XDG_DATA_HOME" => Some(OsString::from("/d")),
            _ => None,
        });
        assert!(xdg.owner_paths.contains(&PathBuf::from("/d/approval-gates")));
        assert!(!xdg.owner_paths.contains(&PathBuf::from("/h/.local/share/approval-gates")));
    }
}
