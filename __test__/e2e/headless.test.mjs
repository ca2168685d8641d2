// The real `dsh` CLI, headless: the package is added to the profile from its tarballs with
// `dsh plugin --profile headless add`, and `dsh --profile headless "<task>"` runs against a
// scripted model on 127.0.0.1. What the gates decided is read from what the model was told: the
// tool results in the request after each call.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'

import { makeRepo, planText } from '../helpers/repo.mjs'
import { installDsh } from './helpers/dsh-cli.mjs'
import { startModel, toolCall, toolResults } from './helpers/model-server.mjs'
import { packageTarballs } from './helpers/tarballs.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const PLAN = 'docs/superpowers/plans/p.md'
const APPROVAL = 'openspec/changes/feat/approval.md'

let setup
before(() => {
  setup = installDsh()
  if (!setup.ok) return
  const tarballs = packageTarballs()
  console.log(`# dsh ${setup.seconds}s to install or find in the cache; package from ${tarballs.from}`)
  const added = setup.dsh.addPlugin('headless', [...tarballs.platforms, tarballs.main])
  tarballs.dispose()
  assert.equal(added.status, 0, `dsh plugin add failed:\n${added.stdout}\n${added.stderr}`)
})
after(() => setup?.dsh?.dispose())

test('dsh --profile headless: the gates refuse the plan and approval.md, allow a normal file; request_approval has no owner to ask', async (t) => {
  if (!setup.ok) {
    console.log(`# skipped: ${setup.why}`)
    t.skip(setup.why)
    return
  }
  const repo = makeRepo().change('feat')
  const model = await startModel([
    toolCall('write', { file_path: PLAN, content: planText('feat') }),
    toolCall('bash', { command: `printf 'design:\\n  by: agent\\n' > ${APPROVAL}`, description: 'Approve the design' }),
    toolCall('write', { file_path: 'src/notes.md', content: 'hello\n' }),
    toolCall('request_approval', { change_id: 'feat', kind: 'design' }),
  ])
  try {
    const run = await setup.dsh.run('headless', ['plan feat'], {
      cwd: repo.root,
      env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'e2e-not-a-key' },
    })
    assert.equal(run.status, 0, `dsh exited ${run.status ?? run.signal}:\n${run.stdout}\n${run.stderr}`)
    const told = toolResults(model.agentRequests().at(-1).body).map((message) => message.content)
    assert.deepEqual(told, [
      `Error: ${BLOCKED}design not approved; run /approve feat design`,
      `Error: ${BLOCKED}approval.md is written only by /approve`,
      `<path>${repo.path('src/notes.md')}</path>\n<type>file</type>\n<content>\nCreated file\n</content>`,
      // Headless DSH mounts the userQuestions service with no provider behind it: nobody can
      // answer, and the agent is told where the owner can approve instead.
      'userQuestions failed: this DSH has no way to ask the owner (no question provider is registered, as in a headless run); ' +
        "the owner can approve in a terminal of their own (approval-gates approve feat design)",
    ])
    assert.equal(repo.exists(PLAN), false)
    assert.equal(repo.exists(APPROVAL), false)
    assert.equal(repo.read('src/notes.md'), 'hello\n')
    assert.match(run.stdout, /done/)
  } finally {
    await model.close()
  }
})
