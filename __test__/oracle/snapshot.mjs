// What the gates guard, as it stands on disk, and what a command changed among it. Guarded: every
// approval.md anywhere (the basename case-insensitively, like gate C), everything in and under a
// `docs/superpowers/plans` or `.superpowers/sdd` folder at any depth (gate A, gate B; a nested root
// such as a worktree counts), and the structure of every `openspec/` tree (a symbolic link made,
// changed or removed there, or a path that changed its type, can redirect approvals). For a guarded
// file: existence, type, mode, link count, inode, content hash, symlink target and modification
// time.
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'

const SKIP = new Set(['.git', 'node_modules'])

/** `'approval' | 'plans' | 'sdd' | 'openspec' | null`: what a repository-relative path is to the gates. */
export function guardedKind(rel) {
  const parts = rel.split('/')
  if (parts.at(-1).toLowerCase() === 'approval.md') return 'approval'
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] === '.superpowers' && parts[i + 1] === 'sdd') return 'sdd'
    if (i + 2 < parts.length && parts[i] === 'docs' && parts[i + 1] === 'superpowers' && parts[i + 2] === 'plans') return 'plans'
  }
  return parts.includes('openspec') ? 'openspec' : null
}

const typeOf = (stat) => (stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other')

/** Every guarded path under `root` (repository-relative) with what the comparison needs. */
export function snapshot(root) {
  const entries = new Map()
  const walk = (dir, prefix) => {
    let names
    try {
      names = readdirSync(dir)
    } catch {
      return // unreadable (a command may chmod a folder): what it held counts as gone
    }
    for (const name of names.sort()) {
      if (SKIP.has(name)) continue
      const path = join(dir, name)
      const rel = prefix === '' ? name : `${prefix}/${name}`
      let stat
      try {
        stat = lstatSync(path, { bigint: true })
      } catch {
        continue
      }
      const type = typeOf(stat)
      const kind = guardedKind(rel)
      if (kind !== null) {
        const entry = { kind, type }
        if (type === 'link') entry.link = readlinkSync(path)
        if (kind !== 'openspec') {
          entry.mode = Number(stat.mode & 0o7777n)
          if (type === 'file') {
            entry.nlink = Number(stat.nlink)
            entry.ino = stat.ino
            entry.mtime = stat.mtimeNs
            try {
              entry.hash = createHash('sha256').update(readFileSync(path)).digest('hex')
            } catch {
              entry.hash = 'unreadable'
            }
          }
        }
        entries.set(rel, entry)
      }
      if (type === 'dir') walk(path, rel)
    }
  }
  walk(root, '')
  return entries
}

const parentOf = (rel) => rel.split('/').slice(0, -1).join('/')
const underChanges = (rel) => /(^|\/)openspec\/changes\//.test(rel)
/** Where a change's own approval lies, `openspec/changes/<id>/approval.md`: a move may not land there. */
const activePosition = (rel) => /(^|\/)openspec\/changes\/[^/]+\/approval\.md$/i.test(rel)

/**
 * The guarded changes from `before` to `after`: `[{ path, change }]`, `change` one of `created`,
 * `deleted`, `type`, `symlink`, `mode`, `content`, `linked` (a hard link added or removed),
 * `replaced` (another file with the same bytes put in its place), `touched` (written with the same
 * bytes). P-12: a change removed whole, or moved whole to where it
 * is no change's own approval (the archive, or inside another folder), is not a write of its
 * approval.md; a copy is, and so is a move that makes it another change's approval.
 */
export function guardedChanges(before, after) {
  const changes = []
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(path)
    const a = after.get(path)
    const kind = (b ?? a).kind
    if (kind === 'openspec') {
      if (b && a && b.type !== a.type) changes.push({ path, change: 'type' })
      else if ((b?.type === 'link' || a?.type === 'link') && (b?.type !== a?.type || b?.link !== a?.link)) changes.push({ path, change: 'symlink' })
      continue
    }
    if (b === undefined) changes.push({ path, change: 'created' })
    else if (a === undefined) changes.push({ path, change: 'deleted' })
    else if (b.type !== a.type) changes.push({ path, change: 'type' })
    else if (b.link !== a.link) changes.push({ path, change: 'symlink' })
    else if (b.mode !== a.mode) changes.push({ path, change: 'mode' })
    else if (b.hash !== a.hash) changes.push({ path, change: 'content' })
    else if (b.nlink !== a.nlink) changes.push({ path, change: 'linked' })
    else if (b.ino !== a.ino) changes.push({ path, change: 'replaced' })
    else if (b.mtime !== a.mtime) changes.push({ path, change: 'touched' })
  }
  // P-12: a whole change removed (its folder gone), or moved into the archive with the same bytes.
  const wholeGone = changes.filter(
    ({ path, change }) => change === 'deleted' && before.get(path).kind === 'approval' && underChanges(path) && !isDir(after, parentOf(path)),
  )
  const goneHashes = new Set(wholeGone.map(({ path }) => before.get(path).hash))
  const moved = changes.filter(
    ({ path, change }) =>
      change === 'created' &&
      after.get(path).kind === 'approval' &&
      underChanges(path) &&
      !activePosition(path) &&
      !isDir(before, parentOf(path)) &&
      goneHashes.has(after.get(path).hash),
  )
  const excused = new Set([...wholeGone, ...moved])
  return changes.filter((change) => !excused.has(change)).sort((x, y) => x.path.localeCompare(y.path))
}

/** Whether a change folder (recorded: everything under `openspec/` is) is a folder in a snapshot. */
const isDir = (entries, dir) => entries.get(dir)?.type === 'dir'
