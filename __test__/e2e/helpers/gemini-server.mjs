// A scripted model on 127.0.0.1 in the Gemini API's shape, for the real Gemini CLI
// (GOOGLE_GEMINI_BASE_URL). Agent requests (those that declare tools) get the next scripted
// turn, indexed by the number of function responses they carry; requests without tools (the
// CLI's own routing and checks) get a short text. Every request body is kept.
import { createServer } from 'node:http'

import { readBody } from './clients.mjs'

export const call = (tool, args) => ({ tool, args })
export const say = (text) => ({ text })

/** The function responses of one request: `{ name, response }`. */
export const functionResponses = (body) =>
  (body.contents ?? []).flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse).map((part) => part.functionResponse)


export async function startGeminiModel(script) {
  const requests = []
  const server = createServer(async (request, response) => {
    try {
      const text = await readBody(request)
      const body = text === '' ? {} : JSON.parse(text)
      requests.push({ path: request.url, body })
      const agent = Array.isArray(body.tools) && body.tools.some((tool) => (tool.functionDeclarations ?? []).length > 0)
      const turn = agent ? (script[functionResponses(body).length] ?? say('done')) : say('{"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash"}')
      const parts = turn.text !== undefined ? [{ text: turn.text }] : [{ functionCall: { name: turn.tool, args: turn.args } }]
      const chunk = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
        modelVersion: 'e2e',
      }
      if (request.url.includes(':streamGenerateContent')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(chunk)}\n\n`)
      } else if (request.url.includes(':generateContent')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk))
      } else if (request.url.includes(':countTokens')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 1 }))
      } else {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{}')
      }
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    /** Every function response the model was shown: `{ name, response }` in order, deduplicated. */
    responses() {
      const seen = new Map()
      for (const { body } of requests) for (const r of functionResponses(body)) seen.set(JSON.stringify(r), r)
      return [...seen.values()]
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
