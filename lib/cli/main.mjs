// The `approval-gates` command line: the engine outside DSH (a Claude Code hook, the owner's
// terminal, the loop at a glance). Parsing, printing and exit codes only; the engine decides.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

import { bashTargets, checkGuard, presentApproval, writeApproval } from '../../index.js'
import { fromClaudeCode, isClaudeCodePayload } from './claude-code.mjs'
import { fromCodex } from './codex.mjs'
import { fromGemini, geminiDenial } from './gemini.mjs'
import { hookSource, installHook, installedHookPath, verb, writeConfig } from './init/hook-command.mjs'
import { planCodex } from './init/codex.mjs'
import { planGemini } from './init/gemini.mjs'
import { planClaudeCode } from './init/claude-code.mjs'
import { askLine, ownerRefusal } from './owner.mjs'
import * as seal from './seal.mjs'
import * as status from './status.mjs'
import { notConfirmed } from '../texts.mjs'

/** Exit codes: 2 also blocks the call in a Claude Code hook. */
const OK = 0
const REFUSED = 1
const USAGE = 2

const HELP = {
  main: `approval-gates: the approval gates of an agent's development loop

usage: approval-gates <command> [options]

commands:
  check     judge one tool call read as JSON on stdin (a Claude Code PreToolUse hook)
  approve   approve a change's design or plan, asking the owner on this terminal
  seal      record approval.md's approvals in the approval ledger, so that only those count
  status    where every change stands, which approvals count, enforced or advisory here
  targets   the files a bash command line writes
  init      write a host's hook configuration (claude-code, codex, gemini)

Run approval-gates <command> --help for its options.
`,
  check: `usage: approval-gates check [--host claude-code|codex|gemini] [--cwd DIR] [--json]

Reads one tool call as JSON on stdin, either DSH-shaped {"name", "arguments"} or a host's hook
payload {"hook_event_name", "tool_name", "tool_input", "cwd"}, and judges it.

  allowed    exit 0, nothing printed
  denied     the reason on stderr, exit 2 (the host blocks the call and shows the reason)
  --json     a denial is printed on stdout in the host's JSON form, exit 0
  bad input  a message on stderr, exit 2: a guard that cannot read its input blocks

  --host     whose hook payload this is (default claude-code):
               claude-code  Claude Code's PreToolUse; --json prints a permission decision
               codex        Codex CLI's PreToolUse; --json prints a permission decision
               gemini       Gemini CLI's BeforeTool; --json prints {"decision": "deny", "reason"}
  --cwd DIR  the session directory (default: the payload's cwd, else the current directory)
  --deadline SECONDS
             refuse the call (exit 2) if no verdict is reached by then, before the host's own
             hook timeout, at which Codex and Gemini CLI would let the call run
`,
  approve: `usage: approval-gates approve <change-id> design|plan [--cwd DIR]

Checks the preconditions, shows the owner what is approved (the design's or the plan's text, or
its beginning, with the plan's path and sha256, and what approving writes) and, only when the
owner types yes, records the approval in the approval ledger, then writes
openspec/changes/<change-id>/approval.md (nothing at all when the ledger cannot be written, as
inside an agent's sandbox). Refuses when stdin
is not a terminal (an agent must not be able to pipe its own yes), and when an agent harness
(Claude Code, DSH) started this process or holds its terminal: its environment markers or its
name on this process, an ancestor, or the process on the other side of the pseudo-terminal.

  --cwd DIR  the repository root (default: the current directory)
`,
  init: `usage: approval-gates init claude-code|codex|gemini [--dry-run] [--hook-from PATH]
                                [--cwd DIR] [--user]

Installs the native hook outside every workspace ($XDG_DATA_HOME/approval-gates/bin, default
~/.local/share/approval-gates/bin) and writes the host's hook configuration, merged with what is
there:
  claude-code  the project's .claude/settings.json (PreToolUse for every tool, UserPromptExpansion
               for the owner's /approve, CronCreate and ScheduleWakeup denied) and
               .claude/commands/approve.md, and in ~/.claude/settings.json (outside the
               workspace) the sandbox on and the file tools kept to the working directories
  codex        Codex CLI's $CODEX_HOME/hooks.json (default ~/.codex) and the hook's trust record
               in config.toml
  gemini       Gemini CLI's ~/.gemini/settings.json
The hook refuses every call when it is missing, crashes or hangs. Prints each file it created or
updated; running it again changes nothing.

  --dry-run         print what would change, write nothing
  --hook-from PATH  the approval-gates-hook executable to install (default: this package's
                    platform package, else a build in this checkout)
  --cwd DIR         claude-code: the project's root (default: the current directory)
  --user            claude-code: the hooks and /approve in ~/.claude/ for every project, whatever
                    directory Claude Code starts in, instead of the project's .claude/
`,
  targets: `usage: approval-gates targets '<command>' [--cwd DIR]

Prints the files the bash command line writes, one absolute path per line (what
harness_target.py targets printed). A command over the parser's caps is an error, exit 1.

  --cwd DIR  the directory the command runs in (default: the current directory)
`,
}

const COMMON = { help: { type: 'boolean', short: 'h' }, cwd: { type: 'string' } }
const OPTIONS = {
  check: { ...COMMON, json: { type: 'boolean' }, host: { type: 'string' }, deadline: { type: 'string' } },
  approve: COMMON,
  targets: COMMON,
  init: { ...COMMON, 'dry-run': { type: 'boolean' }, 'hook-from': { type: 'string' }, user: { type: 'boolean' } },
}

const COMMANDS = { check: runCheck, approve: runApprove, targets: runTargets, init: runInit }

/** A command in a file of its own (`name`, `help`, `options`, `run`). */
function register(command) {
  HELP[command.name] = command.help
  OPTIONS[command.name] = command.options
  COMMANDS[command.name] = command.run
}
register(seal)
register(status)

export async function main(argv, io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }) {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(HELP.main)
    return command === undefined ? USAGE : OK
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    io.stderr.write(`approval-gates: unknown command ${JSON.stringify(command)}\n\n${HELP.main}`)
    return USAGE
  }
  let parsed
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS[command], allowPositionals: true, strict: true })
  } catch (error) {
    io.stderr.write(`approval-gates ${command}: ${error.message}\n\n${HELP[command]}`)
    return USAGE
  }
  if (parsed.values.help) {
    io.stdout.write(HELP[command])
    return OK
  }
  return COMMANDS[command](parsed, io)
}

async function readAll(stream) {
  const chunks = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** Each host's envelope (`--host`) and the JSON its hook reads a denial from. */
const permissionDecision = (denial) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denial },
})
/** Claude Code's file tools may not write its configuration either (checkGuard's `host`). */
const CLAUDE_CODE = { unwrap: fromClaudeCode, json: permissionDecision, options: { host: 'claude-code' } }
const HOSTS = {
  'claude-code': CLAUDE_CODE,
  claude: CLAUDE_CODE,
  codex: { unwrap: fromCodex, json: permissionDecision },
  gemini: { unwrap: fromGemini, json: geminiDenial },
}

/** The tool call and session directory of `check`'s input, or the reason it cannot be read. */
function toolCallOf(text, cwdOption, host) {
  let input
  try {
    input = JSON.parse(text)
  } catch (error) {
    return { error: `stdin is not JSON (${error.message})` }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { error: 'stdin must hold one JSON object' }
  }
  let call
  if (isClaudeCodePayload(input)) {
    call = host.unwrap(input)
    if (call.error) return call
  } else if (typeof input.name === 'string') {
    call = { toolCall: input }
  } else {
    return { error: 'expected a DSH tool call {"name", "arguments"} or a Claude Code PreToolUse payload {"tool_name", "tool_input", …}' }
  }
  return { toolCall: call.toolCall, cwd: resolve(cwdOption ?? call.cwd ?? process.cwd()), options: host.options }
}

async function runCheck({ values, positionals }, io) {
  const hostName = values.host ?? 'claude-code'
  if (!Object.hasOwn(HOSTS, hostName)) {
    io.stderr.write(`approval-gates check: unknown host ${JSON.stringify(hostName)}; expected claude-code, codex or gemini\n\n${HELP.check}`)
    return USAGE
  }
  const host = HOSTS[hostName]
  if (values.deadline !== undefined) {
    if (!/^[1-9][0-9]*$/.test(values.deadline)) {
      io.stderr.write(`approval-gates check: --deadline takes whole seconds, not ${JSON.stringify(values.deadline)}\n\n${HELP.check}`)
      return USAGE
    }
    const seconds = Number(values.deadline)
    setTimeout(() => {
      io.stderr.write(`approval-gates check: no verdict within ${seconds} s; the call is blocked\n`)
      process.exit(USAGE)
    }, seconds * 1000).unref()
  }
  if (positionals.length > 0) {
    io.stderr.write(`approval-gates check: unexpected argument ${JSON.stringify(positionals[0])}; the tool call is read from stdin\n`)
    return USAGE
  }
  if (io.stdin.isTTY) {
    io.stderr.write('approval-gates check: reads one tool call as JSON on stdin; nothing was piped in\n')
    return USAGE
  }
  const call = toolCallOf(await readAll(io.stdin), values.cwd, host)
  if (call.error) {
    io.stderr.write(`approval-gates check: ${call.error}; the call is blocked\n`)
    return USAGE
  }
  const denial = checkGuard(call.toolCall, call.cwd, call.options)
  if (denial === null) return OK
  if (values.json) {
    io.stdout.write(`${JSON.stringify(host.json(denial))}\n`)
    return OK
  }
  io.stderr.write(`${denial}\n`)
  return 2
}

async function runApprove({ values, positionals }, io) {
  if (positionals.length !== 2) {
    io.stderr.write(`approval-gates approve: expected <change-id> design|plan\n\n${HELP.approve}`)
    return USAGE
  }
  const [id, kind] = positionals
  const cwd = resolve(values.cwd ?? process.cwd())
  const refusal = ownerRefusal(io, 'approve', 'nothing approved')
  if (refusal !== null) {
    io.stderr.write(`${refusal}\n`)
    return REFUSED
  }
  // What DSH's card shows, as text: who asked, what approving writes, the design or the plan.
  const ready = presentApproval(id, kind, 'cli', cwd)
  if (!ready.ok) {
    io.stderr.write(`${ready.message}\n`)
    return REFUSED
  }
  const line = await askLine(io, `${ready.presentation.text}\nType yes to approve: `)
  if (line === null || !/^(y|yes)$/i.test(line.trim())) {
    const answer = line === null || line.trim() === '' ? { kind: 'none' } : { kind: 'typed', text: line }
    io.stderr.write(`${notConfirmed(answer)}\n`)
    return REFUSED
  }
  const result = writeApproval(id, kind, true, cwd, ready.sha256)
  ;(result.approved ? io.stdout : io.stderr).write(`${result.message}\n`)
  return result.approved ? OK : REFUSED
}

function runTargets({ values, positionals }, io) {
  if (positionals.length !== 1) {
    io.stderr.write(`approval-gates targets: expected one command line (quote it)\n\n${HELP.targets}`)
    return USAGE
  }
  let targets
  try {
    targets = bashTargets(positionals[0], resolve(values.cwd ?? process.cwd()))
  } catch (error) {
    io.stderr.write(`approval-gates targets: ${error.message}\n`)
    return REFUSED
  }
  io.stdout.write(targets.map((target) => `${target}\n`).join(''))
  return OK
}

const INIT_HOSTS = { 'claude-code': planClaudeCode, codex: planCodex, gemini: planGemini }

function runInit({ values, positionals }, io) {
  const [host, ...extra] = positionals
  if (!Object.hasOwn(INIT_HOSTS, host ?? '') || extra.length > 0) {
    io.stderr.write(`approval-gates init: expected one host: claude-code, codex or gemini\n\n${HELP.init}`)
    return USAGE
  }
  const dryRun = values['dry-run'] === true
  const source = hookSource(values['hook-from'])
  if (source.error) {
    io.stderr.write(`approval-gates init ${host}: ${source.error}; nothing written\n`)
    return REFUSED
  }
  const target = installedHookPath()
  let plan
  try {
    plan = INIT_HOSTS[host]({ hook: target, cwd: values.cwd, user: values.user === true })
  } catch (error) {
    plan = { error: error.message }
  }
  if (plan.error) {
    io.stderr.write(`approval-gates init ${host}: ${plan.error}; nothing written\n`)
    return REFUSED
  }
  const installed = installHook(source.path, target, dryRun)
  const lines = [`${verb(installed.change, dryRun)}: ${installed.path} (the hook, from ${source.path})`]
  for (const file of plan.files) {
    const result = writeConfig(file.path, file.text, dryRun)
    lines.push(`${verb(result.change, dryRun)}: ${result.path} (${file.what})`)
    if (dryRun && result.change !== 'unchanged') lines.push(...file.text.trimEnd().split('\n').map((line) => `    ${line}`))
  }
  io.stdout.write(`${lines.join('\n')}\n\n${plan.notes.map((note) => `- ${note}`).join('\n')}\n`)
  return OK
}
