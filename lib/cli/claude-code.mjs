// A Claude Code PreToolUse payload as the tool call the engine judges. The engine knows Claude
// Code's tool names and fields itself (src/gates/tools.rs), so only the envelope is unwrapped here.

export function isClaudeCodePayload(input) {
  return typeof input.tool_name === 'string'
}

/** `{ toolCall, cwd? }` for a PreToolUse payload, or `{ error }` for another event. */
export function fromClaudeCode(payload) {
  const event = payload.hook_event_name
  if (event !== undefined && event !== 'PreToolUse') {
    return { error: `check judges PreToolUse payloads; this one is for ${JSON.stringify(event)}` }
  }
  const input = payload.tool_input !== null && typeof payload.tool_input === 'object' ? payload.tool_input : {}
  return { toolCall: { name: payload.tool_name, arguments: input }, cwd: typeof payload.cwd === 'string' ? payload.cwd : undefined }
}
