// `approval-gates seal`: the owner records in the approval ledger the approval.md sections it does
// not hold, and seals the repository (P-17). Printing, the owner's yes and exit codes only; the
// engine surveys and records.
import { resolve } from 'node:path'

import { sealApprovals, sealSurvey } from '../../index.js'
import { askYes, ownerRefusal } from './owner.mjs'

export const name = 'seal'

export const help = `usage: approval-gates seal [--cwd DIR]

Seals the approvals of the repository: from then on an approval.md section counts only when the
approval ledger (outside every workspace) holds the same approval. Lists each approval.md section
the ledger does not hold, and each approval only the ledger holds (an approval.md write that
failed), and on your typed yes records the first in the ledger and writes the second back into
approval.md. Record only approvals you gave: a section you do not recognise may have been forged
by an agent. With nothing to record it seals the repository as it is, which is how a new
repository becomes enforced before its first approval (a first /approve seals it too).

Same terminal checks as approve: refused when stdin is not a terminal or an agent drives it.

  --cwd DIR  the repository root (default: the current directory)
`

export const options = { help: { type: 'boolean', short: 'h' }, cwd: { type: 'string' } }

const REFUSED = 1

function describe(item) {
  const values = item.state === 'missing' ? item.held : item
  const plan = item.kind === 'plan' ? ` plan ${values.plan ?? item.plan ?? '?'} sha256 ${values.sha256}` : ''
  return `${item.change} ${item.kind}: by ${values.by}, at ${values.at}${plan}`
}

function sealState(survey) {
  if (survey.seal === 'open') return 'not sealed yet: a hand-written approval.md counts here'
  if (survey.sealedBy !== undefined) return `sealed by the ledger of ${survey.sealedBy}, a directory above`
  return 'sealed'
}

export async function run({ values, positionals }, io) {
  if (positionals.length > 0) {
    io.stderr.write(`approval-gates seal: unexpected argument ${JSON.stringify(positionals[0])}\n\n${help}`)
    return 2
  }
  const root = resolve(values.cwd ?? process.cwd())
  const refusal = ownerRefusal(io, 'seal', 'nothing sealed')
  if (refusal !== null) {
    io.stderr.write(`${refusal}\n`)
    return REFUSED
  }
  const survey = sealSurvey(root)
  if (survey.seal === 'broken') {
    io.stderr.write(`${survey.problem}\n`)
    return REFUSED
  }
  if (survey.ledgerFile === undefined) {
    io.stderr.write(`${sealApprovals(root, []).message}\n`)
    return REFUSED
  }
  const record = survey.items.filter((item) => item.state === 'unrecorded')
  const restore = survey.items.filter((item) => item.state === 'missing')
  const stuck = survey.items.filter((item) => item.state === 'unbindable')
  const lines = [`repository: ${survey.root}`, `ledger: ${survey.ledgerFile} (${sealState(survey)})`]
  if (record.length > 0) {
    lines.push('', 'in approval.md, not in the ledger (they do not count once sealed); to record:')
    lines.push(...record.map((item) => `  ${describe(item)}`))
  }
  if (restore.length > 0) {
    lines.push('', 'in the ledger, not in approval.md; to write back into approval.md:')
    lines.push(...restore.map((item) => `  ${describe(item)}`))
  }
  if (stuck.length > 0) {
    lines.push('', 'in approval.md, but cannot be recorded (they will not count):')
    lines.push(...stuck.map((item) => `  ${describe(item)}: ${item.reason}`))
  }
  const pending = [...record, ...restore]
  if (pending.length === 0 && survey.seal === 'sealed') {
    io.stdout.write(`${lines.join('\n')}\n\nnothing to record: approval.md and the ledger agree\n`)
    return 0
  }
  if (pending.length === 0) lines.push('', 'nothing to record: sealing makes only approvals given from now on count here')
  const question = record.length > 0 ? 'Record only approvals you gave. Type yes to record them and seal: ' : 'Type yes to seal: '
  if (!(await askYes(io, `${lines.join('\n')}\n\n${question}`))) {
    io.stderr.write('not confirmed; nothing sealed\n')
    return REFUSED
  }
  const shown = pending.map((item) => {
    const values = item.state === 'missing' ? item.held : item
    return { change: item.change, kind: item.kind, by: values.by, at: values.at, sha256: values.sha256 }
  })
  const result = sealApprovals(root, shown)
  const skipped = result.skipped.map((s) => `  skipped ${s.change} ${s.kind}: ${s.reason}\n`).join('')
  ;(result.sealed ? io.stdout : io.stderr).write(`${result.message}\n${skipped}`)
  return result.sealed ? 0 : REFUSED
}
