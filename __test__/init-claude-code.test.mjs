// `approval-gates init claude-code`, spawned: what it writes, that it merges with the user's own
// settings without losing a key, that a second run changes nothing, --dry-run, --user.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import { approvalSetup } from '../index.js'
import { claudeCodeFacts } from '../lib/cli/claude-code-setup.mjs'
import { APPROVE_COMMAND_FILE, planClaudeCode, preToolUseGroup, promptGroup } from '../lib/cli/init/claude-code.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const HOOK = process.env.APPROVAL_GATES_HOOK ?? fileURLToPath(new URL(`../target/debug/approval-gates-hook${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url))

function place() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ag-init-cc-')))
  const home = join(dir, 'home')
  const repo = join(dir, 'repo')
  mkdirSync(home)
  mkdirSync(repo)
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: '', CLAUDE_CONFIG_DIR: '', PATH: dirname(process.execPath) }
  const init = (...args) => {
    const result = spawnSync(process.execPath, [BIN, 'init', 'claude-code', '--cwd', repo, '--hook-from', HOOK, ...args], { env, encoding: 'utf8' })
    return { code: result.status, stdout: result.stdout, stderr: result.stderr }
  }
  const json = (path) => JSON.parse(readFileSync(path, 'utf8'))
  const write = (path, value) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  }
  return { home, repo, env, init, json, write, hook: join(home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook') }
}

describe('approval-gates init claude-code', () => {
  test('writes the project hooks, the /approve command and the user-level confinement; installs the hook outside the workspace', () => {
    const at = place()
    const result = at.init()
    assert.equal(result.code, 0, result.stderr)
    assert.ok(statSync(at.hook).mode & 0o100, 'the installed hook is executable')
    assert.deepEqual(readFileSync(at.hook), readFileSync(HOOK))
    const project = at.json(join(at.repo, '.claude', 'settings.json'))
    assert.deepEqual(project, {
      hooks: { PreToolUse: [preToolUseGroup(at.hook)], UserPromptExpansion: [promptGroup(at.hook)] },
      permissions: { deny: ['CronCreate', 'ScheduleWakeup'] },
    })
    assert.deepEqual(project.hooks.PreToolUse[0], {
      matcher: '*',
      hooks: [{ type: 'command', command: at.hook, args: ['check', '--json'], onFailure: 'block', timeout: 30 }],
    })
    assert.deepEqual(at.json(join(at.home, '.claude', 'settings.json')), {
      sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false },
      permissions: { blockWritesOutsideWorkingDirectories: true },
    })
    const command = readFileSync(join(at.repo, '.claude', 'commands', 'approve.md'), 'utf8')
    assert.equal(command, APPROVE_COMMAND_FILE)
    assert.match(command, /^---\n(?:.*\n)*disable-model-invocation: true\n(?:.*\n)*---\n/)
    for (const line of [
      `created: ${at.hook} (the hook, from ${HOOK})`,
      `created: ${join(at.repo, '.claude', 'settings.json')} (`,
      `created: ${join(at.home, '.claude', 'settings.json')} (`,
      `created: ${join(at.repo, '.claude', 'commands', 'approve.md')} (`,
      `- Claude Code loads ${join(at.repo, '.claude', 'settings.json')} only when it starts in ${at.repo}; started in a subdirectory, no hook runs.`,
    ]) {
      assert.ok(result.stdout.includes(line), `${line}\n---\n${result.stdout}`)
    }
    // A second run changes nothing.
    const again = at.init()
    assert.equal(again.code, 0)
    assert.equal(again.stdout.split('\n').filter((line) => /^(created|updated): /.test(line)).length, 0, again.stdout)
    assert.equal(again.stdout.split('\n').filter((line) => line.startsWith('unchanged: ')).length, 4, again.stdout)
  })

  test("merges with the user's settings: every key of theirs is kept, an earlier approval-gates hook replaced in place", () => {
    const at = place()
    const theirs = {
      model: 'opus',
      env: { FOO: '1' },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'my-linter' }] },
          { matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|Task|Agent|mcp__.*', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/approval-gates-hook check' }] },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }],
      },
      permissions: { allow: ['Bash(npm test)'], deny: ['WebFetch', 'CronCreate'] },
    }
    at.write(join(at.repo, '.claude', 'settings.json'), theirs)
    at.write(join(at.home, '.claude', 'settings.json'), { theme: 'dark', sandbox: { network: { allowedDomains: ['x.org'] }, enabled: false }, permissions: { defaultMode: 'acceptEdits' } })
    const result = at.init()
    assert.equal(result.code, 0, result.stderr)
    const project = at.json(join(at.repo, '.claude', 'settings.json'))
    assert.deepEqual(project, {
      ...theirs,
      hooks: {
        PreToolUse: [theirs.hooks.PreToolUse[0], preToolUseGroup(at.hook)],
        Stop: theirs.hooks.Stop,
        UserPromptExpansion: [promptGroup(at.hook)],
      },
      permissions: { allow: ['Bash(npm test)'], deny: ['WebFetch', 'CronCreate', 'ScheduleWakeup'] },
    })
    assert.deepEqual(at.json(join(at.home, '.claude', 'settings.json')), {
      theme: 'dark',
      sandbox: { network: { allowedDomains: ['x.org'] }, enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false },
      permissions: { defaultMode: 'acceptEdits', blockWritesOutsideWorkingDirectories: true },
    })
    assert.match(result.stdout, /^updated: .*\.claude\/settings\.json/m)
  })

  test('--dry-run prints the change and writes nothing; a settings file that is not JSON stops it with nothing written', () => {
    const at = place()
    const dry = at.init('--dry-run')
    assert.equal(dry.code, 0, dry.stderr)
    assert.match(dry.stdout, /^would be created: .*approval-gates-hook/m)
    assert.match(dry.stdout, /^ +"UserPromptExpansion": \[/m)
    assert.equal(existsSync(at.hook), false)
    assert.equal(existsSync(join(at.repo, '.claude')), false)
    assert.equal(existsSync(join(at.home, '.claude')), false)

    at.write(join(at.home, '.claude', 'settings.json'), '{ "model": "opus", // a comment\n}')
    const broken = at.init()
    assert.equal(broken.code, 1)
    assert.match(broken.stderr, /settings\.json is not plain JSON .*; nothing written\n$/)
    assert.equal(existsSync(at.hook), false)
    assert.equal(existsSync(join(at.repo, '.claude')), false)
  })

  test('--user puts the hooks and /approve in the user folder ($CLAUDE_CONFIG_DIR when set), for every project', () => {
    const at = place()
    const result = at.init('--user')
    assert.equal(result.code, 0, result.stderr)
    const user = at.json(join(at.home, '.claude', 'settings.json'))
    assert.deepEqual(user.hooks, { PreToolUse: [preToolUseGroup(at.hook)], UserPromptExpansion: [promptGroup(at.hook)] })
    assert.deepEqual(user.sandbox, { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false })
    assert.deepEqual(user.permissions, { deny: ['CronCreate', 'ScheduleWakeup'], blockWritesOutsideWorkingDirectories: true })
    assert.equal(readFileSync(join(at.home, '.claude', 'commands', 'approve.md'), 'utf8'), APPROVE_COMMAND_FILE)
    assert.equal(existsSync(join(at.repo, '.claude')), false)
    assert.doesNotMatch(result.stdout, /started in a subdirectory/)

    const moved = join(at.home, 'cfg')
    const plan = planClaudeCode({ hook: '/h/approval-gates-hook', env: { HOME: at.home, CLAUDE_CONFIG_DIR: moved }, cwd: at.repo, user: true, version: () => [2, 1, 332] })
    assert.deepEqual(plan.files.map((file) => file.path), [join(moved, 'settings.json'), join(moved, 'commands', 'approve.md')])
  })

  test("says when Claude Code is too old to honour onFailure, or cannot be found to check", () => {
    const plan = (version) => planClaudeCode({ hook: '/h/approval-gates-hook', env: { HOME: '/nonexistent' }, cwd: '/r', version: () => version })
    const notes = (version) => plan(version).notes.join('\n')
    assert.match(notes([2, 1, 200]), /Claude Code 2\.1\.200 is older than 2\.1\.295: it ignores onFailure/)
    assert.doesNotMatch(notes([2, 1, 295]), /older than|was not found/)
    assert.doesNotMatch(notes([3, 0, 0]), /older than/)
    assert.match(notes(null), /claude was not found on PATH/)
  })
})

describe("Claude Code's setup in the enforced-or-advisory report", () => {
  const report = (at, env = at.env) => {
    const setup = approvalSetup(at.repo, claudeCodeFacts({ cwd: at.repo, env, platform: 'none' }))
    return Object.fromEntries(setup.checks.filter((check) => check.id.startsWith('claude-code.')).map((check) => [check.id.slice('claude-code.'.length), check]))
  }
  const states = (checks) => Object.fromEntries(Object.entries(checks).map(([id, check]) => [id, check.state]))

  test('after init every Claude Code check holds', () => {
    const at = place()
    assert.equal(at.init().code, 0)
    const checks = report(at)
    assert.deepEqual(states(checks), { sandbox: 'holds', 'file-tools': 'holds', 'tool-hook': 'holds', 'prompt-hook': 'holds', scheduling: 'holds' })
    assert.equal(checks.sandbox.text, "Claude Code runs the agent's commands in its sandbox (enabled, failIfUnavailable, no unsandboxed retry)")
    assert.match(checks['prompt-hook'].text, /^the prompt-side \/approve: owner-only/)
  })

  test('without init: no hook, the sandbox off; no prompt hook, so nothing to deny', () => {
    const at = place()
    const checks = report(at)
    assert.deepEqual(states(checks), { sandbox: 'fails', 'file-tools': 'fails', 'tool-hook': 'fails', 'prompt-hook': 'holds', scheduling: 'holds' })
    assert.equal(checks['tool-hook'].text, 'the PreToolUse hook is not set up')
    assert.match(checks.sandbox.text, /^Claude Code's sandbox is off \(sandbox\.enabled is not set\)/)
    assert.match(checks.sandbox.fix, /approval-gates init claude-code/)
  })

  test('each way a setup falls back to advisory is named, with the file that does it', () => {
    const at = place()
    assert.equal(at.init().code, 0)
    const local = join(at.repo, '.claude', 'settings.local.json')
    at.write(local, { sandbox: { enabled: false } })
    assert.equal(report(at).sandbox.text, `Claude Code's sandbox is off (sandbox.enabled is false in ${local}): the agent's commands can write the approval ledger`)
    at.write(local, { sandbox: { allowUnsandboxedCommands: true }, permissions: { blockWritesOutsideWorkingDirectories: false } })
    assert.match(report(at).sandbox.text, /a command may retry outside it/)
    assert.match(report(at)['file-tools'].text, new RegExp(`blockWritesOutsideWorkingDirectories is false in ${local.replaceAll('.', '\\.')}`))
    at.write(local, {})

    const projectPath = join(at.repo, '.claude', 'settings.json')
    const project = at.json(projectPath)
    at.write(projectPath, { ...project, permissions: { deny: ['ScheduleWakeup'] } })
    assert.equal(report(at).scheduling.text, 'CronCreate may schedule prompts beside the prompt-side /approve')
    at.write(projectPath, project)

    const command = join(at.repo, '.claude', 'commands', 'approve.md')
    at.write(command, '---\ndescription: approve\n---\nApprove it.\n')
    assert.equal(report(at)['prompt-hook'].text, `the prompt-side /approve can be invoked by the model: ${command} lacks disable-model-invocation: true`)
    at.write(command, APPROVE_COMMAND_FILE)

    rmSync(at.hook)
    assert.match(report(at)['tool-hook'].text, new RegExp(`names ${at.hook.replaceAll('.', '\\.')}, which is missing or not executable$`))

    const readme = { matcher: 'Write|Edit|Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/approval-gates-hook check' }] }
    at.write(projectPath, { hooks: { PreToolUse: [readme] } })
    assert.match(report(at)['tool-hook'].text, /judges only the tools its matcher "Write\|Edit\|Bash" names$/)
    at.write(projectPath, { hooks: { PreToolUse: [{ ...readme, matcher: '*' }] } })
    assert.match(report(at)['tool-hook'].text, /lets a call through when it cannot run \(no onFailure: "block"\)$/)
    at.write(projectPath, { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ ...readme.hooks[0], onFailure: 'block' }] }] } })
    assert.match(report(at)['tool-hook'].text, /not the installed executable by its absolute path$/)

    at.write(join(at.home, '.claude', 'settings.json'), '{ not json')
    const broken = report(at)
    assert.equal(broken.sandbox.state, 'fails')
    assert.match(broken.sandbox.text, /is not JSON/)
  })
})
