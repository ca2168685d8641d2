// What `approval-gates/dsh` resolves to. The plugin (dsh.mjs) imports DSH packages that are
// optional peers, so without them a static import fails at link time with a bare
// ERR_MODULE_NOT_FOUND; importing it dynamically lets a missing peer be named with the command
// that installs it.
import { createRequire } from 'node:module'

import { missingDshPeers } from './texts.mjs'

const manifest = createRequire(import.meta.url)('../package.json')

/** The peers that do not resolve from here, with their ranges. */
function unresolvedPeers() {
  return Object.entries(manifest.peerDependencies ?? {}).filter(([name]) => {
    try {
      import.meta.resolve(name)
      return false
    } catch {
      return true
    }
  })
}

async function loadPlugin() {
  try {
    return await import('./dsh.mjs')
  } catch (error) {
    const missing = error?.code === 'ERR_MODULE_NOT_FOUND' ? unresolvedPeers() : []
    if (missing.length === 0) throw error
    throw Object.assign(new Error(missingDshPeers(missing), { cause: error }), { code: 'ERR_MODULE_NOT_FOUND' })
  }
}

const plugin = await loadPlugin()

export const {
  name,
  inject,
  Config,
  apply,
  approve,
  approvalGuard,
  persistentShell,
  selfCheck,
  registerApproval,
  registerGates,
  ownerChannel,
  dshFacts,
  dshSetup,
  reportSetup,
  sessionSandbox,
} = plugin
