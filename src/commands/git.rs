//! `git`: its global options (`-C`, `-c`, `--config-env`, the work tree and git folder) and the
//! variables it reads, the subcommands that write the working tree or run commands, and those
//! known to write none of its words.

mod pathspecs;
mod settings;

use std::borrow::Cow;

use super::approval::approval_through_cli;
use super::options::{Item, Spec, abbreviates, operands, options, prefix_spec, spec};
use super::readonly::is_read_only;
use super::sink::{Job, Next, Sink, join};
use super::{Arg, Effect, Environment, Variable, WorkTree, command_name, copies, patches, quote, unknown};
use pathspecs::{FromFile, Restore, from_file, pathspec_write};
pub use settings::HOOKS;
use settings::{
    config_from_environment, configured_commands, environment_settings, ext_command, git_alias, git_config,
};

/// `git [-C dir] [-c key=value] [--work-tree d] <subcommand> …`: what its settings run, the
/// hooks it may run, then its subcommand, whose writes land in its work tree.
pub(super) fn git(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    let args = &uncomputed_values_apart(args)[..];
    let mut dir = Arg::default();
    let environment = sink.job.environment.clone();
    let mut configs = environment_settings(&environment, sink);
    let (mut work_tree, mut git_dir) = (set_in(&environment, "GIT_WORK_TREE"), set_in(&environment, "GIT_DIR"));
    let mut exec_path = set_in(&environment, "GIT_EXEC_PATH").is_some();
    let start = options(args, &GLOBAL_OPTIONS, |item| match item {
        Item::Short('C', value) => {
            dir = Arg { text: join(&dir.text, &value.text), dynamic: dir.dynamic || value.dynamic, ..value }
        }
        // `-c alias.x='!cmd'`, `-c core.editor=cmd`: commands git may run.
        Item::Short('c', value) => configs.push(value),
        Item::Long("config-env", Some(value)) => configs.extend(config_from_environment(&value, &environment)),
        Item::Long("work-tree", value) => work_tree = value,
        Item::Long("git-dir", value) => git_dir = value,
        Item::Long("exec-path", Some(_)) => exec_path = true,
        _ => {}
    });
    // The programs of git's subcommands, and the `git` its subcommands and hooks run, come from
    // there first: programs the walk does not see (P-18).
    if exec_path {
        sink.push(Effect::RunsUnseen);
    }
    approval_through_cli(&configs, None, sink);
    configured_commands(&configs, sink);
    git_files(git_dir.as_ref(), &dir.text, &environment, sink);
    subcommand_program(args, sink);
    let sub = args.get(start)?;
    // Any git command may run hooks (a commit, a checkout, an index or ref update).
    sink.push(Effect::RunsHooks);
    let rest = args.get(start + 1..).unwrap_or_default();
    if let Some(alias) = git_alias(&configs, &sub.text) {
        return Some(vec![git_aliased(alias, rest, &dir.text, sink)]);
    }
    // `ext::` URLs run their command, whichever subcommand takes them.
    for url in rest {
        ext_command(url, sink);
    }
    let from = match PATHSPECS_FROM_FILE.contains(&sub.text.as_str()) {
        true => from_file(rest, stdin, sub.text == "reset", sink),
        false => FromFile::Absent,
    };
    let words = match from {
        FromFile::Absent => Cow::Borrowed(rest),
        FromFile::Read(words) => Cow::Owned(words),
        FromFile::File { file, words } => {
            let command = args.get(..=start).unwrap_or_default();
            let argv = std::iter::once(Arg::literal("git")).chain(command.iter().cloned()).chain(words).collect();
            sink.reads_files(argv, &[Arg { text: join(&dir.text, &file.text), ..file }]);
            return None;
        }
    };
    let tree = match (work_tree, git_dir) {
        // A directory the walk could not compute may be any guarded folder the line names.
        (None, _) if dir.dynamic => WorkTree::Given(Arg { text: String::new(), ..dir.clone() }),
        (Some(tree), _) => WorkTree::Given(tree),
        (None, Some(_)) => WorkTree::Here,
        (None, None) => WorkTree::Found,
    };
    let mut git = Git { stdin, configs: &configs, top: Vec::new() };
    in_work_tree(&sub.text, &words, &dir.text, tree, &mut git, sink);
    None
}

/// `git foo` runs the program `git-foo` where the `PATH` the line set finds it.
pub(super) fn subcommand_program(args: &[Arg], sink: &mut Sink) {
    let start = options(args, &GLOBAL_OPTIONS, |_| {});
    if let Some(sub) = args.get(start).filter(|sub| !sub.dynamic) {
        sink.run_found(&format!("git-{}", sub.text), args.get(start + 1..).unwrap_or_default());
    }
}

/// git's options before its subcommand that take a value.
/// git's own options go by their exact names (its subcommands' take prefixes).
const GLOBAL_OPTIONS: Spec =
    prefix_spec("Cc", &["git-dir", "work-tree", "namespace", "super-prefix", "config-env", "exec-path", "attr-source"])
        .exact();

/// git's words with each global option whose value the walk could not compute (`--work-tree="$t"`,
/// a word the option reader would take for the subcommand) as the option and its value apart.
fn uncomputed_values_apart(args: &[Arg]) -> Cow<'_, [Arg]> {
    if !args.iter().any(|arg| uncomputed_option(arg).is_some()) {
        return Cow::Borrowed(args);
    }
    let mut apart = Vec::new();
    for arg in args {
        match uncomputed_option(arg) {
            Some((name, value)) => {
                apart.extend([Arg::literal(&format!("--{name}")), Arg { text: value.to_string(), ..arg.clone() }])
            }
            None => apart.push(arg.clone()),
        }
    }
    Cow::Owned(apart)
}

/// A global `--option=value` word holding a part the walk could not compute: its name and value.
fn uncomputed_option(arg: &Arg) -> Option<(&str, &str)> {
    let (name, value) = arg.text.strip_prefix("--")?.split_once('=')?;
    (arg.dynamic && GLOBAL_OPTIONS.long.contains(&name)).then_some((name, value))
}

/// What a subcommand reads beyond its words: standard input, the settings; and the writes of its
/// `:/` pathspecs, from the top of the work tree.
struct Git<'a> {
    stdin: Option<&'a str>,
    configs: &'a [Arg],
    top: Vec<Effect>,
}

/// The subcommands whose pathspecs `--pathspec-from-file` may give and that write them in the
/// work tree, or (`reset`) put in the index what a later restore from it brings back (`add` and
/// `commit` put what the work tree holds).
const PATHSPECS_FROM_FILE: &[&str] = &["checkout", "restore", "rm", "stash", "reset"];

/// Subcommand `sub` run in `dir` (relative to where the job runs) with its work tree `tree`: what
/// it writes in a work tree given (`--work-tree`, `GIT_WORK_TREE`) lands where git places it
/// there, and `:/` pathspecs from the tree's top ([`Effect::InWorkTree`]).
fn in_work_tree(sub: &str, words: &[Arg], dir: &str, tree: WorkTree, git: &mut Git, sink: &mut Sink) {
    let dir = join(&sink.job.dir, dir);
    let given = matches!(tree, WorkTree::Given(_));
    let job = Job {
        args: Cow::Borrowed(words),
        dir: if given { String::new() } else { dir.clone() },
        roots: sink.job.roots.clone(),
        producer: sink.job.producer,
        reads_input: sink.job.reads_input,
        open: sink.job.open,
        environment: sink.job.environment.clone(),
        written: sink.job.written,
    };
    let mut placed = Vec::new();
    let out = if given { &mut placed } else { &mut *sink.out };
    let mut inner = Sink { job: &job, out, analyses: sink.analyses };
    match sub {
        // What they write is what their patches name.
        "apply" | "am" => patches::git_patch(sub, words, git.stdin, &mut inner),
        sub => git_subcommand(sub, words, git, &mut inner),
    }
    if given {
        sink.push(Effect::InWorkTree { dir: dir.clone(), tree: tree.clone(), from_top: false, effects: placed });
    }
    if !git.top.is_empty() {
        let effects = std::mem::take(&mut git.top);
        sink.push(Effect::InWorkTree { dir, tree, from_top: true, effects });
    }
}

/// The value a variable has on the way to the command, when the line sets it there.
fn set_in(environment: &Environment, name: &str) -> Option<Arg> {
    match environment.variable(name) {
        Variable::Set(value) => Some(value.clone()),
        _ => None,
    }
}

/// The files git writes beyond its work tree, where the line puts them: the git folder
/// (`--git-dir`, `GIT_DIR`, `GIT_COMMON_DIR`), its objects (`GIT_OBJECT_DIRECTORY`), its index
/// (`GIT_INDEX_FILE`), and the traces `GIT_TRACE*` names by an absolute path (a folder gets one
/// file each).
fn git_files(git_dir: Option<&Arg>, dir: &str, environment: &Environment, sink: &mut Sink) {
    let at = |path: &Arg| Arg { text: join(dir, &path.text), ..path.clone() };
    let folders = ["GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"].map(|name| set_in(environment, name));
    for folder in git_dir.into_iter().cloned().chain(folders.into_iter().flatten()) {
        sink.write_tree(&at(&folder), None, false);
    }
    if let Some(index) = set_in(environment, "GIT_INDEX_FILE") {
        sink.write(&at(&index));
    }
    for (name, value) in environment.values() {
        let Some(value) = Some(value).filter(|_| name.starts_with("GIT_TRACE")) else { continue };
        if value.dynamic || value.text.starts_with('/') {
            sink.write(value);
            sink.write_tree(value, None, false);
        }
    }
}

/// Whether git's words (after `git`) take the pathspecs from standard input
/// (`--pathspec-from-file=-`, `=/dev/stdin`).
pub(super) fn pathspecs_on_input(args: &[Arg]) -> bool {
    let start = options(args, &GLOBAL_OPTIONS, |_| {});
    if !args.get(start).is_some_and(|sub| PATHSPECS_FROM_FILE.contains(&sub.text.as_str())) {
        return false;
    }
    let rest = args.get(start + 1..).unwrap_or_default();
    values_of(rest, "", &[("pathspec-from-file", "pathspec-fr")]).iter().any(super::feeders::is_stdin)
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

/// The subcommands that take the diff and revision options, `--output <file>` among them.
const DIFF_OUTPUTS: &[&str] = &[
    "log",
    "show",
    "diff",
    "diff-tree",
    "diff-index",
    "diff-files",
    "range-diff",
    "format-patch",
    "whatchanged",
    "shortlog",
    "rev-list",
    "blame",
    "annotate",
    "reflog",
    "stash",
    "cherry",
];

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

/// The git subcommands that write the working tree or run commands, reached through [`git`].
fn git_subcommand(sub: &str, args: &[Arg], git: &mut Git, sink: &mut Sink) {
    if DIFF_OUTPUTS.contains(&sub) {
        for file in values_of(args, "", &[("output", "output")]) {
            sink.write(&file);
        }
    }
    for command in commands_run(sub, args) {
        match command.dynamic {
            true => sink.push(Effect::RunsUnseen),
            false => sink.script(&command.text),
        }
    }
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
            let restore = if from_revision { Restore::FromRevision } else { Restore::FromIndex };
            for path in paths {
                pathspec_write(path, restore, &mut git.top, sink);
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
            let restore = match (from_revision, !staged || worktree) {
                (_, false) => Restore::IntoIndex,
                (true, true) => Restore::FromRevision,
                (false, true) => Restore::FromIndex,
            };
            for path in paths {
                pathspec_write(path, restore, &mut git.top, sink);
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
        "reset" => reset(args, git, sink),
        "submodule" => submodule(args, sink),
        "stash" => stash(args, git, sink),
        "checkout-index" => checkout_index(args, git, sink),
        "format-patch" => format_patch(args, sink),
        "grep" => grep(args, git, sink),
        "difftool" => difftool(args, sink),
        "fetch" | "pull" | "push" | "clone" | "ls-remote" | "fetch-pack" | "send-pack" => {
            remote_programs(sub, args, sink);
            if !GIT_READERS.contains(&sub) {
                unknown::analyze(sub, args, None, sink);
            }
        }
        _ if GIT_READERS.contains(&sub) => {}
        _ => unknown::analyze(sub, args, None, sink),
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
    // `--exec` runs a program; an output the walk cannot name, nor the folder it stays in, may be
    // any guarded file named.
    if runs || !outputs.iter().all(|output| output.located()) {
        unknown::analyze("archive", args, None, sink);
        return;
    }
    for output in &outputs {
        sink.write(output);
    }
}

/// The command lines a subcommand runs through the shell: the values of `rebase --exec`,
/// `filter-branch --tree-filter` and the other filters, `send-email --to-cmd` and its kin;
/// `bisect run <command> <args>…` (its words, quoted).
fn commands_run(sub: &str, args: &[Arg]) -> Vec<Arg> {
    if sub == "bisect" && args.first().is_some_and(|first| first.text == "run" && !first.dynamic) {
        let words = args.get(1..).unwrap_or_default();
        let text = words.iter().map(|word| quote(&word.text)).collect::<Vec<_>>().join(" ");
        return vec![Arg { text, dynamic: words.iter().any(|word| word.dynamic), ..Arg::default() }];
    }
    let Some(options) = COMMAND_OPTIONS.iter().find(|options| options.sub == sub) else { return Vec::new() };
    values_of(args, options.short, options.long)
}

/// `git submodule [-q] foreach [--recursive] <command>…`: the command runs through the shell in
/// each submodule's folder, one the walk does not know; one word is a script (with `$name`,
/// `$sm_path`, `$displaypath`, `$sha1`, `$toplevel` and `path` set), more are `sh -c '<first>
/// "$@"'` with the rest as its parameters. The other subcommands are judged by their words.
fn submodule(args: &[Arg], sink: &mut Sink) {
    let option = |arg: &&Arg| !arg.dynamic && ["-q", "--quiet", "--cached", "--recursive"].contains(&arg.text.as_str());
    let mut words = args.iter().skip_while(option);
    if !words.next().is_some_and(|sub| !sub.dynamic && sub.text == "foreach") {
        unknown::analyze("submodule", args, None, sink);
        return;
    }
    let command: Vec<&Arg> = words.skip_while(option).collect();
    let Some((first, rest)) = command.split_first() else { return };
    if command.iter().any(|word| word.dynamic) {
        sink.push(Effect::RunsUnseen);
        return;
    }
    let script = match rest.is_empty() {
        true => format!("path=\"$sm_path\"; {}\n", first.text),
        false => std::iter::once(first.text.clone())
            .chain(rest.iter().map(|word| quote(&word.text)))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let uncomputed =
        |name: &str| (name.to_string(), Some(Arg { text: format!("${name}"), dynamic: true, ..Arg::default() }));
    let changes = Environment { changes: SUBMODULE_VARIABLES.map(uncomputed).into(), ..Environment::default() };
    sink.script_in(&format!("cd -- \"$sm_path\" && {{ {script}\n}}"), &changes);
}

/// The variables `git submodule foreach` sets for its command.
const SUBMODULE_VARIABLES: [&str; 5] = ["name", "sm_path", "displaypath", "sha1", "toplevel"];

/// A subcommand's options whose value is a command line: its letter, its long names (`(full,
/// shortest)`: `send-email` takes abbreviations).
struct CommandOptions {
    sub: &'static str,
    short: &'static str,
    long: &'static [(&'static str, &'static str)],
}

const COMMAND_OPTIONS: &[CommandOptions] = &[
    CommandOptions { sub: "rebase", short: "x", long: &[("exec", "exe")] },
    CommandOptions {
        sub: "filter-branch",
        short: "",
        long: &[
            ("env-filter", "env-filter"),
            ("tree-filter", "tree-filter"),
            ("index-filter", "index-filter"),
            ("parent-filter", "parent-filter"),
            ("msg-filter", "msg-filter"),
            ("commit-filter", "commit-filter"),
            ("tag-name-filter", "tag-name-filter"),
        ],
    },
    CommandOptions {
        sub: "send-email",
        short: "",
        long: &[
            ("to-cmd", "to-c"),
            ("cc-cmd", "cc-c"),
            ("header-cmd", "he"),
            ("sendmail-cmd", "sendm"),
            ("smtp-server", "smtp-se"),
        ],
    },
];

/// `git reset [<rev>] [--] <paths>`, `--soft`, `--mixed`: the index and refs only; the paths
/// (the first word may be the revision) are what a later restore from the index brings back.
/// `--hard`, `--merge`, `--keep` and `-p` rewrite the work tree: judged by their words (what a
/// hard reset brings back is a limit).
fn reset(args: &[Arg], git: &mut Git, sink: &mut Sink) {
    let mut writes = false;
    let mut paths = Vec::new();
    options(args, &spec("", &["pathspec-from-file"]), |item| match item {
        Item::Flag('p') => writes = true,
        Item::Long(name, None) => {
            writes |= [("hard", "h"), ("merge", "me"), ("keep", "k"), ("patch", "pa")]
                .iter()
                .any(|(full, shortest)| abbreviates(name, full, shortest))
        }
        Item::Operand(path) => paths.push(path),
        _ => {}
    });
    if writes {
        unknown::analyze("reset", args, None, sink);
        return;
    }
    for path in &paths {
        pathspec_write(path, Restore::IntoIndex, &mut git.top, sink);
    }
}

/// `git stash list|show` read; `create` makes a commit and `store`, `drop`, `clear` change the
/// stash's refs, none the work tree. The rest (`push` and its pathspecs, `pop`, `apply`) are judged
/// by their words; `push` (`save`, none) also brings back from `HEAD` the files under its
/// pathspecs (all, without one) that differ from it: a restore from the index.
fn stash(args: &[Arg], git: &mut Git, sink: &mut Sink) {
    let sub = args.first().filter(|arg| !arg.dynamic && !arg.text.starts_with('-'));
    if sub.is_some_and(|sub| STASH_KEEPS_THE_TREE.contains(&sub.text.as_str())) {
        return;
    }
    unknown::analyze("stash", args, None, sink);
    let words = match sub.map(|sub| sub.text.as_str()) {
        None => args,
        Some("push") => args.get(1..).unwrap_or_default(),
        Some("save") => &[],
        Some(_) => return,
    };
    restores_from_index(&operands(words, &spec("m", &["message", "pathspec-from-file"])), git, sink);
}

/// A restore from the index of `pathspecs`, of the whole tree without one.
fn restores_from_index(pathspecs: &[&Arg], git: &mut Git, sink: &mut Sink) {
    let everything = Arg::literal(".");
    let whole = [&everything];
    for pathspec in if pathspecs.is_empty() { &whole[..] } else { pathspecs } {
        pathspec_write(pathspec, Restore::FromIndex, &mut git.top, sink);
    }
}

/// `git checkout-index [-a] [--] <file>…`: writes those files (every one with `-a`) from the
/// index: judged by its words, and as a restore from the index of them, unless `--prefix` puts
/// them elsewhere (a prefix its words name).
fn checkout_index(args: &[Arg], git: &mut Git, sink: &mut Sink) {
    unknown::analyze("checkout-index", args, git.stdin, sink);
    let (mut all, mut elsewhere) = (false, false);
    let mut files = Vec::new();
    options(args, &spec("", &["prefix", "stage"]).flags(&["all"]), |item| match item {
        Item::Flag('a') | Item::Long("all", None) => all = true,
        Item::Long("prefix", _) => elsewhere = true,
        Item::Operand(file) => files.push(file),
        _ => {}
    });
    if !elsewhere && (all || !files.is_empty()) {
        restores_from_index(if all { &[] } else { &files }, git, sink);
    }
}

/// `git stash`'s subcommands that leave the work tree as it is.
const STASH_KEEPS_THE_TREE: &[&str] = &["list", "show", "create", "store", "drop", "clear"];

/// `git format-patch`: one file a commit in its `-o` folder (where git runs, without one), named
/// `0001-<subject>.patch` (`--suffix`; a bare number with `--numbered-files`), unless `--stdout` or
/// `--output` (above) takes them all.
fn format_patch(args: &[Arg], sink: &mut Sink) {
    let (mut folder, mut suffix) = (Arg::literal("."), ".patch".to_string());
    let (mut elsewhere, mut numbered) = (false, false);
    let long = ["output-directory", "suffix", "output", "subject-prefix", "start-number", "in-reply-to", "to", "cc"];
    options(args, &spec("ov", &long), |item| match item {
        Item::Short('o', dir) | Item::Long("output-directory", Some(dir)) => folder = dir,
        Item::Long("suffix", Some(value)) => suffix = value.text,
        Item::Long("stdout" | "output", _) => elsewhere = true,
        Item::Long("numbered-files", None) => numbered = true,
        _ => {}
    });
    if elsewhere {
        return;
    }
    let name = if numbered { "[0-9]*".to_string() } else { format!("[0-9][0-9][0-9][0-9]-*{suffix}") };
    sink.write(&Arg { text: join(&folder.text, &name), glob: true, ..folder });
}

/// `git grep -O[<pager>]`, `--open-files-in-pager[=<pager>]`: the pager (the one git would pick
/// when none is given) runs on the files that match, under the pathspecs ([`runs_on_files`]).
fn grep(args: &[Arg], git: &Git, sink: &mut Sink) {
    let mut pager = None;
    let mut words = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg.text == "--" && !arg.dynamic {
            words.push(arg.clone());
            words.extend(rest.by_ref().cloned());
            break;
        }
        match in_pager(arg) {
            Some(value) => pager = Some(value),
            None => words.push(arg.clone()),
        }
    }
    let Some(pager) = pager else { return };
    let pager = match pager.text.is_empty() && !pager.dynamic {
        true => default_pager(git, sink),
        false => Some(pager),
    };
    let mut pattern_given = false;
    let mut found = Vec::new();
    let long = ["max-depth", "threads", "max-count", "context", "after-context", "before-context", "file", "regexp"];
    options(&words, &spec("efABCm", &long), |item| match item {
        Item::Short('e' | 'f', _) | Item::Long("regexp" | "file", _) => pattern_given = true,
        Item::Operand(arg) => found.push(arg.clone()),
        _ => {}
    });
    let pathspecs = found.get(usize::from(!pattern_given)..).unwrap_or_default();
    runs_on_files(pager.as_ref(), pathspecs, sink);
}

/// The pager `-O…` or `--open-files-in-pager[=…]` names in `arg` (empty: git's own), if it is one.
fn in_pager(arg: &Arg) -> Option<Arg> {
    let value = |text: &str| Arg { text: text.to_string(), ..arg.clone() };
    if arg.dynamic {
        return None;
    }
    if let Some(long) = arg.text.strip_prefix("--") {
        let (name, pager) = long.split_once('=').unwrap_or((long, ""));
        return abbreviates(name, "open-files-in-pager", "op").then(|| value(pager));
    }
    // `-iO…`: letters before `O` that take no value; the rest of the word is the pager.
    let cluster = arg.text.strip_prefix('-')?;
    let at = cluster.find('O')?;
    let before = cluster.get(..at).unwrap_or_default();
    (!before.contains(|letter| "efABCm".contains(letter))).then(|| value(cluster.get(at + 1..).unwrap_or_default()))
}

/// The pager git runs when none is given: `GIT_PAGER`, else `core.pager`, else `PAGER` as the line
/// sets them on the way to git; `None` when the line sets none (one from outside the line).
fn default_pager(git: &Git, sink: &Sink) -> Option<Arg> {
    let environment = &sink.job.environment;
    set_in(environment, "GIT_PAGER")
        .or_else(|| settings::setting(git.configs, "core.pager"))
        .or_else(|| set_in(environment, "PAGER"))
}

/// `git difftool -x <tool>`, `--extcmd=<tool>`: the tool runs on a temporary copy of one side and
/// on the work tree's file (or folder, `--dir-diff`) of the other, under the pathspecs
/// ([`runs_on_files`]); other tools are judged by the command's words.
fn difftool(args: &[Arg], sink: &mut Sink) {
    let tools = values_of(args, "x", &[("extcmd", "ex")]);
    let Some(tool) = tools.last() else {
        unknown::analyze("difftool", args, None, sink);
        return;
    };
    let pathspecs: Vec<Arg> = match args.iter().position(|arg| arg.text == "--" && !arg.dynamic) {
        Some(at) => args.get(at + 1..).unwrap_or_default().to_vec(),
        None => args.iter().filter(|arg| !arg.text.starts_with('-') && !tools.contains(arg)).cloned().collect(),
    };
    runs_on_files(Some(tool), &pathspecs, sink);
}

/// A tool git runs on files it picks beneath `pathspecs` (beneath where it runs, without one):
/// `tool "$@"` judged with them as its words; a tool not known to only read (`less`, `diff -u`),
/// or one the walk cannot see, may write any file beneath them.
fn runs_on_files(tool: Option<&Arg>, pathspecs: &[Arg], sink: &mut Sink) {
    let here = [Arg::literal(".")];
    let roots = if pathspecs.is_empty() { &here[..] } else { pathspecs };
    if let Some(tool) = tool.filter(|tool| !tool.dynamic) {
        let positional = std::iter::once(Arg::literal(&tool.text)).chain(roots.iter().cloned()).collect();
        sink.run(&format!("{} \"$@\"", tool.text), positional);
        if only_reads(&tool.text) {
            return;
        }
    }
    for root in roots {
        sink.write_tree(root, None, false);
    }
}

/// Whether a command line is one command known to write none of its files (`less -R`, `diff -u`).
fn only_reads(command: &str) -> bool {
    let plain = !command.contains(|c: char| "$`;&|<>()\\\"'*?[]{}~#=\n".contains(c));
    let words: Vec<Arg> = command.split_whitespace().map(Arg::literal).collect();
    let Some((name, args)) = words.split_first() else { return false };
    let name = command_name(&name.text);
    plain && (is_read_only(name, args) || super::viewers::reads_only(name, args))
}

/// `--upload-pack`, `--receive-pack`, `--exec` (`clone -u`): a program git runs through the
/// shell on the repository (`<program> '<repository>'`): judged with the command's operands as
/// its words.
fn remote_programs(sub: &str, args: &[Arg], sink: &mut Sink) {
    let short = if sub == "clone" { "u" } else { "" };
    let long = [("upload-pack", "upl"), ("receive-pack", "rece"), ("exec", "exe")];
    let programs = values_of(args, short, &long);
    let repositories: Vec<Arg> =
        args.iter().filter(|arg| !arg.text.starts_with('-') && !programs.contains(arg)).cloned().collect();
    for program in &programs {
        if program.dynamic {
            sink.push(Effect::RunsUnseen);
            continue;
        }
        let positional = std::iter::once(Arg::literal(&program.text)).chain(repositories.iter().cloned()).collect();
        sink.run(&format!("{} \"$@\"", program.text), positional);
    }
}

/// The values given to options (before `--`): short letters `short` (`-xv`, `-x v`), long names
/// `(full, shortest)` or their abbreviations (`--name=v`, `--name v`), as git's parse-options
/// reads them.
fn values_of(args: &[Arg], short: &str, long: &[(&str, &str)]) -> Vec<Arg> {
    let mut values = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg.dynamic {
            continue;
        }
        if arg.text == "--" {
            break;
        }
        let value = |text: &str| Arg { text: text.to_string(), ..arg.clone() };
        if let Some(option) = arg.text.strip_prefix("--") {
            let (name, given) = option.split_once('=').map_or((option, None), |(name, given)| (name, Some(given)));
            if long.iter().any(|(full, shortest)| abbreviates(name, full, shortest)) {
                values.extend(given.map(value).or_else(|| words.next().cloned()));
            }
        } else if let Some(cluster) = arg.text.strip_prefix('-')
            && let Some(at) = cluster.find(|letter| short.contains(letter))
        {
            let rest = cluster.get(at + 1..).unwrap_or_default();
            values.extend(if rest.is_empty() { words.next().cloned() } else { Some(value(rest)) });
        }
    }
    values
}
