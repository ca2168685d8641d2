// The corpora the oracle runs (the rows `bash.test.mjs` and `programs.test.mjs` check through
// bashTargets), and the few rows whose effect depends on a state the generic fixture does not have.
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

export const CORPORA = {
  bash: new URL('../fixtures/bash-targets.jsonl', import.meta.url),
  programs: new URL('../fixtures/program-targets.jsonl', import.meta.url),
  // The writes the third round's red team found allowed (docs/oracle.md#the-red-team-corpus), but
  // for those the two corpora above already hold: each must stay refused and still write.
  redteam: new URL('../fixtures/redteam-bypasses.jsonl', import.meta.url),
}

/** Every row of every corpus: `{ corpus, why, cmd, … }`. */
export function corpusRows() {
  return Object.entries(CORPORA).flatMap(([corpus, url]) =>
    readFileSync(url, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => ({ corpus, ...JSON.parse(line) })),
  )
}

const git = (repo, ...args) => execFileSync('git', args, { cwd: repo, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } })

/**
 * Work not yet committed, as in any session: a plan edited since its commit, and approvals the
 * owner gave since the last commit. What restores from the index or stashes then writes them.
 */
function uncommitted({ repo }) {
  for (const file of ['docs/superpowers/plans/x.md', 'docs/superpowers/plans/p.md', 'openspec/changes/foo/approval.md', 'openspec/changes/feat/approval.md']) {
    appendFileSync(join(repo, file), '# uncommitted\n')
  }
}

/** A change whose approval.md the owner has just written and nobody has committed yet. */
function untrackedApproval({ repo }) {
  git(repo, 'rm', '-q', '--cached', 'openspec/changes/foo/approval.md')
}

/** A submodule `mod` checked out in the repository, for the commands `git submodule foreach` runs there. */
function withSubmodule({ repo }) {
  const sub = join(repo, 'mod')
  mkdirSync(sub)
  git(sub, 'init', '-q')
  git(sub, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'sub')
  git(repo, 'add', 'mod')
  git(repo, 'config', '-f', '.gitmodules', 'submodule.mod.path', 'mod')
  git(repo, 'config', '-f', '.gitmodules', 'submodule.mod.url', './mod')
}

/** The sdd folder of plan p1 not made yet, so making it is a change. */
function noSddP1({ repo }) {
  rmSync(join(repo, '.superpowers/sdd/p1'), { recursive: true, force: true })
}

/** Per-row setup, by the row's exact command text (the oracle test fails on a key no row has). */
export const SETUP = {
  bash: {
    'git checkout -- docs/superpowers/plans/x.md': uncommitted,
    'git restore docs/superpowers/plans/x.md': uncommitted,
    'git -c alias.co=\'checkout --\' co openspec/changes/foo/approval.md': uncommitted,
    'git checkout -- openspec/changes/foo': uncommitted,
    'git restore openspec/changes/foo': uncommitted,
    'git stash && git pull --rebase && git stash pop': uncommitted,
    'git clean -fdx openspec/changes/foo': untrackedApproval,
    "git submodule foreach 'cd ..; cd docs/superpowers; cd plans; echo x > p.md'": withSubmodule,
    "git submodule foreach 'cat ../docs/superpowers/plans/p.md'": withSubmodule,
  },
  programs: {
    "python3 -c \"import os; os.makedirs('.superpowers/sdd/p1', exist_ok=True)\"": noSddP1,
  },
}
