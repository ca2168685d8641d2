// The real `dsh` CLI, installed as a user installs it: `@deepseek-ai/dsh@0.1.0-rc.8` with pnpm
// (npm's installer does not finish; 0.1.5-rc.2's own dependencies are not published), in a cache
// directory keyed by everything that decides the install, and run on a Node DSH accepts. Every
// run is bounded in time; every DSH run gets its own HOME and DSH_HOME.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

import { dshNode } from '../../../scripts/dsh-node.mjs'

export const DSH_VERSION = '0.1.0-rc.8'
export const PNPM_VERSION = '10.34.9'

/**
 * The host's manifest. rc.8 boot defect 1 of 2: `@deepseek-ai/cordis-plugin-hmr` 1.0.19 (what
 * rc.8's `^1.0.16` resolves to today) lost `registerConfig`, which rc.8's boot
 * (`@deepseek-ai/dsh-app-boot`, watching the user patch layer) calls, so it is pinned to 1.0.17
 * through pnpm overrides.
 */
const HOST_MANIFEST = {
  name: 'approval-gates-e2e-dsh-host',
  private: true,
  dependencies: { '@deepseek-ai/dsh': DSH_VERSION },
  pnpm: { overrides: { '@deepseek-ai/cordis-plugin-hmr': '1.0.17' } },
}

/**
 * rc.8 boot defect 2 of 2: the headless and web profiles ship the `hmr` row disabled, yet the CLI
 * watches the user patch layer through the HMR service and refuses to boot without it ("user
 * patch-layer watching requires the Cordis HMR service"). Every run gets this `--patch` overlay.
 */
const HMR_OVERLAY = '# rc.8 needs the HMR service to watch the user patch layer\n- id: hmr\n  disabled: false\n'

const INSTALL_TIMEOUT_MS = 8 * 60_000
const cacheRoot = () => join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'approval-gates-e2e')

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, ...options })
  if (result.error) return { ok: false, why: `${command}: ${result.error.message}` }
  if (result.status !== 0) return { ok: false, why: `${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}` }
  return { ok: true }
}

/** pnpm itself, installed with npm into the cache (one package, no dependencies). */
function installPnpm(cache) {
  const dir = join(cache, `pnpm-${PNPM_VERSION}`)
  const bin = join(dir, 'node_modules', '.bin')
  if (existsSync(join(dir, '.complete'))) return { ok: true, bin }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const installed = run('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `pnpm@${PNPM_VERSION}`])
  if (!installed.ok) return installed
  writeFileSync(join(dir, '.complete'), '')
  return { ok: true, bin }
}

/**
 * Installs (or finds in the cache) pnpm and DSH. `{ ok: true, dsh }` where `dsh` runs the CLI,
 * or `{ ok: false, why }` when a tool cannot be installed here.
 */
export function installDsh() {
  const started = Date.now()
  const cache = cacheRoot()
  const pnpm = installPnpm(cache)
  if (!pnpm.ok) return pnpm
  const manifest = JSON.stringify(HOST_MANIFEST, null, 2)
  const key = createHash('sha256').update(`${manifest}\npnpm ${PNPM_VERSION}`).digest('hex').slice(0, 12)
  const host = join(cache, `dsh-${DSH_VERSION}-${key}`)
  const node = dshNode()
  const path = [pnpm.bin, dirname(node), process.env.PATH].join(':')
  if (!existsSync(join(host, '.complete'))) {
    rmSync(host, { recursive: true, force: true })
    mkdirSync(host, { recursive: true })
    writeFileSync(join(host, 'package.json'), manifest)
    const installed = run('pnpm', ['install', '--config.update-notifier=false', '--reporter=append-only'], {
      cwd: host,
      env: { ...process.env, PATH: path, npm_config_store_dir: join(cache, 'pnpm-store') },
    })
    if (!installed.ok) return installed
    writeFileSync(join(host, '.complete'), '')
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  return { ok: true, seconds, dsh: new DshCli({ node, host, path, cache }) }
}

class DshCli {
  constructor({ node, host, path, cache }) {
    this.node = node
    this.bin = join(host, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js')
    this.path = path
    this.cache = cache
    this.home = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-e2e-home-')))
    this.overlay = join(this.home, 'hmr.patch.yml')
    writeFileSync(this.overlay, HMR_OVERLAY)
  }

  env(extra = {}) {
    return {
      ...process.env,
      PATH: this.path,
      HOME: this.home,
      DSH_HOME: join(this.home, '.dsh'),
      DSH_TELEMETRY_DISABLED: '1',
      npm_config_update_notifier: 'false',
      npm_config_store_dir: join(this.cache, 'pnpm-store'),
      ...extra,
    }
  }

  /** `dsh plugin --profile <profile> add <specs...>`: `{ status, stdout, stderr }`. */
  addPlugin(profile, specs) {
    return spawnSync(this.node, [this.bin, 'plugin', '--profile', profile, 'add', ...specs], {
      cwd: this.home,
      env: this.env(),
      encoding: 'utf8',
      timeout: INSTALL_TIMEOUT_MS,
    })
  }

  /**
   * One run to its end: `dsh --profile <profile> --patch <hmr> ...args` in `cwd`, asynchronous so
   * that a model served by this process can answer. Killed after `timeoutMs`.
   * @returns `{ status, signal, stdout, stderr }`
   */
  run(profile, args, { cwd, env, timeoutMs = 120_000 }) {
    const child = this.start(profile, args, { cwd, env })
    const out = { stdout: '', stderr: '' }
    child.stdout.on('data', (part) => (out.stdout += part))
    child.stderr.on('data', (part) => (out.stderr += part))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    return new Promise((resolve) => {
      child.on('close', (status, signal) => {
        clearTimeout(timer)
        resolve({ status, signal, ...out })
      })
    })
  }

  /** A long-lived `dsh` (the web server); the caller stops it with `child.kill()`. */
  start(profile, args, { cwd, env }) {
    return spawn(this.node, [this.bin, '--profile', profile, '--patch', this.overlay, ...args], {
      cwd,
      env: this.env(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  }

  dispose() {
    rmSync(this.home, { recursive: true, force: true })
  }
}
