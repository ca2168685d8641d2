// Is `approve` being driven by an agent? (P-11) The CLI refuses when, as far as this process can
// tell, an agent harness started it or holds its terminal: a harness's marker in the environment
// of this process, of any ancestor, or of any process holding the master side of its
// pseudo-terminal (and that process's ancestors), or a harness's name on such a process's command
// line. Linux reads /proc; elsewhere only this process's environment is checked.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * Environment variables an agent's shell carries: Claude Code's Bash tool, DSH's bash tool, Codex
 * CLI's shell (its thread, and its sandbox markers) and Gemini CLI's `run_shell_command`.
 */
export const MARKERS = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'DSH_SESSION_ID',
  'DSH_SHELL',
  'DSH_CWD',
  'DSH_SESSION_ROOT',
  'CODEX_THREAD_ID',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'GEMINI_CLI',
]

/** Command-line words that name a harness: its binary, or its package in a node command line. */
const HARNESS_NAMES = ['claude', 'dsh', 'deepseek-harness', 'codex', 'gemini']
const HARNESS_PACKAGES = ['@anthropic-ai/claude-code', '@deepseek-ai/dsh', 'deepseek-harness', '@openai/codex', '@google/gemini-cli']

/** The most processes walked up one ancestry (a loop in /proc is impossible, but cheap to bound). */
const MAX_ANCESTORS = 256

function readText(path) {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    return null
  }
}

function marker(environment) {
  return MARKERS.find((name) => Object.hasOwn(environment, name) && environment[name] !== '')
}

function environmentOf(pid) {
  const text = readText(`/proc/${pid}/environ`)
  if (text === null) return {}
  const environment = {}
  for (const entry of text.split('\0')) {
    const at = entry.indexOf('=')
    if (at > 0) environment[entry.slice(0, at)] = entry.slice(at + 1)
  }
  return environment
}

function harnessName(pid) {
  const words = (readText(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean)
  const base = (word) => word.split('/').pop()
  if (words.length > 0 && HARNESS_NAMES.includes(base(words[0]))) return base(words[0])
  const script = words.find((word) => HARNESS_PACKAGES.some((name) => word.includes(`/${name}/`) || word.includes(`node_modules/${name}`)))
  if (script !== undefined) return script
  return HARNESS_NAMES.find((name) => words.length > 1 && /node|bun|deno/.test(base(words[0])) && base(words[1]) === name)
}

function parentOf(pid) {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === null) return 0
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses; it ends at the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number.parseInt(fields[1], 10) || 0
}

/** Why `pid` or one of its ancestors looks like an agent harness, or null. */
function ancestryEvidence(pid, seen) {
  for (let at = pid, steps = 0; at > 1 && steps < MAX_ANCESTORS && !seen.has(at); at = parentOf(at), steps += 1) {
    seen.add(at)
    const name = harnessName(at)
    if (name !== undefined) return `process ${at} is an agent harness (${name})`
    const found = marker(environmentOf(at))
    if (found !== undefined) return `process ${at} runs in an agent's environment (${found})`
  }
  return null
}

/** The pseudo-terminal index of this process's standard input, or null. */
function ownTerminal() {
  try {
    const match = /^\/dev\/pts\/(\d+)$/.exec(readlinkSync('/proc/self/fd/0'))
    return match === null ? null : match[1]
  } catch {
    return null
  }
}

/** The processes with an open master side of pseudo-terminal `index` (`tty-index` in fdinfo). */
function masterHolders(index) {
  const holders = []
  let pids = []
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return holders
  }
  for (const pid of pids) {
    let fds = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      let target = ''
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      if (target !== '/dev/ptmx' && target !== '/dev/pts/ptmx') continue
      const info = readText(`/proc/${pid}/fdinfo/${fd}`) ?? ''
      if (new RegExp(`^tty-index:\\s*${index}$`, 'm').test(info)) {
        holders.push(Number(pid))
        break
      }
    }
  }
  return holders
}

/** The reason this process must not approve (an agent may be driving it), or null. */
export function agentEvidence(environment = process.env) {
  const own = marker(environment)
  if (own !== undefined) return `this process runs in an agent's environment (${own})`
  if (process.platform !== 'linux') return null
  const seen = new Set()
  const ancestry = ancestryEvidence(process.pid, seen)
  if (ancestry !== null) return ancestry
  const terminal = ownTerminal()
  if (terminal === null) return null
  for (const holder of masterHolders(terminal)) {
    const evidence = ancestryEvidence(holder, seen)
    if (evidence !== null) return `the terminal's other side: ${evidence}`
  }
  return null
}
