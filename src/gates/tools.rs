//! Which DSH tools the gates look at, and where each keeps its target and its new text
//! (docs/decisions.md#dsh). Other hosts' tools have a file each under `tools/`.

mod codex;
mod gemini;
mod read_only;
pub mod strings;

/// Read access to a tool call's arguments. The binding reads lazily from the JS object, so a
/// field is fetched only when a decision needs it.
pub trait ToolArgs {
    /// A string field; `None` when absent or not a string.
    fn string(&self, field: &str) -> Option<String>;
    /// `field` of every element of array `array`: `None` when there is no such array, a `None`
    /// element where an element has no string `field`.
    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>>;
    /// An array field whose elements are all strings (an argv); `None` when absent, not an
    /// array, or holding anything else.
    fn strings(&self, _field: &str) -> Option<Vec<String>> {
        None
    }
    /// The text of any field as JSON would spell it (a string field is its own text): what a
    /// dispatch's free-form arguments (Claude Code's `Workflow` `args`) say. `None` when absent or
    /// unreadable.
    fn json_text(&self, field: &str) -> Option<String> {
        self.string(field)
    }
    /// The whole arguments object as JSON text, for a tool judged by every string it carries
    /// (docs/decisions.md#p-18). `None` when unreadable (a cycle, a throwing `toJSON`); a source
    /// of real calls must give it, or those tools are judged by nothing.
    fn arguments_json(&self) -> Option<String> {
        None
    }
}

/// Where a writing tool carries the text it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    Field(&'static str),
    /// `multi_edit`: every `edits[].new_string`.
    EditsNewStrings,
    /// The gates do not judge this text (`str_replace_editor create`, docs/decisions.md#gate-a).
    Invisible,
    /// The first of these string fields that is present.
    FirstOf(&'static [&'static str]),
    /// `field` of every element of `edits` (`edit_file`'s `newText`).
    EditsOf(&'static str),
    /// A tool this table only knows by the words of its name: the first content field it
    /// recognises, else the new texts of its `edits`.
    Recognised,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    WriteFile {
        path_field: &'static str,
        content: Content,
    },
    /// A write of every one of these path fields that is present (an MCP tool), and of these
    /// source fields (a move, rename or removal writes its source too).
    WriteEach {
        path_fields: &'static [&'static str],
        source_fields: &'static [&'static str],
        content: Content,
    },
    /// Creates a directory: a write of its path, except the plans folder itself.
    CreateDirectory {
        path_field: &'static str,
    },
    /// A patch (either format, see [`crate::patch`]) in the first of these fields that holds one.
    Patch {
        fields: &'static [&'static str],
    },
    Bash,
    /// A shell command in the first of `command_fields` that holds one (a string, or an argv
    /// array judged word for word), run in `workdir_field` relative to the session cwd.
    Shell {
        command_fields: &'static [&'static str],
        workdir_field: &'static str,
    },
    /// DSH's `pwsh`: the same fields as `bash`, a PowerShell command line.
    PowerShell,
    /// Starts more work whose text may reference plans (D-7, P-4).
    Dispatch {
        text_field: &'static str,
    },
    /// Starts more work described by several fields, all judged together.
    DispatchEach {
        texts: &'static [DispatchText],
    },
    /// A tool not known to be read-only: every string it carries that names a guarded location
    /// is a write of it (docs/decisions.md#p-18). `path_fields` and `source_fields` are the
    /// fields its name says it writes (an MCP writer), which [`super::claude_code`] reads.
    Unknown {
        path_fields: &'static [&'static str],
        source_fields: &'static [&'static str],
    },
    /// An MCP tool named like one of the reference filesystem server's writers or
    /// desktop-commander's `start_process`, or named as a runner with a `command`: `known` judges
    /// the fields that server gives it (gate A reads a plan's Spec line in its content), and every
    /// other string it carries is judged as [`Action::Unknown`] judges them, since a server of
    /// another kind may keep its target anywhere (docs/decisions.md#p-18). `fields` are the key
    /// paths `known` judged (`edits.newText`: that field of each element of `edits`).
    Known {
        known: &'static Action,
        fields: &'static [&'static str],
    },
    Unguarded,
}

/// Where a dispatch that spreads its description over several fields keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DispatchText {
    /// A string field.
    Field(&'static str),
    /// Any JSON value, judged as its JSON text.
    Json(&'static str),
    /// A path (relative to the session directory) to a script file, read at check time.
    ScriptFile(&'static str),
    /// `field` of every element of array `array` (Codex's structured input, `items[].text`).
    Items(&'static str, &'static str),
    /// Every string of the arguments, at any depth and under any field name.
    EveryString,
}

/// Claude Code's `Workflow`: an inline script, the input its script reads, or a script file on disk.
const WORKFLOW_TEXTS: &[DispatchText] = &[
    DispatchText::Field("script"),
    DispatchText::Json("args"),
    DispatchText::ScriptFile("scriptPath"),
    DispatchText::EveryString,
];
/// Claude Code's other dispatches: a reference in any field starts work on that plan.
const PROMPT_TEXTS: &[DispatchText] = &[DispatchText::Field("prompt"), DispatchText::EveryString];
const MESSAGE_TEXTS: &[DispatchText] = &[DispatchText::Field("message"), DispatchText::EveryString];

pub fn action(name: &str, args: &dyn ToolArgs) -> Action {
    use Action::*;
    match name {
        name if is_powershell_tool(name) => PowerShell,
        "write" => WriteFile { path_field: "file_path", content: Content::Field("content") },
        "edit" => WriteFile { path_field: "file_path", content: Content::Field("new_string") },
        "multi_edit" => WriteFile { path_field: "file_path", content: Content::EditsNewStrings },
        "str_replace_editor" => match args.string("command").as_deref() {
            Some("view") => Unguarded,
            Some("str_replace" | "insert") => WriteFile { path_field: "path", content: Content::Field("new_str") },
            // `create` and any command this table does not know write without judged content.
            _ => WriteFile { path_field: "path", content: Content::Invisible },
        },
        "bash" => Bash,
        "subagent" | "subagent_fork" => Dispatch { text_field: "prompt" },
        // Claude Code's names (P-16): a harness passes its raw call, `tool_input` as the arguments.
        // `MultiEdit` and `Task` are the names of older clients.
        "Write" => WriteFile { path_field: "file_path", content: Content::Field("content") },
        "Edit" => WriteFile { path_field: "file_path", content: Content::Field("new_string") },
        "MultiEdit" => WriteFile { path_field: "file_path", content: Content::EditsNewStrings },
        "Bash" | "Monitor" => Bash,
        "Task" | "Agent" => DispatchEach { texts: PROMPT_TEXTS },
        "Workflow" => DispatchEach { texts: WORKFLOW_TEXTS },
        "SendMessage" => DispatchEach { texts: MESSAGE_TEXTS },
        // A scheduled prompt is work started later, in this session; a remote trigger's body
        // and a goal's condition start work too.
        "CronCreate" | "ScheduleWakeup" => DispatchEach { texts: PROMPT_TEXTS },
        "RemoteTrigger" => DispatchEach { texts: &[DispatchText::Json("body"), DispatchText::EveryString] },
        "ProposeGoal" => DispatchEach { texts: &[DispatchText::Field("condition"), DispatchText::EveryString] },
        "workflow" => Dispatch { text_field: "script" },
        "send_message" => Dispatch { text_field: "message" },
        "ralph" => Dispatch { text_field: "objective" },
        "apply_patch" => Patch { fields: &["input", "patch", "command"] },
        "notebook_edit" | "NotebookEdit" => {
            WriteFile { path_field: "notebook_path", content: Content::Field("new_source") }
        }
        _ => other_action(name, args),
    }
}

/// A PowerShell tool, its name in any case: DSH's `pwsh`, Claude Code's `PowerShell`, and
/// `powershell` as a harness may pass it. Other names match exactly.
pub fn is_powershell_tool(name: &str) -> bool {
    ["pwsh", "powershell"].iter().any(|known| name.eq_ignore_ascii_case(known))
}

/// Names no row above knows: Codex's and Gemini CLI's tools, the read-only tools, then MCP
/// tools; any other tool is judged by every string it carries.
fn other_action(name: &str, args: &dyn ToolArgs) -> Action {
    if let Some(action) = codex::action(name).or_else(|| gemini::action(name, args)) {
        return action;
    }
    if read_only::host_tool(name) || is_terminal(name) {
        return Action::Unguarded;
    }
    match name.strip_prefix("mcp__") {
        Some(rest) => {
            let (server, tool) = rest.rsplit_once("__").unwrap_or(("", rest));
            if read_only::mcp_tool(server, tool, args) { Action::Unguarded } else { mcp_action(tool, args) }
        }
        None => UNKNOWN,
    }
}

/// DSH's terminals stay outside the gates: what they run is keystrokes (docs/decisions.md#t3-6).
fn is_terminal(name: &str) -> bool {
    name.starts_with("terminal_")
}

/// A tool known by nothing but its strings.
const UNKNOWN: Action = Action::Unknown { path_fields: &[], source_fields: &[] };

/// Fields that name the file a tool writes.
pub const PATH_FIELDS: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "filename",
    "file",
    "target",
    "target_path",
    "targetPath",
    "destination",
    "destination_path",
    "dest",
    "to",
    "output",
    "output_path",
    "outputPath",
    "new_path",
    "newPath",
    "notebook_path",
];
/// The source of a move, rename or removal, which is written too.
pub const SOURCE_FIELDS: &[&str] = &["source", "src", "from", "old_path", "oldPath"];
/// Fields that carry the text a tool writes.
pub const CONTENT_FIELDS: &[&str] =
    &["content", "text", "newText", "new_string", "new_source", "file_text", "contents", "data", "body"];
/// Words of a tool name that say it writes files.
const WRITE_WORDS: &[&str] = &[
    "write",
    "edit",
    "create",
    "save",
    "append",
    "put",
    "patch",
    "apply",
    "move",
    "rename",
    "copy",
    "delete",
    "remove",
    "upload",
    "download",
    "replace",
    "insert",
    "update",
    "overwrite",
    "modify",
    "set",
    "mkdir",
    "touch",
    "truncate",
    "rm",
    "mv",
    "cp",
    "unlink",
    "store",
    "export",
    "extract",
];
/// Words that say the written file's old path goes away too.
const MOVE_WORDS: &[&str] = &["move", "rename", "delete", "remove", "mv", "rm", "unlink"];
/// Words of a tool name that say it runs a shell command.
const RUN_WORDS: &[&str] = &["run", "exec", "execute", "shell", "bash", "sh", "terminal", "command", "cmd"];

/// The reference filesystem server's writers and desktop-commander's `start_process`, by tool
/// name: how that server reads them, and the key paths that reading judges.
const KNOWN_MCP_TOOLS: &[(&str, Action, &[&str])] = &[
    ("write_file", Action::WriteFile { path_field: "path", content: Content::Field("content") }, &["path", "content"]),
    (
        "edit_file",
        Action::WriteFile { path_field: "path", content: Content::EditsOf("newText") },
        &["path", "edits.newText", "edits.oldText"],
    ),
    (
        "move_file",
        Action::WriteEach { path_fields: &["source", "destination"], source_fields: &[], content: Content::Invisible },
        &["source", "destination"],
    ),
    ("create_directory", Action::CreateDirectory { path_field: "path" }, &["path"]),
    ("start_process", Action::Shell { command_fields: &["command"], workdir_field: "cwd" }, &["command", "cwd"]),
];

/// A runner's `command`, run as bash in its `workdir`.
const RUNNER: Action = Action::Shell { command_fields: &["command"], workdir_field: "workdir" };

/// An MCP tool (`tool` without its server) not known to be read-only: the filesystem server's
/// writers and desktop-commander's `start_process` by name and a runner by the words of its
/// name, each with its other strings; a patch; anything else by every string it carries
/// (docs/decisions.md#p-18).
fn mcp_action(tool: &str, args: &dyn ToolArgs) -> Action {
    use Action::*;
    if let Some((_, known, fields)) = KNOWN_MCP_TOOLS.iter().find(|(name, _, _)| *name == tool) {
        return Known { known, fields };
    }
    // One pass over the name; a word longer than any listed word is none of them.
    let mut buffer = [0u8; 16];
    let (mut runs, mut writes, mut moves, mut patches) = (false, false, false, false);
    for word in name_words(tool).filter(|word| word.len() <= 16) {
        let lower = buffer.get_mut(..word.len()).unwrap_or_default();
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        let is = |list: &[&str]| list.iter().any(|known| known.as_bytes() == &*lower);
        runs |= is(RUN_WORDS);
        writes |= is(WRITE_WORDS);
        moves |= is(MOVE_WORDS);
        patches |= is(&["patch", "apply"]);
    }
    if runs && args.string("command").is_some() {
        return Known { known: &RUNNER, fields: &["command"] };
    }
    if !writes {
        return UNKNOWN;
    }
    if patches {
        let fields: &'static [&'static str] = &["patch", "diff", "input", "content"];
        if fields.iter().any(|field| args.string(field).is_some_and(|text| crate::patch::is_patch(&text))) {
            return Patch { fields };
        }
    }
    let source_fields = if moves { SOURCE_FIELDS } else { &[] };
    Unknown { path_fields: PATH_FIELDS, source_fields }
}

/// The words of a tool name: split at `_`, `-`, `.`, digits and camelCase humps, without
/// allocating (every MCP call pays for this).
fn name_words(name: &str) -> impl Iterator<Item = &str> {
    let mut rest = name;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| c.is_ascii_alphabetic())?;
        rest = rest.get(start..)?;
        let mut end = rest.len();
        let mut previous_lower = false;
        for (at, c) in rest.char_indices() {
            if !c.is_ascii_alphabetic() || (c.is_ascii_uppercase() && previous_lower) {
                end = at;
                break;
            }
            previous_lower = c.is_ascii_lowercase();
        }
        let word = rest.get(..end)?;
        rest = rest.get(end..)?;
        Some(word)
    })
}

/// The new texts a write carries, fetched only for a target under the plans folder. `None` means
/// none is visible, which gate A refuses.
pub fn new_texts(args: &dyn ToolArgs, content: Content) -> Option<Vec<String>> {
    match content {
        Content::Field(field) => args.string(field).map(|text| vec![text]),
        Content::EditsNewStrings => {
            let texts: Option<Vec<String>> = args.strings_of("edits", "new_string")?.into_iter().collect();
            texts.filter(|texts| !texts.is_empty())
        }
        Content::Invisible => None,
        Content::FirstOf(fields) => fields.iter().find_map(|field| args.string(field)).map(|text| vec![text]),
        Content::EditsOf(field) => {
            let texts: Option<Vec<String>> = args.strings_of("edits", field)?.into_iter().collect();
            texts.filter(|texts| !texts.is_empty())
        }
        Content::Recognised => new_texts(args, Content::FirstOf(CONTENT_FIELDS))
            .or_else(|| new_texts(args, Content::EditsOf("newText")))
            .or_else(|| new_texts(args, Content::EditsNewStrings)),
    }
}

#[cfg(test)]
mod tests {
    use super::name_words;

    #[test]
    fn tool_names_split_into_words() {
        let words = |name| name_words(name).collect::<Vec<_>>();
        assert_eq!(words("write_file"), ["write", "file"]);
        assert_eq!(words("saveNote2Disk"), ["save", "Note", "Disk"]);
        assert_eq!(words("append-text.v2"), ["append", "text", "v"]);
        assert_eq!(words("URLFetch"), ["URLFetch"]);
        assert_eq!(words("__"), Vec::<&str>::new());
    }
}
