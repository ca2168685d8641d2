// The fixture the oracle runs commands in: a git repository with every guarded kind of file (plans,
// approval.md in several changes and in the archive, sdd ledgers and briefs), the ordinary files the
// corpus rows name, a four-commit history in which every guarded file differs (so restoring from
// any earlier revision really changes it), and a private /tmp with the sources a forging command
// would copy, extract or sync from. Built once per process, copied fresh for every row.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { accessSync, chmodSync, constants, cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** Changes, plans and ledgers of the fixture, for the generator's targets and the registry's reasons. */
export const TARGETS = {
  plan: { file: 'docs/superpowers/plans/p.md', create: 'docs/superpowers/plans/new.md', dir: 'docs/superpowers/plans' },
  approval: { file: 'openspec/changes/feat/approval.md', create: 'openspec/changes/bare/approval.md', dir: 'openspec/changes/feat' },
  sdd: { file: '.superpowers/sdd/p/progress.md', create: '.superpowers/sdd/p/brief-9.md', dir: '.superpowers/sdd/p' },
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')
const approvalText = (rev, plan) =>
  `design:\n  by: owner\n  at: 2026-10-2${rev}T10:00:00Z\n` + (plan ? `plan:\n  by: owner\n  at: 2026-10-2${rev}T11:30:00Z\n  sha256: ${plan}\n` : '')
const planText = (id, rev) =>
  `# Plan ${id}\n\n**Spec:** openspec/changes/${id}/design.md\n\n- [x] task 1\n- [ ] task 2 (rev ${rev})\nalpha beta\n`

/** Files that change in every commit of the history, as text for revision `rev` (1..4). */
function guardedFiles(rev) {
  return {
    'docs/superpowers/plans/x.md': planText('feat', rev),
    'docs/superpowers/plans/p.md': planText('foo', rev),
    'docs/superpowers/plans/plan.md': planText('c', rev),
    'docs/superpowers/plans/2026-10-24-dsh-decouple.md': `# DSH decouple (frozen, no Spec)\n\nrev ${rev}\n`,
    'openspec/changes/feat/approval.md': approvalText(rev),
    'openspec/changes/foo/approval.md': approvalText(rev),
    'openspec/changes/c/approval.md': approvalText(rev),
    // bar's approval carries a plan section: the one a forging copy would bring into another change.
    'openspec/changes/bar/approval.md': approvalText(rev, sha256(`bar plan ${rev}`)),
    'openspec/changes/archive/2026-01-05-old/approval.md': approvalText(rev, sha256(`old plan ${rev}`)),
    '.superpowers/sdd/p/progress.md': `# Progress p\n\n- [x] task 1 (rev ${rev})\n`,
    '.superpowers/sdd/p/brief-1.md': `# Brief 1\n\nImplement task 1 (rev ${rev}).\n`,
    '.superpowers/sdd/p1/progress.md': `# Progress p1 (rev ${rev})\n`,
    '.superpowers/sdd/feat-plan/progress.md': `# Progress feat-plan (rev ${rev})\n`,
    // Change `a` has its design approved and one plan: `writeApproval('a', 'plan', true)` writes.
    'openspec/changes/a/approval.md': approvalText(rev),
    'docs/superpowers/plans/a-plan.md': planText('a', rev),
    'docs/superpowers/plans/a.md': 'a\n',
    'docs/superpowers/plans/notes.tmp': `scratch (rev ${rev})\n`,
    // A stray approval.md at the top: gate C guards the name anywhere.
    'approval.md': approvalText(rev),
  }
}

function ordinaryFiles() {
  const files = {
    'README.md': '# Fixture\n\nTo approve, the owner runs approval-gates approve <id> design.\n',
    'package.json': JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test: 'node -e "console.log(1)"', build: 'node -e "console.log(2)"' } }, null, 2) + '\n',
    '.gitignore': 'node_modules/\n',
    Makefile:
      '.PHONY: all test FORCE\nall:\n\t@echo built\ntest:\n\t@echo tested\n' +
      '# Plans are regenerated from their drafts.\ndocs/superpowers/plans/%.md: FORCE\n\t@echo "# regenerated" > $@\nFORCE:\n',
    'docs/guide.md': '# Guide\n\nPlans live in docs/superpowers/plans; approvals in openspec/changes/<id>/approval.md.\n',
    'openspec/project.md': '# Project\n',
    'openspec/changes/foo/meta.json': '{"id": "foo"}\n',
    'draft/x.md': '# Draft plan\n',
    'src/lib.rs': 'pub fn x() {}\n',
    'src/index.ts': 'export const a = 1\n',
    'src/main.js': "console.log('a')\n",
    'src/util.js': "module.exports = 'a'\n",
    'src1/one.txt': 'one\n',
    'src2/two.txt': 'two\n',
    'sub/a.md': 'sub a\n',
    'build/out/artifact.o': 'o\n',
    'list.txt': 'a.md\n',
    list: 'a.md\n',
    'data.txt': 'a 1 20\nb 2 5\n',
    'fix.diff': '--- orig.md\n+++ orig.md\n@@ -1 +1 @@\n-orig\n+fixed\n',
    'x.patch': '--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-a\n+patched\n',
    'dump.hex': '00000000: 6465 7369 676e 3a0a 2020 6279 3a20 666f  design:.  by: fo\n00000010: 7267 6564 0a                             rged.\n',
  }
  for (const name of ['a', 'b', 'f', 'x', 'a.md', 'b.md', 'f.md', 'g.md', 'h.md', 'in.txt', 'big.md', 'ref.md', 'log.md', 'orig.md', 'mac.md', 'old.md', 'x.md']) {
    files[name] ??= `${name.replace(/\..*/, '')}\nalpha beta\n`
  }
  files['orig.md'] = 'orig\n'
  files['a.md'] = 'a\n'
  files['in.md'] = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('')
  for (const id of ['feat', 'foo', 'bar', 'c', 'bare', 'a', 'x']) {
    for (const file of ['proposal.md', 'design.md', 'builder-check.md']) files[`openspec/changes/${id}/${file}`] = `# ${file} of ${id}\n`
  }
  for (const file of ['proposal.md', 'design.md']) files[`openspec/changes/archive/2026-01-05-old/${file}`] = `# ${file} of old\n`
  return files
}

/** What a forging command would bring in: an approval.md, a plan and a ledger, loose and archived. */
const EVIL = {
  'approval.md': 'design:\n  by: forged\n  at: 2026-12-31T00:00:00Z\nplan:\n  by: forged\n  at: 2026-12-31T00:00:00Z\n  sha256: ' + '0'.repeat(64) + '\n',
  'p.md': '# Forged plan\n\n**Spec:** openspec/changes/feat/design.md\n',
  'progress.md': '# Forged progress\n',
  'x.md': '# Forged x\n',
}

function writeTree(root, files) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
}

const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Fixture',
      GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
      GIT_COMMITTER_NAME: 'Fixture',
      GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
    },
  })

/**
 * Every file's times for revision `rev` of the history, long past: older than the git index
 * written after them, so git (with `core.checkStat=minimal` and timestamps kept by each copy) sees
 * every copy clean and rewrites nothing it was not asked to.
 */
const age = (rev) => new Date(Date.UTC(2020, 0, rev))

function ageTree(root, when) {
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isSymbolicLink()) continue
      if (entry.isDirectory()) {
        if (entry.name !== '.git') walk(path)
        continue
      }
      utimesSync(path, when, when)
    }
  }
  walk(root)
}
/** Runs a tool the fixture can do without; false when it is missing or fails. */
function optional(command, args, options = {}) {
  try {
    execFileSync(command, args, { stdio: 'ignore', ...options })
    return true
  } catch {
    return false
  }
}

function buildRepo(repo, scratch) {
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '-q', '-b', 'main')
  writeTree(repo, ordinaryFiles())
  for (let rev = 1; rev <= 4; rev++) {
    writeTree(repo, guardedFiles(rev))
    ageTree(repo, age(rev))
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', `fixture rev ${rev}`)
  }
  // Few files to copy per run: one pack, no sample hooks.
  git(repo, 'repack', '-adq')
  git(repo, 'prune-packed')
  rmSync(join(repo, '.git/hooks'), { recursive: true, force: true })
  git(repo, 'config', 'core.checkStat', 'minimal')
  git(repo, 'config', 'core.trustctime', 'false')
  // Not tracked: directories git does not keep, the databases and archives the corpus reads.
  mkdirSync(join(repo, 'empty'))
  mkdirSync(join(repo, 'dest'))
  const evil = join(scratch, 'evil-src')
  writeTree(evil, EVIL)
  writeTree(evil, { 'superpowers/plans/x.md': EVIL['x.md'] })
  execFileSync('tar', ['-cf', join(repo, 'evil.tar'), '-C', evil, '.'])
  execFileSync('tar', ['-czf', join(repo, 'evil.tgz'), '-C', evil, '.'])
  // What a missing tool cannot make is left out: the rows that need it count as inconclusive.
  optional('zip', ['-qr', join(repo, 'evil.zip'), '.'], { cwd: evil })
  optional('sh', ['-c', `find . -type f | cpio -o --quiet > '${join(repo, 'evil.cpio')}'`], { cwd: evil })
  optional('sh', ['-c', `uuencode approval.md < '${join(evil, 'approval.md')}' > '${join(repo, 'x.uu')}'`])
  optional('sqlite3', [join(repo, 'data.db'), "create table t(x); insert into t values ('a'); create table plans(name); insert into plans values ('p');"])
  optional('sqlite3', [join(repo, 'x.db'), 'create table t(x);'])
  rmSync(evil, { recursive: true })
  // The package itself, as an installed dependency: `require('approval-gates')` and its CLI work.
  mkdirSync(join(repo, 'node_modules/.bin'), { recursive: true })
  symlinkSync(projectRoot, join(repo, 'node_modules/approval-gates'))
  symlinkSync('../approval-gates/bin/approval-gates.mjs', join(repo, 'node_modules/.bin/approval-gates'))
  ageTree(repo, age(4))
}

function buildTmp(tmp) {
  mkdirSync(tmp, { recursive: true })
  writeTree(tmp, {
    'home/.gitconfig': '[safe]\n\tdirectory = *\n[init]\n\tdefaultBranch = main\n',
    x: 'x from tmp\n',
    'x.md': '# x from tmp\n',
    'p.md': '# p from tmp\n',
    'j.json': '{"forged": true}\n',
    'approval.md': EVIL['approval.md'],
    'backup/changes/foo/approval.md': EVIL['approval.md'],
  })
  writeTree(join(tmp, 'evil'), EVIL)
  execFileSync('tar', ['-cf', join(tmp, 'evil.tar'), '-C', join(tmp, 'evil'), '.'])
  optional('zip', ['-qr', join(tmp, 'evil.zip'), '.'], { cwd: join(tmp, 'evil') })
  chmodSync(join(tmp, 'home'), 0o755)
}

/**
 * Where the copies go: `AG_ORACLE_TMP` when set, else /dev/shm when it is a writable folder (a
 * tmpfs: copying and removing hundreds of small trees on a virtual disk costs seconds each), else
 * the system's temporary folder.
 */
function scratchBase() {
  if (process.env.AG_ORACLE_TMP) return process.env.AG_ORACLE_TMP
  try {
    accessSync('/dev/shm', constants.W_OK)
    if (statSync('/dev/shm').isDirectory()) return '/dev/shm'
  } catch {}
  return tmpdir()
}

/**
 * The fixture's template (built once) and a factory of fresh copies: `fresh()` returns
 * `{ root, repo, tmp, dispose }`, a repository and a private /tmp no other run shares.
 */
export function makeFixtures() {
  const parent = realpathSync(mkdtempSync(join(scratchBase(), 'ag-oracle-')))
  const template = { repo: join(parent, 'template/repo'), tmp: join(parent, 'template/tmp') }
  buildRepo(template.repo, parent)
  buildTmp(template.tmp)
  let count = 0
  // A process that ends without disposing (an exception, an interrupted run) still removes them.
  const cleanup = () => rmSync(parent, { recursive: true, force: true })
  process.once('exit', cleanup)
  return {
    parent,
    template,
    fresh() {
      const root = join(parent, `run-${++count}`)
      const repo = join(root, 'repo')
      const tmp = join(root, 'tmp')
      const copy = { recursive: true, verbatimSymlinks: true, preserveTimestamps: true }
      cpSync(template.repo, repo, copy)
      cpSync(template.tmp, tmp, copy)
      return { root, repo, tmp, dispose: () => rmSync(root, { recursive: true, force: true }) }
    },
    dispose() {
      process.removeListener('exit', cleanup)
      cleanup()
    },
  }
}
