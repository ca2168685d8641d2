// What `init codex` and `init gemini` share: the native hook installed outside every workspace,
// the command a host runs it with (one that refuses the call whenever the check cannot run), and
// writing a configuration file as a change the owner can read first (--dry-run).
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

import { hookFailedText, hookMissingText } from '../../texts.mjs'

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const EXECUTABLE = process.platform === 'win32' ? 'approval-gates-hook.exe' : 'approval-gates-hook'

/** Where the hook is installed: the user's data folder, outside every workspace and node_modules. */
export function installedHookPath(env = process.env) {
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share')
  return join(data, 'approval-gates', 'bin', EXECUTABLE)
}

const runs = (path) => existsSync(path) && spawnSync(path, ['--help'], { encoding: 'utf8' }).status === 0

/** The hook executable to install: `--hook-from`, this package's platform package, or a build here. */
export function hookSource(from) {
  if (from !== undefined) return runs(resolve(from)) ? { path: resolve(from) } : { error: `${from} is not an approval-gates-hook that runs here` }
  const candidates = []
  for (const scope of [join(PACKAGE_ROOT, 'node_modules', '@approval-gates'), join(PACKAGE_ROOT, '..', '@approval-gates'), join(PACKAGE_ROOT, '..', '..', '@approval-gates')]) {
    if (!existsSync(scope)) continue
    for (const name of readdirSync(scope).filter((n) => n.startsWith('binding-'))) candidates.push(join(scope, name, EXECUTABLE))
  }
  candidates.push(join(PACKAGE_ROOT, 'target', 'release', EXECUTABLE), join(PACKAGE_ROOT, 'target', 'debug', EXECUTABLE))
  const found = candidates.find(runs)
  return found ? { path: found } : { error: `no approval-gates-hook for this platform was found (looked in ${candidates.join(', ')}); pass --hook-from PATH` }
}

/** Installs (copies) the hook at `target`; `{ change }` says what was or would be done. */
export function installHook(source, target, dryRun) {
  const bytes = readFileSync(source)
  if (existsSync(target) && readFileSync(target).equals(bytes)) return { change: 'unchanged', path: target }
  const change = existsSync(target) ? 'updated' : 'created'
  if (!dryRun) {
    mkdirSync(dirname(target), { recursive: true })
    const temp = `${target}.${process.pid}.tmp`
    copyFileSync(source, temp)
    chmodSync(temp, 0o755)
    renameSync(temp, target)
  }
  return { change, path: target }
}

const singleQuoted = (text) => `'${text}'`

/**
 * The command a host runs for each tool call: POSIX sh around the hook, so that a missing
 * executable, a crash, any exit status but 0 (allowed) and 2 (refused), or a hang refuses the
 * call. Codex CLI and Gemini CLI run every other outcome as a non-blocking failure and let the
 * call through (their hook runners, measured on Codex 0.171 and Gemini CLI 0.61). The script has
 * no quote or backslash of its own, so it reads the same under the user's shell (Codex runs
 * hooks with $SHELL -lc, fish included; Gemini CLI with bash -c).
 */
export function failClosedCommand(hook, host, deadline) {
  if (/['\\\n]/.test(hook)) throw new Error(`the hook's path ${JSON.stringify(hook)} holds a quote, a backslash or a newline; set XDG_DATA_HOME to a plainer folder`)
  const script = [
    `h="$1"`,
    `[ -x "$h" ] || { echo "${hookMissingText(host)}" >&2; exit 2; }`,
    `"$h" check --host ${host} --deadline ${deadline}`,
    `s=$?`,
    `[ "$s" -eq 0 ] || [ "$s" -eq 2 ] || { echo "${hookFailedText()}" >&2; exit 2; }`,
    `exit "$s"`,
  ].join('; ')
  return `/bin/sh -c ${singleQuoted(script)} approval-gates-hook ${singleQuoted(hook)}`
}

/** The hook executable a command of `failClosedCommand`'s shape runs, or undefined for any other command. */
export function hookPathOf(command) {
  return typeof command === 'string' ? /^\/bin\/sh -c '[^']*' approval-gates-hook '([^']*)'$/.exec(command)?.[1] : undefined
}

/** Writes `text` to `path` unless it already holds it; `{ change }` says what was or would be done. */
export function writeConfig(path, text, dryRun) {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined
  if (before === text) return { change: 'unchanged', path }
  if (!dryRun) {
    mkdirSync(dirname(path), { recursive: true })
    const temp = `${path}.${process.pid}.tmp`
    writeFileSync(temp, text)
    renameSync(temp, path)
  }
  return { change: before === undefined ? 'created' : 'updated', path }
}

/** Reads a JSON settings file: `{ value }` (an empty object when absent) or `{ error }`. */
export function readJsonObject(path) {
  if (!existsSync(path)) return { value: {} }
  const text = readFileSync(path, 'utf8')
  if (text.trim() === '') return { value: {} }
  try {
    const value = JSON.parse(text)
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `${path} does not hold a JSON object` }
    return { value }
  } catch (error) {
    return { error: `${path} is not plain JSON (${error.message}); add the hook by hand or fix the file, then run init again` }
  }
}

/** Replaces the group `isOurs` finds in `groups` (keeping its place), else appends `group`. */
export function upsertGroup(groups, group, isOurs) {
  const list = Array.isArray(groups) ? [...groups] : []
  const at = list.findIndex(isOurs)
  if (at === -1) return { groups: [...list, group], index: list.length }
  list[at] = group
  return { groups: list, index: at }
}

export const verb = (change, dryRun) =>
  change === 'unchanged' ? 'unchanged' : dryRun ? `would be ${change}` : change
