// Real agent clients from the npm registry for the end-to-end suites, installed once under
// ~/.cache/approval-gates-e2e/<name>-<version>, and the per-run folders their homes and
// repositories live in (outside /tmp: Codex's sandbox cannot start its helper from a CODEX_HOME
// there, measured on 0.171).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
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
