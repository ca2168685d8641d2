// Types of `approval-gates/dsh`, the DSH plugin entry.
import type { Context } from '@deepseek-ai/cordis'

/** The plugin's config. roleCommand and checkCommand are accepted and have no effect (T3.2). */
export interface Flags {
  enabled?: boolean
  guards?: boolean
  approvalGates?: boolean
  roleCommand?: boolean
  checkCommand?: boolean
}

/** What a bundle passes: the flags plus its own guard chain's self-check (omitted: the native one). */
export interface BundleFlags extends Flags {
  guardsOk?: boolean
}

export declare const name: 'approval-gates'
export declare const inject: string[]
/** schemastery schema of {@link Flags}, defaults filled in. */
export declare const Config: (value?: Flags) => Required<Flags>
export declare function apply(ctx: Context, config: Required<Flags>): void

/** The guard when enabled && guards && guardsOk && approvalGates; returns a disposer, or undefined when inactive. */
export declare function registerGates(ctx: Context, flags?: BundleFlags): (() => void) | undefined
/** /approve and request_approval when enabled && approvalGates; returns a disposer, or undefined when inactive. */
export declare function registerApproval(ctx: Context, flags?: BundleFlags): (() => void) | undefined

/**
 * A `ctx.tools.guard` callback: undefined allows, a string (the full denial) refuses. Given the
 * `tools` registry, a call of a persistent shell is judged with its earlier calls' state.
 */
export declare function approvalGuard(
  exec: { name: string; arguments?: unknown; agent?: { session: { header: { cwd: string } } } },
  tools?: { get(name: string, scope?: unknown): { parameters?: { properties?: object } } | undefined },
): string | undefined
/**
 * The persistent shell a call runs in (a `bash`/`pwsh` registered with only a `command`
 * parameter), per agent; undefined for any other call. Its state is dropped when the agent ends.
 */
export declare function persistentShell(
  exec: { name: string; agent?: unknown },
  tools?: { get(name: string, scope?: unknown): { parameters?: { properties?: object } } | undefined },
): string | undefined
/** Whether the native guard refuses a write of approval.md and allows a read. */
export declare function selfCheck(): boolean

export interface ApprovalRequest {
  changeId: string
  kind: string
  agent?: unknown
  signal?: AbortSignal
  /** Who asked, as the owner's card says: `/approve` (`owner-command`) or the agent (`agent-tool`, the default). */
  asker?: 'owner-command' | 'agent-tool'
}
/**
 * The flow both entry points share: native preconditions and presentation, the owner's answer,
 * native write. Anything but a confirmation writes nothing, and the message says what the owner did.
 */
export declare function approve(
  ctx: Context,
  request: ApprovalRequest,
  confirmed?: (answer: unknown) => boolean,
): Promise<{ approved: boolean; message: string }>
