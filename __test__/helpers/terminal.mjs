// Terminals for the CLI's `approve`: a person's (detached from the test's process tree, with an
// environment free of agent markers) and an agent's (a pty wrapper started by the agent's shell).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { MARKERS as AGENT_MARKERS } from '../../lib/cli/agent.mjs'

export function cleanEnvironment(extra = {}) {
  const environment = { ...process.env }
  for (const name of AGENT_MARKERS) delete environment[name]
  return { ...environment, ...extra }
}

export const quote = (word) => `'${String(word).replaceAll("'", `'\\''`)}'`

/** Polls for `path`, sleeping between looks; bounded, so a hung terminal fails the test. */
function waitFor(path, looks = 1200) {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let look = 0; look < looks && !existsSync(path); look += 1) Atomics.wait(pause, 0, 0, 50)
  return existsSync(path)
}

/** Runs `argv` on a fresh terminal held by a detached `script`, typing `answer`. */
export function personsTerminal(argv, answer) {
  const dir = mkdtempSync(join(tmpdir(), 'ag-terminal-'))
  try {
    const [input, log, status] = ['answer', 'typescript', 'status'].map((name) => join(dir, name))
    writeFileSync(input, answer)
    const command = argv.map(quote).join(' ')
    const inner = `script -qec ${quote(command)} ${quote(log)} < ${quote(input)} > /dev/null; echo $? > ${quote(`${status}.tmp`)}; mv ${quote(`${status}.tmp`)} ${quote(status)}`
    spawnSync('setsid', ['-f', 'sh', '-c', inner], { env: cleanEnvironment(), stdio: 'ignore' })
    if (!waitFor(status)) return { code: null, output: 'the terminal did not finish' }
    const output = readFileSync(log, 'utf8').replaceAll('\r', '')
    return { code: Number(readFileSync(status, 'utf8').trim()), output }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
