//! The grammar's reading of JavaScript, in both directions: each shape that writes a guarded
//! location is judged as writing it, and the same shape on another path, or a read, is not.

use std::path::Path;

use crate::programs::{Language, judge};

fn writes(program: &str) -> Vec<String> {
    let mut writes = judge(Language::JavaScript, Some(program), &[], Path::new("/repo")).written();
    writes.sort();
    writes.dedup();
    writes
}

fn commands(program: &str) -> Vec<String> {
    judge(Language::JavaScript, Some(program), &[], Path::new("/repo")).commands
}

const APPROVAL: &str = "openspec/changes/c/approval.md";

fn place() -> crate::programs::Place<'static> {
    crate::programs::Place { dir: Path::new("/repo"), temporary: Some("/tmp") }
}

fn writes_approval(program: &str) {
    let found = writes(program);
    assert!(found.iter().any(|w| w.to_ascii_lowercase().ends_with("approval.md")), "{program}: {found:?}");
}

fn writes_nothing_guarded(program: &str) {
    let found = writes(program);
    assert!(
        !found.iter().any(|w| crate::paths::names_guarded(w, crate::paths::Dialect::Program)),
        "{program}: {found:?}"
    );
}

#[test]
fn destructured_aliases_write_what_the_function_writes() {
    writes_approval(&format!("const {{appendFileSync: w}} = require('fs'); w('{APPROVAL}', 'x')"));
    writes_approval(&format!("const {{promises: p}} = require('fs'); p.writeFile('{APPROVAL}', 'x')"));
    writes_approval(&format!("import {{ rmSync as r }} from 'node:fs'; r('{APPROVAL}')"));
    writes_approval(&format!("const w = require('fs').writeFileSync; w('{APPROVAL}', 'x')"));
    writes_nothing_guarded("const {appendFileSync: w} = require('fs'); w('notes.txt', 'x')");
    writes_nothing_guarded(&format!("const {{readFileSync: r}} = require('fs'); console.log(r('{APPROVAL}', 'utf8'))"));
}

#[test]
fn computed_members_are_resolved_or_unproven() {
    writes_approval(&format!("const fs = require('fs'); fs['write' + 'FileSync']('{APPROVAL}', 'x')"));
    writes_approval(&format!("const fs = require('fs'); const n = 'appendFileSync'; fs[n]('{APPROVAL}', 'x')"));
    // A member the analysis cannot compute could be any writer.
    writes_approval(&format!("const fs = require('fs'); fs[process.argv[2]]('{APPROVAL}', 'x')"));
    writes_nothing_guarded("const fs = require('fs'); fs['write' + 'FileSync']('out.txt', 'x')");
    writes_nothing_guarded(&format!("const fs = require('fs'); fs['read' + 'FileSync']('{APPROVAL}')"));
}

#[test]
fn call_apply_and_bind_are_the_function_they_call() {
    writes_approval(&format!("const fs = require('fs'); fs.writeFileSync.call(fs, '{APPROVAL}', 'x')"));
    writes_approval(&format!("const fs = require('fs'); fs.appendFileSync.apply(fs, ['{APPROVAL}', 'x'])"));
    writes_approval(&format!("const fs = require('fs'); fs.writeFileSync.bind(fs, '{APPROVAL}')('x')"));
    writes_approval(&format!("const fs = require('fs'); const w = fs.writeFileSync.bind(fs); w('{APPROVAL}', 'x')"));
    writes_nothing_guarded("const fs = require('fs'); fs.writeFileSync.call(fs, 'out.txt', 'x')");
    writes_nothing_guarded(&format!("const fs = require('fs'); fs.readFileSync.call(fs, '{APPROVAL}')"));
}

#[test]
fn copies_moves_and_streams_write_their_destination() {
    let dir = "openspec/changes/c";
    assert_eq!(writes(&format!("require('fs').cpSync('/tmp/evil', '{dir}', {{recursive: true}})")), [dir]);
    writes_approval(&format!("const s = require('fs').createWriteStream('{APPROVAL}'); s.write('x'); s.end()"));
    writes_approval(&format!("require('fs').renameSync('/tmp/a', '{APPROVAL}')"));
    writes_approval(&format!("require('fs').symlinkSync('/tmp/a', '{APPROVAL}')"));
    writes_approval(&format!("require('fs').truncateSync('{APPROVAL}')"));
    writes_nothing_guarded(&format!("require('fs').copyFileSync('{APPROVAL}', '/tmp/backup.md')"));
    writes_nothing_guarded(&format!("const s = require('fs').createReadStream('{APPROVAL}'); s.pipe(process.stdout)"));
}

#[test]
fn joins_and_bound_names_compute_the_path() {
    writes_approval(
        "const p = require('path'); require('fs').writeFileSync(p.join('openspec', 'changes', 'c', 'approval.md'), 'x')",
    );
    writes_approval("const d = 'openspec/changes/c'; require('fs').writeFileSync(`${d}/approval.md`, 'x')");
    writes_approval(
        "const f = ['openspec', 'changes', 'c', 'approval.md'].join('/'); require('fs').writeFileSync(f, 'x')",
    );
    writes_approval("let f = 'openspec/changes/c/'; f += 'approval.md'; require('fs').writeFileSync(f, 'x')");
    writes_approval(
        "process.env.T = 'openspec/changes/c/approval.md'; require('fs').writeFileSync(process.env.T, 'x')",
    );
    writes_nothing_guarded(
        "const p = require('path'); require('fs').writeFileSync(p.join('build', 'approval.txt'), 'x')",
    );
}

#[test]
fn child_processes_hand_their_command_lines_to_the_walker() {
    assert_eq!(commands("require('child_process').execSync('touch out.txt')"), ["touch out.txt"]);
    assert_eq!(commands("const {execFileSync: x} = require('child_process'); x('touch', ['a b'])"), ["touch 'a b'"]);
    assert_eq!(commands("const cp = require('child_process'); cp.spawnSync('rm', ['-f', 'x'])"), ["rm -f x"]);
    // A regular expression's exec runs nothing.
    assert!(commands("console.log(/a/.exec('abc'))").is_empty());
    writes_approval(&format!("require('child_process').execSync(process.argv[2]); // {APPROVAL}"));
}

#[test]
fn unknown_calls_make_every_named_guarded_location_written() {
    writes_approval(&format!("const helper = require('./helper'); helper.save('{APPROVAL}')"));
    writes_approval(&format!("eval(\"require('fs').writeFileSync('{APPROVAL}', 'x')\")"));
    writes_approval(&format!("import('fs').then(m => m.writeFileSync('{APPROVAL}', 'x'))"));
    writes_approval(&format!("const lib = require('some-lib'); lib.doIt('{APPROVAL}')"));
    writes_approval(&format!("new Function('p', 'require(\"fs\").writeFileSync(p, \"x\")')('{APPROVAL}')"));
    // Unknown calls in a program that names no guarded location are not the gates' business.
    assert!(writes("const lib = require('some-lib'); lib.doIt('notes.md')").is_empty());
}

#[test]
fn reading_printing_and_hashing_plans_stay_allowed() {
    let plan = "docs/superpowers/plans/p.md";
    writes_nothing_guarded(&format!("console.log('{plan}')"));
    writes_nothing_guarded(&format!(
        "const fs = require('fs'); const {{ createHash }} = require('crypto'); \
         console.log(createHash('sha256').update(fs.readFileSync('{plan}')).digest('hex'))"
    ));
    writes_nothing_guarded(&format!(
        "const fs = require('fs'); const t = fs.readFileSync('{plan}', 'utf8'); \
         const n = t.split('\\n').filter(l => l.startsWith('- [ ]')).length; process.stdout.write(String(n))"
    ));
    writes_nothing_guarded(&format!(
        "const fs = require('fs'); if (fs.existsSync('{plan}')) console.log(fs.statSync('{plan}').size)"
    ));
    writes_nothing_guarded(&format!(
        "function count(text) {{ return text.split('\\n').length }} console.log(count(require('fs').readFileSync('{plan}', 'utf8')))"
    ));
    writes_nothing_guarded(&format!("const fd = require('fs').openSync('{plan}', 'r'); console.log(fd)"));
    writes_nothing_guarded(&format!(
        "require('fs').writeFileSync('/tmp/out.json', JSON.stringify({{ plan: '{plan}' }}))"
    ));
}

#[test]
fn opening_for_writing_writes() {
    writes_approval(&format!("const fd = require('fs').openSync('{APPROVAL}', 'a'); require('fs').writeSync(fd, 'x')"));
}

#[test]
fn a_program_the_parser_cannot_finish_within_its_budget_is_judged_by_its_raw_text() {
    let long: String = (0..6_000).map(|n| format!("console.log({n} + [{n}, ({n})]);\n")).collect();
    let text = format!("{long}console.log('{APPROVAL}')");
    assert!(text.len() < crate::programs::MAX_PROGRAM_BYTES);
    assert_eq!(writes(&text), [APPROVAL]);
    assert!(writes(&long).is_empty());
}

fn node(line: &[&str]) -> Vec<String> {
    let argv: Vec<String> = line.iter().map(|word| word.to_string()).collect();
    let Some(invocation) = crate::programs::invocation(&argv, None) else { return Vec::new() };
    let crate::programs::Source::Text(text) = invocation.source else { return Vec::new() };
    let text = format!("{}{text}", invocation.prelude);
    judge(Language::JavaScript, Some(&text), &invocation.args, Path::new("/repo")).written()
}

#[test]
fn a_local_module_preloaded_by_the_command_line_leaves_the_program_unproven() {
    let code = format!("console.log('{APPROVAL}')");
    assert_eq!(node(&["node", "-r", "./hook.js", "-e", &code]), [APPROVAL]);
    assert_eq!(node(&["node", "--import=./hook.mjs", "-p", &format!("'{APPROVAL}'")]), [APPROVAL]);
    assert_eq!(node(&["node", "--require", "/tmp/x.js", "-e", &code]), [APPROVAL]);
    assert!(node(&["node", "-e", &code]).is_empty());
    assert!(node(&["node", "-r", "./hook.js", "-e", "console.log('notes.md')"]).is_empty());
}

#[test]
fn a_join_with_a_computed_part_is_judged_as_it_stands() {
    let picked = "require('fs').readdirSync('openspec/changes').find((n) => /^f/.test(n))";
    writes_approval(&format!("require('fs').writeFileSync('openspec/changes/' + {picked} + '/approval.md', 'x')"));
    writes_approval(&format!("require('fs').writeFileSync(`openspec/changes/${{{picked}}}/approval.md`, 'x')"));
    let elsewhere = writes(&format!("require('fs').writeFileSync('build/' + {picked} + '.txt', 'x')"));
    assert!(elsewhere.iter().all(|w| !w.contains("approval")), "{elsewhere:?}");
}

#[test]
fn a_plan_folder_picked_at_run_time_is_a_hole_in_the_path() {
    let picked = "require('fs').readdirSync('docs/superpowers').find((n) => /^.*lans$/.test(n))";
    let found = writes(&format!("require('fs').appendFileSync('docs/superpowers/' + {picked} + '/p.md', 'x')"));
    assert_eq!(found, ["docs/superpowers/*/p.md", "docs/superpowers/plans/p.md"]);
}

fn typescript(program: &str) -> crate::programs::Verdict {
    judge(Language::TypeScript, Some(program), &[], Path::new("/repo"))
}

#[test]
fn typescript_is_read_by_its_own_grammar_with_the_types_erased() {
    for program in [
        format!("import * as fs from 'fs';\nconst p: string = '{APPROVAL}';\nfs.writeFileSync(p, 'x');"),
        format!("import {{ appendFileSync as w }} from 'node:fs';\nw('{APPROVAL}' as string, 'x');"),
        format!("import fs from 'fs';\nconst p = ('{APPROVAL}' satisfies string)!;\nfs.rmSync(<string>p);"),
        format!(
            "import fs from 'fs';\ninterface Opts {{ path: string }}\nconst o: Opts = {{ path: '' }};\nfs.writeFileSync('{APPROVAL}', JSON.stringify(o));"
        ),
        format!("import fs from 'fs';\nconst App = () => <div>{{fs.writeFileSync('{APPROVAL}', 'x')}}</div>;"),
    ] {
        let written = typescript(&program).written();
        assert!(written.iter().any(|w| w.ends_with("approval.md")), "{program}: {written:?}");
    }
    let read = format!(
        "import {{ readFileSync }} from 'fs';\nconst text: string = readFileSync('{APPROVAL}', 'utf8');\nconsole.log(text.length as number);"
    );
    let verdict = typescript(&read);
    assert!(verdict.written().is_empty(), "{read}");
}

#[test]
fn typescript_runners_and_script_names_choose_typescript() {
    let language = |line: &[&str]| {
        let argv: Vec<String> = line.iter().map(|word| word.to_string()).collect();
        crate::programs::invocation(&argv, None).map(|invocation| invocation.language)
    };
    assert_eq!(language(&["tsx", "scripts/x.ts"]), Some(Language::TypeScript));
    assert_eq!(language(&["npx", "ts-node", "-e", "1"]), None, "npx is the package runner's business");
    assert_eq!(language(&["ts-node", "-e", "1"]), Some(Language::TypeScript));
    assert_eq!(language(&["deno", "run", "x.js"]), Some(Language::TypeScript));
    assert_eq!(language(&["node", "--experimental-strip-types", "x.mts"]), Some(Language::TypeScript));
    assert_eq!(language(&["bun", "x.tsx"]), Some(Language::TypeScript));
    assert_eq!(language(&["node", "x.js"]), Some(Language::JavaScript));
}

#[test]
fn a_case_changed_string_is_computed() {
    writes_approval("require('fs').writeFileSync('OPENSPEC/CHANGES/C/APPROVAL.MD'.toLowerCase(), 'x')");
    writes_approval("const p = 'openspec/changes/c/approval.md'.toUpperCase().toLowerCase(); require('fs').rmSync(p)");
    writes_nothing_guarded("require('fs').writeFileSync('NOTES.TXT'.toLowerCase(), 'x')");
    // A reading command given the lowered path is proven: nothing is left uncomputed.
    let read =
        "require('child_process').execFileSync('git', ['log', '--', 'OPENSPEC/CHANGES/C/APPROVAL.MD'.toLowerCase()])";
    writes_nothing_guarded(read);
    assert_eq!(commands(read), ["git log -- openspec/changes/c/approval.md"]);
}

#[test]
fn an_argv_runners_options_are_no_argument_of_the_command() {
    let read = format!(
        "require('child_process').execFileSync('git', ['log', '--oneline', '--', '{APPROVAL}'], {{ stdio: 'inherit' }})"
    );
    writes_nothing_guarded(&read);
    assert_eq!(commands(&read), [format!("git log --oneline -- {APPROVAL}")]);
    let remove = format!("require('child_process').execFileSync('rm', ['-f', '{APPROVAL}'], {{ stdio: 'inherit' }})");
    assert_eq!(commands(&remove), [format!("rm -f {APPROVAL}")]);
}

#[test]
fn an_unproven_program_writes_every_guarded_location_it_names() {
    writes_approval(&format!(
        "const fs = require('fs'); fs.writeFileSync('docs/superpowers/plans/p.md', 'x'); fs[process.argv[1]]('{APPROVAL}', 'ok')"
    ));
    writes_approval(&format!("globalThis.Bun.write('{APPROVAL}', 'x')"));
}

#[test]
fn a_bun_file_written_or_deleted_is_its_path() {
    writes_approval(&format!("await Bun.file('{APPROVAL}').delete()"));
    writes_approval(&format!("await Bun.file('{APPROVAL}').unlink()"));
    writes_approval(&format!("await Bun.file('{APPROVAL}').write('x')"));
    writes_approval(&format!("const w = Bun.file('{APPROVAL}').writer(); w.write('x'); w.end()"));
    writes_approval(&format!("const f = Bun.file('{APPROVAL}'); await f.delete()"));
    writes_approval(&format!("await Bun.write(Bun.file('{APPROVAL}'), 'x')"));
    assert_eq!(writes(&format!("const f = globalThis.Bun.file('{APPROVAL}'); await f.write('x')")), [APPROVAL]);
    writes_nothing_guarded("await Bun.file('notes.txt').delete()");
    writes_nothing_guarded(&format!("console.log(await Bun.file('{APPROVAL}').text())"));
    writes_nothing_guarded(&format!("const f = Bun.file('{APPROVAL}'); console.log(f.size, await f.exists())"));
    // A Map's delete is no file's.
    writes_nothing_guarded(&format!("const m = new Map([['{APPROVAL}', 1]]); m.delete('{APPROVAL}')"));
}

#[test]
fn a_bun_file_the_walk_loses_is_unproven() {
    for program in [
        format!("for (const f of [Bun.file('{APPROVAL}')]) f.write('x')"),
        format!("[Bun.file('{APPROVAL}')].forEach(f => f.write('x'))"),
        format!("function w(f) {{ return f.write('x') }}\nw(Bun.file('{APPROVAL}'))"),
        format!("try {{ throw Bun.file('{APPROVAL}') }} catch (f) {{ f.write('x') }}"),
        format!("const {{a: f}} = {{a: Bun.file('{APPROVAL}')}}; f.write('x')"),
        format!("const o = {{f: Bun.file('{APPROVAL}')}}; o.f.write('x')"),
        format!("const f = Bun.file('{APPROVAL}'); const o = {{f}}; o.f.write('x')"),
        format!("const f = Bun.file('{APPROVAL}'); [f].map(g => g.write('x'))"),
        format!("const f = Bun.file('{APPROVAL}'); const w = f.write; w.call(f, 'x')"),
        format!("Promise.resolve(Bun.file('{APPROVAL}')).then(f => f.write('x'))"),
    ] {
        let found = crate::programs::javascript::analyze(&program, place(), super::Flavor::JavaScript);
        assert!(!found.sure, "{program}");
        writes_approval(&program);
    }
    // Read where it stands, bound, or copied out with Bun.write: followed.
    writes_nothing_guarded(&format!("const f = Bun.file('{APPROVAL}'); const g = f; console.log(await g.text())"));
    writes_nothing_guarded(&format!("await Bun.write('/tmp/out', Bun.file('{APPROVAL}'))"));
    writes_nothing_guarded(&format!("const f = Bun.file('{APPROVAL}'); await Bun.write('/tmp/out', f)"));
}

#[test]
fn a_writer_whose_path_the_arguments_do_not_show_is_unproven() {
    writes_approval(&format!("const fs = require('fs'); const a = ['{APPROVAL}', 'x']; fs.writeFileSync(...a)"));
    writes_approval(&format!("const fs = require('fs'); const a = ['{APPROVAL}', 'x']; fs.writeFileSync.apply(fs, a)"));
    writes_approval(&format!("const fs = require('fs'); const a = ['x.md', '{APPROVAL}']; fs.copyFileSync(...a)"));
    writes_approval(&format!("const fs = require('fs'); fs.rmSync(); console.log('{APPROVAL}')"));
    writes_approval(&format!("const fs = require('fs'); const a = ['{APPROVAL}', 'w']; fs.openSync(...a)"));
    writes_approval(&format!("const cp = require('child_process'); const a = ['{APPROVAL}']; cp.spawnSync('rm', a)"));
    writes_approval(&format!("const cp = require('child_process'); cp.spawnSync('rm', ...[['{APPROVAL}']])"));
    // The same calls with their paths in place are judged by them.
    writes_nothing_guarded(&format!(
        "const fs = require('fs'); fs.writeFileSync('out.txt', ...['x']); console.log('{APPROVAL}')"
    ));
    writes_nothing_guarded(&format!("const fs = require('fs'); fs.openSync('{APPROVAL}'); fs.rmSync('out.txt')"));
    writes_nothing_guarded(&format!(
        "require('child_process').spawnSync('ls', {{ stdio: 'inherit' }}); console.log('{APPROVAL}')"
    ));
}

fn unproven(program: &str) -> bool {
    !crate::programs::javascript::analyze(program, place(), super::Flavor::JavaScript).sure
}

#[test]
fn a_writer_passed_as_a_value_writes_what_it_may_be_given() {
    for program in [
        format!("setTimeout(require('fs').rmSync, 0, '{APPROVAL}')"),
        format!("['{APPROVAL}'].forEach(require('fs').unlinkSync)"),
        format!("const fs = require('fs'); setImmediate(fs.rmSync, '{APPROVAL}')"),
        format!("const fs = require('fs'); process.nextTick(fs.rmSync, '{APPROVAL}')"),
        format!("const fs = require('fs'); Promise.resolve('{APPROVAL}').then(fs.rmSync)"),
        format!("const fs = require('fs'); Array.from(['{APPROVAL}'], fs.rmSync)"),
        format!("const fs = require('fs'); JSON.parse('[\"{APPROVAL}\"]', (k, v) => v); JSON.parse('1', fs.rmSync)"),
        format!("const fs = require('fs'); '{APPROVAL}'.replace(/.+/, fs.rmSync)"),
        format!("class K {{ static get x() {{ return require('fs').unlinkSync }} }}; K.x('{APPROVAL}')"),
        format!("const {{rmSync}} = require('fs'); ['{APPROVAL}'].map(rmSync)"),
        format!("const fs = require('fs'); ['{APPROVAL}'].forEach(fs['rm' + 'Sync'])"),
        format!("const fs = require('fs'); module.exports = {{ w: fs.writeFileSync }}; console.log('{APPROVAL}')"),
        format!("['{APPROVAL}'].forEach(require('fs').unlinkSync.bind(null))"),
        format!("const cp = require('child_process'); ['touch {APPROVAL}'].forEach(cp.execSync)"),
        format!("['console.log(\"{APPROVAL}\")'].forEach(eval)"),
        format!("const {{promisify}} = require('util'); ['{APPROVAL}'].forEach(promisify(require('fs').unlink))"),
        format!("const fs = require('fs'); Reflect.apply(fs.unlinkSync, null, ['{APPROVAL}'])"),
        format!("const fs = require('fs'); Function.prototype.call.call(fs.unlinkSync, null, '{APPROVAL}')"),
    ] {
        assert!(unproven(&program), "{program}");
        writes_approval(&program);
    }
    writes_approval(&format!("const fs = require('fs'); fs.unlinkSync.call(null, '{APPROVAL}')"));
    // Read-only callbacks, calls of a writer and names bound to one stay in sight.
    for program in [
        format!("['{APPROVAL}'].forEach(console.log)"),
        format!("const fs = require('fs'); ['{APPROVAL}'].map(p => fs.readFileSync(p, 'utf8')).forEach(console.log)"),
        format!("const fs = require('fs'); const w = fs.writeFileSync; w('out.txt', 'x'); console.log('{APPROVAL}')"),
        format!("const fs = require('fs'); fs.rmSync.call(fs, 'out.txt'); console.log('{APPROVAL}')"),
        format!("console.log(require.resolve('fs'), '{APPROVAL}')"),
        format!(
            "const exec = require('util').promisify(require('child_process').exec); exec('git status').then(() => console.log('{APPROVAL}'))"
        ),
    ] {
        assert!(!unproven(&program), "{program}");
        writes_nothing_guarded(&program);
    }
}

#[test]
fn exec_is_a_regular_expression_s_only_on_one() {
    for program in [
        "const cp = require('child_process'); [cp][0].exec('touch docs/superpowers/plans/p.md')",
        "const m = {c: require('child_process')}; m.c.exec('touch docs/superpowers/plans/p.md')",
        "const cp = require('child_process'); ['touch docs/superpowers/plans/p.md'].forEach([cp][0].exec)",
    ] {
        assert!(unproven(program), "{program}");
        writes_approval(&program.replace("docs/superpowers/plans/p.md", APPROVAL));
    }
    for program in [
        format!("const re = /^- \\[x\\]/gm; let m; while ((m = re.exec('{APPROVAL}'))) console.log(m)"),
        format!("console.log(/approval/.exec('{APPROVAL}'), new RegExp('x').exec('{APPROVAL}'))"),
        format!("const re = new RegExp('c'); console.log((re).exec('{APPROVAL}'))"),
    ] {
        assert!(!unproven(&program), "{program}");
        writes_nothing_guarded(&program);
    }
}

#[test]
fn a_promisified_writer_is_the_writer() {
    writes_approval(&format!("const rm = require('util').promisify(require('fs').unlink); rm('{APPROVAL}')"));
    writes_nothing_guarded(&format!(
        "const read = require('util').promisify(require('fs').readFile); read('{APPROVAL}').then(console.log)"
    ));
    assert_eq!(
        commands("const sh = require('util').promisify(require('child_process').exec); sh('git status')"),
        ["git status"]
    );
}

#[test]
fn a_process_runs_in_its_cwd_and_through_its_shell() {
    assert_eq!(
        commands("require('child_process').execSync('touch p.md', {cwd: 'docs/superpowers/plans'})"),
        ["cd docs/superpowers/plans && touch p.md"]
    );
    assert_eq!(
        commands("require('child_process').execFileSync('git', ['log'], {cwd: 'src', encoding: 'utf8'})"),
        ["cd src && git log"]
    );
    assert_eq!(commands("require('child_process').spawnSync('git', ['log'], {cwd: '/tmp'})"), ["cd /tmp && git log"]);
    assert_eq!(
        commands("require('child_process').spawnSync('touch', ['a;touch docs/superpowers/plans/p.md'], {shell: true})"),
        ["touch a;touch docs/superpowers/plans/p.md"]
    );
    assert_eq!(commands("require('child_process').execSync('cat a', {shell: '/bin/bash'})"), ["/bin/bash -c 'cat a'"]);
    assert_eq!(commands("require('child_process').exec('git log', (e, out) => console.log(out))"), ["git log"]);
    assert!(unproven("const o = {cwd: process.argv[2]}; require('child_process').execSync('ls', o)"));
    assert!(unproven("require('child_process').execSync('ls', {cwd: process.argv[2]})"));
}

#[test]
fn a_symbolic_link_writes_what_it_points_to() {
    assert_eq!(
        writes("require('fs').symlinkSync('/repo/docs/superpowers/plans/p.md', '/tmp/s')"),
        ["/repo/docs/superpowers/plans/p.md", "/tmp/s"]
    );
    assert_eq!(
        writes("require('fs').symlinkSync('plans/p.md', 'docs/superpowers/s')"),
        ["docs/superpowers/plans/p.md", "docs/superpowers/s"]
    );
    assert!(
        writes("require('fs').symlinkSync(process.cwd() + '/docs/superpowers/plans/p.md', '/tmp/s')")
            .iter()
            .any(|w| w.ends_with("/docs/superpowers/plans/p.md"))
    );
    assert_eq!(
        writes("require('fs').linkSync('docs/superpowers/plans/p.md', 'h')"),
        ["docs/superpowers/plans/p.md", "h"]
    );
    assert_eq!(writes("require('fs').symlinkSync('a.md', '/tmp/s')"), ["/tmp/a.md", "/tmp/s"]);
}

fn node_options(line: &[&str], stdin: Option<&str>) -> crate::programs::Invocation {
    let argv: Vec<String> = line.iter().map(|word| word.to_string()).collect();
    crate::programs::invocation(&argv, stdin).expect("node")
}

#[test]
fn node_options_that_write_files_write_them() {
    let writes = |line: &[&str]| node_options(line, None).writes;
    let trees = |line: &[&str]| node_options(line, None).trees;
    assert_eq!(
        writes(&["node", "--redirect-warnings=docs/superpowers/plans/p.md", "-e", "1"]),
        ["docs/superpowers/plans/p.md"]
    );
    assert_eq!(writes(&["node", "--redirect-warnings", "w.txt", "x.js"]), ["w.txt"]);
    assert_eq!(
        node_options(&["node", "--redirect-warnings", "w.txt", "x.js"], None).source,
        crate::programs::Source::File("x.js".into())
    );
    assert_eq!(
        writes(&["node", "--cpu-prof", "--cpu-prof-dir=docs/superpowers/plans", "-e", "1"]),
        ["docs/superpowers/plans/CPU.*.cpuprofile"]
    );
    assert_eq!(writes(&["node", "--cpu_prof", "--cpu_prof_dir=/tmp/prof", "x.js"]), ["/tmp/prof/CPU.*.cpuprofile"]);
    assert_eq!(writes(&["node", "--cpu-prof", "--cpu-prof-name=p.md", "x.js"]), ["p.md"]);
    assert_eq!(writes(&["node", "--cpu-prof", "x.js"]), ["CPU.*.cpuprofile"]);
    assert_eq!(writes(&["node", "--heap-prof", "--diagnostic-dir=d", "x.js"]), ["d/Heap.*.heapprofile"]);
    assert!(trees(&["node", "--heap-prof", "--diagnostic-dir=d", "x.js"]).is_empty());
    assert_eq!(
        writes(&["node", "--report-uncaught-exception", "--report-directory=docs/superpowers/plans", "-e", "throw 1"]),
        ["docs/superpowers/plans/report.*.json"]
    );
    assert_eq!(
        writes(&["node", "--report-on-signal", "--report-dir", "r", "--report-filename", "approval.md", "x.js"]),
        ["r/approval.md"]
    );
    assert_eq!(writes(&["node", "--test", "--test-reporter-destination=out.txt", "t.js"]), ["out.txt"]);
    assert!(writes(&["node", "--test", "--test-reporter-destination=stdout", "t.js"]).is_empty());
    assert_eq!(
        trees(&["node", "--prof", "--no-logfile-per-isolate", "--logfile=docs/superpowers/plans/p.md", "-e", "1"]),
        ["docs/superpowers/plans/p.md"]
    );
    // Options that write nothing.
    for line in [
        &["node", "--max-old-space-size=4096", "--inspect=9229", "-e", "1"][..],
        &["node", "--enable-source-maps", "x.js"],
    ] {
        assert!(writes(line).is_empty() && trees(line).is_empty(), "{line:?}");
    }
}

#[test]
fn an_option_takes_its_value_and_leaves_the_script_to_be_read() {
    for line in [
        &["node", "--unhandled-rejections", "strict", "x.js"][..],
        &["node", "--inspect-port", "9339", "x.js"],
        &["node", "--redirect_warnings", "w.txt", "x.js"],
    ] {
        assert_eq!(node_options(line, None).source, crate::programs::Source::File("x.js".into()), "{line:?}");
    }
    assert_eq!(node_options(&["node", "--redirect_warnings", "w.txt", "x.js"], None).writes, ["w.txt"]);
}

#[test]
fn an_env_file_may_preload_modules_and_a_test_reporter_is_one() {
    let code = format!("console.log('{APPROVAL}')");
    assert_eq!(node(&["node", "--env-file=.env", "-e", &code]), [APPROVAL]);
    assert_eq!(node(&["node", "--openssl-config", "o.cnf", "-e", &code]), [APPROVAL]);
    assert_eq!(node(&["node", "--test-reporter=./reporter.mjs", "-e", &code]), [APPROVAL]);
    assert!(node(&["node", "--test-reporter=spec", "-e", &code]).is_empty());
}

#[test]
fn interactive_reads_standard_input_after_the_evaluated_program() {
    let more = format!("require('fs').rmSync('{APPROVAL}')");
    for line in [&["node", "-i", "-e", "1"][..], &["node", "-e", "1", "-i"], &["node", "--interactive", "-p", "1"]] {
        assert_eq!(
            node_options(line, Some(&more)).source,
            crate::programs::Source::Text(format!("1\n{more}")),
            "{line:?}"
        );
    }
    assert_eq!(node_options(&["node", "-e", "1"], Some(&more)).source, crate::programs::Source::Text("1".into()));
    assert_eq!(node_options(&["node", "-i", "x.js"], Some(&more)).source, crate::programs::Source::File("x.js".into()));
}

#[test]
fn a_dynamic_import_binds_its_module_as_require_does() {
    for program in [
        "import('node:fs').then(fs => console.log(fs.readFileSync('openspec/changes/c/approval.md', 'utf8')))",
        "async function main() {\n  const { readFile } = await import('node:fs/promises')\n  console.log(await readFile('openspec/changes/c/approval.md', 'utf8'))\n}\nmain()",
        "const fs = require('fs')\nconst rows = fs.readdirSync('docs/superpowers/plans', { withFileTypes: true })\n  .filter((d) => d.isFile() || d.isDirectory()).map((d) => d.name)\nconsole.log(rows)",
    ] {
        writes_nothing_guarded(program);
    }
    writes_approval("import('node:fs').then(fs => fs.writeFileSync('openspec/changes/c/approval.md', 'x'))");
    writes_approval(
        "const { writeFile } = await import('node:fs/promises')\nawait writeFile('openspec/changes/c/approval.md', 'x')",
    );
    // A local module is code the analysis does not read; a computed specifier is unknown.
    writes_approval("import('./x.mjs').then(() => console.log('openspec/changes/c/approval.md'))");
    writes_approval("import(process.argv[2]).then(() => console.log('openspec/changes/c/approval.md'))");
    // This package through a dynamic import: its uses come back in a promise, not followed.
    writes_approval("import('approval-gates').then((m) => m[process.argv[1]]('c'))");
}

fn analysis_in(program: &str, temporary: Option<&str>) -> crate::programs::Findings {
    let place = crate::programs::Place { dir: Path::new("/repo"), temporary };
    crate::programs::javascript::analyze(program, place, super::Flavor::JavaScript)
}

#[test]
fn the_temporary_folder_and_the_folders_made_there_are_where_they_are() {
    let read = "fs.readFileSync('docs/superpowers/plans/p.md')";
    for (program, written) in [
        (
            format!(
                "const fs = require('fs'), os = require('os'), path = require('path'); fs.writeFileSync(path.join(os.tmpdir(), 'p.md'), {read})"
            ),
            vec!["/tmp/p.md"],
        ),
        (
            "const fs = require('fs'); const d = fs.mkdtempSync('/tmp/plan-'); fs.copyFileSync('docs/superpowers/plans/p.md', d + '/p.md')"
                .to_string(),
            vec!["/tmp/plan-*", "/tmp/plan-*/p.md"],
        ),
        (
            format!(
                "const fs = require('fs'); const {{tmpdir}} = require('node:os'); fs.writeFileSync(`${{tmpdir()}}/s.txt`, {read}.slice(0, 9))"
            ),
            vec!["/tmp/s.txt"],
        ),
        (
            format!(
                "const fs = require('fs'); (async () => {{ const d = await fs.promises.mkdtemp(require('path').join(require('os').tmpdir(), 'p-')); fs.writeFileSync(d + '/x', {read}) }})()"
            ),
            vec!["/tmp/p-*", "/tmp/p-*/x"],
        ),
    ] {
        let found = analysis_in(&program, Some("/tmp/"));
        assert!(found.sure, "{program} is proven");
        assert_eq!(writes(&program), written, "{program}");
    }
    let plans = "const fs = require('fs'), os = require('os'); fs.writeFileSync(os.tmpdir() + '/p.md', 'x')";
    assert_eq!(analysis_in(plans, Some("docs/superpowers/plans")).writes, ["docs/superpowers/plans/p.md"]);
    writes_approval(&format!(
        "const fs = require('fs'); fs.copyFileSync('x', fs.mkdtempSync('/tmp/p-') + '/approval.md'); '{APPROVAL}'"
    ));
    writes_approval(&format!("const fs = require('fs'); fs.mkdtempSync('openspec/changes/c/a'); '{APPROVAL}'"));
    // What the line leaves uncomputed, and what the program may have changed first: any folder.
    let copied = "fs.writeFileSync(path.join(os.tmpdir(), 'p.md'), fs.readFileSync('docs/superpowers/plans/p.md'))";
    let modules = "const fs = require('fs'), os = require('os'), path = require('path');";
    assert!(!analysis_in(&format!("{modules} {copied}"), None).sure);
    for change in [
        "process.env.TMPDIR = 'docs/superpowers/plans';",
        "process.env['TMP' + 'DIR'] = 'docs/superpowers/plans';",
        "Object.assign(process.env, {TMPDIR: 'docs/superpowers/plans'});",
        "delete process.env.TMPDIR;",
        "const e = process.env; e.TMPDIR = 'docs/superpowers/plans';",
        "const {env} = require('process'); env.TMPDIR = 'x';",
        "globalThis.process.env.TMPDIR = 'x';",
        "(function () { return this })().process.env.TMPDIR = 'x';",
        "os.tmpdir = () => 'docs/superpowers/plans';",
        "Object.assign(os, {tmpdir: () => 'docs/superpowers/plans'});",
        "Object.defineProperty(require('os'), 'tmpdir', {value: () => 'docs/superpowers/plans'});",
        "function f(os) { os.tmpdir = () => 'x' } f(os);",
        "import('os').then((m) => { m.tmpdir = () => 'x' });",
    ] {
        let program = format!("{modules} {change} {copied}");
        assert!(!analysis_in(&program, Some("/tmp")).sure, "{change}");
    }
    for change in [
        "fs.mkdtempSync = () => 'docs/superpowers/plans';",
        "Object.assign(fs.promises, {mkdtemp: async () => 'docs/superpowers/plans'});",
        "let f2 = require('fs'); f2 = {mkdtempSync: () => 'docs/superpowers/plans'};",
    ] {
        let program = format!(
            "{modules} {change} fs.writeFileSync(fs.mkdtempSync('/tmp/p-') + '/p.md', fs.readFileSync('docs/superpowers/plans/p.md'))"
        );
        assert!(!analysis_in(&program, Some("/tmp")).sure, "{change}");
    }
    // Reading the environment, and a program's own names, leave it as it is.
    let reads = format!("{modules} console.log(process.env.HOME, process.argv[2], process.cwd()); {copied}");
    assert!(analysis_in(&reads, Some("/tmp")).sure);
}

#[test]
fn a_name_a_loop_binds_holds_any_value_the_loop_gives_it() {
    let plan = "docs/superpowers/plans/p.md";
    for program in [
        format!(
            "const fs = require('fs'); let p = '/tmp/x'; for (let i = 0; i < 2; i++) {{ fs.writeFileSync(p, 'x'); p = '{plan}' }}"
        ),
        format!(
            "const fs = require('fs'); let p = '/tmp/x'; let i = 0; while (i++ < 2) {{ fs.writeFileSync(p, 'x'); p = '{plan}' }}"
        ),
        format!(
            "const fs = require('fs'); let p = '/tmp/x'; do {{ fs.rmSync(p, {{force: true}}); p = '{plan}' }} while (Math.random() < 2)"
        ),
        format!(
            "const fs = require('fs'); let p = '/tmp/x'; for (const f of [1, 2]) {{ fs.writeFileSync(p, 'x'); p = '{plan}' }}"
        ),
        format!(
            "const fs = require('fs'); let p = '{plan}'; for (const f of []) {{ p = '/tmp/x' }} fs.writeFileSync(p, 'x')"
        ),
        format!("const fs = require('fs'); let p = '/tmp/x'; for (p of ['{plan}']) fs.writeFileSync(p, 'x')"),
        format!("const fs = require('fs'); const p = '/tmp/x'; for (const p of ['{plan}']) fs.writeFileSync(p, 'x')"),
        format!(
            "const fs = require('fs'); let p = '/tmp/x'; for (;;) {{ fs.writeFileSync(p, 'x'); [p] = ['{plan}']; if (p) break }}"
        ),
        format!(
            "const fs = require('fs'); let w = fs.readFileSync; for (let i = 0; i < 2; i++) {{ w('{plan}', 'x'); w = fs.writeFileSync }}"
        ),
        format!(
            "const fs = require('fs'); let w = console.log; for (let i = 0; i < 2; i++) {{ ['{plan}'].forEach(w); w = fs.unlinkSync }}"
        ),
        format!(
            "const fs = require('fs'); let w = console.log; for (let i = 0; i < 2; i++) {{ ['{plan}'].forEach(w); w = fs.rmSync.bind(fs) }}"
        ),
    ] {
        let found = writes(&program);
        assert!(found.iter().any(|w| w.contains("superpowers/plans")), "{program}: {found:?}");
    }
    // Without a loop, an unpacking still leaves the name uncomputed.
    let unpacked = format!("const fs = require('fs'); let p = '/tmp/x'; [p] = ['{plan}']; fs.writeFileSync(p, 'x')");
    assert!(writes(&unpacked).iter().any(|w| w.contains("superpowers/plans")), "{unpacked}");
    for program in [
        "const fs = require('fs'); const files = ['a', 'b']; for (const f of files) fs.writeFileSync('/tmp/out/' + f, 'x')".to_string(),
        format!("const fs = require('fs'); let text = ''; for (const f of ['{plan}']) {{ text += fs.readFileSync(f, 'utf8') }} console.log(text)"),
        format!("const fs = require('fs'); for (let i = 0; i < 2; i++) {{ fs.writeFileSync('/tmp/o', fs.readFileSync('{plan}') + i) }}"),
        format!("const fs = require('fs'); const p = '/tmp/x'; for (let i = 0; i < 2; i++) {{ fs.writeFileSync(p, fs.readFileSync('{plan}')) }}"),
    ] {
        writes_nothing_guarded(&program);
    }
}

#[test]
fn a_loop_value_printed_or_made_a_string_is_not_called() {
    for program in [
        "const fs = require('fs'); for (const f of fs.readdirSync('docs/superpowers/plans')) console.log(f, fs.readFileSync('docs/superpowers/plans/' + f, 'utf8').length)",
        "const fs = require('fs'); const files = fs.readdirSync('docs/superpowers/plans'); for (const f of files) console.log(`${f}: ${fs.readFileSync(`docs/superpowers/plans/${f}`).length}`)",
    ] {
        assert!(!unproven(program), "{program}");
        writes_nothing_guarded(program);
    }
    // A writer a loop binds still escapes where it goes; a program that replaces console's
    // methods, or names the global object, may call what it prints.
    for program in [
        "const fs = require('fs'); for (const w of [fs.unlinkSync]) ['docs/superpowers/plans/p.md'].forEach(w)",
        "const fs = require('fs'); console.log = (f) => f('docs/superpowers/plans/p.md'); for (const w of [fs.unlinkSync]) console.log(w)",
        "const fs = require('fs'); globalThis['con' + 'sole'] = { log: (f) => f('docs/superpowers/plans/p.md') }; for (const w of [fs.unlinkSync]) console.log(w)",
        "const fs = require('fs'); for (const w of [fs.unlinkSync]) (w || w)('docs/superpowers/plans/p.md')",
    ] {
        assert!(unproven(program), "{program}");
    }
}
