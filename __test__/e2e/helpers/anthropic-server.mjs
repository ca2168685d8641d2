// A scripted Anthropic Messages API on 127.0.0.1 for the real Claude Code CLI (ANTHROPIC_BASE_URL),
// streamed as server-sent events the way the API streams them. Each agent request gets the next
// scripted turn: the turn's index is the number of tool results the request carries, so a retried
// request gets the same answer. Every request is kept, so a test reads what the model was told
// (the tool results) and what it was offered (the tools and their input schemas).
import { createServer } from 'node:http'

import { readBody } from './clients.mjs'

/** A tool call turn: `{ tool, input }`; a text turn: `{ text }`. */
export const toolUse = (tool, input) => ({ tool, input })
export const say = (text) => ({ text })

const blocks = (message) => (Array.isArray(message.content) ? message.content : [])

/** The tool_result blocks of one request, in order; `text` is each result's text. */
export function toolResults(body) {
  const results = []
  for (const message of body.messages ?? []) {
    for (const block of blocks(message)) {
      if (block.type !== 'tool_result') continue
      const content = typeof block.content === 'string' ? block.content : blocks(block).map((part) => part.text ?? '').join('')
      results.push({ id: block.tool_use_id, isError: block.is_error === true, text: content })
    }
  }
  return results
}

/** Every text the user side of a request carries (prompts, reminders, notifications). */
export function userTexts(body) {
  const texts = []
  for (const message of body.messages ?? []) {
    if (message.role !== 'user') continue
    if (typeof message.content === 'string') texts.push(message.content)
    for (const block of blocks(message)) if (block.type === 'text') texts.push(block.text)
  }
  return texts
}

function events(turn, step, model) {
  const id = `msg_e2e_${step}`
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const start = { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }
  const stop = (reason) => [
    { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ]
  if (turn.text !== undefined) {
    return [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } },
      { type: 'content_block_stop', index: 0 },
      ...stop('end_turn'),
    ]
  }
  return [
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_e2e_${step}`, name: turn.tool, input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) } },
    { type: 'content_block_stop', index: 0 },
    ...stop('tool_use'),
  ]
}

/** The whole reply to a request that does not stream. */
function message(turn, step, model) {
  const text = turn.text !== undefined
  const content = text ? [{ type: 'text', text: turn.text }] : [{ type: 'tool_use', id: `toolu_e2e_${step}`, name: turn.tool, input: turn.input }]
  const usage = { input_tokens: 1, output_tokens: 1 }
  return { id: `msg_e2e_${step}`, type: 'message', role: 'assistant', model, content, stop_reason: text ? 'end_turn' : 'tool_use', stop_sequence: null, usage }
}

/** A request of the agent loop: it offers tools. Side requests (titles, summaries) offer none. */
const isAgentRequest = (body) => Array.isArray(body.tools) && body.tools.length > 0

/**
 * Starts the model. `script` is the list of turns, or a function `(body, step) => turn` for a
 * conversation that depends on what was asked; past the script's end every agent request gets
 * `say('done')`, and side requests always get a short text.
 * @returns `{ baseUrl, requests, agentRequests(), close() }`
 */
export async function startAnthropicModel(script) {
  const requests = []
  const next = typeof script === 'function' ? script : (_body, step) => script[step]
  const server = createServer(async (request, response) => {
    try {
      const text = await readBody(request)
      const body = text === '' ? {} : JSON.parse(text)
      requests.push({ method: request.method, path: request.url, body })
      const path = request.url.split('?')[0]
      if (path.endsWith('/messages/count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 1 }))
        return
      }
      if (!path.endsWith('/v1/messages')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not scripted' } }))
        return
      }
      const agent = isAgentRequest(body)
      const step = agent ? toolResults(body).length : -1
      const turn = agent ? (next(body, step) ?? say('done')) : say('e2e')
      const model = typeof body.model === 'string' ? body.model : 'e2e'
      if (body.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message(turn, step, model)))
        return
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const event of events(turn, step, model)) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      response.end()
    } catch (error) {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: String(error) } }))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    agentRequests: () => requests.filter((r) => isAgentRequest(r.body)),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
