// The residual-risk registry (`__test__/fixtures/oracle-known.jsonl`): one line per known bypass
// and per accepted over-refusal, each naming what it is about (a corpus row, a generated case or a
// session call), its class and a one-line reason. The suites fail on a finding the registry does
// not hold, and on an entry that no longer reproduces, so the registry can only shrink.
import { readFileSync } from 'node:fs'

export const REGISTRY = new URL('../fixtures/oracle-known.jsonl', import.meta.url)
const KINDS = { corpus: ['bypass', 'over-refusal'], generator: ['over-refusal'], session: ['over-refusal'] }

/** The key an entry or a finding is known by: `corpus:bash:<cmd>`, `generator:<id>`, `session:<file>#<id>`. */
export const keyOf = (entry) =>
  entry.corpus !== undefined ? `corpus:${entry.corpus}:${entry.cmd}` : entry.generator !== undefined ? `generator:${entry.generator}` : `session:${entry.session}`

/** Every entry, checked: a known kind and class, a reason, no key twice. Throws on a malformed file. */
export function loadRegistry(url = REGISTRY) {
  const entries = []
  const seen = new Set()
  readFileSync(url, 'utf8')
    .split('\n')
    .forEach((line, at) => {
      if (line.trim() === '') return
      const where = `oracle-known.jsonl:${at + 1}`
      let entry
      try {
        entry = JSON.parse(line)
      } catch (error) {
        throw new Error(`${where}: not JSON (${error.message})`)
      }
      const kind = Object.keys(KINDS).find((name) => entry[name] !== undefined)
      if (kind === undefined) throw new Error(`${where}: names no corpus row, generator case or session call`)
      if (kind === 'corpus' && typeof entry.cmd !== 'string') throw new Error(`${where}: a corpus entry needs its row's cmd`)
      if (!KINDS[kind].includes(entry.class)) throw new Error(`${where}: class ${JSON.stringify(entry.class)} is not one of ${KINDS[kind].join(', ')} for a ${kind} entry`)
      if (typeof entry.reason !== 'string' || entry.reason.trim() === '') throw new Error(`${where}: no reason`)
      const key = keyOf(entry)
      if (seen.has(key)) throw new Error(`${where}: ${key} is listed twice`)
      seen.add(key)
      entries.push({ ...entry, kind, key, line: at + 1 })
    })
  return entries
}

/**
 * Compares findings with the registry's entries of one scope. `findings`: key → `{ class, text }`
 * for every bypass or over-refusal found. `evaluated`: key → `{ class, unverifiable? }` for every
 * item this run judged (an entry whose item was not run here, or could not run, is not stale).
 * `exists(key)`: whether an entry's item is still in the corpus or space at all.
 */
export function reconcile(entries, findings, evaluated, exists) {
  const known = new Map(entries.map((entry) => [entry.key, entry]))
  const unregistered = [...findings].filter(([key, finding]) => known.get(key)?.class !== finding.class)
  const stale = []
  const unverified = []
  for (const entry of entries) {
    if (!exists(entry.key)) {
      stale.push({ entry, now: 'gone: no such item any more' })
      continue
    }
    const now = evaluated.get(entry.key)
    if (now === undefined || now.unverifiable) {
      unverified.push({ entry, now: now?.unverifiable ?? 'not run in this sample' })
      continue
    }
    if (now.class !== entry.class) stale.push({ entry, now: now.class })
  }
  return { unregistered, stale, unverified }
}

/** A failure message for what `reconcile` found, or `null`. */
export function reconcileMessage(scope, { unregistered, stale }) {
  const lines = []
  for (const [key, finding] of unregistered) lines.push(`  new ${finding.class} (${scope}): ${finding.text ?? key}`)
  for (const { entry, now } of stale)
    lines.push(`  registry line ${entry.line} no longer reproduces (${entry.class} → ${now}): ${entry.key}\n    remove it from __test__/fixtures/oracle-known.jsonl`)
  if (lines.length === 0) return null
  return `${lines.length} mismatch(es) between what ran and the registry:\n${lines.join('\n')}\n` +
    'A new bypass or over-refusal is a defect to fix, or, once adjudicated, a line in __test__/fixtures/oracle-known.jsonl (see docs/oracle.md).'
}
