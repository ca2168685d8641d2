// `approval-gates status`: where every change stands, which approvals count, and whether approvals
// are enforced or advisory here (P-17). Printing only; the engine decides.
import { resolve } from 'node:path'

import { approvalSetup, loopStatus } from '../../index.js'
import { findSetups, hostNames } from './hosts.mjs'
import { formatSetup, formatStatus } from './status-table.mjs'

export const name = 'status'

export const help = `usage: approval-gates status [--cwd DIR] [--host NAME] [--json]

One row per change under openspec/changes/ (archive skipped): proposal.md, design.md and
builder-check.md present, the design approval, the plans whose Spec points to the change, the plan
approval (matches / changed since approval / none) and the next step. Approvals are shown as the
gates count them: once the repository is sealed, only what the approval ledger holds; an
approval.md section the ledger does not hold (forged, copied or restored) is named and does not
count.

Then, for each host setup found (DSH profiles that load approval-gates; Claude Code where a
settings file runs approval-gates' hooks or the project has .claude/; Codex CLI where
$CODEX_HOME holds hooks.json or config.toml; Gemini CLI where ~/.gemini/settings.json or the
project's .gemini/settings.json exists), whether approvals are ENFORCED here (sealed, the ledger
out of the agent's reach, the agent's commands confined, the owner's channel the owner's alone)
or ADVISORY, each check with what to change. Named with --host, a host is reported even when
none of its files exists.

  --host NAME  report the setup of this host only (${hostNames().join(', ')})
  --json       {"changes": [rows], "setup": [{"label", "report"}]}
  --cwd DIR    the repository root (default: the current directory)
`

export const options = { help: { type: 'boolean', short: 'h' }, cwd: { type: 'string' }, host: { type: 'string' }, json: { type: 'boolean' } }

export function run({ values, positionals }, io) {
  if (positionals.length > 0) {
    io.stderr.write(`approval-gates status: unexpected argument ${JSON.stringify(positionals[0])}\n\n${help}`)
    return 2
  }
  const root = resolve(values.cwd ?? process.cwd())
  const rows = loopStatus(root)
  const found = findSetups(root, values.host)
  const setups = (found.length > 0 ? found : [{ label: 'this machine (no agent host found)', host: undefined }]).map(({ label, host }) => ({
    label,
    report: approvalSetup(root, host),
  }))
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ changes: rows, setup: setups }, null, 2)}\n`)
  } else {
    io.stdout.write(`${formatStatus(rows, root)}\n${setups.map(formatSetup).join('\n')}`)
  }
  return 0
}
