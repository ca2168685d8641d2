// The real `approval-gates` CLI, spawned: Claude Code payloads, --json, bad input, approve on and
// off a terminal, status in every state of the loop.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import native from '../index.js'
import { makeRepo, planText, sha256 } from './helpers/repo.mjs'
import { personsTerminal } from './helpers/terminal.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`

// The native hook process (hook/), built by `npm test` before these suites run.
const HOOK = process.env.APPROVAL_GATES_HOOK ?? fileURLToPath(new URL(`../target/debug/approval-gates-hook${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url))

function spawned(command, prefix, args, { input = '', cwd, env } = {}) {
  const result = spawnSync(command, [...prefix, ...args], { input, cwd, env: env === undefined ? undefined : { ...process.env, ...env }, encoding: 'utf8' })
  // EPIPE only means the process exited before reading all its input (a usage error).
  if (result.error && result.status === null) throw new Error(`cannot run ${command} (build it with cargo build -p approval-gates-hook): ${result.error.message}`)
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const cli = (args, options) => spawned(process.execPath, [BIN], args, options)

/** `check` is judged the same by the JS CLI and by the native hook process. */
const CHECKERS = { 'approval-gates check': cli, 'approval-gates-hook check': (args, options) => spawned(HOOK, [], args, options) }

const hook = (repo, tool_name, tool_input) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name, tool_input, cwd: repo.root })

for (const [checker, cli] of Object.entries(CHECKERS)) {
  describe(`${checker}: Claude Code PreToolUse payloads`, () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const denied = (tool, input, reason) => {
      assert.deepEqual(cli(['check'], { input: hook(repo, tool, input) }), { code: 2, stdout: '', stderr: `${reason}\n` }, tool)
    }
    const allowed = (tool, input) => {
      assert.deepEqual(cli(['check'], { input: hook(repo, tool, input) }), { code: 0, stdout: '', stderr: '' }, tool)
    }

    test('Write', () => {
      denied('Write', { file_path: `${repo.root}/docs/superpowers/plans/q.md`, content: '# no spec' }, NEEDS_SPEC)
      allowed('Write', { file_path: `${repo.root}/docs/superpowers/plans/q.md`, content: planText('feat') })
      allowed('Write', { file_path: `${repo.root}/src/main.rs`, content: 'fn main() {}' })
    })

    test('Edit', () => {
      denied('Edit', { file_path: `${repo.root}/openspec/changes/feat/approval.md`, old_string: 'a', new_string: 'b' }, ONLY_APPROVE)
      denied('Edit', { file_path: `${repo.root}/docs/superpowers/plans/p.md`, old_string: 'a', new_string: '- [x] done' }, NEEDS_SPEC)
    })

    test('MultiEdit', () => {
      const edits = [{ old_string: 'a', new_string: planText('feat') }, { old_string: 'b', new_string: 'no spec' }]
      denied('MultiEdit', { file_path: `${repo.root}/docs/superpowers/plans/p.md`, edits }, NEEDS_SPEC)
      allowed('MultiEdit', { file_path: `${repo.root}/docs/superpowers/plans/p.md`, edits: edits.slice(0, 1) })
    })

    test('NotebookEdit', () => {
      denied('NotebookEdit', { notebook_path: `${repo.root}/docs/superpowers/plans/n.ipynb`, new_source: 'print(1)' }, NEEDS_SPEC)
      allowed('NotebookEdit', { notebook_path: `${repo.root}/notebooks/n.ipynb`, new_source: 'print(1)' })
    })

    test('Task and Agent', () => {
      for (const tool of ['Task', 'Agent']) {
        denied(tool, { description: 'd', prompt: 'Execute docs/superpowers/plans/p.md', subagent_type: 'general' }, `${BLOCKED}plan not approved; run /approve feat plan`)
        allowed(tool, { description: 'd', prompt: 'Summarise the README' })
      }
    })

    test("Workflow, SendMessage and scheduled prompts are judged by gate B; Monitor's command as Bash", () => {
      const unapproved = `${BLOCKED}plan not approved; run /approve feat plan`
      denied('Workflow', { script: "await agent('Implement task 1 of docs/superpowers/plans/p.md')" }, unapproved)
      denied('Workflow', { script: 'await agent(args.t)', args: { t: ['docs/superpowers/plans/p.md'] } }, unapproved)
      denied('SendMessage', { to: 'worker', message: 'implement docs/superpowers/plans/p.md' }, unapproved)
      denied('CronCreate', { cron: '* * * * *', prompt: 'implement docs/superpowers/plans/p.md' }, unapproved)
      denied('Monitor', { command: 'echo x > openspec/changes/feat/approval.md', description: 'm', timeout_ms: 1000 }, ONLY_APPROVE)
      allowed('Workflow', { script: "await agent('Summarise the README')", args: { n: 1 } })
      allowed('SendMessage', { to: 'main', message: 'done' })
    })

    test("Claude Code's configuration is out of its file tools' reach; DSH calls are the gates' alone", () => {
      const home = makeRepo().root
      const env = { HOME: home, XDG_DATA_HOME: '', CLAUDE_CONFIG_DIR: '' }
      const judged = (tool, input) => cli(['check'], { input: hook(repo, tool, input), env })
      const configures = (path) =>
        `${BLOCKED}${path} configures Claude Code or approval-gates (settings, hooks, commands, MCP servers); only the owner changes it, outside the agent\n`
      for (const path of [`${repo.root}/.claude/settings.local.json`, `${repo.root}/.mcp.json`, `${home}/.claude/settings.json`, `${home}/.local/share/approval-gates/bin/approval-gates-hook`]) {
        assert.deepEqual(judged('Write', { file_path: path, content: '{}' }), { code: 2, stdout: '', stderr: configures(path) }, path)
      }
      assert.equal(judged('Edit', { file_path: '.claude/commands/approve.md', old_string: 'a', new_string: 'b' }).stderr, configures(`${repo.root}/.claude/commands/approve.md`))
      assert.equal(judged('mcp__filesystem__write_file', { path: '.claude/settings.json', content: '{}' }).code, 2)
      assert.equal(judged('Read', { file_path: `${repo.root}/.claude/settings.json` }).code, 0)
      assert.equal(judged('Write', { file_path: `${home}/.claude/projects/-r/memory/MEMORY.md`, content: 'x' }).code, 0)
      assert.equal(judged('Write', { file_path: `${repo.root}/docs/notes.md`, content: 'see .claude/settings.json' }).code, 0)
      const dsh = JSON.stringify({ name: 'write', arguments: { file_path: '.claude/settings.local.json', content: '{}' } })
      assert.equal(cli(['check', '--cwd', repo.root], { input: dsh, env }).code, 0)
    })

    test('read-only and unknown tools pass', () => {
      allowed('Read', { file_path: `${repo.root}/openspec/changes/feat/approval.md` })
      allowed('mcp__x__y', { anything: 1 })
    })

    test('relative paths resolve against the payload cwd, or --cwd when given', () => {
      const input = hook(repo, 'Write', { file_path: 'openspec/changes/feat/approval.md', content: 'x' })
      assert.equal(cli(['check'], { input }).code, 2)
      const dsh = JSON.stringify({ name: 'write', arguments: { file_path: 'docs/superpowers/plans/q.md', content: planText('feat') } })
      assert.equal(cli(['check', '--cwd', repo.root], { input: dsh }).code, 0)
      assert.equal(cli(['check', '--cwd', makeRepo().root], { input: dsh }).code, 2)
    })

    test('--json prints a PreToolUse deny decision and exits 0', () => {
      const input = hook(repo, 'Write', { file_path: 'openspec/changes/feat/approval.md', content: 'x' })
      const result = cli(['check', '--json'], { input })
      assert.equal(result.code, 0)
      assert.deepEqual(JSON.parse(result.stdout), {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: ONLY_APPROVE },
      })
      assert.deepEqual(cli(['check', '--json'], { input: hook(repo, 'Read', { file_path: 'x' }) }), { code: 0, stdout: '', stderr: '' })
    })
  })

  describe(`${checker}: bash commands that would approve are refused`, () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    for (const command of [
      'approval-gates approve feat plan',
      'npx approval-gates approve feat plan',
      'npm exec approval-gates -- approve feat design',
      './node_modules/.bin/approval-gates approve feat plan',
      'node node_modules/approval-gates/bin/approval-gates.mjs approve feat plan',
      'echo yes | approval-gates approve feat plan',
      `node -e "require('approval-gates').writeApproval('feat', 'plan', true)"`,
      `bash -c 'cd /tmp && npx approval-gates approve feat plan'`,
    ]) {
      test(command, () => {
        assert.deepEqual(cli(['check'], { input: hook(repo, 'Bash', { command }) }), { code: 2, stdout: '', stderr: `${ONLY_APPROVE}\n` })
      })
    }

    test('other bash commands through the hook', () => {
      const run = (command) => cli(['check'], { input: hook(repo, 'Bash', { command }) })
      assert.deepEqual(run('approval-gates status && cargo test'), { code: 0, stdout: '', stderr: '' })
      assert.equal(run("cat > docs/superpowers/plans/q.md <<'EOF'\n**Spec:** openspec/changes/feat/\nEOF").stderr, `${NEEDS_SPEC}\n`)
      assert.equal(run('echo x >> .superpowers/sdd/p/progress.md').stderr, `${BLOCKED}plan not approved; run /approve feat plan\n`)
    })
  })

  describe(`${checker}: input it cannot read blocks`, () => {
    for (const [label, input, message] of [
      ['not JSON', 'garbage', /stdin is not JSON/],
      ['empty', '', /stdin is not JSON/],
      ['an array', '[1]', /one JSON object/],
      ['no tool name', '{"arguments": {}}', /expected a DSH tool call/],
      ['another hook event', '{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {}}', /judges PreToolUse payloads/],
    ]) {
      test(label, () => {
        const result = cli(['check'], { input })
        assert.equal(result.code, 2)
        assert.equal(result.stdout, '')
        assert.match(result.stderr, message)
        assert.match(result.stderr, /the call is blocked/)
      })
    }

    test('a DSH-shaped call is judged as is', () => {
      const input = JSON.stringify({ name: 'write', arguments: { file_path: '/r/openspec/changes/x/approval.md', content: 'x' } })
      assert.deepEqual(cli(['check'], { input }), { code: 2, stdout: '', stderr: `${ONLY_APPROVE}\n` })
    })
  })

  describe(`${checker}: its command line`, () => {
    test('--help, unknown options and positional arguments', () => {
      const help = cli(['check', '--help'])
      assert.equal(help.code, 0)
      assert.match(help.stdout, /^usage: approval-gates check \[--host claude-code\|codex\|gemini\] \[--cwd DIR\] \[--json\]\n/)
      const option = cli(['check', '--verbose'], { input: '{"name":"read"}' })
      assert.equal(option.code, 2)
      assert.match(option.stderr, /^approval-gates check: Unknown option '--verbose'/)
      assert.match(option.stderr, /usage: approval-gates check/)
      const positional = cli(['check', 'Write'], { input: '{"name":"read"}' })
      assert.deepEqual(positional, { code: 2, stdout: '', stderr: 'approval-gates check: unexpected argument "Write"; the tool call is read from stdin\n' })
      assert.match(cli(['check', '--cwd'], { input: '{"name":"read"}' }).stderr, /Option '--cwd <value>' argument missing/)
    })

    test('--cwd=DIR is --cwd DIR', () => {
      const repo = makeRepo()
      const input = JSON.stringify({ name: 'write', arguments: { file_path: 'openspec/changes/c/approval.md', content: 'x' } })
      assert.deepEqual(cli([`--cwd=${repo.root}`, 'check'].reverse(), { input }), { code: 2, stdout: '', stderr: `${ONLY_APPROVE}\n` })
      assert.equal(cli(['check', `--cwd=${repo.root}`], { input: JSON.stringify({ name: 'write', arguments: { file_path: 'src/a.rs', content: 'x' } }) }).code, 0)
    })

    test('a terminal on stdin is nothing piped in', { skip: process.platform !== 'linux' && 'needs util-linux script' }, () => {
      const command = checker === 'approval-gates check' ? `'${process.execPath}' '${BIN}' check` : `'${HOOK}' check`
      const result = spawnSync('script', ['-qec', command, '/dev/null'], { input: '', encoding: 'utf8' })
      assert.equal(result.status, 2)
      assert.match(result.stdout, /reads one tool call as JSON on stdin; nothing was piped in/)
    })
  })
}

describe('approve', () => {
  test('refuses when stdin is not a terminal, even with a piped yes', () => {
    const repo = makeRepo().change('feat')
    const result = cli(['approve', 'feat', 'design', '--cwd', repo.root], { input: 'yes\n' })
    assert.equal(result.code, 1)
    assert.match(result.stderr, /stdin is not a terminal/)
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })

  test('usage errors name what is wrong', () => {
    const result = cli(['approve', 'feat'])
    assert.equal(result.code, 2)
    assert.match(result.stderr, /expected <change-id> design\|plan/)
  })

  // `script` gives the CLI a real terminal; the owner's answer is typed into it. A person's
  // terminal is not a child of an agent and carries none of its environment, so the terminal is
  // started detached (`setsid -f`: re-parented away from whatever runs these tests) with an
  // environment free of agent markers (see self-approval.test.mjs for the agent's side).
  const onTerminal = (repo, args, answer) => personsTerminal([process.execPath, BIN, ...args, '--cwd', repo.root], answer)

  test('on a terminal, writes only on an explicit yes', { skip: process.platform !== 'linux' && 'needs util-linux script' }, () => {
    const repo = makeRepo().change('feat').plan('p', 'feat')
    const shown = native.presentApproval('feat', 'design', 'cli', repo.root).presentation.text
    const declined = onTerminal(repo, ['approve', 'feat', 'design'], 'sure\n')
    assert.equal(declined.code, 1)
    // The terminal shows what DSH's card shows, as text: who asked, what is written, design.md.
    assert.ok(declined.output.includes(`${shown}\nType yes to approve: `), declined.output)
    assert.match(shown, /^Approve the design of feat\?\n\nYou asked for this approval: approval-gates approve feat design in this terminal\.\n/)
    assert.match(shown, /──── Design openspec\/changes\/feat\/design\.md · 12 bytes · 1 line ────\n# design\.md\n/)
    assert.match(declined.output, /not confirmed, nothing was written: the owner typed "sure", and only yes approves/)
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)

    const approved = onTerminal(repo, ['approve', 'feat', 'design'], 'yes\n')
    assert.equal(approved.code, 0, approved.output)
    assert.match(approved.output, /design of feat approved/)
    assert.match(repo.read('openspec/changes/feat/approval.md'), /^design:\n {2}by: owner\n {2}at: \S+Z\n$/)

    const plan = onTerminal(repo, ['approve', 'feat', 'plan'], 'y\n')
    assert.equal(plan.code, 0, plan.output)
    const sha = sha256(planText('feat'))
    assert.match(plan.output, /Approve the plan of feat\?/)
    assert.ok(plan.output.includes(`──── Plan docs/superpowers/plans/p.md · ${planText('feat').length} bytes · 5 lines ────\n${planText('feat')}`))
    assert.ok(plan.output.includes(`sha256: ${sha}. The approval holds only while`))
    assert.match(plan.output, new RegExp(`plan docs/superpowers/plans/p\\.md of feat approved \\(sha256 ${sha}\\)`))

    const none = onTerminal(repo, ['approve', 'feat', 'plan'], '\n')
    assert.equal(none.code, 1)
    assert.match(none.output, /not confirmed, nothing was written: no answer came back/)
  })

  test('on a terminal, failed preconditions refuse without asking', { skip: process.platform !== 'linux' && 'needs util-linux script' }, () => {
    const repo = makeRepo().change('feat', ['proposal.md', 'design.md'])
    const result = onTerminal(repo, ['approve', 'feat', 'design'], 'yes\n')
    assert.equal(result.code, 1)
    assert.match(result.output, /missing in openspec\/changes\/feat\/: builder-check\.md/)
    assert.doesNotMatch(result.output, /Type yes/)
  })
})

describe('status', () => {
  const repo = makeRepo()
  repo.write('openspec/changes/a-new/proposal.md', 'p')
  repo.change('b-design')
  repo.change('c-plan').approveDesign('c-plan')
  repo.change('d-ready').plan('d', 'd-ready').approvePlan('d-ready', 'd')
  repo.change('e-changed').plan('e', 'e-changed').approvePlan('e-changed', 'e').plan('e', 'e-changed', '- [ ] more\n')
  repo.write('openspec/changes/archive/2026-01-01-old/proposal.md', 'p')

  test('a table with the next step of every change', () => {
    const result = cli(['status', '--cwd', repo.root])
    assert.equal(result.code, 0)
    const rows = result.stdout.split('\n')
    assert.match(rows[0], /^CHANGE\s+FILES\s+DESIGN APPROVED\s+PLANS\s+PLAN APPROVAL\s+NEXT STEP$/)
    assert.match(rows[1], /^a-new\s+P--\s+no\s+-\s+none\s+write design\.md, builder-check\.md in openspec\/changes\/a-new\/$/)
    assert.match(rows[2], /^b-design\s+PDB\s+no\s+-\s+none\s+\/approve b-design design$/)
    assert.match(rows[3], /^c-plan\s+PDB\s+owner 2026-10-25T10:00:00Z\s+-\s+none\s+write a plan in docs\/superpowers\/plans\//)
    assert.match(rows[4], /^d-ready\s+PDB\s+owner \S+\s+d\.md\s+matches \(owner \S+\)\s+implement docs\/superpowers\/plans\/d\.md \(sdd\)$/)
    assert.match(rows[5], /^e-changed\s+PDB\s+owner \S+\s+e\.md\s+changed since approval \(owner \S+\)\s+\/approve e-changed plan \(the plan changed after its approval\)$/)
    assert.doesNotMatch(result.stdout.split('\n\napprovals here')[0], /archive|old/)
  })

  test('--json for machines', () => {
    const rows = JSON.parse(cli(['status', '--json', '--cwd', repo.root]).stdout).changes
    assert.deepEqual(rows.map((row) => row.id), ['a-new', 'b-design', 'c-plan', 'd-ready', 'e-changed'])
    const ready = rows[3]
    assert.deepEqual(
      { ...ready, planApproval: { ...ready.planApproval, at: 'T' }, designApproval: { ...ready.designApproval, at: 'T' } },
      {
        id: 'd-ready', proposal: true, design: true, builderCheck: true,
        designApproval: { by: 'owner', at: 'T' },
        plans: ['docs/superpowers/plans/d.md'],
        planApproval: { state: 'matches', by: 'owner', at: 'T', sha256: sha256(planText('d-ready')) },
        designSeal: 'open', planSeal: 'open',
        nextStep: 'implement docs/superpowers/plans/d.md (sdd)',
      },
    )
    assert.equal(rows[4].planApproval.state, 'changed')
    assert.equal(rows[0].planApproval.state, 'none')
  })

  test('a repository without changes says so', () => {
    const empty = makeRepo()
    const { stdout } = cli(['status', '--cwd', empty.root])
    assert.ok(stdout.startsWith(`no changes under openspec/changes/ in ${empty.root}\n\napprovals here are ADVISORY`), stdout)
  })
})

describe('targets', () => {
  test('prints the files a command writes, one per line', () => {
    const result = cli(['targets', "cd docs && cat > superpowers/plans/x.md <<'EOF'\n> not a target\nEOF\necho done | tee -a ../log.txt", '--cwd', '/repo'])
    assert.deepEqual(result, { code: 0, stdout: '/repo/docs/superpowers/plans/x.md\n/repo/log.txt\n', stderr: '' })
    assert.deepEqual(cli(['targets', 'cargo test', '--cwd', '/repo']), { code: 0, stdout: '', stderr: '' })
  })

  test('relative to the current directory by default', () => {
    const repo = makeRepo()
    assert.equal(cli(['targets', 'touch a.md'], { cwd: repo.root }).stdout, `${repo.root}/a.md\n`)
  })

  test('a command over the caps is an error; a missing command a usage error', () => {
    // (argv holds at most 128 KiB per argument on Linux: the size cap itself is out of reach here.)
    const deep = cli(['targets', `echo ${'$('.repeat(1100)}x${')'.repeat(1100)} > approval.md`, '--cwd', '/repo'])
    assert.deepEqual(deep, {
      code: 1,
      stdout: '',
      stderr: 'approval-gates targets: bashTargets: the command is too deeply nested (over 1000 levels) to parse\n',
    })
    assert.equal(cli(['targets']).code, 2)
  })
})

describe('help and usage', () => {
  test('--help for each command', () => {
    for (const command of ['check', 'approve', 'status', 'targets']) {
      const result = cli([command, '--help'])
      assert.equal(result.code, 0)
      assert.match(result.stdout, new RegExp(`^usage: approval-gates ${command}`))
    }
    assert.match(cli(['--help']).stdout, /^approval-gates: the approval gates/)
  })

  test('unknown commands and options are usage errors', () => {
    const unknown = cli(['frobnicate'])
    assert.equal(unknown.code, 2)
    assert.match(unknown.stderr, /unknown command "frobnicate"/)
    const option = cli(['status', '--verbose'])
    assert.equal(option.code, 2)
    assert.match(option.stderr, /Unknown option '--verbose'/)
  })
})

describe('approval-gates-hook prompt: the owner’s /approve in Claude Code’s prompt', () => {
  const expansion = (repo, prompt, extra = {}) =>
    JSON.stringify({ session_id: 's', cwd: repo.root, hook_event_name: 'UserPromptExpansion', expansion_type: 'slash_command', command_name: 'approve', command_args: prompt.replace(/^\/approve\s*/, ''), command_source: 'projectSettings', prompt, ...extra })
  const prompt = (repo, state, input) => {
    const result = spawnSync(HOOK, ['prompt'], { input, encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state, HOME: state } })
    return { code: result.status, decision: result.stdout === '' ? null : JSON.parse(result.stdout), stderr: result.stderr }
  }

  test('shows the plan and its confirming line, then that line approves it, ledger first', () => {
    const repo = makeRepo().change('feat').approveDesign('feat').plan('p', 'feat')
    const state = makeRepo().root
    const shown = prompt(repo, state, expansion(repo, '/approve feat plan'))
    assert.equal(shown.code, 0, shown.stderr)
    assert.equal(shown.decision.decision, 'block')
    assert.match(shown.decision.reason, /^Approve the plan of feat\?\n/)
    assert.ok(shown.decision.reason.includes(sha256(repo.read('docs/superpowers/plans/p.md'))))
    const line = /^ {4}(\/approve feat plan [0-9a-f]{8})$/m.exec(shown.decision.reason)?.[1]
    assert.ok(line, shown.decision.reason)
    assert.doesNotMatch(repo.read('openspec/changes/feat/approval.md'), /plan:/)
    const approved = prompt(repo, state, expansion(repo, line))
    assert.match(approved.decision.reason, /^plan docs\/superpowers\/plans\/p\.md of feat approved \(sha256 [0-9a-f]{64}\)/)
    assert.match(repo.read('openspec/changes/feat/approval.md'), /plan:\n {2}by: owner\n/)
  })

  test('anything else approves nothing: more words, another line, an expansion not typed; other commands pass', () => {
    const repo = makeRepo().change('feat')
    const state = makeRepo().root
    for (const line of ['/approve feat design and implement it', '/approve feat design\nthen go on', '/approve feat']) {
      const answer = prompt(repo, state, expansion(repo, line))
      assert.equal(answer.decision.decision, 'block', line)
      assert.match(answer.decision.reason, /^nothing approved\. Type \/approve <change-id> design\|plan alone/, line)
    }
    const mcp = prompt(repo, state, expansion(repo, '/approve feat design', { expansion_type: 'mcp_prompt' }))
    assert.match(mcp.decision.reason, /^nothing approved: only \/approve typed by the owner/)
    assert.deepEqual(prompt(repo, state, expansion(repo, '/review', { command_name: 'review' })), { code: 0, decision: null, stderr: '' })
    const broken = prompt(repo, state, '{')
    assert.equal(broken.code, 2)
    assert.match(broken.stderr, /^approval-gates prompt: stdin is not JSON/)
    assert.equal(repo.exists('openspec/changes/feat/approval.md'), false)
  })
})
