// A real headless Chromium for the web UI test: Debian's `chromium` (installed with apt-get when
// missing and this runs as root: no browser download is possible here), driven by playwright-core,
// pinned and installed with npm into the e2e cache so that the project's dependencies stay as they are.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'

export const PLAYWRIGHT_VERSION = '1.65.1'
const APT_TIMEOUT_MS = 10 * 60_000

/** Chromium as root in a container: no sandbox, no GPU, nothing that reaches beyond 127.0.0.1. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const cacheRoot = () => join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'approval-gates-e2e')

function which(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : undefined
}

function aptInstallChromium() {
  if (process.getuid?.() !== 0 || which('apt-get') === undefined) return 'not root with apt-get'
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, {
      encoding: 'utf8',
      timeout: APT_TIMEOUT_MS,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (result.status !== 0) return `apt-get ${args.join(' ')} failed: ${(result.stderr || String(result.error)).slice(-800)}`
  }
  return undefined
}

/** `{ ok: true, path }` or `{ ok: false, why }`. */
export function findChromium() {
  const found = which('chromium') ?? which('chromium-browser')
  if (found !== undefined) return { ok: true, path: found }
  const failed = aptInstallChromium()
  if (failed !== undefined) return { ok: false, why: `no chromium on PATH and it cannot be installed: ${failed}` }
  const installed = which('chromium')
  return installed === undefined ? { ok: false, why: 'apt-get installed chromium but it is not on PATH' } : { ok: true, path: installed }
}

/** `{ ok: true, chromium }` (playwright-core's browser type) or `{ ok: false, why }`. */
export function loadPlaywright() {
  const dir = join(cacheRoot(), `playwright-core-${PLAYWRIGHT_VERSION}`)
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const result = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `playwright-core@${PLAYWRIGHT_VERSION}`],
      { encoding: 'utf8', timeout: APT_TIMEOUT_MS },
    )
    if (result.status !== 0) return { ok: false, why: `npm install playwright-core failed: ${(result.stderr || String(result.error)).slice(-800)}` }
    writeFileSync(join(dir, '.complete'), '')
  }
  const { chromium } = createRequire(join(dir, 'node_modules', '/'))('playwright-core')
  return { ok: true, chromium }
}
