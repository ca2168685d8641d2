// Real agent clients from the npm registry for the end-to-end suites, installed once under
// ~/.cache/approval-gates-e2e/<name>-<version>, the per-run folders their homes and repositories
// live in (outside /tmp: Codex's sandbox cannot start its helper from a CODEX_HOME there,
// measured on 0.171), and the user of its own a suite runs a client as: a sandbox is only proven
// when the files it protects are the agent's own, and as root bubblewrap keeps root's powers.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export const CACHE = join(homedir(), '.cache', 'approval-gates-e2e')

/** `{ bin }` of `pkg@version` installed in the cache, or `{ skip }` saying why it cannot be. */
export function installClient(pkg, version, binName) {
  const dir = join(CACHE, `${pkg.replace(/[@/]/g, '_')}-${version}`)
  const bin = join(dir, 'node_modules', '.bin', binName)
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true })
    const result = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', `${pkg}@${version}`], {
      encoding: 'utf8',
      timeout: 600_000,
    })
    if (result.status !== 0 || !existsSync(bin)) {
      return { skip: `${pkg}@${version} could not be installed from the npm registry: ${(result.stderr || String(result.error)).trim().split('\n').at(-1)}` }
    }
  }
  return { bin }
}

/** A fresh folder for one test run (home and repository), removed by `dispose`. */
export function runFolder(label) {
  mkdirSync(join(CACHE, 'runs'), { recursive: true })
  const dir = mkdtempSync(join(CACHE, 'runs', `${label}-`))
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The native hook the suites install with `init --hook-from`: a release build when there is one. */
export function builtHook(root) {
  for (const profile of ['release', 'debug']) {
    const path = join(root, 'target', profile, 'approval-gates-hook')
    if (existsSync(path)) return path
  }
  return undefined
}

export const APPROVAL = 'design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\n'
export const PLAN = '# Plan\n\n**Spec:** openspec/changes/feat/design.md\n\n- [ ] task 1\n'

/** A git repository at `repo` with change `feat` (design approved by hand) and plan `p` (not approved). */
export function loopRepo(repo) {
  for (const [path, text] of [
    ['openspec/changes/feat/proposal.md', '# p\n'],
    ['openspec/changes/feat/design.md', '# d\n'],
    ['openspec/changes/feat/builder-check.md', '# b\n'],
    ['openspec/changes/feat/approval.md', APPROVAL],
    ['docs/superpowers/plans/p.md', PLAN],
    ['src/main.txt', 'main\n'],
  ]) {
    mkdirSync(join(repo, path, '..'), { recursive: true })
    writeFileSync(join(repo, path), text)
  }
  spawnSync('git', ['init', '-q'], { cwd: repo })
}

/**
 * Runs a client without blocking (the scripted model answers from this process), killed after
 * `timeout` ms; as `user` (from `agentUser`) when given.
 */
export function runClient(bin, args, { cwd, env, timeout = 180_000, user }) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, uid: user?.uid, gid: user?.gid, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout)
    child.on('error', reject)
    child.on('close', (status, signal) => {
      clearTimeout(timer)
      resolve({ status, signal, stdout, stderr })
    })
  })
}

/** A request body, refused past `cap` bytes. */
export async function readBody(request, cap = 16 * 1024 * 1024) {
  const parts = []
  let size = 0
  for await (const part of request) {
    size += part.length
    if (size > cap) throw new Error('request body over the cap')
    parts.push(part)
  }
  return Buffer.concat(parts).toString('utf8')
}

/**
 * The user an agent runs as: `{ uid, gid, base, dispose }` where `base` is a folder the user owns
 * for the scenarios' homes and repositories, or `{ skip }`. As root, the user `name` (created,
 * and removed by `dispose`, when it does not exist; `why` says why the suite needs one); as
 * anyone else, that user (uid undefined).
 */
export function agentUser(name, why) {
  if (process.getuid?.() !== 0) {
    const base = mkdtempSync(join(process.env.HOME ?? '/tmp', `.${name}-`))
    return { uid: undefined, gid: undefined, base, dispose: () => rmSync(base, { recursive: true, force: true }) }
  }
  const id = (flag) => spawnSync('id', [flag, name], { encoding: 'utf8' })
  let created = false
  if (id('-u').status !== 0) {
    const added = spawnSync('useradd', ['--create-home', '--shell', '/bin/sh', name], { encoding: 'utf8' })
    if (added.status !== 0) return { skip: `running as root, the suite needs a user of its own (${why}), and useradd failed: ${(added.stderr || String(added.error)).trim()}` }
    created = true
  }
  const uid = Number(id('-u').stdout.trim())
  const gid = Number(id('-g').stdout.trim())
  const home = spawnSync('sh', ['-c', `getent passwd ${name} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim()
  const base = join(home, `e2e-${process.pid}`)
  mkdirSync(base, { recursive: true })
  execFileSync('chown', [`${uid}:${gid}`, base])
  return {
    uid,
    gid,
    base,
    dispose() {
      rmSync(base, { recursive: true, force: true })
      if (created) spawnSync('userdel', ['--remove', name])
    },
  }
}

/** Gives the agent's user everything under `path` (it is the owner's workspace and home). */
export function handOver(user, path) {
  if (user.uid !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, path])
}

/**
 * Why bubblewrap cannot confine a command of `user` here (no unprivileged user namespaces, a
 * container that forbids them), or null; `host` names the sandbox that would fail with it.
 */
export function bwrapRefused(user, host) {
  if (process.platform !== 'linux') return null
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], { uid: user.uid, gid: user.gid, encoding: 'utf8', timeout: 30_000 })
  return probe.status === 0 ? null : `bubblewrap cannot start a sandbox here for the agent's user (${(probe.stderr || String(probe.error)).trim()}), so ${host}'s sandbox cannot either`
}
