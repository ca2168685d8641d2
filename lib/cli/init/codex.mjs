// `approval-gates init codex`: Codex CLI's PreToolUse hook, at user level.
//
// User level ($CODEX_HOME, default ~/.codex) and not the project's .codex/: Codex loads a
// project's .codex/ only once the project is trusted, the project's files lie in the workspace
// the agent writes, and Codex runs a hook only while its trust record (a hash of the hook's
// definition, kept in the user's config.toml) matches, so a hook the agent edits is switched off,
// not refused. The user-level files lie outside the workspace-write sandbox's writable roots.
// Codex also runs the hook whatever directory it starts in.
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'

import { failClosedCommand, readJsonObject, upsertGroup, writeConfig } from './hook-command.mjs'

/** Codex's own timeout for the hook (seconds); the hook refuses the call itself before it. */
const TIMEOUT = 60
const DEADLINE = 50
const MATCHER = '.*'

export const codexHome = (env = process.env) => env.CODEX_HOME || join(env.HOME || homedir(), '.codex')

/** A hooks.json group that runs approval-gates' hook for Codex (any command spelling). */
export const isOurs = (group) =>
  Array.isArray(group?.hooks) && group.hooks.some((hook) => typeof hook?.command === 'string' && hook.command.includes('approval-gates-hook') && hook.command.includes('--host codex'))

/** The command Codex runs for each tool call: the hook at `hook`, refusing whatever it cannot judge. */
export const codexHookCommand = (hook) => failClosedCommand(hook, 'codex', DEADLINE)

/** The key of a hook's trust record in config.toml: the hooks file, the event, the group's and the handler's place. */
export const trustKey = (hooksPath, index) => `${hooksPath}:pre_tool_use:${index}:0`

const canonical = (value) =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]))
      : value

/**
 * The hash Codex keeps as a hook's trust: sha256 of the canonical JSON (keys sorted, no blanks)
 * of {event_name, matcher, hooks: [the handler, timeout filled in]}, absent fields left out
 * (hooks/src/engine/discovery.rs; checked against Codex 0.171 by __test__/e2e/codex.test.mjs,
 * where the hook runs without --dangerously-bypass-hook-trust).
 */
export function trustHash(group) {
  const [handler] = group.hooks
  const normalized = { type: 'command', command: handler.command, timeout: handler.timeout ?? 600, async: handler.async ?? false }
  if (handler.statusMessage !== undefined) normalized.statusMessage = handler.statusMessage
  const identity = { event_name: 'pre_tool_use', hooks: [normalized] }
  if (group.matcher !== undefined) identity.matcher = group.matcher
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex')}`
}

const tomlString = (text) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`

/** config.toml with `[hooks.state."<key>"] trusted_hash = …` set, everything else as it was. */
export function withTrust(toml, key, hash) {
  const header = `[hooks.state.${tomlString(key)}]`
  const line = `trusted_hash = ${tomlString(hash)}`
  const lines = toml.split('\n')
  const at = lines.findIndex((text) => text.trim() === header)
  if (at === -1) {
    const base = toml === '' || toml.endsWith('\n') ? toml : `${toml}\n`
    return `${base}${base === '' ? '' : '\n'}${header}\n${line}\n`
  }
  let end = lines.findIndex((text, index) => index > at && /^\s*\[/.test(text))
  if (end === -1) end = lines.length
  const existing = lines.findIndex((text, index) => index > at && index < end && /^\s*trusted_hash\s*=/.test(text))
  if (existing === -1) lines.splice(at + 1, 0, line)
  else lines[existing] = line
  return lines.join('\n')
}

export function planCodex({ hook, env = process.env }) {
  const home = codexHome(env)
  const hooksPath = join(home, 'hooks.json')
  const configPath = join(home, 'config.toml')
  const read = readJsonObject(hooksPath)
  if (read.error) return { error: read.error }
  const group = { matcher: MATCHER, hooks: [{ type: 'command', command: codexHookCommand(hook), timeout: TIMEOUT, statusMessage: 'approval-gates' }] }
  const settings = read.value
  const events = settings.hooks !== null && typeof settings.hooks === 'object' && !Array.isArray(settings.hooks) ? settings.hooks : {}
  const { groups, index } = upsertGroup(events.PreToolUse, group, isOurs)
  const hooksText = `${JSON.stringify({ ...settings, hooks: { ...events, PreToolUse: groups } }, null, 2)}\n`
  const key = trustKey(hooksPath, index)
  const toml = existsSync(configPath) ? readFileSync(configPath, 'utf8') : ''
  return {
    files: [
      { path: hooksPath, text: hooksText, what: `PreToolUse hook for every tool (matcher ${JSON.stringify(MATCHER)})` },
      { path: configPath, text: withTrust(toml, key, trustHash(group)), what: `the hook's trust record [hooks.state.${tomlString(key)}]` },
    ],
    notes: [
      'Codex runs this hook for every tool call (shell, apply_patch, MCP, spawn_agent, create_goal); the gates judge it before it runs.',
      'Approvals are enforced while Codex runs its commands in the workspace-write sandbox (its default for a trusted project; `codex --sandbox workspace-write`) with the approval ledger outside its writable roots, and advisory under danger-full-access or --dangerously-bypass-approvals-and-sandbox.',
      "The owner approves with `approval-gates approve <id> design|plan` in a terminal of their own: Codex's UserPromptSubmit hook is not offered for /approve, because a subagent the model spawns (spawn_agent) submits its task through the same hook.",
      'Codex keys a hook\'s trust by its position in hooks.json: run `approval-gates init codex` again after adding hooks before this one.',
    ],
  }
}

