// `approval-gates status` for people: one row per change, columns padded to fit, then what
// approval.md claims that does not count, and whether approvals are enforced here (P-17).
import { basename } from 'node:path'

const HEADERS = ['CHANGE', 'FILES', 'DESIGN APPROVED', 'PLANS', 'PLAN APPROVAL', 'NEXT STEP']

/** What a cell says for an approval that does not count, by its seal mark (`loopStatus`). */
const NOT_COUNTED = {
  unrecorded: 'no (approval.md only)',
  broken: 'no (ledger unreadable)',
  missing: 'no (ledger only)',
}

function cells(row) {
  const files = [row.proposal ? 'P' : '-', row.design ? 'D' : '-', row.builderCheck ? 'B' : '-'].join('')
  const design = row.designApproval ? `${row.designApproval.by} ${row.designApproval.at}` : (NOT_COUNTED[row.designSeal] ?? 'no')
  const plans = row.plans.length > 0 ? row.plans.map((plan) => basename(plan)).join(', ') : '-'
  const plan = row.planApproval
  const planApproval =
    plan.state === 'none'
      ? (NOT_COUNTED[row.planSeal] ?? 'none')
      : `${plan.state === 'matches' ? 'matches' : 'changed since approval'} (${plan.by} ${plan.at})`
  return [row.id, files, design, plans, planApproval, row.nextStep]
}

/** The approvals of `rows` whose seal mark is `mark`, as `<change> <kind>`. */
function marked(rows, mark) {
  return rows.flatMap((row) =>
    [
      [row.designSeal, 'design'],
      [row.planSeal, 'plan'],
    ]
      .filter(([seal]) => seal === mark)
      .map(([, kind]) => `${row.id} ${kind}`),
  )
}

function notes(rows) {
  const lines = []
  const unrecorded = marked(rows, 'unrecorded')
  if (unrecorded.length > 0) {
    lines.push(
      `not counted: ${unrecorded.join(', ')}: approval.md claims approvals the ledger does not hold ` +
        '(forged, copied from another change or restored from an old commit); run `approval-gates seal` to record the ones you gave',
    )
  }
  const missing = marked(rows, 'missing')
  if (missing.length > 0) {
    lines.push(`not counted: ${missing.join(', ')}: the ledger holds approvals approval.md lacks (a write that failed); run \`approval-gates seal\` to write them back`)
  }
  if (marked(rows, 'broken').length > 0) {
    lines.push('not counted: every approval here, because the ledger does not read; `approval-gates seal` says what to do')
  }
  return lines
}

export function formatStatus(rows, root) {
  if (rows.length === 0) return `no changes under openspec/changes/ in ${root}\n`
  const table = [HEADERS, ...rows.map(cells)]
  const widths = HEADERS.map((_, column) => Math.max(...table.map((line) => line[column].length)))
  const lines = table.map((line) =>
    line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]))).join('  '),
  )
  const extra = notes(rows).map((note) => `\n${note}`).join('')
  return `${lines.join('\n')}\n\nFILES: P proposal.md, D design.md, B builder-check.md (- missing)\n${extra}${extra === '' ? '' : '\n'}`
}

const MARKS = { holds: 'ok', fails: 'NO', unknown: '??' }

/** One setup report (`approvalSetup`) under its label: the verdict, then each check. */
export function formatSetup({ label, report }) {
  const lines = [`approvals here are ${report.mode.toUpperCase()} for ${label}`]
  for (const check of report.checks) {
    lines.push(`  ${MARKS[check.state] ?? check.state}  ${check.text}`)
    if (check.fix !== undefined) lines.push(`        to change: ${check.fix}`)
  }
  return `${lines.join('\n')}\n`
}
