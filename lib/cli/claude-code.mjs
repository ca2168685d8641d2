// A Claude Code PreToolUse payload as the tool call the engine judges. Only names and fields
// move here; every decision stays in the engine.

/** Claude Code tool → engine tool name and arguments. Tools not listed pass through unchanged. */
const TOOLS = {
  Write: (input) => ['write', { file_path: input.file_path, content: input.content }],
  Edit: (input) => ['edit', { file_path: input.file_path, new_string: input.new_string }],
  MultiEdit: (input) => ['multi_edit', { file_path: input.file_path, edits: input.edits }],
  NotebookEdit: (input) => ['edit', { file_path: input.notebook_path, new_string: input.new_source }],
  Bash: (input) => ['bash', { command: input.command }],
  Task: (input) => ['subagent', { prompt: input.prompt }],
  Agent: (input) => ['subagent', { prompt: input.prompt }],
}

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
  const map = Object.hasOwn(TOOLS, payload.tool_name) ? TOOLS[payload.tool_name] : null
  const [name, args] = map ? map(input) : [payload.tool_name, input]
  return { toolCall: { name, arguments: args }, cwd: typeof payload.cwd === 'string' ? payload.cwd : undefined }
}
