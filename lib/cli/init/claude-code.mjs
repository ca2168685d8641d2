// `approval-gates init claude-code`: Claude Code's hooks, the owner's /approve command, and the
// settings that make approvals enforced there (measured with Claude Code 2.1.332 by
// __test__/e2e/claude-code.test.mjs).
//
// - PreToolUse for every tool (matcher "*", so a tool Claude Code adds later is judged too), the
//   hook run without a shell (`command` + `args`) and `onFailure: "block"`: a missing executable,
//   a crash, an exit other than 0/2 or a timeout refuses the call (without it Claude Code runs
//   the call). `check --json`: the model reads the denial without the hook's command line.
// - UserPromptExpansion on the `/approve` command, whose command file is marked
//   `disable-model-invocation: true`: the owner's prompt-side approval. The scheduling tools
//   (CronCreate, ScheduleWakeup) are denied beside it.
// - In the user's settings, outside every workspace: Claude Code's sandbox on, failing when it
//   cannot start, with no unsandboxed retry, and the file tools kept to the working directories
//   (Write, Edit and NotebookEdit run outside the sandbox).
// The hook executable is installed outside every workspace and named by its absolute path.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

import { readJsonObject, upsertGroup } from './hook-command.mjs'

/** The first Claude Code that honours `onFailure` on hooks (its changelog, and measured). */
export const MINIMUM_VERSION = [2, 1, 295]
/** Seconds Claude Code gives each hook; past them the call is refused (onFailure). */
const TIMEOUT = 30
/** The tools that let the model schedule a prompt for later. */
export const SCHEDULING_TOOLS = ['CronCreate', 'ScheduleWakeup']

/** The user's Claude Code folder: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export const claudeConfigDir = (env = process.env) => env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')

/** The command file of /approve. Its body reaches the model only if the hook did not run. */
export const APPROVE_COMMAND_FILE = `---
description: Approve a change's design or plan (owner only; approval-gates shows it, then asks for the line that confirms it)
argument-hint: <change-id> design|plan
disable-model-invocation: true
---
approval-gates' prompt hook did not run, so nothing was approved. Do not approve anything and do
not write approval.md: tell the owner that the UserPromptExpansion hook of approval-gates is not
set up here (run \`approval-gates init claude-code\`).
`

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)
const mentions = (hook, what) => typeof hook?.command === 'string' && hook.command.includes(what)
/** A group of ours: it runs approval-gates' hook (any earlier spelling, the hook blocks earlier READMEs showed included). */
const runsOurHook = (group) =>
  Array.isArray(group?.hooks) && group.hooks.some((hook) => mentions(hook, 'approval-gates-hook') || mentions(hook, 'approval-gates check'))

export function preToolUseGroup(hook) {
  return { matcher: '*', hooks: [{ type: 'command', command: hook, args: ['check', '--json'], onFailure: 'block', timeout: TIMEOUT }] }
}

export function promptGroup(hook) {
  return { matcher: 'approve', hooks: [{ type: 'command', command: hook, args: ['prompt'], onFailure: 'block', timeout: TIMEOUT }] }
}

/** `settings` with our two hooks and the scheduling tools denied, every other key kept. */
export function withHooks(settings, hook) {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  const permissions = isObject(settings.permissions) ? settings.permissions : {}
  const deny = Array.isArray(permissions.deny) ? permissions.deny : []
  return {
    ...settings,
    hooks: {
      ...hooks,
      PreToolUse: upsertGroup(hooks.PreToolUse, preToolUseGroup(hook), runsOurHook).groups,
      UserPromptExpansion: upsertGroup(hooks.UserPromptExpansion, promptGroup(hook), runsOurHook).groups,
    },
    permissions: { ...permissions, deny: [...deny, ...SCHEDULING_TOOLS.filter((tool) => !deny.includes(tool))] },
  }
}

/** `settings` with the sandbox on and the file tools kept to the working directories. */
export function withConfinement(settings) {
  const sandbox = isObject(settings.sandbox) ? settings.sandbox : {}
  const permissions = isObject(settings.permissions) ? settings.permissions : {}
  return {
    ...settings,
    sandbox: { ...sandbox, enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false },
    permissions: { ...permissions, blockWritesOutsideWorkingDirectories: true },
  }
}

/** Claude Code's version as `[major, minor, patch]`, or null when `claude` does not run here. */
function claudeVersion(env) {
  const result = spawnSync('claude', ['--version'], { encoding: 'utf8', env, timeout: 20_000 })
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(result.stdout ?? '')
  return result.status === 0 && match ? match.slice(1, 4).map(Number) : null
}

const older = (version, than) => {
  for (let at = 0; at < than.length; at += 1) if (version[at] !== than[at]) return version[at] < than[at]
  return false
}

const jsonText = (value) => `${JSON.stringify(value, null, 2)}\n`

/**
 * What `init claude-code` writes: `{ files: [{ path, text, what }], notes }` or `{ error }`.
 * `user`: the hooks and the command file go to the user's folder (every project, whatever
 * directory Claude Code starts in) instead of the project's `.claude/`.
 */
export function planClaudeCode({ hook, env = process.env, cwd = process.cwd(), user = false, version = claudeVersion }) {
  const root = resolve(cwd)
  const userDir = claudeConfigDir(env)
  const userSettingsPath = join(userDir, 'settings.json')
  const hooksDir = user ? userDir : join(root, '.claude')
  const hooksPath = join(hooksDir, 'settings.json')
  const commandPath = join(hooksDir, 'commands', 'approve.md')
  const userSettings = readJsonObject(userSettingsPath)
  if (userSettings.error) return { error: userSettings.error }
  const files = []
  if (user) {
    files.push({
      path: userSettingsPath,
      text: jsonText(withConfinement(withHooks(userSettings.value, hook))),
      what: 'the hooks (PreToolUse for every tool, UserPromptExpansion for /approve), CronCreate and ScheduleWakeup denied, the sandbox on and the file tools kept to the working directories',
    })
  } else {
    const project = readJsonObject(hooksPath)
    if (project.error) return { error: project.error }
    files.push({
      path: hooksPath,
      text: jsonText(withHooks(project.value, hook)),
      what: 'the hooks (PreToolUse for every tool, UserPromptExpansion for /approve) and CronCreate and ScheduleWakeup denied',
    })
    files.push({
      path: userSettingsPath,
      text: jsonText(withConfinement(userSettings.value)),
      what: 'the sandbox on (failIfUnavailable, no unsandboxed retry) and the file tools kept to the working directories',
    })
  }
  const previous = existsSync(commandPath) ? readFileSync(commandPath, 'utf8') : undefined
  files.push({ path: commandPath, text: APPROVE_COMMAND_FILE, what: 'the /approve command, which the model may not invoke' })
  const notes = [
    'Claude Code runs the hook before every tool call; a missing or broken hook refuses the call (onFailure: "block").',
    'The owner approves by typing /approve <change-id> design|plan in Claude Code\'s prompt: it shows the design or the plan and the line that confirms it. A prompt the model schedules, a subagent or another session never reaches this hook.',
    'Approvals are enforced while the sandbox runs (bubblewrap and socat on Linux; Claude Code refuses to start without them, failIfUnavailable) and no project settings file turns it off; `approval-gates status` says which.',
    'CronCreate and ScheduleWakeup are denied (scheduled prompts and /loop are off) while this prompt hook approves.',
    'The file tools may not write outside the working directories (permissions.blockWritesOutsideWorkingDirectories); add a folder with /add-dir when a task needs one.',
  ]
  if (!user) {
    notes.push(
      `Claude Code loads ${join(root, '.claude', 'settings.json')} only when it starts in ${root}; started in a subdirectory, no hook runs. \`approval-gates init claude-code --user\` puts the hooks in ${userSettingsPath} for every project instead.`,
    )
  }
  if (previous !== undefined && previous !== APPROVE_COMMAND_FILE) {
    notes.push(`${commandPath} held another /approve command; it is replaced by approval-gates' own.`)
  }
  const found = version(env)
  if (found === null) notes.push(`claude was not found on PATH, so its version was not checked: the hooks need Claude Code ${MINIMUM_VERSION.join('.')} or later (onFailure).`)
  else if (older(found, MINIMUM_VERSION)) {
    notes.push(`Claude Code ${found.join('.')} is older than ${MINIMUM_VERSION.join('.')}: it ignores onFailure, so a missing hook would let calls through. Update Claude Code.`)
  }
  return { files, notes }
}
