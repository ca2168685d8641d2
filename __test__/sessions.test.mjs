// The realistic-session corpus (docs/oracle.md): whole loops done properly — change created,
// builder-check, design approved by the owner, plan written and approved, sdd ledger and briefs,
// implementation, tests, review, pull request, archive — and everyday work next to the guarded
// files, in DSH and Claude Code tool shapes. Every call must be allowed: a refusal here is a false
// positive, and one the engine makes today is an accepted over-refusal in the residual-risk
// registry until it is fixed. The owner's steps go through writeApproval, with HOME and
// XDG_STATE_HOME in a temporary folder (an approval ledger lives outside the workspace).
//
// Each file: a first line `{ about }`, a `{ setup: { files } }` line (the project before the
// session), then steps: `{ id, step, call, shell? }` (a tool call, judged in the session's
// folder; `shell` names a persistent shell, whose calls are reported as ran to their end, as the
// DSH glue reports them from `tools/result`), `{ id, step, owner: { approve, kind } }` and
// `{ id, step, expect: { change, design?, planApproval? } }`. `{ROOT}` is the session's folder.
// The file tools' effects are applied, so later calls see what earlier ones wrote.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { after, before, describe, test } from 'node:test'

import { checkGuard, dropShell, loopStatus, shellCallRan, writeApproval } from '../index.js'
import { keyOf, loadRegistry, reconcile, reconcileMessage } from './oracle/registry.mjs'

const SESSIONS = new URL('./fixtures/sessions/', import.meta.url)
const files = readdirSync(SESSIONS).filter((name) => name.endsWith('.jsonl')).sort()

const parent = realpathSync(mkdtempSync(join(tmpdir(), 'ag-sessions-')))
const saved = { HOME: process.env.HOME, XDG_STATE_HOME: process.env.XDG_STATE_HOME }
before(() => {
  process.env.HOME = join(parent, 'home')
  process.env.XDG_STATE_HOME = join(parent, 'state')
  mkdirSync(process.env.HOME, { recursive: true })
})
after(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  rmSync(parent, { recursive: true, force: true })
})

/** The session's steps, `{ROOT}` filled in. */
function load(file, root) {
  return readFileSync(new URL(file, SESSIONS), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line.replaceAll('{ROOT}', root)))
}

/**
 * Applies what a file tool did to the session's folder, so later calls and the owner's approvals
 * see it. Throws when the corpus asks for an edit whose old text is not there (a broken corpus).
 */
function apply(root, { name, arguments: args }) {
  const at = (path) => (isAbsolute(path) ? path : join(root, path))
  const write = (path, text) => {
    mkdirSync(dirname(at(path)), { recursive: true })
    writeFileSync(at(path), text)
  }
  const replace = (path, pairs) => {
    let text = readFileSync(at(path), 'utf8')
    for (const [old, now] of pairs) {
      if (!text.includes(old)) throw new Error(`session corpus: ${name} on ${path}: old text not found: ${JSON.stringify(old)}`)
      text = text.replace(old, now)
    }
    writeFileSync(at(path), text)
  }
  switch (name) {
    case 'write':
    case 'Write':
      return write(args.file_path, args.content)
    case 'mcp__filesystem__write_file':
      return write(args.path, args.content)
    case 'edit':
    case 'Edit':
      return replace(args.file_path, [[args.old_string, args.new_string]])
    case 'MultiEdit':
    case 'multi_edit':
      return replace(args.file_path, args.edits.map((edit) => [edit.old_string, edit.new_string]))
    case 'mcp__filesystem__edit_file':
      return replace(args.path, args.edits.map((edit) => [edit.oldText, edit.newText]))
    case 'mcp__filesystem__create_directory':
      return mkdirSync(at(args.path), { recursive: true })
    case 'mcp__filesystem__move_file':
      mkdirSync(dirname(at(args.destination)), { recursive: true })
      return renameSync(at(args.source), at(args.destination))
    case 'str_replace_editor':
      if (args.command === 'create') return write(args.path, args.file_text)
      if (args.command === 'str_replace') return replace(args.path, [[args.old_str, args.new_str]])
      if (args.command === 'insert') {
        const lines = readFileSync(at(args.path), 'utf8').split('\n')
        lines.splice(args.insert_line, 0, args.new_str.replace(/\n$/, ''))
        return writeFileSync(at(args.path), lines.join('\n'))
      }
      return undefined
    case 'NotebookEdit': {
      const notebook = JSON.parse(readFileSync(at(args.notebook_path), 'utf8'))
      const cell = notebook.cells.find((c) => c.id === args.cell_id)
      if (!cell) throw new Error(`session corpus: no cell ${args.cell_id} in ${args.notebook_path}`)
      cell.source = args.new_source.split(/(?<=\n)/)
      return writeFileSync(at(args.notebook_path), JSON.stringify(notebook, null, 1))
    }
    default:
      return undefined
  }
}

const registry = loadRegistry().filter((entry) => entry.kind === 'session')
const results = new Map()
const refusals = []

for (const file of files) {
  describe(`session ${file}`, () => {
    const root = join(parent, file.replace(/\.jsonl$/, ''))
    const steps = load(file, root)
    const shells = new Set()
    before(() => {
      mkdirSync(root, { recursive: true })
      for (const [path, text] of Object.entries(steps.find((s) => s.setup)?.setup.files ?? {})) {
        mkdirSync(dirname(join(root, path)), { recursive: true })
        writeFileSync(join(root, path), text)
      }
    })
    after(() => {
      for (const shell of shells) dropShell(`${file}:${shell}`)
    })

    test('every step, in order: calls judged, the owner’s approvals given, the loop where it should be', () => {
      for (const step of steps.filter((s) => s.id !== undefined)) {
        const where = `${file}#${step.id} (${step.step})`
        if (step.owner) {
          const result = writeApproval(step.owner.approve, step.owner.kind, true, root)
          assert.equal(result.approved, true, `${where}: the owner's approval failed: ${result.message}`)
          continue
        }
        if (step.expect) {
          const row = loopStatus(root).find((change) => change.id === step.expect.change)
          assert.ok(row, `${where}: no change ${step.expect.change}`)
          if (step.expect.design !== undefined) assert.equal(row.designApproval !== undefined, step.expect.design, where)
          if (step.expect.planApproval !== undefined) assert.equal(row.planApproval.state, step.expect.planApproval, where)
          continue
        }
        if (step.shell) shells.add(step.shell)
        const shell = step.shell ? { shell: `${file}:${step.shell}`, callId: `${file}#${step.id}` } : undefined
        const verdict = checkGuard(step.call, root, shell)
        const key = keyOf({ session: `${file}#${step.id}` })
        results.set(key, { class: verdict === null ? 'ok' : 'over-refusal', verdict, where, call: step.call })
        if (verdict !== null) refusals.push({ key, where, verdict, call: step.call })
        else {
          apply(root, step.call)
          if (shell) assert.equal(shellCallRan(shell.shell, shell.callId), true, `${where}: the shell call was not the one to settle`)
        }
      }
      assert.ok(steps.some((s) => s.call), `${file} has calls`)
    })
  })
}

describe('the session corpus as a whole', () => {
  test('has a few hundred calls in DSH and Claude Code shapes', () => {
    const calls = files.flatMap((file) => load(file, '/r').filter((s) => s.call).map((s) => s.call.name))
    assert.ok(calls.length >= 200, `${calls.length} calls`)
    for (const name of ['write', 'edit', 'bash', 'subagent', 'workflow', 'send_message', 'Write', 'Edit', 'MultiEdit', 'Bash', 'Task', 'Agent', 'Workflow', 'SendMessage', 'NotebookEdit']) {
      assert.ok(calls.includes(name), `no ${name} call`)
    }
    assert.ok(calls.some((name) => name.startsWith('mcp__filesystem__')), 'no MCP filesystem call')
  })

  test('every call is allowed, but for the accepted over-refusals of the registry, and each of those still reproduces', () => {
    const total = results.size
    console.log(`\n# session corpus: ${total} calls in ${files.length} sessions; ${refusals.length} refused today (each a false positive to fix)`)
    for (const r of refusals) console.log(`#   ${r.where}: ${r.call.name} ${JSON.stringify(r.call.arguments).slice(0, 140)}\n#     ${r.verdict}`)
    const findings = new Map(refusals.map((r) => [r.key, { class: 'over-refusal', text: `${r.where}: ${r.call.name} ${JSON.stringify(r.call.arguments).slice(0, 200)}\n      ${r.verdict}` }]))
    const outcome = reconcile(registry, findings, results, (key) => results.has(key))
    const message = reconcileMessage('session', outcome)
    if (message !== null) assert.fail(message)
  })
})

