//! What a language supplies to the engine: its table of calls and how its expressions compose
//! paths.

/// Where the receiver of a call must come from for a rule to apply.
#[derive(Debug, Clone, Copy)]
pub enum Receiver {
    /// Any receiver, or none.
    Any,
    /// No receiver, or one whose last name is in the list (`os.remove`, `from os import remove`).
    Module(&'static [&'static str]),
    /// A receiver whose last name is in the list; never bare.
    Only(&'static [&'static str]),
    /// A path object (`Path(…)`, a variable assigned one).
    PathLike,
    /// No receiver at all.
    Bare,
}

/// What a call does.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    /// Writes the arguments at these positions.
    Write(&'static [usize]),
    /// Writes every argument.
    WriteAll,
    /// Writes every argument from this position on (Perl's `chmod MODE, LIST`).
    WriteFrom(usize),
    /// Moves the argument at the first position to the second: the first goes, the second gets
    /// a tree (a directory renamed onto it, or moved into it).
    Move(usize, usize),
    /// Copies the file at the first position to the second, or into it under its own name when
    /// the second is a directory (`FileUtils.cp(src, dir)`).
    Copy(usize, usize),
    /// Fills the directory at this position with a tree (`FileUtils.cp_r(src, dst)`).
    WriteTree(usize),
    /// Writes the argument named `name` or at `position`.
    WriteNamed(&'static str, usize),
    /// Opens `path`; writes when the mode at `mode` (or named `named`) allows writing.
    Open { path: usize, mode: usize, named: &'static str },
    /// `os.open(path, flags)`: writes when the flags name a write.
    OpenFlags { path: usize, flags: usize },
    /// Writes the receiver (`Path(p).write_text(…)`).
    Receiver,
    /// `Path(p).open('w')`: the receiver, when the mode at this position allows writing.
    ReceiverOpen(usize),
    /// `Path(p).rename(q)`: the receiver and the argument.
    ReceiverAnd(usize),
    /// Runs the command (a string, or an argv list) at this position.
    Run(usize),
    /// Runs a program and its arguments given as separate arguments or a list after it.
    RunArgv,
    /// R's `system2`: the program at `program` (quoted) and the words at `words` pasted after it
    /// unquoted, as a shell line; the arguments at `outputs` (`stdout`, `stderr`) are files
    /// written unless a keyword (`TRUE`, `FALSE`, `NULL`); an `env` at `env` is unsure.
    RunPasted { program: usize, words: usize, outputs: &'static [usize], env: usize },
    /// Changes the directory relative paths resolve against.
    Chdir(usize),
    /// Runs code the analysis cannot see (`eval`, `exec`, reflection).
    Opaque,
    /// Perl's `open`: `open(FH, '>', $path)`, `open(FH, ">$path")`, `open(FH, '|-', @cmd)`.
    PerlOpen,
    /// Perl's `IO::File->new(P, MODE)`.
    PerlIoFile,
    /// Ruby's `open`/`Kernel.open`: `"|cmd"` runs, a write mode writes.
    PipeOpen { path: usize, mode: usize },
}

#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub name: &'static str,
    pub receiver: Receiver,
    pub op: Op,
}

pub const fn rule(name: &'static str, receiver: Receiver, op: Op) -> Rule {
    Rule { name, receiver, op }
}

/// How one language's expressions compose paths.
pub struct Grammar {
    pub rules: &'static [Rule],
    /// Binary operators that concatenate strings, with the separator they put between.
    pub concat: &'static [(&'static str, &'static str)],
    /// Calls (by their last one or two names) that join their arguments with `/`.
    pub joins: &'static [&'static str],
    /// Calls that concatenate their arguments.
    pub concats: &'static [&'static str],
    /// Calls and methods that return their first argument or receiver as a path.
    pub identities: &'static [&'static str],
    /// Calls that make a path object (their variables are [`Receiver::PathLike`]).
    pub path_types: &'static [&'static str],
    /// Ruby: a block's, a method's or a lambda's parameter may hold a path object (in a program
    /// that makes one), except a block's of a call in [`Grammar::handle_openers`].
    pub parameters_may_hold_paths: bool,
    /// Calls whose block gets a handle, not a path (`File.open(p) { |f| … }`).
    pub handle_openers: &'static [&'static str],
    pub assignments: &'static [&'static str],
    /// Characters that start a variable's name (`$x`, `@x`) and are not part of it.
    pub sigils: &'static str,
    /// Ruby's `'%s/x' % name` (a list on the right: its items in order).
    pub percent_format: bool,
    /// Perl, Ruby, Lua, R: `unlink $f`, `File.write "x", y` without parentheses.
    pub calls_without_parentheses: bool,
    /// Member separators besides `.`.
    pub members: &'static [&'static str],
    /// `.` separates members (not in Perl and PHP, where it concatenates, nor in R's names).
    pub dot_member: bool,
    /// awk: adjacent values concatenate (`"dir/" name ".md"`).
    pub juxtapose: bool,
    /// P-18's inverted default: a call that is neither in [`Grammar::rules`] nor proven
    /// read-only (below) makes the program unsure, so every guarded location it names counts as
    /// written.
    pub unknown_calls_unproven: bool,
    /// Calls that write no file and start nothing, by their last name (`print`) or their last two
    /// (`SHA.new`): data, per language.
    pub read_only: &'static [&'static str],
    /// Words that look like calls and are not (`if`, `my`, `return`).
    pub keywords: &'static [&'static str],
    /// Member operators after which a name is always a method call (Ruby's `.`, Perl's `->`).
    pub method_members: &'static [&'static str],
    /// Keywords that define a function named by the next word (`sub`, `def`, `function`): calls
    /// of those are read where they are defined.
    pub definitions: &'static [&'static str],
    /// Keywords that load a module named by the next word or string (`use`, `require`); a module
    /// in [`Grammar::libraries`] is proven, any other is code the analysis cannot see.
    pub loaders: &'static [&'static str],
    /// The modules a loader may load (the standard library's, which write nothing when loaded).
    pub libraries: &'static [&'static str],
    /// Calls that lower-case their first argument (or the receiver, as methods).
    pub lowers: &'static [&'static str],
    /// Calls that join a list by a separator (`table.concat`, `implode`).
    pub list_joins: &'static [&'static str],
    /// The separator comes before the list (`implode(sep, list)`).
    pub separator_first: bool,
    /// Calls that format with `%s` (`string.format`, `sprintf`): the format filled.
    pub formats: &'static [&'static str],
    /// Methods of a string that format it with `%s` (Lua's `('%s/p.md'):format(d)`).
    pub format_methods: &'static [&'static str],
    /// `{a, b}` is a list (Lua's table constructor).
    pub brace_lists: bool,
    /// Calls whose value is the files their pattern matches (`glob`, `Dir.glob`): a list of the
    /// pattern, which a write then matches against the guarded locations.
    pub globs: &'static [&'static str],
    /// A glob's pattern is several patterns separated by blanks (Perl's `glob('a b')`).
    pub glob_words: bool,
    /// A variable called as a function (PHP's `$w(…)`) is a call nothing proves.
    pub variable_calls: bool,
    /// Named constants and their values (`DIRECTORY_SEPARATOR`).
    pub constants: &'static [(&'static str, &'static str)],
    /// Calls whose value is the list of their arguments, flattened (R's `c(…)`).
    pub list_makers: &'static [&'static str],
    /// The parameters of a rule's callee in order, `...` among them, for R's argument matching
    /// (exact names, unique prefixes, then positions) and PHP's named arguments; a rule's
    /// positions are their indices.
    pub formals: &'static [(&'static str, &'static [&'static str])],
    /// Functions are values (Lua's `os.remove`): a rule's callee named without being called is
    /// passed on to be called with arguments the analysis does not see.
    pub function_values: bool,
    /// A call of anything but a name (`t[k](…)`, `(f)(…)`, `'unlink'(…)`, `$f->(…)`, `f.(…)`)
    /// calls a function the analysis does not know.
    pub computed_calls: bool,
    /// Read-only calls that call the function given at these positions (PHP's
    /// `array_map('unlink', …)`): a string or name there must be a function the tables prove.
    pub callbacks: &'static [(&'static str, &'static [usize])],
    /// Calls that change the variables given to them, by their last name or last two
    /// (`table.sort(t)`, `chop $x`, `sort($a)`): those variables' values are no longer known.
    pub mutators: &'static [&'static str],
    /// Operators after a variable that append to it in place (Ruby's `s << p`, `a << p`).
    pub appends: &'static [&'static str],
    /// Ruby: `x.y = v` calls the method `y=`.
    pub setter_calls: bool,
    /// The variable a writer called without arguments works on (Perl's `unlink;` is `unlink $_`).
    pub default_argument: &'static str,
    /// Perl's `=>` separates arguments and list items as `,` does.
    pub fat_comma: bool,
    /// Perl: `(a, b)` is a list.
    pub paren_lists: bool,
    /// Operators that join a path object with a string by `/` (Ruby's `Pathname + 'x'`).
    pub path_operators: &'static [&'static str],
    /// Stream wrappers that name a file inside a written path (PHP's
    /// `php://filter/…/resource=P`): the prefix, and the marker after which the file's path
    /// starts (right after the prefix when empty); compared without case.
    pub wrappers: &'static [(&'static str, &'static str)],
    /// The option of a process-starting call that gives the directory the command runs in
    /// (Ruby's `system(…, chdir: d)`, PHP's `proc_open(…, cwd: d)`), by name or by its place in
    /// the callee's [`Grammar::formals`].
    pub chdir_option: &'static str,
}

impl Grammar {
    /// No rules, operators or calls: each language's grammar states only what it has.
    pub const NONE: Grammar = Grammar {
        rules: &[],
        concat: &[],
        joins: &[],
        concats: &[],
        identities: &[],
        path_types: &[],
        parameters_may_hold_paths: false,
        handle_openers: &[],
        assignments: &[],
        sigils: "",
        percent_format: false,
        calls_without_parentheses: false,
        members: &[],
        dot_member: false,
        juxtapose: false,
        unknown_calls_unproven: false,
        read_only: &[],
        keywords: &[],
        method_members: &[],
        definitions: &[],
        loaders: &[],
        libraries: &[],
        lowers: &[],
        list_joins: &[],
        separator_first: false,
        formats: &[],
        format_methods: &[],
        brace_lists: false,
        globs: &[],
        glob_words: false,
        variable_calls: false,
        constants: &[],
        list_makers: &[],
        formals: &[],
        function_values: false,
        computed_calls: false,
        callbacks: &[],
        mutators: &[],
        appends: &[],
        setter_calls: false,
        default_argument: "",
        fat_comma: false,
        paren_lists: false,
        path_operators: &[],
        wrappers: &[],
        chdir_option: "",
    };
}
