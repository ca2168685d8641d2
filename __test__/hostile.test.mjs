// Hostile JS values at every export: checkGuard never throws; the others answer with a refusal or
// throw a clear InvalidArg error, never crash, never write on bad input.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import * as api from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`

const throwingGetter = { get name() { throw new Error('getter') } }
const trap = new Proxy({}, { get() { throw new Error('trap') }, has() { throw new Error('trap') } })
function nested(depth) {
  let value = { file_path: 'x' }
  for (let i = 0; i < depth; i++) value = { arguments: value, name: 'write' }
  return value
}

const VALUES = [
  undefined, null, 0, -1, NaN, 1n, true, Symbol('s'), () => 'write', [], ['write'], {},
  throwingGetter, trap, Object.freeze({ name: 'write' }), 'write', '\ud800', 'a\0b', nested(10_000),
]

describe('checkGuard', () => {
  test('never throws, whatever the call and cwd', () => {
    for (const call of VALUES) {
      for (const cwd of VALUES) {
        const verdict = api.checkGuard(call, cwd)
        assert.ok(verdict === null || verdict.startsWith(BLOCKED))
      }
      for (const args of VALUES) {
        for (const name of ['write', 'edit', 'multi_edit', 'str_replace_editor', 'subagent', 'workflow', 'bash']) {
          const verdict = api.checkGuard({ name, arguments: args }, '/repo')
          assert.ok(verdict === null || verdict.startsWith(BLOCKED))
        }
      }
    }
  })

  test('lone surrogates and NUL bytes in paths still meet gate C', () => {
    for (const file_path of ['\ud800/approval.md', 'dir\0/approval.md', 'openspec/changes/\udfff\ud800/APPROVAL.md']) {
      assert.equal(api.checkGuard({ name: 'write', arguments: { file_path, content: 'x' } }, '/repo'), ONLY_APPROVE, file_path)
    }
    assert.equal(api.checkGuard({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/\0.md', content: '\ud800' } }, '/repo'), NEEDS_SPEC)
  })

  test('frozen and proxied arguments are read like plain ones', () => {
    const frozen = Object.freeze({ name: 'write', arguments: Object.freeze({ file_path: 'approval.md', content: 'x' }) })
    assert.equal(api.checkGuard(frozen, '/repo'), ONLY_APPROVE)
    const proxied = new Proxy({ file_path: 'approval.md', content: 'x' }, {})
    assert.equal(api.checkGuard({ name: 'write', arguments: proxied }, '/repo'), ONLY_APPROVE)
  })

  test('100 MB strings are judged, not dropped', () => {
    const huge = 'x'.repeat(100_000_000)
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(api.checkGuard({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/p.md', content: huge } }, repo.root), NEEDS_SPEC)
    assert.equal(api.checkGuard({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/p.md', content: planText('feat') + huge } }, repo.root), null)
    assert.equal(api.checkGuard({ name: 'subagent', arguments: { prompt: `${huge} docs/superpowers/plans/missing.md` } }, repo.root), `${BLOCKED}plan not approved; run /approve <id> plan`)
    assert.equal(api.checkGuard({ name: 'write', arguments: { file_path: huge, content: 'x' } }, repo.root), null)
  })

  test('a huge edits array is judged element by element', () => {
    const edits = Array.from({ length: 100_000 }, () => ({ old_string: 'a', new_string: '**Spec:** openspec/changes/feat/' }))
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(api.checkGuard({ name: 'multi_edit', arguments: { file_path: 'docs/superpowers/plans/p.md', edits } }, repo.root), null)
    edits.push({ get new_string() { throw new Error('getter') } })
    assert.equal(api.checkGuard({ name: 'multi_edit', arguments: { file_path: 'docs/superpowers/plans/p.md', edits } }, repo.root), NEEDS_SPEC)
  })
})

describe('checkApproval, writeApproval, loopStatus', () => {
  test('non-string ids and kinds are usage refusals, nothing written', () => {
    const repo = makeRepo().change('feat')
    for (const value of VALUES.filter((v) => typeof v !== 'string')) {
      const checked = api.checkApproval(value, 'design', repo.root)
      assert.equal(checked.ok, false)
      assert.match(checked.message, /^usage: \/approve <change-id> design\|plan \(change id must be a string\)$/)
      assert.equal(api.writeApproval('feat', value, true, repo.root).approved, false)
    }
    for (const id of ['a\0b', '\ud800/x', '..', 'x'.repeat(100_000)]) {
      assert.equal(api.writeApproval(id, 'design', true, repo.root).approved, false, id.slice(0, 20))
    }
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })

  test('a non-string cwd or expectSha256 throws a clear InvalidArg error', () => {
    const calls = [
      [() => api.checkApproval('feat', 'design', 7), 'cwd'],
      [() => api.writeApproval('feat', 'design', true, {}), 'cwd'],
      [() => api.writeApproval('feat', 'plan', true, undefined, 5), 'expectSha256'],
      [() => api.loopStatus(['/repo']), 'cwd'],
    ]
    for (const [call, argument] of calls) {
      assert.throws(call, { code: 'InvalidArg', message: `approval-gates: ${argument} must be a string` })
    }
  })

  test('NUL bytes and lone surrogates in cwd refuse instead of crashing', () => {
    for (const cwd of ['/tmp/\0', '/tmp/\ud800']) {
      assert.equal(api.checkApproval('feat', 'design', cwd).ok, false)
      assert.equal(api.writeApproval('feat', 'design', true, cwd).approved, false)
      assert.deepEqual(api.loopStatus(cwd), [])
    }
  })
})
