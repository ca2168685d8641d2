//! `file:` URIs, as the paths they name.

use super::from_windows;

/// The path of a `file:` URI (`file:///r/x`, `file://host/r/x`, `file:///C:/r/x`), percent-decoded.
pub fn file_uri_path(text: &str) -> Option<String> {
    let scheme = text.get(..5).filter(|scheme| scheme.eq_ignore_ascii_case("file:"))?;
    let rest = &text[scheme.len()..];
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => {
            &authority_and_path[authority_and_path.find('/').unwrap_or(authority_and_path.len())..]
        }
        None => rest,
    };
    let decoded = percent_decoded(path);
    // `/C:/r/x`: a drive after the URI's root slash.
    let drive = decoded.as_bytes().get(1..3).is_some_and(|b| b[0].is_ascii_alphabetic() && b[1] == b':');
    Some(if drive { from_windows(&decoded[1..]) } else { decoded })
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let hex = bytes.get(at + 1..at + 3).and_then(|digits| std::str::from_utf8(digits).ok());
        match hex.and_then(|digits| u8::from_str_radix(digits, 16).ok()) {
            Some(decoded) if byte == b'%' => {
                out.push(decoded);
                at += 3;
            }
            _ => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
