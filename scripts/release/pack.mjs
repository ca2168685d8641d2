#!/usr/bin/env node
// `npm run pack:release`: builds this machine's target as the release does (Linux x64 gnu with
// --use-napi-cross, glibc 2.17) and writes to dist/ the main package's tarball and one for every
// platform package whose binary is in npm/ (cross.mjs adds the others it can build here).
// `--no-build` only packs (the release's publish job, after `napi artifacts`).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { buildTarget, packMain, packPlatform, placeArtifacts, root } from './tools.mjs'

const HOST_TARGETS = { 'linux-x64': 'x86_64-unknown-linux-gnu' }

export function packBuiltPlatforms() {
  const { napi } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const built = readdirSync(join(root, 'npm')).filter((platform) =>
    existsSync(join(root, 'npm', platform, `${napi.binaryName}.${platform}.node`)),
  )
  return built.map(packPlatform)
}

async function main() {
  const started = Date.now()
  const host = HOST_TARGETS[`${process.platform}-${process.arch}`]
  if (!host && !process.argv.includes('--no-build')) throw new Error(`pack:release builds on Linux x64; ${process.platform}-${process.arch} builds in CI`)
  // --no-build: the release's publish job packs the binaries every build job made.
  if (!process.argv.includes('--no-build')) placeArtifacts(await buildTarget(host))
  const tarballs = [...packBuiltPlatforms(), packMain()]
  console.log(`pack:release wrote ${tarballs.length} tarballs in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`pack:release: ${error.message}`)
    process.exit(1)
  })
}
