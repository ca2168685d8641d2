// A node:test reporter for scripts/test.mjs: what a run's tests came to, as one JSON line — how many
// passed, failed (cancelled ones included) and were skipped or left to do, and for each skip and
// failure which test it was. Suites are not tests: a suite counts only when it failed by itself
// (a hook), not because a test in it failed.
import { relative } from 'node:path'

const where = (data) => {
  const file = data.file === undefined ? '' : `${relative(process.cwd(), data.file)} › `
  return `${file}${data.name}`
}

export default async function* counts(source) {
  const totals = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [], failures: [] }
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue
    const suite = data.details?.type === 'suite'
    if (type === 'test:fail') {
      if (suite && data.details?.error?.failureType === 'subtestsFailed') continue
      totals.failed += 1
      totals.failures.push(where(data))
    } else if (suite) {
      continue
    } else if (data.skip !== undefined && data.skip !== false) {
      totals.skipped += 1
      totals.skips.push({ test: where(data), why: typeof data.skip === 'string' && data.skip !== '' ? data.skip : 'no reason given' })
    } else if (data.todo !== undefined && data.todo !== false) {
      totals.todo += 1
      totals.skips.push({ test: where(data), why: `todo${typeof data.todo === 'string' ? `: ${data.todo}` : ''}` })
    } else {
      totals.passed += 1
    }
  }
  yield `${JSON.stringify(totals)}\n`
}
