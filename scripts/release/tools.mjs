// The release's build tools, installed from the project's own files: the napi CLI and its glibc
// 2.17 cross toolchains (scripts/release/package.json), zig and cargo-zigbuild from PyPI
// (scripts/release/requirements.txt) for musl, and the Rust targets. Each is installed on first
// use and reused after.
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { dshNode } from '../dsh-node.mjs'

export const toolsDir = dirname(fileURLToPath(import.meta.url))
export const root = join(toolsDir, '../..')
const toolsRequire = createRequire(join(toolsDir, 'package.json'))

/** The napi CLI's `--use-napi-cross` loads an lzma binding that needs Node >= 22.20. */
export const node22 = () => dshNode()

export function run(command, args, options = {}) {
  console.log(`$ ${[command, ...args].join(' ')}`)
  // npm is npm.cmd on Windows, which only a shell starts.
  const shell = process.platform === 'win32' && command === 'npm'
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell, ...options })
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`)
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
  return result
}

export function withPath(dir, env = process.env) {
  return { ...env, PATH: `${dir}${delimiter}${env.PATH ?? ''}` }
}

/** npm install of scripts/release/package.json, run by Node 22 so the lzma binding is not skipped. */
export function installNodeTools() {
  if (existsSync(join(toolsDir, 'node_modules/@napi-rs/cli/package.json'))) return
  const env = withPath(dirname(node22()))
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save'], { cwd: toolsDir, env })
}

export const napiCli = () => join(toolsDir, 'node_modules/@napi-rs/cli/dist/cli.js')

/**
 * The CLI downloads the toolchain of its own @napi-rs/cross-toolchain version, which the registry
 * does not have for every target (x86_64: 1.0.0 only; aarch64: 1.0.3). It skips the download when
 * its cache already holds the target, so the pinned toolchain packages are unpacked there first,
 * exactly as the CLI itself would unpack them.
 */
export function prepareNapiCross(triple) {
  const { version } = toolsRequire('@napi-rs/cross-toolchain/package.json')
  const cache = join(homedir(), '.napi-rs', 'cross-toolchain', version, triple)
  if (existsSync(join(cache, 'package.json'))) return
  const arch = triple.split('-')[0]
  const { toolchainPath } = toolsRequire(`@napi-rs/cross-toolchain-x64-target-${arch}`)
  const { Archive } = toolsRequire('@napi-rs/tar')
  const { xz } = toolsRequire('@napi-rs/lzma')
  console.log(`unpacking ${toolchainPath} into ${cache}`)
  mkdirSync(cache, { recursive: true })
  new Archive(xz.decompressSync(readFileSync(toolchainPath))).unpack(cache)
}

export function addRustTarget(triple) {
  const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' })
  if (installed.status === 0 && installed.stdout.split('\n').includes(triple)) return
  run('rustup', ['target', 'add', triple])
}

/** zig and cargo-zigbuild from PyPI in a venv under target/; returns its bin directory. */
export function installZigTools() {
  const venv = join(root, 'target/release-venv')
  const bin = join(venv, 'bin')
  if (!existsSync(join(bin, 'cargo-zigbuild'))) {
    if (!existsSync(join(bin, 'pip'))) run('python3', ['-m', 'venv', venv])
    run(join(bin, 'pip'), ['install', '--quiet', '-r', join(toolsDir, 'requirements.txt')])
  }
  // cargo-zigbuild and the napi CLI look for `zig` on PATH; the PyPI package runs as a module.
  const zig = join(bin, 'zig')
  if (!existsSync(zig)) {
    writeFileSync(zig, `#!/bin/sh\nexec "${join(bin, 'python3')}" -m ziglang "$@"\n`)
    chmodSync(zig, 0o755)
  }
  return bin
}

const rootPackage = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** The napi platform name of a Rust target (`linux-x64-gnu`), as the napi CLI computes it. */
export async function platformOf(triple) {
  const { parseTriple } = await import(createRequire(join(root, 'package.json')).resolve('@napi-rs/cli'))
  return parseTriple(triple).platformArchABI
}

/** The native hook executable the platform package ships beside the addon, when it was built. */
export const hookFileName = (triple) => (triple.includes('windows') ? 'approval-gates-hook.exe' : 'approval-gates-hook')

/**
 * How the release builds one target. `--use-napi-cross` links Linux gnu against glibc 2.17; `-x`
 * (cargo-zigbuild) builds musl. The same commands run in .github/workflows/release.yml.
 */
export function napiBuildArgs(triple, outDir) {
  return [napiCli(), 'build', '--platform', '--release', '--target', triple, ...crossArgs(triple), '-o', outDir]
}

const crossArgs = (triple) => (triple.endsWith('-linux-gnu') ? ['--use-napi-cross'] : triple.includes('-linux-musl') ? ['-x'] : [])

/**
 * The native hook, built by the same CLI with the same toolchain as the addon (the CLI builds a
 * plain `[[bin]]` with `--bin`): glibc 2.17 for Linux gnu, zig for musl, MACOSX_DEPLOYMENT_TARGET
 * on macOS, the static CRT of .cargo/config.toml on Windows. It lands in outDir beside the addon.
 */
export function hookBuildArgs(triple, outDir) {
  const hook = ['-p', 'approval-gates-hook', '--bin', 'approval-gates-hook']
  return [napiCli(), 'build', '--release', '--target', triple, ...crossArgs(triple), ...hook, '-o', outDir]
}

export async function buildTarget(triple, env = process.env) {
  installNodeTools()
  addRustTarget(triple)
  if (triple.endsWith('-linux-gnu')) prepareNapiCross(triple)
  if (triple.includes('-linux-musl')) env = withPath(installZigTools(), env)
  const platform = await platformOf(triple)
  const outDir = join(root, 'target/release-out', platform)
  const started = Date.now()
  run(node22(), napiBuildArgs(triple, outDir), { env })
  run(node22(), hookBuildArgs(triple, outDir), { env })
  console.log(`built ${triple} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  assertLoaderCurrent(outDir)
  const binary = join(outDir, `${rootPackage().napi.binaryName}.${platform}.node`)
  const hook = join(outDir, hookFileName(triple))
  if (!existsSync(hook)) throw new Error(`the hook build wrote no ${hook}`)
  if (triple.endsWith('-linux-gnu')) for (const built of [binary, hook]) assertGlibcAtMost(built, [2, 17])
  return { triple, platform, outDir, binary, hook }
}

/** The loader the CLI generated for this build must be the committed one (the CLI is the author). */
function assertLoaderCurrent(outDir) {
  for (const file of ['index.js', 'index.d.ts']) {
    const built = readFileSync(join(outDir, file), 'utf8')
    if (built !== readFileSync(join(root, file), 'utf8')) {
      throw new Error(`${file} differs from what \`napi build --platform\` generates; copy ${join(outDir, file)} over it`)
    }
  }
}

/** The GLIBC_x.y symbol versions a binary needs, highest last. */
export function glibcVersionsOf(binary) {
  const result = spawnSync('readelf', ['--dyn-syms', '--wide', binary], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`readelf ${binary} failed: ${result.stderr}`)
  const versions = new Set(result.stdout.match(/GLIBC_\d+(\.\d+)*/g) ?? [])
  return [...versions].map((v) => v.slice('GLIBC_'.length).split('.').map(Number)).sort(compareVersions)
}

function compareVersions(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0)
  }
  return 0
}

export function assertGlibcAtMost(binary, limit) {
  const needed = glibcVersionsOf(binary).at(-1)
  if (!needed) throw new Error(`${binary} names no GLIBC symbol version; is it a glibc binary?`)
  if (compareVersions(needed, limit) > 0) throw new Error(`${binary} needs GLIBC_${needed.join('.')}, over ${limit.join('.')}`)
  console.log(`${binary}: needs at most GLIBC_${needed.join('.')}`)
}

/**
 * Copies one build into npm/<platform>/: the addon and the hook executable. (`napi
 * artifacts` does this for the release's publish job, but refuses while any target is missing.)
 */
export function placeArtifacts({ platform, binary, hook }) {
  const packageDir = join(root, 'npm', platform)
  copyFileSync(binary, join(packageDir, basename(binary)))
  copyFileSync(hook, join(packageDir, basename(hook)))
}

export const distDir = join(root, 'dist')

/** The npm pack file name of a package (`@scope/name` → `scope-name-<version>.tgz`). */
export const tarballName = (name, version) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`

/**
 * Packs npm/<platform>/ into dist/ from a staged copy, so the hook executable joins `files` only
 * when it was built for that target.
 */
export function packPlatform(platform) {
  const source = join(root, 'npm', platform)
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'))
  const stage = join(root, 'target/release-stage', platform)
  rmSync(stage, { recursive: true, force: true })
  mkdirSync(stage, { recursive: true })
  for (const file of readdirSync(source)) copyFileSync(join(source, file), join(stage, file))
  // npm links a hoisted dependency's bin into node_modules/.bin; pnpm into the main package's
  // node_modules/.bin (node_modules/approval-gates/node_modules/.bin/approval-gates-hook).
  const hook = readdirSync(stage).find((file) => file.startsWith('approval-gates-hook'))
  if (hook) {
    // A CI artifact download loses the mode; npm and pnpm also set it on a `bin` at install.
    chmodSync(join(stage, hook), 0o755)
    manifest.files = [...manifest.files, hook]
    manifest.bin = { 'approval-gates-hook': hook }
  }
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'))
  return npmPack(stage, tarballName(manifest.name, manifest.version))
}

export function packMain() {
  const { name, version } = rootPackage()
  const tarball = npmPack(root, tarballName(name, version))
  assertNoBuildOnInstall(tarball)
  return tarball
}

function npmPack(dir, fileName) {
  mkdirSync(distDir, { recursive: true })
  run('npm', ['pack', '--ignore-scripts', '--loglevel', 'warn', '--pack-destination', distDir], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  const tarball = join(distDir, fileName)
  if (!existsSync(tarball)) throw new Error(`npm pack in ${dir} wrote no ${fileName}`)
  console.log(`${fileName}: ${(statSync(tarball).size / 1024).toFixed(0)} KiB`)
  return tarball
}

/** Registry installs must never build: no install lifecycle script, no binding.gyp (npm adds one). */
export function assertNoBuildOnInstall(tarball) {
  const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n')
  if (list.some((entry) => entry.endsWith('binding.gyp'))) throw new Error(`${tarball} ships a binding.gyp`)
  const manifest = JSON.parse(spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout)
  // prepare runs for a consumer installing a tarball or a git checkout, and npm 11 warns about it.
  const lifecycle = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare']
  const installScripts = lifecycle.filter((script) => manifest.scripts?.[script])
  if (installScripts.length > 0) throw new Error(`${tarball} has install scripts: ${installScripts.join(', ')}`)
}
