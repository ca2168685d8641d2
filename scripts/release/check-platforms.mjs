#!/usr/bin/env node
// The publish guard: the main package may be published only when every platform package it lists
// exists at its own version. npm and pnpm skip a missing optional dependency silently, and the user
// fails only at first use with "Cannot find native binding".
//   --npm-dir (default)  every npm/<platform>/ holds its binary (after `napi artifacts`)
//   --dist DIR           DIR holds every platform package's tarball
//   --registry           the configured registry serves every platform package at this version
//   --sync               set optionalDependencies to the platform packages at this version (npm version)
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { hookFileName, platformOf, root, tarballName } from './tools.mjs'

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** Every platform package the targets call for, with its name and the files it must ship. */
export async function expectedPlatformPackages(pkg) {
  return Promise.all(
    pkg.napi.targets.map(async (triple) => {
      const platform = await platformOf(triple)
      const binary = `${pkg.napi.binaryName}.${platform}.node`
      return { triple, platform, name: `${pkg.napi.packageName}-${platform}`, binary, hook: hookFileName(triple) }
    }),
  )
}

/** What keeps a manifest's optionalDependencies from being exactly its platform packages at its version. */
export function problemsOfManifest(pkg, expected) {
  const problems = []
  const listed = pkg.optionalDependencies ?? {}
  for (const { name } of expected) {
    if (listed[name] !== pkg.version) problems.push(`optionalDependencies["${name}"] is ${listed[name] ?? 'absent'}, not ${pkg.version}`)
  }
  for (const name of Object.keys(listed)) {
    if (!expected.some((entry) => entry.name === name)) problems.push(`optionalDependencies lists ${name}, which no target builds`)
  }
  return problems
}

function problemOfNpmDir({ platform, name, binary, hook }) {
  const dir = join(root, 'npm', platform)
  if (!existsSync(join(dir, 'package.json'))) return `npm/${platform}/package.json is missing (napi create-npm-dirs)`
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  if (manifest.name !== name || manifest.version !== pkg.version) {
    return `npm/${platform} is ${manifest.name}@${manifest.version}, not ${name}@${pkg.version} (napi version)`
  }
  if (!existsSync(join(dir, binary))) return `npm/${platform}/${binary} is missing (napi artifacts)`
  // `approval-gates init` installs the hook from the platform package, so none ships without it.
  return existsSync(join(dir, hook)) ? null : `npm/${platform}/${hook} is missing (the build job's artifact)`
}

function problemOfDist(dist, { name }) {
  const file = tarballName(name, pkg.version)
  return existsSync(join(dist, file)) ? null : `${dist}/${file} is missing`
}

function problemOfRegistry({ name }) {
  const spec = `${name}@${pkg.version}`
  const result = spawnSync('npm', ['view', spec, 'version', '--json'], { encoding: 'utf8', cwd: root })
  return result.status === 0 && result.stdout.includes(pkg.version) ? null : `${spec} is not on the registry`
}

/** `npm version`'s step (after `napi version`): the optionalDependencies follow the new version. */
function syncOptionalDependencies(expected) {
  pkg.optionalDependencies = Object.fromEntries(expected.map(({ name }) => [name, pkg.version]))
  writeFileSync(join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
}

async function main(argv) {
  const expected = await expectedPlatformPackages(pkg)
  if (argv.includes('--sync')) {
    syncOptionalDependencies(expected)
    console.log(`optionalDependencies: ${expected.length} platform packages at ${pkg.version}`)
    return 0
  }
  const distAt = argv.indexOf('--dist')
  const check = argv.includes('--registry')
    ? problemOfRegistry
    : distAt >= 0
      ? (entry) => problemOfDist(argv[distAt + 1] ?? 'dist', entry)
      : problemOfNpmDir
  const problems = [...problemsOfManifest(pkg, expected), ...expected.map(check).filter(Boolean)]
  if (problems.length > 0) {
    console.error(`refusing to publish ${pkg.name}@${pkg.version}: a platform package is missing`)
    for (const problem of problems) console.error(`  - ${problem}`)
    return 1
  }
  console.log(`${pkg.name}@${pkg.version}: all ${expected.length} platform packages present`)
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2))
