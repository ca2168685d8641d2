// The only texts the JS glue produces itself. Every refusal about the gates, the change, its files,
// its plan or approval.md comes from the native core (src/texts.rs) and is passed through unchanged.

/** /approve and request_approval when no `userQuestions` service is mounted (D-12). */
export const QUESTIONS_UNAVAILABLE = 'userQuestions service unavailable; /approve requires it'

/** The question dialog itself failed (T1.5 #77): the owner must see why, not `not confirmed`. */
export function questionsFailed(error) {
  return `userQuestions failed: ${errorMessage(error)}`
}

function errorMessage(error) {
  try {
    return error instanceof Error ? error.message : String(error)
  } catch {
    return 'unprintable error'
  }
}

/** The option that confirms; any other answer is `not confirmed`. */
export const APPROVE = 'Approve'
export const CANCEL = 'Cancel'

/**
 * What the owner approves, one `[label, value]` per line: the change, the kind and, for a plan, its
 * path and sha256 (P-10). The terminal prompt prints these lines as they are.
 */
export function approvalFacts(changeId, kind, ready) {
  const facts = [
    ['change', `openspec/changes/${changeId}/`],
    ['kind', kind],
  ]
  if (ready.plan !== undefined) facts.push(['plan', ready.plan], ['sha256', ready.sha256])
  return facts
}

/**
 * A Markdown code span holding `text` verbatim: a fence longer than any run of backticks inside,
 * padded when the text starts or ends with one (CommonMark 6.1).
 */
function codeSpan(text) {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length))
  const fence = '`'.repeat(longestRun + 1)
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}

/**
 * The question the owner is asked. DSH renders a question's `detail` as Markdown (the web UI's
 * card does), where lines joined by a bare newline run together into one paragraph: each fact is
 * its own list item, and every value except the kind is a code span so that a `_` or `*` in a plan's
 * file name is shown as it is.
 */
export function approvalQuestion(changeId, kind, ready) {
  const detail = approvalFacts(changeId, kind, ready).map(([label, value]) =>
    label === 'kind' ? `- ${label}: ${value}` : `- ${label}: ${codeSpan(value)}`,
  )
  return {
    id: 'approval-gates/approve',
    header: 'approval-gates',
    question: `Approve the ${kind} of ${changeId}?`,
    detail: detail.join('\n'),
    options: [{ label: APPROVE }, { label: CANCEL }],
  }
}

export const APPROVE_COMMAND = {
  name: 'approve',
  description: 'Approve the design or the plan of an openspec change (asks the owner, then writes approval.md)',
  hint: '<change-id> design|plan',
}

export const REQUEST_APPROVAL_TOOL = {
  name: 'request_approval',
  description:
    'Ask the owner to approve the design or the plan of an openspec change. The owner confirms in a ' +
    'dialog; only then is openspec/changes/<change_id>/approval.md written. Use it when a tool call was ' +
    'BLOCKED with "run /approve <id> design" or "run /approve <id> plan". A design needs proposal.md, ' +
    'design.md and builder-check.md; a plan needs the approved design and exactly one plan in ' +
    'docs/superpowers/plans/ whose **Spec:** names the change.',
  changeId: 'the change id: the folder name under openspec/changes/',
  kind: 'what to approve: design or plan',
}

/** `approval-gates/dsh` imported where the DSH packages it needs are not installed. */
export function missingDshPeers(missing) {
  const specs = missing.map(([name, range]) => `'${name}@${range}'`).join(' ')
  return (
    `approval-gates/dsh is the DSH plugin and needs the DSH packages ${missing.map(([name]) => name).join(', ')}, ` +
    `which are not installed: install them beside approval-gates (npm install ${specs}), ` +
    `or use the main entry 'approval-gates', which needs nothing of DSH`
  )
}

/**
 * What the hook command `init codex|gemini` writes says when the hook cannot judge a call. They
 * stand inside a double-quoted `echo` of a single-quoted sh script, so they hold no quote,
 * backslash or backtick; `$h` (the hook's path) and `$s` (its exit status) are the script's.
 */
export const hookMissingText = (host) =>
  `BLOCKED [approval-gates]: the approval-gates hook is not installed at $h, so every tool call is refused; run approval-gates init ${host} again`
export const hookFailedText = () =>
  'BLOCKED [approval-gates]: the approval-gates hook failed (exit status $s), so the call is refused'
