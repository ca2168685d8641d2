// What `approval-gates status` can find out about the hosts that run the agent, as facts for the
// native `approvalSetup` (P-17). One finder per host, each returning the setups it found (all of
// them when the host is named with --host); a host integration adds its finder to HOSTS. The facts
// and which values hold are defined with their texts in the core (src/texts/setup.rs, HOST_CHECKS).
import { readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

import { claudeCodeSetups } from './claude-code-setup.mjs'
import { codexSetups } from './codex-setup.mjs'
import { geminiSetups } from './gemini-setup.mjs'

function readText(path) {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/**
 * The rows of DSH patch layers (`cordis.patch.yml`) by id, later layers over earlier ones: each
 * row's text is the `- id: <id>` line and the lines indented under it. A plain scan of the YAML
 * shapes DSH writes, not a YAML parser: what it cannot read stays unknown.
 */
export function patchRows(texts) {
  const rows = new Map()
  for (const text of texts) {
    let current
    for (const line of text.split('\n')) {
      const start = /^(\s*)- id:\s*['"]?([\w.-]+)['"]?\s*$/.exec(line)
      if (start !== null) {
        current = { indent: start[1].length, lines: [] }
        rows.set(start[2], [...(rows.get(start[2]) ?? []), current])
        continue
      }
      if (current === undefined) continue
      const indent = /^(\s*)/.exec(line)[1].length
      if (line.trim() !== '' && indent <= current.indent) current = undefined
      else current.lines.push(line)
    }
  }
  return rows
}

/** The last value of `key:` in the rows of `id`, unquoted; undefined when no layer sets it. */
function rowValue(rows, id, key) {
  let value
  for (const row of rows.get(id) ?? []) {
    for (const line of row.lines) {
      const match = new RegExp(`^\\s*${key}:\\s*(.*?)\\s*$`).exec(line)
      if (match !== null) value = match[1].replace(/^(['"])(.*)\1$/, '$2')
    }
  }
  return value
}

/** The DSH `runner` fact on this platform, as the sandbox row's configuration says. */
function dshRunner(rows, platform, uid) {
  const command = rowValue(rows, 'sandbox', 'runnerCommand')
  const commandLines = (rows.get('sandbox') ?? []).flatMap((row) => row.lines).join('\n')
  if (command !== undefined || /runnerCommand:/.test(commandLines)) {
    return /--cap-drop[\s,'"]+ALL/i.test(commandLines) ? 'bwrap --cap-drop ALL' : 'runnerCommand'
  }
  if (platform === 'darwin') return 'seatbelt'
  if (platform === 'win32') return 'windows-acl'
  // Linux prefers bwrap; as root, DSH's bwrap profile keeps every capability.
  return uid === 0 ? 'bwrap as root, without --cap-drop ALL' : 'bwrap'
}

/** The DSH profiles under `$DSH_HOME/profiles` (default `~/.dsh`) that load approval-gates. */
export function dshSetups({ env = process.env, platform = process.platform, uid = process.getuid?.() } = {}) {
  const home = env.DSH_HOME || join(homedir(), '.dsh')
  const profiles = join(home, 'profiles')
  let names = []
  try {
    names = readdirSync(profiles).sort()
  } catch {
    return []
  }
  const setups = []
  for (const name of names) {
    const dir = join(profiles, name)
    let manifest
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    } catch {
      continue
    }
    const bundles = manifest?.dsh?.profile?.bundles ?? []
    if (!bundles.includes('approval-gates') && !Object.hasOwn(manifest?.dependencies ?? {}, 'approval-gates')) continue
    const layers = [join(dir, 'cordis.patch.yml'), join(home, 'cordis.patch.yml')].map(readText).filter((t) => t !== null)
    const rows = patchRows(layers)
    const policyMode = rowValue(rows, 'sandbox-policy', 'mode')
    const mode = env.DSH_PERMISSION_MODE || (policyMode?.startsWith('!!') ? undefined : policyMode) || 'workspace-write'
    const shellRow = platform === 'win32' ? 'pwsh-sandbox' : 'bash-sandbox'
    const shell = rowValue(rows, shellRow, 'disabled') === 'true' ? `${shellRow} disabled` : 'sandboxed'
    const web = bundles.includes('@deepseek-ai/dsh-web-app')
    const facts = {
      'sandbox-mode': mode,
      shell,
      runner: dshRunner(rows, platform, uid),
      'owner-channel': web ? 'DSH web' : 'host',
    }
    setups.push({ label: `DSH profile ${name} (${dir})`, host: { name: 'dsh', facts } })
  }
  return setups
}

/**
 * The host finders, by host name (`approval-gates status --host <name>`). Each takes `{ root,
 * named }`: named, a finder that reads its host's configuration files reports them even when
 * they do not exist (every fact then says what is missing).
 */
export const HOSTS = {
  dsh: dshSetups,
  'claude-code': claudeCodeSetups,
  codex: codexSetups,
  gemini: geminiSetups,
}

/**
 * The setups to report for `root`: those of `host` when named (a host with no finder, or none
 * found, is reported with no facts), else every host's that is found.
 */
export function findSetups(root, host) {
  if (host !== undefined) {
    const found = Object.hasOwn(HOSTS, host) ? HOSTS[host]({ root, named: true }) : []
    return found.length > 0 ? found : [{ label: host, host: { name: host } }]
  }
  return Object.values(HOSTS).flatMap((find) => find({ root, named: false }))
}

export const hostNames = () => Object.keys(HOSTS)
