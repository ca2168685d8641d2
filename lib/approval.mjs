// /approve and request_approval: the two writers of approval.md (docs/decisions.md#approve). Both
// run one flow — native preconditions and presentation, the owner's answer, native write — and
// differ only in how they read their arguments, who the card says asked, and which answers count
// as confirmation. (The harness bundle called this file lib/approval.js.)
import { defineTool } from '@deepseek-ai/dsh-tools'

import native from '../index.js'
import { approvalActive, resolveFlags } from './config.mjs'
import { sessionCwd } from './gates.mjs'
import {
  APPROVE,
  APPROVE_COMMAND,
  CANCEL,
  QUESTIONS_UNAVAILABLE,
  REQUEST_APPROVAL_TOOL,
  approvalQuestion,
  notConfirmedResult,
  questionFailure,
  resultLine,
} from './texts.mjs'

const { presentApproval, writeApproval } = native

/** The owner picked Approve in the dialog: the only confirmation request_approval accepts. */
const ownerApproved = (answer) => answer?.answers?.[0]?.selected?.[0] === APPROVE

/** /approve also accepts the test forms `{approved: true}`, `{confirmed: true}` and `true`. */
const commandConfirmed = (answer) =>
  answer === true || answer?.approved === true || answer?.confirmed === true || ownerApproved(answer)

/**
 * What an answer that is not a confirmation was: `cancel` (the Cancel option; DSH's plan card
 * calls it Refuse), `custom` (the owner's own words in the free-text box, never a confirmation),
 * `skip` (DSH's Skip: no option, no words), `other` (an option we did not offer) or `none`.
 */
export function readAnswer(answer) {
  let first
  try {
    first = answer?.answers?.[0]
  } catch {
    return { kind: 'none' }
  }
  if (first === null || typeof first !== 'object') return { kind: 'none' }
  const selected = Array.isArray(first.selected) ? first.selected : undefined
  if (selected?.[0] === CANCEL) return { kind: 'cancel' }
  if (typeof first.custom === 'string' && first.custom.trim() !== '') return { kind: 'custom', text: first.custom }
  if (selected === undefined) return { kind: 'none' }
  return selected.length === 0 ? { kind: 'skip' } : { kind: 'other' }
}

/**
 * Checks the preconditions natively and builds what the owner is shown (a refusal is returned as
 * is and the owner is not asked), asks the owner through the `userQuestions` service found at
 * call time, then lets the native write decide: it re-checks everything and refuses a plan whose
 * sha256 is no longer the one the owner was shown (P-10). Any answer but a confirmation writes
 * nothing and says what the owner did.
 * @param request.asker - who asked: `owner-command` (/approve) or `agent-tool` (request_approval).
 * @returns `{ approved, message, detail? }`: `detail` says why nothing was written when the
 *   owner did not confirm (`message` is then exactly `not confirmed`).
 */
export async function approve(ctx, { changeId, kind, agent, signal, asker = 'agent-tool' }, confirmed = ownerApproved) {
  const cwd = sessionCwd(agent)
  const ready = presentApproval(changeId, kind, asker, cwd)
  if (!ready.ok) return { approved: false, message: ready.message }
  const questions = ctx.get('userQuestions')
  if (questions === undefined) return { approved: false, message: QUESTIONS_UNAVAILABLE }
  let answer
  try {
    answer = await questions.ask({
      questions: [approvalQuestion(ready.presentation)],
      ...(agent === undefined ? {} : { agent }),
      ...(signal === undefined ? {} : { signal }),
    })
  } catch (error) {
    return questionFailure(error, { changeId, kind })
  }
  // A caller that cancelled (DSH's web UI drops the request on a reload or reconnect) has already
  // reported the command aborted and ignores what we return: an answer that arrives after that
  // must not write, or approval.md would change behind an "aborted".
  if (signal?.aborted === true) return notConfirmedResult({ kind: 'withdrawn' })
  let yes
  try {
    yes = confirmed(answer) === true
  } catch {
    yes = false
  }
  if (!yes) return notConfirmedResult(readAnswer(answer))
  const { approved, message } = writeApproval(changeId, kind, true, cwd, ready.sha256)
  return { approved, message }
}

/** `/approve <change-id> design|plan`: the first word is the id, the rest the kind; the native judges both. */
function approveCommand(ctx) {
  return {
    name: APPROVE_COMMAND.name,
    description: APPROVE_COMMAND.description,
    input: { hint: APPROVE_COMMAND.hint },
    async handler({ agent, rawInput, signal }) {
      const [changeId = '', ...kind] = String(rawInput ?? '').trim().split(/\s+/)
      const request = { changeId, kind: kind.join(' '), agent, signal, asker: 'owner-command' }
      const result = await approve(ctx, request, commandConfirmed)
      return { kind: result.approved ? 'success' : 'error', text: resultLine(result) }
    },
  }
}

function requestApprovalTool(ctx) {
  return defineTool({
    name: REQUEST_APPROVAL_TOOL.name,
    description: REQUEST_APPROVAL_TOOL.description,
    parameters: {
      change_id: { type: 'string', required: true, description: REQUEST_APPROVAL_TOOL.changeId },
      kind: { type: 'string', required: true, description: REQUEST_APPROVAL_TOOL.kind },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          approved: { type: 'boolean', required: true },
          message: { type: 'string', required: true },
          detail: { type: 'string' },
        },
      },
      render: (_args, value) => [{ type: 'text', text: resultLine(value) }],
    },
    execute(args, exec) {
      return approve(ctx, { changeId: args.change_id, kind: args.kind, agent: exec.agent, signal: exec.signal, asker: 'agent-tool' })
    },
  })
}

/**
 * Registers `/approve` (once `ctx.commands` exists) and `request_approval` (once `ctx.tools` exists
 * and has `register`) when `enabled && approvalGates`, whatever `roleCommand` and `checkCommand`
 * say (T3.2). Omitted flags take the Config defaults. Returns a disposer, or `undefined` when
 * inactive.
 */
export function registerApproval(ctx, flags) {
  if (!approvalActive(resolveFlags(flags))) return undefined
  const fibers = [
    ctx.inject(['commands'], function approvalGatesCommand(c) {
      c.commands.register(approveCommand(c))
    }),
    ctx.inject(['tools'], function approvalGatesTool(c) {
      if (typeof c.tools.register === 'function') c.tools.register(requestApprovalTool(c))
    }),
  ]
  return () => fibers.forEach((fiber) => fiber.dispose())
}
