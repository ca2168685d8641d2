//! approval.md as text: a tolerant reader and a section replacer that leaves every other byte
//! alone.
//!
//! The format is the YAML subset the spec shows: top-level `name:` headers, each followed by
//! indented `key: value` fields. Anything else is skipped, never an error; a file that cannot be
//! read this way simply has no sections, so the gates refuse.

/// One top-level section with its fields as written (first occurrence of a key wins).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Section {
    pub fields: Vec<(String, String)>,
}

impl Section {
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
            .filter(|value| !value.is_empty())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApprovalRecord {
    sections: Vec<(String, Section)>,
}

impl ApprovalRecord {
    pub fn parse(bytes: &[u8]) -> Self {
        let text = String::from_utf8_lossy(bytes);
        let mut sections: Vec<(String, Section)> = Vec::new();
        let mut current: Option<usize> = None;
        for line in text.split_inclusive('\n').map(logical) {
            match classify(line) {
                Line::Skip => {}
                Line::TopLevel(header) => {
                    current = header.map(|name| {
                        sections.push((name.to_string(), Section::default()));
                        sections.len() - 1
                    });
                }
                Line::Indented => {
                    let Some(index) = current else { continue };
                    if let Some((key, value)) = key_value(line.trim_start())
                        && !sections[index].1.fields.iter().any(|(name, _)| name == key)
                    {
                        sections[index].1.fields.push((key.to_string(), value));
                    }
                }
            }
        }
        ApprovalRecord { sections }
    }

    /// The section called `name`; a name written twice is ambiguous and counts as absent.
    pub fn section(&self, name: &str) -> Option<&Section> {
        let mut matching = self.sections.iter().filter(|(key, _)| key == name);
        let (_, section) = matching.next()?;
        matching.next().is_none().then_some(section)
    }

    /// D-11, T1.8: only a design section with non-empty `by` and `at` is an approval.
    pub fn design_approved(&self) -> bool {
        self.section("design").is_some_and(|s| s.field("by").is_some() && s.field("at").is_some())
    }

    /// The approved plan hash; a plan section without `sha256` approves nothing.
    pub fn plan_sha256(&self) -> Option<&str> {
        self.section("plan")?.field("sha256")
    }
}

/// What a line is to both the reader and the writer, so they never disagree on where a section
/// starts and ends.
enum Line<'a> {
    /// Blank or a comment: belongs to no section.
    Skip,
    /// A field of the current section.
    Indented,
    /// Ends the current section; opens one when it is a `name:` header (empty, `~` or `null` value).
    TopLevel(Option<&'a str>),
}

/// A line without its ending: `\n`, then one `\r` (a file's last line may lack the `\n`, and
/// must read the same once the writer appends a section after it).
fn logical(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

fn classify(line: &str) -> Line<'_> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        Line::Skip
    } else if line.starts_with([' ', '\t']) {
        Line::Indented
    } else {
        Line::TopLevel(key_value(line).filter(|(_, value)| value.is_empty()).map(|(key, _)| key))
    }
}

/// `key: value` with the value unquoted; `~`, `null` and an empty value are empty.
fn key_value(line: &str) -> Option<(&str, String)> {
    let (key, rest) = line.split_once(':')?;
    let key = key.trim_end();
    if !is_plain_key(key) {
        return None;
    }
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, scalar(rest.trim())))
}

fn is_plain_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn scalar(raw: &str) -> String {
    let quoted =
        |quote: char| raw.strip_prefix(quote).and_then(|inner| inner.rfind(quote).map(|end| inner[..end].to_string()));
    if let Some(value) = quoted('"').or_else(|| quoted('\'')) {
        return value;
    }
    if raw.starts_with('#') {
        return String::new();
    }
    let value = match raw.find(" #").or_else(|| raw.find("\t#")) {
        Some(comment) => raw[..comment].trim_end(),
        None => raw,
    };
    match value {
        "~" | "null" | "Null" | "NULL" => String::new(),
        _ => value.to_string(),
    }
}

/// The text of one section as this package writes it: empty fields are omitted.
pub fn render_section(name: &str, fields: &[(&str, &str)]) -> String {
    let mut text = format!("{name}:\n");
    for (key, value) in fields.iter().filter(|(_, value)| !value.is_empty()) {
        text.push_str(&format!("  {key}: {value}\n"));
    }
    text
}

/// `original` with every top-level section called `name` replaced by `section_text` (in the
/// place of the first one) or, when there is none, with `section_text` appended. Bytes outside
/// the replaced section are kept as they are, unknown sections and comments included.
pub fn replace_section(original: &[u8], name: &str, section_text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(original.len() + section_text.len() + 1);
    let mut replaced = false;
    let mut skipping = false;
    // Blank and comment lines closing a replaced section introduce what follows: keep them.
    let mut trailing: Vec<&[u8]> = Vec::new();
    for line in original.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        match classify(logical(&text)) {
            Line::TopLevel(header) => {
                trailing.drain(..).for_each(|kept| out.extend_from_slice(kept));
                skipping = header == Some(name);
                if skipping && !replaced {
                    out.extend_from_slice(section_text.as_bytes());
                    replaced = true;
                }
                if !skipping {
                    out.extend_from_slice(line);
                }
            }
            _ if !skipping => out.extend_from_slice(line),
            Line::Skip => trailing.push(line),
            Line::Indented => trailing.clear(),
        }
    }
    trailing.drain(..).for_each(|kept| out.extend_from_slice(kept));
    if !replaced {
        if !out.is_empty() && !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.extend_from_slice(section_text.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# approvals of change x
design:
  by: owner
  at: 2026-10-25T10:00:00Z
review:
  by: qa   # not ours
plan:
  by: owner
  at: 2026-10-25T11:30:00Z
  sha256: abc123
";

    #[test]
    fn reads_the_sections_of_the_spec() {
        let record = ApprovalRecord::parse(SAMPLE.as_bytes());
        assert!(record.design_approved());
        assert_eq!(record.plan_sha256(), Some("abc123"));
        assert_eq!(record.section("review").expect("test fixture").field("by"), Some("qa"));
    }

    #[test]
    fn empty_or_null_design_fields_are_not_approval() {
        for text in [
            "design:\n",
            "design:\n  by: owner\n",
            "design:\n  by: \"\"\n  at: 2026-10-25\n",
            "design:\n  by: ~\n  at: 2026-10-25\n",
            "design:\n  by: null\n  at: ''\n",
            "design: owner\n",
            "{design: {by: owner, at: x}}\n",
            "",
            "\u{0}\u{1}garbage",
            "design:\n  by: owner\n  at: x\ndesign:\n  by: a\n  at: y\n",
            "  design:\n    by: owner\n    at: x\n",
        ] {
            assert!(!ApprovalRecord::parse(text.as_bytes()).design_approved(), "{text:?}");
        }
    }

    #[test]
    fn quoted_values_and_crlf_are_read() {
        let record = ApprovalRecord::parse(b"design:\r\n  by: \"owner\"\r\n  at: '2026-10-25T10:00:00Z'\r\n");
        assert!(record.design_approved());
    }

    #[test]
    fn plan_without_sha256_approves_nothing() {
        let record = ApprovalRecord::parse(b"plan:\n  by: owner\n  at: x\n");
        assert_eq!(record.plan_sha256(), None);
    }

    #[test]
    fn fields_after_a_top_level_scalar_do_not_join_the_previous_section() {
        let record = ApprovalRecord::parse(b"plan:\n  by: owner\nnote: hi\n  sha256: abc\n");
        assert_eq!(record.plan_sha256(), None);
    }

    #[test]
    fn replacing_plan_keeps_design_and_unknown_sections_byte_for_byte() {
        let section = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "ff")]);
        let out = String::from_utf8(replace_section(SAMPLE.as_bytes(), "plan", &section)).expect("test fixture");
        let expected = SAMPLE.replace(
            "plan:\n  by: owner\n  at: 2026-10-25T11:30:00Z\n  sha256: abc123\n",
            "plan:\n  by: owner\n  at: T\n  sha256: ff\n",
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn a_missing_section_is_appended() {
        let design = render_section("design", &[("by", "owner"), ("at", "T")]);
        assert_eq!(replace_section(b"", "design", &design), design.as_bytes());
        let plan = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "")]);
        assert_eq!(plan, "plan:\n  by: owner\n  at: T\n");
        let out = replace_section(b"design:\n  by: owner\n  at: T", "plan", &plan);
        assert_eq!(out, b"design:\n  by: owner\n  at: T\nplan:\n  by: owner\n  at: T\n");
    }

    #[test]
    fn blank_lines_and_comments_after_a_replaced_section_stay() {
        let design = render_section("design", &[("by", "owner"), ("at", "T")]);
        let original = b"design:\n  by: a\n\n  at: b\n\n# the plan\nplan:\n  by: owner\n";
        let out = replace_section(original, "design", &design);
        assert_eq!(out, b"design:\n  by: owner\n  at: T\n\n# the plan\nplan:\n  by: owner\n");
    }

    #[test]
    fn a_header_with_a_comment_is_a_section_for_reader_and_writer() {
        let original = b"design: # pending\n  by: owner\n  at: x\n";
        assert!(ApprovalRecord::parse(original).design_approved());
        let design = render_section("design", &[("by", "owner"), ("at", "T")]);
        assert_eq!(replace_section(original, "design", &design), design.as_bytes());
    }

    #[test]
    fn reader_and_writer_agree_on_null_headers() {
        // Found by fuzzing: `plan: ~` opens a section for the reader, so the writer must replace it.
        let plan = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "ab")]);
        let out = replace_section(b"design:\n  by: a\nplan: ~\n  sha256: old\n", "plan", &plan);
        assert_eq!(out, b"design:\n  by: a\nplan:\n  by: owner\n  at: T\n  sha256: ab\n");
        assert_eq!(ApprovalRecord::parse(&out).plan_sha256(), Some("ab"));
    }

    #[test]
    fn a_last_line_ending_in_a_bare_carriage_return_reads_the_same_after_a_write() {
        // Found by fuzzing: `design:\r` at the end of the file was no header to the reader until
        // the writer appended a section after it; then the design approval became ambiguous.
        let original = b"d: \"\" design:\ndesign:\r";
        let plan = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "ab")]);
        let written = replace_section(original, "plan", &plan);
        assert_eq!(
            ApprovalRecord::parse(original).section("design"),
            ApprovalRecord::parse(&written).section("design")
        );
        assert_eq!(ApprovalRecord::parse(&written).plan_sha256(), Some("ab"));
    }

    #[test]
    fn duplicate_sections_collapse_into_the_new_one() {
        let design = render_section("design", &[("by", "owner"), ("at", "T")]);
        let out = replace_section(b"design:\n  by: a\nx:\n  k: v\ndesign:\n  by: b\n", "design", &design);
        assert_eq!(out, b"design:\n  by: owner\n  at: T\nx:\n  k: v\n");
    }

    #[test]
    fn non_utf8_bytes_elsewhere_survive_a_replacement() {
        let original = b"blob:\n  data: \xff\xfe\ndesign:\n  by: a\n";
        let design = render_section("design", &[("by", "owner"), ("at", "T")]);
        let out = replace_section(original, "design", &design);
        assert_eq!(out, b"blob:\n  data: \xff\xfe\ndesign:\n  by: owner\n  at: T\n");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A section as someone might have written it: odd spacing, quotes, comments, blank lines.
    fn section(name: &'static str) -> impl Strategy<Value = String> {
        let value = "[a-zA-Z0-9:+ _-]{0,12}";
        let line = (
            prop::sample::select(vec!["by", "at", "sha256", "note"]),
            value,
            prop::sample::select(vec!["", " # c", "\n"]),
        )
            .prop_map(|(key, value, tail)| format!("  {key}: {value}{tail}\n"));
        prop::collection::vec(line, 0..4).prop_map(move |lines| format!("{name}:\n{}", lines.concat()))
    }

    fn file() -> impl Strategy<Value = (String, String, String)> {
        (section("design"), section("review"), section("plan"), any::<bool>()).prop_map(
            |(design, review, plan, plan_first)| {
                let text =
                    if plan_first { format!("{plan}{review}{design}") } else { format!("{design}{review}{plan}") };
                (text, design, review)
            },
        )
    }

    proptest! {
        #[test]
        fn writing_the_plan_never_changes_the_design_or_unknown_sections((text, design, review) in file()) {
            let plan = render_section("plan", &[("by", "owner"), ("at", "T"), ("sha256", "ab")]);
            let out = String::from_utf8(replace_section(text.as_bytes(), "plan", &plan)).expect("test fixture");
            prop_assert!(out.contains(&design), "design section changed:\n{}", out);
            prop_assert!(out.contains(&review), "unknown section changed:\n{}", out);
            let before = ApprovalRecord::parse(text.as_bytes());
            let after = ApprovalRecord::parse(out.as_bytes());
            prop_assert_eq!(before.section("design"), after.section("design"));
            prop_assert_eq!(after.plan_sha256(), Some("ab"));
        }

        #[test]
        fn writing_the_design_never_changes_the_plan((text, _design, review) in file()) {
            let design = render_section("design", &[("by", "owner"), ("at", "T")]);
            let out = String::from_utf8(replace_section(text.as_bytes(), "design", &design)).expect("test fixture");
            let before = ApprovalRecord::parse(text.as_bytes());
            let after = ApprovalRecord::parse(out.as_bytes());
            prop_assert_eq!(before.section("plan"), after.section("plan"));
            prop_assert!(out.contains(&review));
            prop_assert!(after.design_approved());
        }

        #[test]
        fn any_bytes_parse_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
            let record = ApprovalRecord::parse(&bytes);
            let _ = (record.design_approved(), record.plan_sha256());
            let _ = replace_section(&bytes, "plan", "plan:\n  by: owner\n");
        }
    }
}
