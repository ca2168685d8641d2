// The plugin's flags and their defaults, and which of them switch what on. Only wiring: the gates
// themselves are native.
import z from '@deepseek-ai/schemastery'

export const Config = z.object({
  enabled: z.boolean().default(true).description('Master switch of approval-gates.'),
  guards: z.boolean().default(true).description('The guard chain; the gates are part of it (T3.3).'),
  approvalGates: z.boolean().default(true).description('The gates, /approve and request_approval.'),
  roleCommand: z.boolean().default(false).description('Accepted for profiles shared with the harness bundle; no effect here (T3.2).'),
  checkCommand: z.boolean().default(false).description('Accepted for profiles shared with the harness bundle; no effect here (T3.2).'),
  ownerChannel: z
    .union(['auto', 'questions', 'terminal'])
    .default('auto')
    .description(
      "Where the owner confirms /approve and request_approval: 'questions' (DSH's question card), 'terminal' " +
        "(only `approval-gates approve` in the owner's own terminal) or 'auto': the terminal where DSH serves its web " +
        'API, whose cards any local process can answer (P-17), the question card elsewhere.',
    ),
})

/** Flags as a bundle passes them, with the Config defaults for the ones it leaves out. */
export function resolveFlags(flags = {}) {
  const { guardsOk, ...rest } = flags
  return { ...Config(rest), guardsOk }
}

/** The guard runs only when every switch of the guard chain is on (T3.3). */
export const gatesActive = (flags) =>
  flags.enabled === true && flags.guards === true && flags.guardsOk === true && flags.approvalGates === true

/** /approve and request_approval exist whatever roleCommand and checkCommand say (T3.2). */
export const approvalActive = (flags) => flags.enabled === true && flags.approvalGates === true
