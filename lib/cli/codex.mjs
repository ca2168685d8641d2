// Codex CLI's PreToolUse payload (tool_name, tool_input, cwd, transcript_path, tool_use_id) as the
// tool call the engine judges. A shell call arrives as `Bash` with only `{command}`: the workdir
// the model gave exec_command is read back from the session transcript, as the native hook does
// (hook/src/codex.rs).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

import { fromHookPayload } from './hook-payload.mjs'

const TRANSCRIPT_TAIL = 4 << 20

export function fromCodex(payload) {
  const call = fromHookPayload(payload, 'PreToolUse')
  if (call.error || call.toolCall.name !== 'Bash' || Object.hasOwn(call.toolCall.arguments, 'workdir')) return call
  if (typeof payload.transcript_path !== 'string' || typeof payload.tool_use_id !== 'string') return call
  const workdir = transcriptWorkdir(payload.transcript_path, payload.tool_use_id)
  if (workdir === undefined) return call
  return { ...call, toolCall: { ...call.toolCall, arguments: { ...call.toolCall.arguments, workdir } } }
}

/** The workdir of function call `callId` in a Codex transcript (JSON lines), if it has one. */
export function transcriptWorkdir(path, callId) {
  let text
  try {
    const fd = openSync(path, 'r')
    try {
      const { size } = fstatSync(fd)
      const length = Math.min(size, TRANSCRIPT_TAIL)
      const buffer = Buffer.alloc(length)
      readSync(fd, buffer, 0, length, size - length)
      text = buffer.toString('utf8')
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
  const needle = `"call_id":${JSON.stringify(callId)}`
  for (const line of text.split('\n').reverse()) {
    if (!line.includes(needle) || !line.includes('"function_call"')) continue
    try {
      const { payload } = JSON.parse(line)
      if (payload?.type !== 'function_call' || payload.call_id !== callId) continue
      const { workdir } = JSON.parse(payload.arguments)
      if (typeof workdir === 'string' && workdir !== '') return workdir
    } catch {
      // A torn or foreign line: look further back.
    }
  }
  return undefined
}
