// Gemini CLI's setup as facts for the enforced-or-advisory report (approvalSetup's `host`, whose
// rows are the "gemini" ones of HOST_CHECKS in src/texts/setup.rs), read from Gemini CLI's settings
// files, merged the way Gemini CLI 0.61 merges them: system defaults, the user's
// ~/.gemini/settings.json, the workspace's .gemini/settings.json (read in a trusted folder
// only), then the system settings; a later file's key wins, `hooksConfig.disabled` is the union
// of them all. As measured by __test__/e2e/gemini.test.mjs, no setup keeps the agent off the
// ledger and approval-gates' own hook (the confinement fact never holds): without
// `security.toolSandboxing` the agent's commands run unconfined; with it, as root, its
// bubblewrap keeps root's capabilities; and as a user of its own, the sandbox leaves the
// workspace's .gemini/settings.json writable, which switches the hook and the sandbox off for
// the next session in a trusted folder (the only kind of folder where Gemini CLI runs hooks).
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

import { HOOK_NAME, geminiHookCommand } from './init/gemini.mjs'
import { hookPathOf } from './init/hook-command.mjs'
import { effective, hookProgramProblem, hooksOf, isObject, readSettings } from './setup-files.mjs'

/** Where Gemini CLI keeps the system settings, by platform (GEMINI_CLI_SYSTEM_SETTINGS_PATH wins). */
const SYSTEM_FOLDER = {
  darwin: '/Library/Application Support/GeminiCli',
  win32: 'C:\\ProgramData\\gemini-cli',
}

/** The settings files of a session started at `root`, lowest precedence first, each with its role. */
export function settingsLevels({ root, env = process.env, platform = process.platform }) {
  const system = SYSTEM_FOLDER[platform] ?? '/etc/gemini-cli'
  return [
    { role: 'system defaults', ...readSettings(env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(system, 'system-defaults.json')) },
    { role: 'user', ...readSettings(join(env.HOME || homedir(), '.gemini', 'settings.json')) },
    { role: 'workspace', ...readSettings(join(root, '.gemini', 'settings.json')) },
    { role: 'system', ...readSettings(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || join(system, 'settings.json')) },
  ]
}

const where = ({ from, role }) => (role === 'workspace' ? `${from} (read in a trusted folder)` : from)

const runsOurHook = ({ hook }) => hook?.name === HOOK_NAME || (typeof hook?.command === 'string' && hook.command.includes('approval-gates-hook'))

function hookProblem({ group, hook, from }, root) {
  if (!(group.matcher === undefined || group.matcher === '' || group.matcher === '.*' || group.matcher === '*')) {
    return `in ${from} judges only the tools its matcher ${JSON.stringify(group.matcher)} names`
  }
  const program = hookPathOf(hook.command)
  if (program === undefined || hook.command !== geminiHookCommand(program)) {
    return `in ${from} runs ${JSON.stringify(hook.command)}, not the fail-closed command \`approval-gates init gemini\` writes: Gemini CLI lets the call through when that hook is missing, fails or times out`
  }
  return hookProgramProblem(program, root, from)
}

function hookFact(levels, root) {
  const ours = hooksOf(levels, 'BeforeTool').filter(runsOurHook)
  if (ours.length === 0) return 'is not set up'
  const enabled = effective(levels, 'hooksConfig', 'enabled')
  if (enabled.value === false) return `is switched off: hooksConfig.enabled is false in ${where(enabled)}`
  for (const level of levels) {
    const disabled = isObject(level.settings.hooksConfig) && Array.isArray(level.settings.hooksConfig.disabled) ? level.settings.hooksConfig.disabled : []
    const named = ours.find(({ hook }) => disabled.includes(hook.name ?? hook.command))
    if (named) return `is switched off: hooksConfig.disabled lists ${JSON.stringify(named.hook.name ?? named.hook.command)} in ${where({ from: level.path, role: level.role })}`
  }
  const problems = ours.map((found) => hookProblem(found, root))
  return problems.includes(null) ? 'fail-closed' : problems[0]
}

function confinementFact(levels, env, uid) {
  const container = env.GEMINI_SANDBOX && !['0', 'false'].includes(env.GEMINI_SANDBOX.trim().toLowerCase()) ? { value: env.GEMINI_SANDBOX, from: 'GEMINI_SANDBOX' } : effective(levels, 'tools', 'sandbox')
  const containerOn = container.value === true || (typeof container.value === 'string' && !['0', 'false', ''].includes(container.value)) || (isObject(container.value) && container.value.enabled === true)
  if (containerOn) {
    return `its container sandbox (tools.sandbox ${JSON.stringify(container.value)} in ${container.from}) is not measured by approval-gates (docker and podman do not run where its tests run)`
  }
  const tools = effective(levels, 'security', 'toolSandboxing')
  if (tools.value !== true) {
    return `its tool sandbox is off (security.toolSandboxing is ${tools.from === undefined ? 'not set' : `${JSON.stringify(tools.value)} in ${where(tools)}`}), so its shell and file tools run unconfined`
  }
  if (uid === 0) {
    return "its tool sandbox (security.toolSandboxing) runs as root here, and its bubblewrap keeps root's capabilities: a command remounts / writable and writes outside the workspace"
  }
  const kept = tools.role === 'system' ? ' (the system settings keep the sandbox itself on)' : ' and the sandbox'
  return `its tool sandbox (security.toolSandboxing) keeps the agent's commands off the ledger and the hook, but the workspace's .gemini/settings.json stays writable to them, and in a trusted folder (the only kind where Gemini CLI runs hooks) that file switches approval-gates' hook${kept} off for the next session: hooksConfig.disabled is united across every settings file`
}

function promptFact(levels) {
  const ours = hooksOf(levels, 'BeforeAgent').find(({ hook }) => typeof hook?.command === 'string' && /approval-gates(-hook)?\b/.test(hook.command))
  return ours === undefined ? 'none' : `in ${ours.from} runs approval-gates (${JSON.stringify(ours.hook.command)})`
}

/**
 * The host argument of `approvalSetup` for a Gemini CLI session started at `cwd`:
 * `{ name: 'gemini', facts }`. `uid`: the user Gemini CLI runs as (root keeps its capabilities
 * in the tool sandbox). A settings file that is not JSON makes every fact say so.
 */
export function geminiFacts({ cwd = process.cwd(), env = process.env, platform = process.platform, uid = process.getuid?.() } = {}) {
  const root = resolve(cwd)
  const levels = settingsLevels({ root, env, platform })
  const broken = levels.find((level) => level.error !== undefined)
  if (broken) {
    const value = `not known: ${broken.error}`
    return { name: 'gemini', facts: { 'tool-hook': value, confinement: value, 'prompt-hook': value } }
  }
  return {
    name: 'gemini',
    facts: { 'tool-hook': hookFact(levels, root), confinement: confinementFact(levels, env, uid), 'prompt-hook': promptFact(levels) },
  }
}

/**
 * The Gemini CLI setup `approval-gates status` reports: found when the user's or the
 * workspace's settings file exists; always when `named` (`--host gemini`).
 */
export function geminiSetups({ root, named = false, env = process.env, platform = process.platform, uid = process.getuid?.() }) {
  const levels = settingsLevels({ root: resolve(root), env, platform })
  const [, user, workspace] = levels
  if (!named && !existsSync(user.path) && !existsSync(workspace.path)) return []
  return [{ label: `Gemini CLI (${user.path})`, host: geminiFacts({ cwd: root, env, platform, uid }) }]
}
