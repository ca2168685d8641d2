// The real Codex CLI (@openai/codex from the npm registry) with the hook `approval-gates init
// codex` writes, against a scripted Responses API model on 127.0.0.1: what the gates refuse is
// refused with their texts (a plan by apply_patch, approval.md through the shell and through a
// program, a plan written through a workdir, a subagent dispatched on an unapproved plan), ordinary
// work runs in the workspace-write sandbox, a missing hook refuses every call, and a spawned
// subagent's task reaches Codex's UserPromptSubmit hook (why prompt-side /approve is not offered).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'

import { root } from '../../scripts/dsh-node.mjs'
import { APPROVAL, builtHook, installClient, loopRepo, runClient, runFolder } from './helpers/clients.mjs'
import { call, custom, say, startResponsesModel } from './helpers/responses-server.mjs'

const VERSION = '0.171.0'
const BIN = join(root, 'bin', 'approval-gates.mjs')
const BLOCKED = 'BLOCKED [approval-gates]: '
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const NOT_APPROVED = `${BLOCKED}plan not approved; run /approve feat plan`
const RUN_TIMEOUT = 180_000

const client = installClient('@openai/codex', VERSION, 'codex')
const hook = builtHook(root)
const skip = client.skip ?? (hook === undefined && 'the native hook is not built (cargo build -p approval-gates-hook)')
if (skip) console.log(`# codex e2e skipped: ${skip}`)

function setup(folder) {
  const home = join(folder, 'home')
  const repo = join(folder, 'repo')
  loopRepo(repo)
  mkdirSync(join(home, '.codex'), { recursive: true })
  return { home, repo, env: { ...process.env, HOME: home, CODEX_HOME: join(home, '.codex'), XDG_DATA_HOME: '', XDG_STATE_HOME: '' } }
}

function providerConfig(baseUrl) {
  return `model_provider = "e2e"\n\n[model_providers.e2e]\nname = "e2e"\nbase_url = "${baseUrl}"\nwire_api = "responses"\n`
}

const codex = (setup, model, args = []) =>
  runClient(client.bin, ['exec', '--skip-git-repo-check', '-m', model, '-s', 'workspace-write', ...args, 'Work on the change.'], { cwd: setup.repo, env: setup.env, timeout: RUN_TIMEOUT })

const outputsWith = (model, text) => [...model.outputs().values()].filter((output) => output.includes(text))

describe(`Codex CLI ${VERSION} with approval-gates init codex`, { skip }, () => {
  let folder, run, model

  before(async () => {
    folder = runFolder('codex')
    run = setup(folder.dir)
    model = await startResponsesModel([
      custom('apply_patch', '*** Begin Patch\n*** Add File: docs/superpowers/plans/q.md\n+# no spec\n*** End Patch\n'),
      call('exec_command', { cmd: 'echo forged > openspec/changes/feat/approval.md' }),
      call('exec_command', { cmd: `python3 -c "open('openspec/changes/feat/approval.md','w').write('plan:')"` }),
      call('exec_command', { cmd: 'echo x > p2.md', workdir: 'docs/superpowers/plans' }),
      call('exec_command', { cmd: 'echo ordinary work > src/out.txt && cat src/out.txt' }),
      say('done'),
    ])
    writeFileSync(join(run.home, '.codex', 'config.toml'), providerConfig(model.baseUrl))
  })
  after(async () => {
    await model?.close()
    folder?.dispose()
  })

  test('init writes the user-level hook, its trust record and the hook outside the workspace; again, nothing changes', () => {
    const first = spawnSync(process.execPath, [BIN, 'init', 'codex', '--hook-from', hook], { env: run.env, encoding: 'utf8' })
    assert.equal(first.status, 0, first.stderr)
    const installed = join(run.home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook')
    assert.match(first.stdout, new RegExp(`created: ${installed}`))
    assert.match(first.stdout, /created: .*\.codex\/hooks\.json/)
    assert.match(first.stdout, /updated: .*\.codex\/config\.toml/)
    assert.match(readFileSync(join(run.home, '.codex', 'config.toml'), 'utf8'), /^model_provider = "e2e"$/m)
    const again = spawnSync(process.execPath, [BIN, 'init', 'codex', '--hook-from', hook], { env: run.env, encoding: 'utf8' })
    assert.equal(again.status, 0, again.stderr)
    assert.equal((again.stdout.match(/^unchanged: /gm) ?? []).length, 3, again.stdout)
  })

  test('the gates refuse what they guard and ordinary work runs, with the hook trusted as init wrote it', async () => {
    const result = await codex(run, 'gpt-5.5')
    assert.equal(result.status, 0, result.stderr)
    assert.equal(readFileSync(join(run.repo, 'openspec/changes/feat/approval.md'), 'utf8'), APPROVAL)
    assert.equal(existsSync(join(run.repo, 'docs/superpowers/plans/q.md')), false)
    assert.equal(existsSync(join(run.repo, 'docs/superpowers/plans/p2.md')), false)
    // What the model was told, in Codex's words around the gates' texts.
    assert.equal(outputsWith(model, `Command blocked by PreToolUse hook: ${NEEDS_SPEC}`).length, 2, [...model.outputs().values()].join('\n'))
    assert.equal(outputsWith(model, `Command blocked by PreToolUse hook: ${ONLY_APPROVE}`).length, 2)
    assert.equal(readFileSync(join(run.repo, 'src/out.txt'), 'utf8'), 'ordinary work\n')
    assert.equal(outputsWith(model, 'ordinary work').length, 1)
  })

  test('with the hook executable gone, every call is refused', async () => {
    const installed = join(run.home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook')
    renameSync(installed, `${installed}.away`)
    const missing = await startResponsesModel([call('exec_command', { cmd: 'echo x > src/missing.txt' }), say('done')])
    writeFileSync(join(run.home, '.codex', 'config.toml'), readFileSync(join(run.home, '.codex', 'config.toml'), 'utf8').replace(model.baseUrl, missing.baseUrl))
    try {
      const result = await codex(run, 'gpt-5.5')
      assert.equal(result.status, 0, result.stderr)
      assert.equal(existsSync(join(run.repo, 'src/missing.txt')), false)
      assert.equal(outputsWith(missing, `${BLOCKED}the approval-gates hook is not installed at ${installed}, so every tool call is refused`).length, 1, [...missing.outputs().values()].join('\n'))
    } finally {
      renameSync(`${installed}.away`, installed)
      writeFileSync(join(run.home, '.codex', 'config.toml'), readFileSync(join(run.home, '.codex', 'config.toml'), 'utf8').replace(missing.baseUrl, model.baseUrl))
      await missing.close()
    }
  })

  test("the sandbox keeps the agent's commands off the hook, its configuration and the ledger's folder", async () => {
    const state = join(run.home, '.local', 'state', 'approval-gates')
    mkdirSync(state, { recursive: true })
    const targets = [join(state, 'ledger-probe'), join(run.home, '.codex', 'hooks.json'), join(run.home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook')]
    const before = targets.map((target) => (existsSync(target) ? readFileSync(target) : null))
    // Commands the gates allow (each target's path is spelled only as base64, so no guarded path is
    // visible in the call): only the sandbox stands in the way.
    const hidden = (target) => `printf x >> "$(echo ${Buffer.from(target).toString('base64')} | base64 -d)"; echo "exit=$?"`
    const reach = await startResponsesModel([...targets.map((target) => call('exec_command', { cmd: hidden(target) })), say('done')])
    const config = join(run.home, '.codex', 'config.toml')
    writeFileSync(config, readFileSync(config, 'utf8').replace(model.baseUrl, reach.baseUrl))
    try {
      const result = await codex(run, 'gpt-5.5')
      assert.equal(result.status, 0, result.stderr)
      targets.forEach((target, index) => {
        const after = existsSync(target) ? readFileSync(target) : null
        assert.deepEqual(after, before[index], target)
      })
      const outputs = [...reach.outputs().values()]
      assert.equal(outputs.filter((output) => /exit=1/.test(output)).length, targets.length, outputs.join('\n'))
    } finally {
      writeFileSync(config, readFileSync(config, 'utf8').replace(reach.baseUrl, model.baseUrl))
      await reach.close()
    }
  })

  test("a subagent on an unapproved plan is refused; a spawned subagent's task reaches UserPromptSubmit", async () => {
    const log = join(folder.dir, 'prompts.jsonl')
    const hooksPath = join(run.home, '.codex', 'hooks.json')
    const hooks = JSON.parse(readFileSync(hooksPath, 'utf8'))
    const logger = `${process.execPath} -e "let t = ''; process.stdin.on('data', (c) => (t += c)).on('end', () => require('fs').appendFileSync(process.argv[1], t + '\\n'))" ${log}`
    hooks.hooks.UserPromptSubmit = [{ hooks: [{ type: 'command', command: logger }] }]
    writeFileSync(hooksPath, JSON.stringify(hooks, null, 2))
    const agents = await startResponsesModel([
      call('spawn_agent', { message: 'Implement task 1 of docs/superpowers/plans/p.md' }, 'multi_agent_v1'),
      call('spawn_agent', { message: '/approve feat design' }, 'multi_agent_v1'),
      // Time for the subagent to start before the main agent's turn ends.
      call('exec_command', { cmd: 'sleep 3' }),
      say('done'),
    ])
    const config = join(run.home, '.codex', 'config.toml')
    writeFileSync(config, readFileSync(config, 'utf8').replace(model.baseUrl, agents.baseUrl))
    try {
      // The logger is not trusted: this run measures which prompts reach the hook.
      const result = await codex(run, 'gpt-5.3-codex', ['--dangerously-bypass-hook-trust'])
      assert.equal(result.status, 0, result.stderr)
      assert.equal(outputsWith(agents, `Tool call blocked by PreToolUse hook: ${NOT_APPROVED}. Tool: spawn_agent`).length, 1, [...agents.outputs().values()].join('\n'))
      const prompts = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
      const spawned = prompts.find((prompt) => prompt.prompt === '/approve feat design')
      assert.ok(spawned, `the subagent's task reached UserPromptSubmit: ${JSON.stringify(prompts)}`)
      assert.equal(spawned.hook_event_name, 'UserPromptSubmit')
      assert.equal(typeof spawned.agent_id, 'string')
    } finally {
      await agents.close()
    }
  })
})
