//! How one analysis hands text to another without importing it.
//!
//! A bash line runs `pwsh -c …` or `python3 -c …` or applies a patch, a PowerShell line runs
//! `bash -c …`, a program starts a shell command: each analysis (or the command table below the
//! shells, `crate::commands`) recognises the hand-over and passes the text to the [`Analyses`] it
//! was given, which the layer above all of them implements (`crate::analyses`). The analyses are
//! siblings: none names another.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use super::answer::Answer;
use super::budget::Unscannable;

/// The analyses as one analysis sees the others: what it hands over, and the recognisers that
/// tell it a command line hands text over at all.
pub trait Analyses {
    /// The files a bash script writes when run in `base` (`bash -c …` from PowerShell, `cmd /c`).
    fn bash(&self, script: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable>;
    /// The files a PowerShell script writes when run in `base` (`pwsh -c …` from bash).
    fn powershell(&self, script: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable>;
    /// Whether a command of this name (its last path component) runs programs in another
    /// language (`python3`, `node`).
    fn runs_programs(&self, name: &str) -> bool;
    /// The interpreter run by `argv` (its name first), when it is one; `stdin` is what it is fed.
    fn program_run(&self, argv: &[String], stdin: Option<&str>) -> Option<Invocation>;
    /// The language a script's `#!` line names, when it is not a shell.
    fn shebang_language(&self, text: &str) -> Option<Language>;
    /// What a program in `language` writes and starts when run in `dir` with `args`; `text` is
    /// `None` when its script file could not be read.
    fn program(&self, language: Language, text: Option<&str>, args: &[String], dir: &Path) -> Answer<ProgramLimit>;
    /// The paths a patch text writes with `strip` leading components dropped (`patch -p`,
    /// `git apply`), as typed; `None` when the patch analysis cannot read it.
    fn patch_files(&self, text: &str, strip: Strip) -> Option<Vec<String>>;
}

/// The budget that stopped a program's analysis; its raw text then decides what it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramLimit {
    /// Longer than the program analysis's size cap.
    TooLarge,
    /// More than the tokens or the work the program analysis allows.
    OverBudget,
}

/// The largest script file read at check time (`python3 gen.py`, `bash x.sh`); a larger one is
/// judged by what the command line shows.
pub const MAX_SCRIPT_FILE_BYTES: u64 = 256 << 10;

/// Patches longer than this are not parsed (4 MiB); callers fall back to the raw text.
pub const MAX_PATCH_BYTES: usize = 4 << 20;

/// How many leading components of a unified diff's paths to drop (`-p`); the envelope's paths
/// are never stripped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strip(pub usize);

impl Strip {
    /// GNU `patch` without `-p` on a plain diff: only the last component.
    pub const BASENAME: Strip = Strip(usize::MAX);
}

/// A language whose programs are judged by the program analysis (P-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    JavaScript,
    /// TypeScript, read by the JavaScript analysis over TypeScript's grammar.
    TypeScript,
    Perl,
    Ruby,
    Php,
    Awk,
    Lua,
    Tcl,
    R,
    AppleScript,
    Sqlite,
    Jq,
}

/// The environment variables some interpreter reads options from ([`Language::options_variables`]).
pub const OPTIONS_VARIABLES: [&str; 2] = ["NODE_OPTIONS", "PYTHONPYCACHEPREFIX"];

impl Language {
    /// The environment variables the interpreter reads as options before its command line's,
    /// each with the option its value is: its words themselves (`""`:
    /// `NODE_OPTIONS='--require ./x.js' node build.js`), or the value attached to an option
    /// (`PYTHONPYCACHEPREFIX=d python3` is `python3 -Xpycache_prefix=d`).
    pub fn options_variables(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Language::JavaScript | Language::TypeScript => &[(OPTIONS_VARIABLES[0], "")],
            Language::Python => &[(OPTIONS_VARIABLES[1], "-Xpycache_prefix=")],
            _ => &[],
        }
    }

    /// The options that stand for a value of [`Self::options_variables`] the walk could not
    /// compute: it may hold a preload, so a preload of a module no analysis can read (P-18).
    pub fn unknown_options(self) -> &'static [&'static str] {
        match self {
            Language::JavaScript | Language::TypeScript => &["--require", "./\u{1}"],
            _ => &[],
        }
    }
}

/// Where a program's text comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Inline (`-c`, `-e`) or fed on standard input.
    Text(String),
    /// A script file, read at check time (relative to the command's directory).
    File(String),
    /// No program the analysis can read (`python3 -m module`, an interactive interpreter).
    Nothing,
}

/// One interpreter run, from its command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    pub language: Language,
    pub source: Source,
    /// The program's own arguments (`sys.argv[1:]`).
    pub args: Vec<String>,
    /// Files the interpreter's options write, whatever the program (`awk -i inplace`, `yq -i`,
    /// a sqlite database).
    pub writes: Vec<String>,
    /// Directories the interpreter's options fill with files of their own choosing, a tree each
    /// (`python3 -m zipfile -e a.zip dir`).
    pub trees: Vec<String>,
    /// Program text the interpreter runs before the program's own, in its language: the modules
    /// its options preload (`node -r ./x.js script.js` runs `require("./x.js");` first).
    pub prelude: String,
}

thread_local! {
    static HOST_NESTING: Cell<usize> = const { Cell::new(0) };
}

/// How many PowerShell hosts are under way on this thread: an input of a bash analysis, which
/// its cache keys on (bash run by `pwsh -c` counts hosts).
pub fn host_nesting() -> usize {
    HOST_NESTING.get()
}

/// `analysis` as one more host around what it runs, unless `max` hosts are already under way.
pub fn as_host<T>(max: usize, analysis: impl FnOnce() -> Result<T, Unscannable>) -> Result<T, Unscannable> {
    let nesting = HOST_NESTING.get();
    if nesting >= max {
        return Err(Unscannable::ScriptsTooDeep);
    }
    HOST_NESTING.set(nesting + 1);
    let result = analysis();
    HOST_NESTING.set(nesting);
    result
}
