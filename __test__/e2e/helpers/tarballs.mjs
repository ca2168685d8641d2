// The package under test, as tarballs a user installs. The one place that decides where they come
// from: `dist/` when `npm run pack:release` has filled it (the main package
// `approval-gates-<version>.tgz` and one tarball per platform package built on this machine), or
// the folder APPROVAL_GATES_DIST names, laid out the same way; else tarballs packed here from the
// worktree: `npm pack` of the repository and a platform package around the `.node` file the last
// `napi build --platform` left at the root.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { root } from '../../../scripts/dsh-node.mjs'

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))

/** The platform directory under npm/ for this machine (the only one whose binary exists here). */
const HOST_PLATFORM = `${process.platform}-${process.arch}-gnu`

/**
 * `{ main, platforms, from, dispose }`: absolute tarball paths, which of the two sources they came
 * from, and a disposer that removes what was packed here (never `dist/`).
 */
export function packageTarballs({ dist = process.env.APPROVAL_GATES_DIST } = {}) {
  const { version } = manifest(root)
  const folder = dist ?? join(root, 'dist')
  const main = join(folder, `approval-gates-${version}.tgz`)
  if (dist !== undefined && !existsSync(main)) throw new Error(`${main} is missing (APPROVAL_GATES_DIST=${dist})`)
  if (existsSync(main)) {
    // Every other tarball there is a platform package, whatever its (possibly scoped) name.
    const platforms = readdirSync(folder)
      .filter((file) => file.endsWith(`-${version}.tgz`) && file !== `approval-gates-${version}.tgz`)
      .map((file) => join(folder, file))
    return { main, platforms, from: folder, dispose() {} }
  }
  return packWorktree(version)
}

function npmPack(dir, destination) {
  const result = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (result.status !== 0) throw new Error(`npm pack in ${dir} failed: ${result.stderr || result.error}`)
  return join(destination, JSON.parse(result.stdout)[0].filename)
}

function packWorktree(version) {
  const out = mkdtempSync(join(tmpdir(), 'approval-gates-tarballs-'))
  const platformDir = join(root, 'npm', HOST_PLATFORM)
  const platformManifest = manifest(platformDir)
  const binary = platformManifest.main
  if (!existsSync(join(root, binary))) {
    throw new Error(`${binary} is not built: run \`npx napi build --platform\` (or \`npm install\`) first`)
  }
  const staging = join(out, 'platform')
  mkdirSync(staging)
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ ...platformManifest, version }, null, 2))
  copyFileSync(join(root, binary), join(staging, binary))
  const platforms = [npmPack(staging, out)]
  return {
    main: npmPack(root, out),
    platforms,
    from: 'the worktree (npm pack; no dist/)',
    dispose: () => rmSync(out, { recursive: true, force: true }),
  }
}
