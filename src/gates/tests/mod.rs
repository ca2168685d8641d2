//! The gates judged end to end through `check_tool_call`, a file per way in: DSH's file tools,
//! bash (its commands, and the expansions that depend on the line's state), Claude Code's tools,
//! MCP tools and notebooks, patches, persistent shells.

mod bash_commands;
mod bash_expansions;
mod bash_shell_features;
mod claude_code_tools;
mod file_tools;
mod git_commands;
mod mcp_tools;
mod patch_calls;
mod persistent_shells;
mod powershell_values;
mod program_writes;
mod uncomputed_values;

use std::collections::HashMap;

use super::*;
use crate::test_repo::Repo;

#[derive(Default)]
struct Args {
    strings: HashMap<&'static str, String>,
    edits: Option<Vec<Option<String>>>,
    /// Fields holding other JSON values, as JSON text.
    json: HashMap<&'static str, String>,
}

impl Args {
    fn with(mut self, field: &'static str, value: &str) -> Self {
        self.strings.insert(field, value.to_string());
        self
    }
    fn json(mut self, field: &'static str, value: &str) -> Self {
        self.json.insert(field, value.to_string());
        self
    }
    fn edits(mut self, edits: &[Option<&str>]) -> Self {
        self.edits = Some(edits.iter().map(|e| e.map(str::to_string)).collect());
        self
    }
}

impl ToolArgs for Args {
    fn string(&self, field: &str) -> Option<String> {
        self.strings.get(field).cloned()
    }
    fn strings_of(&self, array: &str, _field: &str) -> Option<Vec<Option<String>>> {
        (array == "edits").then(|| self.edits.clone()).flatten()
    }
    fn json_text(&self, field: &str) -> Option<String> {
        self.json.get(field).cloned().or_else(|| self.string(field))
    }
    fn arguments_json(&self) -> Option<String> {
        let mut object = serde_json::Map::new();
        for (field, value) in &self.strings {
            object.insert(field.to_string(), serde_json::Value::from(value.as_str()));
        }
        for (field, value) in &self.json {
            object.insert(field.to_string(), serde_json::from_str(value).ok()?);
        }
        if let Some(edits) = &self.edits {
            let edits = edits.iter().map(|edit| serde_json::json!({ "new_string": edit, "newText": edit }));
            object.insert("edits".to_string(), edits.collect());
        }
        serde_json::to_string(&object).ok()
    }
}

fn write(path: &str, content: &str) -> Args {
    Args::default().with("file_path", path).with("content", content)
}

fn check(repo: &Repo, name: &str, args: &Args) -> Option<String> {
    check_tool_call(name, args, || repo.root.clone()).map(|denial| denial.to_string())
}

const PLAN: &str = "docs/superpowers/plans/x.md";
const NEEDS_SPEC: &str = "BLOCKED [approval-gates]: plan must carry **Spec:** pointing to openspec/changes/<id>";

fn bash(command: &str) -> Args {
    Args::default().with("command", command)
}

fn bash_outcome(repo: &Repo, command: &str) -> Option<String> {
    check(repo, "bash", &bash(command))
}

const ONLY_APPROVE: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";

const APPROVAL: &str = "openspec/changes/c/approval.md";
const C_TEXT: &str = "BLOCKED [approval-gates]: approval.md is written only by /approve";
const DESIGN_C: &str = "BLOCKED [approval-gates]: design not approved; run /approve c design";
