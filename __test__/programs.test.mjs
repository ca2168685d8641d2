// Interpreter programs (P-13): the program corpus through bashTargets, and the gates' verdicts on
// programs through checkGuard on temporary repositories: script files on disk, the package rule,
// each gate's own text, and read-only programs that must pass.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { bashTargets, checkGuard } from '../index.js'
import { makeRepo } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`

const bash = (command) => ({ name: 'bash', arguments: { command } })

const corpus = readFileSync(new URL('./fixtures/program-targets.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))

describe('bashTargets: the program corpus', () => {
  test('has at least 150 programs', () => {
    assert.ok(corpus.length >= 150, `${corpus.length} lines`)
  })
  for (const row of corpus) {
    test(`${row.why}: ${JSON.stringify(row.cmd).slice(0, 80)}`, () => {
      assert.deepEqual(bashTargets(row.cmd, '/repo').sort(), [...row.targets].sort())
    })
  }
})

describe('checkGuard: programs get the gates’ own texts', () => {
  test('a plan written by a program: gate A, whose content is invisible', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    for (const command of [
      `python3 -c "open('docs/superpowers/plans/x.md', 'w').write('**Spec:** openspec/changes/feat/design.md')"`,
      `node -e "require('fs').writeFileSync('docs/superpowers/plans/x.md', 'x')"`,
      `perl -e 'open(my $f, ">", "docs/superpowers/plans/x.md")'`,
      `ruby -e 'File.write("docs/superpowers/plans/x.md", "x")'`,
      `awk 'BEGIN { print "x" > "docs/superpowers/plans/x.md" }'`,
      `Rscript -e 'writeBin(charToRaw("x"), "docs/superpowers/plans/x.md")'`,
      `osascript -e 'tell application "Terminal" to do script "touch docs/superpowers/plans/x.md"'`,
      `sqlite3 -readonly data.db ".load ./ext" "select 'docs/superpowers/plans/x.md'"`,
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
    assert.equal(repo.exists('docs/superpowers/plans/x.md'), false)
  })

  test('approval.md written by a program: gate C', () => {
    const repo = makeRepo().change('feat')
    for (const command of [
      `python3 - <<'EOF'\nimport os\nopen(os.path.join('openspec', 'changes', 'feat', 'approval.md'), 'w').write('x')\nEOF`,
      `node -e "const ag = require('approval-gates'); ag['write' + 'Approval']('feat', 'plan', true)"`,
      `php -r 'file_put_contents("openspec/changes/feat/approval.md", "x");'`,
      `sqlite3 data.db "VACUUM INTO 'openspec/changes/feat/approval.md'"`,
      `yq -i '.a = 1' openspec/changes/feat/approval.md`,
      `Rscript -e 'fs::file_touch("openspec/changes/feat/approval.md")'`,
      `osascript -e 'tell application "Finder" to set name of file "openspec/changes/feat/approval.md" to "x"'`,
      `sqlite3 -readonly data.db "select load_extension('./x'), 'openspec/changes/feat/approval.md'"`,
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), ONLY_APPROVE, command)
    }
  })

  test('an sdd file written by a program: gate B', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const ledger = bash(`python3 -c "open('.superpowers/sdd/p/progress.md', 'a').write('- [x] 1')"`)
    assert.equal(checkGuard(ledger, repo.root), `${BLOCKED}plan not approved; run /approve feat plan`)
    repo.approvePlan('feat', 'p')
    assert.equal(checkGuard(ledger, repo.root), null)
  })

  test('read-only programs pass', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      `python3 -c "print(open('docs/superpowers/plans/p.md').read())"`,
      `python3 -c "import hashlib; print(hashlib.sha256(open('docs/superpowers/plans/p.md', 'rb').read()).hexdigest())"`,
      `python3 -c "import json; print(json.dumps(['docs/superpowers/plans/p.md', 'openspec/changes/feat/approval.md']))"`,
      `node -e "console.log(require('fs').readFileSync('docs/superpowers/plans/p.md', 'utf8'))"`,
      `node -e "const { checkGuard } = require('approval-gates'); console.log(checkGuard({ name: 'ls' }, '.'))"`,
      `perl -ne 'print if /Spec/' docs/superpowers/plans/p.md`,
      `ruby -e 'puts File.read("openspec/changes/feat/approval.md")'`,
      `awk '/Spec/ { print FILENAME": "$0 }' docs/superpowers/plans/p.md`,
      `sqlite3 -readonly data.db "select * from plans"`,
      `sqlite3 -readonly data.db ".headers on" "select sha3(readfile('docs/superpowers/plans/p.md'))"`,
      `Rscript -e 'print(tools::md5sum("docs/superpowers/plans/p.md"))'`,
      `Rscript -e 'cat(readLines("docs/superpowers/plans/p.md"), sep = "\\n")'`,
      `Rscript -e 'print(list.files("docs/superpowers/plans"))'`,
      `osascript -e 'display dialog (read POSIX file "docs/superpowers/plans/p.md")'`,
      `osascript -e 'tell application "Finder" to get name of every file of folder (POSIX file "docs/superpowers/plans")'`,
      `jq . package.json`,
      `python3 - <<'EOF'\ntext = open('docs/superpowers/plans/p.md').read()\nopen('/tmp/plan-copy.md', 'w').write(text)\nEOF`,
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })
})

describe('checkGuard: script files read at check time', () => {
  test('a script on disk that writes a guarded file is refused; one that reads passes', () => {
    const repo = makeRepo().change('feat')
    repo.write('tools/gen.py', "open('openspec/changes/feat/approval.md', 'w').write('x')\n")
    repo.write('tools/show.py', "print(open('openspec/changes/feat/approval.md').read())\n")
    repo.write('tools/gen.sh', 'echo x > openspec/changes/feat/approval.md\n')
    repo.write('tools/run', "#!/usr/bin/env node\nrequire('fs').writeFileSync('openspec/changes/feat/approval.md', 'x')\n")
    assert.equal(checkGuard(bash('python3 tools/gen.py'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('cd tools && python3 gen.py'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('python3 tools/show.py'), repo.root), null)
    assert.equal(checkGuard(bash('bash tools/gen.sh'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('source tools/gen.sh'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('./tools/run'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('python3 tools/missing.py'), repo.root), null)
  })

  test('a script the same line writes is judged with that text, not the file on disk', () => {
    const repo = makeRepo().change('feat')
    repo.write('s.py', "print('harmless')\n")
    const command = "cat > s.py <<'EOF'\nopen('openspec/changes/feat/approval.md', 'w')\nEOF\npython3 s.py"
    assert.equal(checkGuard(bash(command), repo.root), ONLY_APPROVE)
  })

  test('a path to this package’s index.js is the package', () => {
    const repo = makeRepo().change('feat')
    repo.write('pkg/package.json', '{\n  "name": "approval-gates",\n  "main": "index.js"\n}\n')
    repo.write('pkg/index.js', 'module.exports = {}\n')
    const load = (call) => bash(`node -e "const ag = require('./pkg/index.js'); ${call}"`)
    assert.equal(checkGuard(load("ag.writeApproval('feat', 'plan', true)"), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(load("ag['write' + 'Approval']('feat', 'plan', true)"), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(load("console.log(ag.loopStatus('.'))"), repo.root), null)
  })

  test('the exports that only read are allowed from a command line; the ones that record approvals are not', () => {
    const repo = makeRepo().change('feat')
    const call = (expression) => bash(`node -e "console.log(JSON.stringify(require('approval-gates').${expression}))"`)
    for (const reads of ["approvalSetup('.')", "sealSurvey('.')", "presentApproval('feat', 'design', 'cli', '.')", "loopStatus('.')", "checkApproval('feat', 'design', '.')"]) {
      assert.equal(checkGuard(call(reads), repo.root), null, reads)
    }
    for (const records of ["sealApprovals('.', [])", "writeApproval('feat', 'design', true, '.')"]) {
      assert.equal(checkGuard(call(records), repo.root), ONLY_APPROVE, records)
    }
  })
})
