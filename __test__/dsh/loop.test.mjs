// The development loop end to end in a real DSH: tool calls go through DSH's tool registry (its
// real write tool included), the owner approves with /approve, and the model's view is the text DSH
// hands it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { ScriptedModel, createAgent, say, textReply, toolCallReply, toolResults } from '../../scripts/dsh-host.mjs'
import { planText, sha256 } from '../helpers/repo.mjs'
import { BLOCKED, PLAN, dispatch, openSession, write } from './helpers/session.mjs'

describe('the loop through the real tool registry', () => {
  test('a plan is refused, then allowed after /approve <id> design', async () => {
    const s = await openSession()
    s.repo.change('feat')
    const denied = await s.call(...write(PLAN, planText('feat')))
    assert.deepEqual(denied, { isError: true, text: `Error: ${BLOCKED}design not approved; run /approve feat design`, value: undefined })
    assert.equal(s.repo.exists(PLAN), false)

    assert.deepEqual(await s.command('/approve feat design'), { kind: 'success', text: 'design of feat approved' })
    const allowed = await s.call(...write(PLAN, planText('feat')))
    assert.equal(allowed.isError, false)
    assert.equal(s.repo.read(PLAN), planText('feat'))
  })

  test('an sdd dispatch is refused, then allowed after /approve <id> plan; an edited plan is refused again', async () => {
    const s = await openSession()
    s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
    const run = dispatch(`Implement task 1 of ${PLAN}`)
    assert.equal((await s.call(...run)).text, `Error: ${BLOCKED}plan not approved; run /approve feat plan`)
    assert.equal((await s.call(...write('.superpowers/sdd/p/progress.md', '# ledger'))).text, `Error: ${BLOCKED}plan not approved; run /approve feat plan`)

    const approved = await s.command('/approve feat plan')
    assert.deepEqual(approved, { kind: 'success', text: `plan ${PLAN} of feat approved (sha256 ${sha256(planText('feat'))})` })
    assert.deepEqual(await s.call(...run), { isError: false, text: 'dispatched: implement', value: 'dispatched: implement' })
    assert.equal((await s.call(...write('.superpowers/sdd/p/progress.md', '# ledger'))).isError, false)

    // The agent rewrites the plan whole (allowed: the design is approved); the approval no longer holds.
    assert.equal((await s.call(...write(PLAN, planText('feat', '- [ ] task 2\n')))).isError, false)
    assert.equal((await s.call(...run)).text, `Error: ${BLOCKED}plan changed after approval; re-approve`)
    assert.equal((await s.command('/approve feat plan')).kind, 'success')
    assert.equal((await s.call(...run)).isError, false)
  })

  test('an edit fragment without its own Spec is refused; approval.md cannot be written by a tool', async () => {
    const s = await openSession()
    s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
    const edit = await s.call('edit', { file_path: PLAN, old_string: '- [ ] task 1', new_string: '- [x] task 1' })
    assert.equal(edit.text, `Error: ${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`)
    const forged = await s.call(...write('openspec/changes/feat/approval.md', 'plan:\n  by: owner\n'))
    assert.equal(forged.text, `Error: ${BLOCKED}approval.md is written only by /approve`)
    assert.equal(s.repo.read('openspec/changes/feat/approval.md'), 'design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\n')
  })

  test('bounded work and reads are not gated', async () => {
    const s = await openSession()
    assert.equal((await s.call(...write('src/notes.md', 'hello'))).isError, false)
    assert.equal((await s.call(...dispatch('summarise the README'))).isError, false)
    s.repo.change('feat').plan('p', 'feat')
    assert.equal((await s.call('read', { file_path: PLAN })).isError, false)
  })
})

describe('the loop driven by a model through the real agent loop', () => {
  test('the model is blocked, asks for approval with request_approval, the owner approves, the model proceeds', async () => {
    const s = await openSession()
    s.repo.change('feat')
    const model = new ScriptedModel()
    s.ctx.llm.registerAdapter(['scripted'], model)
    const { agent, dispose } = await createAgent(s.ctx, s.repo.root, { provider: 'scripted', model: 'm' })
    try {
      model.replies.push(
        toolCallReply('write', { file_path: PLAN, content: planText('feat') }),
        toolCallReply('request_approval', { change_id: 'feat', kind: 'design' }),
        toolCallReply('write', { file_path: PLAN, content: planText('feat') }),
        toolCallReply('subagent', { description: 'implement', prompt: `do ${PLAN}` }),
        toolCallReply('request_approval', { change_id: 'feat', kind: 'plan' }),
        toolCallReply('subagent', { description: 'implement', prompt: `do ${PLAN}` }),
        textReply('done'),
      )
      await say(agent, 'plan and implement feat')
      const results = toolResults(agent)
      assert.deepEqual(results.map((r) => [r.isError, r.text.split('\n')[0]]), [
        [true, `Error: ${BLOCKED}design not approved; run /approve feat design`],
        [false, 'design of feat approved'],
        [false, `<path>${s.repo.path(PLAN)}</path>`],
        [true, `Error: ${BLOCKED}plan not approved; run /approve feat plan`],
        [false, `plan ${PLAN} of feat approved (sha256 ${sha256(planText('feat'))})`],
        [false, 'dispatched: implement'],
      ])
      assert.equal(s.owner.seen.length, 2)
      assert.equal(s.owner.seen[0].agent, agent)
      assert.equal(agent.session.events.at(-1).type, 'turn/end')
    } finally {
      await dispose()
    }
  })
})
