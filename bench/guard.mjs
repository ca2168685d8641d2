// `npm run bench`: what a guard call costs. Medians of repeated batches (process.hrtime), printed
// as a table with the ratios the project targets. Not a test: numbers, not verdicts, fail nothing.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { checkGuard } from '../index.js'

const here = dirname(fileURLToPath(import.meta.url))
const quick = process.argv.includes('--quick')

// --- a repository with an approved 20 KB plan --------------------------------------------------
const root = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-bench-')))
process.on('exit', () => rmSync(root, { recursive: true, force: true }))
const put = (rel, text) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true })
  writeFileSync(join(root, rel), text)
}
for (const file of ['proposal.md', 'design.md', 'builder-check.md']) put(`openspec/changes/feat/${file}`, '# x\n')
const plan = `# Plan\n\n**Spec:** openspec/changes/feat/design.md\n\n${'- [ ] a task of the plan, with some words\n'.repeat(500)}`.slice(0, 20_000)
put('docs/superpowers/plans/p.md', plan)
const sha = createHash('sha256').update(plan).digest('hex')
put('openspec/changes/feat/approval.md', `design:\n  by: owner\n  at: T\nplan:\n  by: owner\n  at: T\n  sha256: ${sha}\n`)
put('src/x.rs', 'fn main() {}\n')

// --- the calls --------------------------------------------------------------------------------
const call = (name, args) => ({ name, arguments: args })
const kb = 'x'.repeat(1024)
const mb = 'x'.repeat(1 << 20)
const BASH = [
  'cargo test --workspace 2>&1 | tail -20',
  'cargo build --release && ls -la target/release',
  'npm install && npm run build',
  'npm test -- --reporter=dot > /tmp/test.log 2>&1',
  'git status --short && git diff --stat',
  'git add -A && git commit -m "fix: handle empty input"',
  "cat > src/config.rs <<'EOF'\npub const LIMIT: usize = 10;\nEOF",
  'cd crates/core && cargo clippy -- -D warnings',
  "sed -i 's/old_name/new_name/g' src/lib.rs src/main.rs",
  'mkdir -p build && cd build && cmake .. && make -j2 2>&1 | tee build.log',
]
const bashCalls = BASH.map((command) => call('bash', { command, description: 'd' }))

const CASES = {
  floor: [() => checkGuard(undefined), 'napi floor: checkGuard(undefined), returns at the first type check'],
  read: [() => checkGuard(call('read', { file_path: 'src/x.rs' }), root), 'read src/x.rs (not gated)'],
  edit: [() => checkGuard(call('edit', { file_path: 'src/x.rs', old_string: 'a', new_string: 'b' }), root), 'edit src/x.rs (not gated; P-8 real path)'],
  write1k: [() => checkGuard(call('write', { file_path: 'src/a.txt', content: kb }), root), 'write src/a.txt, 1 KB content'],
  write1m: [() => checkGuard(call('write', { file_path: 'src/a.txt', content: mb }), root), 'write src/a.txt, 1 MB content'],
  bash: [() => { for (const c of bashCalls) checkGuard(c, root) }, `${BASH.length} agent bash commands, per command`, BASH.length],
  dispatch: [() => checkGuard(call('subagent', { prompt: 'Implement task 3 of docs/superpowers/plans/p.md' }), root), 'subagent naming an approved 20 KB plan (read + sha256)'],
}

for (const [name, [fn]] of Object.entries(CASES)) {
  if (name !== 'floor' && fn() !== undefined && name !== 'bash') {
    const verdict = fn()
    if (verdict !== null) throw new Error(`${name} is denied, the benchmark would measure the wrong path: ${verdict}`)
  }
}
for (const c of bashCalls) {
  const verdict = checkGuard(c, root)
  if (verdict !== null) throw new Error(`bash ${c.arguments.command} is denied: ${verdict}`)
}

/** Median nanoseconds per call of `fn` over `samples` batches of about 20 ms each. */
function measure(fn, perCall = 1, samples = quick ? 5 : 21) {
  let batch = 1
  for (;;) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) fn()
    if (Number(process.hrtime.bigint() - start) > 20e6 || batch > 1e7) break
    batch *= 2
  }
  const times = []
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) fn()
    times.push(Number(process.hrtime.bigint() - start) / batch / perCall)
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]
}

function python() {
  const binary = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
  const script = join(here, 'old_targets.py')
  const runs = quick ? 3 : 10
  const perCommand = BASH.map((command) => {
    const times = []
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint()
      const result = spawnSync(binary, [script, 'targets', command, root])
      if (result.status !== 0) throw new Error(`${binary} failed: ${result.stderr}`)
      times.push(Number(process.hrtime.bigint() - start))
    }
    return times.sort((a, b) => a - b)[Math.floor(runs / 2)]
  })
  return { binary, median: perCommand.sort((a, b) => a - b)[Math.floor(perCommand.length / 2)] }
}

function memory() {
  const calls = [...Object.values(CASES).filter(([, , n]) => !n).map(([fn]) => fn)].filter((fn) => fn !== CASES.write1m[0])
  const total = quick ? 100_000 : 1_000_000
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  for (let i = 0; i < total; i++) {
    calls[i % calls.length]()
    if (i % 7 === 0) checkGuard(bashCalls[i % bashCalls.length], root)
  }
  globalThis.gc?.()
  return { total, before, after: process.memoryUsage().rss }
}

// --- run ---------------------------------------------------------------------------------------
const results = {}
for (const [name, [fn, , perCall]] of Object.entries(CASES)) results[name] = measure(fn, perCall)
const old = python()
const rss = memory()

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`)
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
const ratio = (a, b) => a / b

console.log(`approval-gates bench — ${cpus()[0]?.model ?? 'cpu'} (${cpus().length} cores), node ${process.versions.node}, ${process.platform}-${process.arch}${quick ? ', --quick' : ''}\n`)
console.log('| call | median |')
console.log('|---|---|')
for (const [name, [, label]] of Object.entries(CASES)) console.log(`| ${label} | ${fmt(results[name])} |`)
console.log(`| old path: spawn ${old.binary} + shlex, per command | ${fmt(old.median)} |`)
console.log(`| RSS before → after ${rss.total.toLocaleString('en')} calls | ${mib(rss.before)} → ${mib(rss.after)} |`)

const checks = [
  ['bash through checkGuard vs the python path', ratio(old.median, results.bash), '≥ 2000× faster', (r) => r >= 2000, (r) => `${r.toFixed(0)}× faster`],
  ['read (not gated) vs the floor', ratio(results.read, results.floor), '≤ 3×', (r) => r <= 3, (r) => `${r.toFixed(2)}×`],
  ['edit src/x.rs (not gated) vs the floor', ratio(results.edit, results.floor), '≤ 3×', (r) => r <= 3, (r) => `${r.toFixed(2)}×`],
  ['1 MB write vs 1 KB write', ratio(results.write1m, results.write1k), '≤ 2×', (r) => r <= 2, (r) => `${r.toFixed(2)}×`],
  ['dispatch with an approved 20 KB plan vs read', ratio(results.dispatch, results.read), '(reported)', () => true, (r) => `${r.toFixed(1)}×`],
  ['RSS growth over the calls', rss.after - rss.before, 'flat (< 16 MiB)', (d) => d < 16 * 2 ** 20, (d) => mib(d)],
]
console.log('\n| ratio | measured | target | met |')
console.log('|---|---|---|---|')
for (const [label, value, target, met, show] of checks) console.log(`| ${label} | ${show(value)} | ${target} | ${met(value) ? 'yes' : 'no'} |`)
