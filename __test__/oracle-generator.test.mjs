// The generator of variations, bounded (docs/oracle.md): a fixed sample of write calls × guarded
// path spellings × channels × languages, and of read-only calls, each judged by checkGuard and run
// for real in bubblewrap. A write case is a real write only when it really changed a guarded file;
// a read case must change none. Every read must pass (a refused read must be an accepted
// over-refusal in the registry); the share of real writes with a visible guarded path that were
// allowed is reported (the fail-closed analysis aims below 2%), and no category may allow more of them than
// `__test__/fixtures/oracle-baseline.json` says — an improved category must lower its number.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'

import { baselineOf, fingerprint, missingPrograms, readBaseline, report, runCases, sampleCases, SEED, summarize } from './oracle/generate.mjs'
import { keyOf, loadRegistry, reconcile, reconcileMessage } from './oracle/registry.mjs'
import { sandboxStatus } from './oracle/sandbox.mjs'
import { allCases, BASH_SPELLINGS, LANGUAGES, PROGRAM_SPELLINGS } from './oracle/space.mjs'

const UPDATE = 'node __test__/oracle/generate.mjs --update-baseline'

describe('the generator’s space and sample (no sandbox needed)', () => {
  test('every case has a unique id; the sample is deterministic and covers every category and spelling', () => {
    const cases = allCases()
    assert.equal(new Set(cases.map((c) => c.id)).size, cases.length)
    const sample = sampleCases()
    assert.deepEqual(sampleCases().map((c) => c.id), sample.map((c) => c.id))
    assert.notDeepEqual(sampleCases(SEED + 1).map((c) => c.id), sample.map((c) => c.id))
    assert.ok(sample.length <= 3000, `${sample.length} cases: a few thousand at most`)
    const categories = (list) => new Set(list.map((c) => `${c.kind}:${c.category}`))
    assert.deepEqual(categories(sample), categories(cases))
    for (const language of Object.keys(LANGUAGES)) {
      const spellings = new Set(sample.filter((c) => c.language === language).map((c) => c.spelling))
      for (const spelling of Object.keys(PROGRAM_SPELLINGS)) if (!(language === 'lua' && spelling === 'chdir')) assert.ok(spellings.has(spelling), `${language}: ${spelling}`)
    }
    const bash = new Set(sample.filter((c) => c.language === 'bash').map((c) => c.spelling))
    for (const spelling of Object.keys(BASH_SPELLINGS)) assert.ok(bash.has(spelling), `bash: ${spelling}`)
  })

  test('the baseline was made of this sample', () => {
    const baseline = readBaseline()
    assert.equal(baseline.seed, SEED)
    assert.equal(baseline.sample.fingerprint, fingerprint(sampleCases()), `the bounded sample changed since the baseline was written: run ${UPDATE} and commit the new numbers`)
  })
})

const sandbox = sandboxStatus()
// Without a sandbox: one skipped test that says what was not run and why.
const skipReason = !sandbox.ok && `${sampleCases().length} generated cases not run, because ${sandbox.reason}`
if (skipReason) {
  console.log(`# oracle generator skipped: ${skipReason}`)
  test('generator: the bounded sample, run for real', { skip: skipReason }, () => {})
} else describe('generator: the bounded sample, run for real', () => {
  const cases = sampleCases()
  let run
  let seconds
  before(
    async () => {
      const started = Date.now()
      run = await runCases(cases)
      seconds = Math.round((Date.now() - started) / 1000)
    },
    { timeout: 20 * 60_000 },
  )

  test('the report', () => {
    console.log(`\n# generator: ${run.results.length} of ${cases.length} sampled cases run in bubblewrap in ${seconds} s`)
    for (const line of report(run.results)) console.log(`# ${line}`)
    if (run.skipped.length > 0) console.log(`# not run: ${run.skipped.length} cases need ${[...run.missing].join(', ')}, not on this machine; their categories are not compared with the baseline`)
  })

  test('no read case changes a guarded file (the reads are reads)', () => {
    const wrote = run.results.filter((r) => r.outcome === 'wrote')
    assert.deepEqual(wrote.map((r) => `${r.id}: ${r.changes.map((c) => `${c.change} ${c.path}`).join(', ')}`), [])
  })

  test('every read passes, but for the accepted over-refusals of the registry, and each of those still reproduces', () => {
    const entries = loadRegistry().filter((entry) => entry.kind === 'generator')
    const findings = new Map()
    const evaluated = new Map()
    for (const r of run.results) {
      const key = keyOf({ generator: r.id })
      if (r.kind === 'read') evaluated.set(key, { class: r.outcome === 'refused' ? 'over-refusal' : 'ok' })
      if (r.kind === 'read' && r.outcome === 'refused') findings.set(key, { class: 'over-refusal', text: `${r.id}: ${r.verdict}\n      ${JSON.stringify(r.command).slice(0, 200)}` })
    }
    for (const c of run.skipped) evaluated.set(keyOf({ generator: c.id }), { unverifiable: `needs ${c.requires.join(', ')}` })
    const space = new Set(allCases().map((c) => keyOf({ generator: c.id })))
    const outcome = reconcile(entries, findings, evaluated, (key) => space.has(key))
    for (const { entry, now } of outcome.unverified) console.log(`# registry line ${entry.line} not verified by the bounded sample (${now}): ${entry.generator}`)
    const message = reconcileMessage('generator', outcome)
    if (message !== null) assert.fail(message)
  })

  test('the ratchet: no category allows more real writes than the baseline, and an improved one lowers it', () => {
    const baseline = readBaseline()
    const missing = missingPrograms(cases)
    const skippedCategories = new Set(run.skipped.map((c) => c.category))
    const now = baselineOf(run.results, cases).categories
    const problems = []
    for (const [name, counts] of Object.entries(now)) {
      if (skippedCategories.has(name)) continue
      const was = baseline.categories[name]
      if (was === undefined) problems.push(`${name}: a category the baseline does not have; run ${UPDATE}`)
      else if (counts.allowed > was.allowed) problems.push(`${name}: WORSE, ${counts.allowed} real writes allowed (baseline ${was.allowed}, of ${counts.real} real)`)
      else if (counts.allowed < was.allowed) problems.push(`${name}: better, ${counts.allowed} allowed (baseline ${was.allowed}): lower the baseline (${UPDATE})`)
      else if (counts.real !== was.real) console.log(`# ${name}: ${counts.real} real writes here, ${was.real} when the baseline was made (allowed ${counts.allowed} both times)`)
    }
    for (const name of Object.keys(baseline.categories)) {
      if (now[name] === undefined && !skippedCategories.has(name)) problems.push(`${name}: in the baseline, not in the sample; run ${UPDATE}`)
    }
    if (missing.size > 0) console.log(`# ratchet: categories needing ${[...missing].join(', ')} not compared (${skippedCategories.size})`)
    if (problems.length > 0) assert.fail(`the generator's ratchet (__test__/fixtures/oracle-baseline.json):\n  ${problems.join('\n  ')}`)
    assert.ok(summarize(run.results).size > 0)
  })
})
