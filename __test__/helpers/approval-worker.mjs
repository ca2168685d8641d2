// One process of the concurrency test: `node approval-worker.mjs <role> <root> <count>`.
//   design  approves the design <count> times
//   plan    approves the plan <count> times, with the hash it was shown (P-10)
//   planner rewrites the plan <count> times, atomically, printing each version's sha256
//   reader  parses approval.md until <root>/stop exists, printing what it saw as JSON
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { checkApproval, writeApproval } from '../../index.js'

const [role, root, count] = process.argv.slice(2)
const approvalFile = join(root, 'openspec/changes/feat/approval.md')
const planFile = join(root, 'docs/superpowers/plans/p.md')

// The only shapes approval.md may have: the sections this package writes, plus the unknown one.
const SECTION = /^(design:\n {2}by: owner\n {2}at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n|plan:\n {2}by: owner\n {2}at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n {2}sha256: ([0-9a-f]{64})\n|notes:\n {2}keep: me\n)/

function parse(text) {
  const seen = { design: 0, plan: 0, notes: 0, sha256: null }
  let rest = text
  while (rest.length > 0) {
    const match = SECTION.exec(rest)
    if (!match) return { torn: text }
    seen[match[1].slice(0, match[1].indexOf(':'))] += 1
    if (match[2]) seen.sha256 = match[2]
    rest = rest.slice(match[0].length)
  }
  return seen
}

const results = []
for (let i = 0; role === 'reader' ? !existsSync(join(root, 'stop')) : i < Number(count); i++) {
  if (role === 'design') {
    results.push(writeApproval('feat', 'design', true, root).approved)
  } else if (role === 'plan') {
    const ready = checkApproval('feat', 'plan', root)
    results.push(ready.ok && writeApproval('feat', 'plan', true, root, ready.sha256).approved)
  } else if (role === 'planner') {
    const text = `# Plan\n\n**Spec:** openspec/changes/feat/design.md\n\nversion ${process.pid}-${i}\n`
    writeFileSync(`${planFile}.tmp`, text)
    renameSync(`${planFile}.tmp`, planFile)
    results.push(createHash('sha256').update(text).digest('hex'))
  } else if (role === 'reader') {
    results.push(parse(readFileSync(approvalFile, 'utf8')))
  }
}
process.stdout.write(JSON.stringify(results))
