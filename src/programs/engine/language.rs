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
    /// Changes the directory relative paths resolve against.
    Chdir(usize),
    /// Runs code the analysis cannot see (`eval`, `exec`, reflection).
    Opaque,
    /// Perl's `open`: `open(FH, '>', $path)`, `open(FH, ">$path")`, `open(FH, '|-', @cmd)`.
    PerlOpen,
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
    pub assignments: &'static [&'static str],
    /// Characters that start a variable's name (`$x`, `@x`) and are not part of it.
    pub sigils: &'static str,
    /// Python's `'%s/x' % name`.
    pub percent_format: bool,
    /// Perl, Ruby, Lua, R: `unlink $f`, `File.write "x", y` without parentheses.
    pub calls_without_parentheses: bool,
    /// Member separators besides `.`.
    pub members: &'static [&'static str],
    /// `.` separates members (not in Perl and PHP, where it concatenates, nor in R's names).
    pub dot_member: bool,
    /// awk: adjacent values concatenate (`"dir/" name ".md"`).
    pub juxtapose: bool,
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
        assignments: &[],
        sigils: "",
        percent_format: false,
        calls_without_parentheses: false,
        members: &[],
        dot_member: false,
        juxtapose: false,
    };
}
