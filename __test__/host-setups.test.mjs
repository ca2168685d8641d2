// The hosts' setups in the enforced-or-advisory report (P-17), read from their real
// configuration files: Codex CLI ($CODEX_HOME/hooks.json and config.toml), Gemini CLI (its
// settings files), Claude Code's finder, and `approval-gates status` finding each. Every check
// both ways: what `init` writes holds, and each way back to advisory is named with its file.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'

import { approvalSetup } from '../index.js'
import { claudeCodeSetups } from '../lib/cli/claude-code-setup.mjs'
import { codexFacts, codexSetups, readToml } from '../lib/cli/codex-setup.mjs'
import { geminiFacts, geminiSetups } from '../lib/cli/gemini-setup.mjs'
import './helpers/repo.mjs'

const BIN = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))
const HOOK = process.env.APPROVAL_GATES_HOOK ?? fileURLToPath(new URL(`../target/debug/approval-gates-hook${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url))

/** A home and a repository of their own, and `init <host>` run there for real. */
function place() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ag-host-setups-')))
  const home = join(dir, 'home')
  const repo = join(dir, 'repo')
  mkdirSync(home)
  mkdirSync(repo)
  const env = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: '',
    CODEX_HOME: '',
    CLAUDE_CONFIG_DIR: '',
    GEMINI_SANDBOX: '',
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, 'etc', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(dir, 'etc', 'system-defaults.json'),
  }
  const write = (path, value) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  }
  const init = (host) => {
    const result = spawnSync(process.execPath, [BIN, 'init', host, '--hook-from', HOOK], { env, encoding: 'utf8' })
    assert.equal(result.status, 0, result.stderr)
  }
  const status = (...args) => {
    const result = spawnSync(process.execPath, [BIN, 'status', '--json', '--cwd', repo, ...args], { env, encoding: 'utf8' })
    assert.equal(result.status, 0, result.stderr)
    return JSON.parse(result.stdout).setup
  }
  return {
    dir,
    home,
    repo,
    env,
    write,
    init,
    status,
    json: (path) => JSON.parse(readFileSync(path, 'utf8')),
    hook: join(home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A test body run in a fresh place, removed afterwards. */
const inPlace = (body) => () => {
  const at = place()
  try {
    return body(at)
  } finally {
    at.dispose()
  }
}

/** The host's checks of the report, by fact: `{ fact: { state, text, fix } }`. */
function hostChecks(root, host) {
  const report = approvalSetup(root, host)
  return Object.fromEntries(report.checks.filter((check) => check.id.startsWith(`${host.name}.`)).map((check) => [check.id.slice(host.name.length + 1), check]))
}
const states = (checks) => Object.fromEntries(Object.entries(checks).map(([fact, check]) => [fact, check.state]))

describe('readToml: the part of TOML Codex configuration uses', () => {
  test('strings, escapes, comments, dotted and quoted keys, arrays over lines', () => {
    const { values, unread } = readToml(
      [
        'model = "o3" # a comment',
        "sandbox_mode = 'workspace-write'",
        'path = "C:\\\\x \\"q\\" \\u00e9 # not a comment"',
        'a.b = true',
        '[profiles."my profile"]',
        'sandbox_mode = "danger-full-access"',
        '[sandbox_workspace_write]',
        'writable_roots = [',
        '  "/a", # the first',
        "  '~/b',",
        ']',
        'network_access = false',
        '[hooks.state."/h/hooks.json:pre_tool_use:0:0"]',
        'trusted_hash = "sha256:ab"',
      ].join('\n'),
    )
    assert.deepEqual(Object.fromEntries([...values].map(([key, value]) => [key.replaceAll('\0', '.'), value])), {
      model: 'o3',
      sandbox_mode: 'workspace-write',
      path: 'C:\\x "q" é # not a comment',
      'a.b': true,
      'profiles.my profile.sandbox_mode': 'danger-full-access',
      'sandbox_workspace_write.writable_roots': ['/a', '~/b'],
      'sandbox_workspace_write.network_access': false,
      'hooks.state./h/hooks.json:pre_tool_use:0:0.trusted_hash': 'sha256:ab',
    })
    assert.equal(unread.size, 0)
  })

  test('what it does not read is recorded against its table, never guessed', () => {
    const { values, unread } = readToml('[x]\ny = { a = 1 }\nz = """\nlong\n"""\n[[arr]]\nq = 1\n[ok]\nw = 2\n')
    assert.equal(unread.get('x'), 2)
    assert.equal(values.get('ok\0w'), 2)
    assert.equal(values.has('arr\0q'), false)
    assert.equal(values.has('x\0y'), false)
  })
})

describe("Codex CLI's setup in the enforced-or-advisory report", () => {
  const facts = (at) => codexFacts({ cwd: at.repo, env: at.env })
  const config = (at) => join(at.home, '.codex', 'config.toml')
  const hooksFile = (at) => join(at.home, '.codex', 'hooks.json')

  test('after init codex every Codex check holds; sandbox_mode workspace-write or read-only holds too', inPlace((at) => {
    at.init('codex')
    assert.deepEqual(facts(at).facts, {
      'tool-hook': 'fail-closed',
      sandbox: "not set (Codex's default: read-only, or workspace-write in a trusted project)",
      'prompt-hook': 'none',
    })
    const checks = hostChecks(at.repo, facts(at))
    assert.deepEqual(states(checks), { 'tool-hook': 'holds', sandbox: 'holds', 'prompt-hook': 'holds' })
    assert.match(checks['prompt-hook'].text, /^no prompt-side \/approve: the owner approves with `approval-gates approve <id> design\|plan` in a terminal of their own/)
    for (const mode of ['workspace-write', 'read-only']) {
      writeFileSync(config(at), `sandbox_mode = "${mode}"\n${readFileSync(config(at), 'utf8')}`)
      assert.equal(facts(at).facts.sandbox, mode)
      assert.equal(hostChecks(at.repo, facts(at)).sandbox.state, 'holds')
      writeFileSync(config(at), readFileSync(config(at), 'utf8').replace(`sandbox_mode = "${mode}"\n`, ''))
    }
  }))

  test('danger-full-access anywhere Codex reads it, or a writable root reaching the hook or the ledger, is advisory and named', inPlace((at) => {
    at.init('codex')
    const trusted = readFileSync(config(at), 'utf8')
    const sandbox = () => hostChecks(at.repo, facts(at)).sandbox
    writeFileSync(config(at), `sandbox_mode = "danger-full-access"\n${trusted}`)
    assert.deepEqual([sandbox().state, sandbox().text], ['fails', `Codex runs the agent's commands with sandbox_mode = "danger-full-access" in ${config(at)}: they can write the approval ledger`])
    assert.match(sandbox().fix, /do not start Codex with --sandbox danger-full-access or --dangerously-bypass-approvals-and-sandbox/)
    writeFileSync(config(at), `profile = "wild"\nsandbox_mode = "workspace-write"\n${trusted}\n[profiles.wild]\nsandbox_mode = "danger-full-access"\n`)
    assert.match(sandbox().text, /with profiles\.wild\.sandbox_mode = "danger-full-access" in /)
    // A project's .codex/config.toml, which Codex reads once it trusts the project, counts whatever the trust record says.
    at.write(join(at.repo, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n')
    writeFileSync(config(at), trusted)
    assert.equal(sandbox().text, `Codex runs the agent's commands with sandbox_mode = "danger-full-access" in ${join(at.repo, '.codex', 'config.toml')}: they can write the approval ledger`)
    rmSync(join(at.repo, '.codex'), { recursive: true })
    writeFileSync(config(at), `${trusted}\n[sandbox_workspace_write]\nwritable_roots = ["${join(at.home, '.local', 'share')}"]\n`)
    assert.equal(sandbox().text, `Codex runs the agent's commands in Codex's default sandbox, but [sandbox_workspace_write] writable_roots in ${config(at)} gives the agent ${join(at.home, '.local', 'share')}, which reaches the hook executable: they can write the approval ledger`)
    writeFileSync(config(at), `sandbox_mode = "workspace-write"\n${trusted}\n[sandbox_workspace_write]\nwritable_roots = ["~/.codex/x", ${JSON.stringify(process.env.XDG_STATE_HOME)}]\n`)
    assert.match(sandbox().text, /^Codex runs the agent's commands in workspace-write, but .* gives the agent \S+\/\.codex\/x, which reaches Codex's own configuration \(\$CODEX_HOME\)/)
    writeFileSync(config(at), `sandbox_mode = "workspace-write"\n${trusted}\n[sandbox_workspace_write]\nwritable_roots = [${JSON.stringify(process.env.XDG_STATE_HOME)}]\n`)
    assert.match(sandbox().text, /, which reaches the approval ledger's folder: they can write the approval ledger$/)
    writeFileSync(config(at), `sandbox_mode = """workspace-write"""\n${trusted}`)
    assert.equal(sandbox().text, `Codex runs the agent's commands not known: line 1 of ${config(at)} is not read by approval-gates: they can write the approval ledger`)
  }))

  test('a hook Codex would not run, or that would let a call through, is named', inPlace((at) => {
    at.init('codex')
    const toolHook = () => hostChecks(at.repo, facts(at))['tool-hook']
    const hooks = at.json(hooksFile(at))
    const trusted = readFileSync(config(at), 'utf8')
    // Without its trust record Codex skips the hook (fails open), so the report says so.
    writeFileSync(config(at), trusted.replace(/trusted_hash = "[^"]*"/, 'trusted_hash = "sha256:00"'))
    assert.deepEqual([toolHook().state, toolHook().text], ['fails', `the PreToolUse hook in ${hooksFile(at)} is not trusted by Codex (${config(at)} holds another trust record [hooks.state."${hooksFile(at)}:pre_tool_use:0:0"] for it), so Codex does not run it`])
    writeFileSync(config(at), '')
    assert.match(toolHook().text, /holds no trust record/)
    writeFileSync(config(at), trusted)
    assert.equal(toolHook().state, 'holds')
    // Another hook before ours moves ours: its record no longer matches.
    at.write(hooksFile(at), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }, ...hooks.hooks.PreToolUse] } })
    assert.match(toolHook().text, /pre_tool_use:1:0"\] for it\), so Codex does not run it$/)
    const group = hooks.hooks.PreToolUse[0]
    at.write(hooksFile(at), { hooks: { PreToolUse: [{ ...group, matcher: 'Bash' }] } })
    assert.equal(toolHook().text, `the PreToolUse hook in ${hooksFile(at)} judges only the tools its matcher "Bash" names`)
    at.write(hooksFile(at), { hooks: { PreToolUse: [{ ...group, hooks: [{ ...group.hooks[0], command: `${at.hook} check --host codex` }] }] } })
    assert.match(toolHook().text, /not the fail-closed command `approval-gates init codex` writes: Codex runs the call when that hook is missing, fails or times out$/)
    at.write(hooksFile(at), hooks)
    rmSync(at.hook)
    assert.equal(toolHook().text, `the PreToolUse hook in ${hooksFile(at)} names ${at.hook}, which is missing or not executable`)
    at.write(hooksFile(at), '{ not json')
    assert.match(toolHook().text, /^the PreToolUse hook not known: .*hooks\.json is not JSON/)
    at.write(hooksFile(at), {})
    assert.equal(toolHook().text, 'the PreToolUse hook is not set up')
    assert.match(toolHook().fix, /run `approval-gates init codex`/)
  }))

  test("a UserPromptSubmit hook running approval-gates' /approve is a channel the model reaches", inPlace((at) => {
    at.init('codex')
    const hooks = at.json(hooksFile(at))
    at.write(hooksFile(at), { hooks: { ...hooks.hooks, UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${at.hook} prompt` }] }] } })
    const check = hostChecks(at.repo, facts(at))['prompt-hook']
    assert.equal(check.state, 'fails')
    assert.equal(check.text, `a UserPromptSubmit hook in ${hooksFile(at)} runs approval-gates' /approve ("${at.hook} prompt"), which the model reaches: Codex submits a spawned subagent's task through the same hook`)
  }))

  test('found where $CODEX_HOME holds its files; always when named', inPlace((at) => {
    assert.deepEqual(codexSetups({ root: at.repo, env: at.env }), [])
    assert.equal(codexSetups({ root: at.repo, env: at.env, named: true })[0].host.facts['tool-hook'], 'is not set up')
    at.init('codex')
    const [found] = codexSetups({ root: at.repo, env: at.env })
    assert.equal(found.label, `Codex CLI (${join(at.home, '.codex')})`)
    const moved = join(at.dir, 'codex-home')
    assert.deepEqual(codexSetups({ root: at.repo, env: { ...at.env, CODEX_HOME: moved } }), [])
  }))
})

describe("Gemini CLI's setup in the enforced-or-advisory report", () => {
  const facts = (at, uid = 1000) => geminiFacts({ cwd: at.repo, env: at.env, platform: 'linux', uid })
  const settings = (at) => join(at.home, '.gemini', 'settings.json')
  const workspace = (at) => join(at.repo, '.gemini', 'settings.json')

  test('after init gemini the hook holds; no confinement does: each is named, and the owner approves in a terminal', inPlace((at) => {
    at.init('gemini')
    const checks = hostChecks(at.repo, facts(at))
    assert.deepEqual(states(checks), { 'tool-hook': 'holds', confinement: 'fails', 'prompt-hook': 'holds' })
    assert.equal(checks.confinement.text, "Gemini CLI does not keep the agent's commands off the approval ledger and approval-gates' own hook: its tool sandbox is off (security.toolSandboxing is not set), so its shell and file tools run unconfined")
    assert.match(checks.confinement.fix, /^approve with `approval-gates approve <id> design\|plan` in a terminal of your own/)
    assert.match(checks['prompt-hook'].text, /a nested `gemini -p` the model runs through run_shell_command fires BeforeAgent/)
    const user = at.json(settings(at))
    const confinement = (uid) => facts(at, uid).facts.confinement
    at.write(settings(at), { ...user, security: { toolSandboxing: true } })
    assert.match(confinement(0), /^its tool sandbox \(security\.toolSandboxing\) runs as root here, and its bubblewrap keeps root's capabilities/)
    assert.match(confinement(1000), /keeps the agent's commands off the ledger and the hook, but the workspace's \.gemini\/settings\.json stays writable to them, .* switches approval-gates' hook and the sandbox off for the next session/)
    at.write(at.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH, { security: { toolSandboxing: true } })
    assert.match(confinement(1000), /switches approval-gates' hook \(the system settings keep the sandbox itself on\) off for the next session: hooksConfig\.disabled is united across every settings file$/)
    rmSync(at.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH)
    at.write(workspace(at), { security: { toolSandboxing: false } })
    assert.equal(confinement(1000), `its tool sandbox is off (security.toolSandboxing is false in ${workspace(at)} (read in a trusted folder)), so its shell and file tools run unconfined`)
    rmSync(workspace(at))
    assert.match(geminiFacts({ cwd: at.repo, env: { ...at.env, GEMINI_SANDBOX: 'docker' }, platform: 'linux', uid: 1000 }).facts.confinement, /^its container sandbox \(tools\.sandbox "docker" in GEMINI_SANDBOX\) is not measured/)
    for (const uid of [0, 1000]) assert.equal(hostChecks(at.repo, facts(at, uid)).confinement.state, 'fails')
  }))

  test('a hook switched off, narrowed, not fail-closed or missing is named with its file', inPlace((at) => {
    at.init('gemini')
    const toolHook = () => hostChecks(at.repo, facts(at))['tool-hook']
    at.write(workspace(at), { hooksConfig: { disabled: ['approval-gates'] } })
    assert.equal(toolHook().text, `the BeforeTool hook is switched off: hooksConfig.disabled lists "approval-gates" in ${workspace(at)} (read in a trusted folder)`)
    at.write(workspace(at), { hooksConfig: { enabled: false } })
    assert.match(toolHook().text, /is switched off: hooksConfig\.enabled is false in /)
    at.write(at.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH, { hooksConfig: { enabled: true } })
    assert.equal(toolHook().state, 'holds', 'the system settings outrank the workspace')
    rmSync(workspace(at))
    const user = at.json(settings(at))
    const [group] = user.hooks.BeforeTool
    at.write(settings(at), { ...user, hooks: { BeforeTool: [{ ...group, matcher: 'write_file' }] } })
    assert.equal(toolHook().text, `the BeforeTool hook in ${settings(at)} judges only the tools its matcher "write_file" names`)
    at.write(settings(at), { ...user, hooks: { BeforeTool: [{ ...group, hooks: [{ ...group.hooks[0], command: `${at.hook} check --host gemini` }] }] } })
    assert.match(toolHook().text, /not the fail-closed command `approval-gates init gemini` writes: Gemini CLI lets the call through when that hook is missing, fails or times out$/)
    at.write(settings(at), user)
    rmSync(at.hook)
    assert.equal(toolHook().text, `the BeforeTool hook in ${settings(at)} names ${at.hook}, which is missing or not executable`)
    at.write(settings(at), '{ "a": 1, // a comment\n}')
    assert.match(facts(at).facts.confinement, /^not known: .*settings\.json is not JSON/)
    assert.equal(hostChecks(at.repo, facts(at))['tool-hook'].state, 'fails')
  }))

  test('a BeforeAgent hook running approval-gates is a channel the model reaches', inPlace((at) => {
    at.init('gemini')
    const user = at.json(settings(at))
    at.write(settings(at), { ...user, hooks: { ...user.hooks, BeforeAgent: [{ hooks: [{ type: 'command', command: `${at.hook} prompt` }] }] } })
    const check = hostChecks(at.repo, facts(at))['prompt-hook']
    assert.equal(check.text, `a BeforeAgent hook in ${settings(at)} runs approval-gates ("${at.hook} prompt"), which the model reaches: a nested \`gemini -p\` it runs fires BeforeAgent`)
  }))

  test('found where a settings file exists; always when named', inPlace((at) => {
    assert.deepEqual(geminiSetups({ root: at.repo, env: at.env }), [])
    assert.equal(geminiSetups({ root: at.repo, env: at.env, named: true })[0].host.facts['tool-hook'], 'is not set up')
    at.write(workspace(at), {})
    assert.equal(geminiSetups({ root: at.repo, env: at.env })[0].label, `Gemini CLI (${settings(at)})`)
  }))
})

describe('approval-gates status finds every host', () => {
  test("Claude Code: found by approval-gates' hooks or the project's .claude/; always when named", inPlace((at) => {
    assert.deepEqual(claudeCodeSetups({ root: at.repo, env: at.env, platform: 'none' }), [])
    const named = claudeCodeSetups({ root: at.repo, env: at.env, platform: 'none', named: true })
    assert.equal(named[0].label, `Claude Code started in ${at.repo} (no settings file)`)
    assert.equal(named[0].host.facts['tool-hook'], 'is not set up')
    mkdirSync(join(at.repo, '.claude'))
    assert.equal(claudeCodeSetups({ root: at.repo, env: at.env, platform: 'none' }).length, 1)
    rmSync(join(at.repo, '.claude'), { recursive: true })
    at.write(join(at.home, '.claude', 'settings.json'), { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${at.hook} check` }] }] } })
    const [found] = claudeCodeSetups({ root: at.repo, env: at.env, platform: 'none' })
    assert.equal(found.label, `Claude Code started in ${at.repo} (${join(at.home, '.claude', 'settings.json')})`)
  }))

  test('status reports the hosts whose files it finds, and a named host whatever it finds', inPlace((at) => {
    const labels = (setup) => setup.map((s) => s.label)
    assert.deepEqual(labels(at.status()), ['this machine (no agent host found)'])
    at.init('codex')
    at.init('gemini')
    assert.deepEqual(labels(at.status()), [`Codex CLI (${join(at.home, '.codex')})`, `Gemini CLI (${join(at.home, '.gemini', 'settings.json')})`])
    const [codex] = at.status('--host', 'codex')
    assert.deepEqual(
      codex.report.checks.filter((c) => c.id.startsWith('codex.')).map((c) => [c.id, c.state]),
      [['codex.tool-hook', 'holds'], ['codex.sandbox', 'holds'], ['codex.prompt-hook', 'holds']],
    )
    const [gemini] = at.status('--host', 'gemini')
    assert.equal(gemini.report.mode, 'advisory')
    assert.equal(gemini.report.checks.find((c) => c.id === 'gemini.confinement').state, 'fails')
    const [claude] = at.status('--host', 'claude-code')
    assert.equal(claude.report.checks.find((c) => c.id === 'claude-code.tool-hook').text, 'the PreToolUse hook is not set up')
  }))
})
