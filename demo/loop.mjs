// The loop approval-gates enforces, in a real DSH context (the published packages) on a temporary
// repository: an agent driven by a scripted model makes the tool calls, the owner types /approve and
// answers the questions. Each step prints the call and the text the agent (or the owner) is given.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'

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

/**
 * The question card as the owner reads it in DSH's web UI, which renders its Markdown: the
 * eyebrow and the title, then the detail with its emphasis and code spans shown as text and its
 * rules as lines. (The markup is the presentation's own: approval::present.)
 */
function card(question) {
  const detail = question.detail
    .replace(/^---$/gm, '─'.repeat(60))
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/^\*(.+)\*$/gm, '$1')
    .replace(/(`+) ?(.+?) ?\1(?!`)/g, '$2')
  return `${question.header}\n${question.question}\n\n${detail}`
}

/**
 * A tool result as a person reads it: DSH's write tool tells the model
 * `<path>…</path><type>file</type><content>Created file</content>`, which its web UI shows as the
 * outcome and the file.
 */
function toolResult(text) {
  const written = /^<path>(.*)<\/path>\n<type>file<\/type>\n<content>\n(.*)\n<\/content>$/s.exec(text)
  return written === null ? text : `${written[2]}: ${relative(repo, written[1])}`
}

let step = 0
const heading = (who, what) => console.log(`\n${++step}. ${who} › ${what}`)

const ctx = await bootDsh()
try {
  await mount(ctx, approvalGates)
  registerSubagentStandIn(ctx)
  // The owner's answers, in order: the design, the plan asked for a first time, and a second time.
  const answers = ['Approve', 'Cancel', 'Approve']
  const cards = new Map()
  await mountOwner(ctx, (request) => {
    const [question] = request.questions
    const answer = answers.shift()
    const shown = card(question)
    console.log(indent(cards.has(shown) ? `(the card of step ${cards.get(shown)} again)` : shown, '   owner reads    │ '))
    if (!cards.has(shown)) cards.set(shown, step)
    console.log(`   owner answers  │ ${question.options.map((o) => `[${o.label}]`).join(' ')} → ${answer}`)
    return { answers: [{ id: question.id, selected: [answer] }] }
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
    console.log(indent(toolResult(result.text), `   agent reads    │ `))
  }

  async function ownerTypes(line) {
    heading('owner', line)
    const result = await runCommand(ctx, agent, line)
    // DSH's command row: the command's name and its text, marked when it failed.
    console.log(`   owner reads    │ ${line.split(' ')[0].slice(1)} · ${result.kind === 'error' ? 'failed: ' : ''}${result.text}`)
  }

  console.log(`approval-gates demo: a real DSH context on ${repo}`)
  console.log(`the change ${CHANGE} has proposal.md, design.md and builder-check.md; nothing is approved`)

  await agentCalls('write', { file_path: PLAN, content: plan() }, PLAN)
  await ownerTypes(`/approve ${CHANGE} design`)
  await agentCalls('write', { file_path: PLAN, content: plan() }, PLAN)
  const dispatch = { description: 'task 1', prompt: `Implement task 1 of ${PLAN}` }
  await agentCalls('subagent', dispatch, `"${dispatch.prompt}"`)
  const askPlan = { change_id: CHANGE, kind: 'plan' }
  await agentCalls('request_approval', askPlan, `{ change_id: "${CHANGE}", kind: "plan" }`)
  await agentCalls('request_approval', askPlan, `{ change_id: "${CHANGE}", kind: "plan" } (asked again)`)
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
