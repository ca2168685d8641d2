// Temporary repositories in the layout the gates guard, removed when the test file ends.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after } from 'node:test'

const parent = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-test-')))
after(() => rmSync(parent, { recursive: true, force: true }))
// The approval ledger of every test file is its own (P-17), never the ledger of the person or
// machine running the tests; child processes (the CLI, workers) inherit it.
process.env.XDG_STATE_HOME = join(parent, 'state')
let count = 0

export const sha256 = (text) => createHash('sha256').update(text).digest('hex')

export const planText = (id, extra = '') =>
  `# Plan\n\n**Spec:** openspec/changes/${id}/design.md\n\n- [ ] task 1\n${extra}`

export function makeRepo() {
  const root = join(parent, `repo-${++count}`)
  mkdirSync(root)
  const repo = {
    root,
    path: (rel) => join(root, rel),
    write(rel, text) {
      mkdirSync(dirname(join(root, rel)), { recursive: true })
      writeFileSync(join(root, rel), text)
      return repo
    },
    read: (rel) => (existsSync(join(root, rel)) ? readFileSync(join(root, rel), 'utf8') : undefined),
    exists: (rel) => existsSync(join(root, rel)),
    symlink(target, rel) {
      mkdirSync(dirname(join(root, rel)), { recursive: true })
      symlinkSync(target, join(root, rel))
      return repo
    },
    /** proposal.md, design.md and builder-check.md of a change. */
    change(id, files = ['proposal.md', 'design.md', 'builder-check.md']) {
      for (const file of files) repo.write(`openspec/changes/${id}/${file}`, `# ${file}\n`)
      return repo
    },
    approval: (id, text) => repo.write(`openspec/changes/${id}/approval.md`, text),
    approveDesign: (id) => repo.approval(id, 'design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\n'),
    plan: (name, id, extra = '') => repo.write(`docs/superpowers/plans/${name}.md`, planText(id, extra)),
    /** Design approved and a plan section binding the plan's current bytes. */
    approvePlan(id, name) {
      const sha = sha256(readFileSync(join(root, `docs/superpowers/plans/${name}.md`)))
      return repo.approval(
        id,
        `design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\nplan:\n  by: owner\n  at: 2026-10-25T11:30:00Z\n  sha256: ${sha}\n`,
      )
    },
  }
  return repo
}
