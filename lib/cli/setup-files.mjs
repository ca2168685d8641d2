// What the hosts' setup readers (claude-code-setup.mjs, codex-setup.mjs, gemini-setup.mjs) share:
// reading a host's JSON settings file, and judging the hook executable a host runs: approvals
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
