// A scripted OpenAI-compatible model on 127.0.0.1 for the real DSH CLI (DEEPSEEK_BASE_URL). Each
// agent request gets the next scripted turn: the turn's index is the number of tool results the
// request carries, so a retried request gets the same answer. A script may instead be keyed by
// the user's message: each message the user sends starts its own list of turns, counted from the
// tool results after that message. Every request body is kept, so a test reads what the model was
// told. Requests that carry no tools (a session title) get a text.
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

/** The text of a message's content, whether a string or a list of parts. */
const textOf = (content) =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => part?.text ?? '').join('') : ''

/**
 * The turn for an agent request: by tool results overall, or by the last user message the script
 * names (DSH adds user messages of its own, such as context injections) and the tool results
 * after it.
 */
function turnFor(script, body) {
  if (Array.isArray(script)) return script[toolResults(body).length] ?? say('done')
  const messages = body.messages ?? []
  const last = messages.findLastIndex((message) => message.role === 'user' && Object.hasOwn(script, textOf(message.content).trim()))
  if (last < 0) return say('done')
  const turns = script[textOf(messages[last].content).trim()]
  return turns[messages.slice(last + 1).filter((message) => message.role === 'tool').length] ?? say('done')
}

/**
 * Starts the model. `script` is the list of turns, or an object from each user message to its
 * list; past a list's end (or for a message it does not name) an agent request gets `say('done')`.
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
      const turn = agent ? turnFor(script, body) : say('e2e session')
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
