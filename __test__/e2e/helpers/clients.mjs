// Real agent clients from the npm registry for the end-to-end suites, installed once under
// ~/.cache/approval-gates-e2e/<name>-<version>, and the per-run folders their homes and
// repositories live in (outside /tmp: Codex's sandbox cannot start its helper from a CODEX_HOME
// there, measured on 0.171).
import { spawn, spawnSync } from 'node:child_process'
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

/** Runs a client without blocking (the scripted model answers from this process), killed after `timeout` ms. */
export function runClient(bin, args, { cwd, env, timeout = 180_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
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
