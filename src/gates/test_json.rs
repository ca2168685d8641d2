//! Tool-call arguments as a JSON value, read the way the binding and the hook read a host's: the
//! one [`ToolArgs`] the gate tests hand to the gates.

use serde_json::Value;

use super::ToolArgs;

pub struct Json(pub Value);

impl ToolArgs for Json {
    fn string(&self, field: &str) -> Option<String> {
        self.0.get(field)?.as_str().map(str::to_owned)
    }
    fn strings_of(&self, array: &str, field: &str) -> Option<Vec<Option<String>>> {
        let elements = self.0.get(array)?.as_array()?;
        Some(elements.iter().map(|e| e.get(field).and_then(Value::as_str).map(str::to_owned)).collect())
    }
    fn strings(&self, field: &str) -> Option<Vec<String>> {
        self.0.get(field)?.as_array()?.iter().map(|e| e.as_str().map(str::to_owned)).collect()
    }
    fn json_text(&self, field: &str) -> Option<String> {
        match self.0.get(field)? {
            Value::String(text) => Some(text.clone()),
            value => serde_json::to_string(value).ok(),
        }
    }
    fn arguments_json(&self) -> Option<String> {
        serde_json::to_string(&self.0).ok()
    }
}
