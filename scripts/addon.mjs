#!/usr/bin/env node
// The addon of a checkout: `napi build --platform --release` with the pinned napi CLI. The
// published package has no install-time script (a consumer's npm would warn about it, and a
// registry install takes its binary from a platform package), so a checkout builds here, from
// `npm test`, `npm run demo` and `npm run bench`: cargo rebuilds only what changed.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')

/** Builds the addon; `{ ok, status }` (stdio inherited, so cargo's errors are shown as they come). */
export function buildAddon() {
  const manifest = createRequire(join(root, 'package.json')).resolve('@napi-rs/cli/package.json')
  const cli = join(dirname(manifest), 'dist', 'cli.js')
  const result = spawnSync(process.execPath, [cli, 'build', '--platform', '--release'], { cwd: root, stdio: 'inherit' })
  if (result.error) throw new Error(`cannot run the napi CLI: ${result.error.message}`)
  return { ok: result.status === 0, status: result.status ?? result.signal }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok, status } = buildAddon()
  if (!ok) console.error(`approval-gates: the addon did not build (napi build exited ${status})`)
  process.exit(ok ? 0 : 1)
}
