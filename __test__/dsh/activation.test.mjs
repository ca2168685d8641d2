// When the gates, /approve and request_approval exist (T3.2, T3.3), as the standalone plugin and
// as the functions a bundle with its own guard chain calls; services mounted in any order.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { Context } from '@deepseek-ai/cordis'

import { SERVICES, bootDsh, createAgent, mount, mountOwner } from '../../scripts/dsh-host.mjs'
import { makeRepo, planText } from '../helpers/repo.mjs'
import { BLOCKED, PLAN, openSession, plugin, select, write } from './helpers/session.mjs'

/** What the plugin switched on in a session: the guard, /approve, request_approval. */
async function wired(s) {
  s.repo.change('feat')
  const guarded = (await s.call(...write(PLAN, planText('feat')))).text.startsWith(`Error: ${BLOCKED}`)
  const command = s.ctx.commands.list(s.agent).some((c) => c.name === 'approve')
  const tool = s.ctx.tools.schemas().some((t) => t.name === 'request_approval')
  return { guard: guarded, approve: command, request_approval: tool }
}

describe('the standalone plugin', () => {
  test('defaults: everything on', async () => {
    const s = await openSession()
    assert.deepEqual(s.fiber.config, { enabled: true, guards: true, approvalGates: true, roleCommand: false, checkCommand: false, ownerChannel: 'auto' })
    assert.deepEqual(await wired(s), { guard: true, approve: true, request_approval: true })
  })

  test('/approve and request_approval whatever roleCommand and checkCommand say (T3.2)', async () => {
    for (const roleCommand of [true, false]) {
      for (const checkCommand of [true, false]) {
        const s = await openSession({ config: { roleCommand, checkCommand } })
        assert.deepEqual(await wired(s), { guard: true, approve: true, request_approval: true }, JSON.stringify({ roleCommand, checkCommand }))
      }
    }
  })

  test('the matrix of enabled, guards and approvalGates (T3.2, T3.3)', async () => {
    for (const enabled of [true, false]) {
      for (const guards of [true, false]) {
        for (const approvalGates of [true, false]) {
          const flags = { enabled, guards, approvalGates }
          const s = await openSession({ config: flags })
          const approval = enabled && approvalGates
          assert.deepEqual(await wired(s), { guard: approval && guards, approve: approval, request_approval: approval }, JSON.stringify(flags))
        }
      }
    }
  })

  test('the native self-check passes here, so guardsOk is true', () => {
    assert.equal(plugin.selfCheck(), true)
  })

  test('disposing the plugin removes the guard, the command and the tool', async () => {
    const s = await openSession()
    await s.fiber.dispose()
    assert.deepEqual(await wired(s), { guard: false, approve: false, request_approval: false })
  })
})

describe('services mounted after the plugin', () => {
  test('the question service: /approve refuses without it, works once it is there', async () => {
    const s = await openSession({ omit: ['userQuestions'], owner: null })
    s.repo.change('feat')
    assert.deepEqual(await s.command('/approve feat design'), { kind: 'error', text: 'userQuestions service unavailable; /approve requires it' })
    await mount(s.ctx, ...SERVICES.userQuestions)
    const owner = await mountOwner(s.ctx, select('Approve'))
    assert.deepEqual(await s.command('/approve feat design'), { kind: 'success', text: 'design of feat approved' })
    assert.equal(owner.seen.length, 1)
  })

  test('tools and commands: the plugin loads first and nothing parks it', async () => {
    const ctx = new Context()
    try {
      const fiber = await mount(ctx, plugin)
      await bootDsh({ ctx })
      await mountOwner(ctx, select('Approve'))
      const repo = makeRepo().change('feat')
      const { agent, dispose } = await createAgent(ctx, repo.root)
      const result = await ctx.tools.execute({ callId: 'c', name: 'write', arguments: { file_path: PLAN, content: planText('feat') }, signal: new AbortController().signal, agent })
      assert.equal(result.error?.message, `${BLOCKED}design not approved; run /approve feat design`)
      assert.ok(ctx.tools.schemas().some((t) => t.name === 'request_approval'))
      assert.deepEqual((await ctx.commands.execute(agent, '/approve feat design', [], new AbortController().signal)).result, { kind: 'success', text: 'design of feat approved' })
      assert.equal(fiber.state, 2)
      await dispose()
    } finally {
      await ctx.fiber.dispose()
    }
  })
})

describe('a bundle that owns its guard chain', () => {
  /** A bundle plugin wiring approval-gates with its own flags. */
  const bundle = (flags) => ({
    name: 'test-bundle',
    inject: ['tools'],
    apply(ctx) {
      plugin.registerGates(ctx, flags)
      plugin.registerApproval(ctx, flags)
    },
  })

  test('registerGates runs only when enabled && guards && guardsOk && approvalGates (T3.3)', async () => {
    for (const [flags, guard] of [
      [{ guardsOk: true }, true],
      [{}, true], // guardsOk omitted: the native self-check decides
      [{ guardsOk: false }, false],
      [{ guardsOk: true, guards: false }, false],
      [{ guardsOk: true, enabled: false }, false],
      [{ guardsOk: true, approvalGates: false }, false],
    ]) {
      const s = await openSession({ config: false })
      await mount(s.ctx, bundle(flags))
      const state = await wired(s)
      assert.equal(state.guard, guard, JSON.stringify(flags))
      assert.equal(state.approve, flags.enabled !== false && flags.approvalGates !== false, JSON.stringify(flags))
    }
  })

  test('registerApproval with guards off or a failed self-check still registers /approve and request_approval', async () => {
    const s = await openSession({ config: false })
    await mount(s.ctx, bundle({ guards: false, guardsOk: false, roleCommand: false }))
    assert.deepEqual(await wired(s), { guard: false, approve: true, request_approval: true })
  })

  test('the returned disposers unregister', async () => {
    const s = await openSession({ config: false })
    const off = []
    await mount(s.ctx, { name: 'b', apply(ctx) {
      off.push(plugin.registerGates(ctx, { guardsOk: true }), plugin.registerApproval(ctx, {}))
    } })
    assert.deepEqual(await wired(s), { guard: true, approve: true, request_approval: true })
    off.forEach((dispose) => dispose())
    assert.deepEqual(await wired(s), { guard: false, approve: false, request_approval: false })
    assert.equal(plugin.registerGates(s.ctx, { guardsOk: false }), undefined)
    assert.equal(plugin.registerApproval(s.ctx, { enabled: false }), undefined)
  })

  test('the guard callback turns the native null into undefined', async () => {
    const s = await openSession({ config: false })
    const exec = (name, args) => ({ name, arguments: args, agent: s.agent })
    assert.equal(plugin.approvalGuard(exec('read', { file_path: PLAN })), undefined)
    assert.equal(plugin.approvalGuard(exec('write', { file_path: 'x/approval.md', content: '' })), `${BLOCKED}approval.md is written only by /approve`)
  })
})
