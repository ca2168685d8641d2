//! git's settings that run commands or name files git writes: `-c key=value`, `--config-env`,
//! `git config key value`, `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_KEY_<n>`; and the remote URLs
//! that are commands (`ext::cmd`).

use super::super::options::{Item, options, spec};
use super::super::sink::{Sink, join};
use super::super::{Arg, Effect, Environment, Variable, WorkTree, quote, unknown};

/// `-c key=value` settings whose value is a command line git runs (an editor, a pager, a helper,
/// a hook): the command is judged as if the line ran it (P-18).
const COMMAND_SETTINGS: &[&str] = &[
    "core.editor",
    "core.pager",
    "core.sshcommand",
    "core.fsmonitor",
    "core.askpass",
    "core.gitproxy",
    "core.alternaterefscommand",
    "sequence.editor",
    "diff.external",
    "gpg.program",
    "credential.helper",
    "interactive.difffilter",
    "sendemail.sendmailcmd",
    "sendemail.smtpserver",
    "sendemail.tocmd",
    "sendemail.cccmd",
    "uploadpack.packobjectshook",
];
/// Settings `<section>.<name>.<key>` whose value is a command line (`pager.<cmd>` has no key).
const COMMAND_SUBSECTION_KEYS: &[(&str, &str)] = &[
    ("tar", "command"),
    ("diff", "textconv"),
    ("diff", "command"),
    ("merge", "driver"),
    ("filter", "clean"),
    ("filter", "smudge"),
    ("filter", "process"),
    ("pager", ""),
    ("mergetool", "cmd"),
    ("mergetool", "path"),
    ("difftool", "cmd"),
    ("difftool", "path"),
    ("remote", "uploadpack"),
    ("remote", "receivepack"),
    ("credential", "helper"),
    ("gpg", "program"),
    ("browser", "cmd"),
    ("browser", "path"),
    ("man", "cmd"),
    ("man", "path"),
    ("submodule", "update"),
];
/// Settings naming a file git writes its traces to (or a folder it writes them into), read from
/// the user's config (`git config --global`).
const TRACE_SETTINGS: &[&str] = &["trace2.normaltarget", "trace2.perftarget", "trace2.eventtarget"];
/// The hooks a hooks folder may hold that git runs.
pub const HOOKS: &[&str] = &[
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-merge-commit",
    "post-checkout",
    "post-merge",
    "pre-rebase",
    "post-rewrite",
    "pre-push",
    "pre-applypatch",
    "applypatch-msg",
    "post-applypatch",
    "reference-transaction",
    "pre-auto-gc",
    "post-index-change",
    "push-to-checkout",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "fsmonitor-watchman",
    "sendemail-validate",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
];

/// One setting: its section and key in lower case (as git compares them), the subsection as
/// written, the value.
struct Setting<'a> {
    section: String,
    subsection: Option<&'a str>,
    key: String,
    value: &'a str,
}

impl<'a> Setting<'a> {
    /// `section[.subsection].key=value`; `None` without `=` (a boolean set to true).
    fn read(text: &'a str) -> Option<Setting<'a>> {
        let (name, value) = text.split_once('=')?;
        let (section, rest) = name.split_once('.')?;
        let (subsection, key) = match rest.rsplit_once('.') {
            Some((subsection, key)) => (Some(subsection), key),
            None => (None, rest),
        };
        Some(Setting { section: section.to_ascii_lowercase(), subsection, key: key.to_ascii_lowercase(), value })
    }

    fn is(&self, name: &str) -> bool {
        self.subsection.is_none() && name.split_once('.') == Some((self.section.as_str(), self.key.as_str()))
    }

    /// Whether git runs the value as a command line.
    fn runs(&self) -> bool {
        match self.subsection {
            None if self.section == "pager" => true,
            None => COMMAND_SETTINGS.iter().any(|name| self.is(name)),
            Some(_) if self.section == "pager" => false,
            Some(_) => COMMAND_SUBSECTION_KEYS.contains(&(self.section.as_str(), self.key.as_str())),
        }
    }
}

/// The value of `-c alias.<sub>=…` (section and key ignore case), the last one given.
pub(super) fn git_alias(configs: &[Arg], sub: &str) -> Option<Arg> {
    configs.iter().rev().find_map(|config| {
        let setting = Setting::read(&config.text)?;
        let named =
            setting.section == "alias" && setting.subsection.is_none() && setting.key == sub.to_ascii_lowercase();
        named.then(|| Arg { text: setting.value.to_string(), ..config.clone() })
    })
}

/// What settings make git do (P-18): the commands they give it to run, judged as scripts (a
/// value the walk could not compute, or a config file it does not read, as code it cannot see);
/// a hooks folder's hooks as script files; an `ext::` URL as its command. (`-c core.worktree` and
/// `-c trace2.*` are not read: git takes them from the repository's or the user's config files.)
pub(super) fn configured_commands(configs: &[Arg], sink: &mut Sink) {
    for config in configs {
        let Some(setting) = Setting::read(&config.text) else { continue };
        let value = Arg { text: setting.value.to_string(), ..config.clone() };
        if setting.is("core.hookspath") {
            for hook in HOOKS {
                let file = Arg { text: format!("{}/{hook}", setting.value.trim_end_matches('/')), ..value.clone() };
                sink.run_file(&file, false, true, &[]);
            }
            // A folder the walk cannot name may hold any hook: its words count as an unknown command's.
            if config.dynamic {
                unknown::analyze("git", std::slice::from_ref(config), None, sink);
            }
        } else if ["include", "includeif"].contains(&setting.section.as_str()) || setting.runs() && config.dynamic {
            sink.push(Effect::RunsUnseen);
        } else if setting.runs() && !setting.value.is_empty() {
            sink.script(setting.value.strip_prefix('!').unwrap_or(setting.value));
            // A diff or merge tool's command runs on files git picks (`$MERGED` is the work
            // tree's), which the walk cannot name.
            if ["difftool", "mergetool"].contains(&setting.section.as_str()) {
                sink.push(Effect::RunsUnseen);
            }
        }
        remote_commands(&setting, config, sink);
    }
}

/// An `ext::` URL a setting gives a remote (`remote.x.url`, or the base `url.<base>.insteadOf`
/// puts in place of another URL) runs its command.
fn remote_commands(setting: &Setting, config: &Arg, sink: &mut Sink) {
    let rewritten = (setting.section == "url").then_some(setting.subsection).flatten();
    for url in [Some(setting.value), rewritten].into_iter().flatten() {
        ext_command(&Arg { text: url.to_string(), ..config.clone() }, sink);
    }
}

/// `ext::cmd arg…` (git's `ext` transport, allowed by `protocol.ext.allow`) runs `cmd` with its
/// arguments, split at unescaped spaces without a shell: judged as that command with each word
/// quoted. `% ` is a space, `%%` a percent sign, `%s`/`%S` the service's name; a `%G`/`%V` word
/// is not passed.
pub(super) fn ext_command(url: &Arg, sink: &mut Sink) {
    let Some(command) = url.text.strip_prefix("ext::") else { return };
    if url.dynamic {
        sink.push(Effect::RunsUnseen);
        return;
    }
    let (mut words, mut word) = (Vec::new(), String::new());
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.push(std::mem::take(&mut word)),
            '%' => match chars.next() {
                Some(' ') => word.push(' '),
                Some('%') => word.push('%'),
                Some('s') => word.push_str("upload-pack"),
                Some('S') => word.push_str("git-upload-pack"),
                Some(other) => word.extend(['%', other]),
                None => word.push('%'),
            },
            c => word.push(c),
        }
    }
    words.push(word);
    let passed = words.iter().filter(|word| !word.is_empty() && !word.starts_with("%G") && !word.starts_with("%V"));
    let script = passed.map(|word| quote(word)).collect::<Vec<_>>().join(" ");
    sink.script(&script);
}

/// `git config core.worktree <path>` (relative to the git folder, `.git` at the top of the work
/// tree): every file a later git command of the line checks out may land under it.
fn configured_work_tree(value: &Arg, sink: &mut Sink) {
    let tree = Arg { text: join(".git", &value.text), ..value.clone() };
    let effects = sink.collected("", |top| top.write_tree(&tree, None, false));
    sink.push(Effect::InWorkTree { dir: sink.job.dir.clone(), tree: WorkTree::Found, from_top: true, effects });
}

/// The key and value `git config` sets (`git config [options] key value`, `git config set key
/// value`): a command setting is judged as run, as under `-c`, since every later git command
/// reads it (an alias `!cmd` too); `core.hooksPath` makes the walk run that folder's hooks at
/// each later git command of the line ([`Effect::HooksPath`]); a work tree or a trace target is
/// where later git commands write.
pub(super) fn git_config(args: &[Arg], sink: &mut Sink) {
    let mut reads = false;
    let mut found = Vec::new();
    let valued = ["file", "blob", "type", "default", "comment", "value", "url"];
    options(args, &spec("f", &valued), |item| match item {
        Item::Operand(arg) => found.push(arg),
        Item::Long(name, _) => reads |= CONFIG_READERS.contains(&name),
        Item::Flag('l' | 'e') => reads = true,
        _ => {}
    });
    if found.first().is_some_and(|first| first.text == "set") {
        found.remove(0);
    }
    let (Some(&key), Some(&value)) = (found.first(), found.get(1)) else { return };
    if reads || key.dynamic || CONFIG_SUBCOMMANDS.contains(&key.text.as_str()) {
        return;
    }
    let setting = Arg { text: format!("{}={}", key.text, value.text), ..value.clone() };
    match Setting::read(&setting.text) {
        Some(read) if read.is("core.hookspath") => {
            sink.push(Effect::HooksPath { dir: sink.job.dir.clone(), path: value.clone() })
        }
        Some(read) if read.is("core.worktree") => configured_work_tree(value, sink),
        // An absolute path: a file later git commands append their traces to (a folder, one each).
        Some(read) if TRACE_SETTINGS.iter().any(|name| read.is(name)) => {
            if value.dynamic || value.text.starts_with('/') {
                sink.write(value);
                sink.write_tree(value, None, false);
            }
        }
        Some(read) if read.section == "alias" && read.subsection.is_none() => {
            if let Some(command) = value.text.strip_prefix('!') {
                sink.script(command);
            }
        }
        _ => configured_commands(std::slice::from_ref(&setting), sink),
    }
}

/// `git config` options that read or remove rather than set.
const CONFIG_READERS: &[&str] = &[
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "get-color",
    "get-colorbool",
    "unset",
    "unset-all",
    "list",
    "edit",
    "remove-section",
    "rename-section",
];

/// `git config`'s subcommands (git 2.46) other than `set`.
const CONFIG_SUBCOMMANDS: &[&str] = &["get", "list", "unset", "rename-section", "remove-section", "edit"];

/// `--config-env=<name>=<variable>`: the setting `name` with the value of `variable` as the
/// command's environment has it; a variable the line does not set there may hold anything.
pub(super) fn config_from_environment(spec: &Arg, environment: &Environment) -> Option<Arg> {
    let (name, variable) = spec.text.rsplit_once('=')?;
    let unseen = || Arg { text: format!("{name}="), dynamic: true, ..Arg::default() };
    Some(match environment.variable(variable) {
        _ if spec.dynamic => unseen(),
        Variable::Set(value) => Arg { text: format!("{name}={}", value.text), ..value.clone() },
        Variable::Shell => unseen(),
        Variable::Unset => return None,
    })
}

/// The value of setting `name` (`section.key`) the last of `configs` gives.
pub(super) fn setting(configs: &[Arg], name: &str) -> Option<Arg> {
    configs.iter().rev().find_map(|config| {
        let setting = Setting::read(&config.text).filter(|setting| setting.is(name))?;
        Some(Arg { text: setting.value.to_string(), ..config.clone() })
    })
}

/// The settings the variables on the way to git give it: `GIT_CONFIG_PARAMETERS`'s entries, and
/// each `GIT_CONFIG_VALUE_<n>` with its `GIT_CONFIG_KEY_<n>`. A value whose key the line does not
/// set there (or could not compute) may be any setting's, a command's too: judged as a command;
/// text the walk cannot read may run anything.
pub(super) fn environment_settings(environment: &Environment, sink: &mut Sink) -> Vec<Arg> {
    let mut settings = Vec::new();
    for (name, value) in environment.values() {
        if name == "GIT_CONFIG_PARAMETERS" {
            match config_parameters(&value.text).filter(|_| !value.dynamic) {
                Some(entries) => {
                    settings.extend(entries.iter().map(|entry| Arg { text: entry.clone(), ..value.clone() }))
                }
                None => sink.push(Effect::RunsUnseen),
            }
            continue;
        }
        let Some(number) = name.strip_prefix("GIT_CONFIG_VALUE_") else { continue };
        match environment.variable(&format!("GIT_CONFIG_KEY_{number}")) {
            Variable::Set(key) if !key.dynamic => {
                settings.push(Arg { text: format!("{}={}", key.text, value.text), ..value.clone() })
            }
            _ if value.dynamic => sink.push(Effect::RunsUnseen),
            _ => sink.script(&value.text),
        }
    }
    settings
}

/// The settings `GIT_CONFIG_PARAMETERS` holds, as git reads it: entries `'key'='value'` (or
/// `'key=value'`) single-quoted as the shell quotes, apart by blanks. `None` where the text does
/// not read that way.
fn config_parameters(text: &str) -> Option<Vec<String>> {
    let mut settings = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (key, after) = single_quoted(rest)?;
        let (setting, after) = match after.strip_prefix('=') {
            Some(value) => {
                let (value, after) = single_quoted(value)?;
                (format!("{key}={value}"), after)
            }
            None => (key, after),
        };
        settings.push(setting);
        rest = after.trim_start();
    }
    Some(settings)
}

/// One single-quoted word at the start of `text` (`'\''` inside is a quote): the word, the rest.
fn single_quoted(text: &str) -> Option<(String, &str)> {
    let mut rest = text.strip_prefix('\'')?;
    let mut word = String::new();
    loop {
        let (part, after) = rest.split_once('\'')?;
        word.push_str(part);
        match after.strip_prefix("\\''") {
            Some(more) => {
                word.push('\'');
                rest = more;
            }
            None => return Some((word, after)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Setting, config_parameters};

    #[test]
    fn settings_ignore_the_case_of_section_and_key() {
        for text in ["core.editor=x", "Core.Editor=x", "CORE.EDITOR=x", "pager.log=x", "PAGER.Log=x"] {
            assert!(Setting::read(text).is_some_and(|setting| setting.runs()), "{text}");
        }
        for text in ["remote.o.uploadpack=x", "Remote.o.UploadPack=x", "credential.https://h.helper=x"] {
            assert!(Setting::read(text).is_some_and(|setting| setting.runs()), "{text}");
        }
        for text in ["user.name=x", "core.editorx=x", "pager.log.x=y", "remote.o.url=x"] {
            assert!(!Setting::read(text).is_some_and(|setting| setting.runs()), "{text}");
        }
    }

    #[test]
    fn config_parameters_read_as_git_writes_them() {
        assert_eq!(config_parameters("'core.editor'='vi'"), Some(vec!["core.editor=vi".to_string()]));
        assert_eq!(
            config_parameters(" 'a.b=1' 'c.d'='it'\\''s' "),
            Some(vec!["a.b=1".to_string(), "c.d=it's".to_string()])
        );
        assert_eq!(config_parameters(""), Some(Vec::new()));
        assert_eq!(config_parameters("core.editor=vi"), None);
        assert_eq!(config_parameters("'core.editor"), None);
    }
}
