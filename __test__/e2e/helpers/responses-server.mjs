// A scripted model on 127.0.0.1 in the OpenAI Responses API's shape, for the real Codex CLI (a
// custom model provider whose base_url points here, wire_api = "responses"). Each request gets
// the next scripted turn: the turn's index is the number of tool outputs the request carries, so
// every agent (a subagent starts at 0) walks the same script. Every request body is kept.
import { createServer } from 'node:http'

import { readBody } from './clients.mjs'

/** A function call turn (`namespace` for namespaced tools such as multi_agent_v1.spawn_agent). */
export const call = (tool, args, namespace) => ({ tool, args, namespace })
/** A freeform tool turn (apply_patch). */
export const custom = (tool, input) => ({ custom: tool, input })
export const say = (text) => ({ text })

/** The tool outputs of one request, in order: `{ call_id, output }`. */
export const toolOutputs = (body) =>
  (body.input ?? []).filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')

const outputText = (output) => (typeof output === 'string' ? output : JSON.stringify(output))

function item(turn, n) {
  if (turn.text !== undefined) return { type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text: turn.text }] }
  if (turn.custom !== undefined) return { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_${n}`, name: turn.custom, input: turn.input }
  const namespace = turn.namespace ? { namespace: turn.namespace } : {}
  return { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: turn.tool, arguments: JSON.stringify(turn.args), ...namespace }
}


/** Starts the model: `{ baseUrl, requests, outputs(), close() }`; past the script's end, `say('done')`. */
export async function startResponsesModel(script) {
  const requests = []
  let n = 0
  const server = createServer(async (request, response) => {
    try {
      const body = JSON.parse(await readBody(request))
      requests.push({ path: request.url, body })
      if (!request.url.endsWith('/responses')) {
        response.writeHead(404).end()
        return
      }
      n += 1
      const turn = script[toolOutputs(body).length] ?? say('done')
      const events = [
        { type: 'response.created', response: { id: `resp_${n}` } },
        { type: 'response.output_item.done', output_index: 0, item: item(turn, n) },
        { type: 'response.completed', response: { id: `resp_${n}`, usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } } },
      ]
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      response.end()
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Every tool output the model was shown, by call id (the last request that carries it). */
    outputs() {
      const byId = new Map()
      for (const { body } of requests) for (const o of toolOutputs(body)) byId.set(o.call_id, outputText(o.output))
      return byId
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
