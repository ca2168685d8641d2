// Every /approve and request_approval scenario of docs/decisions.md#approve, through DSH's command registry and tool
// registry, with a question provider playing the owner.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { UserQuestionError } from '@deepseek-ai/dsh-user-questions'

import native from '../../index.js'
import { planText, sha256 } from '../helpers/repo.mjs'
import { PLAN, openSession, select } from './helpers/session.mjs'

const APPROVAL = 'openspec/changes/feat/approval.md'
const AT = /^ {2}at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m
/** Not confirmed: the contract's exact message, and beside it why nothing was written. */
const notConfirmed = (why) => ({ approved: false, message: 'not confirmed', detail: `nothing was written: ${why}` })

/** Who each entry says asked, as the native presentation names it. */
const ASKER = { '/approve': 'owner-command', request_approval: 'agent-tool' }

/** An owner whose dialog throws what DSH's question service throws. */
const throws = (message, code) => () => {
  throw new UserQuestionError(message, code)
}

/** The owner's answer to the one question, as DSH's card sends it. */
const answered = (item) => (request) => ({ answers: [{ id: request.questions[0].id, ...item }] })

/** The one line a person reads: the message, then why nothing was written (the command's text). */
const line = ({ message, detail }) => (detail === undefined ? message : `${message}, ${detail}`)

/**
 * The two writers of approval.md, seen the same way: `{ approved, message, detail? }`. The
 * command's one line is read back into its message and detail.
 */
const entries = {
  '/approve': async (s, id, kind) => {
    const result = await s.command(`/approve ${id} ${kind}`)
    const [, detail] = /^not confirmed, (nothing was written: .*)$/s.exec(result.text) ?? []
    const read = detail === undefined ? { message: result.text } : { message: 'not confirmed', detail }
    return { approved: result.kind === 'success', ...read }
  },
  request_approval: async (s, change_id, kind) => {
    const result = await s.call('request_approval', { change_id, kind })
    assert.equal(result.isError, false)
    assert.equal(result.text, line(result.value), 'the model reads the message and why')
    return result.value
  },
}

for (const [entry, approve] of Object.entries(entries)) {
  describe(entry, () => {
    test('design approved by the owner: by owner, at in ISO 8601 UTC', async () => {
      const s = await openSession()
      s.repo.change('feat')
      assert.deepEqual(await approve(s, 'feat', 'design'), { approved: true, message: 'design of feat approved' })
      const text = s.repo.read(APPROVAL)
      assert.match(text, /^design:\n {2}by: owner\n {2}at: [^\n]+\n$/)
      assert.match(text, AT)
      assert.equal(s.asked, 1)
    })

    test('plan approved by the owner: by, at and the sha256 of the plan; the design stays byte for byte', async () => {
      const s = await openSession()
      s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
      const design = s.repo.read(APPROVAL)
      const sha = sha256(planText('feat'))
      assert.deepEqual(await approve(s, 'feat', 'plan'), { approved: true, message: `plan ${PLAN} of feat approved (sha256 ${sha})` })
      const text = s.repo.read(APPROVAL)
      assert.ok(text.startsWith(design), text)
      assert.match(text.slice(design.length), /^plan:\n {2}by: owner\n {2}at: \S+\n {2}sha256: [0-9a-f]{64}\n$/)
      assert.match(text.slice(design.length), AT)
      assert.ok(text.endsWith(`  sha256: ${sha}\n`))
    })

    test('the owner is shown the plan itself, who asked and what approving writes, as a plan review', async () => {
      const s = await openSession()
      s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
      // What the native presentation shows before the approval (P-10: the plan's path and sha256).
      const { presentation } = native.presentApproval('feat', 'plan', ASKER[entry], s.repo.root)
      await approve(s, 'feat', 'plan')
      const [request] = s.owner.seen
      assert.equal(request.agent, s.agent, 'the calling agent')
      assert.ok(request.signal instanceof AbortSignal, 'the call signal')
      assert.equal(request.questions.length, 1)
      const [question] = request.questions
      const sha = sha256(planText('feat'))
      assert.deepEqual(question.options, [
        { label: 'Approve', description: 'writes the plan section of openspec/changes/feat/approval.md' },
        { label: 'Cancel', description: 'writes nothing' },
      ])
      assert.deepEqual(question.intent, { kind: 'plan-review', approve: 'Approve' })
      assert.equal(question.question, 'Approve the plan of feat?')
      assert.equal(question.detail, presentation.markdown)
      assert.ok(question.detail.includes(planText('feat').trimEnd()), 'the plan text')
      assert.ok(question.detail.includes(`**Plan** \`${PLAN}\` · ${planText('feat').length} bytes · 5 lines\n\n`))
      assert.ok(question.detail.includes(`\`sha256: ${sha}\``), 'what approving writes')
      assert.ok(question.detail.includes('the design section stays as it is'))
    })

    test('a design is shown with design.md, the other files and a generic card', async () => {
      const s = await openSession()
      s.repo.change('feat').write('openspec/changes/feat/design.md', '# Design\n\nOne queue per tenant.\n')
      const { presentation } = native.presentApproval('feat', 'design', ASKER[entry], s.repo.root)
      await approve(s, 'feat', 'design')
      const [question] = s.owner.seen[0].questions
      assert.equal(question.intent, undefined)
      assert.equal(question.question, 'Approve the design of feat?')
      assert.deepEqual(question.options.map((o) => o.label), ['Approve', 'Cancel'])
      assert.equal(question.detail, presentation.markdown)
      assert.ok(question.detail.includes('# Design\n\nOne queue per tenant.'))
      assert.ok(
        question.detail.includes(
          'Also in the change: `openspec/changes/feat/proposal.md` (14 bytes), `openspec/changes/feat/builder-check.md` (19 bytes).',
        ),
      )
      assert.ok(question.detail.includes('Approving writes the `design` section of `openspec/changes/feat/approval.md`'))
    })

    test('a plan name with Markdown characters is shown verbatim', async () => {
      const s = await openSession()
      s.repo.change('feat').approveDesign('feat').plan('a_b`c*', 'feat')
      await approve(s, 'feat', 'plan')
      assert.ok(s.owner.seen[0].questions[0].detail.includes('**Plan** ``docs/superpowers/plans/a_b`c*.md``'))
    })

    test('the card names who asked', async () => {
      const s = await openSession()
      s.repo.change('feat')
      await approve(s, 'feat', 'design')
      const [question] = s.owner.seen[0].questions
      if (entry === '/approve') {
        assert.equal(question.header, 'approval-gates · you asked (/approve)')
        assert.ok(question.detail.startsWith('**You asked for this approval:** `/approve feat design`.'))
      } else {
        assert.equal(question.header, 'approval-gates · the agent asks (request_approval)')
        assert.ok(question.detail.startsWith('**The agent asks you for this approval,** with its `request_approval` tool'))
      }
    })

    test('design without builder-check: every missing file listed, owner not asked, nothing written', async () => {
      const s = await openSession()
      s.repo.change('feat', ['proposal.md', 'design.md'])
      assert.deepEqual(await approve(s, 'feat', 'design'), {
        approved: false,
        message: 'cannot approve design of feat: missing in openspec/changes/feat/: builder-check.md',
      })
      s.repo.change('bare', [])
      assert.match((await approve(s, 'bare', 'design')).message, /: proposal\.md, design\.md, builder-check\.md$/)
      assert.equal(s.asked, 0)
      assert.equal(s.repo.exists(APPROVAL), false)
    })

    test('plan without an approved design: refused, owner not asked', async () => {
      const s = await openSession()
      s.repo.change('feat').plan('p', 'feat').approval('feat', 'design:\n')
      assert.deepEqual(await approve(s, 'feat', 'plan'), { approved: false, message: 'design not approved; run /approve feat design' })
      assert.equal(s.asked, 0)
      assert.equal(s.repo.read(APPROVAL), 'design:\n')
    })

    test('two plans on one change: refused listing both, approval.md unchanged', async () => {
      const s = await openSession()
      s.repo.change('feat').approveDesign('feat').plan('b', 'feat').plan('a', 'feat')
      const before = s.repo.read(APPROVAL)
      assert.deepEqual(await approve(s, 'feat', 'plan'), {
        approved: false,
        message: 'several plans carry **Spec:** openspec/changes/feat, exactly one must: docs/superpowers/plans/a.md, docs/superpowers/plans/b.md',
      })
      assert.equal(s.asked, 0)
      assert.equal(s.repo.read(APPROVAL), before)
    })

    test('no plan on the change: refused, owner not asked', async () => {
      const s = await openSession()
      s.repo.change('feat').approveDesign('feat')
      assert.deepEqual(await approve(s, 'feat', 'plan'), {
        approved: false,
        message: 'no plan in docs/superpowers/plans/ carries **Spec:** openspec/changes/feat',
      })
      assert.equal(s.asked, 0)
    })

    test('no userQuestions service: refused, nothing written', async () => {
      const s = await openSession({ omit: ['userQuestions'], owner: null })
      s.repo.change('feat')
      assert.deepEqual(await approve(s, 'feat', 'design'), {
        approved: false,
        message: 'userQuestions service unavailable; /approve requires it',
      })
      assert.equal(s.repo.exists(APPROVAL), false)
    })

    test('the dialog throws: userQuestions failed with its message, not "not confirmed"', async () => {
      const s = await openSession({
        owner: () => {
          throw new Error('owner went away')
        },
      })
      s.repo.change('feat')
      assert.deepEqual(await approve(s, 'feat', 'design'), { approved: false, message: 'userQuestions failed: owner went away' })
      assert.equal(s.repo.exists(APPROVAL), false)
    })

    test('a service without a provider: userQuestions failed, saying where the owner can approve', async () => {
      const s = await openSession({ owner: null })
      s.repo.change('feat')
      assert.deepEqual(await approve(s, 'feat', 'design'), {
        approved: false,
        message:
          'userQuestions failed: this DSH has no way to ask the owner (no question provider is registered, as in a headless run); ' +
          "the owner can approve in a terminal of their own (approval-gates approve feat design)",
      })
      assert.equal(s.repo.exists(APPROVAL), false)
    })

    test('other failures of the dialog with a known code read as their cause; unknown ones keep their message', async () => {
      const s = await openSession({ owner: throws('human interaction requires the exact live calling agent', 'CALLER_NOT_LIVE') })
      s.repo.change('feat')
      assert.deepEqual(await approve(s, 'feat', 'design'), {
        approved: false,
        message: 'userQuestions failed: the agent asking is no longer running, so the owner was not asked',
      })
      const coded = await openSession({ owner: throws('odd', 'SOMETHING_NEW') })
      coded.repo.change('feat')
      assert.deepEqual(await approve(coded, 'feat', 'design'), { approved: false, message: 'userQuestions failed: odd' })
      assert.equal(coded.repo.exists(APPROVAL), false)
    })

    test('Cancel: not confirmed, and the message says nothing was written', async () => {
      const s = await openSession({ owner: select('Cancel') })
      s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
      const before = s.repo.read(APPROVAL)
      const declined = notConfirmed('the owner declined (Cancel)')
      assert.deepEqual(await approve(s, 'feat', 'design'), declined)
      assert.deepEqual(await approve(s, 'feat', 'plan'), declined)
      assert.equal(s.asked, 2)
      assert.equal(s.repo.read(APPROVAL), before)
    })

    test('free text in the card is never a confirmation: its words are quoted back', async () => {
      for (const custom of ['yes', 'Approve', '  approve  ', 'no, split task 3 first']) {
        const s = await openSession({ owner: answered({ selected: [], custom }) })
        s.repo.change('feat')
        assert.deepEqual(
          await approve(s, 'feat', 'design'),
          notConfirmed(`the owner answered in their own words, ${JSON.stringify(custom.trim())}, and only the Approve option approves`),
        )
        assert.equal(s.repo.exists(APPROVAL), false, custom)
      }
      const long = await openSession({ owner: answered({ selected: [], custom: 'x'.repeat(2000) }) })
      long.repo.change('feat')
      assert.match((await approve(long, 'feat', 'design')).detail, /"x{500}…", and only/)
    })

    test('Skip, X, a withdrawn question and odd answers each say what happened; nothing written', async () => {
      const cases = [
        [answered({ selected: [] }), 'the owner skipped the question'],
        [throws('the user cancelled ask_user_question', 'ASK_CANCELLED'), 'the owner dismissed the question without answering'],
        [
          throws('ask_user_question was aborted before the user answered', 'ASK_ABORTED'),
          'the question was withdrawn before the owner answered (the turn was stopped, or the page was reloaded)',
        ],
        [answered({ selected: ['approve'] }), 'the answer was none of the options Approve and Cancel'],
        [() => ({ answers: [] }), 'no answer came back'],
        [() => undefined, 'no answer came back'],
      ]
      const details = new Set()
      for (const [owner, what] of cases) {
        const s = await openSession({ owner })
        s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
        const before = s.repo.read(APPROVAL)
        for (const kind of ['design', 'plan']) {
          const result = await approve(s, 'feat', kind)
          assert.deepEqual(result, notConfirmed(what), kind)
          assert.doesNotMatch(result.message, /ask_user_question|userQuestions/)
          details.add(result.detail)
        }
        assert.equal(s.repo.read(APPROVAL), before)
      }
      assert.equal(details.size, cases.length - 1, 'distinct, but for the two empty answers')
    })

    test('bad arguments: a usage refusal, owner not asked, nothing written', async () => {
      const s = await openSession()
      s.repo.change('feat')
      for (const [id, kind] of [['../x', 'design'], ['feat', 'final'], ['feat', 'Design'], ['a/b', 'plan'], ['..', 'design']]) {
        const result = await approve(s, id, kind)
        assert.equal(result.approved, false)
        assert.match(result.message, /^usage: \/approve <change-id> design\|plan \(/, `${id} ${kind}`)
      }
      assert.equal(s.asked, 0)
      assert.equal(s.repo.exists(APPROVAL), false)
    })

    test('the plan changes while the owner decides: nothing written (P-10)', async () => {
      let s
      s = await openSession({
        owner: (request) => {
          s.repo.plan('p', 'feat', '- [ ] sneaked in\n')
          return select('Approve')(request)
        },
      })
      s.repo.change('feat').approveDesign('feat').plan('p', 'feat')
      const before = s.repo.read(APPROVAL)
      assert.deepEqual(await approve(s, 'feat', 'plan'), {
        approved: false,
        message: `plan ${PLAN} changed after it was shown to the owner; nothing written, run /approve feat plan again`,
      })
      assert.equal(s.repo.read(APPROVAL), before)
    })
  })
}

describe('what counts as the owner confirming', () => {
  const forms = [true, { approved: true }, { confirmed: true }]

  test('/approve also accepts the test forms {approved}, {confirmed} and true', async () => {
    for (const form of forms) {
      const s = await openSession({ owner: () => form })
      s.repo.change('feat')
      assert.deepEqual(await s.command('/approve feat design'), { kind: 'success', text: 'design of feat approved' }, JSON.stringify(form))
    }
  })

  test("request_approval accepts only answers[0].selected[0] === 'Approve'", async () => {
    const others = [
      ...forms.map((form) => [form, 'no answer came back']),
      [{ approved: 'yes' }, 'no answer came back'],
      [{ answers: [{ id: 'x', selected: ['Cancel', 'Approve'] }] }, 'the owner declined (Cancel)'],
      [{ answers: [{ id: 'x', selected: ['approve'] }] }, 'the answer was none of the options Approve and Cancel'],
    ]
    for (const [form, what] of others) {
      const s = await openSession({ owner: () => form })
      s.repo.change('feat')
      const result = await s.call('request_approval', { change_id: 'feat', kind: 'design' })
      assert.deepEqual(result.value, notConfirmed(what), JSON.stringify(form))
      assert.equal(s.repo.exists(APPROVAL), false)
    }
  })
})

describe('/approve command line', () => {
  test('missing or extra words are usage refusals from the native check', async () => {
    const s = await openSession()
    s.repo.change('feat')
    for (const line of ['/approve', '/approve   ', '/approve feat', '/approve feat design now']) {
      const result = await s.command(line)
      assert.equal(result.kind, 'error', line)
      assert.match(result.text, /^usage: \/approve <change-id> design\|plan \(/, line)
    }
    assert.equal((await s.command('/approve')).text, 'usage: /approve <change-id> design|plan (the change id is missing)')
    assert.equal((await s.command('/approve feat')).text, 'usage: /approve <change-id> design|plan (design or plan is missing)')
    assert.equal((await s.command('/approve feat design now')).text, 'usage: /approve <change-id> design|plan (kind "design now" must be design or plan)')
    assert.equal((await s.command('/approve   feat \t design  ')).kind, 'success')
    assert.equal(s.asked, 1)
  })

  test('is listed for the agent with its hint', async () => {
    const s = await openSession()
    const [command] = s.ctx.commands.list(s.agent).filter((c) => c.name === 'approve')
    assert.equal(command.input.hint, '<change-id> design|plan')
  })
})

describe('request_approval as the model sees it', () => {
  test('its schema asks for change_id and kind', async () => {
    const s = await openSession()
    const schema = s.ctx.tools.schemas().find((tool) => tool.name === 'request_approval')
    assert.deepEqual(schema.parameters.required, ['change_id', 'kind'])
    assert.deepEqual(Object.keys(schema.parameters.properties), ['change_id', 'kind'])
  })

  test('arguments of the wrong type are refused by DSH before anything is asked', async () => {
    const s = await openSession()
    s.repo.change('feat')
    const result = await s.call('request_approval', { change_id: 7 })
    assert.equal(result.isError, true)
    assert.match(result.text, /invalid arguments/)
    assert.equal(s.asked, 0)
  })

  test('a child agent cannot ask the owner: the dialog refuses it (D-12)', async () => {
    const s = await openSession()
    s.repo.change('feat')
    // Created through the agent's own context: a child agent, owned by the session's agent.
    const owned = await s.agent.ctx.agents.create({ sessionId: 'child-of-test', meta: { cwd: s.repo.root } })
    assert.ok(s.ctx.agents.isOwnedBy(owned.agent.id, s.agent))
    try {
      const result = await s.ctx.tools.execute({ callId: 'c', name: 'request_approval', arguments: { change_id: 'feat', kind: 'design' }, signal: new AbortController().signal, agent: owned.agent })
      assert.equal(result.value.approved, false)
      assert.equal(
        result.value.message,
        "userQuestions failed: a subagent cannot ask the owner; only the session's main agent can, so report the approval needed in the subagent's result",
      )
      assert.equal(s.asked, 0)
      assert.equal(s.repo.exists(APPROVAL), false)
    } finally {
      await owned.dispose()
    }
  })
})

describe('/approve cancelled by its caller (the web UI drops the request, e.g. on a reload)', () => {
  /** Runs `/approve feat design` with a signal the owner's answer aborts, as a reconnect does. */
  async function approveWhileCancelled(answer) {
    const controller = new AbortController()
    const s = await openSession({
      owner: (request) => {
        controller.abort()
        return answer(request)
      },
    })
    s.repo.change('feat')
    const outcome = await s.ctx.commands.execute(s.agent, '/approve feat design', [], controller.signal).then(
      (execution) => execution.result,
      (error) => ({ kind: 'thrown', text: error.message }),
    )
    await new Promise((resolve) => setImmediate(resolve))
    return { s, outcome }
  }

  test('an Approve that arrives after the cancel writes nothing: DSH has already reported the command aborted', async () => {
    const { s, outcome } = await approveWhileCancelled(select('Approve'))
    assert.deepEqual(outcome, { kind: 'thrown', text: 'This operation was aborted' })
    assert.equal(s.asked, 1)
    assert.equal(s.repo.exists(APPROVAL), false)
  })

  test('an uncancelled Approve still writes', async () => {
    const s = await openSession()
    s.repo.change('feat')
    const execution = await s.ctx.commands.execute(s.agent, '/approve feat design', [], new AbortController().signal)
    assert.deepEqual(execution.result, { kind: 'success', text: 'design of feat approved' })
    assert.equal(s.repo.exists(APPROVAL), true)
  })
})
