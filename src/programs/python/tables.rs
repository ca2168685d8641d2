//! Python's calls as data: the ones that write (and which arguments they write), the ones that
//! start processes, and the ones proven not to write (P-18: any other call is unproven).

/// An argument of a call: its position and its keyword name.
pub type Arg = (usize, &'static str);

/// What a known writer does with its arguments.
#[derive(Debug, Clone, Copy)]
pub enum Writer {
    /// Writes the file(s) at these arguments (`rmtree` removes a whole tree: not a write of
    /// what is beneath, P-12).
    Paths(&'static [Arg]),
    /// Fills the directory at this argument with a tree (`copytree`, `unpack_archive`); the
    /// current directory when it is absent.
    Tree(Arg),
    /// Moves `src` to `dst`: `src` goes, and `dst` gets a tree (a directory moved onto or into it).
    Move(Arg, Arg),
    /// Copies the file `src` to `dst`, or into `dst` under its own name when `dst` is a directory.
    Copy(Arg, Arg),
    /// Opens the file at `path` with `mode` (`default` when absent); returns `kind`.
    Open { path: Arg, mode: Arg, default: &'static str, kind: Kind },
    /// `os.open(path, flags)`: writes unless the flags are read-only.
    OpenFlags,
    /// Opens the database at this argument (it writes that file; `:memory:` is none) and returns
    /// a connection, whose SQL is judged as sqlite3's.
    Database(Arg),
    /// Starts a process ([`Process`]).
    Run(Process),
    /// `os.symlink(src, dst)`: writes `dst`, and `src` where the link points (from `dst`'s
    /// folder), which a later write through the link changes.
    Symlink(Arg, Arg),
    /// `os.chdir`.
    Chdir,
    /// A `tempfile` call: a name of its own in the folder `dir` names, else the temporary folder
    /// (`prefix`, a random part, `suffix`), and what it makes there ([`Made`]).
    Temporary { suffix: Arg, prefix: Arg, dir: Arg, made: Made },
    /// Code the analysis cannot see: `eval`, `exec`, `getattr`, unpickling, a debugger, …
    Opaque,
}

/// What a `tempfile` call makes under its random name, and what it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// `mkdtemp`: the folder, and its path.
    Folder,
    /// `TemporaryDirectory`: the folder, and an object whose `name` (and `with … as d`) is its path.
    Directory,
    /// `mkstemp`: the file, and `(descriptor, path)`.
    Pair,
    /// `NamedTemporaryFile`: the file, and a file object whose `name` is its path.
    NamedFile,
    /// `TemporaryFile`, `SpooledTemporaryFile`: the file, and a file object.
    File,
    /// `mktemp`: only the path, which nothing makes.
    Name,
}

/// Where a process-starting call keeps its command line, and what changes the line it runs.
#[derive(Debug, Clone, Copy)]
pub struct Process {
    /// The command line (a string, or an argv list).
    pub args: Arg,
    /// The program really run, whatever the line names first (`executable=`, `os.execv`'s path):
    /// the shell that runs the line when it goes through one.
    pub program: Option<Arg>,
    pub shell: Shell,
    /// The directory it runs in (`cwd=`): its relative paths land there.
    pub cwd: Option<Arg>,
}

/// Whether a process's command line is run by a shell.
#[derive(Debug, Clone, Copy)]
pub enum Shell {
    Always,
    Never,
    /// When this argument is true (`shell=True`): an argv list's first item is the shell's line,
    /// the others its `$0`, `$1`, ….
    When(Arg),
}

/// `subprocess.Popen`'s parameters, which `run`, `call`, `check_call` and `check_output` pass on.
const POPEN: Process = Process {
    args: p(0, "args"),
    program: Some(p(2, "executable")),
    shell: Shell::When(p(8, "shell")),
    cwd: Some(p(9, "cwd")),
};
/// A command line the shell runs where the program runs.
const fn shell_line(args: Arg) -> Process {
    Process { args, program: None, shell: Shell::Always, cwd: None }
}
/// `os.exec*(path, args, …)`: `path` is run; `args[0]` is only the name it is given.
const fn exec(path: &'static str) -> Process {
    Process { args: p(1, "args"), program: Some(p(0, path)), shell: Shell::Never, cwd: None }
}

/// The kinds of values the analysis follows: what a call returns, whose methods it knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file object from `open`: its writes go to a target already judged at the open.
    File,
    /// `tarfile.open`, `zipfile.ZipFile`: `extractall`/`extract` write a tree.
    Archive,
    /// `logging.getLogger`, handlers, hashes, parsed data: every method is read-only.
    Inert,
    /// `sqlite3.connect`, a cursor: `execute` runs SQL, judged as sqlite3's.
    Database,
}

const fn p(position: usize, name: &'static str) -> Arg {
    (position, name)
}

/// A `tempfile` call whose `suffix`, `prefix` and `dir` parameters come in that order from `at`.
const fn temporary(at: usize, made: Made) -> Writer {
    Writer::Temporary { suffix: p(at, "suffix"), prefix: p(at + 1, "prefix"), dir: p(at + 2, "dir"), made }
}

const DST: &[Arg] = &[p(1, "dst")];
const PATH: &[Arg] = &[p(0, "path")];
const NAME: &[Arg] = &[p(0, "name")];

/// Module functions and builtins that write, by qualified name (after aliases are resolved).
pub const WRITERS: &[(&str, Writer)] = &[
    ("open", Writer::Open { path: p(0, "file"), mode: p(1, "mode"), default: "r", kind: Kind::File }),
    ("io.open", Writer::Open { path: p(0, "file"), mode: p(1, "mode"), default: "r", kind: Kind::File }),
    ("io.FileIO", Writer::Open { path: p(0, "file"), mode: p(1, "mode"), default: "r", kind: Kind::File }),
    ("codecs.open", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "r", kind: Kind::File }),
    ("gzip.open", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "rb", kind: Kind::File }),
    ("gzip.GzipFile", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "rb", kind: Kind::File }),
    ("bz2.open", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "rb", kind: Kind::File }),
    ("bz2.BZ2File", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "r", kind: Kind::File }),
    ("lzma.open", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "rb", kind: Kind::File }),
    ("tarfile.open", Writer::Open { path: p(0, "name"), mode: p(1, "mode"), default: "r", kind: Kind::Archive }),
    ("tarfile.TarFile", Writer::Open { path: p(0, "name"), mode: p(1, "mode"), default: "r", kind: Kind::Archive }),
    ("zipfile.ZipFile", Writer::Open { path: p(0, "file"), mode: p(1, "mode"), default: "r", kind: Kind::Archive }),
    (
        "logging.FileHandler",
        Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert },
    ),
    (
        "logging.handlers.RotatingFileHandler",
        Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert },
    ),
    (
        "logging.handlers.WatchedFileHandler",
        Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert },
    ),
    (
        "logging.basicConfig",
        Writer::Open {
            path: p(usize::MAX, "filename"),
            mode: p(usize::MAX, "filemode"),
            default: "a",
            kind: Kind::Inert,
        },
    ),
    ("dbm.open", Writer::Open { path: p(0, "file"), mode: p(1, "flag"), default: "r", kind: Kind::Inert }),
    ("sqlite3.connect", Writer::Database(p(0, "database"))),
    ("os.open", Writer::OpenFlags),
    ("os.remove", Writer::Paths(PATH)),
    ("os.unlink", Writer::Paths(PATH)),
    ("os.rmdir", Writer::Paths(PATH)),
    ("os.removedirs", Writer::Paths(NAME)),
    ("os.mkdir", Writer::Paths(PATH)),
    ("os.makedirs", Writer::Paths(NAME)),
    ("os.truncate", Writer::Paths(PATH)),
    ("os.mkfifo", Writer::Paths(PATH)),
    ("os.mknod", Writer::Paths(PATH)),
    ("os.chmod", Writer::Paths(PATH)),
    ("os.chown", Writer::Paths(PATH)),
    ("os.utime", Writer::Paths(PATH)),
    ("os.rename", Writer::Move(p(0, "src"), p(1, "dst"))),
    ("os.renames", Writer::Move(p(0, "old"), p(1, "new"))),
    ("os.replace", Writer::Move(p(0, "src"), p(1, "dst"))),
    // A hard link is a second name to write its source by.
    ("os.link", Writer::Paths(&[p(0, "src"), p(1, "dst")])),
    ("os.symlink", Writer::Symlink(p(0, "src"), p(1, "dst"))),
    ("shutil.copy", Writer::Copy(p(0, "src"), p(1, "dst"))),
    ("shutil.copy2", Writer::Copy(p(0, "src"), p(1, "dst"))),
    ("shutil.copyfile", Writer::Paths(DST)),
    ("shutil.copytree", Writer::Tree(p(1, "dst"))),
    ("shutil.copymode", Writer::Paths(DST)),
    ("shutil.copystat", Writer::Paths(DST)),
    ("shutil.move", Writer::Move(p(0, "src"), p(1, "dst"))),
    ("shutil.rmtree", Writer::Paths(PATH)),
    ("shutil.chown", Writer::Paths(PATH)),
    ("shutil.unpack_archive", Writer::Tree(p(1, "extract_dir"))),
    ("shutil.make_archive", Writer::Paths(&[p(0, "base_name")])),
    ("urllib.request.urlretrieve", Writer::Paths(&[p(1, "filename")])),
    ("subprocess.run", Writer::Run(POPEN)),
    ("subprocess.call", Writer::Run(POPEN)),
    ("subprocess.check_call", Writer::Run(POPEN)),
    ("subprocess.check_output", Writer::Run(POPEN)),
    ("subprocess.Popen", Writer::Run(POPEN)),
    ("subprocess.getoutput", Writer::Run(shell_line(p(0, "cmd")))),
    ("subprocess.getstatusoutput", Writer::Run(shell_line(p(0, "cmd")))),
    ("os.system", Writer::Run(shell_line(p(0, "command")))),
    ("os.popen", Writer::Run(shell_line(p(0, "cmd")))),
    ("os.execv", Writer::Run(exec("path"))),
    ("os.execvp", Writer::Run(exec("file"))),
    ("os.execve", Writer::Run(exec("path"))),
    ("os.execvpe", Writer::Run(exec("file"))),
    (
        "asyncio.create_subprocess_shell",
        Writer::Run(Process {
            program: Some(p(usize::MAX, "executable")),
            cwd: Some(p(usize::MAX, "cwd")),
            ..shell_line(p(0, "cmd"))
        }),
    ),
    ("os.chdir", Writer::Chdir),
    ("tempfile.mkdtemp", temporary(0, Made::Folder)),
    ("tempfile.TemporaryDirectory", temporary(0, Made::Directory)),
    ("tempfile.mkstemp", temporary(0, Made::Pair)),
    ("tempfile.mktemp", temporary(0, Made::Name)),
    // After `mode`, `buffering`, `encoding`, `newline` (and `max_size` first).
    ("tempfile.NamedTemporaryFile", temporary(4, Made::NamedFile)),
    ("tempfile.TemporaryFile", temporary(4, Made::File)),
    ("tempfile.SpooledTemporaryFile", temporary(5, Made::File)),
    ("eval", Writer::Opaque),
    ("exec", Writer::Opaque),
    ("compile", Writer::Opaque),
    ("__import__", Writer::Opaque),
    ("getattr", Writer::Opaque),
    ("setattr", Writer::Opaque),
    ("globals", Writer::Opaque),
    ("locals", Writer::Opaque),
    ("vars", Writer::Opaque),
    ("importlib.import_module", Writer::Opaque),
    ("runpy.run_path", Writer::Opaque),
    ("runpy.run_module", Writer::Opaque),
    ("ctypes.CDLL", Writer::Opaque),
    ("delattr", Writer::Opaque),
    // A debugger reads commands from standard input; `PYTHONBREAKPOINT` may name any callable.
    ("breakpoint", Writer::Opaque),
    ("pdb.set_trace", Writer::Opaque),
    // Unpickling calls whatever the data names (`posix.remove`); a shelf unpickles what it reads.
    ("pickle.loads", Writer::Opaque),
    ("pickle.load", Writer::Opaque),
    ("pickle.Unpickler", Writer::Opaque),
    ("marshal.loads", Writer::Opaque),
    ("marshal.load", Writer::Opaque),
    ("shelve.open", Writer::Opaque),
];

/// Calls proven not to write, by qualified name; `module.*` covers a whole module.
pub const READ_ONLY: &[&str] = &[
    "print",
    "len",
    "sorted",
    "str",
    "repr",
    "int",
    "float",
    "bool",
    "bytes",
    "bytearray",
    "list",
    "dict",
    "set",
    "frozenset",
    "tuple",
    "enumerate",
    "zip",
    "range",
    "min",
    "max",
    "sum",
    "any",
    "all",
    "abs",
    "round",
    "isinstance",
    "issubclass",
    "hash",
    "ord",
    "chr",
    "hex",
    "oct",
    "bin",
    "format",
    "reversed",
    "iter",
    "next",
    "input",
    "id",
    "callable",
    "divmod",
    "pow",
    "object",
    "super",
    "type",
    "property",
    "staticmethod",
    "classmethod",
    "slice",
    "memoryview",
    "complex",
    "ascii",
    "hasattr",
    "Exception",
    "os.path.*",
    "posixpath.*",
    "os.stat",
    "os.lstat",
    "os.listdir",
    "os.walk",
    "os.scandir",
    "os.getcwd",
    "os.getenv",
    "os.environ.get",
    "os.fspath",
    "os.access",
    "os.cpu_count",
    "os.getpid",
    "os.getuid",
    "os.write",
    "os.read",
    "os.close",
    "os.fstat",
    "os.fsync",
    "os.isatty",
    "os.get_terminal_size",
    "os.fsencode",
    "os.fsdecode",
    "os.urandom",
    "os.strerror",
    "os.readlink",
    "os.umask",
    "glob.*",
    "fnmatch.*",
    "difflib.*",
    "re.*",
    "json.*",
    "hashlib.*",
    "hmac.*",
    "base64.*",
    "binascii.*",
    "zlib.*",
    "sys.exit",
    "sys.stdout.write",
    "sys.stderr.write",
    "sys.stdout.flush",
    "sys.stderr.flush",
    "sys.stdin.read",
    "sys.stdin.readline",
    "sys.stdin.readlines",
    "sys.getsizeof",
    "sys.intern",
    "time.*",
    "datetime.*",
    // A class of `datetime`, not the `time` module.
    "datetime.time",
    "math.*",
    "statistics.*",
    "textwrap.*",
    "string.*",
    "collections.*",
    "itertools.*",
    "operator.*",
    "copy.*",
    "pprint.*",
    "struct.*",
    "random.*",
    "uuid.*",
    "decimal.*",
    "fractions.*",
    "enum.*",
    "dataclasses.*",
    "typing.*",
    "abc.*",
    "unicodedata.*",
    "calendar.*",
    "platform.*",
    "shlex.*",
    "locale.getpreferredencoding",
    "locale.getlocale",
    "csv.reader",
    "csv.writer",
    "csv.DictReader",
    "csv.DictWriter",
    "tomllib.*",
    "configparser.ConfigParser",
    "argparse.*",
    "urllib.parse.*",
    "html.*",
    "keyword.*",
    "heapq.*",
    "bisect.*",
    "array.*",
    "filecmp.cmp",
    "warnings.warn",
    "io.StringIO",
    "io.BytesIO",
    "gzip.decompress",
    "gzip.compress",
    "bz2.decompress",
    "bz2.compress",
    "lzma.decompress",
    "lzma.compress",
    "pathlib.Path",
    "pathlib.PurePath",
    "pathlib.PosixPath",
    "pathlib.PurePosixPath",
    "logging.getLogger",
    "logging.debug",
    "logging.info",
    "logging.warning",
    "logging.error",
    "logging.critical",
    "logging.exception",
    "logging.log",
    "logging.StreamHandler",
    "logging.Formatter",
    "shutil.which",
    "shutil.disk_usage",
    "shutil.get_terminal_size",
    "shutil.copyfileobj",
    "pickle.dumps",
    "pickle.dump",
    "traceback.*",
    "inspect.signature",
    "functools.reduce",
    "functools.lru_cache",
    "functools.wraps",
    "functools.cache",
    "functools.cmp_to_key",
    "contextlib.suppress",
    "contextlib.contextmanager",
    "asyncio.run",
    "asyncio.sleep",
    "asyncio.gather",
    "tarfile.is_tarfile",
    "zipfile.is_zipfile",
    "sysconfig.*",
    "stat.*",
    "errno.*",
    "getpass.getuser",
    "socket.gethostname",
    "secrets.*",
    // PyYAML's safe loaders build plain data; its dumpers write a stream opened and judged apart.
    "yaml.safe_load",
    "yaml.safe_load_all",
    "yaml.safe_dump",
    "yaml.safe_dump_all",
    "yaml.dump",
    "yaml.dump_all",
];

/// PyYAML's loaders that build only plain data: `yaml.load(f, Loader=…)` with one of them reads.
/// Its other loaders construct any Python object the text names (`!!python/object/apply`): code.
pub const SAFE_YAML_LOADERS: &[&str] = &["yaml.SafeLoader", "yaml.CSafeLoader", "yaml.BaseLoader", "yaml.CBaseLoader"];

/// Methods of a database connection or cursor that write no file beyond the database (judged at
/// its connect) and run no SQL: fetching, transactions, the program's own functions.
pub const DATABASE_METHODS: &[&str] = &[
    "fetchone",
    "fetchall",
    "fetchmany",
    "commit",
    "rollback",
    "close",
    "iterdump",
    "create_function",
    "create_aggregate",
    "create_window_function",
    "create_collation",
    "set_trace_callback",
    "interrupt",
    "__enter__",
    "__exit__",
];

/// Methods proven not to write whatever the value they are called on (strings, bytes, lists,
/// dicts, file objects and hashes: a file's `write` goes to a target judged where it was opened).
pub const READ_ONLY_METHODS: &[&str] = &[
    // str and bytes
    "splitlines",
    "startswith",
    "endswith",
    "encode",
    "decode",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "join",
    "lower",
    "upper",
    "casefold",
    "title",
    "capitalize",
    "swapcase",
    "format",
    "format_map",
    "count",
    "index",
    "rindex",
    "find",
    "rfind",
    "isdigit",
    "isalpha",
    "isalnum",
    "isspace",
    "islower",
    "isupper",
    "isidentifier",
    "isnumeric",
    "isdecimal",
    "zfill",
    "center",
    "ljust",
    "rjust",
    "expandtabs",
    "translate",
    "maketrans",
    "removeprefix",
    "removesuffix",
    "hex",
    // list, dict, set
    "append",
    "extend",
    "insert",
    "pop",
    "clear",
    "sort",
    "reverse",
    "copy",
    "get",
    "items",
    "keys",
    "values",
    "update",
    "setdefault",
    "add",
    "discard",
    "union",
    "intersection",
    "difference",
    "issubset",
    "issuperset",
    "popitem",
    // files and streams (opened and judged already)
    "read",
    "readline",
    "readlines",
    "write",
    "writelines",
    "close",
    "flush",
    "seek",
    "tell",
    "fileno",
    "isatty",
    "readable",
    "writable",
    "seekable",
    "__enter__",
    "__exit__",
    // hashes, regular expressions, parsed data
    "hexdigest",
    "digest",
    "group",
    "groups",
    "groupdict",
    "span",
    "start",
    "end",
    "match",
    "search",
    "fullmatch",
    "findall",
    "finditer",
    "sub",
    "subn",
    "isoformat",
    "strftime",
    "timestamp",
    "total_seconds",
    // paths that only read or compute
    "exists",
    "is_file",
    "is_dir",
    "is_symlink",
    "is_absolute",
    "stat",
    "lstat",
    "iterdir",
    "glob",
    "rglob",
    "read_text",
    "read_bytes",
    "relative_to",
    "is_relative_to",
    "samefile",
    "as_uri",
    "owner",
    "resolve",
    "absolute",
    "as_posix",
    "expanduser",
    "with_name",
    "with_suffix",
    "with_stem",
    "joinpath",
    // loggers and handlers, csv writers (to an opened file)
    "debug",
    "info",
    "warning",
    "error",
    "critical",
    "exception",
    "log",
    "addHandler",
    "setLevel",
    "setFormatter",
    "writerow",
    "writerows",
    "writeheader",
    "getLogger",
    // archives opened and judged: listing, reading, adding to the archive itself
    "getmembers",
    "getnames",
    "namelist",
    "infolist",
    "getinfo",
    "getmember",
    "extractfile",
    "testzip",
    "writestr",
    // processes started already
    "communicate",
    "wait",
    "poll",
    "kill",
    "terminate",
    "returncode",
    // argparse
    "add_argument",
    "parse_args",
    "parse_known_args",
    "add_subparsers",
    "add_parser",
    "set_defaults",
    "print_help",
    "add_mutually_exclusive_group",
    "add_argument_group",
];

/// What a pathlib method writes besides its own path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Also {
    Nothing,
    /// The path its argument names: a move's destination, a hard link's other name.
    Target,
    /// Where the link it makes points (its argument, from the path's folder).
    LinkTarget,
}

/// A class's attributes that are data, not functions (`type(x).__name__`).
pub const CLASS_DATA: &[&str] = &["__name__", "__qualname__", "__module__", "__doc__"];

/// pathlib's classes of paths, whose functions take the path first (`pathlib.Path.unlink(p)`).
pub const PATH_CLASSES: &[&str] = &["pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"];

/// Methods of pathlib paths that write the path, and what else they write.
pub const PATH_WRITERS: &[(&str, Also)] = &[
    ("write_text", Also::Nothing),
    ("write_bytes", Also::Nothing),
    ("touch", Also::Nothing),
    ("unlink", Also::Nothing),
    ("rmdir", Also::Nothing),
    ("mkdir", Also::Nothing),
    ("symlink_to", Also::LinkTarget),
    ("hardlink_to", Also::Target),
    ("chmod", Also::Nothing),
    ("lchmod", Also::Nothing),
    ("rename", Also::Target),
    ("replace", Also::Target),
];

/// Methods that write or run what they are given on values other than paths: a database's SQL,
/// `open` with a mode, `Path.link_to` (Python 3.8 to 3.11).
const OTHER_WRITER_METHODS: &[&str] = &["open", "link_to", "execute", "executemany", "executescript"];

/// Whether a method of this name writes on some value the tables know (a path's `unlink`, an
/// archive's `extractall`, `to_csv`): taken from a value the walk lost (`x.__class__.unlink`, a
/// loop's `q.unlink`), it may be that writer.
pub fn writer_method(name: &str) -> bool {
    PATH_WRITERS.iter().any(|(writer, _)| *writer == name)
        || EXTRACTORS.iter().any(|(extractor, _)| *extractor == name)
        || ARGUMENT_WRITERS.contains(&name)
        || OTHER_WRITER_METHODS.contains(&name)
}

/// Methods that write their first argument, on whatever value (`df.to_csv(p)`, `fig.savefig(p)`).
pub const ARGUMENT_WRITERS: &[&str] =
    &["to_csv", "to_json", "to_excel", "to_parquet", "to_markdown", "to_html", "to_pickle", "savefig"];

/// Methods of archives that write a tree: `extractall(path='.')`, `extract(member, path='.')`.
pub const EXTRACTORS: &[(&str, Arg)] = &[("extractall", (0, "path")), ("extract", (1, "path"))];

/// Names through which a program binds a name without a binding site (`builtins.__dict__['w'] =
/// open`, `sys.modules['builtins'].w = open`, `__builtins__.w = open`), or reaches a module the
/// walk does not follow (`sys.modules['os']`, `shutil.copy.__globals__['os']`).
pub const NAMESPACES: &[&str] =
    &["__builtins__", "__dict__", "modules", "globals", "vars", "locals", "__globals__", "f_globals", "f_locals"];

/// Methods that change the list or dict they are called on: a name they are called on has
/// more than one value.
pub const MUTATORS: &[&str] =
    &["append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault", "add"];

/// Functions that read the list they are given and keep none of it changeable: a list passed to
/// one stays the list its name holds (its items may go on, `sorted(cmd)`). Any other call may
/// change a list it is given (`list.extend(cmd, …)`, `operator.iadd(cmd, …)`, the program's own
/// `def add(l): l.append(…)`).
pub const LIST_READERS: &[&str] = &[
    "print",
    "len",
    "sorted",
    "list",
    "tuple",
    "set",
    "frozenset",
    "str",
    "repr",
    "bool",
    "any",
    "all",
    "min",
    "max",
    "sum",
    "enumerate",
    "zip",
    "reversed",
    "iter",
    "map",
    "filter",
    "isinstance",
    "shlex.join",
    "shlex.quote",
    "os.path.join",
    "json.dumps",
];

/// Modules of the standard library: importing one runs no code of the program's own.
pub const STANDARD: &[&str] = &[
    "os",
    "sys",
    "io",
    "re",
    "json",
    "shutil",
    "subprocess",
    "pathlib",
    "glob",
    "fnmatch",
    "difflib",
    "hashlib",
    "hmac",
    "base64",
    "binascii",
    "zlib",
    "gzip",
    "bz2",
    "lzma",
    "tarfile",
    "zipfile",
    "logging",
    "time",
    "datetime",
    "math",
    "statistics",
    "textwrap",
    "string",
    "collections",
    "itertools",
    "functools",
    "operator",
    "copy",
    "pprint",
    "struct",
    "random",
    "uuid",
    "decimal",
    "fractions",
    "enum",
    "dataclasses",
    "typing",
    "abc",
    "unicodedata",
    "calendar",
    "platform",
    "shlex",
    "locale",
    "csv",
    "tomllib",
    "configparser",
    "argparse",
    "urllib",
    "html",
    "keyword",
    "heapq",
    "bisect",
    "array",
    "filecmp",
    "warnings",
    "codecs",
    "posixpath",
    "shelve",
    "dbm",
    "sqlite3",
    "pickle",
    "marshal",
    "traceback",
    "inspect",
    "contextlib",
    "asyncio",
    "tempfile",
    "sysconfig",
    "stat",
    "errno",
    "getpass",
    "socket",
    "secrets",
    "importlib",
    "runpy",
    "ctypes",
    "builtins",
    "__future__",
    "types",
    "weakref",
    "signal",
    "threading",
    "queue",
    "email",
    "http",
    "textwrap",
    "posix",
    "nt",
    "select",
    "mmap",
    "optparse",
    "getopt",
    "unittest",
    "doctest",
    "pdb",
];

/// Packages from a registry, not the program's own modules, whose import runs only their own code
/// (a module beside the program shadows them as it shadows the standard library's).
pub const LIBRARIES: &[&str] = &["yaml"];

/// The `-m` modules whose command line the analysis reads.
#[derive(Debug, Clone, Copy)]
pub enum ModuleCli {
    /// `json.tool [infile [outfile]]`.
    JsonTool,
    /// `zipfile`, `tarfile`: `-e` extracts, `-c` creates, `-l`/`-t` read.
    Archive,
    /// Writes nothing whatever its arguments.
    ReadOnly,
}

/// `-m` modules by name.
pub const MODULES: &[(&str, ModuleCli)] = &[
    ("json.tool", ModuleCli::JsonTool),
    ("zipfile", ModuleCli::Archive),
    ("tarfile", ModuleCli::Archive),
    ("this", ModuleCli::ReadOnly),
    ("platform", ModuleCli::ReadOnly),
    ("sysconfig", ModuleCli::ReadOnly),
    ("site", ModuleCli::ReadOnly),
    ("tokenize", ModuleCli::ReadOnly),
];

/// Whether `name` (a qualified call) is in [`READ_ONLY`]. A `module.*` row covers the module's
/// own names and what they hold (`datetime.datetime.now`), never a dunder on the way
/// (`glob.glob.__globals__`); another module reached through it is that module ([`attribute`]).
pub fn read_only(name: &str) -> bool {
    READ_ONLY.iter().any(|entry| match entry.strip_suffix(".*") {
        Some(module) => name
            .strip_prefix(module)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|rest| !rest.split('.').any(|part| part.starts_with("__"))),
        None => *entry == name,
    }) || name.ends_with("Error") && !name.contains('.')
        || read_only_method(name)
}

/// A method of a builtin type or a pathlib class taken from the class (`key=str.lower`,
/// `map(Path.exists, paths)`): read-only when the same method of a value is.
fn read_only_method(name: &str) -> bool {
    const TYPES: &[&str] = &["str", "bytes", "bytearray", "list", "dict", "set", "frozenset", "tuple", "int", "float"];
    name.rsplit_once('.').is_some_and(|(class, method)| {
        (TYPES.contains(&class) || PATH_CLASSES.contains(&class))
            && READ_ONLY_METHODS.contains(&method)
            && !PATH_WRITERS.iter().any(|(writer, _)| *writer == method)
    })
}

/// The qualified name of `object.attribute`, `object` a module or a name in one. An attribute of
/// a module named like a module of the standard library is that module, which the first imported
/// (`os.path.os`, `glob.os` and `argparse._os` are `os`), unless a row names it as it stands
/// (`os.stat`, `shutil.copy`) or it is the module's namesake (`glob.glob`); a class's
/// (`pathlib.Path.stat`) is its own.
pub fn attribute(object: &str, attribute: &str) -> String {
    let qualified = format!("{object}.{attribute}");
    let module = attribute.trim_start_matches('_');
    let owner = object.rsplit('.').next().unwrap_or(object);
    let of_a_module = !owner.starts_with(|c: char| c.is_ascii_uppercase());
    if !of_a_module
        || owner == attribute
        || !STANDARD.contains(&module)
        || writer(&qualified).is_some()
        || READ_ONLY.contains(&qualified.as_str())
    {
        return qualified;
    }
    module.to_string()
}

/// Names a program passes as data, not as something to call: streams, the environment, the
/// separators, the arguments.
const DATA: &[&str] = &[
    "sys.stdout",
    "sys.stderr",
    "sys.stdin",
    "sys.stdout.buffer",
    "sys.stderr.buffer",
    "sys.stdin.buffer",
    "sys.argv",
    "sys.path",
    "sys.platform",
    "sys.version",
    "sys.version_info",
    "sys.executable",
    "sys.maxsize",
    "os.environ",
    "os.sep",
    "os.linesep",
    "os.pathsep",
    "os.curdir",
    "os.pardir",
    "os.extsep",
    "os.devnull",
    "os.name",
];

/// Whether a name passed as a value writes nothing wherever it ends up called (a `key=`, `map`,
/// a class's `__eq__`): a read-only function, data, a constant (`subprocess.PIPE`,
/// `logging.INFO`), an exception class or a safe YAML loader. A writer, or a name the tables do
/// not know, may write whatever it is given (P-18); so may a module, whose functions a lost value
/// no longer names (`[os][i].replace(a, p)` would read as a string's `replace`).
pub fn harmless_value(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    let constant = last.bytes().any(|b| b.is_ascii_uppercase()) && !last.bytes().any(|b| b.is_ascii_lowercase());
    let exception = ["Error", "Exception", "Warning"].iter().any(|kind| last.ends_with(kind));
    let data = DATA.contains(&name) || SAFE_YAML_LOADERS.contains(&name);
    writer(name).is_none() && (read_only(name) || data || constant || exception)
}

/// The constant strings of modules, which joins compute with (`os.sep.join(parts)`).
pub const STRINGS: &[(&str, &str)] = &[
    ("os.sep", "/"),
    ("os.path.sep", "/"),
    ("posixpath.sep", "/"),
    ("os.curdir", "."),
    ("os.path.curdir", "."),
    ("os.pardir", ".."),
    ("os.path.pardir", ".."),
    ("os.extsep", "."),
    ("os.path.extsep", "."),
];

pub fn writer(name: &str) -> Option<Writer> {
    WRITERS.iter().find(|(entry, _)| *entry == name).map(|(_, writer)| *writer)
}
