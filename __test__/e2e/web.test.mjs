// The owner's side in the real web UI: `dsh --profile web --no-open`, a real headless Chromium, the
// owner types /approve in the composer (and the agent calls request_approval), reads the question
// card — who asked, what approving writes, the design's or the plan's text — answers it every way
// the card allows, and sees the result; approval.md on disk is checked after each answer. Screenshots are kept (their folder is
// printed) so a person can look at what the owner saw.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

import { makeRepo, planText, sha256 } from '../helpers/repo.mjs'
import { CHROMIUM_ARGS, findChromium, loadPlaywright } from './helpers/browser.mjs'
import { installDsh } from './helpers/dsh-cli.mjs'
import { say, startModel, toolCall, toolResults } from './helpers/model-server.mjs'
import { packageTarballs } from './helpers/tarballs.mjs'

const PLAN = 'docs/superpowers/plans/p.md'
const APPROVAL = 'openspec/changes/foo/approval.md'
const STEP_TIMEOUT_MS = 30_000
const BOOT_TIMEOUT_MS = 90_000
const shots = mkdtempSync(join(tmpdir(), 'approval-gates-e2e-web-'))

let setup
const stops = []
before(async () => {
  const dsh = installDsh()
  if (!dsh.ok) return (setup = dsh)
  const chromiumPath = findChromium()
  if (!chromiumPath.ok) return (setup = chromiumPath)
  const playwright = loadPlaywright()
  if (!playwright.ok) return (setup = playwright)
  const tarballs = packageTarballs()
  const added = dsh.dsh.addPlugin('web', [...tarballs.platforms, tarballs.main])
  tarballs.dispose()
  assert.equal(added.status, 0, `dsh plugin add failed:\n${added.stdout}\n${added.stderr}`)
  setup = { ok: true, dsh: dsh.dsh, chromiumPath: chromiumPath.path, chromium: playwright.chromium }
})
after(async () => {
  for (const stop of stops.reverse()) await stop()
  setup?.dsh?.dispose()
})

/** Starts `dsh --profile web` on a free port; resolves its URL once it prints it. */
function startWeb(repo, model) {
  const child = setup.dsh.start('web', ['--no-open', '--host', '127.0.0.1', '--port', '0'], {
    cwd: repo.root,
    env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'e2e-not-a-key' },
  })
  let output = ''
  stops.push(() => {
    child.kill('SIGKILL')
    return new Promise((resolve) => (child.exitCode === null ? child.on('close', resolve) : resolve()))
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dsh web printed no URL in time:\n${output}`)), BOOT_TIMEOUT_MS)
    const onData = (part) => {
      output += part
      const url = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
      if (url === undefined) return
      clearTimeout(timer)
      resolve(url)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code) => reject(new Error(`dsh web exited ${code}:\n${output}`)))
  })
}

/** Picks the session's workspace the way the owner does: the directory picker, by path. */
async function chooseWorkspace(page, root) {
  // DSH's "Internal Testing Notice" opens once per browser profile, sometimes after the page is up,
  // and makes the page inert: whenever it stands in the way of an action, it is dismissed first.
  await page.addLocatorHandler(page.getByRole('dialog').getByRole('button', { name: 'Continue' }), (button) =>
    button.click(),
  )
  await page.getByText('Choose workspace').waitFor({ timeout: STEP_TIMEOUT_MS })
  await page.getByText('Choose workspace').click()
  await page.getByRole('button', { name: 'Edit path' }).click()
  const path = page.getByRole('dialog').getByRole('textbox', { name: 'Edit path' })
  await path.fill(root)
  await path.press('Enter')
  await page.getByRole('dialog').getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByRole('dialog').waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS })
  // The picker hands focus back to the workspace menu, which then opens over the composer.
  const menu = page.getByText('Add workspace…')
  await menu.waitFor({ timeout: 5_000 }).catch(() => {})
  if (await menu.isVisible()) await page.keyboard.press('Escape')
  await menu.waitFor({ state: 'hidden' })
}

async function send(page, line) {
  const composer = page.getByPlaceholder(/^(Describe what you want to build|Message the agent)$/)
  await composer.click()
  // After a reload DSH puts a failed command back into the composer as a draft.
  await composer.press('Control+a')
  await composer.press('Delete')
  await composer.pressSequentially(line, { delay: 5 })
  await composer.press('Enter')
}

/** The generic question card titled `title` (DSH's composer takeover). */
const questionCard = (page, title) => page.locator('section').filter({ has: page.getByRole('heading', { name: title }) })

/** DSH's plan-review card for a question titled `title` (the `plan-review` intent). */
const planCard = (page, title) => page.getByRole('region', { name: title })

/** The text the card shows (eyebrow, title, detail, options) as the owner reads it, spaces folded. */
const cardText = async (card) => (await card.innerText()).replace(/\s+/g, ' ')

/** Types `line`, waits for the card, keeps a screenshot; returns the card and its text. */
async function openCard(page, line, locate, shot) {
  await send(page, line)
  const card = locate()
  await card.waitFor({ timeout: STEP_TIMEOUT_MS })
  await page.screenshot({ path: join(shots, `${shot}.png`) })
  return { card, text: await cardText(card) }
}

/** Answers the open card with `answer(card)`, then waits for it to go and for `result` to show. */
async function answerCard(page, card, answer, result) {
  await answer(card)
  await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS })
  await page.getByText(result, { exact: true }).first().waitFor()
}

const choose = (label) => async (card) => {
  await card.getByRole('radio', { name: label }).click()
  await card.getByRole('button', { name: 'Submit' }).click()
}

const DESIGN_TITLE = 'Approve the design of foo?'
const PLAN_TITLE = 'Approve the plan of foo?'
const NOT_CONFIRMED = 'not confirmed, nothing was written: '

test('dsh --profile web: the owner reads what they approve and who asked, and each answer reads as what it was', async (t) => {
  if (!setup.ok) {
    console.log(`# skipped: ${setup.why}`)
    t.skip(setup.why)
    return
  }
  const repo = makeRepo().change('foo')
  repo.write('openspec/changes/foo/design.md', '# Design of foo\n\nOne queue per tenant; retries back off.\n')
  const model = await startModel({
    'write the plan of foo': [toolCall('write', { file_path: PLAN, content: planText('foo') }), say('blocked')],
    'ask for the plan': [toolCall('request_approval', { change_id: 'foo', kind: 'plan' }), say('asked')],
    'ask again': [toolCall('request_approval', { change_id: 'foo', kind: 'plan' }), say('asked again')],
  })
  stops.push(() => model.close())
  const url = await startWeb(repo, model)
  const browser = await setup.chromium.launch({ executablePath: setup.chromiumPath, args: CHROMIUM_ARGS })
  stops.push(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  await page.goto(url)
  try {
    await ownerFlow(page, repo, model)
  } catch (error) {
    await page.screenshot({ path: join(shots, 'failure.png') })
    console.log(`# screenshots: ${shots}`)
    throw error
  }
  console.log(`# screenshots: ${shots}`)
})

/** What the model was told by its last call: the last tool result of the last request. */
const lastToolResult = (model) => toolResults(model.agentRequests().at(-1).body).at(-1)?.content

async function ownerFlow(page, repo, model) {
  await chooseWorkspace(page, repo.root)

  // The agent is refused the plan; the owner sees why in the conversation.
  await send(page, 'write the plan of foo')
  await page.getByText('blocked', { exact: true }).waitFor()
  await page.getByText('Error: BLOCKED [approval-gates]: design not approved; run /approve foo design').waitFor()
  assert.equal(repo.exists(PLAN), false)

  // A reload while the card is open drops the command's request: DSH reports it aborted, the
  // question is withdrawn, and nothing is written.
  await send(page, '/approve foo design')
  await page.getByRole('heading', { name: DESIGN_TITLE }).waitFor()
  await page.reload()
  await page.getByText('This operation was aborted', { exact: true }).waitFor()
  await page.screenshot({ path: join(shots, '0-reloaded.png') })
  assert.equal(await page.getByRole('heading', { name: DESIGN_TITLE }).count(), 0)
  assert.equal(repo.exists(APPROVAL), false)

  // The design card: who asked, what approving writes, and design.md itself, rendered.
  const design = await openCard(page, '/approve foo design', () => questionCard(page, DESIGN_TITLE), '1-design-card')
  for (const shown of [
    'approval-gates · you asked (/approve)',
    'You asked for this approval: /approve foo design.',
    'Approving writes the design section of openspec/changes/foo/approval.md: by: owner and at: the time you approve.',
    'Also in the change: openspec/changes/foo/proposal.md (14 bytes), openspec/changes/foo/builder-check.md (19 bytes).',
    'Design openspec/changes/foo/design.md · 57 bytes · 3 lines',
    'Design of foo One queue per tenant; retries back off.',
    'End of openspec/changes/foo/design.md.',
    'Approve writes the design section of openspec/changes/foo/approval.md',
    'Cancel writes nothing',
  ]) {
    assert.ok(design.text.includes(shown), `the card shows ${JSON.stringify(shown)}:\n${design.text}`)
  }
  assert.equal(await design.card.getByRole('heading', { name: 'Design of foo', exact: true }).count(), 1, 'design.md is rendered')
  await answerCard(page, design.card, choose('Cancel'), `${NOT_CONFIRMED}the owner declined (Cancel)`)
  assert.equal(repo.exists(APPROVAL), false)

  // Free text, Skip and X: each its own answer, none of them a confirmation or an internal error.
  const typed = async (card) => {
    await card.getByPlaceholder('Type your answer').fill('yes')
    await card.getByPlaceholder('Type your answer').press('Enter')
  }
  const answers = [
    ['free-text', typed, `${NOT_CONFIRMED}the owner answered in their own words, "yes", and only the Approve option approves`],
    ['skip', (card) => card.getByRole('button', { name: 'Skip this question' }).click(), `${NOT_CONFIRMED}the owner skipped the question`],
    [
      'close',
      (card) => card.getByRole('button', { name: 'Dismiss all questions' }).click(),
      `${NOT_CONFIRMED}the owner dismissed the question without answering`,
    ],
  ]
  for (const [name, answer, result] of answers) {
    const { card } = await openCard(page, '/approve foo design', () => questionCard(page, DESIGN_TITLE), `2-design-${name}`)
    await answerCard(page, card, answer, result)
    assert.equal(repo.exists(APPROVAL), false, name)
  }
  assert.equal(await page.getByText(/userQuestions failed|ask_user_question/).count(), 0)

  const approved = await openCard(page, '/approve foo design', () => questionCard(page, DESIGN_TITLE), '3-design-approve')
  await answerCard(page, approved.card, choose('Approve'), 'design of foo approved')
  assert.match(repo.read(APPROVAL), /^design:\n {2}by: owner\n {2}at: \S+\n$/)

  // The agent asks for the plan: DSH's plan-review card with the plan's text, saying the agent asked.
  repo.write(PLAN, planText('foo'))
  const sha = sha256(planText('foo'))
  const asked = await openCard(page, 'ask for the plan', () => planCard(page, PLAN_TITLE), '4-plan-agent')
  for (const shown of [
    'Plan review',
    'The agent asks you for this approval, with its request_approval tool; only your answer approves.',
    `Approving writes the plan section of openspec/changes/foo/approval.md: by: owner, at: the time you approve, and sha256: ${sha}.`,
    `Plan ${PLAN} · ${planText('foo').length} bytes · 5 lines`,
    'Spec: openspec/changes/foo/design.md',
    'task 1',
    `End of ${PLAN}.`,
  ]) {
    assert.ok(asked.text.includes(shown), `the plan card shows ${JSON.stringify(shown)}:\n${asked.text}`)
  }
  assert.doesNotMatch(asked.text, /You asked/)
  await asked.card.getByRole('button', { name: 'Refuse' }).click()
  await asked.card.waitFor({ state: 'detached' })
  await page.getByText('asked', { exact: true }).waitFor()
  assert.equal(lastToolResult(model), `${NOT_CONFIRMED}the owner declined (Cancel)`)
  assert.equal(repo.read(APPROVAL).includes('plan:'), false)

  // "Chat about it" sets the question aside: not confirmed, nothing written.
  const again = await openCard(page, 'ask again', () => planCard(page, PLAN_TITLE), '5-plan-discuss')
  await again.card.getByRole('button', { name: 'Chat about it' }).click()
  await again.card.waitFor({ state: 'detached' })
  await page.getByText('asked again', { exact: true }).waitFor()
  assert.equal(lastToolResult(model), `${NOT_CONFIRMED}the owner dismissed the question without answering`)
  assert.equal(repo.read(APPROVAL).includes('plan:'), false)

  // The owner's own /approve of the plan says the owner asked; Approve writes the plan's sha256.
  const own = await openCard(page, '/approve foo plan', () => planCard(page, PLAN_TITLE), '6-plan-owner')
  assert.ok(own.text.includes('You asked for this approval: /approve foo plan.'), own.text)
  assert.doesNotMatch(own.text, /The agent asks/)
  const approve = (card) => card.getByRole('button', { name: 'Approve' }).click()
  await answerCard(page, own.card, approve, `plan ${PLAN} of foo approved (sha256 ${sha})`)
  assert.match(readFileSync(repo.path(APPROVAL), 'utf8'), new RegExp(`\nplan:\n {2}by: owner\n {2}at: \\S+\n {2}sha256: ${sha}\n$`))

  await page.screenshot({ path: join(shots, '7-approved.png') })
  assert.equal(await page.getByText('This operation was aborted', { exact: true }).count(), 1, 'only the reloaded one')
}
