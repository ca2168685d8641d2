// A host's tool-hook payload — Claude Code's and Codex CLI's PreToolUse, Gemini CLI's BeforeTool,
// all `{hook_event_name, tool_name, tool_input, cwd}` — as the tool call the engine judges. The
// engine knows every host's tool names and fields itself (src/gates/tools.rs), so only the
// envelope is unwrapped here.

/** `{ toolCall, cwd? }`, or `{ error }` for a payload of another event than `event`. */
export function fromHookPayload(payload, event) {
  const named = payload.hook_event_name
  if (named !== undefined && named !== event) {
    return { error: `check judges ${event} payloads; this one is for ${JSON.stringify(named)}` }
  }
  const input = payload.tool_input !== null && typeof payload.tool_input === 'object' ? payload.tool_input : {}
  return { toolCall: { name: payload.tool_name, arguments: input }, cwd: typeof payload.cwd === 'string' ? payload.cwd : undefined }
}
