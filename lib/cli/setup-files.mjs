// What the hosts' setup readers (claude-code-setup.mjs, codex-setup.mjs, gemini-setup.mjs) share:
// reading a host's JSON settings files and the value or hooks they set, and judging the hook executable a host runs: approvals
// are enforced only while that executable lies outside everything the agent's commands can
// rewrite (P-17).
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A JSON settings file: `{ path, settings }` (`{}` when absent), with `error` when it does not read. */
export function readSettings(path) {
  if (!existsSync(path)) return { path, settings: {} }
  try {
    const value = JSON.parse(readFileSync(path, 'utf8'))
    return isObject(value) ? { path, settings: value } : { path, settings: {}, error: `${path} does not hold a JSON object` }
  } catch (error) {
    return { path, settings: {}, error: `${path} is not JSON (${error.message})` }
  }
}

/**
 * The value the highest of `levels` (`{ path, settings, role? }`, lowest precedence first) that
 * sets `section.key` gives it: `{ value, from, role }` (`from`: that level's file).
 */
export function effective(levels, section, key) {
  let found = { value: undefined, from: undefined }
  for (const level of levels) {
    const holder = level.settings[section]
    if (isObject(holder) && Object.hasOwn(holder, key)) found = { value: holder[key], from: level.path, role: level.role }
  }
  return found
}

/** Every hook of `event` in every level (`settings.hooks[event]` groups), with the file it is in. */
export function hooksOf(levels, event) {
  const found = []
  for (const level of levels) {
    const groups = isObject(level.settings.hooks) ? level.settings.hooks[event] : undefined
    for (const group of Array.isArray(groups) ? groups : []) {
      for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) found.push({ group, hook, from: level.path })
    }
  }
  return found
}

/** Whether `path` is `folder` or lies inside it (lexically). */
export const inside = (path, folder) => {
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

/**
 * What is wrong with `program`, the hook executable a host runs for a session at `root`, as the
 * rest of a sentence about the hook in `from`; null when it is an executable outside the
 * workspace and every node_modules folder, named by its absolute path.
 */
export function hookProgramProblem(program, root, from, command = program) {
  if (!isAbsolute(program) || program.includes('$')) {
    return `in ${from} runs ${JSON.stringify(command)}, not the installed executable by its absolute path`
  }
  if (inside(program, root) || program.split(/[\\/]/).includes('node_modules')) {
    return `in ${from} runs ${program}, inside the workspace or a node_modules folder, which the agent's commands can rewrite`
  }
  if (!executable(program)) return `in ${from} names ${program}, which is missing or not executable`
  return null
}
