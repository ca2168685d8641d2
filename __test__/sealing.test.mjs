// Sealed approvals (P-17), proven by running an agent's attempts for real inside bubblewrap, the
// way the hosts confine the agent's commands: everything read-only (`--ro-bind / /`), the ledger's
// folder included, only the repository and a private /tmp writable, every capability dropped
// (`--cap-drop ALL`: without it root inside could remount / writable), HOME and XDG_STATE_HOME
// naming the real ledger. After each attempt the gates are asked from outside (checkGuard,
// loopStatus): none yields an approval they count, and the ledger is unchanged byte for byte. The
// owner's approval from outside still works afterwards.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { before, describe, test } from 'node:test'

import { checkGuard, loopStatus, sealSurvey, writeApproval } from '../index.js'
import { makeRepo, planText, sha256 } from './helpers/repo.mjs'
import { quote } from './helpers/terminal.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const INDEX = join(ROOT, 'index.js')
const BIN = join(ROOT, 'bin', 'approval-gates.mjs')
const STATE = process.env.XDG_STATE_HOME
const LEDGERS = join(STATE, 'approval-gates', 'repos')

/** Why the suite cannot run here, or undefined: bwrap must exist and be able to confine. */
function unavailable() {
  if (process.platform !== 'linux') return 'bubblewrap confines on Linux only'
  const probe = spawnSync('bwrap', ['--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'], { encoding: 'utf8' })
  if (probe.error) return `bwrap is not installed (${probe.error.code}); scripts/setup/system-packages.sh installs Debian's bubblewrap`
  if (probe.status !== 0) return `bwrap cannot confine here (exit ${probe.status}: ${probe.stderr.trim()})`
  for (const tool of ['script', 'git']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`
  }
  return undefined
}
const skip = unavailable()
if (skip !== undefined) console.log(`# sealing.test.mjs skipped: ${skip}`)

/** The agent's shell: `command` in bash, confined as DSH's workspace-write profile confines it. */
function confined(repo, command, { input = '', env = {} } = {}) {
  const args = [
    '--cap-drop', 'ALL',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--ro-bind', STATE, STATE,
    '--bind', repo.root, repo.root,
    '--chdir', repo.root,
    '--die-with-parent',
    '--',
    'bash', '-c', command,
  ]
  const environment = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: process.env.HOME,
    XDG_STATE_HOME: STATE,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    ...env,
  }
  const result = spawnSync('bwrap', args, { input, encoding: 'utf8', env: environment, timeout: 120_000 })
  return { code: result.status, stdout: result.stdout, out: `${result.stdout}${result.stderr}`.replaceAll('\r', '') }
}

const ledgerBytes = () =>
  Object.fromEntries(readdirSync(LEDGERS).filter((f) => f.endsWith('.ledger')).map((f) => [f, readFileSync(join(LEDGERS, f), 'utf8')]))

const writePlan = (repo, id) =>
  checkGuard({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/p.md', content: planText(id) } }, repo.root)
const dispatch = (repo) => checkGuard({ name: 'subagent', arguments: { prompt: 'implement docs/superpowers/plans/p.md' } }, repo.root)
const DESIGN_REFUSED = 'BLOCKED [approval-gates]: design not approved; run /approve foo design'
const PLAN_REFUSED = 'BLOCKED [approval-gates]: plan not approved; run /approve foo plan'
const git = (repo, args) => spawnSync('git', ['-C', repo.root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' })

describe('an agent confined to its workspace cannot approve, whatever it runs', { skip }, () => {
  let repo
  let sealed
  before(() => {
    // `other` was approved by the owner (so the repository is sealed); `foo` is what the agent wants.
    repo = makeRepo().change('foo').change('other').plan('p', 'foo')
    git(repo, ['init', '-q'])
    git(repo, ['add', '-A'])
    git(repo, ['commit', '-qm', 'start'])
    assert.equal(writeApproval('other', 'design', true, repo.root).approved, true)
    assert.equal(sealSurvey(repo.root).seal, 'sealed')
    sealed = ledgerBytes()
  })

  /** After an attempt: nothing counts for `foo`, and the ledger is what the owner left. */
  function nothingCounts() {
    assert.equal(writePlan(repo, 'foo'), DESIGN_REFUSED)
    const foo = loopStatus(repo.root).find((row) => row.id === 'foo')
    assert.equal(foo.designApproval, undefined)
    assert.equal(foo.planApproval.state, 'none')
    assert.deepEqual(ledgerBytes(), sealed, 'the ledger is unchanged')
  }

  test('writeApproval through node: the ledger cannot be written, so nothing is', () => {
    const before = repo.read('openspec/changes/foo/approval.md')
    const run = confined(repo, `node -e ${quote(`const r = require(${JSON.stringify(INDEX)}).writeApproval('foo', 'design', true, process.cwd()); console.log(JSON.stringify(r))`)}`)
    assert.equal(run.code, 0, run.out)
    const result = JSON.parse(run.stdout)
    assert.equal(result.approved, false)
    assert.match(result.message, /^nothing approved: the approval ledger cannot be written \(.*Read-only file system.*\); approvals are recorded only from the owner's side/)
    assert.equal(repo.read('openspec/changes/foo/approval.md'), before, 'approval.md untouched')
    nothingCounts()
  })

  test('writeApproval with a ledger of its own (XDG_STATE_HOME in /tmp): approval.md is written and does not count', () => {
    const run = confined(repo, `node -e ${quote(`console.log(require(${JSON.stringify(INDEX)}).writeApproval('foo', 'design', true, process.cwd()).message)`)}`, {
      env: { XDG_STATE_HOME: '/tmp/own-state' },
    })
    assert.match(run.out, /^design of foo approved/, run.out)
    assert.match(repo.read('openspec/changes/foo/approval.md'), /^design:\n {2}by: owner\n/)
    nothingCounts()
    assert.equal(loopStatus(repo.root).find((row) => row.id === 'foo').designSeal, 'unrecorded')
  })

  test('the CLI under script, typing yes', () => {
    const cliLine = ['node', BIN, 'approve', 'foo', 'design', '--cwd', repo.root].map(quote).join(' ')
    const run = confined(repo, `script -qec ${quote(cliLine)} /dev/null`, { input: 'yes\n' })
    assert.match(run.out, /nothing approved: the approval ledger cannot be written/, run.out)
    nothingCounts()
  })

  test("the CLI under python's pty, typing yes", () => {
    const pty = 'import pty, sys; pty.spawn(sys.argv[1:])'
    const run = confined(repo, `/usr/bin/python3 -c ${quote(pty)} node ${quote(BIN)} approve foo design --cwd ${quote(repo.root)}`, { input: 'yes\n' })
    assert.match(run.out, /nothing approved: the approval ledger cannot be written/, run.out)
    nothingCounts()
  })

  test("seal from inside: the agent's yes records nothing", () => {
    const cliLine = ['node', BIN, 'seal', '--cwd', repo.root].map(quote).join(' ')
    const run = confined(repo, `printf 'design:\\n  by: owner\\n  at: x\\n' > openspec/changes/foo/approval.md; script -qec ${quote(cliLine)} /dev/null`, { input: 'yes\n' })
    assert.match(run.out, /nothing approved: the approval ledger cannot be written/, run.out)
    nothingCounts()
  })

  test("copying another change's approval.md, or forging one with the owner's very by and at", () => {
    confined(repo, 'cp openspec/changes/other/approval.md openspec/changes/foo/approval.md')
    assert.equal(repo.read('openspec/changes/foo/approval.md'), repo.read('openspec/changes/other/approval.md'))
    nothingCounts()
    confined(repo, "sed -n 'p' openspec/changes/other/approval.md | tee openspec/changes/foo/approval.md >/dev/null")
    nothingCounts()
  })

  test('git checkout of a branch the agent forged', () => {
    const forge = [
      'git -c user.name=a -c user.email=a@a checkout -q -b forged',
      "printf 'design:\\n  by: owner\\n  at: 2026-10-25T10:00:00Z\\n' > openspec/changes/foo/approval.md",
      'git -c user.name=a -c user.email=a@a add -A',
      'git -c user.name=a -c user.email=a@a commit -qm forged',
      'git checkout -q master 2>/dev/null || git checkout -q main',
      'git checkout -q forged -- .',
      'git checkout -q forged',
    ].join(' && ')
    const run = confined(repo, forge)
    assert.equal(run.code, 0, run.out)
    assert.match(repo.read('openspec/changes/foo/approval.md'), /^design:\n {2}by: owner\n/)
    nothingCounts()
  })

  test('swapping openspec/ for a prepared tree', () => {
    const swap = [
      'mkdir -p /tmp/prepared/openspec/changes/foo',
      'cp -r openspec/changes/other /tmp/prepared/openspec/changes/',
      'cp openspec/changes/foo/*.md /tmp/prepared/openspec/changes/foo/',
      'cp openspec/changes/other/approval.md /tmp/prepared/openspec/changes/foo/approval.md',
      'mv openspec openspec.old',
      'cp -r /tmp/prepared/openspec openspec',
    ].join(' && ')
    const run = confined(repo, swap)
    assert.equal(run.code, 0, run.out)
    nothingCounts()
    confined(repo, 'rm -rf openspec && ln -s openspec.old openspec')
    nothingCounts()
    confined(repo, 'rm openspec && mv openspec.old openspec')
  })

  test('editing, replacing, moving or removing the ledger, or remounting / to do it', () => {
    const [file] = Object.keys(sealed)
    const ledger = join(LEDGERS, file)
    const attempts = [
      `printf 'design foo owner 2026-10-25T10:00:00Z\\n' >> ${quote(ledger)}`,
      `sed -i 's/other/foo/' ${quote(ledger)}`,
      `cp /dev/null ${quote(ledger)}`,
      `mv ${quote(ledger)} /tmp/x`,
      `rm -f ${quote(ledger)}`,
      `rm -rf ${quote(join(STATE, 'approval-gates'))}`,
      `ln -sf /tmp/mine ${quote(ledger)}`,
      `chmod 666 ${quote(ledger)}`,
      `mount -o remount,rw / && printf 'design foo owner T\\n' >> ${quote(ledger)}`,
      `unshare -rm sh -c 'mount -o remount,rw ${STATE} && echo design foo owner T >> ${ledger}'`,
    ]
    for (const attempt of attempts) {
      const run = confined(repo, attempt)
      assert.notEqual(run.code, 0, `${attempt} succeeded:\n${run.out}`)
    }
    nothingCounts()
  })

  test('tracing a process outside the sandbox (the host that could write the ledger) is refused', () => {
    const trace = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = int(sys.argv[1])
print('attach', libc.ptrace(16, pid, None, None), os.strerror(ctypes.get_errno()))
try:
    open('/proc/%d/mem' % pid, 'rb').read(1)
    print('mem readable')
except OSError as error:
    print('mem', error.strerror)
`
    const run = confined(repo, `/usr/bin/python3 -c ${quote(trace)} ${process.pid}`)
    assert.equal(run.stdout, 'attach -1 Operation not permitted\nmem Permission denied\n', run.out)
  })

  test('a plan approval forged on top of the owner\'s design approval does not count either', () => {
    repo.approval('foo', '')
    assert.equal(writeApproval('foo', 'design', true, repo.root).approved, true, 'the owner, outside')
    assert.equal(writePlan(repo, 'foo'), null)
    sealed = ledgerBytes()
    const sha = sha256(readFileSync(repo.path('docs/superpowers/plans/p.md')))
    const run = confined(repo, `printf 'plan:\\n  by: owner\\n  at: 2026-10-25T11:30:00Z\\n  sha256: ${sha}\\n' >> openspec/changes/foo/approval.md`)
    assert.equal(run.code, 0, run.out)
    assert.equal(dispatch(repo), PLAN_REFUSED)
    const inside = confined(repo, `node -e ${quote(`console.log(require(${JSON.stringify(INDEX)}).writeApproval('foo', 'plan', true, process.cwd()).message)`)}`)
    assert.match(inside.out, /nothing approved: the approval ledger cannot be written/)
    assert.equal(dispatch(repo), PLAN_REFUSED)
    assert.deepEqual(ledgerBytes(), sealed)
  })

  test("the owner's approval from outside still works afterwards", () => {
    const result = writeApproval('foo', 'plan', true, repo.root)
    assert.equal(result.approved, true, result.message)
    assert.equal(dispatch(repo), null)
    assert.equal(loopStatus(repo.root).find((row) => row.id === 'foo').planSeal, 'sealed')
  })
})
