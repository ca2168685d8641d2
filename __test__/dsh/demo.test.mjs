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
    .filter((line) => /reads {4}│ (Error: BLOCKED|approve ·|not confirmed|plan .* approved|dispatched|Created|Updated)/.test(line))
    .map((line) => line.replace(/^.*│ /, '').replace(/\(sha256 \w+\)/, '(sha256 …)'))
  assert.deepEqual(seen, [
    'Error: BLOCKED [approval-gates]: design not approved; run /approve add-login design',
    'approve · design of add-login approved',
    'Created file: docs/superpowers/plans/add-login.md',
    'Error: BLOCKED [approval-gates]: plan not approved; run /approve add-login plan',
    'not confirmed, nothing was written: the owner declined (Cancel)',
    'plan docs/superpowers/plans/add-login.md of add-login approved (sha256 …)',
    'dispatched: task 1',
    'Updated file: docs/superpowers/plans/add-login.md',
    'Error: BLOCKED [approval-gates]: plan changed after approval; re-approve',
    'Error: BLOCKED [approval-gates]: approval.md is written only by /approve',
  ])
  // What the owner reads is the card as rendered, never its markup or DSH's tool-result tags.
  assert.match(child.stdout, /owner reads {4}│ The agent asks you for this approval, with its request_approval tool/)
  assert.match(child.stdout, /owner reads {4}│ - \[ \] task 1: the login form/)
  assert.match(child.stdout, /owner reads {4}│ \(the card of step 5 again\)/)
  assert.doesNotMatch(child.stdout, /<path>|<content>|\*\*|`/)
})
