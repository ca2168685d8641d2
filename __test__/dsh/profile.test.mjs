// The package as a DSH profile bundle: its cordis.patch.yml row, loaded by the real cordis Loader and
// Include the way DSH boots a profile, mounts the plugin. Runs in a child Node because the Loader
// resolves bare specifiers from the config directory only through Node's internal module loader
// (DSH's launcher provides it; here --expose-internals does).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const fixture = fileURLToPath(new URL('./fixtures/profile-boot.mjs', import.meta.url))
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

test('package.json declares the bundle and its patch layer; the DSH packages are optional peers', () => {
  assert.deepEqual(manifest.dsh, { bundle: { patch: './cordis.patch.yml' } })
  assert.ok(manifest.files.includes('cordis.patch.yml'))
  assert.equal(manifest.exports['./dsh'].default, './lib/dsh-entry.mjs')
  for (const name of Object.keys(manifest.peerDependencies)) {
    assert.match(name, /^@deepseek-ai\//)
    assert.equal(manifest.peerDependenciesMeta[name]?.optional, true, name)
  }
})

test('the cordis.patch.yml row loads the plugin through the DSH Loader', () => {
  const child = spawnSync(process.execPath, ['--expose-internals', '--no-warnings', fixture], { encoding: 'utf8' })
  assert.equal(child.status, 0, child.stderr)
  const report = JSON.parse(child.stdout.trim().split('\n').at(-1))
  assert.equal(report.internals, true)
  assert.equal(report.row.name, 'approval-gates/dsh')
  for (const [id, state] of Object.entries(report.entries)) assert.equal(state, 2, `entry ${id} is active`)
  assert.equal(report.entries['approval-gates'], 2)
  assert.deepEqual(report.mainEntry, { apply: 'undefined', checkGuard: 'function' }, 'the main entry is the natives, not the plugin')
  assert.deepEqual(report.commands, ['approve'])
  assert.deepEqual(report.tools, ['request_approval'])
  assert.equal(report.guard, 'BLOCKED [approval-gates]: approval.md is written only by /approve')
})
