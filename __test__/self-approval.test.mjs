// P-11: an agent cannot approve its own work by giving the CLI a terminal. Each test REALLY runs
// `approval-gates approve` on a pseudo-terminal the way an agent's shell would (util-linux
// `script`, python's pty module), types `yes`, and finds approval.md byte-for-byte unchanged.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import { makeRepo } from './helpers/repo.mjs'
import { cleanEnvironment, personsTerminal, quote } from './helpers/terminal.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const linux = { skip: process.platform !== 'linux' && 'needs /proc, util-linux script and python3' }
const APPROVAL = 'openspec/changes/feat/approval.md'

/** A change whose design is approved and whose plan is ready: `approve feat plan` would write. */
function readyRepo() {
  const repo = makeRepo().change('feat').plan('p', 'feat').approveDesign('feat')
  return { repo, before: repo.read(APPROVAL) }
}

const approveCommand = (repo) => [process.execPath, BIN, 'approve', 'feat', 'plan', '--cwd', repo.root]

function underScript(repo, env, wrap = (command) => command) {
  const command = wrap(approveCommand(repo).map(quote).join(' '))
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { input: 'yes\n', encoding: 'utf8', env })
  return { code: result.status, output: result.stdout.replaceAll('\r', '') }
}

const PTY_SPAWN = 'import pty, sys; pty.spawn(sys.argv[1:])'

function underPythonPty(repo, env) {
  const result = spawnSync('python3', ['-c', PTY_SPAWN, ...approveCommand(repo)], { input: 'yes\n', encoding: 'utf8', env })
  return { code: result.status, output: result.stdout.replaceAll('\r', '') }
}

function assertRefused(repo, before, result, reason) {
  assert.match(result.output, /nothing approved/, result.output)
  assert.match(result.output, reason)
  assert.doesNotMatch(result.output, /Type yes/)
  assert.equal(repo.read(APPROVAL), before)
}

describe('approve refuses a terminal an agent drives', () => {
  test('under script, in Claude Code\'s environment', linux, () => {
    const { repo, before } = readyRepo()
    assertRefused(repo, before, underScript(repo, cleanEnvironment({ CLAUDECODE: '1' })), /agent's environment \(CLAUDECODE\)/)
  })

  test('under python3 pty.spawn, in DSH\'s environment', linux, () => {
    const { repo, before } = readyRepo()
    assertRefused(repo, before, underPythonPty(repo, cleanEnvironment({ DSH_SESSION_ID: 's-1' })), /agent's environment \(DSH_SESSION_ID\)/)
  })

  for (const [host, marker, value] of [
    ['Codex CLI', 'CODEX_THREAD_ID', 'thread-1'],
    ['Codex CLI (sandboxed)', 'CODEX_SANDBOX_NETWORK_DISABLED', '1'],
    ['Gemini CLI', 'GEMINI_CLI', '1'],
  ]) {
    test(`under script, in ${host}'s environment`, linux, () => {
      const { repo, before } = readyRepo()
      assertRefused(repo, before, underScript(repo, cleanEnvironment({ [marker]: value })), new RegExp(`agent's environment \\(${marker}\\)`))
    })
  }

  test('with the markers scrubbed (env -i), an ancestor that is the harness still shows', linux, () => {
    const { repo, before } = readyRepo()
    // The agent's shell runs as a child of its harness; `exec -a dsh` gives this test's shell
    // the harness's name (a second command keeps bash from exec-ing `script` in its place), and
    // `env -i` drops every marker from the CLI's own environment.
    const harness = (command) => `env -i PATH="$PATH" HOME="$HOME" ${command}`
    const result = spawnSync('bash', ['-c', `exec -a dsh bash -c ${quote(`script -qec ${quote(harness(approveCommand(repo).map(quote).join(' ')))} /dev/null; exit $?`)}`], {
      input: 'yes\n',
      encoding: 'utf8',
      env: cleanEnvironment(),
    })
    assertRefused(repo, before, { output: result.stdout.replaceAll('\r', '') }, /is an agent harness \(dsh\)/)
  })

  test('a detached CLI on a pty whose other side an agent holds is refused', linux, () => {
    const { repo, before } = readyRepo()
    // The agent's python holds the master; the CLI runs re-parented (setsid -f) with a clean
    // environment, so only the process on the other side of its terminal gives the agent away.
    const holder = `
import os, pty, subprocess, sys, time
master, slave = pty.openpty()
subprocess.Popen(["setsid", "-f", *sys.argv[1:]], stdin=slave, stdout=slave, stderr=slave, env={"PATH": os.environ["PATH"]}).wait()
os.write(master, b"yes\\n")
out = b""
for _ in range(600):
    try:
        chunk = os.read(master, 4096) if __import__("select").select([master], [], [], 0.05)[0] else b""
    except OSError:
        break
    out += chunk
    if b"nothing approved" in out or b"approved" in out and b"\\n" in out.split(b"approved")[-1]:
        break
sys.stdout.write(out.decode("utf8", "replace"))
`
    const result = spawnSync('python3', ['-c', holder, ...approveCommand(repo)], { encoding: 'utf8', env: cleanEnvironment({ CLAUDECODE: '1' }) })
    assertRefused(repo, before, { output: result.stdout.replaceAll('\r', '') }, /terminal's other side: process \d+ runs in an agent's environment \(CLAUDECODE\)/)
  })

  test('a person\'s terminal still approves (the positive case)', linux, () => {
    const { repo } = readyRepo()
    const result = personsTerminal(approveCommand(repo), 'yes\n')
    assert.equal(result.code, 0, result.output)
    assert.match(repo.read(APPROVAL), /^plan:\n {2}by: owner/m)
  })
})
