// DSH's `pwsh` tool through checkGuard: the PowerShell corpus (refused exactly when a command
// writes a guarded location), reads that stay allowed, `workdir`, and PowerShell run from bash.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { checkGuard, dropShell } from '../index.js'
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

  test('the tool is PowerShell under any case of its names', () => {
    const repo = makeRepo().change('feat').write('docs/superpowers/plans/x.md', planText('feat'))
    for (const name of ['pwsh', 'PWSH', 'powershell', 'PowerShell', 'POWERSHELL']) {
      const call = (command) => ({ name, arguments: { command } })
      for (const command of [
        'Get-Content docs/superpowers/plans/x.md',
        'Compress-Archive -Path docs/superpowers/plans -DestinationPath /tmp/plans.zip',
        'mkdir backup; Copy-Item openspec/changes/feat/approval.md backup/approval-feat.bak',
      ]) {
        assert.equal(checkGuard(call(command), repo.root), null, `${name}: ${command}`)
      }
      assert.equal(checkGuard(call("iex ('Set-Content ' + 'openspec/changes/feat/approval.md' + ' x')"), repo.root), ONLY_APPROVE, name)
      assert.ok(checkGuard(call("Set-Content ('.{0}/sdd/feat-plan/progress.md' -f 'superpowers') x"), repo.root)?.startsWith(BLOCKED), name)
      assert.equal(checkGuard(call('mkdir backup/x.bak; Copy-Item openspec/changes/feat/approval.md backup/x.bak'), repo.root), ONLY_APPROVE, name)
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

describe('pwsh: a persistent shell keeps its variables, aliases and functions (options.shell)', () => {
  const repo = makeRepo().change('c').write('docs/superpowers/plans/x.md', planText('c'))
  const inShell = (shell, command) => checkGuard(pwsh(command), repo.root, { shell })
  /** Runs `calls` in a new shell and returns the last verdict; the earlier calls must pass. */
  const after = (shell, ...calls) => {
    dropShell(shell)
    const last = calls.pop()
    for (const command of calls) assert.equal(inShell(shell, command), null, command)
    const verdict = inShell(shell, last)
    dropShell(shell)
    return verdict
  }

  test('a variable set in one call is a guarded path in the next: refused with its gate', () => {
    assert.equal(after('js-v1', "$p = 'docs/superpowers/plans/a.md'", 'Set-Content $p x'), NEEDS_SPEC)
    assert.equal(after('js-v2', "$global:a = 'openspec\\changes\\c\\approval.md'", 'New-Item $a'), ONLY_APPROVE)
    assert.equal(after('js-v3', "$env:PLANS = 'docs/superpowers/plans'", 'sc "$env:PLANS/a.md" x'), NEEDS_SPEC)
    assert.equal(after('js-v4', 'Set-Variable -Name p -Value openspec/changes/c/approval.md', 'ni $p'), ONLY_APPROVE)
    // Both values last: the first call may have stopped after either assignment.
    assert.equal(after('js-v5', "$p = 'docs/superpowers/plans/a.md'; $p = 'notes.md'", 'sc $p x'), NEEDS_SPEC)
  })

  test('reading through a carried variable, or writing one that is not guarded, passes', () => {
    assert.equal(after('js-r1', "$p = 'docs/superpowers/plans/x.md'", 'Get-Content $p; Select-String Spec $p'), null)
    assert.equal(after('js-r2', "$p = 'src/notes.md'", 'Set-Content $p x'), null)
    // Elsewhere the variable is unknown: one-shot and another shell behave as one-shot does.
    assert.equal(checkGuard(pwsh('Set-Content $p x'), repo.root), null)
    assert.equal(after('js-r3', 'Set-Content $p x'), null)
  })

  test('an alias defined in one call resolves to its cmdlet in the next', () => {
    // (The shell may have been reset, where the alias is an unknown command judged on the guarded
    // paths its arguments name: the plans folder is reached in two steps.)
    const enter = ['Set-Alias Enter-Dir Set-Location', 'Enter-Dir docs; Enter-Dir superpowers/plans']
    assert.equal(after('js-a1', ...enter, 'Set-Content a.md x'), NEEDS_SPEC)
    assert.equal(after('js-a2', 'cd docs/superpowers', 'Set-Alias w Set-Content', 'w plans/a.md x'), NEEDS_SPEC)
    assert.equal(after('js-a3', 'Set-Item alias:w New-Item', 'w openspec/changes/c/approval.md'), ONLY_APPROVE)
    assert.equal(after('js-a4', 'Set-Alias Read-Note Get-Content', 'Read-Note openspec/changes/c/approval.md'), null)
    assert.equal(after('js-a5', 'Set-Alias w Set-Content', 'w notes.md x'), null)
    assert.equal(checkGuard(pwsh('Enter-Dir docs; Enter-Dir superpowers/plans; Set-Content a.md x'), repo.root), null)
  })

  test('a function defined in one call runs its body where it is called in the next', () => {
    const go = 'function go { Set-Location docs/superpowers/plans }'
    assert.equal(after('js-f1', go, 'go; Set-Content a.md x'), NEEDS_SPEC)
    const save = 'function Save-Note($Path, $Text) { Set-Content -Path $Path -Value $Text }'
    assert.equal(after('js-f2', save, 'Save-Note openspec/changes/c/approval.md yes'), ONLY_APPROVE)
    assert.equal(after('js-f3', save, 'Save-Note src/notes.md x'), null)
    assert.equal(after('js-f4', 'function Show-Plan($f) { Get-Content $f }', 'Show-Plan docs/superpowers/plans/x.md'), null)
    // One-shot, `go` is a program that writes nothing.
    assert.equal(checkGuard(pwsh('go; Set-Content a.md x'), repo.root), null)
  })

  test('a refused call leaves no variable, alias or function; dropShell forgets them', () => {
    const refused =
      "$p = 'docs/superpowers/plans/a.md'; Set-Alias go Set-Location; function f { cd docs/superpowers/plans }; ni openspec/changes/c/approval.md"
    assert.equal(inShell('js-gone', refused), ONLY_APPROVE)
    assert.equal(inShell('js-gone', 'Set-Content $p x; f; Set-Content a.md x'), null)
    dropShell('js-gone')
    assert.equal(inShell('js-drop', "$p = 'docs/superpowers/plans/a.md'"), null)
    assert.equal(dropShell('js-drop'), true)
    assert.equal(inShell('js-drop', 'Set-Content $p x'), null)
    dropShell('js-drop')
  })

  test('past the value cap the shell fails closed on commands naming guarded paths', () => {
    const many = Array.from({ length: 70 }, (_, n) => `$p = 'n${n}.md'`).join('\n')
    assert.equal(inShell('js-cap', many), null)
    assert.match(inShell('js-cap', 'Get-Content docs/superpowers/plans/x.md') ?? '', /too many possible states/)
    assert.equal(inShell('js-cap', 'Get-ChildItem; Set-Content $p x'), null)
    dropShell('js-cap')
  })
})

