// Codex CLI's setup as facts for the enforced-or-advisory report (approvalSetup's `host`, whose
// rows are the "codex" ones of HOST_CHECKS in src/texts/setup.rs), read from Codex's own files:
// $CODEX_HOME/hooks.json (the PreToolUse hook `init codex` writes), $CODEX_HOME/config.toml
// (sandbox_mode, the active profile's, [sandbox_workspace_write] writable_roots, the hook's
// trust record) and the project's .codex/config.toml (which Codex reads once it trusts the project). As measured by
// __test__/e2e/codex.test.mjs on Codex 0.171: in workspace-write the agent's commands cannot
// write the ledger, the hook, $CODEX_HOME or the project's .codex/, and a hook without its trust
// record is not run.
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

import { approvalSetup } from '../../index.js'
import { codexHome, codexHookCommand, isOurs, trustHash, trustKey } from './init/codex.mjs'
import { hookPathOf } from './init/hook-command.mjs'
import { hookProgramProblem, inside, isObject, readSettings } from './setup-files.mjs'

/** The sandbox modes that keep the agent's commands to the workspace (or to nothing). */
const CONFINED = ['workspace-write', 'read-only']
/** What the report calls a config that does not set the mode (Codex then picks a confined one). */
const DEFAULT_MODE = "not set (Codex's default: read-only, or workspace-write in a trusted project)"

// --- a reader for the part of TOML Codex's config uses ---------------------------------------

/**
 * Calls `visit(c, at)` for each character of `text` outside basic and literal strings; `visit`
 * returns true to stop there. Returns the index it stopped at, or -1.
 */
function outsideStrings(text, visit) {
  let quote = null
  for (let at = 0; at < text.length; at += 1) {
    const c = text[at]
    if (quote === '"' && c === '\\') at += 1
    else if (quote !== null) {
      if (c === quote) quote = null
    } else if (c === '"' || c === "'") quote = c
    else if (visit(c, at)) return at
  }
  return -1
}

/** `text` up to a `#` outside strings. */
function uncommented(text) {
  const at = outsideStrings(text, (c) => c === '#')
  return at === -1 ? text : text.slice(0, at)
}

const ESCAPES = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' }

/** A string at the start of `text`: `{ value, rest }`, or null. */
function string(text) {
  if (text.startsWith("'") && !text.startsWith("'''")) {
    const end = text.indexOf("'", 1)
    return end === -1 ? null : { value: text.slice(1, end), rest: text.slice(end + 1) }
  }
  if (!text.startsWith('"') || text.startsWith('"""')) return null
  let value = ''
  for (let at = 1; at < text.length; at += 1) {
    const c = text[at]
    if (c === '"') return { value, rest: text.slice(at + 1) }
    if (c !== '\\') {
      value += c
      continue
    }
    const next = text[at + 1]
    if (ESCAPES[next] !== undefined) {
      value += ESCAPES[next]
      at += 1
    } else if (next === 'u' || next === 'U') {
      const digits = text.slice(at + 2, at + (next === 'u' ? 6 : 10))
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (next === 'u' ? 4 : 8)) return null
      value += String.fromCodePoint(Number.parseInt(digits, 16))
      at += 1 + digits.length
    } else return null
  }
  return null
}

/** A dotted key at the start of `text`: `{ keys, rest }`, or null. */
function keyPath(text) {
  const keys = []
  let rest = text.trimStart()
  for (;;) {
    const bare = /^[A-Za-z0-9_-]+/.exec(rest)
    const part = bare ? { value: bare[0], rest: rest.slice(bare[0].length) } : string(rest)
    if (part === null) return null
    keys.push(part.value)
    rest = part.rest.trimStart()
    if (!rest.startsWith('.')) return { keys, rest }
    rest = rest.slice(1).trimStart()
  }
}

/** A value at the start of `text` (strings, booleans, numbers, arrays of them): `{ value, rest }`, or null. */
function value(text) {
  const rest = text.trimStart()
  const quoted = string(rest)
  if (quoted !== null) return quoted
  const word = /^(true|false|[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?)(?![A-Za-z0-9_.:-])/.exec(rest)
  if (word) return { value: word[1] === 'true' ? true : word[1] === 'false' ? false : Number(word[1].replaceAll('_', '')), rest: rest.slice(word[1].length) }
  if (!rest.startsWith('[')) return null
  const items = []
  let inner = rest.slice(1).trimStart()
  while (!inner.startsWith(']')) {
    const item = value(inner)
    if (item === null) return null
    items.push(item.value)
    inner = item.rest.trimStart()
    if (inner.startsWith(',')) inner = inner.slice(1).trimStart()
    else if (!inner.startsWith(']')) return null
  }
  return { value: items, rest: inner.slice(1) }
}

/** Whether `text` closes every `[` it opens outside strings (an array may span lines). */
function balanced(text) {
  let depth = 0
  outsideStrings(text, (c) => {
    if (c === '[') depth += 1
    else if (c === ']') depth -= 1
    return false
  })
  return depth <= 0
}

/**
 * The keys of a TOML file as `{ values: Map(path → value), unread: Map(table → line) }`, a path
 * being its keys joined by NUL. A line the reader does not take (a multi-line string, an inline
 * table, an array of tables' contents, a malformed line) is recorded against its table, so a
 * key looked up there is "not known" rather than absent.
 */
export function readToml(text) {
  const values = new Map()
  const unread = new Map()
  let table = []
  let tableRead = true
  const lines = text.split(/\r?\n/)
  for (let at = 0; at < lines.length; at += 1) {
    let line = uncommented(lines[at]).trim()
    if (line === '') continue
    const tableKey = table.join('\0')
    if (line.startsWith('[[')) {
      table = [`[[${line}]]`]
      tableRead = false
      continue
    }
    if (line.startsWith('[')) {
      const header = keyPath(line.slice(1))
      if (header !== null && header.rest.trim() === ']') {
        table = header.keys
        tableRead = true
      } else {
        table = [`[unread ${at + 1}]`]
        tableRead = false
        unread.set('', unread.get('') ?? at + 1)
      }
      continue
    }
    const start = at
    while (!balanced(line) && at + 1 < lines.length) line += ` ${uncommented(lines[++at]).trim()}`
    const key = keyPath(line)
    const parsed = key !== null && key.rest.startsWith('=') ? value(key.rest.slice(1)) : null
    if (!tableRead || parsed === null || parsed.rest.trim() !== '') {
      if (!unread.has(tableKey)) unread.set(tableKey, start + 1)
      continue
    }
    values.set([...table, ...key.keys].join('\0'), parsed.value)
  }
  return { values, unread }
}

/** `{ value }`, `{ unknown: line }` when the key's table holds a line the reader did not take, or `{}`. */
function lookup(toml, keys) {
  const path = keys.join('\0')
  if (toml.values.has(path)) return { value: toml.values.get(path) }
  for (let length = keys.length - 1; length >= 0; length -= 1) {
    const line = toml.unread.get(keys.slice(0, length).join('\0'))
    if (line !== undefined) return { unknown: line }
  }
  return {}
}

/** A TOML file: `{ path, toml }` (empty when absent), with `error` when it does not read. */
function readTomlFile(path) {
  if (!existsSync(path)) return { path, toml: readToml('') }
  try {
    return { path, toml: readToml(readFileSync(path, 'utf8')) }
  } catch (error) {
    return { path, toml: readToml(''), error: `${path} cannot be read (${error.message})` }
  }
}

// --- the facts -------------------------------------------------------------------------------

const notRead = (file, line) => `not known: line ${line} of ${file} is not read by approval-gates`

/**
 * Every sandbox_mode the config layers set, with the file and the key that set it. A project's
 * .codex/config.toml is read whether or not Codex trusts the project (it reads it once trusted,
 * and trust may be recorded for another spelling of the path): failing closed.
 */
function sandboxModes(user, project) {
  const found = []
  const mode = lookup(user.toml, ['sandbox_mode'])
  found.push({ ...mode, from: user.path, key: 'sandbox_mode' })
  const profile = lookup(user.toml, ['profile'])
  if (profile.unknown !== undefined) found.push({ unknown: profile.unknown, from: user.path, key: 'profile' })
  if (typeof profile.value === 'string') found.push({ ...lookup(user.toml, ['profiles', profile.value, 'sandbox_mode']), from: user.path, key: `profiles.${profile.value}.sandbox_mode` })
  found.push({ ...lookup(project.toml, ['sandbox_mode']), from: project.path, key: 'sandbox_mode' })
  return found.filter((entry) => entry.value !== undefined || entry.unknown !== undefined)
}

function expand(root, home) {
  if (root === '~' || root.startsWith('~/')) return join(home, root.slice(1))
  return root
}

function sandboxFact({ user, project, home, guarded }) {
  const modes = sandboxModes(user, project)
  const unknown = modes.find((entry) => entry.unknown !== undefined)
  if (unknown) return notRead(unknown.from, unknown.unknown)
  const loose = modes.find((entry) => !CONFINED.includes(entry.value))
  if (loose) return `with ${loose.key} = ${JSON.stringify(loose.value)} in ${loose.from}`
  const mode = modes.at(-1)?.value ?? DEFAULT_MODE
  for (const layer of [user, project]) {
    const roots = lookup(layer.toml, ['sandbox_workspace_write', 'writable_roots'])
    if (roots.unknown !== undefined) return notRead(layer.path, roots.unknown)
    for (const root of Array.isArray(roots.value) ? roots.value : []) {
      if (typeof root !== 'string' || !isAbsolute(expand(root, home))) continue
      const writable = resolve(expand(root, home))
      const reached = guarded.find(({ path }) => inside(path, writable) || inside(writable, path))
      if (reached) return `in ${mode === DEFAULT_MODE ? "Codex's default sandbox" : mode}, but [sandbox_workspace_write] writable_roots in ${layer.path} gives the agent ${writable}, which reaches ${reached.what}`
    }
  }
  return mode
}

/** Our PreToolUse groups in hooks.json, each with its index (the trust record's key names it). */
function ourGroups(hooks) {
  const groups = isObject(hooks.settings.hooks) && Array.isArray(hooks.settings.hooks.PreToolUse) ? hooks.settings.hooks.PreToolUse : []
  return groups.map((group, index) => ({ group, index })).filter(({ group }) => isOurs(group))
}

function groupProblem({ group, index }, { hooks, user, root }) {
  const from = hooks.path
  if (!(group.matcher === undefined || group.matcher === '' || group.matcher === '.*')) return `in ${from} judges only the tools its matcher ${JSON.stringify(group.matcher)} names`
  const handler = group.hooks.find((hook) => typeof hook?.command === 'string' && hook.command.includes('approval-gates-hook'))
  const program = hookPathOf(handler.command)
  if (program === undefined || handler.command !== codexHookCommand(program)) {
    return `in ${from} runs ${JSON.stringify(handler.command)}, not the fail-closed command \`approval-gates init codex\` writes: Codex runs the call when that hook is missing, fails or times out`
  }
  const problem = hookProgramProblem(program, root, from)
  if (problem !== null) return problem
  const key = trustKey(hooks.path, index)
  const trusted = lookup(user.toml, ['hooks', 'state', key, 'trusted_hash'])
  if (trusted.unknown !== undefined) return `in ${from} may not be trusted: ${notRead(user.path, trusted.unknown).slice('not known: '.length)}`
  if (trusted.value !== trustHash(group)) {
    return `in ${from} is not trusted by Codex (${user.path} holds ${trusted.value === undefined ? 'no' : 'another'} trust record [hooks.state."${key}"] for it), so Codex does not run it`
  }
  return null
}

function hookFact(context) {
  const ours = ourGroups(context.hooks)
  if (ours.length === 0) return 'is not set up'
  const problems = ours.map((found) => groupProblem(found, context))
  return problems.includes(null) ? 'fail-closed' : problems[0]
}

function promptFact(hooks) {
  const groups = isObject(hooks.settings.hooks) && Array.isArray(hooks.settings.hooks.UserPromptSubmit) ? hooks.settings.hooks.UserPromptSubmit : []
  const ours = groups.flatMap((group) => (Array.isArray(group?.hooks) ? group.hooks : [])).find((hook) => typeof hook?.command === 'string' && /approval-gates(-hook)? (prompt|approve)\b/.test(hook.command))
  return ours === undefined ? 'none' : `in ${hooks.path} runs approval-gates' /approve (${JSON.stringify(ours.command)})`
}

/**
 * The host argument of `approvalSetup` for a Codex session started at `cwd`:
 * `{ name: 'codex', facts }`. A hooks.json that is not JSON makes the facts that depend on it
 * say so.
 */
export function codexFacts({ cwd = process.cwd(), env = process.env } = {}) {
  const root = resolve(cwd)
  const home = codexHome(env)
  const hooks = readSettings(join(home, 'hooks.json'))
  const user = readTomlFile(join(home, 'config.toml'))
  const project = readTomlFile(join(root, '.codex', 'config.toml'))
  const userHome = env.HOME || homedir()
  // The ledger's folder as the report's own checks find it (the process's environment).
  const ledger = approvalSetup(root).ledgerFolder
  const installed = ourGroups(hooks).map(({ group }) => hookPathOf(group.hooks.find((h) => typeof h?.command === 'string' && h.command.includes('approval-gates-hook'))?.command)).find(Boolean)
  const guarded = [
    ...(ledger ? [{ path: ledger, what: "the approval ledger's folder" }] : []),
    ...(installed ? [{ path: installed, what: 'the hook executable' }] : []),
    { path: home, what: "Codex's own configuration ($CODEX_HOME)" },
  ]
  const context = { hooks, user, root }
  const broken = [hooks, user, project].find((file) => file.error !== undefined)
  const hookFiles = [hooks, user].find((file) => file.error !== undefined)
  const toolHook = hookFiles ? `not known: ${hookFiles.error}` : hookFact(context)
  return {
    name: 'codex',
    facts: {
      'tool-hook': toolHook,
      sandbox: broken ? `not known: ${broken.error}` : sandboxFact({ user, project, home: userHome, guarded }),
      'prompt-hook': hooks.error ? `not known: ${hooks.error}` : promptFact(hooks),
    },
  }
}

/**
 * The Codex setup `approval-gates status` reports: found when $CODEX_HOME holds hooks.json or
 * config.toml; always when `named` (`--host codex`).
 */
export function codexSetups({ root, named = false, env = process.env }) {
  const home = codexHome(env)
  if (!named && !existsSync(join(home, 'hooks.json')) && !existsSync(join(home, 'config.toml'))) return []
  return [{ label: `Codex CLI (${home})`, host: codexFacts({ cwd: root, env }) }]
}
