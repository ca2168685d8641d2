// Sealed approvals (P-17) in a real DSH context: the owner's /approve records the ledger first;
// in a sealed repository a forged approval.md does not count; where DSH serves its web API the
// owner's confirmation is taken in their terminal, not in a card any process can answer; a call
// whose session left DSH's sandbox is refused while anything is sealed; and the plugin's own
// report of the setup.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'

import { defineTool } from '@deepseek-ai/dsh-tools'

import native from '../../index.js'
import { planText } from '../helpers/repo.mjs'
import { BLOCKED, PLAN, openSession, plugin, write } from './helpers/session.mjs'

const { loopStatus, sealSurvey } = native

/** DSH web's startup service, as its web-startup row provides it (only its presence matters). */
function serveWebApi(s) {
  s.ctx.provide('webStartup', { host: '127.0.0.1', port: 0 })
}

/** A one-shot `bash` stand-in: the guard judges a call before the tool's own code runs. */
function registerBash(s) {
  s.ctx.tools.register(
    defineTool({
      name: 'bash',
      description: 'Run a command (stand-in: reports it).',
      parameters: { command: { type: 'string', required: true }, description: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute(args) {
        return `ran: ${args.command}`
      },
    }),
  )
}

/** A `ctx.sandboxPolicy` whose sessions were switched to `mode` (DSH web's API can do that). */
function switchSessions(s, mode) {
  s.ctx.provide('sandboxPolicy', {
    defaultMode: 'workspace-write',
    overrideOf: () => mode,
    resolve: () => ({ mode: mode ?? 'workspace-write', workspaceRoot: s.repo.root }),
  })
}

describe('the owner approves, the ledger records', () => {
  test('/approve records the approval in the ledger, then writes approval.md', async () => {
    const s = await openSession()
    s.repo.change('feat')
    assert.deepEqual(await s.command('/approve feat design'), { kind: 'success', text: 'design of feat approved' })
    const survey = sealSurvey(s.repo.root)
    assert.equal(survey.seal, 'sealed')
    assert.deepEqual(survey.items.map((i) => [i.change, i.kind, i.state]), [['feat', 'design', 'recorded']])
    assert.equal(loopStatus(s.repo.root)[0].designSeal, 'sealed')
  })

  test('in a sealed repository a forged approval.md counts as absent for the real write tool', async () => {
    const s = await openSession()
    s.repo.change('feat').change('other')
    await s.command('/approve other design')
    s.repo.approveDesign('feat')
    const refused = await s.call(...write(PLAN, planText('feat')))
    assert.equal(refused.text, `Error: ${BLOCKED}design not approved; run /approve feat design`)
    assert.equal(loopStatus(s.repo.root).find((row) => row.id === 'feat').designSeal, 'unrecorded')
    assert.equal((await s.command('/approve feat design')).kind, 'success')
    assert.equal((await s.call(...write(PLAN, planText('feat')))).isError, false)
  })
})

describe('where DSH serves its web API', () => {
  test('/approve and request_approval do not ask in a card: they name the command for the owner\'s terminal', async () => {
    const s = await openSession()
    serveWebApi(s)
    s.repo.change('feat')
    const command = await s.command('/approve feat design')
    assert.equal(command.kind, 'error')
    assert.match(command.text, /^not asked here: DSH web lets any process on this machine answer its question cards, so approvals are taken only in a terminal of your own: node '[^']+\/bin\/approval-gates\.mjs' approve feat design --cwd '/)
    const tool = await s.call('request_approval', { change_id: 'feat', kind: 'design' })
    assert.deepEqual([tool.value.approved, tool.value.message], [false, command.text])
    assert.equal(s.asked, 0, 'no card was shown')
    assert.equal(s.repo.exists('openspec/changes/feat/approval.md'), false)
    assert.equal(sealSurvey(s.repo.root).seal, 'open', 'nothing recorded')
  })

  test('preconditions are still said first', async () => {
    const s = await openSession()
    serveWebApi(s)
    s.repo.change('feat', ['proposal.md'])
    const command = await s.command('/approve feat design')
    assert.equal(command.text, 'cannot approve design of feat: missing in openspec/changes/feat/: design.md, builder-check.md')
  })

  test("ownerChannel: 'questions' keeps the card, by the owner's choice", async () => {
    const s = await openSession({ config: { ownerChannel: 'questions' } })
    serveWebApi(s)
    s.repo.change('feat')
    assert.deepEqual(await s.command('/approve feat design'), { kind: 'success', text: 'design of feat approved' })
    assert.equal(s.asked, 1)
  })

  test("ownerChannel: 'terminal' takes it in the terminal everywhere", async () => {
    const s = await openSession({ config: { ownerChannel: 'terminal' } })
    s.repo.change('feat')
    assert.match((await s.command('/approve feat design')).text, /^not asked here: /)
    assert.equal(s.asked, 0)
  })
})

describe('a session switched out of the sandbox', () => {
  test('its shell calls are refused while anything is sealed; its writes are judged by their targets', async (t) => {
    // A ledger folder of its own: "anything sealed" is about every repository on the machine.
    const before = process.env.XDG_STATE_HOME
    process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), 'approval-gates-state-'))
    t.after(() => {
      rmSync(process.env.XDG_STATE_HOME, { recursive: true, force: true })
      process.env.XDG_STATE_HOME = before
    })
    const s = await openSession()
    registerBash(s)
    s.repo.change('feat')
    switchSessions(s, 'danger-full-access')
    const bash = ['bash', { command: 'ls', description: 'list' }]
    assert.equal((await s.call(...bash)).text, 'ran: ls', 'nothing sealed yet')
    await s.command('/approve feat design')
    assert.equal(
      (await s.call(...bash)).text,
      `Error: ${BLOCKED}approvals are sealed here, so no command leaves the sandbox (sandbox_permissions: danger-full-access); run it in the sandbox, or ask the owner to run it`,
    )
    assert.equal((await s.call(...write('src/b.md', 'b\n'))).isError, false)
    const ledger = join(process.env.XDG_STATE_HOME, 'approval-gates', 'repos', 'x.ledger')
    assert.equal((await s.call(...write(ledger, 'x\n'))).text, `Error: ${BLOCKED}the approval ledger is written only by /approve`)
    assert.equal(plugin.sessionSandbox({ name: 'read', agent: s.agent }, s.ctx), undefined, 'reading never leaves anything')
    assert.equal(plugin.sessionSandbox({ name: 'bash', agent: s.agent }, s.ctx), 'danger-full-access')
  })

  test('a session at the default mode is judged as before', async () => {
    const s = await openSession()
    s.repo.change('feat')
    registerBash(s)
    switchSessions(s, undefined)
    await s.command('/approve feat design')
    assert.equal((await s.call('bash', { command: 'ls', description: 'list' })).text, 'ran: ls')
  })
})

describe("the plugin's report of the setup", () => {
  test('without a sandbox service it is advisory and says why', async () => {
    const s = await openSession()
    const report = plugin.dshSetup(s.ctx, s.repo.root, 'questions')
    assert.equal(report.mode, 'advisory')
    const states = Object.fromEntries(report.checks.map((c) => [c.id, c.state]))
    assert.equal(states['dsh.sandbox-mode'], 'fails')
    assert.equal(states['dsh.runner'], 'fails')
    assert.equal(states['dsh.owner-channel'], 'holds')
    assert.equal(states.sealed, 'fails')
  })

  test('DSH web is advisory with the reason, whichever channel the plugin uses', async () => {
    const s = await openSession()
    serveWebApi(s)
    for (const channel of ['terminal', 'questions']) {
      const check = plugin.dshSetup(s.ctx, s.repo.root, channel).checks.find((c) => c.id === 'dsh.owner-channel')
      assert.equal(check.state, 'fails')
      assert.match(check.text, /^DSH web's API on 127\.0\.0\.1 has no credential/)
      assert.match(check.fix, /DSH must give its web API a credential/)
    }
  })
})
