// What the plugin can see of the DSH it runs in, as facts for the native `approvalSetup` (P-17):
// the sandbox mode, whether the shell runs through the sandbox executor, which runner confines it,
// and whether DSH serves its web API (whose question cards any local process can answer). Read
// from DSH's own services, so it is what DSH will do, not what a profile file says.
import { basename } from 'node:path'

import native from '../index.js'
import { setupNotice } from './texts.mjs'

const { approvalSetup } = native

function service(ctx, name) {
  try {
    return ctx.get(name)
  } catch {
    return undefined
  }
}

/** DSH web is mounted: its startup service or its runtime. */
export function servesWebApi(ctx) {
  return service(ctx, 'webStartup') !== undefined || service(ctx, 'webRuntime') !== undefined
}

/** The runner `ctx.sandbox` would wrap a workspace-write command in, in the words of HOST_CHECKS. */
function runner(ctx, workspaceRoot) {
  const sandbox = service(ctx, 'sandbox')
  if (sandbox === undefined) return 'none (no sandbox service)'
  let argv
  try {
    argv = sandbox.confine(['true'], { mode: 'workspace-write', workspaceRoot }).argv
  } catch (error) {
    return `none (${error?.code ?? error?.message ?? 'the sandbox refused'})`
  }
  const program = basename(String(argv[0] ?? ''))
  if (program === 'bwrap') {
    if (argv.includes('--cap-drop')) return 'bwrap --cap-drop ALL'
    return process.getuid?.() === 0 ? 'bwrap as root, without --cap-drop ALL' : 'bwrap'
  }
  if (program.includes('landlock')) return 'landlock'
  if (program === 'sandbox-exec') return 'seatbelt'
  if (process.platform === 'win32') return 'windows-acl'
  return 'runnerCommand'
}

/** The DSH facts for a workspace, and the owner channel `/approve` uses (`terminal` or `questions`). */
export function dshFacts(ctx, workspaceRoot, channel) {
  const policy = service(ctx, 'sandboxPolicy')
  const shell = service(ctx, 'shell')
  const web = servesWebApi(ctx)
  let mode
  try {
    mode = policy?.defaultMode
  } catch {
    mode = undefined
  }
  let sandboxMode
  try {
    sandboxMode = shell?.sandboxMode
  } catch {
    sandboxMode = undefined
  }
  return {
    'sandbox-mode': typeof mode === 'string' ? mode : 'none (no sandbox-policy service)',
    shell: shell === undefined ? 'no shell service' : sandboxMode === undefined ? 'unconfined (no sandbox executor)' : 'sandboxed',
    runner: runner(ctx, workspaceRoot),
    'owner-channel': web ? `DSH web, approvals taken ${channel === 'terminal' ? 'in the terminal' : 'in its cards'}` : 'host',
  }
}

/** The report for `workspaceRoot` in this DSH. */
export function dshSetup(ctx, workspaceRoot, channel) {
  return approvalSetup(workspaceRoot, { name: 'dsh', facts: dshFacts(ctx, workspaceRoot, channel) })
}

/** The notice goes to stderr once per process (DSH prints its own warnings there); the logger gets every one. */
let printed = false

/**
 * Says once, after the profile's rows are loaded, whether approvals are enforced or advisory in
 * DSH's workspace (its working directory): on stderr, where DSH prints its own warnings (the
 * terminal running `dsh web`, the output of a headless run), and to the cordis logger (a warning
 * when advisory). Returns a disposer.
 */
export function reportSetup(ctx, channelOf, stderr = process.stderr) {
  const fiber = ctx.inject(['tools'], (c) => {
    c.effect(() => {
      const timer = setTimeout(() => {
        const cwd = process.cwd()
        try {
          const report = dshSetup(c, cwd, channelOf(c))
          const notice = setupNotice(report, cwd)
          const logger = c.logger('approval-gates')
          if (report.mode === 'enforced') logger.info(notice)
          else logger.warn(notice)
          if (!printed) stderr.write(`${notice}\n`)
          printed = true
        } catch {
          // A report that cannot be made changes nothing the gates do.
        }
      }, 0)
      return () => clearTimeout(timer)
    }, 'approval-gates setup notice')
  })
  return () => fiber.dispose()
}
