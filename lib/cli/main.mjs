// The `approval-gates` command line: the engine outside DSH (a Claude Code hook, the owner's
// terminal, the loop at a glance). Parsing, printing and exit codes only; the engine decides.
import { createInterface } from 'node:readline'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

import { bashTargets, checkApproval, checkGuard, loopStatus, writeApproval } from '../../index.js'
import { fromClaudeCode, isClaudeCodePayload } from './claude-code.mjs'
import { agentEvidence } from './agent.mjs'
import { formatStatus } from './status-table.mjs'
import { approvalFacts, approvalQuestion } from '../texts.mjs'

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
  status    where every change under openspec/changes/ stands, and its next step
  targets   the files a bash command line writes

Run approval-gates <command> --help for its options.
`,
  check: `usage: approval-gates check [--cwd DIR] [--json]

Reads one tool call as JSON on stdin, either DSH-shaped {"name", "arguments"} or a Claude Code
PreToolUse payload {"hook_event_name", "tool_name", "tool_input", "cwd"}, and judges it.

  allowed    exit 0, nothing printed
  denied     the reason on stderr, exit 2 (Claude Code blocks the call and shows it)
  --json     a denial is printed as a PreToolUse permission decision on stdout, exit 0
  bad input  a message on stderr, exit 2: a guard that cannot read its input blocks

  --cwd DIR  the session directory (default: the payload's cwd, else the current directory)
`,
  approve: `usage: approval-gates approve <change-id> design|plan [--cwd DIR]

Checks the preconditions, shows the owner what is approved (for a plan: its path and sha256) and
writes openspec/changes/<change-id>/approval.md only when the owner types yes. Refuses when stdin
is not a terminal (an agent must not be able to pipe its own yes), and when an agent harness
(Claude Code, DSH) started this process or holds its terminal: its environment markers or its
name on this process, an ancestor, or the process on the other side of the pseudo-terminal.

  --cwd DIR  the repository root (default: the current directory)
`,
  status: `usage: approval-gates status [--cwd DIR] [--json]

One row per change under openspec/changes/ (archive skipped): proposal.md, design.md and
builder-check.md present, the design approval, the plans whose Spec points to the change, the plan
approval (matches / changed since approval / none) and the next step.

  --json     the rows as JSON
  --cwd DIR  the repository root (default: the current directory)
`,
  targets: `usage: approval-gates targets '<command>' [--cwd DIR]

Prints the files the bash command line writes, one absolute path per line (what
harness_target.py targets printed). A command over the parser's caps is an error, exit 1.

  --cwd DIR  the directory the command runs in (default: the current directory)
`,
}

const COMMON = { help: { type: 'boolean', short: 'h' }, cwd: { type: 'string' } }
const OPTIONS = {
  check: { ...COMMON, json: { type: 'boolean' } },
  approve: COMMON,
  status: { ...COMMON, json: { type: 'boolean' } },
  targets: COMMON,
}

const COMMANDS = { check: runCheck, approve: runApprove, status: runStatus, targets: runTargets }

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

/** The tool call and session directory of `check`'s input, or the reason it cannot be read. */
function toolCallOf(text, cwdOption) {
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
  let options
  if (isClaudeCodePayload(input)) {
    call = fromClaudeCode(input)
    if (call.error) return call
    options = { host: 'claude-code' }
  } else if (typeof input.name === 'string') {
    call = { toolCall: input }
  } else {
    return { error: 'expected a DSH tool call {"name", "arguments"} or a Claude Code PreToolUse payload {"tool_name", "tool_input", …}' }
  }
  return { toolCall: call.toolCall, cwd: resolve(cwdOption ?? call.cwd ?? process.cwd()), options }
}

async function runCheck({ values, positionals }, io) {
  if (positionals.length > 0) {
    io.stderr.write(`approval-gates check: unexpected argument ${JSON.stringify(positionals[0])}; the tool call is read from stdin\n`)
    return USAGE
  }
  if (io.stdin.isTTY) {
    io.stderr.write('approval-gates check: reads one tool call as JSON on stdin; nothing was piped in\n')
    return USAGE
  }
  const call = toolCallOf(await readAll(io.stdin), values.cwd)
  if (call.error) {
    io.stderr.write(`approval-gates check: ${call.error}; the call is blocked\n`)
    return USAGE
  }
  const denial = checkGuard(call.toolCall, call.cwd, call.options)
  if (denial === null) return OK
  if (values.json) {
    const decision = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denial }
    io.stdout.write(`${JSON.stringify({ hookSpecificOutput: decision })}\n`)
    return OK
  }
  io.stderr.write(`${denial}\n`)
  return 2
}

/** The question DSH's owner dialog shows, on the terminal. */
function question(id, kind, ready) {
  const { question } = approvalQuestion(id, kind, ready)
  const facts = approvalFacts(id, kind, ready).map(([label, value]) => `  ${label}: ${value}\n`)
  return `${question}\n${facts.join('')}`
}

async function askYes(io, prompt) {
  const lines = createInterface({ input: io.stdin, output: io.stdout, terminal: false })
  io.stdout.write(prompt)
  try {
    for await (const line of lines) return /^(y|yes)$/i.test(line.trim())
    return false
  } finally {
    lines.close()
  }
}

async function runApprove({ values, positionals }, io) {
  if (positionals.length !== 2) {
    io.stderr.write(`approval-gates approve: expected <change-id> design|plan\n\n${HELP.approve}`)
    return USAGE
  }
  const [id, kind] = positionals
  const cwd = resolve(values.cwd ?? process.cwd())
  if (!io.stdin.isTTY) {
    io.stderr.write('approval-gates approve: stdin is not a terminal, so the owner cannot be asked; nothing approved. Run it yourself in a terminal.\n')
    return REFUSED
  }
  const agent = agentEvidence()
  if (agent !== null) {
    io.stderr.write(`approval-gates approve: ${agent}, so an agent may be typing the answer; nothing approved. Run it yourself in a terminal of your own.\n`)
    return REFUSED
  }
  const ready = checkApproval(id, kind, cwd)
  if (!ready.ok) {
    io.stderr.write(`${ready.message}\n`)
    return REFUSED
  }
  const confirmed = await askYes(io, `${question(id, kind, ready)}Type yes to approve: `)
  const result = writeApproval(id, kind, confirmed, cwd, ready.sha256)
  ;(result.approved ? io.stdout : io.stderr).write(`${result.message}\n`)
  return result.approved ? OK : REFUSED
}

function runStatus({ values, positionals }, io) {
  if (positionals.length > 0) {
    io.stderr.write(`approval-gates status: unexpected argument ${JSON.stringify(positionals[0])}\n\n${HELP.status}`)
    return USAGE
  }
  const root = resolve(values.cwd ?? process.cwd())
  const rows = loopStatus(root)
  io.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : formatStatus(rows, root))
  return OK
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
