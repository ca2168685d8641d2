// A scripted OpenAI-compatible model on 127.0.0.1 for the real DSH CLI (DEEPSEEK_BASE_URL). Each
// agent request gets the next scripted turn: the turn's index is the number of tool results the
// request carries, so a retried request gets the same answer. Every request body is kept, so a
// test reads what the model was told. Requests that carry no tools (a session title) get a text.
import { createServer } from 'node:http'

const MAX_BODY_BYTES = 8 * 1024 * 1024

/** A tool call turn: `{ tool, args }`; a text turn: `{ text }`. */
export const toolCall = (tool, args) => ({ tool, args })
export const say = (text) => ({ text })

function sseChunks(turn, step) {
  const base = { id: `chatcmpl-e2e-${step}`, object: 'chat.completion.chunk', created: 0, model: 'e2e' }
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
  if (turn.text !== undefined) {
    return [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: turn.text }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage },
    ]
  }
  const call = { index: 0, id: `call_e2e_${step}`, type: 'function' }
  const fn = { name: turn.tool, arguments: JSON.stringify(turn.args) }
  return [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ ...call, function: fn }] } }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage },
  ]
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const parts = []
    let size = 0
    request.on('data', (part) => {
      size += part.length
      if (size > MAX_BODY_BYTES) reject(new Error('request body over the cap'))
      else parts.push(part)
    })
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    request.on('error', reject)
  })
}

/** The tool results (role `tool`) of one request, in order. */
export const toolResults = (body) => (body.messages ?? []).filter((message) => message.role === 'tool')

/**
 * Starts the model. `script` is the list of turns; past its end every agent request gets `say('done')`.
 * @returns `{ baseUrl, requests, agentRequests(), close() }`
 */
export async function startModel(script) {
  const requests = []
  const server = createServer(async (request, response) => {
    try {
      const body = JSON.parse(await readBody(request))
      requests.push({ path: request.url, body })
      if (!request.url.endsWith('/chat/completions')) {
        response.writeHead(404).end()
        return
      }
      const agent = Array.isArray(body.tools) && body.tools.length > 0
      const step = agent ? toolResults(body).length : -1
      const turn = agent ? (script[step] ?? say('done')) : say('e2e session')
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const chunk of sseChunks(turn, step)) response.write(`data: ${JSON.stringify(chunk)}\n\n`)
      response.end('data: [DONE]\n\n')
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    agentRequests: () => requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
