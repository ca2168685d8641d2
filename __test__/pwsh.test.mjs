// DSH's `pwsh` tool through checkGuard: the PowerShell corpus (refused exactly when a command
// writes a guarded location), reads that stay allowed, `workdir`, and PowerShell run from bash.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { checkGuard } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`

const pwsh = (command, workdir) => ({ name: 'pwsh', arguments: workdir === undefined ? { command } : { command, workdir } })
const bash = (command) => ({ name: 'bash', arguments: { command } })

const corpus = readFileSync(new URL('./fixtures/pwsh-targets.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))

/** The guarded locations of paths.rs, on the corpus's expected targets. */
const guarded = (target) => {
  const parts = target.toLowerCase().split('/').filter(Boolean)
  const at = (names) => parts.some((_, i) => names.every((name, j) => parts[i + j] === name))
  const sdd = parts.findIndex((_, i) => parts[i] === '.superpowers' && parts[i + 1] === 'sdd' && parts[i + 2] !== undefined)
  return at(['docs', 'superpowers', 'plans']) || sdd >= 0 || parts.at(-1) === 'approval.md'
}

describe('pwsh: the corpus through checkGuard', () => {
  test('has both directions', () => {
    const refused = corpus.filter((row) => row.targets.some(guarded)).length
    assert.ok(refused >= 60 && corpus.length - refused >= 40, `${refused} refused of ${corpus.length}`)
  })

  const repo = makeRepo()
  for (const row of corpus) {
    const refuse = row.targets.some(guarded)
    test(`${refuse ? 'refused' : 'allowed'}: ${row.why}: ${JSON.stringify(row.cmd).slice(0, 70)}`, () => {
      const verdict = checkGuard(pwsh(row.cmd), repo.root)
      if (refuse) assert.ok(verdict?.startsWith(BLOCKED), `expected a refusal, got ${verdict}`)
      else assert.equal(verdict, null)
    })
  }
})

describe('pwsh: the gates on real repositories', () => {
  test('a plan written by PowerShell has no visible content: gate A refuses', () => {
    const repo = makeRepo().change('feat').approval('feat', 'design:\n  by: "o"\n  at: 2026-01-01\n')
    assert.equal(checkGuard(pwsh("Set-Content docs\\superpowers\\plans\\x.md 'x'"), repo.root), NEEDS_SPEC)
  })

  test('approval.md by any spelling Windows accepts: gate C refuses', () => {
    const repo = makeRepo().change('feat')
    for (const command of [
      "Set-Content -Path openspec\\changes\\feat\\approval.md -Value x",
      "'x' | Out-File OPENSPEC/Changes/feat/Approval.MD",
      "[IO.File]::WriteAllText('openspec/changes/feat/approval.md.', 'x')",
      "cmd /c \"echo x > openspec\\changes\\feat\\approval.md\"",
    ]) {
      assert.equal(checkGuard(pwsh(command), repo.root), ONLY_APPROVE, command)
    }
  })

  test('reading, hashing, listing and diffing guarded files stay allowed', () => {
    const repo = makeRepo().change('feat').write('docs/superpowers/plans/x.md', planText('feat'))
    for (const command of [
      'Get-Content docs\\superpowers\\plans\\x.md',
      'Get-FileHash docs/superpowers/plans/x.md -Algorithm SHA256',
      'Get-ChildItem docs/superpowers/plans | Select-Object Name',
      'Test-Path openspec/changes/feat/approval.md',
      'Select-String -Path docs/superpowers/plans/*.md -Pattern Spec',
      'Compare-Object (gc docs/superpowers/plans/x.md) (gc x.md)',
      'git diff -- docs/superpowers/plans/x.md',
      "Write-Host 'next: edit docs/superpowers/plans/x.md'",
    ]) {
      assert.equal(checkGuard(pwsh(command), repo.root), null, command)
    }
  })

  test('workdir is where relative paths start, Windows separators included', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(pwsh("ni approval.md", 'openspec\\changes\\feat'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(pwsh("ni notes.md", 'openspec\\changes\\feat'), repo.root), null)
  })

  test('bash running PowerShell is judged by the PowerShell analysis', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(bash("pwsh -c 'Remove-Item openspec\\changes\\feat\\approval.md'"), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('powershell -EncodedCommand cwBjACAAYQBwAHAAcgBvAHYAYQBsAC4AbQBkACAAeAA='), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash("pwsh -c 'Get-Content openspec/changes/feat/approval.md'"), repo.root), null)
  })

  test('a command over a cap is judged on its raw text', () => {
    const repo = makeRepo()
    const long = 'Get-Content a.md | '.repeat(20000) + 'Out-Null'
    assert.equal(checkGuard(pwsh(long), repo.root), null)
    assert.equal(
      checkGuard(pwsh(long + '; ni approval.md'), repo.root),
      'BLOCKED [approval-gates]: PowerShell command is too complex to check and names a guarded path; split it up',
    )
  })
})
