#!/usr/bin/env node
// `npm run demo`: runs demo/loop.mjs on a Node that DSH accepts (see scripts/dsh-node.mjs).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import { dshNode } from '../scripts/dsh-node.mjs'

const loop = fileURLToPath(new URL('./loop.mjs', import.meta.url))
const result = spawnSync(dshNode(), [loop, ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(result.status ?? 1)
