//! The cmdlets the walk knows: aliases, parameters (named, by an unambiguous-enough prefix, or by
//! position) and which of them name the files written. Names are matched ignoring case.

use crate::analysis::values::Value;

/// One element of a command line after the command name.
#[derive(Debug, Clone)]
pub enum Element {
    /// `-Name`, `-Name:value`: the name in lower case without `-`, and as typed.
    Param { name: String, text: String, value: Option<Vec<Value>> },
    /// An argument: its values (`a,b` is two).
    Arg(Vec<Value>),
}

/// A cmdlet's parameters: lower-case names with whether each is a switch, aliases, and the
/// positional order.
pub struct Spec {
    params: &'static [(&'static str, bool)],
    aliases: &'static [(&'static str, &'static str)],
    positional: &'static [&'static str],
}

/// The parameters every cmdlet takes.
const COMMON: [(&str, bool); 16] = [
    ("verbose", true),
    ("debug", true),
    ("whatif", true),
    ("confirm", true),
    ("erroraction", false),
    ("warningaction", false),
    ("informationaction", false),
    ("progressaction", false),
    ("errorvariable", false),
    ("warningvariable", false),
    ("informationvariable", false),
    ("outvariable", false),
    ("outbuffer", false),
    ("pipelinevariable", false),
    ("usetransaction", true),
    ("credential", false),
];

/// Switches of cmdlets this table does not describe: an unknown parameter named so takes no value.
const KNOWN_SWITCHES: [&str; 24] = [
    "force",
    "recurse",
    "passthru",
    "append",
    "nonewline",
    "noclobber",
    "container",
    "asbytestream",
    "raw",
    "wait",
    "nonewwindow",
    "notypeinformation",
    "includetypeinformation",
    "useculture",
    "asjob",
    "all",
    "file",
    "directory",
    "hidden",
    "name",
    "followsymlink",
    "casesensitive",
    "simplematch",
    "quiet",
];

const LITERAL_PATH_ALIASES: [(&str, &str); 2] = [("pspath", "literalpath"), ("lp", "literalpath")];

const CONTENT: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("value", false),
        ("passthru", true),
        ("filter", false),
        ("include", false),
        ("exclude", false),
        ("force", true),
        ("encoding", false),
        ("nonewline", true),
        ("asbytestream", true),
        ("stream", false),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path", "value"],
};

const OUT_FILE: Spec = Spec {
    params: &[
        ("filepath", false),
        ("literalpath", false),
        ("encoding", false),
        ("append", true),
        ("force", true),
        ("noclobber", true),
        ("nonewline", true),
        ("inputobject", false),
        ("width", false),
    ],
    aliases: &[("path", "filepath"), ("pspath", "literalpath"), ("lp", "literalpath")],
    positional: &["filepath", "encoding"],
};

const TEE: Spec = Spec {
    params: &[
        ("filepath", false),
        ("literalpath", false),
        ("append", true),
        ("variable", false),
        ("inputobject", false),
        ("encoding", false),
    ],
    aliases: &[("path", "filepath"), ("pspath", "literalpath"), ("lp", "literalpath")],
    positional: &["filepath"],
};

const NEW_ITEM: Spec = Spec {
    params: &[
        ("path", false),
        ("name", false),
        ("itemtype", false),
        ("value", false),
        ("force", true),
        ("options", false),
    ],
    aliases: &[("type", "itemtype"), ("target", "value")],
    positional: &["path"],
};

const COPY_MOVE: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("destination", false),
        ("passthru", true),
        ("container", true),
        ("force", true),
        ("filter", false),
        ("include", false),
        ("exclude", false),
        ("recurse", true),
        ("fromsession", false),
        ("tosession", false),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path", "destination"],
};

const RENAME: Spec = Spec {
    params: &[("path", false), ("literalpath", false), ("newname", false), ("force", true), ("passthru", true)],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path", "newname"],
};

const REMOVE: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("filter", false),
        ("include", false),
        ("exclude", false),
        ("recurse", true),
        ("force", true),
        ("stream", false),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path"],
};

const EXPORT: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("filepath", false),
        ("outputmodule", false),
        ("inputobject", false),
        ("depth", false),
        ("delimiter", false),
        ("encoding", false),
        ("append", true),
        ("force", true),
        ("noclobber", true),
        ("notypeinformation", true),
        ("includetypeinformation", true),
        ("useculture", true),
        ("quotefields", false),
        ("usequotes", false),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path"],
};

const LOCATION: Spec = Spec {
    params: &[("path", false), ("literalpath", false), ("stackname", false), ("passthru", true)],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path"],
};

const COMPRESS_ARCHIVE: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("destinationpath", false),
        ("compressionlevel", false),
        ("update", true),
        ("force", true),
        ("passthru", true),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path", "destinationpath"],
};

const INVOKE_EXPRESSION: Spec = Spec { params: &[("command", false)], aliases: &[], positional: &["command"] };

const START_PROCESS: Spec = Spec {
    params: &[
        ("filepath", false),
        ("argumentlist", false),
        ("workingdirectory", false),
        ("redirectstandardoutput", false),
        ("redirectstandarderror", false),
        ("redirectstandardinput", false),
        ("verb", false),
        ("windowstyle", false),
        ("wait", true),
        ("nonewwindow", true),
        ("passthru", true),
        ("loaduserprofile", true),
        ("usenewenvironment", true),
    ],
    aliases: &[("path", "filepath"), ("args", "argumentlist"), ("rso", "redirectstandardoutput")],
    positional: &["filepath", "argumentlist"],
};

const ALIAS: Spec = Spec {
    params: &[
        ("name", false),
        ("value", false),
        ("description", false),
        ("option", false),
        ("scope", false),
        ("passthru", true),
        ("force", true),
    ],
    aliases: &[],
    positional: &["name", "value"],
};

const VARIABLE: Spec = Spec {
    params: &[
        ("name", false),
        ("value", false),
        ("include", false),
        ("exclude", false),
        ("description", false),
        ("option", false),
        ("visibility", false),
        ("scope", false),
        ("passthru", true),
        ("force", true),
    ],
    aliases: &[],
    positional: &["name", "value"],
};

const SET_ITEM: Spec = Spec {
    params: &[
        ("path", false),
        ("literalpath", false),
        ("value", false),
        ("filter", false),
        ("include", false),
        ("exclude", false),
        ("force", true),
        ("passthru", true),
    ],
    aliases: &LITERAL_PATH_ALIASES,
    positional: &["path", "value"],
};

/// Parameters of cmdlets this table does not know: none by position.
const UNKNOWN: Spec = Spec { params: &[], aliases: &[], positional: &[] };

/// What a known cmdlet does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Writes the files its `-Path`/`-LiteralPath` (and `-FilePath`, `-OutputModule`) name.
    WritesPaths,
    NewItem,
    Copy,
    Move,
    Rename,
    /// `Compress-Archive`: reads its `-Path`/`-LiteralPath`, writes only its `-DestinationPath`.
    Archive,
    SetLocation,
    PushLocation,
    PopLocation,
    InvokeExpression,
    StartProcess,
    /// `Set-Alias`, `New-Alias`: defines an alias.
    SetAlias,
    /// `Remove-Alias`: removes an alias.
    RemoveAlias,
    /// `Set-Variable`, `New-Variable`: sets a variable.
    SetVariable,
    /// `Set-Item`: an item of the `alias:`, `function:`, `variable:`, `env:` drives, else unknown.
    SetItem,
    /// Reads, lists, formats: writes nothing itself (script blocks it is given are walked).
    ReadOnly,
}

/// The canonical (lower-case) cmdlet an alias or name stands for.
pub fn canonical(name: &str) -> String {
    let lower = name.to_lowercase();
    let alias = match lower.as_str() {
        "sc" => "set-content",
        "ac" => "add-content",
        "clc" => "clear-content",
        "ni" => "new-item",
        "cp" | "copy" | "cpi" | "cpp" => "copy-item",
        "mv" | "move" | "mi" => "move-item",
        "ren" | "rni" => "rename-item",
        "rm" | "del" | "erase" | "ri" | "rd" | "rmdir" => "remove-item",
        "tee" => "tee-object",
        "cd" | "sl" | "chdir" => "set-location",
        "pushd" => "push-location",
        "popd" => "pop-location",
        "iex" => "invoke-expression",
        "saps" | "start" => "start-process",
        "epcsv" => "export-csv",
        "epal" => "export-alias",
        "gc" | "cat" | "type" => "get-content",
        "ls" | "dir" | "gci" => "get-childitem",
        "gi" => "get-item",
        "echo" | "write" => "write-output",
        "sls" => "select-string",
        "diff" | "compare" => "compare-object",
        "%" | "foreach" => "foreach-object",
        "?" | "where" => "where-object",
        "select" => "select-object",
        "sort" => "sort-object",
        "measure" => "measure-object",
        "group" => "group-object",
        "fl" => "format-list",
        "ft" => "format-table",
        "fw" => "format-wide",
        "oh" => "out-host",
        "gl" | "pwd" => "get-location",
        "gcm" => "get-command",
        "gm" => "get-member",
        "gv" => "get-variable",
        "gps" | "ps" => "get-process",
        "rvpa" => "resolve-path",
        "ipcsv" => "import-csv",
        "cls" | "clear" => "clear-host",
        "h" | "history" | "ghy" => "get-history",
        "icm" => "invoke-command",
        "iwr" => "invoke-webrequest",
        "irm" => "invoke-restmethod",
        "ii" => "invoke-item",
        "si" => "set-item",
        "sp" => "set-itemproperty",
        "nv" => "new-variable",
        "sal" => "set-alias",
        "nal" => "new-alias",
        "sv" | "set" => "set-variable",
        _ => return lower,
    };
    alias.to_string()
}

/// The spec and kind of a canonical cmdlet name; `None` for a name this table does not know.
pub fn lookup(cmdlet: &str) -> Option<(&'static Spec, Kind)> {
    use Kind::*;
    let known = match cmdlet {
        "set-content" | "add-content" | "clear-content" => (&CONTENT, WritesPaths),
        "out-file" => (&OUT_FILE, WritesPaths),
        "tee-object" => (&TEE, WritesPaths),
        "new-item" => (&NEW_ITEM, NewItem),
        "copy-item" => (&COPY_MOVE, Copy),
        "move-item" => (&COPY_MOVE, Move),
        "rename-item" => (&RENAME, Rename),
        "compress-archive" => (&COMPRESS_ARCHIVE, Archive),
        "remove-item" => (&REMOVE, WritesPaths),
        "set-location" => (&LOCATION, SetLocation),
        "push-location" => (&LOCATION, PushLocation),
        "pop-location" => (&LOCATION, PopLocation),
        "invoke-expression" => (&INVOKE_EXPRESSION, InvokeExpression),
        "start-process" => (&START_PROCESS, StartProcess),
        "set-alias" | "new-alias" => (&ALIAS, SetAlias),
        "remove-alias" => (&ALIAS, RemoveAlias),
        "set-variable" | "new-variable" => (&VARIABLE, SetVariable),
        "set-item" => (&SET_ITEM, SetItem),
        "export-modulemember" => (&UNKNOWN, ReadOnly),
        name if name.starts_with("export-") => (&EXPORT, WritesPaths),
        name if is_read_only(name) => (&UNKNOWN, ReadOnly),
        _ => return None,
    };
    Some(known)
}

/// Verbs whose cmdlets only read, list, compute or print, and single cmdlets of other verbs that do.
fn is_read_only(cmdlet: &str) -> bool {
    const VERBS: [&str; 24] = [
        "get",
        "test",
        "select",
        "measure",
        "compare",
        "format",
        "convertto",
        "convertfrom",
        "find",
        "resolve",
        "join",
        "split",
        "read",
        "write",
        "show",
        "wait",
        "sort",
        "group",
        "where",
        "foreach",
        "import",
        "search",
        "receive",
        "trace",
    ];
    const CMDLETS: [&str; 8] = [
        "out-string",
        "out-host",
        "out-null",
        "out-default",
        "clear-host",
        "invoke-command",
        "set-strictmode",
        "set-psdebug",
    ];
    let verb = cmdlet.split('-').next().unwrap_or(cmdlet);
    (cmdlet.contains('-') && VERBS.contains(&verb)) || CMDLETS.contains(&cmdlet)
}

/// Does `name` look like a cmdlet (`Verb-Noun`) rather than a program?
pub fn is_cmdlet_name(name: &str) -> bool {
    match name.split_once('-') {
        Some((verb, noun)) => {
            !verb.is_empty()
                && !noun.is_empty()
                && verb.chars().all(|c| c.is_ascii_alphabetic())
                && noun.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        None => false,
    }
}

/// Parameters bound by name and by position.
#[derive(Debug, Default)]
pub struct Bound {
    pub named: Vec<(&'static str, Vec<Value>)>,
    pub switches: Vec<&'static str>,
    /// Arguments left after the positional parameters.
    pub rest: Vec<Vec<Value>>,
}

impl Bound {
    pub fn values(&self, param: &str) -> Vec<&Value> {
        self.named.iter().filter(|(name, _)| *name == param).flat_map(|(_, values)| values).collect()
    }

    pub fn has(&self, param: &str) -> bool {
        self.named.iter().any(|(name, _)| *name == param)
    }

    pub fn switch(&self, param: &str) -> bool {
        self.switches.contains(&param)
    }
}

impl Spec {
    /// The parameter `typed` names: a name or alias, else the first name it is a prefix of (path
    /// parameters come first, so an ambiguous prefix is read as the path).
    fn find(&self, typed: &str) -> Option<(&'static str, bool)> {
        let all = || self.params.iter().chain(COMMON.iter());
        if let Some(&found) = all().find(|(name, _)| *name == typed) {
            return Some(found);
        }
        if let Some((_, target)) = self.aliases.iter().find(|(alias, _)| *alias == typed) {
            return all().find(|(name, _)| name == target).copied();
        }
        if typed.is_empty() {
            return None;
        }
        all().find(|(name, _)| name.starts_with(typed)).copied()
    }
}

/// Binds `elements` as PowerShell would: named parameters first, then the positional ones in
/// order among those not bound by name.
pub fn bind(elements: &[Element], spec: &Spec) -> Bound {
    let mut bound = Bound::default();
    let mut positional = Vec::new();
    let mut at = 0;
    while let Some(element) = elements.get(at) {
        at += 1;
        match element {
            Element::Arg(values) => positional.push(values.clone()),
            Element::Param { name, value, .. } => {
                let next_arg = match elements.get(at) {
                    Some(Element::Arg(values)) => Some(values),
                    _ => None,
                };
                match (spec.find(name), value) {
                    (Some((param, true)), value) => {
                        // `-Switch:$false` turns it off; so may a value the walk does not know
                        // (off is the reading that writes: `-WhatIf:$x`).
                        let off = value
                            .as_ref()
                            .is_some_and(|v| v.iter().any(|v| v.dynamic || v.text.eq_ignore_ascii_case("false")));
                        if !off {
                            bound.switches.push(param);
                        }
                    }
                    (Some((param, false)), Some(value)) => bound.named.push((param, value.clone())),
                    (Some((param, false)), None) => {
                        if let Some(values) = next_arg {
                            bound.named.push((param, values.clone()));
                            at += 1;
                        }
                    }
                    (None, Some(_)) => {}
                    (None, None) => {
                        if next_arg.is_some() && !KNOWN_SWITCHES.contains(&name.as_str()) {
                            at += 1;
                        }
                    }
                }
            }
        }
    }
    // `-LiteralPath` is in another parameter set than the positional `-Path`/`-FilePath`.
    let literal = bound.has("literalpath");
    let in_set = |param: &&str| !literal || !matches!(*param, "path" | "filepath");
    let free: Vec<&'static str> =
        spec.positional.iter().copied().filter(|param| !bound.has(param)).filter(in_set).collect();
    let mut slots = free.into_iter();
    for values in positional {
        match slots.next() {
            Some(param) => bound.named.push((param, values)),
            None => bound.rest.push(values),
        }
    }
    bound
}

/// Cmdlets that bind what a pipeline passes them (a path, or an item's `PSPath`) to their
/// `-Path`/`-LiteralPath` when the call gives neither; the others take it as content.
const PIPED_PATH: [&str; 7] =
    ["set-content", "add-content", "clear-content", "remove-item", "copy-item", "move-item", "rename-item"];

pub fn takes_piped_path(cmdlet: &str) -> bool {
    PIPED_PATH.contains(&cmdlet)
}

/// The parameters whose values name the files a cmdlet of `kind` writes (or, for a copy, the
/// names its files get in the destination).
pub fn written_params(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::WritesPaths => &["path", "literalpath", "filepath", "outputmodule"],
        Kind::NewItem => &["path", "name"],
        Kind::Copy | Kind::Move => &["path", "literalpath", "destination"],
        Kind::Rename => &["path", "literalpath", "newname"],
        Kind::Archive => &["destinationpath"],
        Kind::StartProcess => &["redirectstandardoutput", "redirectstandarderror"],
        _ => &[],
    }
}

/// Binds `$PSDefaultParameterValues` entries (parameter, value) to the parameters the call left
/// unbound, as PowerShell does after binding the call's own arguments (switches are left as
/// the call set them: a default `-WhatIf` is not taken to stop a write). An entry whose
/// parameter the walk could not compute (`*`) is not bound here: the caller judges it.
pub fn bind_defaults(bound: &mut Bound, spec: &Spec, defaults: &[(String, Value)]) {
    let unbound = |bound: &Bound, param: &str| !bound.has(param) && !bound.switch(param);
    let mut added: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for (param, value) in defaults {
        if let Some((name, false)) = spec.find(param)
            && unbound(bound, name)
        {
            added.push((name, vec![value.clone()]));
        }
    }
    bound.named.extend(added);
}

/// Every value of every element, parameter values included: what an unknown command is judged on.
pub fn all_values(elements: &[Element]) -> Vec<&Value> {
    elements
        .iter()
        .flat_map(|element| match element {
            Element::Arg(values) => values.iter().collect::<Vec<_>>(),
            Element::Param { value, .. } => value.iter().flatten().collect(),
        })
        .collect()
}
