// The package as the registry ships it: metadata, the platform packages the main package lists,
// the loader finding a scoped platform package, the peer range, and (after `npm run pack:release`)
// the glibc the Linux binary needs. The release workflow runs this file against each built target.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const semver = (() => {
  try {
    return require('semver')
  } catch {
    return null
  }
})()

const PLATFORMS = {
  'linux-x64-gnu': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-arm64-gnu': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl' },
  'linux-arm64-musl': { os: 'linux', cpu: 'arm64', libc: 'musl' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'win32-x64-msvc': { os: 'win32', cpu: 'x64' },
}

/** This machine's napi platform name, as index.js picks it. */
function hostPlatform() {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}${process.platform === 'win32' ? '-msvc' : ''}`
  const musl = !process.report.getReport().header.glibcVersionRuntime
  return `linux-${process.arch}-${musl ? 'musl' : 'gnu'}`
}

test('metadata: CommonJS, repository, homepage, bugs, keywords, a LICENSE that is the license', () => {
  assert.equal(pkg.type, 'commonjs')
  assert.match(pkg.repository.url, /^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/)
  assert.ok(pkg.homepage.startsWith(pkg.repository.url.slice(4, -4)))
  assert.ok(pkg.bugs.url.startsWith(pkg.repository.url.slice(4, -4)))
  assert.ok(pkg.keywords.length > 0)
  assert.equal(pkg.license, 'MIT')
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License\n/)
  // A registry is named on the command line only, so the registry test cannot publish elsewhere.
  assert.deepEqual(pkg.publishConfig, { access: 'public' })
})

test('a registry install never builds: no install script, no binding.gyp', () => {
  // prepare too: npm 11 warns every consumer of a tarball that has one (a checkout builds the
  // addon from npm test instead, scripts/addon.mjs).
  for (const script of ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare']) {
    assert.equal(pkg.scripts[script], undefined, script)
  }
  assert.equal(existsSync(join(root, 'binding.gyp')), false)
  assert.ok(!pkg.files.some((entry) => entry.includes('scripts')), 'the build scripts are not shipped')
})

test('every target has a platform package at the main version, listed as an optional dependency', async () => {
  const { expectedPlatformPackages, problemsOfManifest } = await import('../scripts/release/check-platforms.mjs')
  const expected = await expectedPlatformPackages(pkg)
  assert.deepEqual(expected.map((entry) => entry.platform).sort(), Object.keys(PLATFORMS).sort())
  assert.deepEqual(problemsOfManifest(pkg, expected), [])
  for (const { platform, name, binary } of expected) {
    const manifest = JSON.parse(readFileSync(join(root, 'npm', platform, 'package.json'), 'utf8'))
    const { os, cpu, libc } = PLATFORMS[platform]
    assert.equal(manifest.name, name)
    assert.equal(name, `@approval-gates/binding-${platform}`, 'scoped, so nobody else can publish the names index.js tries')
    assert.equal(manifest.version, pkg.version)
    assert.deepEqual([manifest.os, manifest.cpu, manifest.libc], [[os], [cpu], libc && [libc]])
    assert.equal(manifest.main, binary)
    assert.ok(manifest.files.includes(binary))
    assert.deepEqual(manifest.repository, pkg.repository, 'provenance needs the repository on every package')
  }
})

test('the publish guard names a missing or stale platform package and passes a complete list', async () => {
  const { expectedPlatformPackages, problemsOfManifest } = await import('../scripts/release/check-platforms.mjs')
  const expected = await expectedPlatformPackages(pkg)
  const { '@approval-gates/binding-darwin-arm64': dropped, ...fewer } = pkg.optionalDependencies
  assert.equal(dropped, pkg.version)
  assert.deepEqual(problemsOfManifest({ ...pkg, optionalDependencies: fewer }, expected), [
    `optionalDependencies["@approval-gates/binding-darwin-arm64"] is absent, not ${pkg.version}`,
  ])
  const stale = { ...pkg.optionalDependencies, '@approval-gates/binding-linux-x64-gnu': '0.0.9' }
  assert.equal(problemsOfManifest({ ...pkg, optionalDependencies: stale }, expected).length, 1)
  assert.deepEqual(problemsOfManifest(pkg, expected), [])
})

test('index.js is the napi loader and requires only the scoped platform packages', () => {
  const loader = readFileSync(join(root, 'index.js'), 'utf8')
  assert.ok(loader.includes('auto-generated by NAPI-RS'))
  const packages = [...loader.matchAll(/require\('([^'.][^']*)'\)/g)].map((match) => match[1])
  const bindings = packages.filter((name) => !['fs', 'child_process', 'path', 'os'].includes(name.split('/')[0]))
  assert.ok(bindings.length > 7)
  for (const name of bindings) assert.match(name, /^@approval-gates\/binding-[a-z0-9-]+(\/package\.json)?$/)
})

test('the DSH peer range takes every 0.1.x DSH prerelease from rc.8 on', { skip: !semver && 'semver is not installed' }, () => {
  const range = pkg.peerDependencies['@deepseek-ai/dsh-tools']
  for (const version of ['0.1.0-rc.8', '0.1.0', '0.1.5-rc.2', '0.1.9-rc.1', '0.1.12']) {
    assert.ok(semver.satisfies(version, range), `${version} is accepted`)
  }
  for (const version of ['0.1.0-rc.7', '0.0.1-rc.1', '0.2.0-rc.1', '0.2.0']) {
    assert.ok(!semver.satisfies(version, range), `${version} is rejected`)
  }
})

test('approval-gates/dsh resolves to an entry that exports what the plugin exports', async () => {
  assert.equal(pkg.exports['./dsh'].default, './lib/dsh-entry.mjs')
  const entry = await import('../lib/dsh-entry.mjs')
  const plugin = await import('../lib/dsh.mjs')
  assert.deepEqual(Object.keys(entry).sort(), Object.keys(plugin).sort())
  for (const name of Object.keys(plugin)) assert.equal(entry[name], plugin[name], name)
})

test('the missing-peers text names each package and the command that installs it', async () => {
  const { missingDshPeers } = await import('../lib/texts.mjs')
  const text = missingDshPeers([['@deepseek-ai/dsh-tools', '>=0.1.0-rc.8 <0.2.0'], ['@deepseek-ai/schemastery', '^3.18.4']])
  assert.ok(text.includes("npm install '@deepseek-ai/dsh-tools@>=0.1.0-rc.8 <0.2.0' '@deepseek-ai/schemastery@^3.18.4'"), text)
  assert.ok(text.includes("the main entry 'approval-gates'"))
})

/** The platform's binary as a release ships it (npm/<platform>/), else the one `napi build` left. */
function builtBinary(platform) {
  const name = `${pkg.napi.binaryName}.${platform}.node`
  return [join(root, 'npm', platform, name), join(root, name)].find((file) => existsSync(file))
}

test('the loader finds the binding in its scoped platform package', (t) => {
  const platform = hostPlatform()
  const binary = builtBinary(platform)
  if (!binary) return t.skip(`no ${platform} binary built here`)
  const consumer = mkdtempSync(join(tmpdir(), 'approval-gates-consumer-'))
  try {
    const main = join(consumer, 'node_modules/approval-gates')
    for (const entry of [...pkg.files, 'package.json']) cpSync(join(root, entry), join(main, entry), { recursive: true })
    const platformDir = join(consumer, 'node_modules/@approval-gates', `binding-${platform}`)
    mkdirSync(platformDir, { recursive: true })
    cpSync(join(root, 'npm', platform, 'package.json'), join(platformDir, 'package.json'))
    cpSync(binary, join(platformDir, `${pkg.napi.binaryName}.${platform}.node`))
    const probe = `const g = require('approval-gates'); console.log(g.checkGuard({ name: 'write', arguments: { file_path: 'approval.md', content: 'x' } }, process.cwd()))`
    const child = spawnSync(process.execPath, ['-e', probe], { cwd: consumer, encoding: 'utf8' })
    assert.equal(child.status, 0, child.stderr)
    assert.equal(child.stdout.trim(), 'BLOCKED [approval-gates]: approval.md is written only by /approve')
    rmSync(platformDir, { recursive: true })
    const without = spawnSync(process.execPath, ['-e', probe], { cwd: consumer, encoding: 'utf8' })
    assert.notEqual(without.status, 0, 'without the platform package the loader fails')
    assert.match(without.stderr, /Cannot find native binding/)
  } finally {
    rmSync(consumer, { recursive: true, force: true })
  }
})

const hookName = (platform) => (platform.startsWith('win32') ? 'approval-gates-hook.exe' : 'approval-gates-hook')

for (const platform of ['linux-x64-gnu', 'linux-arm64-gnu']) {
  for (const file of [`${pkg.napi.binaryName}.${platform}.node`, hookName(platform)]) {
    test(`the ${platform} release ${file} needs at most GLIBC_2.17`, async (t) => {
      const binary = join(root, 'npm', platform, file)
      if (!existsSync(binary)) return t.skip(`no release build of ${platform} here (npm run pack:release / pack:cross)`)
      if (spawnSync('readelf', ['--version']).status !== 0) return t.skip('readelf is not installed')
      const { glibcVersionsOf } = await import('../scripts/release/tools.mjs')
      const needed = glibcVersionsOf(binary).at(-1)
      assert.ok(needed[0] === 2 && needed[1] <= 17, `needs GLIBC_${needed.join('.')}`)
    })
  }
}

test('the release hook executable judges a Claude Code payload as `approval-gates check` does', (t) => {
  const platform = hostPlatform()
  const built = join(root, 'npm', platform, hookName(platform))
  if (!existsSync(built)) return t.skip(`no release build of the ${platform} hook here (npm run pack:release)`)
  const dir = mkdtempSync(join(tmpdir(), 'approval-gates-hook-'))
  try {
    // A CI artifact download drops the mode; npm and pnpm set it on a package's `bin` at install.
    const hook = join(dir, hookName(platform))
    cpSync(built, hook)
    chmodSync(hook, 0o755)
    const payload = (file) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: dir, tool_input: { file_path: join(dir, file), content: 'x' } })
    const denied = spawnSync(hook, ['check'], { cwd: dir, encoding: 'utf8', input: payload('openspec/changes/a/approval.md') })
    assert.equal(denied.status, 2, denied.stderr)
    assert.equal(denied.stderr.trim().split('\n').at(-1), 'BLOCKED [approval-gates]: approval.md is written only by /approve')
    const allowed = spawnSync(hook, ['check'], { cwd: dir, encoding: 'utf8', input: payload('src/a.rs') })
    assert.equal(allowed.status, 0, allowed.stderr)
    assert.equal(allowed.stderr, '')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
