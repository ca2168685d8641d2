// Claude Code's setup as facts for the enforced-or-advisory report (approvalSetup's `host`, whose
// rows are the "claude-code" ones of HOST_CHECKS in src/texts.rs): read from Claude Code's
// settings files, every level merged the way Claude Code merges them (user, then the project's
// .claude/settings.json, then its settings.local.json, then managed settings; a later level's
// key wins, hooks and permission rules add up), as measured by __test__/e2e/claude-code.test.mjs.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'

import { SCHEDULING_TOOLS, claudeConfigDir } from './init/claude-code.mjs'

/** Managed settings, the highest level; only an administrator writes them. */
const MANAGED_SETTINGS = {
  linux: '/etc/claude-code/managed-settings.json',
  darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
  win32: 'C:\\ProgramData\\ClaudeCode\\managed-settings.json',
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)

function readSettings(path) {
  if (!existsSync(path)) return { path, settings: {} }
  try {
    const value = JSON.parse(readFileSync(path, 'utf8'))
    return isObject(value) ? { path, settings: value } : { path, settings: {}, error: `${path} does not hold a JSON object` }
  } catch (error) {
    return { path, settings: {}, error: `${path} is not JSON (${error.message})` }
  }
}

/** The settings files of a session started at `root`, lowest precedence first. */
export function settingsLevels({ root, env = process.env, platform = process.platform }) {
  const files = [join(claudeConfigDir(env), 'settings.json'), join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json')]
  if (MANAGED_SETTINGS[platform]) files.push(MANAGED_SETTINGS[platform])
  return files.map(readSettings)
}

/** The value the highest level that sets `section.key` gives it, and that level's file. */
function effective(levels, section, key) {
  let found = { value: undefined, from: undefined }
  for (const level of levels) {
    const holder = level.settings[section]
    if (isObject(holder) && Object.hasOwn(holder, key)) found = { value: holder[key], from: level.path }
  }
  return found
}

const said = ({ value, from }, name) => (from === undefined ? `${name} is not set` : `${name} is ${JSON.stringify(value)} in ${from}`)

function sandboxFact(levels) {
  const enabled = effective(levels, 'sandbox', 'enabled')
  const required = effective(levels, 'sandbox', 'failIfUnavailable')
  const retries = effective(levels, 'sandbox', 'allowUnsandboxedCommands')
  if (enabled.value !== true) return `off (${said(enabled, 'sandbox.enabled')})`
  if (required.value !== true) return `on, but Claude Code runs unsandboxed where it cannot start (${said(required, 'sandbox.failIfUnavailable')})`
  if (retries.value !== false) return `on, but a command may retry outside it (${said(retries, 'sandbox.allowUnsandboxedCommands')})`
  return 'on'
}

function fileToolsFact(levels) {
  const block = effective(levels, 'permissions', 'blockWritesOutsideWorkingDirectories')
  return block.value === true ? 'confined' : `unconfined: ${said(block, 'permissions.blockWritesOutsideWorkingDirectories')}`
}

/** Every hook of `event` in every level, with the file it is in. */
function hooksOf(levels, event) {
  const found = []
  for (const level of levels) {
    const groups = isObject(level.settings.hooks) ? level.settings.hooks[event] : undefined
    for (const group of Array.isArray(groups) ? groups : []) {
      for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) found.push({ group, hook, from: level.path })
    }
  }
  return found
}

const runsOurHook = ({ hook }) => typeof hook?.command === 'string' && (hook.command.includes('approval-gates-hook') || hook.command.includes('approval-gates check'))

const inside = (path, folder) => {
  const rest = relative(folder, path)
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest))
}

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** What is wrong with one of our hooks (`null`: it refuses whatever it cannot judge). */
function hookProblem({ group, hook, from }, root, event) {
  const matcher = group.matcher
  if (event === 'PreToolUse' && !(matcher === undefined || matcher === '' || matcher === '*')) {
    return `in ${from} judges only the tools its matcher ${JSON.stringify(matcher)} names`
  }
  if (hook.onFailure !== 'block') return `in ${from} lets a call through when it cannot run (no onFailure: "block")`
  const program = Array.isArray(hook.args) ? hook.command : hook.command.trim().split(/\s+/)[0].replaceAll('"', '')
  if (!isAbsolute(program) || program.includes('$')) {
    return `in ${from} runs ${JSON.stringify(hook.command)}, not the installed executable by its absolute path`
  }
  if (inside(program, root) || program.split(/[\\/]/).includes('node_modules')) {
    return `in ${from} runs ${program}, inside the workspace or a node_modules folder, which the agent's commands can rewrite`
  }
  if (!executable(program)) return `in ${from} names ${program}, which is missing or not executable`
  return null
}

function hookFact(levels, root, name) {
  const ours = hooksOf(levels, name).filter(runsOurHook)
  if (ours.length === 0) return null
  const problems = ours.map((found) => hookProblem(found, root, name))
  return problems.includes(null) ? 'fail-closed' : problems[0]
}

/** Every /approve command file Claude Code may load for a session at `root`. */
function approveCommands(root, env) {
  return [join(root, '.claude', 'commands', 'approve.md'), join(claudeConfigDir(env), 'commands', 'approve.md'), join(root, '.claude', 'skills', 'approve', 'SKILL.md'), join(claudeConfigDir(env), 'skills', 'approve', 'SKILL.md')].filter((path) => existsSync(path))
}

/** Whether a command file's frontmatter keeps the model from invoking it. */
function ownerOnly(path) {
  const text = readFileSync(path, 'utf8')
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? ''
  return /^disable-model-invocation:\s*true\s*$/m.test(frontmatter)
}

function promptFact(levels, root, env) {
  const hook = hookFact(levels, root, 'UserPromptExpansion')
  if (hook === null) return 'none'
  if (hook !== 'fail-closed') return hook
  const commands = approveCommands(root, env)
  if (commands.length === 0) return 'has no /approve command file to expand'
  const invocable = commands.find((path) => !ownerOnly(path))
  return invocable === undefined ? 'owner-only' : `can be invoked by the model: ${invocable} lacks disable-model-invocation: true`
}

function schedulingFact(levels, prompt) {
  if (prompt === 'none') return 'no prompt hook'
  const denied = levels.flatMap((level) => (isObject(level.settings.permissions) && Array.isArray(level.settings.permissions.deny) ? level.settings.permissions.deny : []))
  const allowed = SCHEDULING_TOOLS.filter((tool) => !denied.includes(tool))
  return allowed.length === 0 ? 'denied' : allowed.join(' and ')
}

/**
 * The host argument of `approvalSetup` for a Claude Code session started at `cwd`:
 * `{ name: 'claude-code', facts }`. A settings file that is not JSON makes every fact that
 * depends on it say so (Claude Code ignores such a file).
 */
export function claudeCodeFacts({ cwd = process.cwd(), env = process.env, platform = process.platform } = {}) {
  const root = resolve(cwd)
  const levels = settingsLevels({ root, env, platform })
  const broken = levels.find((level) => level.error !== undefined)
  if (broken) {
    const value = `not known: ${broken.error}`
    return { name: 'claude-code', facts: { sandbox: value, 'file-tools': value, 'tool-hook': value, 'prompt-hook': value, scheduling: value } }
  }
  const prompt = promptFact(levels, root, env)
  return {
    name: 'claude-code',
    facts: {
      sandbox: sandboxFact(levels),
      'file-tools': fileToolsFact(levels),
      'tool-hook': hookFact(levels, root, 'PreToolUse') ?? 'is not set up',
      'prompt-hook': prompt,
      scheduling: schedulingFact(levels, prompt),
    },
  }
}
