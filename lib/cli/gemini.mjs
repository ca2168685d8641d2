// Gemini CLI's BeforeTool payload as the tool call the engine judges, and its denial: exit 2 with
// the reason on stderr (sent to the model as the tool's error), or with --json a
// `{decision, reason}` object on stdout.
import { fromHookPayload } from './hook-payload.mjs'

export const fromGemini = (payload) => fromHookPayload(payload, 'BeforeTool')

export const geminiDenial = (reason) => ({ decision: 'deny', reason })
