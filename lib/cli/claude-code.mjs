// A Claude Code PreToolUse payload as the tool call the engine judges.
import { fromHookPayload } from './hook-payload.mjs'

export function isClaudeCodePayload(input) {
  return typeof input.tool_name === 'string'
}

/** `{ toolCall, cwd? }` for a PreToolUse payload, or `{ error }` for another event. */
export const fromClaudeCode = (payload) => fromHookPayload(payload, 'PreToolUse')
