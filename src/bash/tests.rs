//! The parser against the corpus `__test__/fixtures/bash-targets.jsonl` (also run through the
//! binding by `__test__/bash.test.mjs`), and the caps.

use std::path::{Path, PathBuf};

use super::*;
use crate::analyses::bash_write_targets as write_targets;
use crate::test_corpus::{corpus_failures, sorted_strings};

const CORPUS: &str = include_str!("../../__test__/fixtures/bash-targets.jsonl");

fn strings(targets: &[PathBuf]) -> Vec<String> {
    targets.iter().map(|p| p.display().to_string()).collect()
}

#[test]
fn corpus() {
    let (count, failures) = corpus_failures(CORPUS, write_targets);
    assert!(count >= 150, "the corpus has {count} lines");
    assert!(failures.is_empty(), "{} of {count} corpus lines fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn oversized_commands_are_unscannable() {
    let big = format!("echo {}", "x".repeat(MAX_COMMAND_BYTES));
    assert_eq!(write_targets(&big, Path::new("/r")), Err(Unscannable::TooLarge));
    // A long pipeline is the parser's most expensive input.
    let pipes = "a | ".repeat(100_000);
    assert_eq!(write_targets(&pipes, Path::new("/r")), Err(Unscannable::TooComplex));
    let deep = format!("{}x{}", "(".repeat(20_000), ")".repeat(20_000));
    assert_eq!(write_targets(&deep, Path::new("/r")), Err(Unscannable::TooDeep));
}

#[test]
fn the_raw_fallback_names_guarded_locations() {
    for text in [
        "cat > docs/superpowers/plans/x.md",
        "echo > Docs/Super\"Powers\"/PLANS/x.md",
        "touch .superpowers/sd\\\nd/p/x",
        "rm 'approval'.md",
    ] {
        assert!(crate::paths::names_guarded(text, crate::paths::Dialect::Bash), "{text}");
    }
    for text in ["cargo test", "docs/superpowers/specs/x.md", "approval-md", "$'\\x61pproval.md'"] {
        assert!(!crate::paths::names_guarded(text, crate::paths::Dialect::Bash), "{text}");
    }
}

#[test]
fn garbage_never_panics() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let alphabet: Vec<char> = "ab ;|&<>()[]{}$`'\"\\\n#=*?~!-0123456789{},.\t".chars().chain(['é', '\u{0}']).collect();
    for _ in 0..2_000 {
        let mut text = String::new();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 80) as usize;
        for _ in 0..len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.push(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        let _ = write_targets(&text, Path::new("/r"));
    }
}

mod requoting {
    use proptest::prelude::*;

    use super::*;

    /// `word` spelled the ways bash reads as the same word.
    #[derive(Debug, Clone, Copy)]
    enum Quoting {
        Plain,
        Single,
        Double,
        Backslashes,
        AnsiC,
    }

    fn quote(word: &str, quoting: Quoting) -> String {
        match quoting {
            Quoting::Plain => word.to_string(),
            Quoting::Single => format!("'{}'", word.replace('\'', r"'\''")),
            Quoting::Double => {
                let escaped: String = word
                    .chars()
                    .flat_map(|c| if matches!(c, '"' | '\\' | '$' | '`') { vec!['\\', c] } else { vec![c] })
                    .collect();
                format!("\"{escaped}\"")
            }
            Quoting::Backslashes => word.chars().flat_map(|c| ['\\', c]).collect(),
            Quoting::AnsiC => format!("$'{}'", word.replace('\\', r"\\").replace('\'', r"\'")),
        }
    }

    fn quoting() -> impl Strategy<Value = Quoting> {
        prop::sample::select(vec![
            Quoting::Plain,
            Quoting::Single,
            Quoting::Double,
            Quoting::Backslashes,
            Quoting::AnsiC,
        ])
    }

    /// Text bash reads the same without quotes.
    fn plain(text: &str) -> bool {
        text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-'))
    }

    /// A word split in two, each part quoted its own way: `'doc'"s/plans"` is `docs/plans`.
    fn spelling(word: String) -> impl Strategy<Value = String> {
        let len = word.chars().count();
        (0..=len, quoting(), quoting()).prop_map(move |(at, first, second)| {
            let split = word.char_indices().nth(at).map_or(word.len(), |(i, _)| i);
            let (head, tail) = word.split_at(split);
            let part = |text: &str, q| match q {
                _ if text.is_empty() => String::new(),
                Quoting::Plain if !plain(text) => quote(text, Quoting::Single),
                q => quote(text, q),
            };
            let spelled = format!("{}{}", part(head, first), part(tail, second));
            if spelled.is_empty() { quote(&word, Quoting::Single) } else { spelled }
        })
    }

    /// Paths an agent writes, with the characters that need quoting.
    fn path() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec![
            "docs",
            "superpowers",
            "plans",
            ".superpowers",
            "sdd",
            "x.md",
            "approval.md",
            "my notes",
            "it's",
            "a\"b",
            "$HOME",
            "..",
        ]);
        prop::collection::vec(segment, 1..5).prop_map(|segments| segments.join("/"))
    }

    fn template() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "echo hi > {}",
            "printf x >> {}",
            "tee -a {} < in.txt",
            "rm -f {}",
            "cp in.txt {}",
            "mv {} out.txt",
            "touch {}",
            "sed -i s/a/b/ {}",
            "cd sub && echo x > {}",
            "bash -c 'echo x > '{}",
        ])
    }

    proptest! {
        #[test]
        fn a_command_and_its_requoted_equivalents_write_the_same_files(
            template in template(),
            (word, spelled) in path().prop_flat_map(|word| (Just(word.clone()), spelling(word))),
        ) {
            let base = Path::new("/repo");
            let reference = write_targets(&template.replace("{}", &quote(&word, Quoting::Single)), base);
            let requoted = write_targets(&template.replace("{}", &spelled), base);
            prop_assert_eq!(&reference, &requoted, "{} as {}", word, spelled);
            prop_assert!(reference.is_ok_and(|targets| !targets.is_empty()));
        }
    }
}

mod wrappers {
    use proptest::prelude::*;

    use super::*;
    use crate::paths;

    /// Commands a gate refuses whatever the repository: they write approval.md or a plan.
    fn refused() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "echo x > openspec/changes/foo/approval.md",
            "printf x >> docs/superpowers/plans/x.md",
            "touch docs/superpowers/plans/x.md",
            "cp a openspec/changes/foo/approval.md",
            "mv a docs/superpowers/plans/x.md",
            "rm -f openspec/changes/foo/approval.md",
            "sed -i s/a/b/ openspec/changes/foo/approval.md",
            "tee docs/superpowers/plans/x.md < /dev/null",
            "ln b openspec/changes/foo/approval.md",
            "npx approval-gates approve foo design",
        ])
    }

    /// The wrappers the walk looks through: `{}` is the command as words, `{q}` as one quoted word;
    /// whether the wrapper needs a simple command inside (`sudo {}`), and whether it makes one.
    fn wrapper() -> impl Strategy<Value = (&'static str, bool, bool)> {
        prop::sample::select(vec![
            ("sudo {}", true, true),
            ("env A=1 {}", true, true),
            ("nohup {}", true, true),
            ("setsid -f {}", true, true),
            ("timeout 5 {}", true, true),
            ("nice -n 5 {}", true, true),
            ("command {}", true, true),
            ("stdbuf -oL {}", true, true),
            ("busybox {}", true, true),
            ("chroot . {}", true, true),
            ("strace -f {}", true, true),
            ("ltrace {}", true, true),
            ("unshare -r {}", true, true),
            ("fakeroot -- {}", true, true),
            ("proot {}", true, true),
            ("firejail --quiet {}", true, true),
            ("coproc {}", true, true),
            ("flock /tmp/l {}", true, true),
            ("flock /tmp/l -c {q}", false, true),
            ("flock -c {q} /tmp/l", false, true),
            ("watch -n 1 {q}", false, true),
            ("script -qec {q} /dev/null", false, true),
            ("su -c {q}", false, true),
            ("su root -c {q}", false, true),
            ("runuser -u nobody -- {}", true, true),
            ("runuser nobody -c {q}", false, true),
            ("bash -c {q}", false, true),
            ("sh -c {q} sh a b", false, true),
            ("zsh -c {q}", false, true),
            ("fish -c {q}", false, true),
            ("dash -c {q}", false, true),
            ("ksh -c {q}", false, true),
            ("mksh -c {q}", false, true),
            ("ash -c {q}", false, true),
            ("eval {q}", false, true),
            ("trap {q} EXIT", false, true),
            ("parallel ::: {q}", false, true),
            ("echo {q} | sh", false, false),
            ("printf '%s\\n' {q} | bash", false, false),
            ("echo {q} | bash -s", false, false),
            ("sh /dev/stdin <<< {q}", false, true),
            ("bash <(echo {q})", false, true),
            ("source <(echo {q})", false, true),
            ("git -c alias.w='!'{q} w", false, true),
            ("w(){ {}; }; w", false, false),
            ("alias w={q}; w", false, false),
            ("echo | xargs sh -c {q} _", false, false),
            ("find . -maxdepth 0 -exec sh -c {q} \\;", false, true),
            ("(cd . && {})", false, false),
            ("{ {}; }", false, false),
            ("if true; then {}; fi", false, false),
            ("true && {} &", false, false),
        ])
    }

    /// `command` inside each wrapper in turn; a wrapper that needs a simple command gets a
    /// compound one through `bash -c`.
    fn wrap_all(command: &str, wrappers: &[(&str, bool, bool)]) -> String {
        let mut inner = command.to_string();
        let mut simple = true;
        for &(wrapper, needs_simple, makes_simple) in wrappers {
            if needs_simple && !simple {
                inner = wrap("bash -c {q}", &inner);
            }
            inner = wrap(wrapper, &inner);
            simple = makes_simple;
        }
        inner
    }

    fn wrap(wrapper: &str, command: &str) -> String {
        wrapper.replace("{q}", &crate::commands::quote(command)).replace("{}", command)
    }

    fn reaches_guarded(command: &str) -> bool {
        write_targets(command, Path::new("/repo"))
            .is_ok_and(|targets| targets.iter().any(|t| paths::is_approval_file(t) || paths::plans_root(t).is_some()))
    }

    #[test]
    fn every_refused_command_is_refused_unwrapped() {
        for command in [
            "echo x > openspec/changes/foo/approval.md",
            "tee docs/superpowers/plans/x.md < /dev/null",
            "npx approval-gates approve foo design",
        ] {
            assert!(reaches_guarded(command), "{command}");
        }
    }

    proptest! {
        #[test]
        fn wrapping_a_refused_command_keeps_it_refused(
            command in refused(),
            wrappers in prop::collection::vec(wrapper(), 1..3),
        ) {
            prop_assume!(reaches_guarded(command));
            let wrapped = wrap_all(command, &wrappers);
            prop_assert!(reaches_guarded(&wrapped), "{}", wrapped);
        }
    }
}

#[test]
fn the_target_cap_bounds_the_files_of_one_command_line() {
    let ten = "{a,b}".repeat(10);
    let base = Path::new("/repo");
    let at_cap: String = (0..MAX_TARGETS / 1024).map(|d| format!("touch d{d}/{ten}; ")).collect();
    assert_eq!(write_targets(&at_cap, base).map(|targets| targets.len()), Ok(MAX_TARGETS));
    assert_eq!(write_targets(&format!("{at_cap} touch one-more"), base), Err(Unscannable::TooManyTargets));
}

#[test]
fn find_execdir_past_its_places_writes_the_trees_left_whole() {
    let base = Path::new("/repo");
    let written = |roots: &str| strings(&write_targets(&format!("find {roots} -execdir touch x \\;"), base).unwrap());
    // Within the budget each starting point is followed: the command runs beside it and in it.
    assert!(written("docs/superpowers/plans").contains(&"/repo/docs/superpowers/plans/x".to_string()));
    // Past it, the places left count as trees written whole: the plans folder is still written.
    let many: String = (0..40).map(|n| format!("d{n} ")).collect();
    assert!(written(&format!("{many}docs/superpowers/plans")).contains(&"/repo/docs/superpowers/plans".to_string()));
}

#[test]
fn the_word_cap_bounds_one_command_before_any_path_work() {
    let ten = "{a,b}".repeat(10);
    let words: Vec<String> = (0..=MAX_COMMAND_WORDS / 1024).map(|d| format!("d{d}/{ten}")).collect();
    assert_eq!(
        write_targets(&format!("touch {}", words.join(" ")), Path::new("/repo")),
        Err(Unscannable::TooManyWords)
    );
    // The input the fuzzer found slow (129 ms under ASan): many brace words, NUL bytes inside.
    let found = include_bytes!("../../fuzz/seeds/bash_targets/slow-brace-words.sh");
    let found = String::from_utf8_lossy(found);
    assert!(matches!(
        write_targets(&found, Path::new("/repo")),
        Err(Unscannable::TooManyWords | Unscannable::TooManyTargets)
    ));
}

#[test]
fn the_text_budget_bounds_what_nested_scripts_and_expansions_grow_into() {
    // The input the fuzzer found: 108 bytes of `eval eval …` and brace words, 6 s and 470 MB
    // before the budget existed.
    let found = String::from_utf8_lossy(include_bytes!("../../fuzz/seeds/bash_targets/slow-nested-eval.sh"));
    assert_eq!(write_targets(&found, Path::new("/repo")), Err(Unscannable::TooMuchText));
    // One variable referenced many times multiplies its value.
    let value = "x".repeat(64 << 10);
    assert_eq!(
        write_targets(&format!("A={value}; touch $A $A $A $A $A"), Path::new("/repo")),
        Err(Unscannable::TooMuchText)
    );
    // Ordinary growth stays well inside it.
    let ten = "{a,b}".repeat(10);
    assert!(write_targets(&format!("eval \"bash -c 'touch docs/{ten}.md'\""), Path::new("/repo")).is_ok());
}

#[test]
fn the_fuzz_seeds_parse_within_the_caps() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/bash_targets");
    let mut count = 0;
    for entry in std::fs::read_dir(seeds).expect("seed folder") {
        let text = std::fs::read(entry.expect("seed").path()).expect("seed file");
        // Over a cap is an answer too; a panic or a hang is not.
        let _ = write_targets(&String::from_utf8_lossy(&text), Path::new("/repo"));
        count += 1;
    }
    assert!(count >= 8, "{count} seeds");
}

#[test]
fn values_the_line_defines_reach_the_targets() {
    let targets = |command: &str| strings(&write_targets(command, Path::new("/repo")).expect("scannable"));
    let values = targets(include_str!("../../fuzz/seeds/bash_targets/values.sh"));
    // `w a b c` shifts to `cp f b c b 2`: a copy into `2`; `"$*"` is `p q`, one word.
    for expected in ["/repo/2", "/repo/2/b", "/repo/0", "/repo/p", "/repo/p q", "/repo/x/y", "/repo/d", "/repo/e"] {
        assert!(values.iter().any(|t| t == expected), "{expected} in {values:?}");
    }
    for expected in
        ["/repo/f", "/repo/gh", "/repo/gi", "/repo/j", "/repo/k", "/repo/l", "/repo/m", "/repo/n", "/repo/o"]
    {
        assert!(values.iter().any(|t| t == expected), "{expected} in {values:?}");
    }
    let scripts = targets(include_str!("../../fuzz/seeds/bash_targets/stdin-scripts.sh"));
    for expected in
        ["/repo/docs/superpowers/plans/x.md", "/repo/docs/a", "/repo/docs/d", "/repo/docs/e", "/repo/docs/hi"]
    {
        assert!(scripts.iter().any(|t| t == expected), "{expected} in {scripts:?}");
    }
}

#[test]
fn a_line_with_more_directory_changes_than_are_followed_is_unscannable() {
    let cds = |count: usize| (0..count).map(|n| format!("cd /d{n}")).collect::<Vec<_>>().join("; ") + "; touch x";
    assert!(write_targets(&cds(super::MAX_MOVES), Path::new("/repo")).is_ok());
    assert_eq!(write_targets(&cds(super::MAX_MOVES + 1), Path::new("/repo")), Err(Unscannable::TooManyTargets));
    // Relative changes nest: each may have failed, so the targets double with each one.
    let nested = |count: usize| (0..count).map(|n| format!("cd d{n}; ")).collect::<String>() + "touch x";
    assert_eq!(write_targets(&nested(3), Path::new("/repo")).map(|t| t.len()), Ok(8));
    assert_eq!(write_targets(&nested(super::MAX_MOVES), Path::new("/repo")), Err(Unscannable::TooManyTargets));
    // The same change made again is one change.
    let again = "cd a; cd ..; ".repeat(super::MAX_MOVES + 1) + "touch x";
    let targets = write_targets(&again, Path::new("/repo")).expect("scannable");
    assert_eq!(sorted_strings(&targets), ["/repo/a/x", "/repo/x"]);
}

#[test]
fn rebase_moves_only_what_is_beneath() {
    use crate::analysis::moves::rebase;
    let (target, from, onto) = (Path::new("/repo/sub/a.md"), Path::new("/repo/sub"), Path::new("/repo"));
    assert_eq!(rebase(target, from, onto).as_deref(), Some(Path::new("/repo/a.md")));
    assert_eq!(rebase(from, from, onto).as_deref(), Some(onto));
    assert_eq!(rebase(Path::new("/tmp/a.md"), from, onto), None);
    assert_eq!(rebase(Path::new("/repo/subway/a.md"), from, onto), None);
}
