//! What a command does that the gates care about, as data: the paths it writes and how, the
//! directory changes, and the text it hands to another analysis (a shell, PowerShell, a program).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::Arg;
use crate::analysis::handoff::Strip;

/// The `-p` level that keeps only a patched path's basename (a plain diff fed to `patch`).
pub const BASENAME_STRIP: usize = Strip::BASENAME.0;

/// What one simple command does that the gates care about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Writes (creates, truncates, appends, edits, removes, renames) this path.
    Write(Arg),
    /// Copies or moves something named `name` into `dir` when `dir` is a directory; `known_dir`
    /// when the command line says so (trailing `/`, `-t`, several sources), else the walk asks the
    /// file system.
    WriteInto {
        dir: Arg,
        name: Arg,
        known_dir: bool,
    },
    /// A directory made (`mkdir`, `install -d`): no file, but a copy into it later in the line
    /// lands inside it.
    MakeDirectory(Arg),
    /// An unknown command names this path (P-12): the guarded locations it is or holds, by its
    /// name ([`paths::Reach::Named`]); anything else is not a target.
    WriteNamed(Arg),
    /// git brings back the files beneath this path that differ from its index (`git checkout --
    /// <path>`, `git restore <path>`): which ones the walk cannot see, but the line may have made
    /// them differ (`git reset <rev> -- P` before it), so the guarded locations the line names
    /// there (P-18).
    RestoresNamed(Arg),
    /// git puts another version of the files under this path in its index (`git reset <rev> --
    /// <path>`, `git restore --staged`): what a later restore from the index
    /// ([`Effect::RestoresNamed`]) brings back under it.
    Stages(Arg),
    /// An unknown command runs in `dir` (the job's directory, `.` where the walk is): in a
    /// guarded folder it may write there without naming anything (P-18, [`paths::guarded_here`]).
    RunsIn(Arg),
    /// A whole tree is written at `dir/name` (`dir` itself when `name` is `None` or `dir` is not a
    /// directory): a recursive copy, move, sync, extract or checkout. Its targets are the guarded
    /// files the tree can create ([`paths::Reach::Tree`]).
    WriteTree {
        dir: Arg,
        name: Option<Arg>,
        known_dir: bool,
    },
    /// Writes git makes in its work tree, where git runs in `dir`: from the tree's top when
    /// `from_top` (`:/` and `:(top)` pathspecs); else from where git runs when that lies in the
    /// tree, and from its top when not (`git --work-tree=d` run outside `d`).
    InWorkTree {
        dir: String,
        tree: WorkTree,
        from_top: bool,
        effects: Vec<Effect>,
    },
    /// Runs code the walk cannot see (a command setting whose value it could not compute, a config
    /// file git includes): it may write every guarded location the line names (P-18).
    RunsUnseen,
    Cd(Cd),
    /// A script run by a child shell (`bash -c`, a shell reading a heredoc): scoped, with the
    /// environment the command gives it ([`super::sink::Sink::script`]); `reads_input` when the
    /// line's standard input reaches it (not under `xargs`).
    Script {
        script: String,
        environment: Environment,
        reads_input: bool,
    },
    /// A script run by a child shell given its parameters (`bash -c '…' arg0 arg1`, `sh -s a b`);
    /// `complete` when no other parameters can follow (not under `xargs` reading unknown input).
    Run {
        script: String,
        positional: Vec<Arg>,
        complete: bool,
        environment: Environment,
        reads_input: bool,
    },
    /// A symbolic link made at `link`, pointing to `target` (relative to the link's directory,
    /// or to the command's with `from_here`: `ln -r`).
    Link {
        link: Arg,
        target: Arg,
        from_here: bool,
    },
    /// A string run by this shell (`eval`): its `cd` counts afterwards.
    Eval(String),
    /// A script run by PowerShell (`pwsh -c`, `powershell -EncodedCommand`), for the caller's
    /// PowerShell analysis, in the current directory.
    PowerShell(String),
    /// A variable given a value the walk cannot know (`read`, `mapfile`).
    Forget(String),
    /// A program in another language (`python3 -c`, `node x.mjs`, a heredoc fed to `perl`): the
    /// interpreter's words and standard input, for the caller's program analysis to read, run in
    /// `dir` (relative to the walk's directory; empty: that one).
    Program {
        argv: Vec<String>,
        stdin: Option<String>,
        dir: String,
        /// An argument holds a part the walk could not compute (`"${x,,}"`).
        uncomputed: bool,
        /// How its environment differs from the shell's (`NODE_OPTIONS=… node`, `env -u …`).
        environment: Environment,
    },
    /// A script file a shell runs (`bash x.sh`; `source x.sh` when `this_shell`; `./x` by its
    /// `#!` line when `by_shebang`), read by the walk at check time.
    RunFile {
        path: Arg,
        this_shell: bool,
        by_shebang: bool,
        /// The words after the script: its `$1`, `$2`, … (`sys.argv[1:]` for a program run by
        /// its `#!` line).
        args: Vec<Arg>,
        /// How its environment differs from the shell's (for a script run by a shell of its own).
        environment: Environment,
    },
    /// A program run from one of `paths` (`foo` through the `PATH` the line set, git's `git-foo`,
    /// `/tmp/foo`): one the line wrote is judged as the script run there by its `#!` line; a path
    /// the walk could not compute, as code no analysis reads when the line wrote files (P-18).
    RunsFound {
        paths: Vec<Arg>,
        args: Vec<Arg>,
        environment: Environment,
    },
    /// A makefile `make` reads (`-f FILE`, else `GNUmakefile`, `makefile`, `Makefile` where it
    /// runs): when the line wrote it, its recipes run as a script (P-18: deferred execution whose
    /// text the call carries).
    Makefile {
        file: Arg,
        /// Where its recipes run (`make -C dir`; empty: where `make` runs).
        dir: Option<Arg>,
    },
    /// A command that runs what it reads (sed's `e`), reading `files`: the walk reads each and
    /// judges `argv` (the command without them) again with that text on its standard input, run
    /// in `dir`; a file it cannot read may hold anything.
    ReadsFiles {
        argv: Vec<Arg>,
        files: Vec<Arg>,
        dir: String,
        environment: Environment,
    },
    /// A git command: it may run the hooks the line wrote or made git's (P-18).
    RunsHooks,
    /// `git config core.hooksPath path`: later git commands run the hooks there; a relative path
    /// starts at the top of the work tree holding `dir`.
    HooksPath {
        dir: String,
        path: Arg,
    },
    /// Applies a patch (`git apply`, `git am`, `patch`): the walk reads it and writes the files
    /// its headers name (P-14).
    Patch(PatchRead),
    /// Runs the command line a variable holds (`LESSOPEN='|cmd %s' less f`), with `%s` standing
    /// for each of `files` ([`crate::commands::variable_command_lines`]): its value as the
    /// command's `environment` sets it, else as the line exported it.
    VariableCommand {
        variable: String,
        files: Vec<Arg>,
        environment: Environment,
    },
}

/// Where a git command's work tree is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkTree {
    /// The nearest folder up from where git runs that holds `.git`, found on disk.
    Found,
    /// Where git runs: a git folder given (`--git-dir`, `GIT_DIR`) without a work tree.
    Here,
    /// `--work-tree`, `GIT_WORK_TREE`: relative to where git runs.
    Given(Arg),
}

/// How a command's environment differs from the variables of the shell that runs it, outermost
/// first: the assignments before its name (`A=1 cmd`), then what the wrappers on the way to it
/// change (`env -i`, `env -u NAME`, `env NAME=value`, `sudo NAME=value`); and the values of the
/// variables the line exported before it, which every row that reads a variable sees.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// None of the shell's variables reach the command (`env -i`), only those `changes` sets.
    pub cleared: bool,
    /// A variable set to a value (`Some`) or removed (`None`), in the order they apply.
    pub changes: Vec<(String, Option<Arg>)>,
    /// The variables the line exported (`export UNZIP=…`, `declare -x`, `set -a`), by name, with
    /// the value the walk gives each (one it could not compute, or several: uncomputed).
    pub exported: Rc<[(String, Arg)]>,
}

/// What a command sees of one variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variable<'a> {
    /// The shell's own value, if it has one.
    Shell,
    /// Set on the way to the command, or exported by the line (its value may be uncomputed).
    Set(&'a Arg),
    /// Removed on the way (`env -u`, `env -i`).
    Unset,
}

impl Environment {
    /// This environment with `inner`'s differences applied after it (`env A=1 env -u B cmd`).
    pub fn then(&self, inner: &Environment) -> Environment {
        if inner.cleared {
            return inner.clone();
        }
        let mut changes = self.changes.clone();
        changes.extend(inner.changes.iter().cloned());
        Environment { cleared: self.cleared, changes, exported: Rc::clone(&self.exported) }
    }

    /// Every variable the command gets a value of from the line, with that value: those the line
    /// exported that nothing on the way changed, then those set on the way.
    pub fn values(&self) -> impl Iterator<Item = (&str, &Arg)> {
        let changed = |name: &str| self.cleared || self.changes.iter().any(|(changed, _)| changed == name);
        let exported = self.exported.iter().filter(move |(name, _)| !changed(name));
        let set = self.changes.iter().filter_map(|(name, value)| Some((name.as_str(), value.as_ref()?)));
        exported.map(|(name, value)| (name.as_str(), value)).chain(set)
    }

    /// The words the options variables `variables` hold where this environment sets them on the
    /// way to a command or the line exported them (`UNZIP='-d dir' unzip …`, `env TAR_OPTIONS=…
    /// tar …`, `export PARALLEL=…`), which it reads before its own: a word the walk could not
    /// compute is no option.
    pub fn option_words(&self, variables: &[&str]) -> Vec<Arg> {
        let mut words = Vec::new();
        for variable in variables {
            if let Variable::Set(value) = self.variable(variable) {
                words.extend(
                    value
                        .text
                        .split_whitespace()
                        .map(|word| Arg { dynamic: value.dynamic && word.contains(['$', '`']), ..Arg::literal(word) }),
                );
            }
        }
        words
    }

    pub fn variable(&self, name: &str) -> Variable<'_> {
        match self.changes.iter().rev().find(|(changed, _)| changed == name) {
            Some((_, Some(value))) => Variable::Set(value),
            Some((_, None)) => Variable::Unset,
            None if self.cleared => Variable::Unset,
            None => match self.exported.iter().find(|(exported, _)| exported == name) {
                Some((_, value)) => Variable::Set(value),
                None => Variable::Shell,
            },
        }
    }
}

/// The files the line wrote before a command with the text it showed them get (`echo … > f`,
/// absolute), and where the walk is: what a command reading one as input reads (`xargs -a f`,
/// `curl -K f`).
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    pub base: &'a Path,
    pub files: &'a [(PathBuf, String)],
}

impl Default for Written<'_> {
    fn default() -> Self {
        Written { base: Path::new("/"), files: &[] }
    }
}

impl<'a> Written<'a> {
    /// The text the line gave `file` (relative to `dir`, itself relative to where the walk is).
    pub fn text(&self, dir: &str, file: &Arg) -> Option<&'a str> {
        if self.files.is_empty() || file.dynamic || file.pipe {
            return None;
        }
        let path = crate::paths::absolute(super::sink::join(dir, &file.text), self.base);
        self.files.iter().find(|(written, _)| *written == path).map(|(_, text)| text.as_str())
    }
}

/// Where a patch comes from and how its paths are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchRead {
    /// `None`: the command's standard input.
    pub file: Option<Arg>,
    /// The text on standard input when the line shows it (a heredoc, a here-string, `echo … |`).
    pub stdin: Option<String>,
    /// `-p` levels to try: one when given, else the tool's defaults ([`BASENAME_STRIP`] among them).
    pub strips: Vec<usize>,
    /// `patch -d`: the directory everything, the patch file included, is relative to.
    pub chdir: Option<Arg>,
    /// `git apply --directory`: prepended to the patch's paths.
    pub prefix: Option<Arg>,
    /// The wrapper's directory (`git -C`), under which all of it happens.
    pub base: String,
    /// The command's words: when the patch cannot be read, those that name a guarded location
    /// are what it writes.
    pub words: Vec<Arg>,
    /// Where `patch` keeps the old content of each file it writes.
    pub backup: BackupName,
}

/// How `patch` names a backup when told (`-B prefix`, `-Y basename-prefix`, `-z suffix`, or
/// `SIMPLE_BACKUP_SUFFIX`): `<prefix><dir>/<basename-prefix><base><suffix>`. It makes one with
/// `-b`, and unasked when a hunk does not apply exactly. Without any, it is `<file>.orig` beside
/// the file, which is as guarded as the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BackupName {
    pub prefix: Option<Arg>,
    pub base_prefix: Option<Arg>,
    pub suffix: Option<Arg>,
}

impl BackupName {
    /// The backup of `file` (a path as the patch places it), when a part is given; uncomputed
    /// when a part is.
    pub fn of(&self, file: &str) -> Option<Arg> {
        let parts = [&self.prefix, &self.base_prefix, &self.suffix];
        if parts.iter().all(|part| part.is_none()) {
            return None;
        }
        fn text(part: &Option<Arg>) -> &str {
            part.as_ref().map_or("", |part| part.text.as_str())
        }
        let (dir, base) = file.rsplit_once('/').map_or(("", file), |(dir, base)| (dir, base));
        let dir = if file.contains('/') { format!("{dir}/") } else { String::new() };
        let name = format!("{}{dir}{}{base}{}", text(&self.prefix), text(&self.base_prefix), text(&self.suffix));
        let dynamic = parts.iter().any(|part| part.as_ref().is_some_and(|part| part.dynamic));
        Some(Arg { text: name, dynamic, ..Arg::default() })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cd {
    To(Arg),
    Home,
    /// `cd -`
    Back,
    /// `pushd dir`; `None` swaps the two top directories.
    Push(Option<Arg>),
    Pop,
    /// `dirs -c`, `pushd -n dir`, `pushd +1`, `popd +1`: the stack may have changed in a way
    /// the walk does not follow, so no later `popd` is sure to return where the walk thinks.
    ForgetStack,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_backup_is_prefix_folder_basename_prefix_name_suffix() {
        let part = |text: &str| Some(Arg::literal(text));
        let prefix = BackupName { prefix: part("d/"), ..BackupName::default() };
        assert_eq!(prefix.of("a/x.md").map(|arg| arg.text), Some("d/a/x.md".to_string()));
        let base = BackupName { base_prefix: part("d/"), suffix: part(".md"), ..BackupName::default() };
        assert_eq!(base.of("a/approval").map(|arg| arg.text), Some("a/d/approval.md".to_string()));
        assert_eq!(base.of("x").map(|arg| arg.text), Some("d/x.md".to_string()));
        assert_eq!(BackupName::default().of("x"), None);
    }
}
