// checkGuard against the scenarios of docs/decisions.md (gates A, B, C and the exceptions) and the
// P-decisions restated there, on temporary repositories.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createRequire } from 'node:module'

import { checkGuard, checkApproval, writeApproval } from '../index.js'
import { makeRepo, planText, sha256 } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const PLAN = 'docs/superpowers/plans/x.md'

const write = (file_path, content) => ({ name: 'write', arguments: { file_path, content } })
const edit = (file_path, new_string) => ({ name: 'edit', arguments: { file_path, old_string: 'a', new_string } })
const dispatch = (prompt, name = 'subagent') => ({ name, arguments: { description: 'd', prompt } })

describe('the package', () => {
  test('loads with require and import alike', async () => {
    const required = createRequire(import.meta.url)('..')
    const imported = await import('approval-gates')
    for (const api of [required, imported]) {
      assert.equal(typeof api.checkGuard, 'function')
      assert.equal(typeof api.checkApproval, 'function')
      assert.equal(typeof api.writeApproval, 'function')
    }
  })
})

describe('gate A: a plan before the design is approved', () => {
  test('plan with a Spec to an unapproved design is refused', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(write(PLAN, planText('feat')), repo.root), `${BLOCKED}design not approved; run /approve feat design`)
  })

  test('an empty design section does not unblock the plan', () => {
    const repo = makeRepo().change('feat').approval('feat', 'design:\n')
    assert.equal(checkGuard(write(PLAN, planText('feat')), repo.root), `${BLOCKED}design not approved; run /approve feat design`)
    repo.approval('feat', 'design:\n  by: ""\n  at: ~\n')
    assert.equal(checkGuard(write(PLAN, planText('feat')), repo.root), `${BLOCKED}design not approved; run /approve feat design`)
  })

  test('plan without a Spec line is refused', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(write(PLAN, '# Plan\n\n- [ ] task\n'), repo.root), NEEDS_SPEC)
  })

  test('plan after the design approval is allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(write(PLAN, planText('feat')), repo.root), null)
    assert.equal(checkGuard(write(repo.path(PLAN), '**Spec:** `openspec/changes/feat/`\n'), '/somewhere/else'), null)
  })

  test('an edit fragment without its own Spec is refused', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(edit(PLAN, '- [x] task 1'), repo.root), NEEDS_SPEC)
  })

  test('an edit fragment with a Spec to an approved change is allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(edit(PLAN, '**Spec:** openspec/changes/feat/design.md\n- [x] task 1'), repo.root), null)
  })

  test('the historical plans are frozen', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    for (const name of ['2026-10-24-dsh-decouple', '2026-10-24-dsh-port-spike', '2026-10-24-dsh-role-loader']) {
      assert.equal(checkGuard(write(`docs/superpowers/plans/${name}.md`, '# old plan\n'), repo.root), NEEDS_SPEC)
    }
    const legacy = '**Spec:** docs/superpowers/specs/2026-10-11-roles-and-memory-design.md\n'
    assert.equal(checkGuard(write('docs/superpowers/plans/2026-10-11-roles-and-memory.md', legacy), repo.root), NEEDS_SPEC)
  })

  test('every writing tool is judged by its own content field', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    const spec = planText('feat')
    const editor = (command, extra) => ({ name: 'str_replace_editor', arguments: { command, path: repo.path(PLAN), ...extra } })
    const multi = (edits) => ({ name: 'multi_edit', arguments: { file_path: PLAN, edits } })
    assert.equal(checkGuard(editor('create', { file_text: spec }), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(editor('str_replace', { old_str: 'a', new_str: spec }), repo.root), null)
    assert.equal(checkGuard(editor('insert', { insert_line: 1, new_str: 'no spec' }), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(editor('view', {}), repo.root), null)
    assert.equal(checkGuard(multi([{ old_string: 'a', new_string: spec }]), repo.root), null)
    assert.equal(checkGuard(multi([{ old_string: 'a', new_string: spec }, { old_string: 'b', new_string: 'x' }]), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(multi([]), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard({ name: 'write', arguments: { file_path: PLAN } }, repo.root), NEEDS_SPEC)
    assert.equal(checkGuard({ name: 'write', arguments: { file_path: PLAN, content: 42 } }, repo.root), NEEDS_SPEC)
  })

  test('unsafe ids and Specs escaping the root are refused', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    for (const spec of ['openspec/changes/../../x', '../openspec/changes/feat', 'openspec/changes/', 'openspec/changes/a\\b']) {
      assert.equal(checkGuard(write(PLAN, `**Spec:** ${spec}\n`), repo.root), NEEDS_SPEC, spec)
    }
  })
})

describe('gate B: sdd before the plan is approved', () => {
  test('a ledger before the plan approval is refused', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    assert.equal(checkGuard(write('.superpowers/sdd/p/progress.md', '# ledger'), repo.root), `${BLOCKED}plan not approved; run /approve feat plan`)
  })

  test('a dispatch naming an approved plan is allowed', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat').approvePlan('feat', 'p')
    assert.equal(checkGuard(dispatch('Implement task 1 of docs/superpowers/plans/p.md'), repo.root), null)
    assert.equal(checkGuard(write('.superpowers/sdd/p/progress.md', '# ledger'), repo.root), null)
  })

  test('one approved plan does not mask an unapproved one', () => {
    const repo = makeRepo().change('a').plan('a-plan', 'a').approvePlan('a', 'a-plan')
    repo.change('b').approveDesign('b').plan('b-plan', 'b')
    const prompt = 'First docs/superpowers/plans/a-plan.md, then docs/superpowers/plans/b-plan.md'
    assert.equal(checkGuard(dispatch(prompt), repo.root), `${BLOCKED}plan not approved; run /approve b plan`)
  })

  test('a missing plan is refused with the literal <id>, not as changed', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(dispatch('do docs/superpowers/plans/missing.md'), repo.root), `${BLOCKED}plan not approved; run /approve <id> plan`)
  })

  test('a plan changed after approval is refused until re-approved', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat').approvePlan('feat', 'p')
    repo.plan('p', 'feat', '- [ ] task 2\n')
    const call = dispatch('run docs/superpowers/plans/p.md')
    assert.equal(checkGuard(call, repo.root), `${BLOCKED}plan changed after approval; re-approve`)
    repo.approvePlan('feat', 'p')
    assert.equal(checkGuard(call, repo.root), null)
  })

  test('a dispatch without plan references is not gated', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(dispatch('Summarise the README and list open questions'), repo.root), null)
  })

  test('a plan without Spec or with a legacy Spec is refused with the literal <id>', () => {
    const repo = makeRepo().write('docs/superpowers/plans/old.md', '# no spec').write('docs/superpowers/plans/legacy.md', '**Spec:** docs/superpowers/specs/x.md')
    for (const name of ['old', 'legacy']) {
      assert.equal(checkGuard(dispatch(`docs/superpowers/plans/${name}.md`), repo.root), `${BLOCKED}plan not approved; run /approve <id> plan`)
    }
  })

  test('a plan section without sha256 approves nothing', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat').approval('feat', 'design:\n  by: owner\n  at: T\nplan:\n  by: owner\n  at: T\n')
    assert.equal(checkGuard(dispatch('docs/superpowers/plans/p.md'), repo.root), `${BLOCKED}plan not approved; run /approve feat plan`)
  })

  test('an sdd reference without its plan file: plan not found', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(dispatch('continue the ledger in .superpowers/sdd/ghost/'), repo.root), `${BLOCKED}plan not found: ghost`)
    assert.equal(checkGuard(write('.superpowers/sdd/ghost/brief-1.md', 'x'), repo.root), `${BLOCKED}plan not found: ghost`)
  })

  test('every dispatching tool is read by its own text field (D-7, P-4)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const denied = `${BLOCKED}plan not approved; run /approve feat plan`
    const ref = 'docs/superpowers/plans/p.md'
    const calls = [
      dispatch(ref, 'subagent'),
      dispatch(ref, 'subagent_fork'),
      { name: 'workflow', arguments: { script: `await agent('${ref}')`, meta: {} } },
      { name: 'send_message', arguments: { subagent_id: 's1', message: `now ${ref}` } },
      { name: 'ralph', arguments: { objective: `finish ${ref}` } },
    ]
    for (const call of calls) assert.equal(checkGuard(call, repo.root), denied, call.name)
  })

  test('dispatch references resolve against the session cwd, not arguments.cwd (T3.8)', () => {
    const session = makeRepo()
    const worktree = makeRepo().change('feat').plan('p', 'feat').approvePlan('feat', 'p')
    const call = { name: 'subagent', arguments: { prompt: 'docs/superpowers/plans/p.md', cwd: worktree.root } }
    assert.equal(checkGuard(call, worktree.root), null)
    assert.equal(checkGuard(call, session.root), `${BLOCKED}plan not approved; run /approve <id> plan`)
  })
})

describe('gate C: only /approve writes approval.md', () => {
  test('write and edit of approval.md are refused', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(write('openspec/changes/feat/approval.md', 'design:\n  by: owner\n  at: now\n'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(edit(repo.path('openspec/changes/feat/approval.md'), 'x'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(write('approval.md', 'x'), '/tmp'), ONLY_APPROVE)
  })

  test('the basename match ignores case (P-7)', () => {
    for (const name of ['APPROVAL.md', 'Approval.MD', 'approval.MD']) {
      assert.equal(checkGuard(write(`openspec/changes/feat/${name}`, 'x'), '/repo'), ONLY_APPROVE, name)
    }
    assert.equal(checkGuard(write('openspec/changes/feat/approval.md.bak', 'x'), '/repo'), null)
  })

  test('reading approval.md is allowed', () => {
    const call = { name: 'read', arguments: { file_path: 'openspec/changes/feat/approval.md' } }
    assert.equal(checkGuard(call, '/repo'), null)
  })
})

describe('exceptions and limits', () => {
  test('bounded work is never gated (D-6)', () => {
    const repo = makeRepo()
    for (const call of [
      write('src/lib.rs', 'pub fn x() {}'),
      edit('README.md', 'more'),
      { name: 'read', arguments: { file_path: PLAN } },
      { name: 'glob', arguments: { pattern: 'docs/**' } },
      { name: 'grep', arguments: { pattern: 'Spec', path: 'docs/superpowers/plans' } },
      dispatch('fix the flaky test in src/x.rs'),
    ]) {
      assert.equal(checkGuard(call, repo.root), null, call.name)
    }
  })

  test('terminal_send writing a plan stays outside the gates (T3.6)', () => {
    const call = { name: 'terminal_send', arguments: { sessionId: 't', text: 'cat > docs/superpowers/plans/x.md <<EOF\n' } }
    assert.equal(checkGuard(call, makeRepo().root), null)
  })

  test('editing design.md after its approval does not revoke it (D-11)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(edit('openspec/changes/feat/design.md', '## D-14 new decision'), repo.root), null)
    repo.write('openspec/changes/feat/design.md', '# design\n## D-14 new decision\n')
    assert.equal(checkGuard(write(PLAN, planText('feat')), repo.root), null)
  })
})

describe('paths (P-1, P-8)', () => {
  test('relative targets resolve against the cwd, lexically normalized', () => {
    const repo = makeRepo().change('feat')
    const expected = `${BLOCKED}design not approved; run /approve feat design`
    for (const target of ['./docs/superpowers/plans/x.md', 'docs//superpowers/./plans/x.md', 'src/../docs/superpowers/plans/x.md']) {
      assert.equal(checkGuard(write(target, planText('feat')), repo.root), expected, target)
    }
    assert.equal(checkGuard(write('../docs/superpowers/plans/x.md', planText('feat')), repo.path('src')), expected)
    assert.equal(checkGuard(write('docs/superpowers/plans/../notes.md', 'x'), repo.root), null)
  })

  test('a plan in a worktree inside the repo is judged by the worktree approval', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    const plan = '.claude/worktrees/slug/docs/superpowers/plans/x.md'
    assert.equal(checkGuard(write(plan, planText('feat')), repo.root), `${BLOCKED}design not approved; run /approve feat design`)
    repo.write('.claude/worktrees/slug/openspec/changes/feat/approval.md', 'design:\n  by: owner\n  at: T\n')
    assert.equal(checkGuard(write(plan, planText('feat')), repo.root), null)
  })

  test('guarded folder names match case-insensitively (P-7)', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(write('Docs/SuperPowers/Plans/x.md', 'no spec'), repo.root), NEEDS_SPEC)
  })

  test('symlinks cannot carry a write past the gates (P-8)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    repo.symlink(repo.path('docs/superpowers/plans'), 'notes')
    repo.symlink(repo.path('openspec/changes/feat/approval.md'), 'innocent.md')
    repo.symlink(repo.path('docs/superpowers/plans/p.md'), 'todo.md')
    repo.symlink('openspec/changes/feat/approval.md', 'dangling.md')
    assert.equal(checkGuard(write('notes/new.md', 'no spec'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(write('notes/new.md', planText('feat')), repo.root), null)
    assert.equal(checkGuard(write('innocent.md', 'design:\n'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(edit('todo.md', '- [x] done'), repo.root), NEEDS_SPEC)
    repo.write('openspec/changes/feat/approval.md', 'design:\n  by: owner\n  at: T\n')
    assert.equal(checkGuard(write('dangling.md', 'x'), repo.root), ONLY_APPROVE)
  })
})

describe('checkGuard never throws', () => {
  test('whatever it is given', () => {
    const throwing = new Proxy({}, { get() { throw new Error('trap') } })
    const getter = { get file_path() { throw new Error('getter') }, content: 'x' }
    const inputs = [
      undefined, null, 0, 42, 'write', [], [1, 2], {}, { name: 42 }, { name: 'write' },
      { name: 'write', arguments: 'file_path' }, { name: 'write', arguments: null },
      { name: 'write', arguments: getter }, { name: 'write', arguments: throwing }, throwing,
      { name: 'multi_edit', arguments: { file_path: PLAN, edits: 'nope' } },
      { name: 'multi_edit', arguments: { file_path: PLAN, edits: [null, 1, throwing] } },
      Object.freeze({ name: 'write', arguments: Object.freeze({ file_path: 'a\0b', content: '\ud800' }) }),
      { name: 'subagent', arguments: { prompt: 'x'.repeat(5_000_000) } },
    ]
    for (const input of inputs) {
      for (const cwd of [undefined, null, 7, '', 'relative/dir', '/tmp']) {
        const verdict = checkGuard(input, cwd)
        assert.ok(verdict === null || verdict.startsWith(BLOCKED))
      }
    }
  })

  test('an unreadable content field counts as invisible content, never as allowed', () => {
    const args = { file_path: PLAN, get content() { throw new Error('getter') } }
    assert.equal(checkGuard({ name: 'write', arguments: args }, '/repo'), NEEDS_SPEC)
  })

  test('a 1 MB write outside the plans folder is allowed', () => {
    assert.equal(checkGuard(write('src/big.txt', 'x'.repeat(1 << 20)), '/repo'), null)
  })
})

describe('checkApproval and writeApproval (natives)', () => {
  test('write design, then plan: the design section stays byte for byte', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat')
    assert.deepEqual(checkApproval('feat', 'design', repo.root), { ok: true, message: 'design of feat is ready for approval' })
    assert.equal(writeApproval('feat', 'design', true, repo.root).approved, true)
    const design = repo.read('openspec/changes/feat/approval.md')
    const ready = checkApproval('feat', 'plan', repo.root)
    assert.equal(ready.ok, true)
    assert.equal(ready.plan, 'docs/superpowers/plans/p.md')
    assert.equal(ready.sha256, sha256(planText('feat')))
    const written = writeApproval('feat', 'plan', true, repo.root, ready.sha256)
    assert.deepEqual(written, { approved: true, message: `plan docs/superpowers/plans/p.md of feat approved (sha256 ${ready.sha256})` })
    const text = repo.read('openspec/changes/feat/approval.md')
    assert.ok(text.startsWith(design))
    assert.match(text.slice(design.length), /^plan:\n {2}by: owner\n {2}at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n {2}sha256: [0-9a-f]{64}\n$/)
    assert.equal(checkGuard(dispatch('docs/superpowers/plans/p.md'), repo.root), null)
  })

  test('confirmed must be exactly true', () => {
    const repo = makeRepo().change('feat')
    for (const confirmed of [false, 'true', 1, {}, undefined]) {
      assert.deepEqual(writeApproval('feat', 'design', confirmed, repo.root), { approved: false, message: 'not confirmed' })
    }
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })

  test('the hash the owner was shown must still match (P-10)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const shown = checkApproval('feat', 'plan', repo.root).sha256
    repo.plan('p', 'feat', '- [ ] sneaked in\n')
    const result = writeApproval('feat', 'plan', true, repo.root, shown)
    assert.equal(result.approved, false)
    assert.match(result.message, /changed after it was shown to the owner/)
    assert.doesNotMatch(repo.read('openspec/changes/feat/approval.md'), /plan:/)
  })
})

describe('Claude Code tool names, passed raw (P-16)', () => {
  const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
  const call = (name, args) => checkGuard({ name, arguments: args }, repo.root)

  test('writes and dispatches that reach guarded files are refused', () => {
    assert.equal(call('Write', { file_path: PLAN, content: '# no spec' }), NEEDS_SPEC)
    assert.equal(call('Edit', { file_path: 'openspec/changes/feat/approval.md', old_string: 'a', new_string: 'b' }), ONLY_APPROVE)
    assert.equal(call('MultiEdit', { file_path: PLAN, edits: [{ old_string: 'a', new_string: 'no spec' }] }), NEEDS_SPEC)
    assert.equal(call('Bash', { command: 'tee openspec/changes/feat/approval.md < /dev/null' }), ONLY_APPROVE)
    for (const name of ['Task', 'Agent']) {
      assert.equal(call(name, { prompt: 'Execute docs/superpowers/plans/p.md' }), `${BLOCKED}plan not approved; run /approve feat plan`)
    }
  })

  test('work that does not reach them passes', () => {
    assert.equal(call('Write', { file_path: PLAN, content: planText('feat') }), null)
    assert.equal(call('Edit', { file_path: 'src/main.rs', old_string: 'a', new_string: 'b' }), null)
    assert.equal(call('MultiEdit', { file_path: PLAN, edits: [{ old_string: 'a', new_string: planText('feat') }] }), null)
    assert.equal(call('Bash', { command: 'sha256sum docs/superpowers/plans/p.md; cat openspec/changes/feat/approval.md' }), null)
    assert.equal(call('Task', { prompt: 'Summarise the README' }), null)
    assert.equal(call('Read', { file_path: 'openspec/changes/feat/approval.md' }), null)
  })

  test("Claude Code 2.1's Workflow, SendMessage and scheduled prompts are dispatches (gate B); Monitor runs a command", () => {
    const unapproved = `${BLOCKED}plan not approved; run /approve feat plan`
    assert.equal(call('Workflow', { script: "await agent('Implement task 1 of docs/superpowers/plans/p.md')" }), unapproved)
    // The input a workflow's script reads is any JSON value, judged as its JSON text.
    assert.equal(call('Workflow', { script: 'await agent(args.task)', args: { task: { plan: 'docs/superpowers/plans/p.md' } } }), unapproved)
    assert.equal(call('SendMessage', { to: 'worker', message: 'go on with docs/superpowers/plans/p.md' }), unapproved)
    assert.equal(call('CronCreate', { cron: '* * * * *', prompt: 'implement docs/superpowers/plans/p.md' }), unapproved)
    assert.equal(call('ScheduleWakeup', { delaySeconds: 60, prompt: 'continue docs/superpowers/plans/p.md', reason: 'r' }), unapproved)
    assert.equal(call('Monitor', { command: 'echo x > openspec/changes/feat/approval.md', description: 'm', timeout_ms: 1000 }), ONLY_APPROVE)
    assert.equal(call('Workflow', { script: 'await agent(args.q)', args: { q: 'what changed in README.md?' } }), null)
    const cyclic = { q: 'x' }
    cyclic.self = cyclic
    assert.equal(call('Workflow', { script: 'await agent(args.q)', args: cyclic }), null)
    assert.equal(call('Workflow', { args: { toJSON() { throw new Error('no') } } }), null)
    assert.equal(call('SendMessage', { to: 'main', message: 'done' }), null)
    assert.equal(call('Monitor', { command: 'tail -f build.log', description: 'm', timeout_ms: 1000 }), null)
  })
})
