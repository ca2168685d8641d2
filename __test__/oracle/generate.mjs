#!/usr/bin/env node
// The generator of variations (docs/oracle.md). `space.mjs` holds the space; this file samples it
// deterministically, runs cases through the judge (checkGuard, then bubblewrap), and tallies them:
// a write case is a REAL write only when running it changed a guarded file, a read case must change
// none. Run as a script for the whole space:
//   node __test__/oracle/generate.mjs --long [--jobs N] [--filter REGEX]
//   node __test__/oracle/generate.mjs --update-baseline   (the bounded sample → oracle-baseline.json)
import { createHash } from 'node:crypto'
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

import { makeJudge } from './judge.mjs'
import { table } from './report.mjs'
import { pool, sandboxEnv, sandboxStatus } from './sandbox.mjs'
import { allCases } from './space.mjs'

export const SEED = 20
export const BASELINE = new URL('../fixtures/oracle-baseline.json', import.meta.url)

/** mulberry32: a small deterministic PRNG. */
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The bounded sample: for every call of every language (a category), every spelling once, its
 * channel and target drawn with the seed; so each category sees each spelling and the channels and
 * targets spread over the sample. The same seed gives the same cases in the same order.
 */
export function sampleCases(seed = SEED, cases = allCases()) {
  const next = random(seed)
  const groups = new Map()
  for (const c of cases) {
    const key = `${c.kind}|${c.category}|${c.spelling}`
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(c)
  }
  return [...groups.values()].map((group) => group[Math.floor(next() * group.length)])
}

/** A fingerprint of a list of cases (their ids), to tell when a baseline was made of another sample. */
export const fingerprint = (cases) => createHash('sha256').update(cases.map((c) => c.id).join('\n')).digest('hex').slice(0, 16)

/** The programs a case needs that are not on the sandbox's PATH. */
export function missingPrograms(cases) {
  const dirs = sandboxEnv('/nonexistent').PATH.split(':').filter((dir) => !dir.startsWith('/nonexistent'))
  const known = new Map()
  const has = (bin) => {
    if (!known.has(bin)) {
      known.set(
        bin,
        dirs.some((dir) => {
          try {
            accessSync(join(dir, bin), constants.X_OK)
            return true
          } catch {
            return false
          }
        }),
      )
    }
    return known.get(bin)
  }
  return new Set(cases.flatMap((c) => c.requires).filter((bin) => !has(bin)))
}

/**
 * Runs `cases` (those whose programs are all here); each result is the case with `verdict`,
 * `changes`, `notRun`, and `outcome`: for a write `refused` or `allowed` when it really wrote, else
 * `no-effect`; for a read `ok`, `refused`, or `wrote` (a generator defect: a read must not write).
 */
export async function runCases(cases, { jobs = defaultJobs(), progress } = {}) {
  const missing = missingPrograms(cases)
  const runnable = cases.filter((c) => !c.requires.some((bin) => missing.has(bin)))
  const judge = makeJudge()
  let done = 0
  try {
    const results = await pool(runnable, jobs, async (c) => {
      const r = await judge.judge(c.command, { timeoutMs: 15_000 })
      done += 1
      if (progress && done % 500 === 0) progress(done, runnable.length)
      const real = r.changes.length > 0
      const refused = r.verdict !== null
      const outcome = c.kind === 'write' ? (real ? (refused ? 'refused' : 'allowed') : 'no-effect') : real ? 'wrote' : refused ? 'refused' : 'ok'
      return { ...c, verdict: r.verdict, changes: r.changes, notRun: r.notRun, outcome }
    })
    return { results, skipped: cases.filter((c) => c.requires.some((bin) => missing.has(bin))), missing }
  } finally {
    judge.dispose()
  }
}

export const defaultJobs = () => Number(process.env.ORACLE_JOBS) || Math.max(2, availableParallelism() * 2)

/** Per category: cases, real writes (visible path / hidden), allowed among them, reads refused. */
export function summarize(results) {
  const categories = new Map()
  for (const r of results) {
    const key = r.kind === 'write' ? r.category : `read:${r.category}`
    const c = categories.get(key) ?? { kind: r.kind, cases: 0, real: 0, allowed: 0, realHidden: 0, allowedHidden: 0, noEffect: 0, refused: 0, wrote: 0 }
    c.cases += 1
    if (r.kind === 'write') {
      if (r.outcome === 'no-effect') c.noEffect += 1
      else if (r.visible) {
        c.real += 1
        if (r.outcome === 'allowed') c.allowed += 1
      } else {
        c.realHidden += 1
        if (r.outcome === 'allowed') c.allowedHidden += 1
      }
    } else if (r.outcome === 'refused') c.refused += 1
    else if (r.outcome === 'wrote') c.wrote += 1
    categories.set(key, c)
  }
  return new Map([...categories].sort(([a], [b]) => a.localeCompare(b)))
}

const pct = (n, d) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`)

/** The printed report: per category, then per language, spelling and channel, then the share. */
export function report(results) {
  const lines = []
  const summary = summarize(results)
  const writes = [...summary].filter(([, c]) => c.kind === 'write')
  const writeRows = writes.map(([name, c]) => [name, c.cases, c.real, c.allowed, pct(c.allowed, c.real), c.noEffect, `${c.realHidden}/${c.allowedHidden}`])
  for (const line of table([['write category', 'cases', 'real', 'allowed', 'share', 'no effect', 'hidden: real/allowed'], ...writeRows])) lines.push(`  ${line}`)
  const reads = [...summary].filter(([, c]) => c.kind === 'read')
  for (const line of table([['read category', 'cases', 'refused'], ...reads.map(([name, c]) => [name.slice(5), c.cases, c.refused])])) lines.push(`  ${line}`)
  const real = results.filter((r) => r.kind === 'write' && r.visible && r.outcome !== 'no-effect')
  const by = (field) => {
    const groups = new Map()
    for (const r of real) {
      const g = groups.get(r[field]) ?? [0, 0]
      g[0] += 1
      if (r.outcome === 'allowed') g[1] += 1
      groups.set(r[field], g)
    }
    return table([[`by ${field} (visible real writes)`, 'real', 'allowed', 'share'], ...[...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, [n, allowed]]) => [name, n, allowed, pct(allowed, n)])])
  }
  for (const field of ['language', 'spelling', 'channel', 'target']) {
    for (const line of by(field)) lines.push(`  ${line}`)
  }
  const allowed = real.filter((r) => r.outcome === 'allowed').length
  const readRefused = results.filter((r) => r.kind === 'read' && r.outcome === 'refused').length
  const readCount = results.filter((r) => r.kind === 'read').length
  lines.push(
    `SHARE: ${allowed} of ${real.length} real writes whose guarded path is visible in the call were allowed: ${pct(allowed, real.length)} (the fail-closed analysis of docs/decisions.md#p-18 aims below 2%)`,
    `reads: ${readRefused} of ${readCount} refused; write cases with no effect here: ${results.filter((r) => r.outcome === 'no-effect').length}`,
  )
  return lines
}

/** The ratchet's numbers for a run: per write category, real writes with a visible path and how many were allowed. */
export function baselineOf(results, cases) {
  const categories = {}
  for (const [name, c] of summarize(results)) if (c.kind === 'write') categories[name] = { real: c.real, allowed: c.allowed }
  return { seed: SEED, sample: { cases: cases.length, fingerprint: fingerprint(cases) }, categories }
}

async function main(args) {
  // Interrupted, the run still removes its fixtures (they are removed on exit).
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))
  const status = sandboxStatus()
  if (!status.ok) {
    console.error(`generate: cannot run cases: ${status.reason}`)
    process.exit(2)
  }
  const option = (name) => {
    const at = args.indexOf(name)
    return at === -1 ? undefined : args[at + 1]
  }
  const long = args.includes('--long')
  const seed = Number(option('--seed') ?? SEED)
  const filter = option('--filter') && new RegExp(option('--filter'))
  let cases = long ? allCases() : sampleCases(seed)
  if (filter) cases = cases.filter((c) => filter.test(c.id))
  if (args.includes('--list')) {
    for (const c of cases) console.log(`${c.id}\n${c.command}\n`)
    return
  }
  const started = Date.now()
  console.error(`generate: ${cases.length} cases (${long ? 'the whole space' : `the bounded sample, seed ${seed}`}), ${defaultJobs()} at a time`)
  const { results, skipped, missing } = await runCases(cases, { progress: (done, total) => console.error(`  ${done}/${total}`) })
  for (const line of report(results)) console.log(line)
  if (skipped.length > 0) console.log(`not run: ${skipped.length} cases need ${[...missing].join(', ')}, not on this machine`)
  const { loadRegistry } = await import('./registry.mjs')
  const known = new Set(loadRegistry().filter((e) => e.kind === 'generator').map((e) => e.generator))
  const unregistered = results.filter((r) => r.kind === 'read' && r.outcome === 'refused' && !known.has(r.id))
  const wrote = results.filter((r) => r.outcome === 'wrote')
  for (const r of unregistered) console.log(`refused read, not in the registry: ${r.id}`)
  for (const r of wrote) console.log(`a read case changed a guarded file (generator defect): ${r.id}: ${r.changes.map((x) => `${x.change} ${x.path}`).join(', ')}`)
  console.log(`${results.length} cases run in ${Math.round((Date.now() - started) / 1000)} s`)
  if (args.includes('--update-baseline')) {
    if (long || filter || seed !== SEED) throw new Error('--update-baseline takes the bounded sample with the default seed, unfiltered')
    if (skipped.length > 0) throw new Error(`--update-baseline needs every program of the sample; missing: ${[...missing].join(', ')}`)
    writeFileSync(BASELINE, baselineText(baselineOf(results, cases)))
    console.log(`wrote ${BASELINE.pathname}`)
  }
  if (unregistered.length > 0 || wrote.length > 0) process.exitCode = 1
}

export const readBaseline = () => JSON.parse(readFileSync(BASELINE, 'utf8'))

/** The baseline as JSON with one category a line, so a diff shows which numbers moved. */
function baselineText({ seed, sample, categories }) {
  const about = 'The generator ratchet (docs/oracle.md): per write category of the bounded sample, the real writes with a visible guarded path and how many of them checkGuard allowed. An allowed count may only go down.'
  const rows = Object.entries(categories).map(([name, counts]) => `    ${JSON.stringify(name)}: ${JSON.stringify(counts)}`)
  return `{\n  "about": ${JSON.stringify(about)},\n  "seed": ${seed},\n  "sample": ${JSON.stringify(sample)},\n  "categories": {\n${rows.join(',\n')}\n  }\n}\n`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
