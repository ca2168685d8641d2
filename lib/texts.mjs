// The only texts the JS glue produces itself. Every refusal about the gates, the change, its files,
// its plan or approval.md comes from the native core (src/texts/) and is passed through unchanged.

/** /approve and request_approval when no `userQuestions` service is mounted (D-12). */
export const QUESTIONS_UNAVAILABLE = 'userQuestions service unavailable; /approve requires it'

/** The question dialog itself failed (T1.5): the owner must see why, not `not confirmed`. */
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

/** The answer the native write gives when the owner did not confirm (docs/decisions.md#approve). */
export const NOT_CONFIRMED = 'not confirmed'

/** The most characters of the owner's own words quoted back. */
const QUOTED_ANSWER_MAX = 500

/** The owner's own words, trimmed, bounded and quoted. */
function quote(text) {
  const trimmed = text.trim()
  return JSON.stringify(trimmed.length > QUOTED_ANSWER_MAX ? `${trimmed.slice(0, QUOTED_ANSWER_MAX)}…` : trimmed)
}

/**
 * Why an answer is not a confirmation, by what the owner did (see `readAnswer` in approval.mjs;
 * `typed` is the CLI's prompt).
 */
const NOT_CONFIRMED_BECAUSE = {
  cancel: () => 'the owner declined (Cancel)',
  skip: () => 'the owner skipped the question',
  dismissed: () => 'the owner dismissed the question without answering',
  withdrawn: () => 'the question was withdrawn before the owner answered (the turn was stopped, or the page was reloaded)',
  custom: ({ text }) => `the owner answered in their own words, ${quote(text)}, and only the ${APPROVE} option approves`,
  typed: ({ text }) => `the owner typed ${quote(text)}, and only yes approves`,
  other: () => `the answer was none of the options ${APPROVE} and ${CANCEL}`,
  none: () => 'no answer came back',
}

/**
 * Why nothing was written, by what the owner did: Cancel, Skip, the owner's own words, a dismissed
 * or withdrawn question each read differently. It travels beside the answer's `message`, which
 * stays exactly `not confirmed` (docs/decisions.md#approve): the explanation is for the owner's
 * eyes, the message is the contract.
 */
export function notConfirmedDetail(answer) {
  const because = NOT_CONFIRMED_BECAUSE[answer.kind] ?? NOT_CONFIRMED_BECAUSE.none
  return `nothing was written: ${because(answer)}`
}

/** An answer that is not a confirmation, as the approval flow returns it. */
export const notConfirmedResult = (answer) => ({ approved: false, message: NOT_CONFIRMED, detail: notConfirmedDetail(answer) })

/**
 * The one line a person reads: the message, then its detail. What was written comes first, so a
 * host that cuts a long line (DSH's command row) still shows it.
 */
export const resultLine = ({ message, detail }) => (detail === undefined ? message : `${message}, ${detail}`)

/** `not confirmed, nothing was written: …` as one line (the CLI's prompt). */
export const notConfirmed = (answer) => resultLine(notConfirmedResult(answer))

/**
 * The failures of the question service that have a known cause (its error `code`), in the
 * owner's words; `userQuestions failed: <message>` either way (docs/decisions.md#approve), and
 * any other error keeps its own message.
 */
const FAILED_BECAUSE = {
  NO_PROVIDER: ({ changeId, kind }) =>
    'this DSH has no way to ask the owner (no question provider is registered, as in a headless run); ' +
    `the owner can approve in a terminal of their own (approval-gates approve ${changeId} ${kind})`,
  DELEGATED_CALLER: () =>
    "a subagent cannot ask the owner; only the session's main agent can, so report the approval needed in the subagent's result",
  CALLER_NOT_LIVE: () => 'the agent asking is no longer running, so the owner was not asked',
  ASK_MISSING_AGENT: () => "DSH's web UI asks the owner only within an agent's session, and this request came from none",
}

/**
 * The refusal for an error the question service threw (`request`: the change id and kind). The
 * owner closing the card (X) or the turn being stopped is no failure of the dialog but no answer,
 * so it reads as `not confirmed`.
 */
export function questionFailure(error, request) {
  let code
  try {
    code = error?.code
  } catch {
    code = undefined
  }
  if (code === 'ASK_CANCELLED') return notConfirmedResult({ kind: 'dismissed' })
  if (code === 'ASK_ABORTED') return notConfirmedResult({ kind: 'withdrawn' })
  const because = typeof code === 'string' && Object.hasOwn(FAILED_BECAUSE, code) ? FAILED_BECAUSE[code] : undefined
  const message = because === undefined ? questionsFailed(error) : `userQuestions failed: ${because(request)}`
  return { approved: false, message }
}

/** The question card's eyebrow: who asked, before the owner reads anything else. */
const ASKED_BY = {
  'owner-command': 'approval-gates · you asked (/approve)',
  'agent-tool': 'approval-gates · the agent asks (request_approval)',
}

/**
 * The question the owner is asked in DSH. Its `detail` is the native presentation in Markdown
 * (DSH's card renders it): who asked, what approving writes, the design's or the plan's text. A
 * plan carries DSH's `plan-review` intent, so the web UI shows it as a plan under review (the
 * plan's text, Approve, Refuse and "Chat about it"); a design takes the generic card.
 */
export function approvalQuestion(presentation) {
  const { writes } = presentation
  const question = {
    id: 'approval-gates/approve',
    header: ASKED_BY[presentation.asker] ?? 'approval-gates',
    question: presentation.title,
    detail: presentation.markdown,
    options: [
      { label: APPROVE, description: `writes the ${writes.section} section of ${writes.file}` },
      { label: CANCEL, description: 'writes nothing' },
    ],
  }
  if (presentation.kind === 'plan') question.intent = { kind: 'plan-review', approve: APPROVE }
  return question
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

/**
 * /approve and request_approval where the owner's answer is taken only in a terminal (P-17):
 * DSH web's question cards can be answered by any process on the machine, the agent's included.
 */
export function approveInTerminal(changeId, kind, cwd, bin) {
  const quote = (word) => `'${String(word).replaceAll("'", `'\\''`)}'`
  return (
    `not asked here: DSH web lets any process on this machine answer its question cards, so approvals are taken ` +
    `only in a terminal of your own: node ${quote(bin)} approve ${changeId} ${kind} --cwd ${quote(cwd)}`
  )
}

/** The plugin's notice at start: whether approvals are enforced or advisory in DSH's workspace. */
export function setupNotice(report, cwd) {
  const open = report.checks.filter((check) => check.state !== 'holds')
  if (open.length === 0) return `approval-gates: approvals in ${cwd} are ENFORCED (sealed, and the agent's commands run confined)`
  const reasons = open.map((check) => `${check.text}${check.fix === undefined ? '' : ` (to change: ${check.fix})`}`)
  return `approval-gates: approvals in ${cwd} are ADVISORY: ${reasons.join('; ')}. \`approval-gates status\` reports it again.`
}
