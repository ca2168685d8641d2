// The guard: every tool call DSH is about to run goes to the native checkGuard. (The harness bundle
// called this file lib/gates.js.)
import { tmpdir } from 'node:os'

import native from '../index.js'
import { gatesActive, resolveFlags } from './config.mjs'

const { checkGuard } = native

/** The session directory of the calling agent; relative paths in a tool call resolve against it. */
export const sessionCwd = (agent) => agent?.session.header.cwd ?? process.cwd()

/**
 * A `ctx.tools.guard` callback: `undefined` allows, a string denies. DSH denies on anything but
 * `undefined`, so the native `null` (allowed) becomes `undefined`.
 */
export function approvalGuard(exec) {
  return checkGuard(exec, sessionCwd(exec.agent)) ?? undefined
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
    c.tools.guard(approvalGuard)
  })
  return () => fiber.dispose()
}
