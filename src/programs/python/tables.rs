//! Python's calls as data: the ones that write (and which arguments they write), the ones that
//! start processes, and the ones proven not to write (P-18: any other call is unproven).

/// An argument of a call: its position and its keyword name.
pub type Arg = (usize, &'static str);

/// What a known writer does with its arguments.
#[derive(Debug, Clone, Copy)]
pub enum Writer {
    /// Writes the file(s) at these arguments (a directory tree for `copytree`, `rmtree`).
    Paths(&'static [Arg]),
    /// Opens the file at `path` with `mode` (`default` when absent); returns `kind`.
    Open { path: Arg, mode: Arg, default: &'static str, kind: Kind },
    /// `os.open(path, flags)`: writes unless the flags are read-only.
    OpenFlags,
    /// Starts the command line (a string, or an argv list) at this argument.
    Run(Arg),
    /// `os.chdir`.
    Chdir,
    /// Code the analysis cannot see: `eval`, `exec`, `getattr`, …
    Opaque,
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
}

const fn p(position: usize, name: &'static str) -> Arg {
    (position, name)
}

const SRC_DST: &[Arg] = &[p(0, "src"), p(1, "dst")];
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
    ("logging.FileHandler", Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert }),
    (
        "logging.handlers.RotatingFileHandler",
        Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert },
    ),
    (
        "logging.handlers.WatchedFileHandler",
        Writer::Open { path: p(0, "filename"), mode: p(1, "mode"), default: "a", kind: Kind::Inert },
    ),
    ("logging.basicConfig", Writer::Open { path: p(usize::MAX, "filename"), mode: p(usize::MAX, "filemode"), default: "a", kind: Kind::Inert }),
    ("shelve.open", Writer::Open { path: p(0, "filename"), mode: p(1, "flag"), default: "c", kind: Kind::Inert }),
    ("dbm.open", Writer::Open { path: p(0, "file"), mode: p(1, "flag"), default: "r", kind: Kind::Inert }),
    ("sqlite3.connect", Writer::Paths(&[p(0, "database")])),
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
    ("os.rename", Writer::Paths(SRC_DST)),
    ("os.renames", Writer::Paths(&[p(0, "old"), p(1, "new")])),
    ("os.replace", Writer::Paths(SRC_DST)),
    ("os.link", Writer::Paths(DST)),
    ("os.symlink", Writer::Paths(DST)),
    ("shutil.copy", Writer::Paths(DST)),
    ("shutil.copy2", Writer::Paths(DST)),
    ("shutil.copyfile", Writer::Paths(DST)),
    ("shutil.copytree", Writer::Paths(DST)),
    ("shutil.copymode", Writer::Paths(DST)),
    ("shutil.copystat", Writer::Paths(DST)),
    ("shutil.move", Writer::Paths(SRC_DST)),
    ("shutil.rmtree", Writer::Paths(PATH)),
    ("shutil.chown", Writer::Paths(PATH)),
    ("shutil.unpack_archive", Writer::Paths(&[p(1, "extract_dir")])),
    ("shutil.make_archive", Writer::Paths(&[p(0, "base_name")])),
    ("urllib.request.urlretrieve", Writer::Paths(&[p(1, "filename")])),
    ("subprocess.run", Writer::Run(p(0, "args"))),
    ("subprocess.call", Writer::Run(p(0, "args"))),
    ("subprocess.check_call", Writer::Run(p(0, "args"))),
    ("subprocess.check_output", Writer::Run(p(0, "args"))),
    ("subprocess.Popen", Writer::Run(p(0, "args"))),
    ("subprocess.getoutput", Writer::Run(p(0, "cmd"))),
    ("subprocess.getstatusoutput", Writer::Run(p(0, "cmd"))),
    ("os.system", Writer::Run(p(0, "command"))),
    ("os.popen", Writer::Run(p(0, "cmd"))),
    ("os.execv", Writer::Run(p(1, "args"))),
    ("os.execvp", Writer::Run(p(1, "args"))),
    ("os.execve", Writer::Run(p(1, "args"))),
    ("os.execvpe", Writer::Run(p(1, "args"))),
    ("asyncio.create_subprocess_shell", Writer::Run(p(0, "cmd"))),
    ("os.chdir", Writer::Chdir),
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
];

/// Calls proven not to write, by qualified name; `module.*` covers a whole module.
pub const READ_ONLY: &[&str] = &[
    "print", "len", "sorted", "str", "repr", "int", "float", "bool", "bytes", "bytearray", "list", "dict",
    "set", "frozenset", "tuple", "enumerate", "zip", "range", "min", "max", "sum", "any", "all", "abs",
    "round", "isinstance", "issubclass", "hash", "ord", "chr", "hex", "oct", "bin", "format", "reversed",
    "iter", "next", "input", "id", "callable", "divmod", "pow", "object", "super", "type", "property",
    "staticmethod", "classmethod", "slice", "memoryview", "complex", "ascii", "hasattr", "Exception",
    "os.path.*", "posixpath.*", "os.stat", "os.lstat", "os.listdir", "os.walk", "os.scandir", "os.getcwd",
    "os.getenv", "os.environ.get", "os.fspath", "os.access", "os.cpu_count", "os.getpid", "os.getuid",
    "os.write", "os.read", "os.close", "os.fstat", "os.fsync", "os.isatty", "os.get_terminal_size",
    "os.fsencode", "os.fsdecode", "os.urandom", "os.strerror", "os.readlink", "os.umask",
    "glob.*", "fnmatch.*", "difflib.*", "re.*", "json.*", "hashlib.*", "hmac.*", "base64.*", "binascii.*",
    "zlib.*", "sys.exit", "sys.stdout.write", "sys.stderr.write", "sys.stdout.flush", "sys.stderr.flush",
    "sys.stdin.read", "sys.stdin.readline", "sys.stdin.readlines", "sys.getsizeof", "sys.intern",
    "time.*", "datetime.*", "math.*", "statistics.*", "textwrap.*", "string.*", "collections.*",
    "itertools.*", "operator.*", "copy.*", "pprint.*", "struct.*", "random.*", "uuid.*", "decimal.*",
    "fractions.*", "enum.*", "dataclasses.*", "typing.*", "abc.*", "unicodedata.*", "calendar.*",
    "platform.*", "shlex.*", "locale.getpreferredencoding", "locale.getlocale", "csv.reader", "csv.writer",
    "csv.DictReader", "csv.DictWriter", "tomllib.*", "configparser.ConfigParser", "argparse.*",
    "urllib.parse.*", "html.*", "keyword.*", "heapq.*", "bisect.*", "array.*", "filecmp.cmp", "warnings.warn",
    "io.StringIO", "io.BytesIO", "gzip.decompress", "gzip.compress", "bz2.decompress", "bz2.compress",
    "lzma.decompress", "lzma.compress", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
    "pathlib.PurePosixPath", "logging.getLogger", "logging.debug", "logging.info", "logging.warning",
    "logging.error", "logging.critical", "logging.exception", "logging.log", "logging.StreamHandler",
    "logging.Formatter", "shutil.which", "shutil.disk_usage", "shutil.get_terminal_size",
    "shutil.copyfileobj", "pickle.dumps", "pickle.loads", "pickle.load", "pickle.dump", "marshal.loads",
    "traceback.*", "inspect.signature", "functools.reduce", "functools.lru_cache", "functools.wraps",
    "functools.cache", "functools.cmp_to_key", "contextlib.suppress", "contextlib.contextmanager",
    "asyncio.run", "asyncio.sleep", "asyncio.gather", "tarfile.is_tarfile", "zipfile.is_zipfile",
    "sysconfig.*", "stat.*", "errno.*", "getpass.getuser", "socket.gethostname", "secrets.*",
];

/// Methods proven not to write whatever the value they are called on (strings, bytes, lists,
/// dicts, file objects and hashes: a file's `write` goes to a target judged where it was opened).
pub const READ_ONLY_METHODS: &[&str] = &[
    // str and bytes
    "splitlines", "startswith", "endswith", "encode", "decode", "strip", "lstrip", "rstrip", "split",
    "rsplit", "partition", "rpartition", "join", "lower", "upper", "casefold", "title", "capitalize",
    "swapcase", "format", "format_map", "count", "index", "rindex", "find", "rfind", "isdigit", "isalpha",
    "isalnum", "isspace", "islower", "isupper", "isidentifier", "isnumeric", "isdecimal", "zfill", "center",
    "ljust", "rjust", "expandtabs", "translate", "maketrans", "removeprefix", "removesuffix", "hex",
    // list, dict, set
    "append", "extend", "insert", "pop", "clear", "sort", "reverse", "copy", "get", "items", "keys",
    "values", "update", "setdefault", "add", "discard", "union", "intersection", "difference",
    "issubset", "issuperset", "popitem",
    // files and streams (opened and judged already)
    "read", "readline", "readlines", "write", "writelines", "close", "flush", "seek", "tell", "fileno",
    "isatty", "readable", "writable", "seekable", "__enter__", "__exit__",
    // hashes, regular expressions, parsed data
    "hexdigest", "digest", "group", "groups", "groupdict", "span", "start", "end", "match", "search",
    "fullmatch", "findall", "finditer", "sub", "subn", "isoformat", "strftime", "timestamp", "total_seconds",
    // paths that only read or compute
    "exists", "is_file", "is_dir", "is_symlink", "is_absolute", "stat", "lstat", "iterdir", "glob", "rglob",
    "read_text", "read_bytes", "relative_to", "is_relative_to", "samefile", "as_uri", "owner",
    "resolve", "absolute", "as_posix", "expanduser", "with_name", "with_suffix", "with_stem", "joinpath",
    // loggers and handlers, csv writers (to an opened file)
    "debug", "info", "warning", "error", "critical", "exception", "log", "addHandler", "setLevel",
    "setFormatter", "writerow", "writerows", "writeheader", "getLogger",
    // archives opened and judged: listing, reading, adding to the archive itself
    "getmembers", "getnames", "namelist", "infolist", "getinfo", "getmember", "extractfile", "testzip",
    "writestr",
    // processes started already
    "communicate", "wait", "poll", "kill", "terminate", "returncode",
    // argparse
    "add_argument", "parse_args", "parse_known_args", "add_subparsers", "add_parser", "set_defaults",
    "print_help", "add_mutually_exclusive_group", "add_argument_group",
];

/// Methods of pathlib paths that write the path (and their argument, for a move).
pub const PATH_WRITERS: &[(&str, bool)] = &[
    ("write_text", false),
    ("write_bytes", false),
    ("touch", false),
    ("unlink", false),
    ("rmdir", false),
    ("mkdir", false),
    ("symlink_to", false),
    ("hardlink_to", false),
    ("chmod", false),
    ("lchmod", false),
    ("rename", true),
    ("replace", true),
];

/// Methods that write their first argument, on whatever value (`df.to_csv(p)`, `fig.savefig(p)`).
pub const ARGUMENT_WRITERS: &[&str] =
    &["to_csv", "to_json", "to_excel", "to_parquet", "to_markdown", "to_html", "to_pickle", "savefig"];

/// Methods of archives that write a tree: `extractall(path='.')`, `extract(member, path='.')`.
pub const EXTRACTORS: &[(&str, Arg)] = &[("extractall", (0, "path")), ("extract", (1, "path"))];

/// Methods that change the list or dict they are called on: a name they are called on has
/// more than one value.
pub const MUTATORS: &[&str] =
    &["append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault", "add"];

/// Modules of the standard library: importing one runs no code of the program's own.
pub const STANDARD: &[&str] = &[
    "os", "sys", "io", "re", "json", "shutil", "subprocess", "pathlib", "glob", "fnmatch", "difflib",
    "hashlib", "hmac", "base64", "binascii", "zlib", "gzip", "bz2", "lzma", "tarfile", "zipfile", "logging",
    "time", "datetime", "math", "statistics", "textwrap", "string", "collections", "itertools", "functools",
    "operator", "copy", "pprint", "struct", "random", "uuid", "decimal", "fractions", "enum", "dataclasses",
    "typing", "abc", "unicodedata", "calendar", "platform", "shlex", "locale", "csv", "tomllib", "configparser",
    "argparse", "urllib", "html", "keyword", "heapq", "bisect", "array", "filecmp", "warnings", "codecs",
    "posixpath", "shelve", "dbm", "sqlite3", "pickle", "marshal", "traceback", "inspect", "contextlib",
    "asyncio", "tempfile", "sysconfig", "stat", "errno", "getpass", "socket", "secrets", "importlib", "runpy",
    "ctypes", "builtins", "__future__", "types", "weakref", "signal", "threading", "queue", "email", "http",
    "textwrap", "posix", "nt", "select", "mmap", "optparse", "getopt", "unittest", "doctest", "pdb",
];

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

/// Whether `name` (a qualified call) is in [`READ_ONLY`].
pub fn read_only(name: &str) -> bool {
    READ_ONLY.iter().any(|entry| match entry.strip_suffix(".*") {
        Some(module) => name.strip_prefix(module).is_some_and(|rest| rest.starts_with('.')),
        None => *entry == name,
    }) || name.ends_with("Error") && !name.contains('.')
}

pub fn writer(name: &str) -> Option<Writer> {
    WRITERS.iter().find(|(entry, _)| *entry == name).map(|(_, writer)| *writer)
}
