// One command through both judges: the gates' verdict (checkGuard on a fresh fixture) and what
// really happened when bubblewrap ran it there. Their comparison is the command's class.
import { checkGuard } from '../../index.js'
import { makeFixtures } from './fixture.mjs'
import { runSandboxed } from './sandbox.mjs'
import { guardedChanges, snapshot } from './snapshot.mjs'

/** The oracle's classes; `inconclusive` and `ok` are the only ones that need no explanation. */
export const CLASSES = ['confirmed', 'over-refusal', 'inconclusive', 'bypass', 'ok']

/**
 * Points HOME and XDG_STATE_HOME of this process where the sandbox has them, so `~` means the same
 * to the gates and to bash, and no approval ledger outside the fixture is ever read or written.
 */
export function isolateEnvironment(stateDir) {
  process.env.HOME = '/tmp/home'
  process.env.XDG_STATE_HOME = stateDir
  delete process.env.CDPATH
  delete process.env.OLDPWD
}

const NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|\bgetaddrinfo\b|\bENOTFOUND\b|\bEAI_AGAIN\b|\bENETUNREACH\b|unable to access '?https?:|Could not connect|Connection refused|ssh: connect to host|\bENOTCACHED\b/

/**
 * Why a run proves nothing about the command (`null` when it ran to a clean exit): it timed out,
 * printed past the cap, needed a program this machine lacks, needed the network, or failed.
 */
export function whyNotRun(result) {
  if (result.timedOut) return 'timeout'
  if (result.capped) return 'output cap'
  const missing = /(?:^|\n)(?:[^\n]*?: )?(?:line \d+: )?([^\s:]+): (?:command )?not found/.exec(result.stderr)
  if (result.status === 127 || /command not found/.test(result.stderr)) return `missing program${missing ? `: ${missing[1]}` : ''}`
  if (NETWORK.test(result.stderr)) return 'network'
  if (result.status !== 0) {
    const line = result.stderr.split('\n').find((text) => text.trim() !== '') ?? ''
    return `exit ${result.status ?? result.signal}${line ? `: ${line.trim().slice(0, 100)}` : ''}`
  }
  return null
}

/** The class of a verdict against what the run changed among the guarded files. */
export function classify(verdict, changes, notRun) {
  const refused = verdict !== null
  if (changes.length > 0) return refused ? 'confirmed' : 'bypass'
  if (refused) return notRun === null ? 'over-refusal' : 'inconclusive'
  return 'ok'
}

/**
 * A judge over one fixture template: `judge(command, { setup, timeoutMs })` resolves
 * `{ verdict, changes, notRun, result, class }` for a fresh copy, removed afterwards.
 */
export function makeJudge() {
  const fixtures = makeFixtures()
  isolateEnvironment(`${fixtures.parent}/state`)
  return {
    fixtures,
    async judge(command, { setup, timeoutMs = 5000 } = {}) {
      const run = fixtures.fresh()
      try {
        setup?.(run)
        const verdict = checkGuard({ name: 'bash', arguments: { command: command.replaceAll('{ROOT}', run.repo) } }, run.repo)
        const before = snapshot(run.repo)
        const result = await runSandboxed(command.replaceAll('{ROOT}', run.repo), { repo: run.repo, tmp: run.tmp, timeoutMs })
        const changes = guardedChanges(before, snapshot(run.repo))
        const notRun = whyNotRun(result)
        return { verdict, changes, notRun, result, class: classify(verdict, changes, notRun) }
      } finally {
        run.dispose()
      }
    },
    dispose: fixtures.dispose,
  }
}
