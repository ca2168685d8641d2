// The loop approval-gates enforces, in a real DSH context (the published packages) on a temporary
// repository: an agent driven by a scripted model makes the tool calls, the owner types /approve and
// answers the questions. Each step prints the call and the text the agent (or the owner) is given.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

import * as approvalGates from '../lib/dsh.mjs'
import {
  ScriptedModel,
  bootDsh,
  createAgent,
  mount,
  mountOwner,
  registerSubagentStandIn,
  runCommand,
  say,
  textReply,
  toolCallReply,
  toolResults,
} from '../scripts/dsh-host.mjs'

const CHANGE = 'add-login'
const PLAN = 'docs/superpowers/plans/add-login.md'
const plan = (extra = '') =>
  `# Add login\n\n**Spec:** openspec/changes/${CHANGE}/design.md\n\n- [ ] task 1: the login form\n${extra}`

const repo = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-demo-')))
// The demo's approvals go to a ledger of its own, not to the ledger of the person running it.
const state = realpathSync(mkdtempSync(join(tmpdir(), 'approval-gates-demo-state-')))
process.env.XDG_STATE_HOME = state
const file = (rel, text) => {
  mkdirSync(dirname(join(repo, rel)), { recursive: true })
  writeFileSync(join(repo, rel), text)
}
for (const name of ['proposal.md', 'design.md', 'builder-check.md']) {
  file(`openspec/changes/${CHANGE}/${name}`, `# ${name}\n`)
}

const indent = (text, prefix) => text.split('\n').map((line) => prefix + line).join('\n')
let step = 0
const heading = (who, what) => console.log(`\n${++step}. ${who} › ${what}`)

const ctx = await bootDsh()
try {
  await mount(ctx, approvalGates)
  registerSubagentStandIn(ctx)
  await mountOwner(ctx, (request) => {
    const [question] = request.questions
    console.log(indent(`${question.question}\n${question.detail}`, '   owner is asked │ '))
    console.log(`   owner answers  │ ${question.options.map((o) => `[${o.label}]`).join(' ')} → Approve`)
    return { answers: [{ id: question.id, selected: ['Approve'] }] }
  })
  const model = new ScriptedModel()
  ctx.llm.registerAdapter(['scripted'], model)
  const { agent, dispose } = await createAgent(ctx, repo, { provider: 'scripted', model: 'demo' })

  /** One agent turn: the model makes one tool call; print it and the result the model reads. */
  async function agentCalls(name, args, shown) {
    heading('agent', `${name} ${shown}`)
    model.replies.push(toolCallReply(name, args), textReply('ok'))
    await say(agent, `please ${name}`)
    const result = toolResults(agent).at(-1)
    console.log(indent(result.text, `   agent reads    │ `))
  }

  async function ownerTypes(line) {
    heading('owner', line)
    const result = await runCommand(ctx, agent, line)
    console.log(`   owner reads    │ ${result.kind}: ${result.text}`)
  }

  console.log(`approval-gates demo: a real DSH context on ${repo}`)
  console.log(`the change ${CHANGE} has proposal.md, design.md and builder-check.md; nothing is approved`)

  await agentCalls('write', { file_path: PLAN, content: plan() }, PLAN)
  await ownerTypes(`/approve ${CHANGE} design`)
  await agentCalls('write', { file_path: PLAN, content: plan() }, PLAN)
  const dispatch = { description: 'task 1', prompt: `Implement task 1 of ${PLAN}` }
  await agentCalls('subagent', dispatch, `"${dispatch.prompt}"`)
  await agentCalls('request_approval', { change_id: CHANGE, kind: 'plan' }, `{ change_id: "${CHANGE}", kind: "plan" }`)
  await agentCalls('subagent', dispatch, `"${dispatch.prompt}"`)
  await agentCalls('write', { file_path: PLAN, content: plan('- [ ] task 2: remember me\n') }, `${PLAN} (a task added)`)
  await agentCalls('subagent', dispatch, `"${dispatch.prompt}"`)
  const forged = { file_path: `openspec/changes/${CHANGE}/approval.md`, content: 'plan:\n  by: owner\n' }
  await agentCalls('write', forged, `${forged.file_path} (approving by itself)`)

  console.log(`\nopenspec/changes/${CHANGE}/approval.md, written only by the owner's approvals:`)
  console.log(indent(readFileSync(join(repo, `openspec/changes/${CHANGE}/approval.md`), 'utf8').trimEnd(), '   '))
  await dispose()
} finally {
  await ctx.fiber.dispose()
  rmSync(repo, { recursive: true, force: true })
  rmSync(state, { recursive: true, force: true })
}
