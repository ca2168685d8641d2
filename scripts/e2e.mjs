#!/usr/bin/env node
// The end-to-end suites in the real `dsh` CLI (__test__/e2e), run after `npm test` by .ci/run. They
// install DSH with pnpm (cached under ~/.cache/approval-gates-e2e) and need the addon built; each
// suite prints what it skipped and why when a tool it needs cannot be installed. One file at a
// time: each boots DSH, and CI has two cores.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

import { dshNode, nodeVersionOf, root } from './dsh-node.mjs'

const dir = join('__test__', 'e2e')
const suites = readdirSync(join(root, dir)).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(dir, f))
const node = dshNode()
const args = ['--test', '--test-reporter=spec', '--test-concurrency=1', ...suites]
console.log(`\n# e2e on node ${nodeVersionOf(node).join('.')}: ${[node, ...args].join(' ')}`)
const result = spawnSync(node, args, { cwd: root, stdio: 'inherit' })
if (result.error) throw new Error(`cannot run ${node}: ${result.error.message}`)
process.exit(result.status ?? 1)
