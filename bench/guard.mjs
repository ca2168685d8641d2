// `npm run bench`: what a guard call costs, every figure of docs/benchmarks.md with its goal and
// whether it is met, in one run. Medians (process.hrtime); in-process rows over repeated batches, process rows
// over repeated spawns. Not a test: numbers and verdicts, it fails nothing.
//
//   npm run bench [-- --quick]
//
// Process rows need the release hook (`cargo build --release -p approval-gates-hook`; a debug one
// is used, and said so, when that is all there is) and, for the peers, `bench/peers.sh`.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, homedir, tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { checkGuard } from '../index.js'

const here = dirname(fileURLToPath(import.meta.url))
const project = join(here, '..')
const quick = process.argv.includes('--quick')

// --- a repository with an approved 20 KB plan and an approved 1 MB plan ------------------------
const root = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-bench-')))
process.on('exit', () => rmSync(root, { recursive: true, force: true }))
const put = (rel, text) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true })
  writeFileSync(join(root, rel), text)
}
const sha256 = (text) => createHash('sha256').update(text).digest('hex')
const approvedPlan = (change, name, bytes) => {
  for (const file of ['proposal.md', 'design.md', 'builder-check.md']) put(`openspec/changes/${change}/${file}`, '# x\n')
  const text = `# Plan\n\n**Spec:** openspec/changes/${change}/design.md\n\n${'- [ ] a task of the plan, with some words\n'.repeat(Math.ceil(bytes / 40))}`.slice(0, bytes)
  put(`docs/superpowers/plans/${name}.md`, text)
  put(`openspec/changes/${change}/approval.md`, `design:\n  by: owner\n  at: T\nplan:\n  by: owner\n  at: T\n  sha256: ${sha256(text)}\n`)
}
approvedPlan('feat', 'p', 20_000)
approvedPlan('big', 'big', 1 << 20)
put('src/x.rs', 'fn main() {}\n')

// --- the calls --------------------------------------------------------------------------------
const call = (name, args) => ({ name, arguments: args })
const bashCall = (command) => call('bash', { command, description: 'd' })

/** What coding agents run, as they write it: builds, tests, git, searches, edits through the shell. */
const AGENT_COMMANDS = [
  'cargo test --workspace 2>&1 | tail -20',
  'cargo build --release && ls -la target/release',
  'cargo clippy --all-targets -- -D warnings',
  'cargo fmt --check',
  'npm install && npm run build',
  'npm test -- --reporter=dot > /tmp/test.log 2>&1',
  'npx tsc --noEmit -p .',
  'pytest -x -q tests/ 2>&1 | tail -30',
  'git status --short && git diff --stat',
  'git add -A && git commit -m "fix: handle empty input"',
  'git log --oneline -20',
  'git diff HEAD~1 -- src/lib.rs',
  'git checkout -b feature/parser && git push -u origin feature/parser',
  'git stash && git pull --rebase && git stash pop',
  'ls -la src/',
  'find . -name "*.rs" -not -path "./target/*"',
  'grep -rn "TODO" src/ --include=*.rs',
  'rg -n "fn main" --type rust',
  'cat src/main.rs',
  'head -50 README.md',
  'wc -l src/*.rs',
  "cat > src/config.rs <<'EOF'\npub const LIMIT: usize = 10;\nEOF",
  "sed -i 's/old_name/new_name/g' src/lib.rs src/main.rs",
  'echo "export PATH=$HOME/.cargo/bin:$PATH" >> ~/.bashrc',
  'mkdir -p build && cd build && cmake .. && make -j2 2>&1 | tee build.log',
  'cd crates/core && cargo clippy -- -D warnings',
  'cp .env.example .env && chmod 600 .env',
  'rm -rf target/debug/incremental',
  'mv src/old.rs src/new.rs',
  'touch src/lib.rs && cargo check',
  'python3 -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt',
  'docker build -t app:dev . && docker run --rm app:dev',
  'curl -sSf https://example.com/install.sh -o /tmp/install.sh',
  'for f in src/*.rs; do rustfmt --check "$f" || echo "$f"; done',
  'if [ -f Cargo.lock ]; then cargo update -p serde; fi',
  'sha256sum docs/superpowers/plans/p.md && cat openspec/changes/feat/approval.md',
]
const pipeline = (stages) => ['cat src/x.rs', 'grep -v "^$"', 'sed "s/a/b/"', 'sort', 'uniq -c', 'sort -rn', "awk '{print $2}'", 'tr a-z A-Z', 'cut -c1-80', 'head -20'].slice(0, stages).join(' | ')
const PIPELINE_CLASSES = [2, 3, 5, 10].map((stages) => [`pipelines of ${stages} stages`, pipeline(stages)])
const TEN_KB = [
  ['a 10 KB heredoc', `cat > src/generated.rs <<'EOF'\n${'pub const X: u32 = 1; // generated\n'.repeat(290)}EOF`],
  ['a 10 KB && chain', Array.from({ length: 330 }, (_, i) => `echo step${i}`).join(' && ')],
]

// The 1 KB program (P-13; its goal: well under 1 ms): reads the plan, writes a report (allowed, so
// the whole analysis runs).
const PROGRAM_1K = `python3 - <<'EOF'\nimport hashlib, json\nfrom pathlib import Path\ntext = (Path('docs/superpowers/plans') / 'p.md').read_text()\n${Array.from({ length: 11 }, (_, i) => `count_${i} = sum(1 for line in text.splitlines() if line.startswith('- [${i}]'))`).join('\n')}\nopen('report.json', 'w').write(json.dumps({'sha': hashlib.sha256(text.encode()).hexdigest()}))\nEOF`
/** The same work in JavaScript: reads and hashes the plan, writes report.json (about 1 KB). */
const PROGRAM_1K_JS = `node - <<'EOF'\nconst fs = require('fs')\nconst path = require('path')\nconst { createHash } = require('crypto')\nconst text = fs.readFileSync(path.join('docs/superpowers/plans', 'p.md'), 'utf8')\nconst lines = text.split('\\n')\n${Array.from({ length: 11 }, (_, i) => `const count_${i} = lines.filter((line) => line.startsWith('- [${i}]')).length`).join('\n')}\nfs.writeFileSync('report.json', JSON.stringify({ sha: createHash('sha256').update(text).digest('hex') }))\nEOF`

// Repeated: the same call, as an agent repeats its commands (the analysis cache answers after the
// first). First sight: each call in another of FIRST_SIGHT_DIRS working directories, more than the
// cache holds, so every call is a miss and is parsed and walked again.
const repeatedCalls = (command) => [bashCall(command)]
const FIRST_SIGHT_DIRS = 1024
for (let k = 0; k < FIRST_SIGHT_DIRS; k++) mkdirSync(join(root, `w/${k}/src`), { recursive: true })
const firstSightCalls = (command) => {
  const toolCalls = Array.from({ length: FIRST_SIGHT_DIRS }, (_, k) => call('bash', { command, description: 'd', workdir: `w/${k}` }))
  const verdict = checkGuard(toolCalls[0], root)
  if (verdict !== null) throw new Error(`bash ${JSON.stringify(command.slice(0, 80))} in w/0 is denied: ${verdict}`)
  return toolCalls
}

/** A program judged at first sight: each call in another working directory (firstSightCalls). */
const atFirstSight = (command) => {
  let calls
  let k = 0
  return () => {
    calls ??= firstSightCalls(command)
    return checkGuard(calls[k++ % calls.length], root)
  }
}

const kb = 'x'.repeat(1024)
const mb = 'x'.repeat(1 << 20)
const CASES = {
  floor: [() => checkGuard(undefined), 'napi floor: checkGuard(undefined), returns at the first type check'],
  read: [() => checkGuard(call('read', { file_path: 'src/x.rs' }), root), 'read src/x.rs (not gated)'],
  edit: [() => checkGuard(call('edit', { file_path: 'src/x.rs', old_string: 'a', new_string: 'b' }), root), 'edit src/x.rs (not gated; P-8 real path)'],
  write1k: [() => checkGuard(call('write', { file_path: 'src/a.txt', content: kb }), root), 'write src/a.txt, 1 KB content'],
  write1m: [() => checkGuard(call('write', { file_path: 'src/a.txt', content: mb }), root), 'write src/a.txt, 1 MB content'],
  dispatch: [() => checkGuard(call('subagent', { prompt: 'Implement task 3 of docs/superpowers/plans/p.md' }), root), 'subagent naming an approved 20 KB plan'],
  dispatch1m: [() => checkGuard(call('subagent', { prompt: 'Implement task 3 of docs/superpowers/plans/big.md' }), root), 'subagent naming an approved 1 MB plan'],
  readHash1m: [() => createHash('sha256').update(readFileSync(join(root, 'docs/superpowers/plans/big.md'))).digest('hex'), 'floor: read + sha256 the 1 MB plan once (node)'],
  unknownTool: [() => checkGuard(call('fetch_url', { url: 'https://example.com/docs' }), root), 'a tool the engine does not know, no path-like argument'],
  program1k: [atFirstSight(PROGRAM_1K), 'interpreter program (P-13): python3 heredoc of 1 KB at first sight (reads the plan, writes report.json)'],
  program1kJs: [atFirstSight(PROGRAM_1K_JS), 'interpreter program (P-13): node heredoc of 1 KB at first sight (reads the plan, writes report.json)'],
  mcpWrite: [() => checkGuard(call('mcp__filesystem__write_file', { path: 'src/a.txt', content: 'x' }), root), 'MCP tool call (P-16): mcp__filesystem__write_file src/a.txt'],
  mcpRead: [() => checkGuard(call('mcp__weather__get_forecast', { city: 'Paris' }), root), 'MCP tool call (P-16) whose name says it does not write'],
  pwsh: [() => checkGuard(call('pwsh', { command: "Get-ChildItem src | Select-String 'fn main'; Set-Content -Path out.txt -Value x" }), root), 'PowerShell command (P-16): Get-ChildItem piped to Select-String; Set-Content out.txt'],
}
/** The analyses of other branches, measured in the same run once merged (see ROWS OF OTHER ANALYSES). */
const PENDING_ROWS = ['interpreter program (P-13)', 'MCP tool call (P-16)', 'PowerShell command (P-16)'].filter(
  (label) => !Object.values(CASES).some(([, caseLabel]) => caseLabel.startsWith(label.split(' (')[0])),
)

// Every measured call must take the allowed path, or the bench measures a refusal.
for (const [name, [fn]] of Object.entries(CASES)) {
  if (['floor', 'readHash1m'].includes(name)) continue
  const verdict = fn()
  if (verdict !== null) throw new Error(`${name} is denied, the benchmark would measure the wrong path: ${verdict}`)
}
for (const [, command] of [...AGENT_COMMANDS.map((c) => [c, c]), ...PIPELINE_CLASSES, ...TEN_KB]) {
  const verdict = checkGuard(bashCall(command), root)
  if (verdict !== null) throw new Error(`bash ${JSON.stringify(command.slice(0, 80))} is denied: ${verdict}`)
}

// --- measuring ---------------------------------------------------------------------------------
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Median nanoseconds per call of `fn` over `samples` batches of about `batchNs` each. */
function measure(fn, { samples = quick ? 5 : 21, batchNs = 20e6 } = {}) {
  let batch = 1
  for (;;) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) fn()
    if (Number(process.hrtime.bigint() - start) > batchNs || batch > 1e7) break
    batch *= 2
  }
  const times = []
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) fn()
    times.push(Number(process.hrtime.bigint() - start) / batch)
  }
  return median(times)
}

/** In-process bash figures: each agent command's median cost and their median, then each command
 * class and the worst pipeline and 10 KB class. A measurement cycles through `callsOf(command)`. */
function bashFigures(callsOf) {
  const cost = (command) => {
    const toolCalls = callsOf(command)
    let next = 0
    return measure(() => checkGuard(toolCalls[next++ % toolCalls.length], root), { samples: quick ? 3 : 9, batchNs: 10e6 })
  }
  const each = AGENT_COMMANDS.map(cost)
  const classes = [...PIPELINE_CLASSES, ...TEN_KB].map(([label, command]) => [label, cost(command)])
  const worst = (rows) => rows.reduce((a, b) => (b[1] > a[1] ? b : a))
  return {
    each,
    median: median(each),
    classes,
    worstPipeline: worst(classes.slice(0, PIPELINE_CLASSES.length)),
    worstTenKb: worst(classes.slice(PIPELINE_CLASSES.length)),
  }
}


/** Median wall time of one process run, over `runs` spawns. */
function spawnMedian(command, args, input, runs) {
  const times = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const result = spawnSync(command, args, { input, cwd: root })
    times.push(Number(process.hrtime.bigint() - start))
    if (result.error) throw new Error(`${command}: ${result.error.message}`)
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exit ${result.status}: ${result.stderr}`)
  }
  return median(times)
}

/** The process-per-call rows: each guard judging the same agent commands, as a hook runs it. */
const HOOK_COMMANDS = AGENT_COMMANDS.filter((_, i) => i % 4 === 0)
const hookPayload = (command) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: root })
const perCommand = (runs, one) => median(HOOK_COMMANDS.map((command) => one(command, runs)))

function nativeHook() {
  const exe = process.platform === 'win32' ? '.exe' : ''
  const release = join(project, `target/release/approval-gates-hook${exe}`)
  const debug = join(project, `target/debug/approval-gates-hook${exe}`)
  const binary = process.env.APPROVAL_GATES_HOOK ?? (existsSync(release) ? release : existsSync(debug) ? debug : null)
  if (binary === null) return { skipped: 'not built: cargo build --release -p approval-gates-hook' }
  const note = binary === debug ? ' (DEBUG build: cargo build --release -p approval-gates-hook)' : ''
  return { label: `approval-gates-hook check${note}`, median: perCommand(quick ? 5 : 21, (c, runs) => spawnMedian(binary, ['check'], hookPayload(c), runs)) }
}

/** What any process costs here: spawning a program that does nothing. It bounds the hook rows. */
function processFloor() {
  const binary = ['/bin/true', '/usr/bin/true'].find((file) => existsSync(file))
  if (binary === undefined) return { skipped: 'no /bin/true to measure the process floor with' }
  // It reads no stdin: writing the payload to it would fail with EPIPE.
  return { label: `process floor: ${binary}`, median: perCommand(quick ? 5 : 21, (c, runs) => spawnMedian(binary, [], '', runs)) }
}

function jsCli() {
  const bin = join(project, 'bin/approval-gates.mjs')
  return { label: 'approval-gates check (node CLI)', median: perCommand(quick ? 2 : 5, (c, runs) => spawnMedian(process.execPath, [bin, 'check'], hookPayload(c), runs)) }
}

function python() {
  const binary = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
  const script = join(here, 'old_targets.py')
  return { label: `the python path: ${binary} old_targets.py targets`, median: perCommand(quick ? 5 : 11, (c, runs) => spawnMedian(binary, [script, 'targets', c, root], '', runs)) }
}

function onPath(name) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), join(homedir(), '.cargo/bin')]
  return dirs.map((dir) => join(dir, name)).find((file) => existsSync(file)) ?? null
}

function dcg() {
  const binary = process.env.DCG ?? onPath('dcg')
  if (binary === null) {
    return { skipped: 'dcg not installed (cargo +nightly install destructive_command_guard, with webpki-roots pinned to 1.0.10; about 16 min to build)' }
  }
  return { label: `dcg (${binary})`, median: perCommand(quick ? 5 : 21, (c, runs) => spawnMedian(binary, [], hookPayload(c), runs)) }
}

function ccSafetyNet() {
  const bin = join(here, '.peers/node_modules/cc-safety-net/dist/bin/cc-safety-net.js')
  if (!existsSync(bin)) return { skipped: 'cc-safety-net not installed (bench/peers.sh installs the pinned version)' }
  return { label: 'cc-safety-net --claude-code (node)', median: perCommand(quick ? 2 : 5, (c, runs) => spawnMedian(process.execPath, [bin, '--claude-code'], hookPayload(c), runs)) }
}

function memory() {
  const calls = ['read', 'edit', 'write1k', 'dispatch'].map((name) => CASES[name][0])
  const bashCalls = AGENT_COMMANDS.map(bashCall)
  const total = quick ? 100_000 : 1_000_000
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  for (let i = 0; i < total; i++) {
    if (i % 5 === 0) checkGuard(bashCalls[i % bashCalls.length], root)
    else calls[i % calls.length]()
  }
  globalThis.gc?.()
  return { total, before, after: process.memoryUsage().rss }
}

// --- run ---------------------------------------------------------------------------------------
const results = {}
for (const [name, [fn]] of Object.entries(CASES)) results[name] = measure(fn)
const bash = bashFigures(repeatedCalls)
const firstSight = bashFigures(firstSightCalls)
const processes = { floor: processFloor(), hook: nativeHook(), python: python(), js: jsCli(), dcg: dcg(), ccsn: ccSafetyNet() }
const rss = memory()

// --- report ------------------------------------------------------------------------------------
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`)
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
const times = (r) => `${r >= 100 ? r.toFixed(0) : r.toFixed(2)}×`

console.log(`approval-gates bench — ${cpus()[0]?.model ?? 'cpu'} (${cpus().length} cores), node ${process.versions.node}, ${process.platform}-${process.arch}${quick ? ', --quick' : ''}\n`)
console.log('| call | median |')
console.log('|---|---|')
for (const [name, [, label]] of Object.entries(CASES)) console.log(`| ${label} | ${fmt(results[name])} |`)
console.log(`| bash, ${AGENT_COMMANDS.length} agent commands in process (median of their medians) | ${fmt(bash.median)} |`)
console.log(`| bash, slowest agent command in process | ${fmt(Math.max(...bash.each))} |`)
for (const [label, ns] of bash.classes) console.log(`| bash, ${label} in process | ${fmt(ns)} |`)
console.log(`| bash first sight (a new working directory each call), ${AGENT_COMMANDS.length} agent commands (median of their medians) | ${fmt(firstSight.median)} |`)
console.log(`| bash first sight, slowest agent command | ${fmt(Math.max(...firstSight.each))} |`)
for (const [label, ns] of firstSight.classes) console.log(`| bash first sight, ${label} | ${fmt(ns)} |`)
for (const row of Object.values(processes)) {
  console.log(row.skipped ? `| process per call: skipped — ${row.skipped} | — |` : `| process per call: ${row.label}, median over ${HOOK_COMMANDS.length} commands | ${fmt(row.median)} |`)
}
console.log(`| RSS before → after ${rss.total.toLocaleString('en')} calls | ${mib(rss.before)} → ${mib(rss.after)} |`)
for (const label of PENDING_ROWS) console.log(`| ${label}: not in this build (added with its analysis) | — |`)

const { hook, python: old } = processes
const hookMs = hook.median ?? Number.NaN
const checks = [
  ['hook process per call', hookMs, '≤ 5 ms', (v) => v <= 5e6, fmt],
  ...(processes.floor.skipped ? [] : [['hook process above the process floor', hookMs - processes.floor.median, '(reported)', () => true, fmt]]),
  ['hook process vs the python path', old.median / hookMs, '≥ 4× faster', (r) => r >= 4, (r) => `${times(r)} faster`],
  ...[processes.dcg, processes.ccsn].filter((row) => !row.skipped).map((row) => [`hook process vs ${row.label}`, row.median / hookMs, '(reported)', () => true, (r) => `${times(r)} faster`]),
  ['bash in process, median of the agent commands', bash.median, '≤ 10 µs', (v) => v <= 10e3, fmt],
  ['bash in process vs the python path', old.median / bash.median, '≥ 2000× faster', (r) => r >= 2000, (r) => `${times(r)} faster`],
  [`worst command class (${bash.worstPipeline[0]}) vs the median`, bash.worstPipeline[1] / bash.median, '≤ 3×', (r) => r <= 3, times],
  [`10 KB commands (worst: ${bash.worstTenKb[0]})`, bash.worstTenKb[1], '≤ 1 ms', (v) => v <= 1e6, fmt],
  ['first sight: bash median of the agent commands (parse-bound; README)', firstSight.median, '(reported)', () => true, fmt],
  ['first sight: bash vs the python path', old.median / firstSight.median, '(reported)', () => true, (r) => `${times(r)} faster`],
  [`first sight: worst class (${firstSight.worstPipeline[0]}) vs the first-sight median`, firstSight.worstPipeline[1] / firstSight.median, '(reported)', () => true, times],
  [`first sight: 10 KB commands (worst: ${firstSight.worstTenKb[0]})`, firstSight.worstTenKb[1], '(reported)', () => true, fmt],
  ['edit src/x.rs vs the napi floor', results.edit / results.floor, '≤ 15×', (r) => r <= 15, times],
  ['read src/x.rs vs the napi floor', results.read / results.floor, '≤ 3×', (r) => r <= 3, times],
  ['a 1 KB inline program at first sight (P-13)', results.program1k, 'well under 1 ms (≤ 0.5 ms)', (v) => v <= 0.5e6, fmt],
  ['a 1 KB JavaScript program at first sight (P-18, tree-sitter)', results.program1kJs, '≤ 100 µs', (v) => v <= 0.1e6, fmt],
  ['an unknown tool with no path-like argument vs read (a tool the gates do not judge)', results.unknownTool / results.read, '≤ 1.5× (costs what it did)', (r) => r <= 1.5, times],
  ['1 MB write vs 1 KB write', results.write1m / results.write1k, '≤ 2×', (r) => r <= 2, times],
  ['approved 1 MB plan dispatch vs reading + hashing it once', results.dispatch1m / results.readHash1m, '≤ 1.2×', (r) => r <= 1.2, times],
  ['RSS growth over the calls', rss.after - rss.before, 'flat (< 16 MiB)', (d) => d < 16 * 2 ** 20, mib],
]
console.log('\n| figure | measured | goal | met |')
console.log('|---|---|---|---|')
for (const [label, value, goal, met, show] of checks) {
  const verdict = Number.isNaN(value) ? 'not measured' : goal === '(reported)' ? '—' : met(value) ? 'yes' : 'no'
  console.log(`| ${label} | ${Number.isNaN(value) ? '—' : show(value)} | ${goal} | ${verdict} |`)
}
