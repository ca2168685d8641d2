// The real Claude Code CLI (@anthropic-ai/claude-code from the npm registry, its native binary
// from the platform package), installed once under ~/.cache/approval-gates-e2e and run as a user
// of its own: Claude Code refuses --dangerously-skip-permissions as root, and a sandbox is only
// proven when the files it protects are the agent's own (owned by the user the agent runs as).
// As root the suite creates that user (and removes it afterwards); as anyone else it runs as
// itself. Every run is bounded in time; every scenario gets its own HOME.
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, linkSync, statSync } from 'node:fs'
import { join } from 'node:path'

import { agentUser as userOfItsOwn, installClient } from './clients.mjs'

export const VERSION = '2.1.332'
/** The user the suite creates when it runs as root. */
const USER = 'ag-e2e-claude'

/** The user Claude Code runs as (helpers/clients.mjs, agentUser). */
export const agentUser = () => userOfItsOwn(USER, 'Claude Code refuses --dangerously-skip-permissions as root')

const RUN_TIMEOUT_MS = 120_000

/** The platform package that carries the binary here, or null where the suite does not run. */
function platformPackage() {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return null
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch]
  if (arch === undefined) return null
  if (process.platform === 'darwin') return `@anthropic-ai/claude-code-darwin-${arch}`
  const glibc = process.report?.getReport?.().header?.glibcVersionRuntime
  return `@anthropic-ai/claude-code-linux-${arch}${glibc ? '' : '-musl'}`
}

/** `{ binary }` of Claude Code installed in the cache, or `{ skip }` saying why it is not. */
export function installClaudeCode() {
  const platform = platformPackage()
  if (platform === null) return { skip: `Claude Code's native binary is not published for ${process.platform}-${process.arch} in a form this suite runs` }
  const client = installClient('@anthropic-ai/claude-code', VERSION, 'claude')
  if (client.skip) return client
  const binary = join(client.bin, '..', '..', ...platform.split('/'), 'claude')
  if (!existsSync(binary)) return { skip: `${platform}@${VERSION} (an optional dependency of @anthropic-ai/claude-code) was not installed: ${binary} is missing` }
  return { binary }
}

const which = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim()

/** Why Claude Code's sandbox cannot start here, or null. */
export function sandboxMissing() {
  if (process.platform !== 'linux') return null
  const missing = ['bwrap', 'socat'].filter((command) => which(command) === '')
  return missing.length === 0 ? null : `Claude Code's sandbox needs ${missing.join(' and ')} (Debian: bubblewrap, socat; scripts/setup/system-packages.sh installs them as root)`
}

/**
 * The binary where the agent's user can run it: the cache under root's home is not readable to
 * another user, so it is linked (or copied) into the user's folder.
 */
export function binaryFor(user, binary) {
  if (user.uid === undefined) return binary
  const target = join(user.base, 'claude')
  if (!existsSync(target)) {
    try {
      linkSync(binary, target)
    } catch {
      copyFileSync(binary, target)
    }
    chmodSync(target, statSync(target).mode | 0o755)
  }
  return target
}

/** The environment of one Claude Code run: its own HOME, the scripted model, nothing else. */
export function claudeEnv(home, baseUrl, extra = {}) {
  return {
    PATH: [join(home, 'bin'), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-key',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  }
}

/**
 * One `claude` run to its end, as the agent's user, asynchronous so that a model served by this
 * process can answer. `stream`: `[delayMs, text | null]` steps written as stream-json user
 * messages (null closes stdin), for a session that stays open. Killed after `timeoutMs`.
 * @returns `{ status, signal, stdout, stderr }`
 */
export function runClaude(user, binary, args, { cwd, env, stream, timeoutMs = RUN_TIMEOUT_MS }) {
  const child = spawn(binary, args, { cwd, env, uid: user.uid, gid: user.gid, stdio: [stream ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
  const out = { stdout: '', stderr: '' }
  child.stdout.on('data', (part) => (out.stdout += part))
  child.stderr.on('data', (part) => (out.stderr += part))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const closed = new Promise((resolve) => {
    child.on('close', (status, signal) => {
      clearTimeout(timer)
      resolve({ status, signal, ...out })
    })
  })
  if (stream) {
    ;(async () => {
      for (const [delay, text] of stream) {
        await new Promise((resolve) => setTimeout(resolve, delay))
        if (child.exitCode !== null || child.signalCode !== null) return
        if (text === null) {
          child.stdin.end()
          return
        }
        child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`)
      }
    })()
  }
  return closed
}
