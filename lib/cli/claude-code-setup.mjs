// Claude Code's setup as facts for the enforced-or-advisory report (approvalSetup's `host`, whose
// rows are the "claude-code" ones of HOST_CHECKS in src/texts/setup.rs): read from Claude Code's
// settings files, every level merged the way Claude Code merges them (user, then the project's
// .claude/settings.json, then its settings.local.json, then managed settings; a later level's
// key wins, hooks and permission rules add up), as measured by __test__/e2e/claude-code.test.mjs.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

import { SCHEDULING_TOOLS, claudeConfigDir } from './init/claude-code.mjs'
import { effective, hookProgramProblem, hooksOf, isObject, readSettings } from './setup-files.mjs'

/** Managed settings, the highest level; only an administrator writes them. */
const MANAGED_SETTINGS = {
  linux: '/etc/claude-code/managed-settings.json',
  darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
  win32: 'C:\\ProgramData\\ClaudeCode\\managed-settings.json',
}

/** The settings files of a session started at `root`, lowest precedence first. */
export function settingsLevels({ root, env = process.env, platform = process.platform }) {
  const files = [join(claudeConfigDir(env), 'settings.json'), join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json')]
  if (MANAGED_SETTINGS[platform]) files.push(MANAGED_SETTINGS[platform])
  return files.map(readSettings)
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

const runsOurHook = ({ hook }) => typeof hook?.command === 'string' && (hook.command.includes('approval-gates-hook') || hook.command.includes('approval-gates check'))

/** What is wrong with one of our hooks (`null`: it refuses whatever it cannot judge). */
function hookProblem({ group, hook, from }, root, event) {
  const matcher = group.matcher
  if (event === 'PreToolUse' && !(matcher === undefined || matcher === '' || matcher === '*')) {
    return `in ${from} judges only the tools its matcher ${JSON.stringify(matcher)} names`
  }
  if (hook.onFailure !== 'block') return `in ${from} lets a call through when it cannot run (no onFailure: "block")`
  const program = Array.isArray(hook.args) ? hook.command : hook.command.trim().split(/\s+/)[0].replaceAll('"', '')
  return hookProgramProblem(program, root, from, hook.command)
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

/**
 * The Claude Code setup `approval-gates status` reports for `root`: found when a settings level
 * runs approval-gates' hooks or the project has a `.claude/` folder; always when `named`
 * (`--host claude-code`).
 */
export function claudeCodeSetups({ root, named = false, env = process.env, platform = process.platform }) {
  const levels = settingsLevels({ root: resolve(root), env, platform })
  const ours = ['PreToolUse', 'UserPromptExpansion'].some((event) => hooksOf(levels, event).some(runsOurHook))
  if (!named && !ours && !existsSync(join(root, '.claude'))) return []
  const files = levels.filter((level) => existsSync(level.path)).map((level) => level.path)
  const label = `Claude Code started in ${root} (${files.length > 0 ? files.join(', ') : 'no settings file'})`
  return [{ label, host: claudeCodeFacts({ cwd: root, env, platform }) }]
}
