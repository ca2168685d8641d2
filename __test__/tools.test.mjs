// Tools that write files (MCP, patches, notebooks) and persistent shell state (P-14..P-16), through
// the package's checkGuard, in both directions.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { checkGuard, dropShell } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const DESIGN = (id) => `${BLOCKED}design not approved; run /approve ${id} design`
const PLAN = 'docs/superpowers/plans/x.md'
const APPROVAL = 'openspec/changes/c/approval.md'

const call = (name, args) => ({ name, arguments: args })
const addedPlan = (id) =>
  `*** Begin Patch\n*** Add File: ${PLAN}\n${planText(id).split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n`

describe('MCP tools', () => {
  test('the filesystem server writers are judged by name', () => {
    const repo = makeRepo().change('c')
    assert.equal(checkGuard(call('mcp__filesystem__write_file', { path: APPROVAL, content: 'x' }), repo.root), ONLY_APPROVE)
    assert.equal(
      checkGuard(call('mcp__filesystem__edit_file', { path: APPROVAL, edits: [{ oldText: 'a', newText: 'b' }] }), repo.root),
      ONLY_APPROVE,
    )
    assert.equal(checkGuard(call('mcp__filesystem__move_file', { source: 'n.md', destination: APPROVAL }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__filesystem__create_directory', { path: APPROVAL }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__filesystem__write_file', { path: PLAN, content: planText('c') }), repo.root), DESIGN('c'))
    repo.approveDesign('c')
    assert.equal(checkGuard(call('mcp__filesystem__write_file', { path: PLAN, content: planText('c') }), repo.root), null)
    assert.equal(
      checkGuard(call('mcp__filesystem__edit_file', { path: PLAN, edits: [{ oldText: 'a', newText: '- [x] done' }] }), repo.root),
      NEEDS_SPEC,
    )
    assert.equal(checkGuard(call('mcp__filesystem__read_file', { path: APPROVAL }), repo.root), null)
    assert.equal(checkGuard(call('mcp__filesystem__write_file', { path: 'notes.md', content: 'x' }), repo.root), null)
    assert.equal(checkGuard(call('mcp__filesystem__create_directory', { path: 'docs/superpowers/plans' }), repo.root), null)
  })

  test('other MCP tools by the words of their name and their path arguments', () => {
    const repo = makeRepo().change('c')
    assert.equal(checkGuard(call('mcp__notes__saveNote', { filePath: APPROVAL, text: 'x' }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__files__delete', { target: PLAN }), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(call('mcp__shell__run_command', { command: `touch ${APPROVAL}` }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__shell__run_command', { command: `cat ${APPROVAL}` }), repo.root), null)
    // An unknown tool writes every guarded path it names, a copy's source too (P-18).
    assert.equal(checkGuard(call('mcp__files__copy', { source: APPROVAL, destination: 'backup.md' }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__github__get_file_contents', { path: APPROVAL }), repo.root), null)
  })

  test('a tool named like a filesystem server writer is judged by its other strings too', () => {
    const repo = makeRepo().change('c')
    const uri = `file://${repo.root}/${APPROVAL}`
    assert.equal(checkGuard(call('mcp__foo__write_file', { file_path: APPROVAL, content: 'x' }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__foo__write_file', { filePath: PLAN, content: '# no spec' }), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(call('mcp__foo__write_file', { filePath: PLAN, content: planText('c') }), repo.root), DESIGN('c'))
    assert.equal(
      checkGuard(call('mcp__foo__edit_file', { file: '.superpowers/sdd/p/progress.md', edits: [] }), repo.root),
      `${BLOCKED}plan not found: p`,
    )
    assert.equal(checkGuard(call('mcp__foo__move_file', { from: '/tmp/x', to: APPROVAL }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__ide__write_file', { file_uri: uri, content: 'x' }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('mcp__ide__write_file', { uri, content: 'x' }), repo.root), ONLY_APPROVE)
    repo.approveDesign('c')
    // The fields the filesystem server gives them keep their meaning: content is text.
    assert.equal(checkGuard(call('mcp__foo__write_file', { filePath: PLAN, content: planText('c') }), repo.root), null)
    assert.equal(
      checkGuard(call('mcp__filesystem__write_file', { path: 'docs/notes.md', content: `see ${APPROVAL}` }), repo.root),
      null,
    )
    assert.equal(
      checkGuard(call('mcp__filesystem__edit_file', { path: 'notes.md', edits: [{ oldText: APPROVAL, newText: 'x' }] }), repo.root),
      null,
    )
  })

  test('an MCP tool whose name says nothing of writing is judged by its strings; unreadable arguments name nothing', () => {
    const args = new Proxy({}, { get() { throw new Error('read') } })
    assert.equal(checkGuard(call('mcp__weather__forecast', args), '/repo'), null)
    assert.equal(checkGuard(call('mcp__weather__forecast', { city: 'Oslo' }), '/repo'), null)
    assert.equal(checkGuard(call('mcp__weather__forecast', { at: [{ file: APPROVAL }] }), '/repo'), ONLY_APPROVE)
  })
})

describe('patches and notebooks', () => {
  test('apply_patch in any of its fields; an added plan with a Spec passes gate A once the design is approved', () => {
    const repo = makeRepo().change('c')
    for (const field of ['input', 'patch', 'command']) {
      assert.equal(checkGuard(call('apply_patch', { [field]: addedPlan('c') }), repo.root), DESIGN('c'))
    }
    repo.approveDesign('c')
    for (const field of ['input', 'patch', 'command']) {
      assert.equal(checkGuard(call('apply_patch', { [field]: addedPlan('c') }), repo.root), null)
    }
    const deletion = `*** Begin Patch\n*** Delete File: ${APPROVAL}\n*** End Patch\n`
    assert.equal(checkGuard(call('apply_patch', { input: deletion }), repo.root), ONLY_APPROVE)
    const diff = `--- a/${APPROVAL}\n+++ b/${APPROVAL}\n@@ -1 +1 @@\n-a\n+b\n`
    assert.equal(checkGuard(call('apply_patch', { patch: diff }), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(call('apply_patch', { input: diff.replaceAll(APPROVAL, 'src/a.rs') }), repo.root), null)
  })

  test('bash git apply and patch read the patch file', () => {
    const repo = makeRepo().change('c')
    repo.write('fix.patch', `--- a/${APPROVAL}\n+++ b/${APPROVAL}\n@@ -0,0 +1 @@\n+design:\n`)
    repo.write('ok.patch', '--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-a\n+b\n')
    for (const command of ['git apply fix.patch', 'patch -p1 < fix.patch', 'patch -p1 -i fix.patch', 'git am fix.patch']) {
      assert.equal(checkGuard(call('bash', { command }), repo.root), ONLY_APPROVE, command)
    }
    for (const command of ['git apply ok.patch', 'git apply --check fix.patch', 'cat fix.patch']) {
      assert.equal(checkGuard(call('bash', { command }), repo.root), null, command)
    }
  })

  test('notebook edits', () => {
    const repo = makeRepo().change('c')
    for (const name of ['notebook_edit', 'NotebookEdit']) {
      assert.equal(checkGuard(call(name, { notebook_path: APPROVAL, new_source: 'x' }), repo.root), ONLY_APPROVE)
      assert.equal(checkGuard(call(name, { notebook_path: 'a.ipynb', new_source: 'x' }), repo.root), null)
    }
  })

  test('terminal_send stays outside the gates (T3.6)', () => {
    const repo = makeRepo().change('c')
    assert.equal(checkGuard(call('terminal_send', { text: `echo x > ${APPROVAL}\n` }), repo.root), null)
  })
})

describe('persistent shells (options.shell)', () => {
  test('a cd in one call and a write in the next is judged where it lands', () => {
    const repo = makeRepo().change('c')
    const shell = { shell: `session-1:bash:${process.pid}` }
    assert.equal(checkGuard(call('bash', { command: 'cd docs/superpowers/plans' }), repo.root, shell), null)
    assert.equal(checkGuard(call('bash', { command: 'echo x > a.md' }), repo.root, shell), NEEDS_SPEC)
    // One-shot calls and other shells are not affected.
    assert.equal(checkGuard(call('bash', { command: 'echo x > a.md' }), repo.root), null)
    assert.equal(checkGuard(call('bash', { command: 'echo x > a.md' }), repo.root, { shell: 'other' }), null)
    assert.equal(dropShell(shell.shell), true)
    assert.equal(dropShell(shell.shell), false)
    assert.equal(checkGuard(call('bash', { command: 'echo x > a.md' }), repo.root, shell), null)
  })

  test('a refused call leaves no state', () => {
    const repo = makeRepo().change('c')
    const shell = { shell: 'refused' }
    assert.equal(checkGuard(call('bash', { command: 'cd docs/superpowers/plans && touch x.md' }), repo.root, shell), NEEDS_SPEC)
    assert.equal(checkGuard(call('bash', { command: 'touch x.md' }), repo.root, shell), null)
    dropShell('refused')
  })

  test('a persistent pwsh keeps the locations its Set-Location, Push-Location and Pop-Location left', () => {
    const repo = makeRepo().change('c')
    const pwsh = (command, shell) => checkGuard(call('pwsh', { command }), repo.root, shell === undefined ? undefined : { shell })
    const shell = `session-1:pwsh:${process.pid}`
    assert.equal(pwsh('Set-Location docs/superpowers/plans', shell), null)
    assert.equal(pwsh('Set-Content a.md x', shell), NEEDS_SPEC)
    assert.equal(pwsh('Get-Content a.md; Get-FileHash a.md', shell), null)
    // One-shot calls and other shells are not affected.
    assert.equal(pwsh('Set-Content a.md x'), null)
    assert.equal(pwsh('Set-Content a.md x', 'pwsh-other'), null)
    assert.equal(dropShell(shell), true)
    assert.equal(pwsh('Set-Content a.md x', shell), null)
    // The Push-Location stack lasts between calls.
    assert.equal(pwsh('Push-Location openspec\\changes\\c; Push-Location src', 'pwsh-stack'), null)
    assert.equal(pwsh('Pop-Location; New-Item approval.md', 'pwsh-stack'), ONLY_APPROVE)
    assert.equal(pwsh('New-Item notes.md', 'pwsh-stack'), null)
    dropShell('pwsh-stack')
  })

  test('a refused pwsh call, or a location changed in a nested pwsh, leaves no state', () => {
    const repo = makeRepo().change('c')
    const pwsh = (command, shell) => checkGuard(call('pwsh', { command }), repo.root, { shell })
    assert.equal(pwsh('cd docs/superpowers/plans; Set-Content a.md x', 'pwsh-refused'), NEEDS_SPEC)
    assert.equal(pwsh('Set-Content a.md x', 'pwsh-refused'), null)
    assert.equal(pwsh("pwsh -c 'cd docs/superpowers/plans'", 'pwsh-nested'), null)
    assert.equal(pwsh('Set-Content a.md x', 'pwsh-nested'), null)
    dropShell('pwsh-refused')
    dropShell('pwsh-nested')
  })

  test('hostile options never throw', () => {
    const hostile = [
      undefined, null, 1, 'bash', Symbol('s'), [], {}, { shell: 1 }, { shell: '' }, { shell: {} },
      { get shell() { throw new Error('getter') } }, new Proxy({}, { get() { throw new Error('trap') } }),
    ]
    for (const options of hostile) {
      const verdict = checkGuard(call('bash', { command: 'echo x > openspec/changes/c/approval.md' }), '/repo', options)
      assert.equal(verdict, ONLY_APPROVE)
      assert.equal(checkGuard(call('bash', { command: 'ls' }), '/repo', options), null)
    }
    for (const value of [undefined, null, 1, {}, Symbol('s')]) assert.equal(dropShell(value), false)
  })
})
