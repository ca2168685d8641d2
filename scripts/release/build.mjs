#!/usr/bin/env node
// One release build job: `node scripts/release/build.mjs <rust target>` builds the target as
// pack:release and pack:cross do (the same buildTarget), places it in npm/<platform>/ and copies
// what the platform package ships into artifacts/<platform>/ for the publish job.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'

import { buildTarget, placeArtifacts, root } from './tools.mjs'

const triple = process.argv[2]
if (!triple) {
  console.error('usage: node scripts/release/build.mjs <rust target triple>')
  process.exit(2)
}
try {
  const build = await buildTarget(triple)
  placeArtifacts(build)
  const artifacts = join(root, 'artifacts', build.platform)
  mkdirSync(artifacts, { recursive: true })
  const packageDir = join(root, 'npm', build.platform)
  for (const file of readdirSync(packageDir).filter((name) => name.endsWith('.node') || name.startsWith('approval-gates-hook'))) {
    copyFileSync(join(packageDir, file), join(artifacts, file))
  }
  if (!existsSync(join(artifacts, basename(build.binary)))) throw new Error(`${basename(build.binary)} is not in ${artifacts}`)
} catch (error) {
  console.error(`build ${triple}: ${error.message}`)
  process.exit(1)
}
