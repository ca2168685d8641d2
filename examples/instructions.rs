//! A fixed set of guard calls for counting instructions (`bench/callgrind.sh`). Wall clock swings
//! on a shared machine; the instructions a call executes do not, so a change to the core is
//! judged before and after by these counts.
//!
//!   cargo build --release --no-default-features --features instructions-harness --example instructions
//!   instructions <case> <repository> [--bash-corpus FILE] [--pwsh-corpus FILE]
//!   instructions --list
//!
//! It writes a small repository at `<repository>` (an approved change with a 20 KB plan), then
//! judges the case's calls inside [`judge_measured`], the one function callgrind collects in
//! (`--toggle-collect`), and prints how many calls it judged and how many were refused. No timer,
//! no randomness: the same binary on the same inputs makes the same calls.

use std::collections::HashMap;
use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use approval_gates::gates::{self, ToolArgs};
use sha2::{Digest, Sha256};

/// One tool call: its name and its string arguments.
struct Call {
    name: &'static str,
    strings: HashMap<&'static str, String>,
}

impl Call {
    fn new(name: &'static str, fields: &[(&'static str, String)]) -> Self {
        Call { name, strings: fields.iter().cloned().collect() }
    }

    fn bash(command: &str) -> Self {
        Call::new("bash", &[("command", command.to_string()), ("description", "d".to_string())])
    }

    /// A bash call run in `workdir`: the analysis cache has not seen it there.
    fn bash_in(command: &str, workdir: &str) -> Self {
        let mut call = Call::bash(command);
        call.strings.insert("workdir", workdir.to_string());
        call
    }
}

impl ToolArgs for Call {
    fn string(&self, field: &str) -> Option<String> {
        self.strings.get(field).cloned()
    }

    fn strings_of(&self, _array: &str, _field: &str) -> Option<Vec<Option<String>>> {
        None
    }
}

/// A case: calls judged before the count (a warm-up), then the counted calls. Every case is
/// preceded by one bash, one PowerShell, one python3 and one node call of its own, so the
/// parsers' (and their tables') one-time setup is not counted.
struct Case {
    warm_up: Vec<Call>,
    calls: Vec<Call>,
}

const CASES: &[(&str, &str)] = &[
    ("bash-first-sight", "every command of the bash corpus, once each (each a cache miss)"),
    ("bash-repeat", "eight agent commands, judged once before, then 32 times each (cache hits)"),
    ("pwsh-first-sight", "every command of the PowerShell corpus, once each"),
    ("python-1k", "a 1 KB python3 heredoc (reads the plan, writes report.json), in 32 fresh workdirs"),
    ("javascript-1k", "a 1 KB node heredoc (reads the plan, writes report.json), in 32 fresh workdirs"),
    ("patch", "an apply_patch of 1 KB over three files, 64 times"),
    ("write-1k", "a write of 1 KB into src/, 256 times"),
];

/// What coding agents run as they write it (a few of `bench/guard.mjs`'s).
const AGENT_COMMANDS: &[&str] = &[
    "cargo test --workspace 2>&1 | tail -20",
    "git status --short && git diff --stat",
    "git add -A && git commit -m \"fix: handle empty input\"",
    "grep -rn \"TODO\" src/ --include=*.rs",
    "cat > src/config.rs <<'EOF'\npub const LIMIT: usize = 10;\nEOF",
    "sed -i 's/old_name/new_name/g' src/lib.rs src/main.rs",
    "mkdir -p build && cd build && cmake .. && make -j2 2>&1 | tee build.log",
    "sha256sum docs/superpowers/plans/p.md && cat openspec/changes/feat/approval.md",
];

/// Fresh working directories for the program cases: `w/0` .. `w/31`.
const WORKDIRS: usize = 32;

fn python_1k() -> String {
    let counts: Vec<String> = (0..11)
        .map(|i| format!("count_{i} = sum(1 for line in text.splitlines() if line.startswith('- [{i}]'))"))
        .collect();
    format!(
        "python3 - <<'EOF'\nimport hashlib, json\nfrom pathlib import Path\n\
         text = (Path('docs/superpowers/plans') / 'p.md').read_text()\n{}\n\
         open('report.json', 'w').write(json.dumps({{'sha': hashlib.sha256(text.encode()).hexdigest()}}))\nEOF",
        counts.join("\n")
    )
}

fn javascript_1k() -> String {
    let counts: Vec<String> = (0..10)
        .map(|i| format!("const count{i} = lines.filter((line) => line.startsWith('- [{i}]')).length;"))
        .collect();
    format!(
        "node - <<'EOF'\nconst fs = require('fs');\nconst path = require('path');\n\
         const crypto = require('crypto');\n\
         const text = fs.readFileSync(path.join('docs/superpowers/plans', 'p.md'), 'utf8');\n\
         const lines = text.split('\\n');\n{}\n\
         fs.writeFileSync('report.json', JSON.stringify({{ sha: crypto.createHash('sha256').update(text).digest('hex') }}));\nEOF",
        counts.join("\n")
    )
}

fn patch_1k() -> String {
    let added: String = (0..12).map(|i| format!("+pub fn helper_{i}() -> usize {{ {i} }}\n")).collect();
    let context: String = (0..8).map(|i| format!(" // line {i} of the module\n")).collect();
    format!(
        "*** Begin Patch\n*** Add File: src/helpers.rs\n{added}\
         *** Update File: src/lib.rs\n@@\n{context}-mod old;\n+mod helpers;\n\
         *** Update File: README.md\n@@\n-Old words.\n+New words about the helpers.\n*** End Patch\n"
    )
}

/// The `cmd` of every row of a JSON-lines corpus.
fn corpus_commands(file: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(file).map_err(|error| format!("{}: {error}", file.display()))?;
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).map_err(|error| format!("{line}: {error}"))?;
            row["cmd"].as_str().map(str::to_owned).ok_or_else(|| format!("a row without cmd: {line}"))
        })
        .collect()
}

fn case(name: &str, bash_corpus: &Path, pwsh_corpus: &Path) -> Result<Case, String> {
    let no_warm_up = |calls| Ok(Case { warm_up: Vec::new(), calls });
    let in_workdirs =
        |command: String| -> Vec<Call> { (0..WORKDIRS).map(|k| Call::bash_in(&command, &format!("w/{k}"))).collect() };
    match name {
        "bash-first-sight" => no_warm_up(corpus_commands(bash_corpus)?.iter().map(|c| Call::bash(c)).collect()),
        "bash-repeat" => Ok(Case {
            warm_up: AGENT_COMMANDS.iter().map(|c| Call::bash(c)).collect(),
            calls: (0..32).flat_map(|_| AGENT_COMMANDS.iter().map(|c| Call::bash(c))).collect(),
        }),
        "pwsh-first-sight" => no_warm_up(
            corpus_commands(pwsh_corpus)?.into_iter().map(|c| Call::new("pwsh", &[("command", c)])).collect(),
        ),
        "python-1k" => no_warm_up(in_workdirs(python_1k())),
        "javascript-1k" => no_warm_up(in_workdirs(javascript_1k())),
        "patch" => no_warm_up((0..64).map(|_| Call::new("apply_patch", &[("input", patch_1k())])).collect()),
        "write-1k" => no_warm_up(
            (0..256)
                .map(|_| Call::new("write", &[("file_path", "src/a.txt".into()), ("content", "x".repeat(1024))]))
                .collect(),
        ),
        _ => Err(format!("no case {name:?} (--list names them)")),
    }
}

fn write(root: &Path, relative: &str, text: &str) -> Result<(), String> {
    let file = root.join(relative);
    let dir = file.parent().expect("a file in a folder");
    fs::create_dir_all(dir)
        .and_then(|()| fs::write(&file, text))
        .map_err(|error| format!("{}: {error}", file.display()))
}

/// The repository the calls run in: an approved change `feat` with a 20 KB plan, as in
/// `bench/guard.mjs`, and the fresh working directories.
fn repository(root: &Path) -> Result<(), String> {
    for file in ["proposal.md", "design.md", "builder-check.md"] {
        write(root, &format!("openspec/changes/feat/{file}"), "# x\n")?;
    }
    let task = "- [ ] a task of the plan, with some words\n";
    let plan = format!("# Plan\n\n**Spec:** openspec/changes/feat/design.md\n\n{}", task.repeat(500));
    let plan = &plan[..20_000];
    write(root, "docs/superpowers/plans/p.md", plan)?;
    let sha256: String = Sha256::digest(plan.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect();
    write(
        root,
        "openspec/changes/feat/approval.md",
        &format!("design:\n  by: owner\n  at: T\nplan:\n  by: owner\n  at: T\n  sha256: {sha256}\n"),
    )?;
    write(root, "src/x.rs", "fn main() {}\n")?;
    for k in 0..WORKDIRS {
        fs::create_dir_all(root.join(format!("w/{k}/src"))).map_err(|error| error.to_string())?;
    }
    Ok(())
}

fn judge(calls: &[Call], root: &Path) -> usize {
    calls.iter().filter(|call| gates::check_tool_call(call.name, *call, || root.to_path_buf()).is_some()).count()
}

/// The counted part; `bench/callgrind.sh` collects instructions inside this function only.
#[inline(never)]
fn judge_measured(calls: &[Call], root: &Path) -> usize {
    black_box(judge(black_box(calls), root))
}

fn run(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--list") {
        for (name, what) in CASES {
            println!("{name}\t{what}");
        }
        return Ok(());
    }
    let [name, root, options @ ..] = args else {
        return Err("usage: instructions <case> <repository> [--bash-corpus FILE] [--pwsh-corpus FILE] | --list".into());
    };
    let fixture = |file: &str| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/__test__/fixtures")).join(file);
    let (mut bash_corpus, mut pwsh_corpus) = (fixture("bash-targets.jsonl"), fixture("pwsh-targets.jsonl"));
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let value = options.next().ok_or(format!("{option} needs a file"))?;
        match option.as_str() {
            "--bash-corpus" => bash_corpus = PathBuf::from(value),
            "--pwsh-corpus" => pwsh_corpus = PathBuf::from(value),
            _ => return Err(format!("unknown option {option}")),
        }
    }
    let root = PathBuf::from(root);
    repository(&root)?;
    let case = case(name, &bash_corpus, &pwsh_corpus)?;
    let setup = [
        Call::bash(": warm-up"),
        Call::new("pwsh", &[("command", "Write-Output warm-up".into())]),
        Call::bash("python3 -c 'print(1)' warm-up"),
        Call::bash("node -e 'console.log(1)' warm-up"),
    ];
    judge(&setup, &root);
    judge(&case.warm_up, &root);
    let refused = judge_measured(&case.calls, &root);
    println!("{name}: {} calls, {refused} refused", case.calls.len());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("instructions: {problem}");
            ExitCode::FAILURE
        }
    }
}
