// The owner's side in the real web UI: `dsh --profile web --no-open`, a real headless Chromium, the
// owner types /approve in the composer, reads the question card, clicks Approve, and sees the
// result; approval.md on disk is checked after each answer. Screenshots are kept (their folder is
// printed) so a person can look at what the owner saw.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

import { makeRepo, planText, sha256 } from '../helpers/repo.mjs'
import { CHROMIUM_ARGS, findChromium, loadPlaywright } from './helpers/browser.mjs'
import { installDsh } from './helpers/dsh-cli.mjs'
import { say, startModel, toolCall } from './helpers/model-server.mjs'
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
  // This suite is the question card: DSH web's default (ownerChannel: auto) takes approvals in the
  // owner's terminal instead, since any local process can answer a card (sealing-web.test.mjs).
  writeFileSync(
    join(dsh.dsh.home, '.dsh', 'profiles', 'web', 'cordis.patch.yml'),
    '- id: approval-gates\n  config: { enabled: true, guards: true, approvalGates: true, ownerChannel: questions }\n',
  )
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

/** Types `/approve …`, checks the card's lines, answers Approve; returns the card's lines. */
async function approveInCard(page, line, title, shot) {
  await send(page, line)
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: title }) })
  await card.waitFor({ timeout: STEP_TIMEOUT_MS })
  await page.screenshot({ path: join(shots, `${shot}-card.png`) })
  const lines = await card.locator('li').allInnerTexts()
  await card.getByRole('radio', { name: 'Approve' }).click()
  await card.getByRole('button', { name: 'Submit' }).click()
  await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS })
  return lines
}

test('dsh --profile web: the owner approves the design, then the plan, in the question card', async (t) => {
  if (!setup.ok) {
    console.log(`# skipped: ${setup.why}`)
    t.skip(setup.why)
    return
  }
  const repo = makeRepo().change('foo')
  const model = await startModel([toolCall('write', { file_path: PLAN, content: planText('foo') }), say('blocked')])
  stops.push(() => model.close())
  const url = await startWeb(repo, model)
  const browser = await setup.chromium.launch({ executablePath: setup.chromiumPath, args: CHROMIUM_ARGS })
  stops.push(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  await page.goto(url)
  try {
    await ownerFlow(page, repo)
  } catch (error) {
    await page.screenshot({ path: join(shots, 'failure.png') })
    console.log(`# screenshots: ${shots}`)
    throw error
  }
  console.log(`# screenshots: ${shots}`)
})

async function ownerFlow(page, repo) {
  await chooseWorkspace(page, repo.root)

  // The agent is refused the plan; the owner sees why in the conversation.
  await send(page, 'write the plan of foo')
  await page.getByText('blocked', { exact: true }).waitFor()
  await page.getByText('Error: BLOCKED [approval-gates]: design not approved; run /approve foo design').waitFor()
  assert.equal(repo.exists(PLAN), false)

  // A reload while the card is open drops the command's request: DSH reports it aborted, the
  // question is withdrawn, and nothing is written.
  await send(page, '/approve foo design')
  await page.getByRole('heading', { name: 'Approve the design of foo?' }).waitFor()
  await page.reload()
  await page.getByText('This operation was aborted', { exact: true }).waitFor()
  await page.screenshot({ path: join(shots, '0-reloaded.png') })
  assert.equal(await page.getByRole('heading', { name: 'Approve the design of foo?' }).count(), 0)
  assert.equal(repo.exists(APPROVAL), false)

  const design = await approveInCard(page, '/approve foo design', 'Approve the design of foo?', '1-design')
  assert.deepEqual(design, ['change: openspec/changes/foo/', 'kind: design'])
  await page.getByText('design of foo approved', { exact: true }).waitFor()
  assert.match(repo.read(APPROVAL), /^design:\n {2}by: owner\n {2}at: \S+\n$/)

  repo.write(PLAN, planText('foo'))
  const sha = sha256(planText('foo'))
  const plan = await approveInCard(page, '/approve foo plan', 'Approve the plan of foo?', '2-plan')
  assert.deepEqual(plan, ['change: openspec/changes/foo/', 'kind: plan', `plan: ${PLAN}`, `sha256: ${sha}`])
  await page.getByText(`plan ${PLAN} of foo approved (sha256 ${sha})`, { exact: true }).waitFor()
  assert.match(readFileSync(repo.path(APPROVAL), 'utf8'), new RegExp(`\nplan:\n {2}by: owner\n {2}at: \\S+\n {2}sha256: ${sha}\n$`))

  await page.screenshot({ path: join(shots, '3-approved.png') })
  assert.equal(await page.getByText('This operation was aborted', { exact: true }).count(), 1, 'only the reloaded one')
}
