// The execution oracle (docs/oracle.md): every row of the bash and program corpora judged by
// checkGuard on a fixture repository, then run for real in bubblewrap on a fresh copy of it, and
// the verdict compared with what changed among the guarded files. Refused and a guarded file
// changed: confirmed. Refused, ran to a clean exit, nothing changed: an over-refusal. Refused and
// could not run here: inconclusive (counted). Allowed and a guarded file changed: a BYPASS. Every
// bypass and over-refusal must be in the residual-risk registry, and every corpus entry there must
// still reproduce. PowerShell rows are not run: there is no pwsh here.
import assert from 'node:assert/strict'
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'

import { classify, CLASSES, makeJudge, whyNotRun } from './oracle/judge.mjs'
import { keyOf, loadRegistry, reconcile, reconcileMessage } from './oracle/registry.mjs'
import { describeRow, listTally, notRunFamily, table, tally } from './oracle/report.mjs'
import { corpusRows, SETUP } from './oracle/rows.mjs'
import { pool, runSandboxed, sandboxStatus } from './oracle/sandbox.mjs'
import { guardedChanges, guardedKind, snapshot } from './oracle/snapshot.mjs'

const rows = corpusRows()
const sandbox = sandboxStatus()
const JOBS = Number(process.env.ORACLE_JOBS) || Math.max(2, availableParallelism() * 2)
const pwshRows = readFileSync(new URL('./fixtures/pwsh-targets.jsonl', import.meta.url), 'utf8').split('\n').filter((line) => line.trim() !== '').length

describe('the oracle’s instruments (no sandbox needed)', () => {
  let judge
  before(() => {
    judge = makeJudge()
  })
  after(() => judge.dispose())
  const changesOf = (act) => {
    const run = judge.fixtures.fresh()
    try {
      const before = snapshot(run.repo)
      act(run.repo)
      return guardedChanges(before, snapshot(run.repo)).map(({ path, change }) => `${change} ${path}`)
    } finally {
      run.dispose()
    }
  }

  test('what is guarded: approval.md anywhere, plans and sdd at any depth, the openspec tree', () => {
    assert.equal(guardedKind('openspec/changes/feat/approval.md'), 'approval')
    assert.equal(guardedKind('src/APPROVAL.MD'), 'approval')
    assert.equal(guardedKind('docs/superpowers/plans/p.md'), 'plans')
    assert.equal(guardedKind('.claude/worktrees/w/docs/superpowers/plans/p.md'), 'plans')
    assert.equal(guardedKind('.superpowers/sdd/p/progress.md'), 'sdd')
    assert.equal(guardedKind('openspec/changes/feat/design.md'), 'openspec')
    assert.equal(guardedKind('docs/superpowers/plans'), 'plans')
    assert.equal(guardedKind('.superpowers/sdd'), 'sdd')
    assert.equal(guardedKind('docs/guide.md'), null)
    assert.equal(guardedKind('docs/superpowers/specs/s.md'), null)
  })

  test('a write, a removal, a new file, a mode, a hard link, a touch of a guarded file are changes', () => {
    assert.deepEqual(changesOf((repo) => writeFileSync(join(repo, 'docs/superpowers/plans/p.md'), 'x')), ['content docs/superpowers/plans/p.md'])
    assert.deepEqual(changesOf((repo) => rmSync(join(repo, 'openspec/changes/feat/approval.md'))), ['deleted openspec/changes/feat/approval.md'])
    assert.deepEqual(changesOf((repo) => writeFileSync(join(repo, 'src/approval.md'), 'x')), ['created src/approval.md'])
    assert.deepEqual(changesOf((repo) => writeFileSync(join(repo, '.superpowers/sdd/p/brief-2.md'), 'x')), ['created .superpowers/sdd/p/brief-2.md'])
    assert.deepEqual(changesOf((repo) => symlinkSync('/tmp/x', join(repo, 'docs/superpowers/plans/l.md'))), ['created docs/superpowers/plans/l.md'])
    assert.deepEqual(
      changesOf((repo) => symlinkSync(join(repo, 'openspec/changes/bar'), join(repo, 'openspec/changes/new'))),
      ['symlink openspec/changes/new'],
    )
    // A change swapped for a link to another: the folder's type changed.
    assert.deepEqual(changesOf((repo) => rmSync(join(repo, 'openspec/changes/foo'), { recursive: true }) || symlinkSync('bar', join(repo, 'openspec/changes/foo'))), [
      'type openspec/changes/foo',
    ])
    assert.deepEqual(changesOf((repo) => chmodSync(join(repo, 'openspec/changes/feat/approval.md'), 0o600)), ['mode openspec/changes/feat/approval.md'])
    assert.deepEqual(changesOf((repo) => linkSync(join(repo, 'docs/superpowers/plans/p.md'), join(repo, 'p-link.md'))), ['linked docs/superpowers/plans/p.md'])
    const touch = (path) => utimesSync(path, new Date(), new Date())
    assert.deepEqual(changesOf((repo) => touch(join(repo, '.superpowers/sdd/p/progress.md'))), ['touched .superpowers/sdd/p/progress.md'])
  })

  test('ordinary work changes nothing guarded, even inside openspec and next to plans', () => {
    assert.deepEqual(changesOf((repo) => writeFileSync(join(repo, 'openspec/changes/feat/design.md'), 'more')), [])
    assert.deepEqual(changesOf((repo) => mkdirSync(join(repo, 'openspec/changes/next'))), [])
    assert.deepEqual(changesOf((repo) => writeFileSync(join(repo, 'docs/guide.md'), 'x')), [])
    assert.deepEqual(changesOf((repo) => readFileSync(join(repo, 'docs/superpowers/plans/p.md'))), [])
  })

  test('P-12: a whole change removed or archived is no write of its approval.md; a copy or a rename into a change is', () => {
    const mv = (from, to) => (repo) => renameSync(join(repo, from), join(repo, to))
    assert.deepEqual(changesOf((repo) => rmSync(join(repo, 'openspec/changes/foo'), { recursive: true })), [])
    assert.deepEqual(changesOf((repo) => rmSync(join(repo, 'openspec'), { recursive: true })), [])
    assert.deepEqual(changesOf(mv('openspec/changes/foo', 'openspec/changes/archive/2026-12-01-foo')), [])
    assert.deepEqual(changesOf(mv('openspec/changes/foo', 'openspec/changes/baz')), ['created openspec/changes/baz/approval.md'])
    assert.deepEqual(changesOf(mv('openspec/changes/foo/approval.md', 'approval-backup')), ['deleted openspec/changes/foo/approval.md'])
    assert.deepEqual(
      changesOf((repo) => {
        mkdirSync(join(repo, 'openspec/changes/archive/copy'))
        writeFileSync(join(repo, 'openspec/changes/archive/copy/approval.md'), readFileSync(join(repo, 'openspec/changes/foo/approval.md')))
      }),
      ['created openspec/changes/archive/copy/approval.md'],
    )
  })

  test('a run proves nothing when it timed out, lacked a program or the network, or failed', () => {
    const run = (fields) => ({ status: 0, signal: null, timedOut: false, capped: false, stdout: '', stderr: '', ...fields })
    assert.equal(whyNotRun(run({})), null)
    assert.equal(whyNotRun(run({ timedOut: true, status: null })), 'timeout')
    assert.equal(whyNotRun(run({ status: 127, stderr: '/bin/bash: line 1: Rscript: command not found\n' })), 'missing program: Rscript')
    assert.equal(whyNotRun(run({ status: 6, stderr: 'curl: (6) Could not resolve host: example.com\n' })), 'network')
    assert.equal(whyNotRun(run({ status: 1, stderr: 'rm: cannot remove x\n' })), 'exit 1: rm: cannot remove x')
    assert.equal(classify('BLOCKED', [{}], null), 'confirmed')
    assert.equal(classify('BLOCKED', [], null), 'over-refusal')
    assert.equal(classify('BLOCKED', [], 'timeout'), 'inconclusive')
    assert.equal(classify(null, [{}], 'exit 1'), 'bypass')
    assert.equal(classify(null, [], 'missing program'), 'ok')
  })

  test('the registry parses: known kinds and classes, a reason each, no key twice', () => {
    const entries = loadRegistry()
    assert.ok(entries.length > 0)
    for (const entry of entries) assert.ok(entry.reason.length <= 240, `registry line ${entry.line}: a one-line reason`)
  })
})

// Without a sandbox: one skipped test that says what was not run and why (a skipped suite would
// not show in npm test's total).
const skipReason = !sandbox.ok && `${rows.length} corpus rows not run, because ${sandbox.reason}`
if (skipReason) {
  console.log(`# execution oracle skipped: ${skipReason}`)
  test('execution oracle: every bash and program corpus row, run for real', { skip: skipReason }, () => {})
} else describe('execution oracle: every bash and program corpus row, run for real', () => {
  const results = new Map()
  let judge
  let seconds
  before(
    async () => {
      judge = makeJudge()
      const started = Date.now()
      const outcomes = await pool(rows, JOBS, (row) => judge.judge(row.cmd, { setup: SETUP[row.corpus]?.[row.cmd], timeoutMs: 5000 }))
      seconds = Math.round((Date.now() - started) / 1000)
      rows.forEach((row, at) => results.set(row, outcomes[at]))
    },
    { timeout: 15 * 60_000 },
  )
  after(() => judge?.dispose())

  test('the sandbox confines: / read-only, no network, a private /tmp', async () => {
    const run = judge.fixtures.fresh()
    try {
      const probe = await runSandboxed(
        'touch /usr/oracle-probe 2>/dev/null && echo wrote-root; getent hosts example.com >/dev/null 2>&1 && echo resolved; ls /tmp/evil/approval.md; echo ok > /tmp/private',
        { repo: run.repo, tmp: run.tmp },
      )
      assert.equal(probe.stdout, '/tmp/evil/approval.md\n', probe.stderr)
      assert.equal(readFileSync(join(run.tmp, 'private'), 'utf8'), 'ok\n')
    } finally {
      run.dispose()
    }
  })

  test('a run is bounded: killed past its timeout or its output cap; a background job may finish', async () => {
    const run = judge.fixtures.fresh()
    try {
      const box = { repo: run.repo, tmp: run.tmp }
      const endless = await runSandboxed('sleep 60', { ...box, timeoutMs: 300 })
      assert.equal(endless.timedOut, true)
      const loud = await runSandboxed('yes', { ...box, cap: 1 << 16 })
      assert.equal(loud.capped, true)
      assert.ok(loud.stdout.length <= 4096)
      const background = await runSandboxed('(sleep 0.2; echo late > /tmp/late) & echo early', box)
      assert.equal(background.stdout, 'early\n')
      assert.equal(readFileSync(join(run.tmp, 'late'), 'utf8'), 'late\n')
    } finally {
      run.dispose()
    }
  })

  test('every per-row setup names a corpus row', () => {
    for (const [corpus, setups] of Object.entries(SETUP)) {
      for (const cmd of Object.keys(setups)) assert.ok(rows.some((row) => row.corpus === corpus && row.cmd === cmd), `SETUP.${corpus} names no row: ${cmd}`)
    }
  })

  const registry = loadRegistry().filter((entry) => entry.kind === 'corpus')
  const findings = () => {
    const found = new Map()
    for (const [row, result] of results) {
      if (result.class === 'bypass' || result.class === 'over-refusal') found.set(keyOf(row), { class: result.class, text: describeRow(row, result) })
    }
    return found
  }

  test('every bypass and every over-refusal is a registered one, and every registered one still reproduces', () => {
    const evaluated = new Map()
    for (const [row, result] of results) {
      const unverifiable = result.class === 'inconclusive' || (result.class === 'ok' && result.notRun !== null) ? result.notRun : undefined
      evaluated.set(keyOf(row), { class: result.class, unverifiable })
    }
    const keys = new Set(rows.map(keyOf))
    const outcome = reconcile(registry, findings(), evaluated, (key) => keys.has(key))
    for (const { entry, now } of outcome.unverified) console.log(`# registry line ${entry.line} not verifiable here (${now}): ${entry.cmd}`)
    const message = reconcileMessage('corpus', outcome)
    if (message !== null) assert.fail(message)
  })

  test('the counts per class', () => {
    const all = [...results]
    const of = (name) => all.filter(([, result]) => result.class === name)
    const meaning = {
      confirmed: 'refused; running it changed a guarded file',
      'over-refusal': 'refused; ran to a clean exit and changed nothing guarded',
      inconclusive: 'refused; could not run here (counted, not failed)',
      bypass: 'allowed; running it changed a guarded file',
      ok: `allowed; changed nothing guarded (${of('ok').filter(([, result]) => result.notRun !== null).length} of them could not run here)`,
    }
    const perCorpus = (name) => tally(of(name), ([row]) => row.corpus).map(([corpus, n]) => `${corpus} ${n}`).join(', ')
    const lines = table(CLASSES.map((name) => [name, of(name).length, meaning[name], perCorpus(name)]))
    console.log(`\n# execution oracle: ${all.length} corpus rows (${tally(all, ([row]) => row.corpus).map(([c, n]) => `${c} ${n}`).join(', ')}) run in bubblewrap in ${seconds} s, ${JOBS} at a time`)
    for (const line of lines) console.log(`#   ${line}`)
    const notRun = all.filter(([, result]) => result.notRun !== null)
    console.log(`# could not run here (inconclusive when refused): ${listTally(tally(notRun, ([, result]) => notRunFamily(result.notRun)))}`)
    console.log(`#   programs missing: ${listTally(tally(notRun, ([, result]) => /^missing program: (.*)/.exec(result.notRun)?.[1]), 30)}`)
    const changeKinds = tally(of('confirmed').flatMap(([, result]) => result.changes), (change) => change.change)
    console.log(`# confirmed by: ${listTally(changeKinds)}`)
    console.log(`# not run: the ${pwshRows} PowerShell rows (pwsh-targets.jsonl): no pwsh on this machine`)
    assert.equal(all.length, rows.length)
  })
})
