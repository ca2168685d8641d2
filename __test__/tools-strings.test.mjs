// Tools the gates do not know by name are judged by every string they carry (P-18), through the
// package's checkGuard: refusals with the right gate's text, and the read-only and remote-only
// tools, and dispatches in every spelling of a plan reference, in both directions.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { checkGuard } from '../index.js'
import { makeRepo, planText } from './helpers/repo.mjs'

const BLOCKED = 'BLOCKED [approval-gates]: '
const NEEDS_SPEC = `${BLOCKED}plan must carry **Spec:** pointing to openspec/changes/<id>`
const ONLY_APPROVE = `${BLOCKED}approval.md is written only by /approve`
const DESIGN = (id) => `${BLOCKED}design not approved; run /approve ${id} design`
const PLAN_NOT_APPROVED = `${BLOCKED}plan not approved; run /approve c plan`
const PLAN = 'docs/superpowers/plans/p.md'
const APPROVAL = 'openspec/changes/c/approval.md'

const call = (name, args) => ({ name, arguments: args })
const repoWithPlan = () => makeRepo().change('c').plan('p', 'c')

describe('tools judged by every string they carry', () => {
  test('MCP servers other than the reference filesystem one, at any depth and in any spelling', () => {
    const repo = repoWithPlan()
    const check = (name, args) => checkGuard(call(name, args), repo.root)
    assert.equal(check('mcp__serena__create_text_file', { relative_path: APPROVAL, content: 'x' }), ONLY_APPROVE)
    assert.equal(check('mcp__serena__create_text_file', { relative_path: PLAN, content: planText('c') }), DESIGN('c'))
    assert.equal(check('mcp__jetbrains__create_new_file_with_text', { pathInProject: PLAN, text: '# no spec' }), NEEDS_SPEC)
    assert.equal(check('mcp__desktop-commander__start_process', { command: `echo x > ${APPROVAL}`, timeout_ms: 1000 }), ONLY_APPROVE)
    assert.equal(check('mcp__ide__open', { file_uri: `file://${repo.root}/${APPROVAL}` }), ONLY_APPROVE)
    assert.equal(check('mcp__ide__open', { uri: `file://${repo.root}/openspec/changes/c/approval%2Emd` }), ONLY_APPROVE)
    assert.equal(check('mcp__x__save', { target: 'C:\\repo\\openspec\\changes\\x\\approval.md' }), ONLY_APPROVE)
    assert.equal(check('mcp__x__save', { target: 'openspec\\changes\\x\\approval.md' }), ONLY_APPROVE)
    assert.equal(check('mcp__x__batch', { ops: [{ at: { where: [APPROVAL] } }] }), ONLY_APPROVE)
    assert.equal(check('mcp__x__batch', { files: { [APPROVAL]: 'design: ok' } }), ONLY_APPROVE)
    assert.equal(check('mcp__x__touch', { at: '.superpowers/sdd/p/progress.md' }), PLAN_NOT_APPROVED)
    assert.equal(check('no_such_tool', { file_path: APPROVAL }), ONLY_APPROVE)
    assert.equal(check('mcp__github__create_or_update_file', { path: APPROVAL, content: 'x', message: 'm' }), ONLY_APPROVE)
    assert.equal(check('mcp__notes__create_pull_request', { body: `see ${APPROVAL}` }), ONLY_APPROVE)
  })

  test('what such a tool may do stays allowed: no guarded string, or a write the gate allows', () => {
    const repo = repoWithPlan()
    repo.approveDesign('c')
    const check = (name, args) => checkGuard(call(name, args), repo.root)
    assert.equal(check('mcp__serena__create_text_file', { relative_path: PLAN, content: planText('c') }), null)
    assert.equal(check('mcp__serena__create_text_file', { relative_path: 'src/a.js', content: 'export {}' }), null)
    assert.equal(check('mcp__desktop-commander__start_process', { command: `cat ${APPROVAL}` }), null)
    assert.equal(check('mcp__weather__forecast', { city: 'Oslo', days: [1, 2] }), null)
    assert.equal(check('no_such_tool', { note: 'the owner approves designs' }), null)
  })

  test('read-only tools by name, and a code host writing prose about approval.md', () => {
    const repo = repoWithPlan()
    const check = (name, args) => checkGuard(call(name, args), repo.root)
    for (const [name, args] of [
      ['Read', { file_path: APPROVAL }],
      ['Glob', { pattern: 'openspec/changes/*/approval.md' }],
      ['TodoWrite', { todos: [{ content: `implement ${PLAN}`, status: 'pending' }] }],
      ['todo_write', { todos: [{ content: `check ${APPROVAL}` }] }],
      ['ls', { path: 'docs/superpowers/plans' }],
      ['mcp__filesystem__get_file_info', { path: APPROVAL }],
      ['mcp__serena__find_symbol', { name_path: 'x', relative_path: PLAN }],
      ['mcp__jetbrains__get_file_text_by_path', { pathInProject: APPROVAL }],
      ['mcp__github__create_pull_request', { title: 'CSV', body: `Approved in ${APPROVAL}; plan ${PLAN}.`, head: 'f', base: 'main' }],
      ['mcp__github__add_issue_comment', { issue_number: 3, body: 'approval.md is current' }],
      ['mcp__gitlab__create_merge_request', { description: `closes ${APPROVAL}` }],
    ]) {
      assert.equal(check(name, args), null, name)
    }
  })

  test('search, memory, tracker, browser and git servers pass; their generic names elsewhere and their writing forms do not', () => {
    const repo = repoWithPlan()
    const check = (name, args) => checkGuard(call(name, args), repo.root)
    for (const [name, args] of [
      ['SlashCommand', { command: `/review ${PLAN}` }],
      ['mcp__sequential-thinking__sequentialthinking', { thought: `check ${APPROVAL} first`, nextThoughtNeeded: false }],
      ['mcp__context7__get-library-docs', { context7CompatibleLibraryID: '/x/openspec', topic: 'approval.md' }],
      ['mcp__perplexity__search', { query: 'openspec approval.md' }],
      ['mcp__fetch__fetch', { url: `https://raw.githubusercontent.com/a/b/main/${APPROVAL}` }],
      ['mcp__memory__add_observations', { observations: [{ entityName: 'c', contents: ['approval.md is owner-only'] }] }],
      ['mcp__linear__list_issues', { query: 'approval.md' }],
      ['mcp__playwright__browser_navigate', { url: 'http://localhost:3000/approval.md' }],
      ['mcp__git__git_log', { repo_path: repo.root, max_count: 5, file: APPROVAL }],
      ['mcp__git__git_add', { repo_path: repo.root, files: [PLAN] }],
      ['mcp__ripgrep__search', { pattern: 'sha256', path: `${repo.root}/openspec`, glob: 'approval.md' }],
      ['container.exec', { cmd: ['bash', '-lc', `cat ${APPROVAL}`], workdir: repo.root }],
    ]) {
      assert.equal(check(name, args), null, name)
    }
    assert.equal(check('mcp__notes__search', { query: APPROVAL }), ONLY_APPROVE)
    assert.equal(check('mcp__memory__write_file', { path: APPROVAL, content: 'x' }), ONLY_APPROVE)
    assert.equal(check('mcp__playwright__browser_take_screenshot', { filename: PLAN }), NEEDS_SPEC)
    assert.equal(check('mcp__git__git_diff', { repo_path: repo.root, target: `--output=${APPROVAL}` }), ONLY_APPROVE)
    assert.equal(check('mcp__serena__write_memory', { memory_file_name: `${repo.root}/${PLAN}`, content: 'x' }), NEEDS_SPEC)
    assert.equal(check('container.exec', { cmd: ['bash', '-lc', `echo x > ${APPROVAL}`], workdir: repo.root }), ONLY_APPROVE)
  })

  test('dispatches name a plan in any field and any spelling (gate B)', () => {
    const repo = repoWithPlan()
    const check = (name, args) => checkGuard(call(name, args), repo.root)
    for (const spelled of ['docs/superpowers/plans/p.MD', 'docs/superpowers/plans/./p.md', 'docs//superpowers/plans/p.md', 'docs\\superpowers\\plans\\p.md']) {
      assert.match(check('Task', { description: 't', prompt: `Implement ${spelled}` }) ?? '', /plan not approved/, spelled)
      assert.match(check('SendMessage', { to: 'w', summary: spelled, message: 'go on' }) ?? '', /plan not approved/, spelled)
      assert.match(check('Workflow', { workflow: 'sdd-task', inputs: [{ plan: spelled }] }) ?? '', /plan not approved/, spelled)
      assert.match(check('subagent', { prompt: `Implement ${spelled}` }) ?? '', /plan not approved/, spelled)
    }
    repo.approvePlan('c', 'p')
    assert.equal(check('Workflow', { workflow: 'sdd-task', args: { plan: 'docs\\superpowers\\plans\\p.md' } }), null)
    assert.equal(check('SendMessage', { to: 'w', message: 'Task 2 of docs/superpowers/plans/./p.md' }), null)
  })
})
