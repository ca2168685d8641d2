// The generator's space (docs/oracle.md): write calls × guarded path spellings × channels ×
// languages, read-only calls in the same spellings, and fixed bash cases that restore, replace or
// defer. Pure data and string building, deterministic: every case has a stable id
// `kind/language/call/spelling/channel/target`. Whether a write case really writes is not decided
// here: running it in the sandbox decides.
import { TARGETS } from './fixture.mjs'

/** A shell word in single quotes. */
export const shq = (text) => `'${text.replaceAll("'", "'\\''")}'`
const EOF = 'ORACLE_EOF'
const heredoc = (head, body) => `${head} <<'${EOF}'\n${body}\n${EOF}`
const b64 = (text) => Buffer.from(text).toString('base64')
const reverse = (text) => [...text].reverse().join('')

/** The path parts a spelling plays with: the segment that names the plan folder, change or ledger. */
function anatomy(path, isDir) {
  const parts = path.split('/')
  const at = isDir ? parts.length - 1 : parts.length - 2
  const segment = parts[at]
  return {
    parts,
    segment,
    before: parts.slice(0, at).join('/'),
    after: parts.slice(at + 1).join('/'),
    parent: parts.slice(0, -1).join('/'),
    base: parts.at(-1),
    // A pattern that matches this segment and no sibling in the fixture (`p` has siblings p1, …).
    pattern: segment.length > 1 ? `*${segment.slice(1)}` : `[${segment}]`,
    patternedParent: parts.slice(0, at).concat(segment.length > 1 ? `*${segment.slice(1)}` : `[${segment}]`, parts.slice(at + 1, -1)).join('/'),
    patternedPath: parts.slice(0, at).concat(segment.length > 1 ? `*${segment.slice(1)}` : `[${segment}]`, parts.slice(at + 1)).join('/'),
  }
}
const join2 = (a, b) => (a === '' ? b : b === '' ? a : `${a}/${b}`)

// ---------------------------------------------------------------------------------------------
// Program languages. Each dialect says how to write a string, join strings, name a variable, …;
// the spellings below are built from those, so every language gets the same spellings.
// ---------------------------------------------------------------------------------------------

const python = {
  bin: 'python3',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} + ${b}`,
  assign: (name, expr) => `${name} = ${expr}`,
  ref: (name) => name,
  join: (parts) => ({ pre: ['import os'], expr: `os.path.join(${parts.join(', ')})` }),
  lower: (expr) => `${expr}.lower()`,
  glob: (pattern) => ({ pre: ['import glob'], expr: `glob.glob('${pattern}')[0]` }),
  chdir: (dir) => ['import os', `os.chdir('${dir}')`],
  format: (before, value, after) => ({ pre: [`d = '${value}'`], expr: `f'${before}{d}${after}'` }),
  hidden: (text) => ({ pre: ['import base64'], expr: `base64.b64decode('${b64(text)}').decode()` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p) => `python3 -c ${shq(p)}`,
    heredoc: (p) => heredoc('python3 -', p),
    pipe: (p) => `printf '%s\\n' ${shq(p)} | python3 -`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.py', p)}\npython3 /tmp/oracle-case.py`,
  },
  writes: {
    'open-append': { code: (e) => [`open(${e}, 'a').write('x\\n')`] },
    'open-kw': { code: (e) => [`open(file=${e}, mode='a').write('x\\n')`] },
    'path-open': { code: (e) => ['from pathlib import Path', `Path(${e}).open(mode='a').write('x\\n')`] },
    'path-write-text': { code: (e) => ['from pathlib import Path', `Path(${e}).write_text('x\\n')`] },
    'alias-open': { code: (e) => ['w = open', `w(${e}, 'a').write('x\\n')`] },
    'io-fileio': { code: (e) => ['import io', `io.FileIO(${e}, 'a').write(b'x\\n')`] },
    'os-open': { code: (e) => ['import os', `os.write(os.open(${e}, os.O_WRONLY | os.O_APPEND), b'x\\n')`] },
    'shutil-alias': { code: (e) => ['import shutil as sh', `sh.copy('/tmp/x', ${e})`] },
    'logging-handler': { code: (e) => ['import logging', `log = logging.getLogger('oracle')`, `log.addHandler(logging.FileHandler(${e}))`, `log.warning('x')`] },
    remove: { code: (e) => ['import os', `os.remove(${e})`] },
    replace: { code: (e) => ['import os', `os.replace('{ROOT}/x', ${e})`] },
    subprocess: { code: (e) => ['import subprocess', `subprocess.run(['cp', '/tmp/x', ${e}], check=True)`] },
    'tar-extractall': { needs: 'dir', code: (e) => ['import tarfile', `tarfile.open('/tmp/evil.tar').extractall(${e})`] },
    'zip-extractall': { needs: 'dir', code: (e) => ['import zipfile', `zipfile.ZipFile('/tmp/evil.zip').extractall(${e})`] },
    copytree: { needs: 'dir', code: (e) => ['import shutil', `shutil.copytree('/tmp/evil', ${e}, dirs_exist_ok=True)`] },
  },
  reads: {
    read: { code: (e) => [`print(open(${e}).read())`] },
    'read-kw': { code: (e) => [`print(open(file=${e}, mode='r').read())`] },
    hash: { code: (e) => ['import hashlib', `print(hashlib.sha256(open(${e}, 'rb').read()).hexdigest())`] },
    'print-path': { code: (e) => [`print(${e})`] },
    stat: { code: (e) => ['import os', `print(os.stat(${e}).st_size)`] },
    'copy-out': { code: (e) => ['import shutil', `shutil.copy(${e}, '/tmp/out')`] },
    diff: { code: (e) => ['import difflib', `print(''.join(difflib.unified_diff(open(${e}).readlines(), open('/tmp/x').readlines())))`] },
    'json-dumps': { code: (e) => ['import json', `print(json.dumps({'path': ${e}}))`] },
    'git-log': { code: (e) => ['import subprocess', `subprocess.run(['git', 'log', '--oneline', '-1', '--', ${e}], check=True)`] },
    'archive-out': { needs: 'dir', code: (e) => ['import tarfile', `t = tarfile.open('/tmp/out.tgz', 'w:gz')`, `t.add(${e})`, 't.close()'] },
    listdir: { needs: 'dir', code: (e) => ['import os', `print(sorted(os.listdir(${e})))`] },
  },
}

/** JavaScript on node: CommonJS calls, and the ES-module calls marked `esm`. */
const javascript = {
  bin: 'node',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} + ${b}`,
  assign: (name, expr) => `const ${name} = ${expr}`,
  ref: (name) => name,
  join: (parts, esm) => (esm ? { imports: ["import nodePath from 'node:path'"], expr: `nodePath.join(${parts.join(', ')})` } : { pre: ["const nodePath = require('path')"], expr: `nodePath.join(${parts.join(', ')})` }),
  lower: (expr) => `${expr}.toLowerCase()`,
  // No glob in node 20: the folder listed and the pattern matched, as a program does it.
  glob: (pattern, esm, { before, after }) => {
    const segment = pattern.split('/')[before.split('/').length]
    const regex = `/^${segment.replaceAll('*', '.*')}$/`
    const list = esm ? { imports: ["import { readdirSync as nodeReaddir } from 'node:fs'"], call: 'nodeReaddir' } : { call: "require('fs').readdirSync" }
    return { imports: list.imports, expr: `'${before}/' + ${list.call}('${before}').find((n) => ${regex}.test(n))${after ? ` + '/${after}'` : ''}` }
  },
  chdir: (dir) => [`process.chdir('${dir}')`],
  format: (before, value, after) => ({ pre: [`const d = '${value}'`], expr: `\`${before}\${d}${after}\`` }),
  hidden: (text) => ({ expr: `Buffer.from('${b64(text)}', 'base64').toString()` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p, esm) => `node ${esm ? '--input-type=module ' : ''}-e ${shq(p)}`,
    heredoc: (p, esm) => heredoc(`node ${esm ? '--input-type=module ' : ''}-`, p),
    pipe: (p, esm) => `printf '%s\\n' ${shq(p)} | node ${esm ? '--input-type=module ' : ''}-`,
    script: (p, esm) => `${heredoc(`cat > /tmp/oracle-case.${esm ? 'mjs' : 'js'}`, p)}\nnode /tmp/oracle-case.${esm ? 'mjs' : 'js'}`,
  },
  writes: {
    append: { code: (e) => [`require('fs').appendFileSync(${e}, 'x\\n')`] },
    'destructure-alias': { code: (e) => ["const { appendFileSync: w } = require('fs')", `w(${e}, 'x\\n')`] },
    'computed-member': { code: (e) => ["const fs = require('fs')", `fs['write' + 'FileSync'](${e}, 'x\\n')`] },
    'call': { code: (e) => ["const fs = require('fs')", `fs.writeFileSync.call(fs, ${e}, 'x\\n')`] },
    stream: { code: (e) => [`require('fs').createWriteStream(${e}, { flags: 'a' }).end('x\\n')`] },
    promises: { code: (e) => [`require('fs/promises').appendFile(${e}, 'x\\n')`] },
    'esm-import': { esm: true, imports: ["import { appendFileSync } from 'node:fs'"], code: (e) => [`appendFileSync(${e}, 'x\\n')`] },
    rm: { code: (e) => [`require('fs').rmSync(${e})`] },
    rename: { code: (e) => [`require('fs').renameSync('{ROOT}/x', ${e})`] },
    copy: { code: (e) => [`require('fs').copyFileSync('/tmp/x', ${e})`] },
    'open-write': { code: (e) => ["const fs = require('fs')", `fs.writeSync(fs.openSync(${e}, 'a'), 'x\\n')`] },
    'exec-file': { code: (e) => [`require('child_process').execFileSync('cp', ['/tmp/x', ${e}])`] },
    'cp-recursive': { needs: 'dir', code: (e) => [`require('fs').cpSync('/tmp/evil', ${e}, { recursive: true })`] },
  },
  reads: {
    read: { code: (e) => [`console.log(require('fs').readFileSync(${e}, 'utf8'))`] },
    hash: { code: (e) => [`console.log(require('crypto').createHash('sha256').update(require('fs').readFileSync(${e})).digest('hex'))`] },
    'print-path': { code: (e) => [`console.log(${e})`] },
    stat: { code: (e) => [`console.log(require('fs').statSync(${e}).size)`] },
    'copy-out': { code: (e) => [`require('fs').copyFileSync(${e}, '/tmp/out')`] },
    'json-stringify': { code: (e) => [`console.log(JSON.stringify({ path: ${e} }))`] },
    'git-log': { code: (e) => [`require('child_process').execFileSync('git', ['log', '--oneline', '-1', '--', ${e}], { stdio: 'inherit' })`] },
    'esm-read': { esm: true, imports: ["import { readFileSync } from 'node:fs'"], code: (e) => [`console.log(readFileSync(${e}, 'utf8'))`] },
    'cp-out': { needs: 'dir', code: (e) => [`require('fs').cpSync(${e}, '/tmp/out', { recursive: true })`] },
    listdir: { needs: 'dir', code: (e) => [`console.log(require('fs').readdirSync(${e}))`] },
  },
}

const perl = {
  bin: 'perl',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} . ${b}`,
  assign: (name, expr) => `my $${name} = ${expr};`,
  ref: (name) => `$${name}`,
  join: (parts) => ({ pre: ['use File::Spec;'], expr: `File::Spec->catfile(${parts.join(', ')})` }),
  lower: (expr) => `lc(${expr})`,
  glob: (pattern) => ({ expr: `(glob('${pattern}'))[0]` }),
  chdir: (dir) => [`chdir('${dir}') or die;`],
  format: (before, value, after) => ({ pre: [`my $d = '${value}';`], expr: `"${before}$d${after}"` }),
  hidden: (text) => ({ pre: ['use MIME::Base64;'], expr: `decode_base64('${b64(text)}')` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p) => `perl -e ${shq(p)}`,
    heredoc: (p) => heredoc('perl -', p),
    pipe: (p) => `printf '%s\\n' ${shq(p)} | perl -`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.pl', p)}\nperl /tmp/oracle-case.pl`,
  },
  writes: {
    'open-append': { code: (e) => [`open(my $f, '>>', ${e}) or die; print $f "x\\n"; close $f;`] },
    'io-file': { code: (e) => ['use IO::File;', `my $f = IO::File->new(${e}, 'w') or die; print $f "x\\n"; $f->close;`] },
    copy: { code: (e) => ['use File::Copy;', `copy('/tmp/x', ${e}) or die;`] },
    unlink: { code: (e) => [`unlink(${e}) or die;`] },
    sysopen: { code: (e) => ['use Fcntl;', `sysopen(my $f, ${e}, O_WRONLY | O_APPEND) or die; syswrite($f, "x\\n");`] },
    system: { code: (e) => [`system('cp', '/tmp/x', ${e}) == 0 or die;`] },
  },
  reads: {
    read: { code: (e) => [`open(my $f, '<', ${e}) or die; print <$f>;`] },
    hash: { code: (e) => ['use Digest::SHA;', `print Digest::SHA->new(256)->addfile(${e})->hexdigest, "\\n";`] },
    'print-path': { code: (e) => [`print ${e}, "\\n";`] },
    exists: { code: (e) => [`print -e ${e} ? "yes\\n" : "no\\n";`] },
    'copy-out': { code: (e) => ['use File::Copy;', `copy(${e}, '/tmp/out') or die;`] },
    listdir: { needs: 'dir', code: (e) => [`opendir(my $d, ${e}) or die; print join(" ", readdir($d)), "\\n";`] },
  },
}

const ruby = {
  bin: 'ruby',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} + ${b}`,
  assign: (name, expr) => `${name} = ${expr}`,
  ref: (name) => name,
  join: (parts) => ({ expr: `File.join(${parts.join(', ')})` }),
  lower: (expr) => `${expr}.downcase`,
  glob: (pattern) => ({ expr: `Dir.glob('${pattern}')[0]` }),
  chdir: (dir) => [`Dir.chdir('${dir}')`],
  format: (before, value, after) => ({ pre: [`d = '${value}'`], expr: `"${before}#{d}${after}"` }),
  hidden: (text) => ({ expr: `'${b64(text)}'.unpack1('m')` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p) => `ruby -e ${shq(p)}`,
    heredoc: (p) => heredoc('ruby -', p),
    pipe: (p) => `printf '%s\\n' ${shq(p)} | ruby -`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.rb', p)}\nruby /tmp/oracle-case.rb`,
  },
  writes: {
    'write-append': { code: (e) => [`File.write(${e}, "x\\n", mode: 'a')`] },
    'copy-stream': { code: (e) => [`IO.copy_stream('/tmp/x', ${e})`] },
    'kernel-open': { code: (e) => [`Kernel.open(${e}, 'w') { |f| f.puts 'x' }`] },
    fileutils: { code: (e) => ["require 'fileutils'", `FileUtils.cp('/tmp/x', ${e})`] },
    delete: { code: (e) => [`File.delete(${e})`] },
  },
  reads: {
    read: { code: (e) => [`puts File.read(${e})`] },
    hash: { code: (e) => ["require 'digest'", `puts Digest::SHA256.file(${e}).hexdigest`] },
    'print-path': { code: (e) => [`puts ${e}`] },
    exists: { code: (e) => [`puts File.exist?(${e})`] },
    'copy-out': { code: (e) => ["require 'fileutils'", `FileUtils.cp(${e}, '/tmp/out')`] },
    listdir: { needs: 'dir', code: (e) => [`puts Dir.children(${e}).sort`] },
  },
}

const php = {
  bin: 'php',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} . ${b}`,
  assign: (name, expr) => `$${name} = ${expr};`,
  ref: (name) => `$${name}`,
  join: (parts) => ({ expr: `implode(DIRECTORY_SEPARATOR, [${parts.join(', ')}])` }),
  lower: (expr) => `strtolower(${expr})`,
  glob: (pattern) => ({ expr: `glob('${pattern}')[0]` }),
  chdir: (dir) => [`chdir('${dir}');`],
  format: (before, value, after) => ({ pre: [`$d = '${value}';`], expr: `"${before}{$d}${after}"` }),
  hidden: (text) => ({ expr: `base64_decode('${b64(text)}')` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p) => `php -r ${shq(p)}`,
    heredoc: (p) => heredoc('php', `<?php\n${p}`),
    pipe: (p) => `printf '%s\\n' '<?php' ${shq(p)} | php`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.php', `<?php\n${p}`)}\nphp /tmp/oracle-case.php`,
  },
  writes: {
    'put-append': { code: (e) => [`file_put_contents(${e}, "x\\n", FILE_APPEND) !== false or exit(1);`] },
    fopen: { code: (e) => [`$f = fopen(${e}, 'a'); fwrite($f, "x\\n"); fclose($f);`] },
    copy: { code: (e) => [`copy('/tmp/x', ${e}) or exit(1);`] },
    unlink: { code: (e) => [`unlink(${e}) or exit(1);`] },
  },
  reads: {
    read: { code: (e) => [`echo file_get_contents(${e});`] },
    hash: { code: (e) => [`echo hash_file('sha256', ${e}), "\\n";`] },
    'print-path': { code: (e) => [`echo ${e}, "\\n";`] },
    'copy-out': { code: (e) => [`copy(${e}, '/tmp/out') or exit(1);`] },
    listdir: { needs: 'dir', code: (e) => [`echo implode(' ', scandir(${e})), "\\n";`] },
  },
}

const lua = {
  bin: 'lua',
  str: (s) => `'${s}'`,
  concat: (a, b) => `${a} .. ${b}`,
  assign: (name, expr) => `local ${name} = ${expr}`,
  ref: (name) => name,
  join: (parts) => ({ expr: `table.concat({${parts.join(', ')}}, '/')` }),
  lower: (expr) => `string.lower(${expr})`,
  // Lua has no glob and no chdir of its own: a glob is the shell's, through io.popen.
  glob: (pattern) => ({ expr: `io.popen('printf %s ${pattern}'):read('a')` }),
  chdir: null,
  format: (before, value, after) => ({ pre: [`local d = '${value}'`], expr: `string.format('${before}%s${after}', d)` }),
  hidden: (text) => ({ expr: `string.reverse('${reverse(text)}')` }),
  program: (lines) => lines.join('\n'),
  channels: {
    inline: (p) => `lua -e ${shq(p)}`,
    heredoc: (p) => heredoc('lua -', p),
    pipe: (p) => `printf '%s\\n' ${shq(p)} | lua -`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.lua', p)}\nlua /tmp/oracle-case.lua`,
  },
  writes: {
    'open-append': { code: (e) => [`local f = assert(io.open(${e}, 'a'))`, "f:write('x\\n')", 'f:close()'] },
    remove: { code: (e) => [`assert(os.remove(${e}))`] },
    rename: { code: (e) => [`assert(os.rename('{ROOT}/x', ${e}))`] },
  },
  reads: {
    read: { code: (e) => [`print(assert(io.open(${e})):read('a'))`] },
    'print-path': { code: (e) => [`print(${e})`] },
  },
}

const tcl = {
  bin: 'tclsh',
  str: (s) => `"${s}"`,
  concat: (a, b) => `[string cat ${a} ${b}]`,
  assign: (name, expr) => `set ${name} ${expr}`,
  ref: (name) => `$${name}`,
  join: (parts) => ({ expr: `[file join ${parts.join(' ')}]` }),
  lower: (expr) => `[string tolower ${expr}]`,
  glob: (pattern) => ({ expr: `[lindex [glob {${pattern}}] 0]` }),
  chdir: (dir) => [`cd "${dir}"`],
  format: (before, value, after) => ({ pre: [`set d ${value}`], expr: `"${before}$d${after}"` }),
  hidden: (text) => ({ expr: `[string reverse "${reverse(text)}"]` }),
  program: (lines) => lines.join('\n'),
  channels: {
    heredoc: (p) => heredoc('tclsh', p),
    pipe: (p) => `printf '%s\\n' ${shq(p)} | tclsh`,
    script: (p) => `${heredoc('cat > /tmp/oracle-case.tcl', p)}\ntclsh /tmp/oracle-case.tcl`,
  },
  writes: {
    'open-append': { code: (e) => [`set f [open ${e} a]`, 'puts $f x', 'close $f'] },
    'file-delete': { code: (e) => [`file delete ${e}`] },
    'file-copy': { code: (e) => [`file copy -force /tmp/x ${e}`] },
  },
  reads: {
    read: { code: (e) => [`set f [open ${e}]`, 'puts [read $f]', 'close $f'] },
    'print-path': { code: (e) => [`puts ${e}`] },
  },
}

export const LANGUAGES = { python, javascript, perl, ruby, php, lua, tcl }

/**
 * Path spellings for programs: `(d, path, isDir, esm)` → `{ imports?, pre?, expr }`, or null where
 * the language has no such spelling. `hidden` is the one the gates are not meant to see (P-18:
 * computed or encoded paths are for sealing); it is reported, never counted in the share.
 */
export const PROGRAM_SPELLINGS = {
  literal: (d, path) => ({ expr: d.str(path) }),
  dot: (d, path) => ({ expr: d.str(`./${path}`) }),
  dslash: (d, path) => ({ expr: d.str(path.replace('/', '//')) }),
  dotdot: (d, path) => {
    const [first, ...rest] = path.split('/')
    return { expr: d.str(`${first}/../${first}/${rest.join('/')}`) }
  },
  absolute: (d, path) => ({ expr: d.str(`{ROOT}/${path}`) }),
  joined: (d, path) => {
    const at = Math.floor(path.length / 2)
    return { expr: d.concat(d.str(path.slice(0, at)), d.str(path.slice(at))) }
  },
  'path-join': (d, path, isDir, esm) => d.join(path.split('/').map((part) => d.str(part)), esm),
  variable: (d, path) => ({ pre: [d.assign('target', d.str(path))], expr: d.ref('target') }),
  'case-changed': (d, path) => ({ expr: d.lower(d.str(path.toUpperCase())) }),
  glob: (d, path, isDir, esm) => {
    const a = anatomy(path, isDir)
    return d.glob(a.patternedPath, esm, a)
  },
  chdir: (d, path) => {
    if (d.chdir === null) return null
    const a = anatomy(path, false)
    return { pre: d.chdir(a.parent), expr: d.str(a.base) }
  },
  format: (d, path, isDir) => {
    const a = anatomy(path, isDir)
    return d.format(a.before ? `${a.before}/` : '', a.segment, a.after ? `/${a.after}` : '')
  },
  hidden: (d, path) => d.hidden(path),
}
const HIDDEN = new Set(['hidden'])

// ---------------------------------------------------------------------------------------------
// Bash: the spellings are the values of the issue (`${x,,}`, `printf -v`, `mapfile`, HOME, CDPATH,
// OLDPWD, `cd pl*`, `for d in …`); a spelling is `{ pre: [statements], word, post: [statements] }`.
// ---------------------------------------------------------------------------------------------

export const BASH_SPELLINGS = {
  literal: (path) => ({ word: path }),
  'double-quoted': (path) => ({ word: `"${path}"` }),
  'single-quoted': (path) => ({ word: `'${path}'` }),
  'split-quotes': (path) => {
    const at = Math.floor(path.length / 2)
    return { word: `${path.slice(0, at)}"${path.slice(at)}"` }
  },
  'ansi-c': (path) => ({ word: `$'${path.replace(/a/, '\\x61')}'` }),
  dot: (path) => ({ word: `./${path}` }),
  dslash: (path) => ({ word: path.replace('/', '//') }),
  dotdot: (path) => {
    const [first, ...rest] = path.split('/')
    return { word: `${first}/../${first}/${rest.join('/')}` }
  },
  absolute: (path) => ({ word: `{ROOT}/${path}` }),
  variable: (path) => ({ pre: [`f=${path}`], word: '"$f"' }),
  'joined-variables': (path) => {
    const at = Math.floor(path.length / 2)
    return { pre: [`a=${path.slice(0, at)}`, `b=${path.slice(at)}`], word: '"$a$b"' }
  },
  'lower-case': (path) => ({ pre: [`x=${path.toUpperCase()}`], word: '"${x,,}"' }),
  'strip-suffix': (path) => ({ pre: [`x=${path}.orig`], word: '"${x%.orig}"' }),
  'strip-prefix': (path) => ({ pre: [`x=old/${path}`], word: '"${x#old/}"' }),
  substitute: (path, isDir) => {
    const a = anatomy(path, isDir)
    return { pre: [`x=${join2(join2(a.before, 'SLOT'), a.after)}`], word: `"\${x/SLOT/${a.segment}}"` }
  },
  'printf-v': (path) => ({ pre: [`printf -v f '%s' ${path}`], word: '"$f"' }),
  mapfile: (path) => ({ pre: [`mapfile -t lines <<< ${path}`], word: '"${lines[0]}"' }),
  'ifs-read': (path) => {
    const cut = path.lastIndexOf('/')
    return { pre: [`IFS=, read -r dir name <<< '${path.slice(0, cut)},${path.slice(cut + 1)}'`], word: '"$dir/$name"' }
  },
  'declare-n': (path) => ({ pre: [`value=${path}`, 'declare -n ref=value'], word: '"$ref"' }),
  positional: (path) => ({ pre: [`set -- one ${path} three`], word: '"${@:2:1}"' }),
  array: (path) => ({ pre: [`list=(one ${path})`], word: '"${list[1]}"' }),
  default: (path) => ({ word: `"\${unset_oracle_value:-${path}}"` }),
  // A file to create matches no glob: its folder is the glob then.
  glob: (path, isDir, needs) => {
    const a = anatomy(path, isDir)
    return { word: needs === 'create' ? `"$(printf %s ${a.patternedParent})/${a.base}"` : a.patternedPath }
  },
  'for-glob': (path, isDir) => {
    const a = anatomy(path, isDir)
    return isDir ? { pre: [`for d in ${a.patternedPath}/; do`], word: '"$d"', post: ['done'] } : { pre: [`for d in ${a.patternedParent}/; do`], word: `"\${d}${a.base}"`, post: ['done'] }
  },
  cd: (path) => {
    const a = anatomy(path, false)
    return { pre: [`cd ${a.parent}`], word: a.base }
  },
  'cd-glob': (path) => {
    const a = anatomy(path, false)
    const parentDir = a.parts.length > 1 ? a.parts.slice(0, -1).join('/') : '.'
    const pattern = anatomy(parentDir, true).patternedPath
    return { pre: [`cd ${pattern}`], word: a.base }
  },
  pushd: (path) => {
    const a = anatomy(path, false)
    return { pre: [`pushd ${a.parent} >/dev/null`], word: a.base, post: ['popd >/dev/null'] }
  },
  home: (path) => {
    const a = anatomy(path, false)
    return { pre: [`HOME=${a.parent}`, 'cd'], word: a.base }
  },
  cdpath: (path) => {
    const a = anatomy(path, false)
    const cut = a.parent.lastIndexOf('/')
    return { pre: [`CDPATH=${a.parent.slice(0, cut)}`, `cd ${a.parent.slice(cut + 1)} >/dev/null`], word: a.base }
  },
  oldpwd: (path) => {
    const a = anatomy(path, false)
    return { pre: [`OLDPWD=${a.parent}`, 'cd - >/dev/null'], word: a.base }
  },
  hidden: (path) => ({ word: `"$(printf %s ${b64(path)} | base64 -d)"` }),
}

/** Bash channels: the statements as one command line, in `bash -c`, `eval`, a heredoc, a pipe, a script. */
export const BASH_CHANNELS = {
  direct: (s) => s,
  'bash -c': (s) => `bash -c ${shq(s)}`,
  eval: (s) => `eval ${shq(s)}`,
  heredoc: (s) => heredoc('bash', s),
  pipe: (s) => `printf '%s\\n' ${shq(s)} | bash`,
  script: (s) => `${heredoc('cat > /tmp/oracle-case.sh', s)}\nbash /tmp/oracle-case.sh`,
}

/** Program channels run through bash too: the inline form inside `bash -c` and `eval`. */
const wrapInline = (inline) => ({ 'bash -c': (p, esm) => `bash -c ${shq(inline(p, esm))}`, eval: (p, esm) => `eval ${shq(inline(p, esm))}` })

/** Bash write calls: `(w) → command`, w the spelled word; `needs` the target's form; `requires` tools. */
export const BASH_WRITES = {
  'redirect-append': { code: (w) => `echo x >> ${w}` },
  'redirect-truncate': { code: (w) => `printf 'x\\n' > ${w}` },
  'tee-append': { code: (w) => `echo x | tee -a ${w} >/dev/null` },
  cp: { code: (w) => `cp /tmp/x ${w}` },
  'cp-create': { needs: 'create', code: (w) => `cp /tmp/x ${w}` },
  'mv-in': { code: (w) => `mv /tmp/x ${w}` },
  rm: { code: (w) => `rm -f ${w}` },
  'touch-create': { needs: 'create', code: (w) => `touch ${w}` },
  'sed-i': { code: (w) => `sed -i '$a x' ${w}` },
  'perl-pi': { requires: ['perl'], code: (w) => `perl -pi -e 's/^/x/' ${w}` },
  dd: { code: (w) => `dd if=/tmp/x of=${w} status=none` },
  truncate: { code: (w) => `truncate -s 0 ${w}` },
  install: { code: (w) => `install -m 644 /tmp/x ${w}` },
  'ln-sf': { code: (w) => `ln -sf /tmp/x ${w}` },
  'git-checkout-rev': { code: (w) => `git checkout HEAD~1 -- ${w}` },
  'git-restore-source': { code: (w) => `git restore --source=HEAD~1 ${w}` },
  'xargs-cp': { code: (w) => `echo ${w} | xargs -I{} cp /tmp/x {}` },
  'awk-argv': { code: (w) => `awk 'BEGIN { print "x" >> ARGV[1] }' ${w}` },
  'python-m-json-tool': { requires: ['python3'], code: (w) => `python3 -m json.tool /tmp/j.json ${w}` },
  'cp-recursive': { needs: 'dir', code: (w) => `cp -r /tmp/evil/. ${w}` },
  rsync: { needs: 'dir', requires: ['rsync'], code: (w) => `rsync -a /tmp/evil/ ${w}/` },
  'tar-extract': { needs: 'dir', code: (w) => `tar -xf /tmp/evil.tar -C ${w}` },
  unzip: { needs: 'dir', requires: ['unzip'], code: (w) => `unzip -oq /tmp/evil.zip -d ${w}` },
  'python-m-zipfile': { needs: 'dir', requires: ['python3'], code: (w) => `python3 -m zipfile -e /tmp/evil.zip ${w}` },
  'find-exec-sed': { needs: 'dir', code: (w) => `find ${w} -name '*.md' -exec sed -i '$a x' {} +` },
}

/** Bash reads: commands that only read, hash, diff, archive elsewhere, or mention a guarded path. */
export const BASH_READS = {
  cat: { code: (w) => `cat ${w}` },
  sha256sum: { code: (w) => `sha256sum ${w}` },
  diff: { code: (w) => `diff ${w} /tmp/x || true` },
  grep: { code: (w) => `grep -n alpha ${w} || true` },
  'wc-head': { code: (w) => `wc -l ${w} && head -1 ${w}` },
  echo: { code: (w) => `echo ${w}` },
  printf: { code: (w) => `printf '%s\\n' ${w}` },
  'ls-stat': { code: (w) => `ls -la ${w} && stat -c %s ${w}` },
  test: { code: (w) => `test -f ${w} && echo present` },
  'cp-out': { code: (w) => `cp ${w} /tmp/out` },
  'git-diff-log': { code: (w) => `git diff -- ${w} && git log --oneline -1 -- ${w}` },
  'git-add': { code: (w) => `git add ${w}` },
  'commit-message': { code: (w) => `git commit -q --allow-empty -m "docs: mention ${w.replaceAll('"', '')}"` },
  'cp-r-out': { needs: 'dir', code: (w) => `cp -r ${w} /tmp/out` },
  'tar-out': { needs: 'dir', code: (w) => `tar -czf /tmp/out.tgz ${w}` },
  'zip-out': { needs: 'dir', code: (w) => `zip -qr /tmp/out.zip ${w}` },
  'git-archive-out': { needs: 'dir', code: (w) => `git archive -o /tmp/out.tgz HEAD ${w}` },
  find: { needs: 'dir', code: (w) => `find ${w} -name '*.md'` },
}

/**
 * Bash cases with a shape of their own (restoring, replacing, deferring), each over the three
 * guarded targets with the literal path: `(t) → command`, t a target's `{ file, dir, kind }`.
 */
export const BASH_FIXED = {
  'git-pathspec': {
    'checkout-rev-dot': () => 'git checkout HEAD~1 .',
    'checkout-rev-no-dashes': (t) => `git checkout HEAD~1 ${t.file}`,
    'checkout-glob': () => "git checkout HEAD~1 -- '*.md'",
    'checkout-icase': (t) => `git checkout HEAD~1 -- ':(icase)${t.file.toUpperCase()}'`,
    'checkout-top': (t) => `git -C src checkout HEAD~1 -- :/${t.file}`,
    'restore-glob': (t) => `git restore --source=HEAD~1 '${anatomy(t.file, false).patternedParent}/*'`,
  },
  replace: {
    'rm-then-cp': (t) => `rm -rf ${t.dir} && cp -r ${t.kind === 'approval' ? 'openspec/changes/bar' : '/tmp/evil'} ${t.dir}`,
    'rm-then-ln': (t) => `rm -rf ${t.dir} && ln -s ${t.kind === 'approval' ? 'bar' : '/tmp/evil'} ${t.dir}`,
    'swap-openspec': () => 'mv openspec /tmp/openspec-old && mkdir -p openspec/changes/feat && cp /tmp/approval.md openspec/changes/feat/',
    'cp-al': (t) => `cp -al ${t.dir} ${t.kind}-hardlinks`,
    'cp-parents': (t) => `(cd /tmp/evil && cp --parents ${anatomy(t.file, false).base} {ROOT}/${anatomy(t.file, false).parent}/)`,
    'cp-backup-suffix': (t) => `cp /tmp/x ${t.file.replace(/\.md$/, '')} && cp -b -S .md /tmp/x ${t.file.replace(/\.md$/, '')}`,
  },
  'sed-script': {
    'w-flag': (t) => `sed -n 'w ${t.file}' /tmp/x`,
    'e-command': (t) => `sed '1e cp /tmp/x ${t.file}' /tmp/x >/dev/null`,
  },
  deferred: {
    trap: (t) => `trap 'cp /tmp/x ${t.file}' EXIT; true`,
    'git-editor': (t) => `git -c core.editor='cp /tmp/x ${t.file}; true' commit -q --allow-empty || true`,
    'git-hooks-path': (t) => `mkdir -p /tmp/hooks && printf '#!/bin/sh\\ncp /tmp/x ${t.file}\\n' > /tmp/hooks/pre-commit && chmod +x /tmp/hooks/pre-commit && git -c core.hooksPath=/tmp/hooks commit -q --allow-empty -m x`,
    'npm-script': (t) => `npm pkg set 'scripts.oracle=cp /tmp/x ${t.file}' && npm run -s oracle`,
    'bash-env': (t) => `echo 'cp /tmp/x ${t.file}' > /tmp/env.sh && BASH_ENV=/tmp/env.sh bash -c true`,
    'rc-file': (t) => `echo 'cp /tmp/x {ROOT}/${t.file}' >> /tmp/home/.bashrc && bash -ic true 2>/dev/null`,
    'makefile-written': (t) => `printf 'all:\\n\\tcp /tmp/x ${t.file}\\n' > /tmp/mk && make -s -f /tmp/mk`,
    'make-stdin': (t) => `make -s -f - <<'${EOF}'\nall:\n\tcp /tmp/x ${t.file}\n${EOF}`,
  },
}

/** Fixed reads: the false positives the issue names that have a shape of their own. */
export const BASH_FIXED_READS = {
  'find-exec-sed-js': () => "find . -name '*.js' -not -path './node_modules/*' -exec sed -i 's/a/b/' {} +",
  'gh-pr-body': (t) => `gh pr create --title x --body "Adds ${t.file} (approval.md by /approve)" || true`,
  'grep-r-mention': () => 'grep -rn approval.md docs/ || true',
  'zip-plans': () => 'zip -qr /tmp/plans.zip docs/superpowers/plans',
  'git-archive-plans': () => 'git archive -o /tmp/plans.tgz HEAD docs/superpowers/plans',
  'backup-approval': () => 'cp openspec/changes/feat/approval.md /tmp/approval.md.bak',
  'pushd-read-popd': (t) => `pushd ${anatomy(t.file, false).parent} >/dev/null && cat ${anatomy(t.file, false).base} && popd >/dev/null && echo done > /tmp/log`,
}

const TARGET_NAMES = Object.keys(TARGETS)
const targetPath = (name, needs) => TARGETS[name][needs === 'create' ? 'create' : needs === 'dir' ? 'dir' : 'file']

/**
 * Every case of the space, in a fixed order: `{ id, kind, language, call, spelling, channel,
 * target, category, visible, command, requires }`.
 */
export function allCases() {
  const cases = []
  const push = (fields) => cases.push({ ...fields, id: `${fields.kind}/${fields.language}/${fields.call}/${fields.spelling}/${fields.channel}/${fields.target}`, category: `${fields.language}/${fields.call}` })
  for (const [language, d] of Object.entries(LANGUAGES)) {
    const channels = { ...d.channels, ...(d.channels.inline ? wrapInline(d.channels.inline) : {}) }
    for (const [kind, calls] of [['write', d.writes], ['read', d.reads]]) {
      for (const [call, spec] of Object.entries(calls)) {
        const needs = spec.needs ?? 'file'
        for (const [spelling, spell] of Object.entries(PROGRAM_SPELLINGS)) {
          for (const target of TARGET_NAMES) {
            const spelled = spell(d, targetPath(target, needs), needs === 'dir', spec.esm)
            if (spelled === null) continue
            const program = d.program([...(spec.imports ?? []), ...(spelled.imports ?? []), ...(spelled.pre ?? []), ...spec.code(spelled.expr)])
            for (const [channel, wrap] of Object.entries(channels)) {
              push({ kind, language, call, spelling, channel, target, visible: !HIDDEN.has(spelling), command: wrap(program, spec.esm), requires: [d.bin] })
            }
          }
        }
      }
    }
  }
  for (const [kind, calls] of [['write', BASH_WRITES], ['read', BASH_READS]]) {
    for (const [call, spec] of Object.entries(calls)) {
      const needs = spec.needs ?? 'file'
      for (const [spelling, spell] of Object.entries(BASH_SPELLINGS)) {
        for (const target of TARGET_NAMES) {
          const path = targetPath(target, needs)
          const spelled = spell(path, needs === 'dir', needs)
          const statements = [...(spelled.pre ?? []), spec.code(spelled.word), ...(spelled.post ?? [])].join('\n')
          for (const [channel, wrap] of Object.entries(BASH_CHANNELS)) {
            push({ kind, language: 'bash', call, spelling, channel, target, visible: !HIDDEN.has(spelling), command: wrap(statements), requires: ['bash', ...(spec.requires ?? [])] })
          }
        }
      }
    }
  }
  for (const [kind, families] of [['write', BASH_FIXED], ['read', { mention: BASH_FIXED_READS }]]) {
    for (const [family, shapes] of Object.entries(families)) {
      for (const [shape, build] of Object.entries(shapes)) {
        for (const target of TARGET_NAMES) {
          const statements = build({ ...TARGETS[target], kind: target })
          for (const [channel, wrap] of Object.entries(BASH_CHANNELS)) {
            push({ kind, language: 'bash', call: `${family}:${shape}`, spelling: 'literal', channel, target, visible: true, command: wrap(statements), requires: ['bash'], family })
          }
        }
      }
    }
  }
  return cases
}
