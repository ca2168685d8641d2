// Every reference in the repository's own text resolves inside the repository (docs/decisions.md#about):
// decision and finding ids (P-n, D-n, T<n>.<k>) have their anchor in docs/decisions.md, links into
// docs/README/SECURITY name an anchor that exists, relative markdown links name files and anchors
// that exist, and nothing cites a document kept outside the repository (the harness's spec by
// section or by seed number, the shared folder, a tracker issue by number).
//
// The citations still to move are listed in __test__/fixtures/docs-references-pending.json (file →
// the offending strings, once per occurrence). The list can only shrink: a new offending reference
// fails, and so does an entry that no longer occurs. `DOCS_PENDING_PRUNE=1` rewrites the list without
// its stale entries (it never adds one).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DECISIONS = 'docs/decisions.md'
const PENDING = '__test__/fixtures/docs-references-pending.json'

// The repository's own text: code, tests, scripts and docs. Not vendored code, generated files,
// fuzz inputs or test data (the corpora, the pending list).
const SCANNED = [
  'src/', 'hook/', 'lib/', 'bin/', 'scripts/', '__test__/', 'bench/', 'fuzz/', 'demo/', 'docs/', 'npm/', '.ci/',
  '.github/', 'README.md', 'SECURITY.md', 'index.d.ts', 'Cargo.toml', 'build.rs', 'package.json', 'cordis.patch.yml',
  'vendor/README.md',
]
const SKIPPED = ['fuzz/seeds/', '__test__/fixtures/']
const SKIPPED_NAMES = /(^|\/)(Cargo\.lock|package-lock\.json)$/
// Directories a walk skips when git cannot list the files (build output, installed packages).
const UNTRACKED_DIRS = new Set(['.git', 'node_modules', 'target', 'corpus', 'artifacts', 'coverage', '.results', '.peers', 'dist'])

// Ids that look like references but are test data: a test's sample text, not a citation. (Spelled
// in parts, as this file's own samples below are.)
const NEW_DECISION = ['D', '14'].join('-')
const SAMPLES = {
  // A decision a design.md gains after its approval (the D-11 test).
  '__test__/gates.test.mjs': [NEW_DECISION, NEW_DECISION],
}

// The spec sections, decisions and findings docs/decisions.md must define.
const REQUIRED_ANCHORS = [
  'artifacts', 'gate-a', 'gate-b', 'gate-c', 'bash', 'paths', 'approve', 'api', 'dsh', 'limits',
  ...Array.from({ length: 18 }, (_, i) => `p-${i + 1}`),
  ...Array.from({ length: 13 }, (_, i) => `d-${i + 1}`),
  ...['1.3', '1.5', '1.8', '2.3', '3.2', '3.3', '3.4', '3.5', '3.6', '3.8', '4.1', '4.3'].map((n) => `t${n.replace('.', '-')}`),
]

const ID = /\b([PD])-(\d+)\b|\bT(\d+)\.(\d+)\b/g
// A link into the docs from anywhere: a markdown file under docs/, README.md or SECURITY.md (from
// the repository's root, `../` prefixes ignored), then `#` and the anchor.
const DOC_LINK = /(?<![\w./-])(?:\.\.\/)*((?:docs\/[\w./-]*?|README|SECURITY)\.md)#([\w-]+)/g
// Citations of documents that live outside the repository.
const OUTSIDE = [
  /\bSPEC\b(?:\.md)?(?:\s*§\s*\d+)?/g, // the spec restatement, by name or section
  /\bseeds?[ -]?0\d\d\b/gi, // the source documents by number
  /(?:\.\.\/)+shared\/|\/work\/shared\b/g, // the shared folder
  /\bissue #?\d+/gi, // a tracker issue by number
  /\bT\d+\.\d+ #\d+/g, // a finding with the upstream tracker's number
]
const MARKDOWN_LINK = /\]\(\s*<?([^()\s<>]*)>?(?:\s+"[^"]*")?\s*\)/g

// ---- reading markdown --------------------------------------------------------------------------

/** The text with fenced code blocks blanked (same length, so indices keep their lines). */
function withoutFences(text) {
  let fence = null
  return text
    .split('\n')
    .map((line) => {
      const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)
      if (fence === null && open) {
        fence = open[1]
        return ' '.repeat(line.length)
      }
      if (fence !== null) {
        if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null
        return ' '.repeat(line.length)
      }
      return line
    })
    .join('\n')
}

/** The text with inline code spans blanked (same length, so indices keep their lines). */
const withoutCodeSpans = (text) => text.replace(/(`+)(?:[^`]|(?!\1)`+)*?\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '))

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a markdown text defines: explicit `<a id>`/`name`, and each ATX heading's slug. */
function anchorsOf(markdown) {
  const anchors = []
  for (const match of markdown.matchAll(/<[a-z][^>]*?\s(?:id|name)="([^"]+)"/gi)) anchors.push(match[1])
  const seen = new Map()
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)
    if (!heading) continue
    const base = slug(heading[1])
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.push(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

// ---- the scan ----------------------------------------------------------------------------------

const posix = (path) => path.split(sep).join('/')
const isScanned = (file) =>
  SCANNED.some((root) => (root.endsWith('/') ? file.startsWith(root) : file === root)) &&
  !SKIPPED.some((dir) => file.startsWith(dir)) &&
  !SKIPPED_NAMES.test(file)

/** The repository's files: git's list (tracked, and new ones not ignored), else a walk. */
function repositoryFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 << 20,
    })
    return out.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)))
  } catch {
    const files = []
    const walk = (dir) => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const rel = dir === '' ? entry.name : `${dir}/${entry.name}`
        if (entry.isDirectory()) {
          if (!UNTRACKED_DIRS.has(entry.name)) walk(rel)
        } else if (entry.isFile()) files.push(rel)
      }
    }
    walk('')
    return files
  }
}

/** The text files scanned, as `{ file, text }` with repository-relative posix paths. */
function scannedTexts() {
  const texts = []
  for (const file of repositoryFiles().map(posix).filter(isScanned).sort()) {
    const bytes = readFileSync(join(ROOT, file))
    if (bytes.includes(0)) continue // binary
    texts.push({ file, text: bytes.toString('utf8') })
  }
  return texts
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length

/**
 * The offending references of one file: each `{ line, text, why }`. `exists(path)` says whether a
 * repository path exists, `readFile(path)` returns a repository file's text or undefined;
 * `decisionAnchors` is the set docs/decisions.md defines.
 */
function offences(file, text, { exists, readFile, decisionAnchors }) {
  const found = []
  const add = (index, reference, why) => found.push({ line: lineOf(text, index), text: reference, why })
  const anchorCache = new Map()
  const anchorsIn = (path) => {
    if (!anchorCache.has(path)) {
      const target = readFile(path)
      anchorCache.set(path, target === undefined ? undefined : new Set(anchorsOf(target)))
    }
    return anchorCache.get(path)
  }

  for (const match of text.matchAll(ID)) {
    const anchor = match[1] ? `${match[1].toLowerCase()}-${match[2]}` : `t${match[3]}-${match[4]}`
    if (!decisionAnchors.has(anchor)) add(match.index, match[0], `no anchor #${anchor} in ${DECISIONS}`)
  }
  for (const pattern of OUTSIDE) {
    for (const match of text.matchAll(pattern)) add(match.index, match[0], 'cites a document outside the repository')
  }

  let prose = text
  if (file.endsWith('.md')) {
    prose = withoutCodeSpans(withoutFences(text))
    for (const match of prose.matchAll(MARKDOWN_LINK)) {
      const target = match[1]
      if (target === '' || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue
      const hash = target.indexOf('#')
      const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash))
      const anchor = hash === -1 ? undefined : target.slice(hash + 1)
      const resolved = pathPart === '' ? file : posix(relative(ROOT, resolve(ROOT, dirname(file), pathPart)))
      if (resolved.startsWith('../') || resolved === '..' || !exists(resolved)) {
        add(match.index, target, 'links to a path that does not exist in the repository')
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsIn(resolved)?.has(anchor)) {
        add(match.index, target, `no anchor #${anchor} in ${resolved}`)
      }
      // The bare scan below must not see this link again.
      prose = prose.slice(0, match.index) + ' '.repeat(match[0].length) + prose.slice(match.index + match[0].length)
    }
  }
  for (const match of prose.matchAll(DOC_LINK)) {
    const [reference, path, anchor] = match
    const anchors = anchorsIn(path)
    if (anchors === undefined) add(match.index, reference, `${path} does not exist`)
    else if (!anchors.has(anchor)) add(match.index, reference, `no anchor #${anchor} in ${path}`)
  }
  return found.sort((a, b) => a.line - b.line)
}

/** `a` minus `b`, both lists of strings counted with multiplicity. */
function minus(a, b) {
  const left = [...b]
  return a.filter((item) => {
    const at = left.indexOf(item)
    if (at === -1) return true
    left.splice(at, 1)
    return false
  })
}

const existsInRepo = (path) => existsSync(join(ROOT, path))
const readRepoFile = (path) => {
  const full = join(ROOT, path)
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined
}

// ---- the tests ---------------------------------------------------------------------------------

describe('docs/decisions.md', () => {
  const text = readRepoFile(DECISIONS) ?? ''

  test('defines every spec section, decision and finding the code may cite', () => {
    const anchors = new Set(anchorsOf(text))
    assert.deepEqual(REQUIRED_ANCHORS.filter((anchor) => !anchors.has(anchor)), [])
  })

  test('defines each explicit anchor once, each before its heading', () => {
    const ids = Array.from(text.matchAll(/<a id="([^"]+)"><\/a>\n(.*)/g), (match) => [match[1], match[2]])
    assert.deepEqual(minus(ids.map(([id]) => id), [...new Set(ids.map(([id]) => id))]), [], 'duplicate anchors')
    assert.deepEqual(ids.filter(([, next]) => !/^#{1,6} /.test(next)).map(([id]) => id), [], 'an anchor not followed by a heading')
  })
})

describe('references in the repository', () => {
  test('resolve inside it, except the pending ones, and the pending list only shrinks', (t) => {
    const decisionAnchors = new Set(anchorsOf(readRepoFile(DECISIONS) ?? ''))
    const pending = JSON.parse(readRepoFile(PENDING) ?? '{}')
    const files = scannedTexts()
    const seen = new Set(files.map(({ file }) => file))
    for (const file of ['src/lib.rs', 'lib/dsh.mjs', 'README.md', DECISIONS, '__test__/docs.test.mjs']) {
      assert.ok(seen.has(file), `the scan reads ${file}`)
    }

    const fresh = []
    const stale = []
    const pruned = {}
    for (const { file, text } of files) {
      const found = offences(file, text, { exists: existsInRepo, readFile: readRepoFile, decisionAnchors })
      const samples = SAMPLES[file] ?? []
      const strings = minus(found.map((offence) => offence.text), samples)
      for (const sample of minus(samples, found.map((offence) => offence.text))) {
        stale.push(`${file}: sample ${JSON.stringify(sample)} no longer occurs (drop it from SAMPLES)`)
      }
      const listed = pending[file] ?? []
      for (const reference of new Set(minus(strings, listed))) {
        const all = found.filter((offence) => offence.text === reference)
        const allowed = listed.filter((entry) => entry === reference).length
        if (allowed === 0) {
          for (const offence of all) fresh.push(`${file}:${offence.line}: ${offence.text} (${offence.why})`)
        } else {
          const lines = all.map((offence) => offence.line).join(', ')
          fresh.push(`${file}: ${reference} occurs ${all.length} times (lines ${lines}), the pending list allows ${allowed} (${all[0].why})`)
        }
      }
      for (const gone of minus(listed, strings)) stale.push(`${file}: ${JSON.stringify(gone)} no longer occurs`)
      const kept = minus(listed, minus(listed, strings))
      if (kept.length > 0) pruned[file] = kept
    }
    for (const file of Object.keys(pending).filter((file) => !seen.has(file))) {
      stale.push(`${file}: not a scanned file (all ${pending[file].length} entries are stale)`)
    }

    const left = Object.entries(pruned)
    const total = left.reduce((sum, [, strings]) => sum + strings.length, 0)
    if (total > 0) {
      const byFile = left.map(([file, strings]) => `${file} ${strings.length}`).join(', ')
      t.diagnostic(`${total} references still to move into docs/ (${PENDING}): ${byFile}`)
    }
    if (process.env.DOCS_PENDING_PRUNE === '1' && stale.length > 0) {
      writeFileSync(join(ROOT, PENDING), `${JSON.stringify(pruned, null, 2)}\n`)
      t.diagnostic(`pruned the stale entries from ${PENDING} (${stale.length})`)
    }
    const problems = []
    if (fresh.length > 0) {
      problems.push(`references that do not resolve inside the repository (${fresh.length}):\n  ${fresh.join('\n  ')}`)
    }
    if (stale.length > 0 && process.env.DOCS_PENDING_PRUNE !== '1') {
      problems.push(`stale entries in ${PENDING} (${stale.length}; DOCS_PENDING_PRUNE=1 drops them):\n  ${stale.join('\n  ')}`)
    }
    if (problems.length > 0) assert.fail(`${problems.join('\n')}\n`)
  })
})

// The scanner in both directions, on sample texts. The samples are assembled from parts so that
// this file, which the scan reads too, does not hold them literally.
describe('the reference scanner', () => {
  const join2 = (...parts) => parts.join('')
  const docs = {
    [DECISIONS]: '<a id="p-12"></a>\n## P-12: unknown commands\n\n## Two words, `code` and more!\n',
    'README.md': '# approval-gates\n## /approve and request_approval\n## Limits\n## Limits\n```\n## not a heading\n```\n',
    'SECURITY.md': '# Security model\n',
  }
  const context = {
    exists: (path) => path in docs,
    readFile: (path) => docs[path],
    decisionAnchors: new Set(anchorsOf(docs[DECISIONS])),
  }
  const scan = (file, text) => offences(file, text, context).map((offence) => offence.text)

  test('GitHub heading slugs, duplicates and explicit anchors', () => {
    assert.deepEqual(anchorsOf(docs[DECISIONS]), ['p-12', 'p-12-unknown-commands', 'two-words-code-and-more'])
    assert.deepEqual(anchorsOf(docs['README.md']), ['approval-gates', 'approve-and-request_approval', 'limits', 'limits-1'])
  })

  test('ids resolve only to anchors that exist', () => {
    assert.deepEqual(scan('src/x.rs', join2('// P', '-12 and T', '3.6')), [join2('T', '3.6')])
    assert.deepEqual(scan('src/x.rs', join2('// D', '-9')), [join2('D', '-9')])
    assert.deepEqual(scan('src/x.rs', '// a P-n decision, SHA-256, UTF-8, CP-1252'), [])
  })

  test('links into the docs need their anchor', () => {
    assert.deepEqual(scan('src/x.rs', join2('// see docs/decisions.md', '#p-12')), [])
    assert.deepEqual(scan('src/x.rs', join2('// see docs/decisions.md', '#p-13')), [join2('docs/decisions.md', '#p-13')])
    assert.deepEqual(scan('src/x.rs', join2('// README.md', '#limits-1, docs/gone.md', '#x')), [join2('docs/gone.md', '#x')])
    assert.deepEqual(scan('src/x/y.rs', join2('// ../../docs/decisions.md', '#p-13')), [join2('../../docs/decisions.md', '#p-13')])
    assert.deepEqual(scan('src/x.rs', join2('// npm/x/README.md', '#nowhere')), [])
  })

  test('markdown links: paths must exist, anchors too; code is not a link', () => {
    assert.deepEqual(scan('README.md', join2('[a](#limits) [b](', 'SECURITY.md) [c](https://x.y/z)')), [])
    assert.deepEqual(scan('README.md', join2('[a](#nowhere)')), ['#nowhere'])
    assert.deepEqual(scan('README.md', join2('[a](no-such', '-file.md)')), [join2('no-such', '-file.md')])
    assert.deepEqual(scan('README.md', join2('[a](docs/decisions.md', '#p-12) [b](docs/decisions.md', '#p-1)')), [
      join2('docs/decisions.md', '#p-1'),
    ])
    assert.deepEqual(scan('docs/x.md', join2('[a](decisions.md', '#p-12) [b](../README.md', '#limits)')), [])
    assert.deepEqual(scan('README.md', join2('`[a](missing', '.md)` and\n```\n[b](missing', '.md)\n```\n')), [])
    assert.deepEqual(scan('docs/x.md', join2('[a](../../', 'outside.md)')), [join2('../../', 'outside.md')])
  })

  test('citations of documents outside the repository', () => {
    const cites = [
      join2('SP', 'EC §3'), join2('SP', 'EC.md'), join2('seed', ' 000'), join2('seed', '-000'), join2('../', 'shared/'),
      join2('iss', 'ue 12'), join2('Iss', 'ue 10'), join2('T1.5 #', '77'),
    ]
    for (const cite of cites) assert.deepEqual(scan('src/x.rs', `// ${cite}: x`).filter((s) => s !== join2('T', '1.5')), [cite])
    const fine = '// fuzz/seeds/bash_targets, NEEDS_SPEC, the spec, **Spec:**, npm/cli/issues/4828, an issue'
    assert.deepEqual(scan('src/x.rs', fine), [])
  })
})
