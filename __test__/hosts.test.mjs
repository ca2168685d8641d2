// Codex CLI's and Gemini CLI's hook payloads, as the real clients send them (captured from Codex
// 0.171 and Gemini CLI 0.61: __test__/fixtures/host-payloads.jsonl), judged by `check --host` of
// the JS CLI and of the native hook process alike, in both directions.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import { makeRepo } from './helpers/repo.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const HOOK = process.env.APPROVAL_GATES_HOOK ?? fileURLToPath(new URL(`../target/debug/approval-gates-hook${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url))
const ROWS = readFileSync(fileURLToPath(new URL('./fixtures/host-payloads.jsonl', import.meta.url)), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
const ONLY_APPROVE = 'BLOCKED [approval-gates]: approval.md is written only by /approve'

function run(command, prefix, args, input) {
  const result = spawnSync(command, [...prefix, ...args], { input, encoding: 'utf8' })
  if (result.error && result.status === null) throw new Error(`cannot run ${command}: ${result.error.message}`)
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
const CHECKERS = {
  'approval-gates check': (args, input) => run(process.execPath, [BIN], args, input),
  'approval-gates-hook check': (args, input) => run(HOOK, [], args, input),
}

/** A repository with change `feat` (design approved, plan `p` not) and a Codex transcript. */
function setup() {
  const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
  const call = (call_id, args) =>
    JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', call_id, arguments: JSON.stringify(args) } })
  const transcript = join(repo.root, '..', `${repo.root.split('/').at(-1)}-rollout.jsonl`)
  writeFileSync(transcript, [
    call('call_plans', { cmd: 'echo x > p2.md', workdir: 'docs/superpowers/plans' }),
    call('call_src', { cmd: 'echo x > p2.md', workdir: 'src' }),
  ].join('\n') + '\n')
  const payload = (row) =>
    JSON.stringify(row.payload).replaceAll('$ROOT', repo.root).replaceAll('$TRANSCRIPT', transcript)
  return { repo, payload }
}

for (const [checker, check] of Object.entries(CHECKERS)) {
  describe(`${checker} --host codex|gemini: the real clients' payloads`, () => {
    const { payload } = setup()
    for (const row of ROWS) {
      const label = `${row.host} ${row.payload.tool_name}${row.note ? ` (${row.note})` : ''}: ${row.denial ? 'refused' : 'allowed'}`
      test(label, () => {
        const result = check(['check', '--host', row.host], payload(row))
        const expected = row.denial ? { code: 2, stdout: '', stderr: `${row.denial}\n` } : { code: 0, stdout: '', stderr: '' }
        assert.deepEqual(result, expected)
      })
    }
  })

  describe(`${checker} --host: output and envelopes`, () => {
    const { repo } = setup()
    const denied = (host, tool_name, tool_input, event) =>
      JSON.stringify({ hook_event_name: event, tool_name, tool_input, cwd: repo.root })

    test('--json: Codex reads a permission decision, Gemini CLI a decision and a reason', () => {
      const codex = check(['check', '--host', 'codex', '--json'], denied('codex', 'Bash', { command: 'touch openspec/changes/feat/approval.md' }, 'PreToolUse'))
      assert.equal(codex.code, 0)
      assert.deepEqual(JSON.parse(codex.stdout), {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: ONLY_APPROVE },
      })
      const gemini = check(['check', '--host=gemini', '--json'], denied('gemini', 'write_file', { file_path: 'openspec/changes/feat/approval.md', content: 'x' }, 'BeforeTool'))
      assert.equal(gemini.code, 0)
      assert.deepEqual(JSON.parse(gemini.stdout), { decision: 'deny', reason: ONLY_APPROVE })
      const allowed = check(['check', '--host', 'gemini', '--json'], denied('gemini', 'write_file', { file_path: 'a.txt', content: 'x' }, 'BeforeTool'))
      assert.deepEqual(allowed, { code: 0, stdout: '', stderr: '' })
    })

    test("an argv array in Codex's shell call is judged word for word", () => {
      const nested = denied('codex', 'Bash', { command: ['bash', '-lc', 'echo x > openspec/changes/feat/approval.md'] }, 'PreToolUse')
      assert.deepEqual(check(['check', '--host', 'codex'], nested), { code: 2, stdout: '', stderr: `${ONLY_APPROVE}\n` })
      const data = denied('codex', 'Bash', { command: ['echo', 'x > openspec/changes/feat/approval.md'] }, 'PreToolUse')
      assert.deepEqual(check(['check', '--host', 'codex'], data), { code: 0, stdout: '', stderr: '' })
    })

    test("another event than the host's tool hook blocks", () => {
      const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: '/approve feat design', tool_name: 'x', cwd: repo.root })
      const codex = check(['check', '--host', 'codex'], prompt)
      assert.equal(codex.code, 2)
      assert.match(codex.stderr, /^approval-gates check: check judges PreToolUse payloads; this one is for "UserPromptSubmit"; the call is blocked\n$/)
      const gemini = check(['check', '--host', 'gemini'], denied('gemini', 'write_file', {}, 'PreToolUse'))
      assert.equal(gemini.code, 2)
      assert.match(gemini.stderr, /judges BeforeTool payloads; this one is for "PreToolUse"; the call is blocked/)
    })

    test('an unknown host is a usage error', () => {
      const result = check(['check', '--host', 'dsh'], '{"name":"read"}')
      assert.equal(result.code, 2)
      assert.match(result.stderr, /^approval-gates check: unknown host "dsh"; expected claude-code, codex or gemini\n\nusage: approval-gates check/)
    })
  })
}
