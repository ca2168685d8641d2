// The real Gemini CLI (@google/gemini-cli from the npm registry) with the hook `approval-gates
// init gemini` writes, against a scripted Gemini API model on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL):
// a plan by write_file, approval.md through the shell and through a program, and a subagent
// invoked on an unapproved plan are refused with the gates' texts; ordinary work runs; a missing
// hook refuses every call; and a subagent's prompt does not reach Gemini CLI's BeforeAgent hook.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'

import { root } from '../../scripts/dsh-node.mjs'
import { APPROVAL, builtHook, installClient, loopRepo, runClient, runFolder } from './helpers/clients.mjs'
import { call, say, startGeminiModel } from './helpers/gemini-server.mjs'

const VERSION = '0.61.0'
const BIN = join(root, 'bin', 'approval-gates.mjs')
const BLOCKED = 'BLOCKED [approval-gates]: '
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const NOT_APPROVED = `${BLOCKED}plan not approved; run /approve feat plan`
const RUN_TIMEOUT = 180_000

const client = installClient('@google/gemini-cli', VERSION, 'gemini')
const hook = builtHook(root)
const skip = client.skip ?? (hook === undefined && 'the native hook is not built (cargo build -p approval-gates-hook)')
if (skip) console.log(`# gemini e2e skipped: ${skip}`)

function setup(folder) {
  const home = join(folder, 'home')
  const repo = join(folder, 'repo')
  loopRepo(repo)
  mkdirSync(join(home, '.gemini'), { recursive: true })
  // An API key for the scripted model; the key's auth type, so no login is asked for.
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2))
  return { home, repo, env: { ...process.env, HOME: home, XDG_DATA_HOME: '', XDG_STATE_HOME: '', GEMINI_API_KEY: 'e2e' } }
}

const gemini = (setup, model) =>
  runClient(client.bin, ['-p', 'Work on the change.', '-y', '--skip-trust', '-o', 'json'], {
    cwd: setup.repo,
    env: { ...setup.env, GOOGLE_GEMINI_BASE_URL: model.baseUrl },
    timeout: RUN_TIMEOUT,
  })

const shown = (model) => model.responses().map((r) => `${r.name}: ${JSON.stringify(r.response)}`)
const responsesWith = (model, text) => shown(model).filter((line) => line.includes(JSON.stringify(text).slice(1, -1)))

describe(`Gemini CLI ${VERSION} with approval-gates init gemini`, { skip }, () => {
  let folder, run

  before(() => {
    folder = runFolder('gemini')
    run = setup(folder.dir)
  })
  after(() => folder?.dispose())

  test('init merges the user-level BeforeTool hook and installs the hook outside the workspace; again, nothing changes', () => {
    const first = spawnSync(process.execPath, [BIN, 'init', 'gemini', '--hook-from', hook], { env: run.env, encoding: 'utf8' })
    assert.equal(first.status, 0, first.stderr)
    assert.match(first.stdout, /updated: .*\.gemini\/settings\.json/)
    const settings = JSON.parse(readFileSync(join(run.home, '.gemini', 'settings.json'), 'utf8'))
    assert.equal(settings.security.auth.selectedType, 'gemini-api-key')
    assert.equal(settings.hooks.BeforeTool.length, 1)
    const again = spawnSync(process.execPath, [BIN, 'init', 'gemini', '--hook-from', hook], { env: run.env, encoding: 'utf8' })
    assert.equal((again.stdout.match(/^unchanged: /gm) ?? []).length, 2, again.stdout)
  })

  test('the gates refuse what they guard, ordinary work runs', async () => {
    const model = await startGeminiModel([
      call('write_file', { file_path: 'docs/superpowers/plans/q.md', content: '# no spec\n' }),
      call('run_shell_command', { command: 'echo forged > approval.md', dir_path: 'openspec/changes/feat', description: 'write' }),
      call('run_shell_command', { command: `node -e "require('fs').writeFileSync('openspec/changes/feat/approval.md', 'plan:')"`, description: 'write' }),
      call('invoke_agent', { agent_name: 'generalist', prompt: 'Implement task 1 of docs/superpowers/plans/p.md' }),
      call('write_file', { file_path: 'src/out.txt', content: 'ordinary work\n' }),
      call('run_shell_command', { command: 'cat src/out.txt', description: 'read' }),
      say('done'),
    ])
    try {
      const result = await gemini(run, model)
      assert.equal(result.signal, null, result.stderr)
      assert.equal(readFileSync(join(run.repo, 'openspec/changes/feat/approval.md'), 'utf8'), APPROVAL)
      assert.equal(existsSync(join(run.repo, 'docs/superpowers/plans/q.md')), false)
      const lines = shown(model).join('\n')
      assert.equal(responsesWith(model, NEEDS_SPEC).length, 1, lines)
      assert.equal(responsesWith(model, ONLY_APPROVE).length, 2, lines)
      assert.equal(responsesWith(model, NOT_APPROVED).length, 1, lines)
      assert.equal(readFileSync(join(run.repo, 'src/out.txt'), 'utf8'), 'ordinary work\n')
      assert.ok(responsesWith(model, 'ordinary work').some((line) => line.startsWith('run_shell_command')), lines)
    } finally {
      await model.close()
    }
  })

  test('with the hook executable gone, every call is refused', async () => {
    const installed = join(run.home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook')
    renameSync(installed, `${installed}.away`)
    const model = await startGeminiModel([call('write_file', { file_path: 'src/missing.txt', content: 'x' }), say('done')])
    try {
      await gemini(run, model)
      assert.equal(existsSync(join(run.repo, 'src/missing.txt')), false)
      assert.equal(responsesWith(model, `${BLOCKED}the approval-gates hook is not installed at ${installed}, so every tool call is refused`).length, 1, shown(model).join('\n'))
    } finally {
      renameSync(`${installed}.away`, installed)
      await model.close()
    }
  })

  test("a subagent's prompt does not reach BeforeAgent; the owner's and a nested client's do", async () => {
    const log = join(folder.dir, 'prompts.jsonl')
    const path = join(run.home, '.gemini', 'settings.json')
    const settings = JSON.parse(readFileSync(path, 'utf8'))
    const logger = `${process.execPath} -e "let t = ''; process.stdin.on('data', (c) => (t += c)).on('end', () => require('fs').appendFileSync(process.argv[1], t + '\\\\n'))" ${log}`
    writeFileSync(path, JSON.stringify({ ...settings, hooks: { ...settings.hooks, BeforeAgent: [{ hooks: [{ name: 'e2e-prompts', type: 'command', command: logger }] }] } }, null, 2))
    // The nested client's model is a closed port on 127.0.0.1: BeforeAgent runs before it is asked.
    const nested = `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9 timeout 30 '${client.bin}' -p '/approve feat plan' -y --skip-trust -o json > /dev/null 2>&1; echo nested=$?`
    const model = await startGeminiModel([
      call('invoke_agent', { agent_name: 'generalist', prompt: '/approve feat design' }),
      call('run_shell_command', { command: nested, description: 'nested client' }),
      say('done'),
    ])
    try {
      await gemini(run, model)
      const prompts = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).prompt)
      // The owner's prompt and the nested client's reach BeforeAgent; the subagent's does not.
      assert.equal(prompts[0], 'Work on the change.')
      assert.ok(prompts.includes('/approve feat plan'), JSON.stringify(prompts))
      assert.ok(!prompts.includes('/approve feat design'), JSON.stringify(prompts))
    } finally {
      writeFileSync(path, JSON.stringify(settings, null, 2))
      await model.close()
    }
  })
})
