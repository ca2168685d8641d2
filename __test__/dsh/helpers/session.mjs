// A real DSH context per test: the published services, the approval-gates plugin, a real agent
// whose session cwd is a temporary repository, and a question provider playing the owner.
// Everything is disposed after each test.
import { afterEach } from 'node:test'

import * as plugin from '../../../lib/dsh.mjs'
import {
  bootDsh,
  callTool,
  createAgent,
  mount,
  mountOwner,
  registerSubagentStandIn,
  runCommand,
  select,
} from '../../../scripts/dsh-host.mjs'
import { makeRepo } from '../../helpers/repo.mjs'

export { plugin, select }

const cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * @param options.config - the plugin's config; `false` mounts no plugin.
 * @param options.omit - DSH services left out (see SERVICES in scripts/dsh-host.mjs).
 * @param options.owner - the owner's answer function; `null` registers no question provider.
 * @param options.repo - the session's repository (a new empty one by default).
 */
export async function openSession({ config, omit = [], owner = select('Approve'), repo = makeRepo() } = {}) {
  const ctx = await bootDsh({ omit })
  cleanups.push(() => ctx.fiber.dispose())
  const fiber = config === false ? undefined : await mount(ctx, plugin, config)
  if (ctx.get('tools') !== undefined) registerSubagentStandIn(ctx)
  const handle = await createAgent(ctx, repo.root)
  cleanups.push(() => handle.dispose())
  const session = {
    ctx,
    fiber,
    repo,
    agent: handle.agent,
    owner: owner === null ? undefined : await mountOwner(ctx, owner),
    /** A tool call as the model makes it: `{ isError, text }` with the text the model reads. */
    async call(name, args) {
      const result = await callTool(ctx, handle.agent, name, args)
      return { isError: result.isError, text: result.content.map((c) => c.text).join(''), value: result.value }
    },
    /** A slash command as the owner types it: `{ kind, text }`. */
    command: (line) => runCommand(ctx, handle.agent, line),
    /** How many questions the owner has been asked. */
    get asked() {
      return session.owner?.seen.length ?? 0
    },
  }
  return session
}

export const BLOCKED = 'BLOCKED [approval-gates]: '
export const PLAN = 'docs/superpowers/plans/p.md'

/** A write of `content` through DSH's real `write` tool. */
export const write = (file_path, content) => ['write', { file_path, content }]
/** A subagent dispatch whose prompt names `text`. */
export const dispatch = (text) => ['subagent', { description: 'implement', prompt: text }]
