//! The walk against the corpus `__test__/fixtures/pwsh-targets.jsonl` (also run through
//! `checkGuard` by `__test__/pwsh.test.mjs`), and the caps.

use std::path::Path;
use std::rc::Rc;

use super::*;
use crate::analyses::{powershell_write_targets as write_targets, powershell_write_targets_from as write_targets_from};
use crate::test_corpus::{corpus_failures, sorted_strings as strings};

const CORPUS: &str = include_str!("../../__test__/fixtures/pwsh-targets.jsonl");

#[test]
fn corpus() {
    let (_, failures) = corpus_failures(CORPUS, write_targets);
    assert!(failures.is_empty(), "{} corpus failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_is_large_enough() {
    assert!(CORPUS.lines().count() >= 150);
}

#[test]
fn caps_are_deterministic() {
    let base = Path::new("/repo");
    let big = format!("sc approval.md '{}'", "x".repeat(MAX_COMMAND_BYTES));
    assert_eq!(write_targets(&big, base), Err(Unscannable::TooLarge));
    let deep = format!("{}sc approval.md x{}", "& { ".repeat(300), " }".repeat(300));
    assert!(matches!(write_targets(&deep, base), Err(Unscannable::TooDeep | Unscannable::TooComplex)));
    let mut nested = "sc approval.md x".to_string();
    for _ in 0..12 {
        nested = format!("iex '{}'", nested.replace('\'', "''"));
    }
    assert_eq!(write_targets(&nested, base), Err(Unscannable::ScriptsTooDeep));
    let many: String = (0..MAX_TARGETS + 1).map(|i| format!("ni f{i}.txt\n")).collect();
    assert_eq!(write_targets(&many, base), Err(Unscannable::TooManyTargets));
    let long: String = "Get-Content a.md | ".repeat(20_000) + "Out-Null";
    assert_eq!(write_targets(&long, base), Err(Unscannable::TooComplex));
    let wide = format!("$a = {}; rm \"$a$a$a\"", (0..10).map(|i| format!("'{i}'")).collect::<Vec<_>>().join(","));
    assert_eq!(write_targets(&wide, base), Err(Unscannable::ExpansionTooLarge));
}

#[test]
fn hosts_running_one_another_are_bounded() {
    let base = Path::new("/repo");
    assert_eq!(
        strings(&write_targets("bash -c \"pwsh -c 'ni approval.md'\"", base).expect("scans")),
        ["/repo/approval.md"]
    );
    let mut nested = "ni approval.md".to_string();
    for _ in 0..MAX_HOST_NESTING {
        nested = format!("bash -c 'pwsh -EncodedCommand {}'", encode(&nested));
    }
    assert_eq!(write_targets(&nested, base), Err(Unscannable::ScriptsTooDeep));
    let mut shallow = "ni approval.md".to_string();
    for _ in 0..MAX_HOST_NESTING / 2 - 1 {
        shallow = format!("bash -c 'pwsh -EncodedCommand {}'", encode(&shallow));
    }
    assert_eq!(strings(&write_targets(&shallow, base).expect("scans")), ["/repo/approval.md"]);
}

/// `-EncodedCommand`'s form: base64 of UTF-16LE.
fn encode(text: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn bash_runs_powershell() {
    let base = Path::new("/repo");
    let bash = |command: &str| strings(&crate::analyses::bash_write_targets(command, base).expect("scans"));
    assert_eq!(bash("pwsh -c 'Set-Content docs\\superpowers\\plans\\x.md y'"), ["/repo/docs/superpowers/plans/x.md"]);
    assert_eq!(
        bash("powershell -Command \"Remove-Item openspec/changes/c/approval.md\""),
        ["/repo/openspec/changes/c/approval.md"]
    );
    assert_eq!(bash("pwsh -EncodedCommand cwBjACAAYQBwAHAAcgBvAHYAYQBsAC4AbQBkACAAeAA="), ["/repo/approval.md"]);
    assert_eq!(
        bash("cd openspec/changes/c && pwsh -NoProfile -c 'ni approval.md'"),
        ["/repo/openspec/changes/c/approval.md"]
    );
    assert!(bash("pwsh -c 'Get-Content approval.md; Get-FileHash docs/superpowers/plans/x.md'").is_empty());
    assert!(bash("pwsh -File build.ps1").is_empty());
}

#[test]
fn encoded_commands_decode() {
    assert_eq!(
        decode_utf16_base64("cwBjACAAYQBwAHAAcgBvAHYAYQBsAC4AbQBkACAAeAA=").as_deref(),
        Some("sc approval.md x")
    );
    assert_eq!(decode_utf16_base64("not base64!"), None);
}

#[test]
fn invocation_reads_the_host_command_line() {
    let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
    assert_eq!(invoked_script(&words("-NoLogo -c sc a x"), None).as_deref(), Some("sc a x"));
    assert_eq!(invoked_script(&words("-ExecutionPolicy Bypass -Command rm x"), None).as_deref(), Some("rm x"));
    // A script file runs as a call of it, which the walk reads.
    assert_eq!(invoked_script(&words("-File x.ps1 -c y"), None).as_deref(), Some("& 'x.ps1' -c 'y'"));
    assert_eq!(
        invoked_script(&["-File", "x.ps1", "-Path:a", "--", "-1", "-x y"].map(String::from), None).as_deref(),
        Some("& 'x.ps1' -Path:'a' '--' '-1' '-x y'")
    );
    assert_eq!(invoked_script(&words("script.ps1"), None).as_deref(), Some("& 'script.ps1'"));
    assert_eq!(invoked_script(&words("-File it's.ps1"), None).as_deref(), Some("& 'it''s.ps1'"));
    assert_eq!(invoked_script(&words("-c -"), Some("ni a")).as_deref(), Some("ni a"));
    assert!(is_powershell("C:\\Program Files\\PowerShell\\7\\pwsh.exe"));
    assert!(is_powershell("/usr/bin/powershell"));
    assert!(!is_powershell("pwshx"));
}

#[test]
fn a_deep_tree_stops_at_the_depth_cap_on_a_small_stack() {
    // cargo's test threads have 2 MiB of stack, less than Node's main thread.
    let deep = format!("{}ni approval.md{}", "(".repeat(200), ")".repeat(200));
    let result = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || write_targets(&deep, Path::new("/repo")))
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert!(matches!(result, Err(Unscannable::TooDeep | Unscannable::TooComplex)), "{result:?}");
}

mod properties {
    use std::path::{Component, Path};

    use proptest::prelude::*;

    use crate::analyses::powershell_write_targets as write_targets;

    fn fragment() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "sc ",
            "ni ",
            "rm ",
            "cd ",
            "Set-Content ",
            "-Path ",
            "-Pa:",
            "'",
            "\"",
            "`",
            "$p",
            "${p}",
            "$(",
            ")",
            "(",
            "{",
            "}",
            "@'\n",
            "\n'@",
            "@\"\n",
            "\n\"@",
            " | ",
            "; ",
            " && ",
            " > ",
            " 2>&1 ",
            "*> ",
            "approval.md",
            "docs\\superpowers\\plans\\",
            "C:\\",
            "..\\",
            "/",
            "*",
            ",",
            " = ",
            "iex ",
            "pwsh -c ",
            "cmd /c ",
            "& ",
            ". ",
            "[IO.File]::WriteAllText(",
            "foreach ($f in 'a','b') ",
            "# ",
            "--% ",
            "^",
            "\u{2019}",
        ])
        .prop_map(str::to_string)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn any_text_gives_absolute_normalized_targets_or_a_cap(parts in prop::collection::vec(fragment(), 0..40)) {
            let command = parts.concat();
            if let Ok(targets) = write_targets(&command, Path::new("/repo")) {
                for target in targets {
                    prop_assert!(target.is_absolute());
                    prop_assert!(target.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_))));
                }
            }
        }

        #[test]
        fn arbitrary_unicode_never_panics(command in "\\PC{0,200}") {
            let _ = write_targets(&command, Path::new("/repo"));
        }
    }
}

#[test]
fn deeply_nested_text_costs_no_stack() {
    let run = |command: String| {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || write_targets(&command, Path::new("/repo")).map(|targets| strings(&targets)))
            .expect("thread")
            .join()
            .expect("no stack overflow")
    };
    // The grammar cannot place a Unix program path, so these reach the fallback word splitter.
    let brackets = format!("/bin/x {}approval.md", "(".repeat(100_000));
    assert!(run(brackets).is_ok());
    let strings_in_strings = format!("/bin/x \"{}\"", "$(\"".repeat(50_000));
    assert!(run(strings_in_strings).is_ok());
    // Past the tree's depth cap, or within it and past the expression evaluator's: never a crash.
    let _ = run(format!("$p = {}'approval.md'{}; rm $p", "(".repeat(5_000), ")".repeat(5_000)));
    let shallow = run(format!("$p = {}'approval.md'{}; rm $p", "(".repeat(20), ")".repeat(20)));
    assert!(matches!(shallow, Ok(_) | Err(Unscannable::TooDeep)), "{shallow:?}");
}

#[test]
fn states_fold_variables_and_definitions_and_expand_for_the_names_a_call_runs() {
    let fresh = Scope::<PowerShell>::fresh(Path::new("/repo"));
    let (_, reached, complete) =
        write_targets_from("$p = 'a.md'; function f { 1 }; $p = 'b.md'", &fresh).expect("scans");
    assert!(complete);
    let mut folded = fresh.clone();
    for state in &reached.ended {
        assert_eq!(folded.fold(state), Some(true));
    }
    let values: Vec<&str> = folded.vars["p"].iter().map(|value| value.text.as_str()).collect();
    assert_eq!(values, ["$p", "a.md", "b.md"], "unset, then each value it was given");
    assert!(folded.defined.maybe.contains("f"));
    // A call that may run `f` is judged with it defined and without; one that cannot, once.
    let expanded = folded.expand("f; ni x").expect("within the cap");
    assert_eq!(expanded.len(), 2);
    assert!(expanded.iter().any(|state| state.defined.functions.contains_key("f")));
    assert!(expanded.iter().any(|state| !state.defined.functions.contains_key("f")));
    assert_eq!(folded.expand("ni x").expect("within the cap").len(), 1);
    let mut named = folded.clone();
    Rc::make_mut(&mut named.vars).insert("n".to_string(), vec![crate::analysis::values::Value::literal("F")]);
    assert_eq!(named.expand("& $n").expect("within the cap").len(), 2, "a value may name it");
    assert_eq!(folded.expand("ni x;(f)").expect("within the cap").len(), 2);
    assert_eq!(folded.expand("ni f.md; Get-Help fx xf -f").expect("within the cap").len(), 1, "not a command word");
    // A name defined differently does not fold; elsewhere nothing folds.
    let (_, other, _) = write_targets_from("function f { 2 }", &fresh).expect("scans");
    assert!(other.ended.iter().all(|state| folded.clone().fold(state).is_none()));
    assert!(folded.fold(&Scope::<PowerShell>::fresh(Path::new("/elsewhere"))).is_none());
    // Too many maybe-names a call may run: no expansion.
    let many: String = (0..6).map(|n| format!("function g{n} {{ {n} }}\n")).collect();
    let (_, reached, _) = write_targets_from(&many, &fresh).expect("scans");
    let mut wide = fresh.clone();
    for state in &reached.ended {
        assert!(wide.fold(state).is_some());
    }
    assert!(wide.expand("g0; g1; g2; g3; g4; g5").is_none());
}

#[test]
fn recording_states_over_large_variables_is_bounded() {
    let fresh = Scope::<PowerShell>::fresh(Path::new("/repo"));
    let big = format!("$v = '{}'\n", "x".repeat(40 << 10));
    let (_, _, complete) = write_targets_from(&format!("{big}cd a; cd .."), &fresh).expect("scans");
    assert!(complete);
    let moves = "cd a; cd ..\n".repeat(300);
    let (_, reached, complete) = write_targets_from(&format!("{big}{moves}"), &fresh).expect("scans");
    assert!(!complete, "past the copy budget the list is incomplete");
    assert!(reached.ended.len() <= 2);
}

#[test]
fn a_session_folder_spelled_with_dollar_or_parentheses_is_not_a_computed_location() {
    for base in ["/work/my (copy)/repo", "/work/$repo"] {
        let base = Path::new(base);
        let line = "Get-Content docs/superpowers/plans/x.md | Out-File notes.txt";
        let expected = [format!("{}/notes.txt", base.display())];
        assert_eq!(strings(&write_targets(line, base).expect("scans")), expected, "{}", base.display());
        // A location the line moves to through a value it cannot compute is one.
        let moved = "Set-Location $d; Out-File notes.txt; Get-Content docs/superpowers/plans/x.md";
        let targets = strings(&write_targets(moved, base).expect("scans"));
        assert!(targets.iter().any(|target| target.ends_with("docs/superpowers/plans/*")), "{targets:?}");
    }
}
