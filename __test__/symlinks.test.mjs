// Symlinks (P-8, P-9): a write is judged where it really lands, for the write tools and bash
// alike, and approval.md is never written through a link.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { checkApproval, checkGuard, writeApproval } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const PLAN_NOT_APPROVED = `${BLOCKED}plan not approved; run /approve feat plan`

/** A repository whose innocent-looking names lead into the guarded places. */
function linkedRepo() {
  const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
  repo.symlink(repo.path('docs/superpowers/plans'), 'notes')
  repo.symlink('notes', 'chained')
  repo.symlink(repo.path('openspec/changes/feat/approval.md'), 'innocent.md')
  repo.symlink('docs/superpowers/plans/p.md', 'todo.md')
  repo.symlink(repo.path('.superpowers/sdd/p/progress.md'), 'ledger.md')
  repo.symlink('openspec/changes/feat/APPROVAL.md', 'dangling.md')
  repo.symlink('loop-b', 'loop-a').symlink('loop-a', 'loop-b')
  return repo
}

const write = (file_path, content = 'x') => ({ name: 'write', arguments: { file_path, content } })
const bash = (command) => ({ name: 'bash', arguments: { command, description: 'd' } })

describe('writes through links are judged at their real target', () => {
  const repo = linkedRepo()
  const cases = [
    ['a directory link into the plans folder', write('notes/new.md'), bash('echo x > notes/new.md'), NEEDS_SPEC],
    ['a chain of links into the plans folder', write('chained/new.md'), bash('cp /etc/hostname chained/'), NEEDS_SPEC],
    ['a file link to approval.md', write('innocent.md'), bash('echo "design:" >> innocent.md'), ONLY_APPROVE],
    ['a relative file link to a plan', write('todo.md'), bash("sed -i 's/task/done/' todo.md"), NEEDS_SPEC],
    ['a file link into an sdd folder', write('ledger.md'), bash('tee ledger.md < /dev/null'), PLAN_NOT_APPROVED],
    ['a dangling link to approval.md (the write would create it)', write('dangling.md'), bash('touch dangling.md'), ONLY_APPROVE],
  ]
  for (const [label, toolCall, bashCall, denial] of cases) {
    test(label, () => {
      assert.equal(checkGuard(toolCall, repo.root), denial, 'write tool')
      assert.equal(checkGuard(bashCall, repo.root), denial, 'bash')
    })
  }

  test('a plan written through a link passes once its Spec is approved, like the real path', () => {
    assert.equal(checkGuard(write('notes/new.md', planText('feat')), repo.root), null)
  })

  test('link loops and links to ordinary files are allowed', () => {
    repo.write('src/lib.rs', '').symlink('src/lib.rs', 'lib.rs')
    for (const call of [write('loop-a/x.md'), bash('echo x > loop-a'), write('lib.rs'), bash('echo x >> lib.rs')]) {
      assert.equal(checkGuard(call, repo.root), null, JSON.stringify(call))
    }
  })

  test('a hard link to a guarded file counts as writing it (no later write could tell)', () => {
    assert.equal(checkGuard(bash('ln openspec/changes/feat/approval.md notes.txt'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('cp -l docs/superpowers/plans/p.md copy.md'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash('ln -s openspec/changes/feat/approval.md later.md'), repo.root), null, 'a symlink is judged when written through')
  })

  test('reading through a link is never gated', () => {
    for (const file_path of ['innocent.md', 'todo.md', 'notes/p.md']) {
      assert.equal(checkGuard({ name: 'read', arguments: { file_path } }, repo.root), null)
    }
    assert.equal(checkGuard(bash('cat innocent.md todo.md notes/p.md'), repo.root), null)
  })
})

describe('approval.md is never written through a link (P-9)', () => {
  const outside = makeRepo().change('feat').plan('p', 'feat')

  const refused = (repo, kind = 'design') => {
    const checked = checkApproval('feat', kind, repo.root)
    assert.equal(checked.ok, false, 'the owner is not asked')
    assert.match(checked.message, /^refusing to write .*: it is a symlink$/)
    const written = writeApproval('feat', kind, true, repo.root)
    assert.deepEqual(written, { approved: false, message: checked.message })
  }

  test('a symlinked openspec/ pointing outside the repository', () => {
    const repo = makeRepo().symlink(outside.path('openspec'), 'openspec')
    refused(repo)
    assert.equal(outside.exists('openspec/changes/feat/approval.md'), false)
  })

  test('a symlinked openspec/changes/', () => {
    const repo = makeRepo().symlink(outside.path('openspec/changes'), 'openspec/changes')
    refused(repo)
    assert.equal(outside.exists('openspec/changes/feat/approval.md'), false)
  })

  test('a symlinked change directory', () => {
    const repo = makeRepo().symlink(outside.path('openspec/changes/feat'), 'openspec/changes/feat')
    refused(repo)
    assert.equal(outside.exists('openspec/changes/feat/approval.md'), false)
  })

  test('a symlinked approval.md, existing or dangling', () => {
    const target = outside.write('elsewhere.md', 'design:\n  by: someone\n  at: T\n').path('elsewhere.md')
    const repo = makeRepo().change('feat').plan('p', 'feat').symlink(target, 'openspec/changes/feat/approval.md')
    refused(repo)
    assert.equal(outside.read('elsewhere.md'), 'design:\n  by: someone\n  at: T\n')

    const dangling = makeRepo().change('feat').symlink(outside.path('nowhere.md'), 'openspec/changes/feat/approval.md')
    refused(dangling)
    assert.equal(outside.exists('nowhere.md'), false)
  })

  test('a symlink inside the change that is not approval.md does not matter', () => {
    const repo = makeRepo().change('feat', ['proposal.md', 'builder-check.md'])
    repo.symlink(outside.path('openspec/changes/feat/design.md'), 'openspec/changes/feat/design.md')
    assert.equal(writeApproval('feat', 'design', true, repo.root).approved, true)
  })
})
