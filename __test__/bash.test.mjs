// Bash commands (docs/decisions.md#bash, P-2, P-5): the corpus through bashTargets, and the gate
// outcomes of the bash scenarios of docs/decisions.md#bash through checkGuard, on temporary repositories.
import assert from 'node:assert/strict'
import { readFileSync, rmSync } from 'node:fs'
import { posix } from 'node:path'
import { describe, test } from 'node:test'

import { bashTargets, checkGuard } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const PLAN = 'docs/superpowers/plans/x.md'

const bash = (command, workdir) => ({ name: 'bash', arguments: workdir === undefined ? { command } : { command, workdir } })

const corpus = readFileSync(new URL('./fixtures/bash-targets.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))

describe('bashTargets: the corpus', () => {
  test('has at least 150 commands', () => {
    assert.ok(corpus.length >= 150, `${corpus.length} lines`)
  })

  const home = process.env.HOME?.startsWith('/') ? process.env.HOME : undefined
  for (const row of corpus) {
    const needsHome = row.targets?.some((target) => target.includes('{HOME}'))
    test(`${row.why}: ${JSON.stringify(row.cmd).slice(0, 80)}`, { skip: needsHome && home === undefined && 'no HOME' }, () => {
      if (row.unscannable) {
        assert.throws(() => bashTargets(row.cmd, '/repo'), (error) => error instanceof Error && /^bashTargets: the command is /.test(error.message))
        return
      }
      const expected = row.targets.map((target) => posix.normalize(target.replaceAll('{HOME}', home))).sort()
      assert.deepEqual(bashTargets(row.cmd, '/repo').sort(), expected)
    })
  }
})

describe('bashTargets: the binding', () => {
  test('a command that is not a string is a TypeError', () => {
    for (const command of [undefined, null, 42, {}, ['ls']]) {
      assert.throws(() => bashTargets(command, '/repo'), TypeError)
    }
  })

  test('a relative cwd resolves against the process cwd; an absent one is the process cwd', () => {
    assert.deepEqual(bashTargets('touch a.md', 'sub'), [`${process.cwd()}/sub/a.md`])
    assert.deepEqual(bashTargets('touch a.md'), [`${process.cwd()}/a.md`])
  })

  test('paths come back absolute and normalized, without duplicates', () => {
    assert.deepEqual(bashTargets('touch ./a.md a.md x/../a.md', '/repo//sub/'), ['/repo/sub/a.md'])
  })
})

describe('checkGuard: bash commands (the scenarios of docs/decisions.md#bash)', () => {
  test('heredoc into a plan without Spec is refused', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(bash(`cat > ${PLAN} <<'EOF'\n# Plan\n- [ ] task\nEOF`), repo.root), NEEDS_SPEC)
  })

  test('a bash target under plans is refused even with a Spec line: its content is invisible', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    assert.equal(checkGuard(bash(`cat > ${PLAN} <<'EOF'\n${planText('feat')}EOF`), repo.root), NEEDS_SPEC)
  })

  test('echo x > openspec/changes/<id>/approval.md is refused', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(bash('echo x > openspec/changes/feat/approval.md'), repo.root), ONLY_APPROVE)
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })

  test('an sdd write by bash before the plan is approved is refused, after it is allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const ledger = bash('echo "- [x] task 1" >> .superpowers/sdd/p/progress.md')
    assert.equal(checkGuard(ledger, repo.root), `${BLOCKED}plan not approved; run /approve feat plan`)
    repo.approvePlan('feat', 'p')
    assert.equal(checkGuard(ledger, repo.root), null)
    assert.equal(checkGuard(bash('touch .superpowers/sdd/ghost/x'), repo.root), `${BLOCKED}plan not found: ghost`)
  })

  test('a plain command without guarded paths is not gated', () => {
    const repo = makeRepo()
    for (const command of ['cargo test --quiet 2>&1 | tail -20', 'npm test', 'git status --short && git diff --stat', 'ls -la']) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })
})

describe('checkGuard: what bash parsing closes and keeps open', () => {
  test('quoting tricks do not hide a target (P-5)', () => {
    const repo = makeRepo()
    for (const command of [
      'echo x > docs/super"powers"/plans/x.md',
      "echo x > $'docs/superpowers/plans/\\x78.md'",
      'echo x > docs/super\\powers/plans/x.md',
      'echo x > docs/super\\\npowers/plans/x.md',
      'touch docs/superpowers/plans/{a,b}.md',
      'P=docs/superpowers/plans; touch "$P/x.md"',
      "bash -c 'touch docs/superpowers/plans/x.md'",
      'echo $(touch docs/superpowers/plans/x.md)',
      'sudo env FOO=1 timeout 5 tee docs/superpowers/plans/x.md',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
  })

  test('reads of guarded files and writes elsewhere stay allowed', () => {
    const repo = makeRepo().change('feat').plan('p', 'feat')
    for (const command of [
      'cat docs/superpowers/plans/p.md',
      'cat docs/superpowers/plans/p.md | tee /tmp/x',
      'cp docs/superpowers/plans/p.md /tmp/',
      'echo "approval.md" > notes.txt',
      'grep -rn Spec docs/superpowers/plans openspec/changes/feat/approval.md',
      '[[ $a > $b ]] && echo $(( 3 > 2 ))',
      'echo ">" docs/superpowers/plans/p.md',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })

  test('targets resolve against workdir, relative to the session cwd (P-2)', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(bash('touch x.md', 'docs/superpowers/plans'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash('touch x.md', repo.path('docs/superpowers/plans')), '/elsewhere'), NEEDS_SPEC)
    assert.equal(checkGuard(bash('touch approval.md', 'openspec/changes/feat'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('touch x.md', 'src'), repo.root), null)
  })

  test('cd moves the base; a subshell keeps its cd to itself', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(bash('cd docs/superpowers && echo x > plans/x.md'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash('(cd docs/superpowers) && echo x > plans/x.md'), repo.root), null)
    assert.equal(checkGuard(bash('git -C openspec/changes/feat checkout -- approval.md'), repo.root), ONLY_APPROVE)
  })

  test('running the CLI to approve is refused in every spelling', () => {
    const repo = makeRepo().change('feat')
    for (const command of [
      'approval-gates approve feat design',
      'npx approval-gates approve feat plan',
      'npx -y approval-gates@latest approve feat plan',
      'npm exec approval-gates -- approve feat design',
      'pnpm dlx approval-gates approve feat plan',
      'yarn approval-gates approve feat plan',
      './node_modules/.bin/approval-gates approve feat design',
      'node node_modules/approval-gates/bin/approval-gates.mjs approve feat design',
      'approval-gates approve "$(ls openspec/changes)" design',
      "node -e \"require('approval-gates').writeApproval('feat', 'design', true)\"",
      "node -p \"require('approval-gates').writeApproval('feat', 'plan', true)\"",
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), ONLY_APPROVE, command)
    }
    assert.equal(checkGuard(bash('approval-gates check feat design'), repo.root), null)
    assert.equal(checkGuard(bash('node -e "console.log(1)"'), repo.root), null)
  })

  test('an unterminated quote fails open; a clean write before it does not', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(bash('echo "unterminated > approval.md'), repo.root), null)
    assert.equal(checkGuard(bash('echo x > approval.md; echo "oops'), repo.root), ONLY_APPROVE)
  })

  test('the first denial wins', () => {
    const repo = makeRepo()
    assert.equal(checkGuard(bash(`touch approval.md ${PLAN}`), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash(`touch ${PLAN} approval.md`), repo.root), NEEDS_SPEC)
  })

  test('a symlink does not carry a bash write past the gates (P-8)', () => {
    const repo = makeRepo().change('feat')
    repo.symlink(repo.path('openspec/changes/feat/approval.md'), 'innocent.md')
    assert.equal(checkGuard(bash('echo x > innocent.md'), repo.root), ONLY_APPROVE)
  })

  test('a command over the caps is judged by its raw text', () => {
    const repo = makeRepo()
    const padding = 'x'.repeat(1 << 20)
    assert.equal(
      checkGuard(bash(`echo ${padding} > docs/super'powers'/plans/x.md`), repo.root),
      `${BLOCKED}bash command is too large (over 1 MiB) to check and names a guarded path; split it up`,
    )
    assert.equal(checkGuard(bash(`echo ${padding} > notes.md`), repo.root), null)
    const deep = `echo ${'$('.repeat(400)}x${')'.repeat(400)} > approval.md`
    assert.match(checkGuard(bash(deep), repo.root), /^BLOCKED \[approval-gates\]: bash command is too deeply nested/)
  })

  test('a persistent bash (command only) and odd arguments never throw', () => {
    const repo = makeRepo()
    assert.equal(checkGuard({ name: 'bash', arguments: { command: 'touch approval.md' } }, repo.root), ONLY_APPROVE)
    for (const args of [undefined, null, {}, { command: 42 }, { command: ['rm', 'approval.md'] }, { command: 'ls', workdir: 7 }, { command: '\0\ud800' }]) {
      const verdict = checkGuard({ name: 'bash', arguments: args }, repo.root)
      assert.ok(verdict === null || verdict.startsWith(BLOCKED))
    }
  })

  test('terminal_send stays outside the gates (T3.6)', () => {
    const call = { name: 'terminal_send', arguments: { sessionId: 't', text: 'echo x > approval.md\n' } }
    assert.equal(checkGuard(call, makeRepo().root), null)
  })
})

describe('checkGuard: self-approval, unknown writers and directory writes (P-11, P-12)', () => {
  test('the CLI approving under any wrapper is gate C; prose that names it is data', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      "script -qec 'npx approval-gates approve feat plan' /dev/null <<< yes",
      "python3 -c 'import pty; pty.spawn([\"approval-gates\", \"approve\", \"feat\", \"plan\"])'",
      "tmux send-keys 'approval-gates approve feat plan' Enter",
      'echo approve | xargs approval-gates',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), ONLY_APPROVE, command)
    }
    for (const command of [
      "git commit -m 'docs: the owner runs approval-gates approve feat plan'",
      "gh pr create --body 'approval-gates approve feat plan is for the owner'",
      'cargo test -p approval-gates',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })

  test('an unknown command naming a guarded location writes it; readers stay allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    assert.equal(checkGuard(bash('sponge docs/superpowers/plans/p.md < /tmp/x'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash("yq -i '.a = 1' openspec/changes/feat/approval.md"), repo.root), ONLY_APPROVE)
    for (const command of ['sha256sum docs/superpowers/plans/p.md', 'yq .design openspec/changes/feat/approval.md', 'openspec validate feat']) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })

  test('a reader that runs the pager or preprocessor it is given runs that command line', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const plan = 'docs/superpowers/plans/p.md'
    for (const command of [
      `man -P 'touch ${plan}' ls`,
      `MANPAGER='touch ${plan}' man ls`,
      `bat --paging=always --pager='rm ${plan}' README.md`,
      `BAT_PAGER='rm ${plan}' bat README.md`,
      `env LESSOPEN='|touch %s' less ${plan}`,
      `less -o ${plan} /tmp/x`,
      `rg --pre touch x ${plan}`,
      `vale sync --config ${plan}`,
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
    for (const command of [`man -P cat ls`, `PAGER=cat man ls`, `bat ${plan}`, `rg -n Spec ${plan}`, `LESSOPEN='|cat %s' zless ${plan}`, `delta ${plan} /tmp/x`]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })

  test('npm subcommands that write are unknown commands; its readers stay allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const plans = 'docs/superpowers/plans'
    for (const command of [`cd ${plans} && npm init -y`, `npm pack --pack-destination ${plans}`, `npm install --prefix ${plans}`, `npm ls --cache ${plans}`, `npm config set x y --location project --prefix ${plans}`]) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
    for (const command of ['npm ls', 'npm view approval-gates version', `cd ${plans} && npm config get registry`, 'npm run build', 'npm install', 'npm audit']) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })

  test('a tree written into a change is gate C; the archive step and removing a change are not', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').change('other')
    assert.equal(checkGuard(bash('cp -r openspec/changes/feat/. openspec/changes/other/'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('tar -xzf /tmp/x.tgz'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard(bash('mv openspec/changes/feat openspec/changes/archive/2026-12-01-feat'), repo.root), null)
    assert.equal(checkGuard(bash('rm -rf openspec/changes/other'), repo.root), null)
  })
})

describe('checkGuard: shell channels (wrappers, shells, scripts by other spellings, values the line defines; P-11, P-12)', () => {
  const refusedApproval = [
    "watch -n 1 'echo x > openspec/changes/feat/approval.md'",
    "flock /tmp/lock -c 'touch openspec/changes/feat/approval.md'",
    "script -qec 'npx approval-gates approve feat design' /dev/null <<< yes",
    "su -c 'rm openspec/changes/feat/approval.md' root",
    "busybox cp a openspec/changes/feat/approval.md",
    "parallel 'echo x > {}' ::: openspec/changes/feat/approval.md",
    "git -c alias.w='!touch openspec/changes/feat/approval.md' w",
    "find openspec/changes/feat -name approval.md -exec sh -c 'echo x > \"$1\"' _ {} \\;",
    "sh /dev/stdin <<'EOF'\ntouch openspec/changes/feat/approval.md\nEOF",
    "printf 'touch openspec/changes/feat/\\x61pproval.md' | sh",
    'w(){ cp f "$1"; }; w openspec/changes/feat/approval.md',
    'a=(x openspec/changes/feat/approval.md); cp f "${a[1]}"',
    'echo openspec/changes/feat/approval.md | xargs -I{} cp f {}',
    'while read -r f; do rm "$f"; done <<< openspec/changes/feat/approval.md',
    'ln -s openspec/changes/feat/approval.md n.md && echo x > n.md',
  ]
  for (const command of refusedApproval) {
    test(`refused: ${JSON.stringify(command).slice(0, 70)}`, () => {
      const repo = makeRepo().change('feat')
      assert.equal(checkGuard(bash(command), repo.root), ONLY_APPROVE)
    })
  }

  test('a glob or a link that reaches the plans folder meets gate A', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    for (const command of ['touch docs/superpowers/pl*ns/x.md', 'cp a docs/*/plans/x.md', 'ln -sfn docs/superpowers/plans p && cp a p/x.md']) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
  })

  test('the same channels doing ordinary work are allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      'cat openspec/changes/feat/approval.md | sha256sum',
      'ls docs/superpowers/plans/*.md | xargs wc -l',
      'git commit -m "docs/superpowers/plans: $(echo add) approval.md"',
      'gh pr create --title t --body "Adds openspec/changes/feat/approval.md via /approve"',
      "cat > docs/notes.md <<'EOF'\nThe plan docs/superpowers/plans/p.md waits for approval.md\nEOF",
      'w(){ wc -l "$1"; }; w openspec/changes/feat/approval.md',
      "watch -n 5 'git status'; flock /tmp/l cargo build",
      'ln -s docs/superpowers/plans p && ls p/',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })
})

// What a command's own options write or run, and what find's tests select (P-18): each refused
// with the text of the gate it reaches, and the nearest ordinary forms allowed.
describe('checkGuard: options that write or run, and what find selects (P-18)', () => {
  const refused = [
    ['A', NEEDS_SPEC, [
      'find -fprint docs/superpowers/plans/p.md -quit',
      'find docs/superpowers/plans -name p.md -execdir touch p.md \\;',
      'find -path ./docs/superpowers/plans/p.md -delete',
      'find -samefile docs/superpowers/plans/p.md -delete',
      "find . -path '*plans/p.md' -exec rm {} +",
      "find . -regex '.*\\(plans\\|x\\)/p\\.md' -delete",
      'xargs -a /dev/stdin touch <<< docs/superpowers/plans/p.md',
      'parallel --wd docs/superpowers/plans touch p.md ::: 1',
      'parallel --joblog docs/superpowers/plans/p.md true ::: a',
      "tar -xf evil.tar --to-command='cat > docs/superpowers/plans/p.md' ./x.md",
      "tar -cf /tmp/a -I 'touch docs/superpowers/plans/p.md' a.md",
      'tar -cvf /tmp/a --index-file=docs/superpowers/plans/p.md a.md',
      'tar -Af docs/superpowers/plans/p.md evil.tar',
      'unzip -qd docs/superpowers/plans evil.zip progress.md',
      'UNZIP="-d docs/superpowers/plans" unzip evil.zip progress.md',
      'echo a.md | cpio -oF docs/superpowers/plans/p.md',
      'curl -sD docs/superpowers/plans/p.md file:///tmp/x',
      'curl -s --output-dir docs/superpowers/plans -o x.md file:///tmp/x.md',
      "curl -sK <(echo 'output=docs/superpowers/plans/p.md') file:///tmp/x",
      'wget --save-cookies=docs/superpowers/plans/p.md x',
      'rsync --log-file=docs/superpowers/plans/p.md a.md /tmp',
      'rsync --remove-source-files docs/superpowers/plans/p.md /tmp',
      'rsync --temp-dir=docs/superpowers/plans a.md /tmp/',
      'rsync -e \'sh -c "touch docs/superpowers/plans/p.md" --\' a.md h:x',
    ]],
    ['C', ONLY_APPROVE, [
      'find -quit -fls openspec/changes/feat/approval.md',
      'curl -s --trace-ascii openspec/changes/feat/approval.md file:///tmp/x',
      'curl -s -T a.md file:///$PWD/openspec/changes/feat/approval%2emd',
      'echo a.md | cpio -o -Oopenspec/changes/feat/approval.md',
      'find openspec/changes/feat -inum 12 -exec rm {} + -name x -newer openspec/changes/feat/approval.md',
    ]],
  ]
  for (const [gate, denial, commands] of refused) {
    for (const command of commands) {
      test(`refused (gate ${gate}): ${JSON.stringify(command).slice(0, 70)}`, () => {
        const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
        assert.equal(checkGuard(bash(command), repo.root), denial)
      })
    }
  }

  test('the nearest ordinary forms are allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      "find docs/superpowers/plans -name '*.md' -print",
      "find . -name '*.js' -exec sed -i 's/a/b/' {} +",
      "find . -path '*/src/*.js' -exec sed -i 's/a/b/' {} +",
      "find . -regex '.*\\.\\(js\\|ts\\)' -delete",
      'find . -inum 12 -delete',
      "find src -name '*.js' -execdir touch x \\;",
      "find . -name '*.log' -fprint /tmp/logs",
      'xargs -a list.txt rm',
      'parallel --joblog /tmp/jobs.log gzip ::: a.txt b.txt',
      'tar -czf /tmp/plans.tgz docs/superpowers/plans',
      'tar -xOf /tmp/x.tar docs/superpowers/plans/p.md',
      'tar -xzf /tmp/x.tgz -C /tmp/out',
      'unzip -q /tmp/x.zip -d /tmp/out',
      'curl -o /tmp/x https://example.com/x',
      'curl -s -D /tmp/headers -c /tmp/cookies https://example.com/',
      'curl -s -T docs/superpowers/plans/p.md https://example.com/upload',
      'wget -q -O /tmp/page.html https://example.com',
      'rsync -a src/ /tmp/src/',
      'rsync -a --log-file=/tmp/rsync.log docs/superpowers/plans/ /tmp/plans/',
      'rsync -e ssh -a docs/superpowers/plans/ host:/backup/plans/',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })
})

// A `cd` may fail and the line go on; tree-sitter-bash nests `cd x && a 2>&1 | b`'s list in the
// pipeline's first stage (src/analysis/moves.rs, from_every_directory).
describe('checkGuard: a change of directory that may fail', () => {
  test('a write after a cd out of the plans folder is judged there too (gate A)', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    for (const command of [
      'cd docs/superpowers/plans; cd /nonexistent 2>/dev/null; echo x > a.md',
      'cd docs/superpowers/plans; cd /nonexistent-dir || true; touch a.md',
      'cd docs/superpowers/plans; if [ -n "$c" ]; then cd /tmp; fi; echo x > a.md',
      'cd docs/superpowers/plans && echo x 2>&1 | tee a.md',
      'cd docs/superpowers/plans && cat p.md; cd ../../..; echo done > a.md',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), NEEDS_SPEC, command)
    }
  })

  test('and one out of a change directory writes its approval.md (gate C)', () => {
    const repo = makeRepo().change('feat')
    assert.equal(checkGuard(bash('cd openspec/changes/feat; cd /var/empty/x 2>/dev/null; touch approval.md'), repo.root), ONLY_APPROVE)
    assert.equal(checkGuard({ name: 'pwsh', arguments: { command: 'cd openspec/changes/feat; if ($c) { cd /tmp }; ni approval.md' } }, repo.root), ONLY_APPROVE)
  })

  test('reading there, writing elsewhere, and subshells are allowed', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      'cd docs/superpowers/plans && sha256sum p.md > /tmp/approval-gates-h',
      'cd docs/superpowers/plans && cat p.md | wc -l',
      '(cd docs/superpowers/plans && ls) > listing.txt',
      'touch a.md; cd docs/superpowers/plans; cat p.md',
      'mkdir -p build && cd build && make 2>&1 | tee build.log',
      'cd docs/superpowers/plans && cat p.md && cd ../../.. && echo done > x.md',
    ]) {
      assert.equal(checkGuard(bash(command), repo.root), null, command)
    }
  })
})

// The analysis cache (src/bash/cache.rs): a repeated command is answered from memory only while
// everything it read is unchanged; the gates judge its targets on every call.
describe('checkGuard: a repeated bash command', () => {
  const plan = 'docs/superpowers/plans/p.md'
  const notes = 'docs/superpowers/notes/p.md'

  test('is judged again when the script it runs changes, appears or goes', () => {
    const repo = makeRepo().change('feat').approveDesign('feat')
    const run = bash('bash s.sh')
    assert.equal(checkGuard(run, repo.root), null, 'no script yet')
    repo.write('s.sh', `echo x > ${plan}\n`)
    assert.equal(checkGuard(run, repo.root), NEEDS_SPEC, 'created')
    assert.equal(checkGuard(run, repo.root), NEEDS_SPEC, 'again')
    repo.write('s.sh', `echo x > ${notes}\n`)
    assert.equal(checkGuard(run, repo.root), null, 'the same length, another target')
    repo.write('s.sh', `echo x > ${plan}\n`)
    assert.equal(checkGuard(run, repo.root), NEEDS_SPEC, 'back')
    rmSync(repo.path('s.sh'))
    assert.equal(checkGuard(run, repo.root), null, 'removed')
  })

  test('is judged again in another workdir, and its targets against the approvals of the moment', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const command = 'echo x > plans/q.md'
    assert.equal(checkGuard(bash(command, 'docs/superpowers'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash(command, 'docs/superpowers'), repo.root), NEEDS_SPEC)
    assert.equal(checkGuard(bash(command, 'src'), repo.root), null)
    const ledger = bash("echo '- [x] task 1' >> .superpowers/sdd/p/progress.md")
    assert.equal(checkGuard(ledger, repo.root), `${BLOCKED}plan not approved; run /approve feat plan`)
    repo.approvePlan('feat', 'p')
    assert.equal(checkGuard(ledger, repo.root), null, 'the same command once the plan is approved')
    repo.write('docs/superpowers/plans/p.md', planText('feat', '- [ ] task 2\n'))
    assert.equal(checkGuard(ledger, repo.root), `${BLOCKED}plan changed after approval; re-approve`, 'the plan changed')
  })
})
