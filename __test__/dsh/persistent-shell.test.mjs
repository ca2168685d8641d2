// A persistent shell in a real DSH context (P-15): the registered tool has the parameters of
// @deepseek-ai/dsh-tool-bash-persistent (only `command`), so the guard keeps its state between
// calls; a one-shot bash (command + workdir …) keeps none; the state goes with the agent.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { defineTool } from '@deepseek-ai/dsh-tools'

import { liveShells } from '../../lib/gates.mjs'
import { createAgent } from '../../scripts/dsh-host.mjs'
import { makeRepo } from '../helpers/repo.mjs'
import { BLOCKED, openSession } from './helpers/session.mjs'

const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`

/** A `bash` (or `pwsh`) with the given parameters that only reports what it would have run. */
function registerBash(ctx, parameters, name = 'bash', answer = (command) => `ran: ${command}`) {
  return ctx.tools.register(
    defineTool({
      name,
      description: 'bash stand-in: reports the command instead of running it',
      parameters,
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute(args) {
        return answer(args.command)
      },
    }),
  )
}

const PERSISTENT = { command: { type: 'string', required: true, description: 'The bash command to run.' } }
const ONE_SHOT = {
  command: { type: 'string', required: true },
  workdir: { type: 'string' },
  timeout: { type: 'integer' },
}

describe('a persistent bash', () => {
  test('cd into the plans folder in one call, a write in the next: refused', async () => {
    const s = await openSession()
    registerBash(s.ctx, PERSISTENT)
    assert.deepEqual(await s.call('bash', { command: 'cd docs/superpowers/plans' }), {
      isError: false,
      text: 'ran: cd docs/superpowers/plans',
      value: 'ran: cd docs/superpowers/plans',
    })
    const write = await s.call('bash', { command: 'echo x > a.md' })
    assert.equal(write.isError, true)
    assert.equal(write.text, `Error: ${NEEDS_SPEC}`)
    // Reading there stays allowed.
    assert.equal((await s.call('bash', { command: 'cat a.md' })).isError, false)
  })

  test("another agent's shell starts fresh, and an agent's shell state ends with it", async () => {
    const s = await openSession()
    registerBash(s.ctx, PERSISTENT)
    await s.call('bash', { command: 'cd docs/superpowers/plans' })
    const before = liveShells.size
    const other = await createAgent(s.ctx, s.repo.root)
    const fromOther = await s.ctx.tools.execute({
      callId: 'other-1',
      name: 'bash',
      arguments: { command: 'echo x > a.md' },
      signal: new AbortController().signal,
      agent: other.agent,
    })
    assert.equal(fromOther.isError, false)
    assert.equal(liveShells.size, before + 1)
    await other.dispose()
    assert.equal(liveShells.size, before)
  })

  test('a call that ran lets go of where it started; one that reset the shell starts fresh again', async () => {
    const repo = makeRepo().change('feat').plan('p', 'feat').write('src/app.js', '')
    repo.approvePlan('feat', 'p')
    const s = await openSession({ repo })
    // DSH's persistent bash answers a timeout with partial output and this line (rc.8).
    const reset = 'The persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment.'
    registerBash(s.ctx, PERSISTENT, 'bash', (command) => (command.startsWith('sleep') ? `Your command timed out\n${reset}` : `ran: ${command}`))
    const run = async (command) => (await s.call('bash', { command })).isError
    const progress = "echo '- [x] Task 1' >> .superpowers/sdd/p/progress.md"
    // Down into src and back up: the shell is at the root, where plan p is approved.
    assert.equal(await run('cd src'), false)
    assert.equal(await run('cd ..'), false)
    assert.equal(await run(progress), false)
    // After a reset the shell may be fresh at the root, so a `cd ..` may leave it above the
    // repository, where there is no plan p.
    assert.equal(await run('cd src'), false)
    assert.equal(await run('sleep 600'), false)
    assert.equal(await run('cd ..'), false)
    assert.equal((await s.call('bash', { command: progress })).text, `Error: ${BLOCKED}plan not found: p`)
  })

  test('a one-shot bash keeps no state', async () => {
    const s = await openSession()
    registerBash(s.ctx, ONE_SHOT)
    await s.call('bash', { command: 'cd docs/superpowers/plans' })
    assert.equal((await s.call('bash', { command: 'echo x > a.md' })).isError, false)
    assert.equal((await s.call('bash', { command: 'cd docs/superpowers/plans && echo x > a.md' })).isError, true)
  })
})

describe('a persistent pwsh', () => {
  const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`

  test('a function, an alias and a variable from earlier calls are judged where they are used', async () => {
    const s = await openSession()
    registerBash(s.ctx, PERSISTENT, 'pwsh')
    const run = (command) => s.call('pwsh', { command })
    assert.equal((await run('function Enter-Plans { Set-Location docs/superpowers/plans }')).isError, false)
    assert.equal((await run('Enter-Plans; Set-Content a.md x')).text, `Error: ${NEEDS_SPEC}`)
    assert.equal((await run('Set-Alias Save-Text Set-Content')).isError, false)
    assert.equal((await run("$target = 'openspec/changes/feat/approval.md'")).isError, false)
    assert.equal((await run('Save-Text $target yes')).text, `Error: ${ONLY_APPROVE}`)
    // Reading through them stays allowed.
    assert.equal((await run('Get-Content $target; Get-FileHash $target')).isError, false)
  })

  test('a one-shot pwsh keeps none of it', async () => {
    const s = await openSession()
    registerBash(s.ctx, ONE_SHOT, 'pwsh')
    await s.call('pwsh', { command: "$target = 'openspec/changes/feat/approval.md'" })
    assert.equal((await s.call('pwsh', { command: 'Set-Content $target yes' })).isError, false)
  })
})
