//! Which DSH tools the gates look at, and where each keeps its target and its new text
//! (SPEC §6, `docs/tool-catalog.md`).

/// Read access to a tool call's arguments. The binding reads lazily from the JS object, so a
/// field is fetched only when a decision needs it.
pub trait ToolArgs {
    /// A string field; `None` when absent or not a string.
    fn string(&self, field: &str) -> Option<String>;
    /// `field` of every element of array `array`: `None` when there is no such array, a `None`
    /// element where an element has no string `field`.
    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>>;
}

/// Where a writing tool carries the text it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    Field(&'static str),
    /// `multi_edit`: every `edits[].new_string`.
    EditsNewStrings,
    /// The gates do not judge this text (`str_replace_editor create`, per seed 000).
    Invisible,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    WriteFile {
        path_field: &'static str,
        content: Content,
    },
    Bash,
    /// DSH's `pwsh`: the same fields as `bash`, a PowerShell command line.
    PowerShell,
    /// Starts more work whose text may reference plans (D-7, P-4).
    Dispatch {
        text_field: &'static str,
    },
    Unguarded,
}

pub fn action(name: &str, args: &dyn ToolArgs) -> Action {
    use Action::*;
    match name {
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
        "pwsh" => PowerShell,
        "subagent" | "subagent_fork" => Dispatch { text_field: "prompt" },
        "workflow" => Dispatch { text_field: "script" },
        "send_message" => Dispatch { text_field: "message" },
        "ralph" => Dispatch { text_field: "objective" },
        _ => Unguarded,
    }
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
    }
}
