// Runs one shell command for real inside Debian's bubblewrap: every capability dropped, every
// namespace unshared (so no network), `/` read-only, a fresh copy of the fixture repository and a
// private `/tmp` writable, bounded in time, in output and in the size of any file it writes.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname } from 'node:path'

/** Debian's bubblewrap; `ORACLE_BWRAP` names another one (or a missing one, to see the suites skip). */
export const BWRAP = process.env.ORACLE_BWRAP || '/usr/bin/bwrap'
const ISOLATION = ['--cap-drop', 'ALL', '--unshare-all', '--die-with-parent', '--new-session']
/**
 * Runs the command (its `$1`) in a child bash, then gives what it left running in the background
 * (`&`, `nohup`, `setsid`, `coproc`) up to two seconds to finish: the sandbox ends with its first
 * process, and a write a background job would make later must be seen. Only builtins besides
 * `sleep`, so no process of its own is counted; PID 1 is bwrap's reaper.
 */
const WAIT_FOR_BACKGROUND = `/bin/bash --noprofile --norc -c "$1"
rc=$?
for _ in {1..40}; do
  others=0
  for p in /proc/[0-9]*; do p=\${p#/proc/}; [ "$p" = 1 ] || [ "$p" = $$ ] || others=$((others + 1)); done
  [ "$others" -eq 0 ] && break
  sleep 0.05
done
exit $rc`
/** The largest file a sandboxed command may write: 128 MiB (`ulimit -f` counts 512-byte blocks in sh). */
const FILE_BLOCKS = 262144

let probed
/**
 * Whether bubblewrap can confine a command here: `{ ok: true }`, or `{ ok: false, reason }` with
 * the exact reason (not installed; installed but unable to create its namespaces).
 */
export function sandboxStatus() {
  if (probed) return probed
  if (!existsSync(BWRAP)) {
    probed = {
      ok: false,
      reason: `${BWRAP} is not installed (Debian's bubblewrap; scripts/setup/system-packages.sh installs it as root)`,
    }
    return probed
  }
  const result = spawnSync(BWRAP, [...ISOLATION, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '/bin/true'], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  probed =
    result.status === 0
      ? { ok: true }
      : {
          ok: false,
          reason: `${BWRAP} cannot create its sandbox here (${(result.stderr || result.error?.message || `exit ${result.status}`).trim()}); it needs root or unprivileged user namespaces`,
        }
  return probed
}

/** The environment a sandboxed command gets: nothing of this process's but a fixed PATH. */
export function sandboxEnv(repo) {
  const nodeDir = dirname(process.execPath)
  const path = [`${repo}/node_modules/.bin`, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin', nodeDir]
  return {
    PATH: [...new Set(path)].join(delimiter),
    HOME: '/tmp/home',
    XDG_STATE_HOME: '/tmp/home/.local/state',
    XDG_CONFIG_HOME: '/tmp/home/.config',
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
    USER: 'oracle',
    LOGNAME: 'oracle',
    SHELL: '/bin/bash',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Oracle',
    GIT_AUTHOR_EMAIL: 'oracle@example.invalid',
    GIT_COMMITTER_NAME: 'Oracle',
    GIT_COMMITTER_EMAIL: 'oracle@example.invalid',
    GIT_TERMINAL_PROMPT: '0',
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  }
}

/**
 * Runs `command` with bash (no profile, no rc file) in `repo` (bound at its own path, so absolute paths mean the same inside
 * and out) with `tmp` as `/tmp`. Resolves `{ status, signal, timedOut, capped, stdout, stderr }`;
 * stdout and stderr keep their first `keep` bytes; past `cap` bytes of output, or `timeoutMs`, the
 * sandbox is killed (its `--die-with-parent` takes every process in it along).
 */
export function runSandboxed(command, { repo, tmp, timeoutMs = 5000, cap = 1 << 20, keep = 4096 }) {
  const env = Object.entries(sandboxEnv(repo)).flatMap(([key, value]) => ['--setenv', key, value])
  const args = [
    ...ISOLATION,
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--bind', tmp, '/tmp',
    '--bind', repo, repo,
    '--chdir', repo,
    '--clearenv', ...env,
    '/bin/bash', '--noprofile', '--norc', '-c', WAIT_FOR_BACKGROUND, 'oracle', command,
  ]
  return new Promise((resolve) => {
    // `ulimit -f` bounds every file the command writes; limits survive the exec into bwrap.
    const child = spawn('/bin/sh', ['-c', `ulimit -f ${FILE_BLOCKS} 2>/dev/null; exec "$0" "$@"`, BWRAP, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const out = { stdout: [], stderr: [], total: 0 }
    let timedOut = false
    let capped = false
    const kill = () => child.kill('SIGKILL')
    const timer = setTimeout(() => {
      timedOut = true
      kill()
    }, timeoutMs)
    const collect = (stream, name) =>
      stream.on('data', (chunk) => {
        out.total += chunk.length
        const held = out[name].reduce((n, c) => n + c.length, 0)
        if (held < keep) out[name].push(chunk.subarray(0, keep - held))
        if (out.total > cap && !capped) {
          capped = true
          kill()
        }
      })
    collect(child.stdout, 'stdout')
    collect(child.stderr, 'stderr')
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ status: null, signal: null, timedOut, capped, stdout: '', stderr: `cannot start ${BWRAP}: ${error.message}` })
    })
    child.on('close', (status, signal) => {
      clearTimeout(timer)
      resolve({
        status,
        signal,
        timedOut,
        capped,
        stdout: Buffer.concat(out.stdout).toString('utf8'),
        stderr: Buffer.concat(out.stderr).toString('utf8'),
      })
    })
  })
}

/** Runs `task` over `items` with at most `limit` at once; results in the items' order. */
export async function pool(items, limit, task) {
  const results = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const at = next++
      results[at] = await task(items[at], at)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
