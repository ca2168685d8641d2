//! The program corpus `__test__/fixtures/program-targets.jsonl` (also run through the binding by
//! `__test__/programs.test.mjs`), script files read from disk, the package rule, and the caps.

use std::path::{Path, PathBuf};

use super::*;
use crate::analyses::bash_write_targets as write_targets;
use crate::test_corpus::{corpus_failures, sorted_strings as sorted};

const CORPUS: &str = include_str!("../../__test__/fixtures/program-targets.jsonl");

#[test]
fn corpus() {
    let (count, failures) = corpus_failures(CORPUS, write_targets);
    assert!(count >= 150, "the corpus has {count} lines");
    assert!(failures.is_empty(), "{} of {count} corpus lines fail:\n{}", failures.len(), failures.join("\n"));
}

fn judged(language: Language, text: &str) -> Vec<String> {
    let mut writes = judge(language, Some(text), &[], Path::new("/repo")).written();
    writes.sort();
    writes
}

#[test]
fn a_program_over_the_size_cap_is_judged_by_its_raw_text() {
    let padding = "x = 1\n".repeat(MAX_PROGRAM_BYTES / 6 + 1);
    let writes = judged(Language::Python, &format!("{padding}print('openspec/changes/c/approval.md')"));
    assert_eq!(writes, ["openspec/changes/c/approval.md"]);
    assert!(judged(Language::Python, &format!("{padding}open('out.txt', 'w')")).is_empty());
}

#[test]
fn a_program_over_the_token_cap_is_judged_by_its_raw_text() {
    let many = "a ".repeat(MAX_PROGRAM_TOKENS + 1);
    assert_eq!(judged(Language::JavaScript, &format!("{many} 'approval.md'")), ["approval.md"]);
    assert!(judged(Language::JavaScript, &many).is_empty());
}

#[test]
fn a_program_over_the_work_budget_is_judged_by_its_raw_text() {
    // Each assignment scans to the end of the statement: quadratic without the budget.
    let chained = "a = ".repeat(30_000);
    assert_eq!(
        judged(Language::Python, &format!("{chained}'docs/superpowers/plans/x.md'")),
        ["docs/superpowers/plans/x.md"]
    );
    assert!(judged(Language::Python, &format!("{chained}'notes.md'")).is_empty());
}

#[test]
fn long_concatenations_and_deep_nesting_stay_bounded() {
    let joined = format!("open({}'approval.md', 'w')", "'aaaaaaaaaaaaaaaa' + ".repeat(5_000));
    // Python's syntax tree is deeper than its walk: the raw text decides, and names the file.
    assert_eq!(judged(Language::Python, &joined), ["approval.md"]);
    let wide = format!("open({}'approval.md', 'w')", "'aaaaaaaaaaaaaaaa' + ".repeat(400));
    // Past the value cap the start is unknown; the guarded name at its end is still written.
    let writes = judged(Language::Python, &wide);
    assert!(
        writes.len() == 1 && writes.iter().all(|w| w.starts_with('*') && w.ends_with("aapproval.md")),
        "{writes:?}"
    );
    let deep = format!("open({}'x.md'{}, 'w')", "(".repeat(5_000), ")".repeat(5_000));
    assert!(judged(Language::Python, &deep).is_empty());
    let tcl = format!("set f [open {}approval.md{} w]", "[".repeat(5_000), "]".repeat(5_000));
    let _ = judged(Language::Tcl, &tcl);
}

#[test]
fn a_missing_script_is_judged_by_what_the_command_line_shows() {
    let args = ["docs/superpowers/plans/x.md".to_string(), "README.md".to_string()];
    assert_eq!(judge(Language::Python, None, &args, Path::new("/repo")).written(), ["docs/superpowers/plans/x.md"]);
    assert!(judge(Language::Python, None, &args[1..], Path::new("/repo")).written().is_empty());
}

#[test]
fn languages_by_name_and_shebang() {
    for (name, language) in [
        ("python3.12", Language::Python),
        ("/usr/bin/python", Language::Python),
        ("nodejs", Language::JavaScript),
        ("perl5.36", Language::Perl),
        ("gawk", Language::Awk),
        ("lua5.4", Language::Lua),
        ("tclsh8.6", Language::Tcl),
        ("Rscript", Language::R),
        ("sqlite3", Language::Sqlite),
        ("yq", Language::Jq),
    ] {
        assert_eq!(language_of(name), Some(language), "{name}");
    }
    for name in ["pythonista", "nodemon", "perldoc", "lualatex", "bash", "cat"] {
        assert_eq!(language_of(name), None, "{name}");
    }
    assert_eq!(language_of_shebang("#!/usr/bin/env -S python3 -u\n"), Some(Language::Python));
    assert_eq!(language_of_shebang("#!/usr/bin/node\n"), Some(Language::JavaScript));
    assert_eq!(language_of_shebang("#!/bin/bash\n"), None);
    assert_eq!(language_of_shebang("echo hi\n"), None);
}

mod on_disk {
    use std::fs;

    use super::*;

    fn repo() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("test fixture");
        let root = fs::canonicalize(dir.path()).expect("test fixture");
        (dir, root)
    }

    fn targets(command: &str, base: &Path) -> Vec<String> {
        sorted(&write_targets(command, base).expect("scannable"))
    }

    #[test]
    fn script_files_are_read_relative_to_the_command_directory() {
        let (_dir, root) = repo();
        fs::create_dir_all(root.join("tools")).expect("test fixture");
        fs::write(root.join("tools/gen.py"), "open('approval.md', 'w')\n").expect("test fixture");
        fs::write(root.join("tools/read.py"), "print(open('approval.md').read())\n").expect("test fixture");
        fs::write(root.join("tools/x.sh"), "touch approval.md\n").expect("test fixture");
        let approval = |dir: &str| vec![root.join(dir).join("approval.md").display().to_string()];
        assert_eq!(targets("python3 tools/gen.py", &root), approval(""));
        assert_eq!(targets("cd tools && python3 gen.py", &root), approval("tools"));
        assert!(targets("python3 tools/read.py", &root).is_empty());
        assert_eq!(targets("sh tools/x.sh", &root), approval(""));
        assert_eq!(targets(". tools/x.sh", &root), approval(""));
    }

    #[test]
    fn oversized_and_binary_scripts_are_not_read() {
        let (_dir, root) = repo();
        let big =
            format!("open('approval.md', 'w')\n{}", "# padding\n".repeat(MAX_SCRIPT_FILE_BYTES as usize / 10 + 1));
        fs::write(root.join("big.py"), big).expect("test fixture");
        fs::write(root.join("bin.py"), b"open('approval.md', 'w')\0").expect("test fixture");
        assert!(targets("python3 big.py", &root).is_empty());
        assert!(targets("python3 bin.py", &root).is_empty());
    }

    #[test]
    fn a_script_running_itself_stops_at_the_nesting_cap() {
        let (_dir, root) = repo();
        fs::write(root.join("loop.sh"), "bash loop.sh\ntouch approval.md\n").expect("test fixture");
        assert_eq!(targets("bash loop.sh", &root), [root.join("approval.md").display().to_string()]);
    }

    #[test]
    fn a_directory_holding_a_package_named_approval_gates_is_the_package() {
        let (_dir, root) = repo();
        fs::create_dir_all(root.join("pkg")).expect("test fixture");
        fs::write(root.join("pkg/package.json"), "{ \"name\": \"approval-gates\" }").expect("test fixture");
        fs::create_dir_all(root.join("other")).expect("test fixture");
        fs::write(root.join("other/package.json"), "{ \"name\": \"other\" }").expect("test fixture");
        let approval = vec![root.join("approval.md").display().to_string()];
        assert_eq!(targets("node -e \"require('./pkg').run()\"", &root), approval);
        assert_eq!(targets("node -e \"require('./pkg/index.js').go()\"", &root), approval);
        assert!(targets("node -e \"require('./pkg/index.js').loopStatus()\"", &root).is_empty());
        assert!(targets("node -e \"require('./other/index.js').run()\"", &root).is_empty());
        assert!(targets("node -p \"require('./pkg/package.json').version\"", &root).is_empty());
    }
}

#[test]
fn an_empty_command_a_program_starts_is_no_command() {
    // Found by fuzzing: Ruby backquotes around nothing but NULs and a JavaScript-looking rest.
    let input = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/programs/empty-command-crash"))
        .expect("the fuzz seed");
    let text = std::str::from_utf8(input.get(1..).unwrap_or_default()).expect("utf-8 seed");
    let verdict = judge(Language::Ruby, Some(text), &[], Path::new("/repo"));
    assert!(verdict.commands.iter().all(|command| !command.trim().is_empty()), "{:?}", verdict.commands);
    for text in ["x = ``", "system('')", "`   `"] {
        let verdict = judge(Language::Ruby, Some(text), &[], Path::new("/repo"));
        assert!(verdict.commands.is_empty(), "{text}: {:?}", verdict.commands);
    }
}

#[test]
fn ruby_pathnames_write_their_own_path_wherever_they_are_bound() {
    const PLAN: &str = "docs/superpowers/plans/x.md";
    for text in [
        "Pathname.new('docs/superpowers/plans/x.md').write('x')",
        "Pathname('docs/superpowers/plans/x.md').binwrite('x')",
        "Pathname.new('docs/superpowers/plans/x.md').open('w') { |f| f.write('x') }",
        "Pathname.new('docs/superpowers/plans/x.md').truncate(0)",
        "Pathname.new('docs/superpowers/plans/x.md').rename('/tmp/x')",
        // Bound by a block, a method's or a lambda's parameter.
        "Pathname.new('docs/superpowers/plans/x.md').then { |p| p.write('x') }",
        "Pathname.new('docs/superpowers/plans/x.md').tap do |p| p.write('x') end",
        "[Pathname.new('docs/superpowers/plans/x.md')].each { |a, p| p.write('x') }",
        "def w(p)\n  p.write('x')\nend\nw(Pathname.new('docs/superpowers/plans/x.md'))",
        "def w p\n  p.write('x')\nend\nw Pathname.new('docs/superpowers/plans/x.md')",
        "w = ->(p) { p.write('x') }\nw.(Pathname.new('docs/superpowers/plans/x.md'))",
    ] {
        let writes = judged(Language::Ruby, &format!("require 'pathname'\n{text}"));
        assert!(writes.iter().any(|w| w == PLAN), "{text:?} → {writes:?}");
    }
    // A handle's write is judged where it is opened; reading a Pathname writes nothing.
    for text in [
        "plan = Pathname.new('docs/superpowers/plans/x.md')\nFile.open('/tmp/out', 'w') { |f| f.write(plan.read) }",
        "puts Pathname.new('docs/superpowers/plans/x.md').read",
        "Pathname.new('docs/superpowers/plans/x.md').open('r') { |f| puts f.read }",
        "Pathname.new('docs/superpowers/plans/x.md').then { |p| puts p.read }",
    ] {
        let writes = judged(Language::Ruby, &format!("require 'pathname'\n{text}"));
        assert!(writes.iter().all(|w| w.starts_with("/tmp/")), "{text:?} → {writes:?}");
    }
    // Without a Pathname, a parameter's `write` is a handle's.
    assert!(judged(Language::Ruby, "def log(io)\n  io.write('docs/superpowers/plans/x.md')\nend").is_empty());
}

#[test]
fn an_unproven_program_naming_a_change_may_fill_it() {
    for (language, text) in [
        (
            Language::Python,
            "import importlib\nimportlib.import_module('tarfile').open('/tmp/a.tar').extractall('openspec/changes/c')",
        ),
        (Language::Python, "import foo, os\nfoo.unpack('/tmp/a.zip', os.path.join('openspec', 'changes', 'c'))"),
        (Language::Php, "$z = new ZipArchive; $z->open('/tmp/a.zip'); $z->extractTo('openspec/changes/c');"),
        (
            Language::Ruby,
            "require 'zip'\nZip::File.open('/tmp/a.zip') { |z| z.each { |e| z.extract(e, 'openspec/changes/c/' + e.name) } }",
        ),
        (
            Language::JavaScript,
            "const AdmZip = require('adm-zip'); new AdmZip('/tmp/a.zip').extractAllTo('openspec/changes/c', true)",
        ),
    ] {
        let writes = judged(language, text);
        assert!(writes.iter().any(|w| w.trim_end_matches('/') == "openspec/changes/c"), "{text:?} → {writes:?}");
    }
    // The changes folder itself: any change in it.
    assert_eq!(
        judged(Language::JavaScript, "require('tar').x({file: '/tmp/a.tar', C: 'openspec/changes'})"),
        ["openspec/changes"]
    );
    // A file in a change, read by an unproven program, is no change; a proven program is judged by its calls.
    assert!(
        judged(Language::Python, "import yaml\nprint(yaml.safe_load(open('openspec/changes/c/proposal.md')))")
            .is_empty()
    );
    assert!(judged(Language::Python, "import os\nprint(os.listdir('openspec/changes/c'))").is_empty());
}

#[test]
fn an_unproven_program_may_run_what_its_standard_input_names() {
    let root = Path::new("/repo");
    let plan = || vec!["/repo/docs/superpowers/plans/p.md".to_string()];
    for command in [
        "python3 -c 'exec(input())' <<< 'open(\"docs/superpowers/plans/p.md\", \"w\")'",
        "python3 -c 'breakpoint()' <<< 'open(\"docs/superpowers/plans/p.md\", \"w\")'",
        "echo 'require(\"fs\").rmSync(\"docs/superpowers/plans/p.md\")' | node -e 'eval(require(\"fs\").readFileSync(0, \"utf8\"))'",
    ] {
        assert_eq!(sorted(&write_targets(command, root).expect("scannable")), plan(), "{command}");
    }
    // A proven program reads its standard input as data.
    for command in [
        "python3 -c 'import sys; print(sys.stdin.read())' <<< 'docs/superpowers/plans/p.md'",
        "echo docs/superpowers/plans/p.md | node -e 'console.log(require(\"fs\").readFileSync(0, \"utf8\"))'",
    ] {
        assert!(write_targets(command, root).expect("scannable").is_empty(), "{command}");
    }
}

#[test]
fn a_program_s_temporary_folder_is_the_one_its_line_gives_it() {
    let root = Path::new("/repo");
    let python =
        "python3 -c \"import tempfile, shutil; shutil.copy('docs/superpowers/plans/p.md', tempfile.mkdtemp())\"";
    let node = "node -e \"const fs = require('fs'), os = require('os'); fs.writeFileSync(os.tmpdir() + '/p.md', fs.readFileSync('docs/superpowers/plans/p.md'))\"";
    let guarded = |command: &str| {
        let targets = write_targets(command, root).expect("scannable");
        targets.iter().any(|target| paths::names_guarded(&target.to_string_lossy(), paths::Dialect::Bash))
    };
    for program in [python, node] {
        assert!(!guarded(program), "{program}");
        for line in [
            "TMPDIR=/tmp/work PROGRAM",
            "export TMP=/tmp/work; PROGRAM",
            "env TEMP=/tmp/work PROGRAM",
            "TMPDIR= PROGRAM",
            "TMPDIR=/tmp/w TEMP=/tmp/w PROGRAM",
        ] {
            let command = line.replace("PROGRAM", program);
            assert!(!guarded(&command), "{command}");
        }
        for line in [
            "TMPDIR=docs/superpowers/plans PROGRAM",
            "cd docs/superpowers && TMP=plans PROGRAM",
            "export TEMP=docs/superpowers/plans; PROGRAM",
            "TMPDIR=$(cat f) PROGRAM",
            "TEMP=\"$1\" PROGRAM",
            "read TMPDIR < f; PROGRAM",
            "TMPDIR=/tmp/a TMP=/tmp/b PROGRAM",
            "for TMPDIR in /tmp/a /tmp/b; do PROGRAM; done",
        ] {
            let command = line.replace("PROGRAM", program);
            assert!(guarded(&command), "{command}");
        }
    }
    // A program may set the temporary folder of the processes it starts.
    let child =
        "'python3', '-c', 'import tempfile, shutil; shutil.copy(\"docs/superpowers/plans/p.md\", tempfile.mkdtemp())'";
    for command in [
        format!("python3 -c \"import os, subprocess; os.environ['TMPDIR'] = 'docs/superpowers/plans'; subprocess.run([{child}])\""),
        format!("python3 -c \"import subprocess; subprocess.run([{child}], env={{'TMPDIR': 'docs/superpowers/plans'}})\""),
        "perl -e '$ENV{TMPDIR} = q(docs/superpowers/plans); system(q(python3 -c \"import tempfile, shutil; shutil.copy(\\\"docs/superpowers/plans/p.md\\\", tempfile.mkdtemp())\"))'".to_string(),
    ] {
        assert!(guarded(&command), "{command}");
    }
}
