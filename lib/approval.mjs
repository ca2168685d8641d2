// /approve and request_approval: the two writers of approval.md (SPEC §4). Both run one flow —
// native preconditions, the owner's answer, native write — and differ only in how they read their
// arguments and which answers count as confirmation. (The harness bundle called this file
// lib/approval.js.)
import { fileURLToPath } from 'node:url'

import { defineTool } from '@deepseek-ai/dsh-tools'

import native from '../index.js'
import { approvalActive, resolveFlags } from './config.mjs'
import { servesWebApi } from './dsh-setup.mjs'
import { sessionCwd } from './gates.mjs'
import {
  APPROVE,
  APPROVE_COMMAND,
  QUESTIONS_UNAVAILABLE,
  REQUEST_APPROVAL_TOOL,
  approvalQuestion,
  approveInTerminal,
  questionsFailed,
} from './texts.mjs'

const CLI = fileURLToPath(new URL('../bin/approval-gates.mjs', import.meta.url))

/**
 * Where the owner confirms (P-17): `terminal` where DSH serves its web API, whose cards any
 * process on the machine can answer, when the configured channel is `auto`.
 */
export function ownerChannel(ctx, configured = 'auto') {
  if (configured === 'questions' || configured === 'terminal') return configured
  return servesWebApi(ctx) ? 'terminal' : 'questions'
}

const { checkApproval, writeApproval } = native

/** The owner picked Approve in the dialog: the only confirmation request_approval accepts. */
const ownerApproved = (answer) => answer?.answers?.[0]?.selected?.[0] === APPROVE

/** /approve also accepts the test forms `{approved: true}`, `{confirmed: true}` and `true`. */
const commandConfirmed = (answer) =>
  answer === true || answer?.approved === true || answer?.confirmed === true || ownerApproved(answer)

/**
 * Checks the preconditions natively (a refusal is returned as is and the owner is not asked), asks
 * the owner through the `userQuestions` service found at call time, then lets the native write
 * decide: it re-checks everything, refuses `not confirmed` unless confirmed, and refuses a plan
 * whose sha256 is no longer the one the owner was shown (P-10). `channel` is the configured
 * `ownerChannel` (default `auto`): where it resolves to `terminal`, the owner is not asked here and
 * the refusal names the command to run in their own terminal (P-17).
 * @returns `{ approved, message }`
 */
export async function approve(ctx, { changeId, kind, agent, signal, channel }, confirmed = ownerApproved) {
  const cwd = sessionCwd(agent)
  const ready = checkApproval(changeId, kind, cwd)
  if (!ready.ok) return { approved: false, message: ready.message }
  if (ownerChannel(ctx, channel) === 'terminal') return { approved: false, message: approveInTerminal(changeId, kind, cwd, CLI) }
  const questions = ctx.get('userQuestions')
  if (questions === undefined) return { approved: false, message: QUESTIONS_UNAVAILABLE }
  let yes
  try {
    const answer = await questions.ask({
      questions: [approvalQuestion(changeId, kind, ready)],
      ...(agent === undefined ? {} : { agent }),
      ...(signal === undefined ? {} : { signal }),
    })
    yes = confirmed(answer) === true
  } catch (error) {
    return { approved: false, message: questionsFailed(error) }
  }
  // A caller that cancelled (DSH's web UI drops the request on a reload or reconnect) has already
  // reported the command aborted and ignores what we return: an answer that arrives after that
  // must not write, or approval.md would change behind an "aborted".
  if (signal?.aborted === true) return { approved: false, message: questionsFailed(signal.reason) }
  const { approved, message } = writeApproval(changeId, kind, yes, cwd, ready.sha256)
  return { approved, message }
}

/** `/approve <change-id> design|plan`: the first word is the id, the rest the kind; the native judges both. */
function approveCommand(ctx, channel) {
  return {
    name: APPROVE_COMMAND.name,
    description: APPROVE_COMMAND.description,
    input: { hint: APPROVE_COMMAND.hint },
    async handler({ agent, rawInput, signal }) {
      const [changeId = '', ...kind] = String(rawInput ?? '').trim().split(/\s+/)
      const result = await approve(ctx, { changeId, kind: kind.join(' '), agent, signal, channel }, commandConfirmed)
      return { kind: result.approved ? 'success' : 'error', text: result.message }
    },
  }
}

function requestApprovalTool(ctx, channel) {
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
        },
      },
      render: (_args, value) => [{ type: 'text', text: value.message }],
    },
    execute(args, exec) {
      return approve(ctx, { changeId: args.change_id, kind: args.kind, agent: exec.agent, signal: exec.signal, channel })
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
  const resolved = resolveFlags(flags)
  if (!approvalActive(resolved)) return undefined
  const channel = resolved.ownerChannel
  const fibers = [
    ctx.inject(['commands'], function approvalGatesCommand(c) {
      c.commands.register(approveCommand(c, channel))
    }),
    ctx.inject(['tools'], function approvalGatesTool(c) {
      if (typeof c.tools.register === 'function') c.tools.register(requestApprovalTool(c, channel))
    }),
  ]
  return () => fibers.forEach((fiber) => fiber.dispose())
}
