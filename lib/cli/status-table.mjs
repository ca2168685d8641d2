// `approval-gates status` for people: one row per change, columns padded to fit.
import { basename } from 'node:path'

const HEADERS = ['CHANGE', 'FILES', 'DESIGN APPROVED', 'PLANS', 'PLAN APPROVAL', 'NEXT STEP']

function cells(row) {
  const files = [row.proposal ? 'P' : '-', row.design ? 'D' : '-', row.builderCheck ? 'B' : '-'].join('')
  const design = row.designApproval ? `${row.designApproval.by} ${row.designApproval.at}` : 'no'
  const plans = row.plans.length > 0 ? row.plans.map((plan) => basename(plan)).join(', ') : '-'
  const plan = row.planApproval
  const planApproval = plan.state === 'none' ? 'none' : `${plan.state === 'matches' ? 'matches' : 'changed since approval'} (${plan.by} ${plan.at})`
  return [row.id, files, design, plans, planApproval, row.nextStep]
}

export function formatStatus(rows, root) {
  if (rows.length === 0) return `no changes under openspec/changes/ in ${root}\n`
  const table = [HEADERS, ...rows.map(cells)]
  const widths = HEADERS.map((_, column) => Math.max(...table.map((line) => line[column].length)))
  const lines = table.map((line) =>
    line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]))).join('  '),
  )
  return `${lines.join('\n')}\n\nFILES: P proposal.md, D design.md, B builder-check.md (- missing)\n`
}
