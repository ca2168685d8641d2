// The DSH plugin entry, `approval-gates/dsh`: a cordis.patch.yml row `name: approval-gates/dsh`
// mounts it. It wires the guard and the two approval entry points; a bundle with its own guard
// chain calls registerGates / registerApproval itself instead.
import { Config, resolveFlags } from './config.mjs'
import { ownerChannel, registerApproval } from './approval.mjs'
import { reportSetup } from './dsh-setup.mjs'
import { registerGates, selfCheck } from './gates.mjs'

export const name = 'approval-gates'

/**
 * Nothing is required of the host: the guard and request_approval wait for `tools`, /approve for
 * `commands`, and `userQuestions` is looked up at call time, so a missing service never parks the
 * plugin.
 */
export const inject = []

export { Config }

export function apply(ctx, config) {
  const flags = { ...config, guardsOk: selfCheck() }
  registerGates(ctx, flags)
  registerApproval(ctx, flags)
  const { ownerChannel: channel } = resolveFlags(config)
  reportSetup(ctx, (c) => ownerChannel(c, channel))
}

export { approve, ownerChannel } from './approval.mjs'
export { dshFacts, dshSetup, reportSetup } from './dsh-setup.mjs'
export { approvalGuard, persistentShell, selfCheck, sessionSandbox } from './gates.mjs'
export { registerApproval, registerGates }
