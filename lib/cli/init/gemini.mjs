// `approval-gates init gemini`: Gemini CLI's BeforeTool hook, at user level (~/.gemini/settings.json).
//
// User level and not the project's .gemini/settings.json: Gemini CLI reads a project's settings
// only in a trusted folder, that file lies in the workspace the agent writes, and a changed
// project hook is treated as new and untrusted. The user's settings lie outside the workspace
// and apply whatever directory Gemini CLI starts in.
import { join } from 'node:path'
import { homedir } from 'node:os'

import { failClosedCommand, readJsonObject, upsertGroup } from './hook-command.mjs'

/** Gemini CLI's own timeout for the hook (ms); the hook refuses the call itself before it. */
const TIMEOUT_MS = 60_000
const DEADLINE = 50
/** The name init gives the hook; `hooksConfig.disabled` lists hooks by it. */
export const HOOK_NAME = 'approval-gates'

export const geminiSettingsPath = (env = process.env) => join(env.HOME || homedir(), '.gemini', 'settings.json')

const isOurs = (group) => Array.isArray(group?.hooks) && group.hooks.some((hook) => hook?.name === HOOK_NAME)

/** The command Gemini CLI runs for each tool call: the hook at `hook`, refusing whatever it cannot judge. */
export const geminiHookCommand = (hook) => failClosedCommand(hook, 'gemini', DEADLINE)

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)

export function planGemini({ hook, env = process.env }) {
  const path = geminiSettingsPath(env)
  const read = readJsonObject(path)
  if (read.error) return { error: read.error }
  const settings = read.value
  const group = {
    matcher: '.*',
    hooks: [{ name: HOOK_NAME, type: 'command', command: geminiHookCommand(hook), timeout: TIMEOUT_MS, description: 'approval-gates: judge each tool call before it runs' }],
  }
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  const { groups } = upsertGroup(hooks.BeforeTool, group, isOurs)
  const next = { ...settings, hooks: { ...hooks, BeforeTool: groups } }
  const notes = [
    'Gemini CLI runs this hook before every tool call (write_file, replace, run_shell_command, invoke_agent, MCP tools); the gates judge it before it runs.',
    'The owner approves with `approval-gates approve <id> design|plan` in a terminal of their own.',
  ]
  // A hooks system switched off, or this hook listed as disabled, would leave the gates unasked.
  if (isObject(settings.hooksConfig) && (settings.hooksConfig.enabled === false || (Array.isArray(settings.hooksConfig.disabled) && settings.hooksConfig.disabled.includes(HOOK_NAME)))) {
    const disabled = Array.isArray(settings.hooksConfig.disabled) ? settings.hooksConfig.disabled.filter((name) => name !== HOOK_NAME) : settings.hooksConfig.disabled
    next.hooksConfig = { ...settings.hooksConfig, enabled: true, ...(disabled === undefined ? {} : { disabled }) }
    notes.push('hooksConfig had the hooks (or this hook) switched off; it is switched on again.')
  }
  return {
    files: [{ path, text: `${JSON.stringify(next, null, 2)}\n`, what: 'BeforeTool hook for every tool (matcher ".*")' }],
    notes,
  }
}
