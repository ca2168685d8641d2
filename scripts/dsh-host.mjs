// Dev only (the tests and `npm run demo`): a real DSH from the published packages, booted plugin by
// plugin, with a real agent whose session cwd is a repository. Nothing of DSH is replaced; the
// stand-ins are what a DSH installation gets from outside: the owner answering questions (a
// question provider), the model (a scripted LlmAdapter) and a `subagent` tool that only reports
// what it would have dispatched (the guard judges a call before any tool's own code runs).
import { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import CommandRuntime from '@deepseek-ai/dsh-commands'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import LlmRuntime, { CallId, LlmAdapter, createUserMessage } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import ToolRuntime, { defineTool } from '@deepseek-ai/dsh-tools'
import UserQuestionService from '@deepseek-ai/dsh-user-questions'

/** cordis FiberState.ACTIVE (a const enum, so not exported at run time). */
export const ACTIVE = 2

/** Mounts one plugin and insists it loaded: a plugin missing a service would silently stay pending. */
export async function mount(ctx, plugin, config) {
  const fiber = await ctx.plugin(plugin, config)
  if (fiber.state !== ACTIVE) {
    throw new Error(`plugin ${plugin.name ?? '?'} did not load (fiber state ${fiber.state})`)
  }
  return fiber
}

/** The DSH services the tests and the demo use, in an order where each finds what it injects. */
export const SERVICES = {
  llm: [LlmRuntime],
  sessions: [SessionStore],
  systemPrompt: [SystemPrompt],
  tools: [ToolRuntime],
  agents: [AgentRegistry],
  agentLoop: [AgentLoop, { agents: [] }],
  fs: [LocalFileSystem, { cwd: '/' }],
  toolFs: [ToolFs],
  commands: [CommandRuntime],
  userQuestions: [UserQuestionService],
}

/** Boots the services into `ctx` (a new Context by default), leaving out those named in `omit`. */
export async function bootDsh({ ctx = new Context(), omit = [] } = {}) {
  for (const [key, [plugin, config]] of Object.entries(SERVICES)) {
    if (!omit.includes(key)) await mount(ctx, plugin, config)
  }
  return ctx
}

let sessions = 0

/** A real agent (the AgentLoop factory) whose session header carries `cwd`; `.dispose()` ends it. */
export function createAgent(ctx, cwd, agentOptions) {
  return ctx.agents.create({
    sessionId: SessionId(`approval-gates-${process.pid}-${++sessions}`),
    meta: { cwd },
    ...(agentOptions === undefined ? {} : { agentOptions }),
  })
}

let calls = 0

/** One tool call through the real registry (pre-execute, guards, dispatch), as the agent loop runs it. */
export function callTool(ctx, agent, name, args) {
  return ctx.tools.execute({
    callId: CallId(`call-${++calls}`),
    name,
    arguments: args,
    signal: new AbortController().signal,
    agent,
  })
}

/** A slash command as the owner types it; resolves to the command's `{kind, text}`. */
export async function runCommand(ctx, agent, line) {
  const execution = await ctx.commands.execute(agent, line, [], new AbortController().signal)
  return execution?.result
}

/**
 * The owner: a question provider in its own plugin. `answer(request)` returns the answer (or
 * throws); every request is kept in `seen`.
 */
export async function mountOwner(ctx, answer) {
  const owner = { seen: [], answer }
  owner.fiber = await mount(ctx, {
    name: 'test-owner',
    inject: ['userQuestions'],
    apply(c) {
      c.userQuestions.registerProvider({
        async ask(request) {
          owner.seen.push(request)
          return owner.answer(request)
        },
      })
    },
  })
  return owner
}

/** An answer selecting `label` for every question, as a UI would send it. */
export const select = (label) => (request) => ({
  answers: request.questions.map((question) => ({ id: question.id, selected: [label] })),
})

/** `subagent` with DSH's parameters; it only reports the prompt it would have dispatched. */
export function registerSubagentStandIn(ctx) {
  return ctx.tools.register(
    defineTool({
      name: 'subagent',
      description: 'Dispatch a subagent (stand-in: reports the dispatch instead of starting a child).',
      parameters: {
        description: { type: 'string', required: true },
        prompt: { type: 'string', required: true },
      },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute(args) {
        return `dispatched: ${args.description}`
      },
    }),
  )
}

/** The model: each turn it streams the next scripted reply (a list of chunks). */
export class ScriptedModel extends LlmAdapter {
  constructor(replies = []) {
    super()
    this.replies = replies
  }

  async *stream() {
    const reply = this.replies.shift()
    if (reply === undefined) throw new Error('the scripted model has nothing more to say')
    yield* reply
  }
}

/** A reply that is one tool call. */
export function toolCallReply(name, args) {
  const id = CallId(`model-${++calls}`)
  const json = JSON.stringify(args)
  return [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id, name, argumentsDelta: json },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id, name, arguments: json } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** A reply that is text and ends the turn. */
export function textReply(text) {
  return [
    { type: 'block-start', index: 0, blockType: 'text' },
    { type: 'text-delta', index: 0, text },
    { type: 'block-end', index: 0, block: { type: 'text', text } },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

/** Sends the agent a user message and waits until its turn is over. */
export async function say(agent, text) {
  agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
  await agent.whenIdle()
}

/** The tool results the agent's model received, oldest first: `{ isError, text }`. */
export function toolResults(agent) {
  return agent.session.events
    .filter((event) => event.type === 'tool/result')
    .map((event) => {
      const result = event.data.message.content[0]
      return { isError: result.isError, text: result.content.map((c) => c.text).join('') }
    })
}
