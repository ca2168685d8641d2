// The guard: every tool call DSH is about to run goes to the native checkGuard. (The harness bundle
// called this file lib/gates.js.)
import { tmpdir } from 'node:os'

import native from '../index.js'
import { gatesActive, resolveFlags } from './config.mjs'

const { checkGuard, dropShell, shellCallRan } = native

/** The session directory of the calling agent; relative paths in a tool call resolve against it. */
export const sessionCwd = (agent) => agent?.session.header.cwd ?? process.cwd()

/**
 * A `ctx.tools.guard` callback: `undefined` allows, a string denies. DSH denies on anything but
 * `undefined`, so the native `null` (allowed) becomes `undefined`. Given the `tools` registry, a
 * call of a persistent shell is judged with the state the shell's earlier calls may have left;
 * given the context, a call whose session left DSH's sandbox is judged as asking to leave it.
 * With `resultsObserved` (the registry's `tools/result` goes to {@link noteShellResult}, as
 * {@link registerGates} arranges), a shell call is named by its `callId` so that its result can
 * tell the guard that it ran.
 */
export function approvalGuard(exec, tools, ctx, resultsObserved = false) {
  const shell = persistentShell(exec, tools)
  const sandbox = sessionSandbox(exec, ctx)
  const callId = shell !== undefined && resultsObserved && typeof exec.callId === 'string' ? exec.callId : undefined
  const options = shell === undefined && sandbox === undefined ? undefined : { shell, callId, sandbox }
  return checkGuard(exec, sessionCwd(exec.agent), options) ?? undefined
}

/**
 * DSH's persistent shells append this when they reset the shell (a timeout, an exit, a failed
 * send); the next call starts fresh in the workspace.
 */
const SHELL_RESET = /shell was reset/

/**
 * A `tools/result` observer: a persistent shell's call that ended without an error and without
 * resetting the shell ran to its end, so the guard lets go of where it started (a `cd` that may
 * have failed still counts). Anything else keeps where it started and the fresh shell possible.
 */
export function noteShellResult(exec, result, tools) {
  const shell = persistentShell(exec, tools)
  if (shell === undefined || typeof exec.callId !== 'string' || result?.isError !== false) return false
  const texts = Array.isArray(result.content) ? result.content.map((block) => (typeof block?.text === 'string' ? block.text : '')) : []
  if (texts.some((text) => SHELL_RESET.test(text))) return false
  return shellCallRan(shell, exec.callId)
}

/**
 * DSH's shell tools, which run in its sandbox and can be asked to leave it. (Its `write` and
 * `edit` can too, but their targets are judged as paths, the ledger's folder included.)
 */
const SANDBOXED_TOOLS = new Set(['bash', 'pwsh'])

/**
 * The mode a shell call runs in when its session was switched away from the
 * deployment's default (a `sandbox/mode` event, which DSH web's API lets any local process
 * cause), or `undefined`. Given `ctx`, the native guard refuses such a call while approvals are
 * sealed, as it refuses a call's own `sandbox_permissions` (P-17).
 */
export function sessionSandbox(exec, ctx) {
  const session = exec?.agent?.session
  if (!SANDBOXED_TOOLS.has(exec?.name) || session === undefined || typeof ctx?.get !== 'function') return undefined
  try {
    const policy = ctx.get('sandboxPolicy')
    const override = policy?.overrideOf?.(session)
    return typeof override === 'string' && override !== policy.defaultMode ? override : undefined
  } catch {
    return undefined
  }
}

/** DSH's shells whose persistent packages keep state between calls (tool-bash-persistent, tool-pwsh-persistent). */
const SHELL_TOOLS = new Set(['bash', 'pwsh'])
/** Each agent's shells: its key prefix, and the names it has used (dropped when the agent ends). */
const agentShells = new WeakMap()
/** The persistent shells with state, by key (for tests and diagnostics). */
export const liveShells = new Set()
let agents = 0

/**
 * The name of the persistent shell an execution runs in, or `undefined` for any other call. A
 * persistent `bash`/`pwsh` is told apart from the one-shot tools of the same name by its
 * registered parameters: it has `command` and nothing else (the one-shot tools also take
 * `workdir`, `timeout`, `run_in_background`, …). Its shell is per agent, as the tool keeps it, and
 * its state is dropped when the agent's scope ends.
 */
export function persistentShell(exec, tools) {
  const agent = exec?.agent
  if (!SHELL_TOOLS.has(exec?.name) || agent === undefined || typeof tools?.get !== 'function') return undefined
  let properties
  try {
    properties = tools.get(exec.name, agent)?.parameters?.properties
  } catch {
    return undefined
  }
  if (properties === null || typeof properties !== 'object') return undefined
  const fields = Object.keys(properties)
  if (fields.length !== 1 || fields[0] !== 'command') return undefined
  let shells = agentShells.get(agent)
  if (shells === undefined) {
    shells = { prefix: `dsh:${process.pid}:${++agents}:${agent.session?.id ?? ''}`, names: new Set() }
    agentShells.set(agent, shells)
    const dispose = () => {
      for (const name of shells.names) {
        dropShell(name)
        liveShells.delete(name)
      }
      shells.names.clear()
    }
    try {
      agent.ctx.effect(() => dispose, 'approval-gates persistent shell state')
    } catch {
      // No scope to hang the cleanup on: the native store's caps still bound the state.
    }
  }
  const name = `${shells.prefix}:${exec.name}`
  shells.names.add(name)
  liveShells.add(name)
  return name
}

/** Whether the native guard works here: it must refuse a write of approval.md and allow a read. */
export function selfCheck() {
  try {
    const file_path = 'openspec/changes/self-check/approval.md'
    const write = checkGuard({ name: 'write', arguments: { file_path, content: '' } }, tmpdir())
    const read = checkGuard({ name: 'read', arguments: { file_path } }, tmpdir())
    return typeof write === 'string' && write.length > 0 && read === null
  } catch {
    return false
  }
}

/**
 * Registers the guard on `ctx.tools` (waiting for the service, re-registering if it is reloaded)
 * when `enabled && guards && guardsOk && approvalGates`; omitted flags take the Config defaults and
 * an omitted `guardsOk` runs {@link selfCheck}. Returns a disposer, or `undefined` when inactive.
 */
export function registerGates(ctx, flags) {
  const resolved = resolveFlags(flags)
  if (resolved.guardsOk === undefined) resolved.guardsOk = selfCheck()
  if (!gatesActive(resolved)) return undefined
  const fiber = ctx.inject(['tools'], function approvalGatesGuard(c) {
    c.on('tools/result', (exec, result) => {
      noteShellResult(exec, result, c.tools)
    })
    c.tools.guard((exec) => approvalGuard(exec, c.tools, c, true))
  })
  return () => fiber.dispose()
}
