// `npm run demo` keeps working: the walk through the loop prints, in order, what the issue lists.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

test('the demo walks the loop', () => {
  const demo = fileURLToPath(new URL('../../demo/loop.mjs', import.meta.url))
  const child = spawnSync(process.execPath, [demo], { encoding: 'utf8' })
  assert.equal(child.status, 0, child.stderr)
  const seen = child.stdout
    .split('\n')
    .filter((line) => /reads {4}│ (Error: BLOCKED|success|plan .* approved|dispatched|<path>)/.test(line))
    .map((line) => line.replace(/^.*│ /, '').replace(/<path>.*/, '<written>').replace(/\(sha256 \w+\)/, '(sha256 …)'))
  assert.deepEqual(seen, [
    'Error: BLOCKED [approval-gates]: design not approved; run /approve add-login design',
    'success: design of add-login approved',
    '<written>',
    'Error: BLOCKED [approval-gates]: plan not approved; run /approve add-login plan',
    'plan docs/superpowers/plans/add-login.md of add-login approved (sha256 …)',
    'dispatched: task 1',
    '<written>',
    'Error: BLOCKED [approval-gates]: plan changed after approval; re-approve',
    'Error: BLOCKED [approval-gates]: approval.md is written only by /approve',
  ])
})
