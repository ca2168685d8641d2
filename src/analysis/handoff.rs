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
use super::values::temporary_folder;

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
    /// What a program in `language` writes and starts when run at `place` with `args`; `text` is
    /// `None` when its script file could not be read; with `unseen_code` it may load code no
    /// analysis reads ([`Invocation::unseen_code`]).
    fn program(
        &self,
        language: Language,
        text: Option<&str>,
        args: &[String],
        place: Place,
        unseen_code: bool,
    ) -> Answer<ProgramLimit>;
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

/// How an interpreter reads one variable of its environment ([`Language::environment`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// Options read before its command line's (`NODE_OPTIONS='--require ./x.js'`).
    Options,
    /// One option's value, attached to it (`PYTHONPYCACHEPREFIX=d` is `-Xpycache_prefix=d`).
    OptionValue(&'static str),
    /// Switches read before its command line's, each word one whose `-` may be left out
    /// (`PERL5OPT=Mstrict`, `RUBYOPT=-rx`).
    Switches,
    /// Code run before the program, or after an `@` the file holding it (`LUA_INIT`).
    Code,
    /// A file of code run before the program (`PYTHONSTARTUP`).
    File,
    /// Folders (or files) it loads modules or settings from, apart by the character
    /// (`PYTHONPATH`, `PERL5LIB`, `PHPRC`, `LUA_PATH`'s `;`-separated templates).
    Folders(char),
}

/// Every variable some interpreter reads ([`Language::environment`]): a shell the line starts
/// gets them as the walk knows them, and one the walk could not compute is kept as such.
pub const INTERPRETER_VARIABLES: [&str; 30] = [
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "PERL5DB",
    "RUBYOPT",
    "RUBYLIB",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONUSERBASE",
    "PYTHONSTARTUP",
    "PYTHONPYCACHEPREFIX",
    "PHPRC",
    "PHP_INI_SCAN_DIR",
    "AWKPATH",
    "AWKLIBPATH",
    "LUA_INIT",
    "LUA_INIT_5_2",
    "LUA_INIT_5_3",
    "LUA_INIT_5_4",
    "LUA_PATH",
    "LUA_PATH_5_2",
    "LUA_PATH_5_3",
    "LUA_PATH_5_4",
    "LUA_CPATH",
    "LUA_CPATH_5_2",
    "LUA_CPATH_5_3",
    "LUA_CPATH_5_4",
    "TCLLIBPATH",
];

/// The variables an interpreter takes its temporary folder from when they are set and not empty:
/// Python the first of `TMPDIR`, `TEMP`, `TMP` it can write in, Node the first of `TMPDIR`,
/// `TMP`, `TEMP` ([`Invocation::temporary`]).
pub const TEMPORARY_VARIABLES: [&str; 3] = ["TMPDIR", "TEMP", "TMP"];

const JAVASCRIPT_ENVIRONMENT: &[(&str, Reads)] =
    &[("NODE_OPTIONS", Reads::Options), ("NODE_PATH", Reads::Folders(':'))];
const PERL_ENVIRONMENT: &[(&str, Reads)] = &[
    ("PERL5OPT", Reads::Switches),
    ("PERL5LIB", Reads::Folders(':')),
    ("PERLLIB", Reads::Folders(':')),
    // The debugger's own code, run under `-d`.
    ("PERL5DB", Reads::Code),
];
const RUBY_ENVIRONMENT: &[(&str, Reads)] = &[("RUBYOPT", Reads::Switches), ("RUBYLIB", Reads::Folders(':'))];
const PYTHON_ENVIRONMENT: &[(&str, Reads)] = &[
    // `sitecustomize`, `usercustomize` and `.pth` files load from these without an import.
    ("PYTHONPATH", Reads::Folders(':')),
    ("PYTHONHOME", Reads::Folders(':')),
    ("PYTHONUSERBASE", Reads::Folders(':')),
    ("PYTHONSTARTUP", Reads::File),
    // Compiled modules are written under it.
    ("PYTHONPYCACHEPREFIX", Reads::OptionValue("-Xpycache_prefix=")),
];
// An ini file may prepend a script to every one PHP runs (`auto_prepend_file`) or load extensions.
const PHP_ENVIRONMENT: &[(&str, Reads)] = &[("PHPRC", Reads::Folders(':')), ("PHP_INI_SCAN_DIR", Reads::Folders(':'))];
// Where gawk finds the files of `-f`, `-i` and `@include`, and the extensions of `-l` and `@load`.
const AWK_ENVIRONMENT: &[(&str, Reads)] = &[("AWKPATH", Reads::Folders(':')), ("AWKLIBPATH", Reads::Folders(':'))];
// Each Lua reads `LUA_INIT_5_x` of its version, else `LUA_INIT`: which Lua runs is not known.
const LUA_ENVIRONMENT: &[(&str, Reads)] = &[
    ("LUA_INIT", Reads::Code),
    ("LUA_INIT_5_2", Reads::Code),
    ("LUA_INIT_5_3", Reads::Code),
    ("LUA_INIT_5_4", Reads::Code),
    ("LUA_PATH", Reads::Folders(';')),
    ("LUA_PATH_5_2", Reads::Folders(';')),
    ("LUA_PATH_5_3", Reads::Folders(';')),
    ("LUA_PATH_5_4", Reads::Folders(';')),
    ("LUA_CPATH", Reads::Folders(';')),
    ("LUA_CPATH_5_2", Reads::Folders(';')),
    ("LUA_CPATH_5_3", Reads::Folders(';')),
    ("LUA_CPATH_5_4", Reads::Folders(';')),
];
const TCL_ENVIRONMENT: &[(&str, Reads)] = &[("TCLLIBPATH", Reads::Folders(' '))];

impl Language {
    /// The variables of its environment the interpreter reads options, code or the places it
    /// loads code from from, and how.
    pub fn environment(self) -> &'static [(&'static str, Reads)] {
        match self {
            Language::JavaScript | Language::TypeScript => JAVASCRIPT_ENVIRONMENT,
            Language::Perl => PERL_ENVIRONMENT,
            Language::Ruby => RUBY_ENVIRONMENT,
            Language::Python => PYTHON_ENVIRONMENT,
            Language::Php => PHP_ENVIRONMENT,
            Language::Awk => AWK_ENVIRONMENT,
            Language::Lua => LUA_ENVIRONMENT,
            Language::Tcl => TCL_ENVIRONMENT,
            Language::R | Language::AppleScript | Language::Sqlite | Language::Jq => &[],
        }
    }

    /// The suffixes of the files its programs load as code in its language (`helper.py` for
    /// `import helper`), and of those it loads as anything else (settings, native modules).
    pub fn loaded_files(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Language::Python => (&["py"], &["pth", "pyc", "so"]),
            Language::JavaScript | Language::TypeScript => {
                (&["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx"], &["node"])
            }
            Language::Perl => (&["pm", "pl"], &["so"]),
            Language::Ruby => (&["rb"], &["so"]),
            Language::Php => (&["php", "inc"], &["ini", "so"]),
            Language::Lua => (&["lua"], &["so"]),
            Language::Awk => (&["awk"], &["so"]),
            Language::Tcl => (&["tcl"], &["so"]),
            Language::R => (&["R", "r"], &["so"]),
            Language::AppleScript | Language::Sqlite | Language::Jq => (&[], &[]),
        }
    }
}

/// Where a program runs: its directory (absolute), and the folder its temporary files go in
/// (`tempfile.mkdtemp()`, `os.tmpdir()`) as the line gives it, relative to that directory;
/// `None` when the line set it to a value the walk could not compute.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub dir: &'a Path,
    pub temporary: Option<&'a str>,
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
    /// Folders its options add to where it loads modules from (`perl -I dir`), relative to its
    /// directory.
    pub search: Vec<String>,
    /// It may load code from where no analysis reads (a module search path given it), so no
    /// analysis can prove what it writes (P-18).
    pub unseen_code: bool,
    /// The folder its temporary files go in, as [`Place::temporary`]: `$TMPDIR`, `$TMP` or
    /// `$TEMP` as its environment has them, else the system's.
    pub temporary: Option<String>,
}

impl Invocation {
    /// `language` running `source` with `args`, and nothing more from its options.
    pub fn new(language: Language, source: Source, args: Vec<String>) -> Invocation {
        Invocation {
            language,
            source,
            args,
            writes: Vec::new(),
            trees: Vec::new(),
            prelude: String::new(),
            search: Vec::new(),
            unseen_code: false,
            temporary: Some(temporary_folder().text),
        }
    }
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
