// `approval-gates seal` and the seal-aware `status` (P-17), on real terminals: the owner sees each
// section the ledger does not hold and records it with a typed yes; an agent's terminal or a
// piped yes records nothing; after sealing, a forged approval.md does not count and status names it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import { checkGuard, loopStatus, sealSurvey, writeApproval } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'
import { cleanEnvironment, personsTerminal, quote } from './helpers/terminal.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const linux = { skip: process.platform !== 'linux' && 'needs util-linux script' }
const cli = (args, options = {}) => {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', ...options })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
const onTerminal = (repo, args, answer) => personsTerminal([process.execPath, BIN, ...args, '--cwd', repo.root], answer)
const writePlan = (repo, id) =>
  checkGuard({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/x.md', content: planText(id) } }, repo.root)
const refusedDesign = (id) => `BLOCKED [approval-gates]: design not approved; run /approve ${id} design`

describe('seal', () => {
  test('the agent cannot run it: every way of starting it is a write of the ledger; status and help are not', () => {
    const repo = makeRepo().change('a').approveDesign('a')
    const bash = (command) => checkGuard({ name: 'bash', arguments: { command } }, repo.root)
    const ledger = 'BLOCKED [approval-gates]: the approval ledger is written only by /approve'
    for (const command of ['approval-gates seal', 'npx approval-gates seal --cwd .', 'pnpm exec approval-gates seal', "sh -c 'approval-gates seal'", 'echo yes | approval-gates seal', 'env -i approval-gates seal', 'npx -y approval-gates@0.1.0 seal']) {
      assert.equal(bash(command), ledger, command)
    }
    for (const command of ['approval-gates status', 'approval-gates status --json', 'approval-gates --help', 'grep -n seal README.md']) {
      assert.equal(bash(command), null, command)
    }
  })

  test('lists the sections the ledger does not hold and records them on yes', linux, () => {
    const repo = makeRepo().change('a').change('b').plan('pb', 'b').approvePlan('b', 'pb').approveDesign('a')
    const declined = onTerminal(repo, ['seal'], 'no\n')
    assert.equal(declined.code, 1, declined.output)
    assert.match(declined.output, /ledger: \S+\.ledger \(not sealed yet: a hand-written approval\.md counts here\)/)
    assert.match(declined.output, /in approval\.md, not in the ledger \(they do not count once sealed\); to record:\n {2}a design: by owner, at 2026-10-25T10:00:00Z\n {2}b design: by owner, at 2026-10-25T10:00:00Z\n {2}b plan: by owner, at 2026-10-25T11:30:00Z plan docs\/superpowers\/plans\/pb\.md sha256 [0-9a-f]{64}\n/)
    assert.match(declined.output, /Record only approvals you gave\. Type yes to record them and seal: /)
    assert.match(declined.output, /not confirmed; nothing sealed/)
    assert.equal(sealSurvey(repo.root).seal, 'open')

    const sealed = onTerminal(repo, ['seal'], 'yes\n')
    assert.equal(sealed.code, 0, sealed.output)
    assert.match(sealed.output, /sealed: recorded 3 approvals, wrote back 0 approval\.md sections; the ledger is \S+\.ledger/)
    assert.deepEqual(loopStatus(repo.root).map((row) => [row.id, row.designSeal, row.planSeal]), [
      ['a', 'sealed', 'none'],
      ['b', 'sealed', 'sealed'],
    ])
    assert.equal(writePlan(repo, 'a'), null, 'a recorded approval counts')

    const again = onTerminal(repo, ['seal'], '')
    assert.equal(again.code, 0, again.output)
    assert.match(again.output, /nothing to record: approval\.md and the ledger agree/)
  })

  test('with nothing to record it seals the repository: a forged approval.md stops counting', linux, () => {
    const repo = makeRepo().change('c')
    const sealed = onTerminal(repo, ['seal'], 'y\n')
    assert.equal(sealed.code, 0, sealed.output)
    assert.match(sealed.output, /nothing to record: sealing makes only approvals given from now on count here/)
    assert.match(sealed.output, /sealed: recorded 0 approvals/)
    repo.approveDesign('c')
    assert.equal(writePlan(repo, 'c'), refusedDesign('c'))
    const status = cli(['status', '--cwd', repo.root])
    assert.match(status.stdout, /\nc\s+PDB\s+no \(approval\.md only\)\s+-\s+none\s+\/approve c design\n/)
    assert.match(status.stdout, /not counted: c design: approval\.md claims approvals the ledger does not hold \(forged, copied from another change or restored from an old commit\)/)
    assert.match(status.stdout, /\n {2}ok {2}approvals are sealed here by the ledger \S+\.ledger\n/)
  })

  test('writes back an approval only the ledger holds (an approval.md write that failed)', linux, () => {
    const repo = makeRepo().change('c')
    assert.equal(writeApproval('c', 'design', true, repo.root).approved, true)
    const written = repo.read('openspec/changes/c/approval.md')
    repo.approval('c', '')
    assert.equal(writePlan(repo, 'c'), refusedDesign('c'))
    assert.equal(loopStatus(repo.root)[0].designSeal, 'missing')
    const restored = onTerminal(repo, ['seal'], 'yes\n')
    assert.equal(restored.code, 0, restored.output)
    assert.match(restored.output, /in the ledger, not in approval\.md; to write back into approval\.md:\n {2}c design: by owner, at \S+Z\n/)
    assert.match(restored.output, /still sealed: recorded 0 approvals, wrote back 1 approval\.md section;/)
    assert.equal(repo.read('openspec/changes/c/approval.md'), written)
    assert.equal(writePlan(repo, 'c'), null)
  })

  test('refuses a piped yes and an agent\'s terminal, recording nothing', linux, () => {
    const repo = makeRepo().change('c').approveDesign('c')
    const piped = cli(['seal', '--cwd', repo.root], { input: 'yes\n' })
    assert.deepEqual([piped.code, piped.stderr], [1, 'approval-gates seal: stdin is not a terminal, so the owner cannot be asked; nothing sealed. Run it yourself in a terminal.\n'])
    const command = [process.execPath, BIN, 'seal', '--cwd', repo.root].map(quote).join(' ')
    const agent = spawnSync('script', ['-qec', command, '/dev/null'], { input: 'yes\n', encoding: 'utf8', env: cleanEnvironment({ CLAUDECODE: '1' }) })
    assert.match(agent.stdout, /approval-gates seal: this process runs in an agent's environment \(CLAUDECODE\), so an agent may be typing the answer; nothing sealed/)
    assert.equal(sealSurvey(repo.root).seal, 'open')
  })
})

describe('status --json', () => {
  test('carries the rows and the setup report', () => {
    const repo = makeRepo().change('c')
    const { changes, setup } = JSON.parse(cli(['status', '--json', '--cwd', repo.root]).stdout)
    assert.deepEqual(changes.map((row) => row.id), ['c'])
    assert.equal(setup.length >= 1, true)
    const [{ label, report }] = setup
    assert.equal(typeof label, 'string')
    assert.equal(report.mode, 'advisory')
    assert.ok(report.checks.some((check) => check.id === 'sealed' && check.state === 'fails'))
  })

  test('--host dsh reports a DSH profile found under DSH_HOME, and says when none is', () => {
    const repo = makeRepo().change('c')
    const home = makeRepo()
    home.write('profiles/web/package.json', JSON.stringify({ dependencies: { 'approval-gates': '1' }, dsh: { profile: { bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-web-app', 'approval-gates'] } } }))
    home.write('profiles/web/cordis.patch.yml', '- id: sandbox\n  config:\n    runnerCommand: [bwrap, --cap-drop, ALL]\n    runnerFailureSignatures: ["bwrap: "]\n')
    home.write('profiles/plain/package.json', JSON.stringify({ dsh: { profile: { bundles: ['@deepseek-ai/dsh-base'] } } }))
    const env = { ...process.env, DSH_HOME: home.root, DSH_PERMISSION_MODE: '' }
    const { setup } = JSON.parse(cli(['status', '--json', '--host', 'dsh', '--cwd', repo.root], { env }).stdout)
    assert.deepEqual(setup.map((s) => s.label), [`DSH profile web (${home.path('profiles/web')})`])
    const states = Object.fromEntries(setup[0].report.checks.map((c) => [c.id, c.state]))
    assert.deepEqual(
      [states['dsh.sandbox-mode'], states['dsh.shell'], states['dsh.runner'], states['dsh.owner-channel']],
      ['holds', 'holds', 'holds', 'fails'],
    )
    const none = JSON.parse(cli(['status', '--json', '--host', 'dsh', '--cwd', repo.root], { env: { ...env, DSH_HOME: repo.path('nowhere') } }).stdout)
    assert.equal(none.setup[0].report.checks.find((c) => c.id === 'dsh.sandbox-mode').state, 'unknown')
  })
})
