// Several processes approve the design and the plan of one change at once, hundreds of times,
// while the plan is rewritten and a reader parses approval.md in a loop (P-9, P-10).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'node:test'

import { loopStatus, writeApproval } from '../index.js'
import { makeRepo, planText, sha256 } from './helpers/repo.mjs'

const WORKER = fileURLToPath(new URL('./helpers/approval-worker.mjs', import.meta.url))

function worker(role, root, count) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, role, root, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${role} exited ${code}`))))
  })
}

test('concurrent approvals never tear approval.md, lose a section or record a hash that never existed', async () => {
  const repo = makeRepo().change('feat').plan('p', 'feat')
  repo.approval('feat', 'notes:\n  keep: me\n')
  assert.equal(writeApproval('feat', 'design', true, repo.root).approved, true)

  const reader = worker('reader', repo.root, 0)
  const writers = Promise.all([
    worker('design', repo.root, 150),
    worker('design', repo.root, 150),
    worker('plan', repo.root, 150),
    worker('plan', repo.root, 150),
    worker('planner', repo.root, 150),
  ])
  const [designA, designB, planA, planB, versions] = await writers
  writeFileSync(join(repo.root, 'stop'), '')
  const reads = await reader

  assert.ok([...designA, ...designB].every(Boolean), 'every design approval succeeds')
  const planApprovals = [...planA, ...planB].filter(Boolean).length
  assert.ok(planApprovals > 0, 'some plan approvals succeed while the plan keeps changing')

  const existed = new Set([sha256(planText('feat')), ...versions])
  let planSeen = false
  assert.ok(reads.length > 0)
  for (const read of reads) {
    assert.equal(read.torn, undefined, `a reader saw a torn file: ${JSON.stringify(read.torn)}`)
    assert.deepEqual([read.design, read.notes], [1, 1], 'the design and the unknown section are always there, once')
    assert.ok(read.plan <= 1)
    if (planSeen) assert.equal(read.plan, 1, 'a written plan section never disappears')
    if (read.plan === 1) {
      planSeen = true
      assert.ok(existed.has(read.sha256), `approved hash ${read.sha256} belongs to no version of the plan`)
    }
  }
  const final = repo.read('openspec/changes/feat/approval.md')
  assert.match(final, /^notes:\n {2}keep: me\ndesign:\n/)
  assert.ok(existed.has(/sha256: ([0-9a-f]{64})/.exec(final)[1]))
  assert.equal(repo.exists('openspec/changes/feat/approval.md.lock'), false)
  // The ledger was written with each approval.md write, under the same lock: they still agree (P-17).
  const [row] = loopStatus(repo.root)
  assert.deepEqual([row.designSeal, row.planSeal], ['sealed', 'sealed'])
})
