//! `git`: its `-C` directory and `-c` configuration (aliases that run commands), the
//! subcommands that write the working tree, and those known to write none of its words.

use std::borrow::Cow;

use super::approval::approval_through_cli;
use super::options::{Item, operands, options, prefix_spec, spec};
use super::sink::{Job, Next, Sink, join};
use super::{Arg, Effect, copies, has_wildcard, patches, quote, unknown};
use crate::paths::{self, glob_matches};

/// `git [-C dir] checkout|restore … -- <paths>`, `git rm`, `git mv`.
pub(super) fn git(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let mut dir = String::new();
    let mut dynamic = false;
    let long = ["git-dir", "work-tree", "namespace", "super-prefix", "config-env", "exec-path"];
    let mut configs = Vec::new();
    // git's own options go by their exact names (its subcommands' take prefixes).
    let start = options(args, &prefix_spec("Cc", &long).exact(), |item| match item {
        Item::Short('C', value) => {
            dir = join(&dir, &value.text);
            dynamic |= value.dynamic;
        }
        // `-c alias.x='!cmd'`, `-c core.editor=cmd`: commands git may run.
        Item::Short('c', value) => configs.push(value),
        _ => {}
    });
    approval_through_cli(&configs, None, sink);
    configured_commands(&configs, sink);
    let sub = args.get(start)?;
    // Any git command may run hooks (a commit, a checkout, an index or ref update).
    sink.push(Effect::RunsHooks);
    if let Some(alias) = git_alias(&configs, &sub.text) {
        let rest = args.get(start + 1..).unwrap_or_default();
        return Some(vec![git_aliased(alias, rest, &dir, sink)]);
    }
    let job = Job {
        args: Cow::Borrowed(args.get(start + 1..).unwrap_or_default()),
        dir: join(&sink.job.dir, &dir),
        roots: sink.job.roots.clone(),
        producer: sink.job.producer,
        reads_input: sink.job.reads_input,
        open: sink.job.open,
        environment: sink.job.environment.clone(),
    };
    let mut inner = Sink { job: &job, out: &mut *sink.out, analyses: sink.analyses };
    match sub.text.as_str() {
        // What they write is what their patches name.
        "apply" | "am" => patches::git_patch(&sub.text, &job.args, stdin, &mut inner),
        sub => git_subcommand(sub, &job.args, &mut inner),
    }
    None
}

/// git's subcommands that write no file their words name (the object store and refs aside).
const GIT_READERS: &[&str] = &[
    "log",
    "show",
    "diff",
    "status",
    "blame",
    "annotate",
    "grep",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "rev-list",
    "cat-file",
    "hash-object",
    "show-ref",
    "for-each-ref",
    "describe",
    "shortlog",
    "reflog",
    "whatchanged",
    "add",
    "commit",
    "fetch",
    "push",
    "branch",
    "tag",
    "remote",
    "notes",
    "name-rev",
    "merge-base",
    "count-objects",
    "fsck",
    "check-ignore",
    "check-attr",
    "verify-commit",
    "verify-tag",
    "help",
    "version",
    "var",
    "diff-tree",
    "diff-files",
    "diff-index",
    "range-diff",
    "cherry",
    "switch",
    "stage",
];
/// The value of `-c alias.<sub>=…` (alias names ignore case), the last one given.
fn git_alias(configs: &[Arg], sub: &str) -> Option<Arg> {
    configs.iter().rev().find_map(|config| {
        let (key, value) = config.text.split_once('=')?;
        let name = key.strip_prefix("alias.").or_else(|| key.strip_prefix("ALIAS."))?;
        name.eq_ignore_ascii_case(sub).then(|| Arg { text: value.to_string(), ..config.clone() })
    })
}

/// `git -c alias.x='!cmd' x args` runs `sh -c 'cmd "$@"' cmd args` in the work tree's top (taken
/// as the `-C` directory); `alias.x='checkout -- f'` is git with those words.
fn git_aliased(alias: Arg, rest: &[Arg], dir: &str, sink: &mut Sink) -> Next {
    if let Some(command) = alias.text.strip_prefix('!') {
        let positional = std::iter::once(Arg::literal(command)).chain(rest.iter().cloned()).collect();
        let script = format!("{command} \"$@\"");
        let script = if dir.is_empty() { script } else { format!("cd {} && {script}", quote(dir)) };
        sink.run(&script, positional);
        return Next::with(Vec::new());
    }
    // The alias's words, then the rest, in the `-C` directory.
    let mut words = vec![Arg::literal("git")];
    if !dir.is_empty() {
        words.extend([Arg::literal("-C"), Arg::literal(dir)]);
    }
    words.extend(alias.text.split_whitespace().map(|word| Arg { text: word.to_string(), ..alias.clone() }));
    words.extend(rest.iter().cloned());
    Next::with(words)
}

/// The git subcommands that write the working tree, reached through [`git`].
fn git_subcommand(sub: &str, args: &[Arg], sink: &mut Sink) {
    match sub {
        "checkout" => {
            let separator = args.iter().position(|arg| !arg.dynamic && arg.text == "--");
            let (paths, from_revision): (Vec<&Arg>, bool) = match separator {
                Some(at) => (
                    args.get(at + 1..).unwrap_or_default().iter().collect(),
                    args.get(..at).unwrap_or_default().iter().any(|arg| !arg.text.starts_with('-')),
                ),
                None => {
                    // Without `--`, the first of several operands may be a revision the rest are
                    // restored from (`git checkout HEAD~1 .`); each is still a path it may write.
                    let found = operands(args, &spec("bB", &["orphan", "conflict", "pathspec-from-file"]));
                    let from_revision = found.len() > 1;
                    (found, from_revision)
                }
            };
            for path in paths {
                pathspec_write(path, from_revision, sink);
            }
        }
        "restore" => {
            let (mut staged, mut worktree, mut from_revision) = (false, false, false);
            let paths = {
                let mut found = Vec::new();
                let restore = spec("s", &["source", "pathspec-from-file"]).flags(&["staged", "worktree"]);
                options(args, &restore, |item| match item {
                    Item::Short('s', _) | Item::Long("source", Some(_)) => from_revision = true,
                    Item::Flag('S') | Item::Long("staged", None) => staged = true,
                    Item::Flag('W') | Item::Long("worktree", None) => worktree = true,
                    Item::Operand(arg) => found.push(arg),
                    _ => {}
                });
                found
            };
            if !staged || worktree {
                for path in paths {
                    pathspec_write(path, from_revision, sink);
                }
            }
        }
        "rm" => {
            let mut index_only = false;
            let mut found = Vec::new();
            options(args, &spec("", &["pathspec-from-file"]).flags(&["cached", "dry-run"]), |item| match item {
                Item::Long("cached" | "dry-run", None) | Item::Flag('n') => index_only = true,
                Item::Operand(arg) => found.push(arg),
                _ => {}
            });
            if !index_only {
                for path in found {
                    sink.write(path);
                }
            }
        }
        "mv" => copies::GIT_MV.run(args, sink),
        "archive" => git_archive(args, sink),
        "config" => {
            git_config(args, sink);
            unknown::analyze(sub, args, None, sink);
        }
        _ if GIT_READERS.contains(&sub) => {}
        _ => unknown::analyze(sub, args, None, sink),
    }
}

/// One pathspec of `checkout`/`restore`: the path it names, and when it restores from a revision
/// (which may bring back any file under it) the tree under it. Magic (`:(icase)x`, `:/x`,
/// `:(top)x`) is read off: `icase` is the path in any case, so its lower case too (the guarded
/// names are lower case); `:/` and `:(top)` start at the top of the work tree, not where git
/// runs (`cd src && git checkout HEAD~1 -- :/` is the whole repository); a glob (which in a
/// pathspec crosses `/`) reaches the tree under the directory before its first wildcard. An
/// exclusion (`:!x`, `:^x`) writes nothing.
fn pathspec_write(spec: &Arg, from_revision: bool, sink: &mut Sink) {
    let Some(pathspec) = Pathspec::read(&spec.text) else { return };
    if pathspec.top {
        sink.at_top(|top| pathspec_paths_write(&pathspec, spec, from_revision, top));
    } else {
        pathspec_paths_write(&pathspec, spec, from_revision, sink);
    }
}

/// [`pathspec_write`] of a pathspec with its magic read off.
fn pathspec_paths_write(pathspec: &Pathspec, spec: &Arg, from_revision: bool, sink: &mut Sink) {
    let glob = has_wildcard(&pathspec.path) && !pathspec.literal;
    let mut spellings = vec![pathspec.path.clone()];
    if pathspec.icase && pathspec.path.to_lowercase() != pathspec.path {
        spellings.push(pathspec.path.to_lowercase());
    }
    for text in spellings {
        let text = if text.is_empty() { ".".to_string() } else { text };
        let path = Arg { text, glob: spec.glob || glob, ..spec.clone() };
        sink.write(&path);
        if !from_revision {
            continue;
        }
        if glob && may_match_a_guarded_name(&path.text) {
            let before = path.text.find(['*', '?', '[']).map_or(path.text.as_str(), |at| &path.text[..at]);
            let dir = before.rsplit_once('/').map_or(".", |(dir, _)| if dir.is_empty() { "/" } else { dir });
            sink.write_tree(&Arg { text: dir.to_string(), glob: false, ..path.clone() }, None, true);
        } else {
            sink.write_tree(&path, None, false);
        }
    }
}

/// Could a pathspec glob (whose `*` crosses `/`) end in a guarded file's name: `approval.md`, or
/// the Markdown files of the plans and sdd folders? `'*.js'` cannot; `'*.md'`, `'docs/*'` can.
fn may_match_a_guarded_name(pattern: &str) -> bool {
    let last = pattern.rsplit('/').next().unwrap_or(pattern).to_ascii_lowercase();
    glob_matches(&last, paths::APPROVAL_FILE) || last.ends_with(".md") || last.ends_with(['*', '?', ']'])
}

/// A pathspec with its magic read off.
struct Pathspec {
    path: String,
    icase: bool,
    literal: bool,
    /// `:/`, `:(top)`: from the top of the work tree, not where git runs.
    top: bool,
}

impl Pathspec {
    /// `None` for an exclusion.
    fn read(text: &str) -> Option<Pathspec> {
        let mut pathspec = Pathspec { path: text.to_string(), icase: false, literal: false, top: false };
        let Some(magic) = text.strip_prefix(':') else { return Some(pathspec) };
        if let Some(long) = magic.strip_prefix('(') {
            let (words, path) = long.split_once(')').unwrap_or((long, ""));
            for word in words.split(',') {
                match word.split(':').next().unwrap_or(word) {
                    "exclude" => return None,
                    "icase" => pathspec.icase = true,
                    "literal" => pathspec.literal = true,
                    "top" => pathspec.top = true,
                    _ => {}
                }
            }
            pathspec.path = path.to_string();
            return Some(pathspec);
        }
        // Short magic: `:/`, `:!`, `:^`, up to an optional second `:`.
        let end = magic.find(|c: char| !matches!(c, '/' | '!' | '^')).unwrap_or(magic.len());
        let (short, rest) = magic.split_at(end);
        if short.contains(['!', '^']) {
            return None;
        }
        pathspec.top = short.contains('/');
        pathspec.path = rest.strip_prefix(':').unwrap_or(rest).to_string();
        Some(pathspec)
    }
}

/// `-c key=value` settings whose value is a command line git runs (an editor, a pager, a hook's
/// folder, an archive filter): the command is judged as if the line ran it (P-18).
const COMMAND_SETTINGS: &[&str] = &[
    "core.editor",
    "core.pager",
    "core.sshcommand",
    "core.fsmonitor",
    "core.askpass",
    "sequence.editor",
    "diff.external",
    "gpg.program",
    "gpg.ssh.program",
    "gpg.x509.program",
    "credential.helper",
    "interactive.difffilter",
    "sendemail.sendmailcmd",
];
/// Settings `<section>.<name>.<key>` whose value is a command line.
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
    ("difftool", "cmd"),
];
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

/// The key and value `git config` sets (`git config [options] key value`, `git config set key
/// value`): a command setting is judged as run, as under `-c`, since every later git command
/// reads it (an alias `!cmd` too); `core.hooksPath` makes the walk run that folder's hooks at
/// each later git command of the line ([`Effect::HooksPath`]).
fn git_config(args: &[Arg], sink: &mut Sink) {
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
    let name = key.text.to_ascii_lowercase();
    if name == "core.hookspath" {
        sink.push(Effect::HooksPath { dir: sink.job.dir.clone(), path: value.clone() });
    } else if let Some(command) = value.text.strip_prefix('!').filter(|_| name.starts_with("alias.")) {
        sink.script(command);
    } else {
        let setting = Arg { text: format!("{name}={}", value.text), ..value.clone() };
        configured_commands(std::slice::from_ref(&setting), sink);
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

/// The commands `-c` settings give git to run, as scripts; a hooks folder's hooks as script files.
fn configured_commands(configs: &[Arg], sink: &mut Sink) {
    for config in configs {
        let Some((key, value)) = config.text.split_once('=') else { continue };
        let key = key.to_ascii_lowercase();
        if key == "core.hookspath" {
            let dir = Arg { text: value.to_string(), ..config.clone() };
            for hook in HOOKS {
                let file = Arg { text: format!("{}/{hook}", value.trim_end_matches('/')), ..dir.clone() };
                sink.run_file(&file, false, true, &[]);
            }
            // A folder the walk cannot name may hold any hook: its words count as an unknown command's.
            if config.dynamic {
                unknown::analyze("git", std::slice::from_ref(config), None, sink);
            }
            continue;
        }
        let runs = COMMAND_SETTINGS.contains(&key.as_str())
            || key.split_once('.').is_some_and(|(section, rest)| {
                let last = rest.rsplit_once('.').map_or(if section == "pager" { "" } else { rest }, |(_, last)| last);
                COMMAND_SUBSECTION_KEYS.contains(&(section, last))
            });
        if runs && !value.is_empty() {
            let script = value.strip_prefix('!').unwrap_or(value);
            sink.script(script);
        }
    }
}

/// `git archive [-o file] <tree-ish> [paths]` reads the object store and writes only its `-o`
/// file (else standard output). `--exec` names a program git runs for a local `--remote`.
fn git_archive(args: &[Arg], sink: &mut Sink) {
    let long = ["output", "format", "prefix", "remote", "exec", "add-file", "add-virtual-file", "mtime"];
    let mut outputs = Vec::new();
    let mut runs = false;
    options(args, &spec("o", &long), |item| match item {
        Item::Short('o', file) | Item::Long("output", Some(file)) => outputs.push(file),
        Item::Long("exec", _) => runs = true,
        _ => {}
    });
    // `--exec` runs a program; an output the walk cannot name may be any guarded file named.
    if runs || outputs.iter().any(|output| output.dynamic) {
        unknown::analyze("archive", args, None, sink);
        return;
    }
    for output in &outputs {
        sink.write(output);
    }
}

#[cfg(test)]
mod tests {
    use super::{Pathspec, may_match_a_guarded_name};

    #[test]
    fn pathspec_magic_is_read_off() {
        let read = |text: &str| Pathspec::read(text).map(|spec| (spec.path, spec.icase, spec.literal || spec.top));
        assert_eq!(read("docs/x.md"), Some(("docs/x.md".to_string(), false, false)));
        assert_eq!(read(":(icase)DOCS/X.MD"), Some(("DOCS/X.MD".to_string(), true, false)));
        assert_eq!(read(":(literal)a*b"), Some(("a*b".to_string(), false, true)));
        assert_eq!(read(":(top)a"), Some(("a".to_string(), false, true)));
        assert_eq!(read(":/docs"), Some(("docs".to_string(), false, true)));
        assert_eq!(read(":/"), Some((String::new(), false, true)));
        assert_eq!(read(":/:x"), Some(("x".to_string(), false, true)));
        // Exclusions write nothing.
        assert_eq!(read(":!docs"), None);
        assert_eq!(read(":^docs"), None);
        assert_eq!(read(":(exclude)docs"), None);
    }

    #[test]
    fn pathspec_globs_reach_guarded_names_only_when_they_can_end_in_one() {
        for pattern in ["*.md", "*.MD", "openspec/changes/*/approv*", "docs/*", "*", "a?", "plans/[pq]"] {
            assert!(may_match_a_guarded_name(pattern), "{pattern}");
        }
        for pattern in ["*.js", "src/*.rs", "*.md.bak", "approval*.txt"] {
            assert!(!may_match_a_guarded_name(pattern), "{pattern}");
        }
    }
}
