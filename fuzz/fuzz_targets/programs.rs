#![no_main]
//! The program analysis: any text in any language, no panic, bounded time; every write is a
//! non-empty path and every started command a non-empty line. The first byte picks the language.
//! (The bash around a program is `bash_targets`' to fuzz: a 3 KB quoted heredoc of `(` costs the
//! bash parser 45 ms with or without this analysis, which takes 0.1 ms of it.)
use std::path::Path;

use approval_gates::programs::{Language, judge};
use approval_gates_fuzz::within_time_limit;
use libfuzzer_sys::fuzz_target;

const LANGUAGES: [Language; 12] = [
    Language::Python,
    Language::JavaScript,
    Language::Perl,
    Language::Ruby,
    Language::Php,
    Language::Awk,
    Language::Lua,
    Language::Tcl,
    Language::R,
    Language::AppleScript,
    Language::Sqlite,
    Language::Jq,
];

fuzz_target!(|input: &[u8]| {
    let Some((&selector, rest)) = input.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let language = LANGUAGES[usize::from(selector) % LANGUAGES.len()];
    within_time_limit(|| {
        let verdict = judge(language, Some(text), &[], Path::new("/repo"));
        assert!(verdict.writes.iter().all(|write| !write.is_empty()));
        assert!(verdict.commands.iter().all(|command| !command.is_empty()));
    });
});
