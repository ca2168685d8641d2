// presentApproval: checkApproval's verdict plus what the owner is shown before approving, the same
// for every channel (DSH's card, the CLI prompt, a prompt-side /approve).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { checkApproval, presentApproval, writeApproval } from '../index.js'
import { makeRepo, planText, sha256 } from './helpers/repo.mjs'

const PLAN = 'docs/superpowers/plans/p.md'
const ASKERS = ['owner-command', 'agent-tool', 'cli', 'prompt']

describe('presentApproval', () => {
  test('refuses exactly as checkApproval does, with no presentation, for every asker', () => {
    const repo = makeRepo().change('feat', ['proposal.md', 'design.md']).change('nodesign').plan('p', 'nodesign')
    const cases = [
      ['feat', 'design'],
      ['nodesign', 'plan'],
      ['../x', 'design'],
      ['feat', 'final'],
      [7, 'design'],
    ]
    for (const asker of ASKERS) {
      for (const [id, kind] of cases) {
        const checked = checkApproval(id, kind, repo.root)
        assert.equal(checked.ok, false)
        assert.deepEqual(presentApproval(id, kind, asker, repo.root), checked, `${id} ${kind}`)
      }
    }
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })

  test('a plan: the verdict of checkApproval, the plan text, its sha256 and what is written', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const sha = sha256(planText('feat'))
    const shown = presentApproval('feat', 'plan', 'agent-tool', repo.root)
    const { presentation, ...verdict } = shown
    assert.deepEqual(verdict, checkApproval('feat', 'plan', repo.root))
    assert.equal(shown.sha256, sha)
    assert.equal(presentation.title, 'Approve the plan of feat?')
    assert.equal(presentation.asker, 'agent-tool')
    assert.equal(presentation.changeId, 'feat')
    assert.equal(presentation.kind, 'plan')
    assert.deepEqual(presentation.documents, [
      {
        role: 'plan',
        path: PLAN,
        bytes: planText('feat').length,
        lines: 5,
        sha256: sha,
        excerpt: { text: planText('feat'), bytes: planText('feat').length, lines: 5, truncated: false },
      },
    ])
    assert.deepEqual(presentation.writes, { file: 'openspec/changes/feat/approval.md', section: 'plan', by: 'owner', sha256: sha })
    assert.ok(presentation.markdown.includes(planText('feat').trimEnd()))
    assert.ok(presentation.text.includes(`──── Plan ${PLAN} · ${planText('feat').length} bytes · 5 lines ────\n${planText('feat')}`))
    assert.equal(repo.read('openspec/changes/feat/approval.md').includes('plan:'), false, 'never writes')
  })

  test('a design: design.md first with its text, proposal.md and builder-check.md by size', () => {
    const repo = makeRepo().change('feat')
    const { presentation } = presentApproval('feat', 'design', 'owner-command', repo.root)
    assert.deepEqual(
      presentation.documents.map(({ role, path, bytes, excerpt }) => [role, path, bytes, excerpt?.text]),
      [
        ['design', 'openspec/changes/feat/design.md', 12, '# design.md\n'],
        ['proposal', 'openspec/changes/feat/proposal.md', 14, undefined],
        ['builder-check', 'openspec/changes/feat/builder-check.md', 19, undefined],
      ],
    )
    assert.deepEqual(presentation.writes, { file: 'openspec/changes/feat/approval.md', section: 'design', by: 'owner' })
  })

  test('each asker reads differently in both renderings', () => {
    const repo = makeRepo().change('feat')
    const shown = ASKERS.map((asker) => presentApproval('feat', 'design', asker, repo.root).presentation)
    assert.equal(new Set(shown.map((p) => p.markdown.split('\n')[0])).size, ASKERS.length)
    assert.equal(new Set(shown.map((p) => p.text.split('\n')[2])).size, ASKERS.length)
    assert.match(shown[1].text, /^Approve the design of feat\?\n\nThe agent asks you for this approval, with its request_approval tool/)
  })

  test('a re-approval names the section it replaces', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat').approvePlan('feat', 'p').plan('p', 'feat', '- [ ] task 2\n')
    const { presentation } = presentApproval('feat', 'plan', 'cli', repo.root)
    assert.deepEqual(presentation.writes.replaces, { by: 'owner', at: '2026-10-25T11:30:00Z', sha256: sha256(planText('feat')) })
    assert.match(presentation.text, /It replaces the plan section there now \(by owner, at 2026-10-25T11:30:00Z, sha256 [0-9a-f]{64}\)\./)
  })

  test('a long plan is cut within the caps at a line end, never inside a character, and the cut is marked', () => {
    const body = Array.from({ length: 3000 }, (_, n) => `- [ ] tâche ${n} — vérifier\n`).join('')
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat', body)
    const whole = Buffer.from(planText('feat', body))
    const { presentation, sha256: shownSha } = presentApproval('feat', 'plan', 'cli', repo.root)
    const [plan] = presentation.documents
    assert.equal(shownSha, sha256(whole), 'the hash is of the whole file')
    assert.equal(plan.bytes, whole.length)
    assert.equal(plan.lines, 3005)
    assert.equal(plan.excerpt.truncated, true)
    assert.ok(plan.excerpt.bytes <= 16 * 1024 && plan.excerpt.lines <= 200)
    assert.equal(Buffer.from(plan.excerpt.text).length, plan.excerpt.bytes)
    assert.ok(whole.subarray(0, plan.excerpt.bytes).equals(Buffer.from(plan.excerpt.text)))
    assert.ok(plan.excerpt.text.endsWith('\n'))
    assert.match(presentation.markdown, /\n\n\*Shown: the first \d+ lines of 3005 lines \([\d.]+ KiB of [\d.]+ KiB\)\. Read the whole file in `docs\/superpowers\/plans\/p\.md`\.\*$/)
  })

  test('the sha256 shown is the one the write insists on (P-10)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const shown = presentApproval('feat', 'plan', 'cli', repo.root)
    repo.plan('p', 'feat', '- [ ] sneaked in\n')
    assert.equal(writeApproval('feat', 'plan', true, repo.root, shown.sha256).approved, false)
    repo.plan('p', 'feat')
    assert.equal(writeApproval('feat', 'plan', true, repo.root, shown.sha256).approved, true)
  })

  test('an unknown asker is a TypeError; a non-string cwd an InvalidArg error', () => {
    const repo = makeRepo().change('feat')
    for (const asker of [undefined, 'owner', 7, {}]) {
      assert.throws(() => presentApproval('feat', 'design', asker, repo.root), {
        name: 'TypeError',
        message: 'presentApproval: asker must be one of owner-command, agent-tool, cli, prompt',
      })
    }
    assert.throws(() => presentApproval('feat', 'design', 'cli', 7), { code: 'InvalidArg', message: 'approval-gates: cwd must be a string' })
  })
})
