// The tables the oracle suites print: counts per class, why rows could not run, per category.

/** Counts of `items` by `keyOf(item)`, most frequent first: `[[key, count], …]`. */
export function tally(items, keyOf) {
  const counts = new Map()
  for (const item of items) {
    const key = keyOf(item)
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
}

/** `a ×3, b ×1` */
export const listTally = (entries, limit = 12) =>
  entries.slice(0, limit).map(([key, n]) => `${key} ×${n}`).join(', ') + (entries.length > limit ? `, … ${entries.length - limit} more` : '')

/** The broad reason a run proves nothing: `missing program: x`, `network`, `timeout`, `exit ≠ 0`. */
export const notRunFamily = (notRun) => (notRun === null ? undefined : notRun.startsWith('exit ') ? 'failed (exit ≠ 0)' : notRun.startsWith('missing program') ? 'missing program' : notRun)

/** Left-aligned columns for rows of cells. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)))
  const numeric = widths.map((_, column) => rows.slice(1).some((row) => typeof row[column] === 'number'))
  return rows.map((row) => row.map((cell, column) => (numeric[column] ? String(cell).padStart(widths[column]) : String(cell).padEnd(widths[column]))).join('  ').trimEnd())
}

/** A row as a one-line text for a failure message: corpus, reason, command, verdict, changes. */
export function describeRow(row, result) {
  const changes = result.changes.map(({ path, change }) => `${change} ${path}`).join(', ') || 'nothing guarded changed'
  const verdict = result.verdict === null ? 'allowed' : `refused (${result.verdict.replace('BLOCKED [approval-gates]: ', '')})`
  return `[${row.corpus}] ${row.why}: ${JSON.stringify(row.cmd).slice(0, 160)}\n      ${verdict}; ran: ${result.notRun ?? 'clean exit'}; ${changes}`
}
