//! Python's shapes in both directions: what is written, what is proven read-only, what is unproven.

use std::path::Path;

use super::invocation;
use crate::analysis::handoff::Source;
use crate::programs::{Language, judge};

const PLAN: &str = "docs/superpowers/plans/x.md";

fn writes(program: &str) -> Vec<String> {
    let mut writes = judge(Language::Python, Some(program), &[], Path::new("/repo")).written();
    writes.sort();
    writes
}

fn analysis(program: &str) -> crate::programs::Findings {
    super::analyze(program, crate::programs::Place { dir: Path::new("/repo"), temporary: Some("/tmp") })
}

#[test]
fn aliases_and_bound_names_write_their_target() {
    for program in [
        "import shutil as sh\nsh.copy('/tmp/x', 'docs/superpowers/plans/x.md')",
        "from os import remove as rm\nrm('docs/superpowers/plans/x.md')",
        "w = open\nw('docs/superpowers/plans/x.md', 'a').write('x')",
        "from pathlib import Path\no = Path('docs/superpowers/plans/x.md').open\no(mode='a')",
        "open(file='docs/superpowers/plans/x.md', mode='a')",
        "from pathlib import Path\nPath('docs/superpowers/plans/x.md').open(mode='a')",
        "import io\nio.FileIO('docs/superpowers/plans/x.md', 'w')",
        "import os\nos.write(os.open('docs/superpowers/plans/x.md', os.O_WRONLY | os.O_APPEND), b'x')",
        "import logging\nlog = logging.getLogger('x')\nlog.addHandler(logging.FileHandler('docs/superpowers/plans/x.md'))",
        "import logging\nlogging.basicConfig(filename='docs/superpowers/plans/x.md')",
        "import os\np = os.path.join('docs', 'superpowers', 'plans', 'x.md')\nos.remove(p)",
        "import os\nimport os\nos.remove('docs/superpowers/plans/x.md')",
        "from pathlib import Path\n(Path('docs') / 'superpowers').joinpath('plans', 'x.md').write_text('x')",
        "d = 'plans'\nopen('docs/superpowers/%s/x.md' % d, 'w')",
        "d = 'plans'\nopen('docs/superpowers/{}/{name}.md'.format(d, name='x'), 'w')",
        "import os\nos.environ['P'] = 'docs/superpowers/plans/x.md'\nopen(os.environ['P'], 'w')",
        "import os\nos.environ['P'] = 'docs/superpowers/plans/x.md'\nopen(os.getenv('P'), 'w')",
    ] {
        let found = writes(program);
        assert!(found.iter().any(|w| w.contains("superpowers")), "{program:?} → {found:?}");
    }
}

#[test]
fn joins_compute_the_path() {
    assert_eq!(writes("d = 'plans'\nopen(f'docs/superpowers/{d}/x.md', 'w')"), [PLAN]);
    assert_eq!(writes("open('docs/superpowers/' + 'plans/x.md', 'w')"), [PLAN]);
    assert_eq!(writes("open('/'.join(['docs', 'superpowers', 'plans', 'x.md']), 'w')"), [PLAN]);
    assert_eq!(writes("open('DOCS/SUPERPOWERS/PLANS/X.MD'.lower(), 'w')"), [PLAN]);
    assert_eq!(writes("import os\nos.chdir('docs/superpowers')\nopen('plans/x.md', 'w')"), [PLAN]);
    assert_eq!(writes("open('out.txt', 'w')"), ["out.txt"]);
    assert_eq!(
        writes("import glob\nopen(glob.glob('docs/superpowers/pl*ns/x.md')[0], 'a')"),
        ["docs/superpowers/pl*ns/x.md", PLAN]
    );
}

#[test]
fn archives_write_the_tree_they_extract_into() {
    assert_eq!(
        writes("import tarfile\ntarfile.open('/tmp/a.tar').extractall('docs/superpowers')"),
        ["docs/superpowers"]
    );
    assert_eq!(
        writes("import zipfile\nzipfile.ZipFile('/tmp/a.zip').extractall(path='.superpowers')"),
        [".superpowers"]
    );
    assert_eq!(writes("import tarfile\nt = tarfile.open('/tmp/a.tar')\nt.extractall()"), ["."]);
    assert_eq!(
        writes("import shutil\nshutil.copytree('/tmp/e', 'docs/superpowers', dirs_exist_ok=True)"),
        ["docs/superpowers"]
    );
    // Reading an archive, or adding a plan to one elsewhere, writes only the archive.
    let out = "import tarfile\nt = tarfile.open('/tmp/out.tgz', 'w:gz')\nt.add('docs/superpowers/plans')\nt.close()";
    assert_eq!(writes(out), ["/tmp/out.tgz"]);
    assert!(analysis(out).sure);
    assert!(writes("import tarfile\nprint(tarfile.open('/tmp/a.tar').getnames())").is_empty());
}

#[test]
fn an_archive_bound_by_with_is_followed() {
    for program in [
        "import tarfile\nwith tarfile.open('/tmp/a.tar') as t:\n    t.extractall(path='openspec/changes/c')",
        "import zipfile\nwith zipfile.ZipFile('a.zip') as z: z.extractall('openspec/changes/c')",
        "import tarfile\nwith (tarfile.open('/tmp/a.tar') as t):\n    t.extract('m', 'openspec/changes/c')",
        "import tarfile\nwith open('/tmp/log') as log, tarfile.open('/tmp/a.tar') as t:\n    t.extractall('openspec/changes/c')",
    ] {
        assert_eq!(writes(program), ["openspec/changes/c"], "{program:?}");
        assert!(analysis(program).sure, "{program:?} is proven");
    }
    assert_eq!(writes("import tarfile\nwith tarfile.open('/tmp/a.tar') as t:\n    t.extractall()"), ["."]);
    // Extracting elsewhere, or only reading, is proven.
    let elsewhere = "import tarfile\nwith tarfile.open('/tmp/a.tar') as t:\n    t.extractall('/tmp/out')";
    assert_eq!(writes(elsewhere), ["/tmp/out"]);
    assert!(analysis(elsewhere).sure);
    let listing = "import tarfile\nwith tarfile.open('openspec/changes/c.tar') as t:\n    print(t.getnames())";
    assert!(writes(listing).is_empty());
    assert!(analysis(listing).sure);
    // What another context manager's `__enter__` returns is not known: unproven.
    let closing = "import contextlib, tarfile\nwith contextlib.closing(tarfile.open('/tmp/a.tar')) as t:\n    t.extractall('openspec/changes/c')";
    assert!(!analysis(closing).sure);
    assert_eq!(writes(closing), ["openspec/changes/c"]);
}

#[test]
fn an_extraction_from_a_value_the_walk_lost_writes_its_tree() {
    for program in [
        "import tarfile\nfor t in [tarfile.open('/tmp/a.tar')]:\n    t.extractall('openspec/changes/c')",
        "import tarfile\n[t.extractall('openspec/changes/c') for t in [tarfile.open('/tmp/a.tar')]]",
        "import tarfile\ndef f(t):\n    t.extractall('openspec/changes/c')\nf(tarfile.open('/tmp/a.tar'))",
        "import tarfile\n(lambda t: t.extractall(path='openspec/changes/c'))(tarfile.open('/tmp/a.tar'))",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
        assert_eq!(writes(program), ["openspec/changes/c"], "{program:?}");
    }
    // pandas' `str.extractall(pattern)` is no archive's: a method of a method, not a lost value.
    assert!(writes("import pandas as pd\nprint(pd.read_csv('a.csv')['a'].str.extractall(r'(\\d+)'))").is_empty());
}

#[test]
fn reading_hashing_and_printing_plans_is_proven() {
    for program in [
        "print(open('docs/superpowers/plans/x.md').read())",
        "print(open(file='docs/superpowers/plans/x.md', mode='r').read())",
        "import hashlib\nprint(hashlib.sha256(open('docs/superpowers/plans/x.md', 'rb').read()).hexdigest())",
        "print('see docs/superpowers/plans/x.md')",
        "import os\nprint(os.stat('docs/superpowers/plans/x.md').st_size)",
        "import shutil\nshutil.copy('docs/superpowers/plans/x.md', '/tmp/out')",
        "import difflib\nprint(''.join(difflib.unified_diff(open('docs/superpowers/plans/x.md').readlines(), [])))",
        "import json\nprint(json.dumps({'path': 'docs/superpowers/plans/x.md'}))",
        "import os\nprint(sorted(os.listdir('docs/superpowers/plans')))",
        "from pathlib import Path\nfor line in Path('docs/superpowers/plans/x.md').read_text().splitlines():\n    print(line.startswith('#'))",
        "import json\nd = json.load(open('docs/superpowers/plans/x.md'))\nwith open('report.json', 'w') as f:\n    json.dump(d, f)",
        "def main():\n    print(open('docs/superpowers/plans/x.md').read())\nmain()",
        "import os\nos.open('docs/superpowers/plans/x.md', os.O_RDONLY)",
    ] {
        let found = analysis(program);
        assert!(found.sure, "{program:?} is proven");
        assert!(writes(program).iter().all(|w| !w.contains("superpowers")), "{program:?} → {:?}", writes(program));
    }
}

#[test]
fn an_unknown_call_makes_every_named_location_written() {
    for program in [
        "import requests\nrequests.get(open('docs/superpowers/plans/x.md').read())",
        "import helper\nprint(open('docs/superpowers/plans/x.md').read())",
        "from .local import thing\nprint('docs/superpowers/plans/x.md')",
        "x = getattr(__import__('os'), 'remove')\nx('docs/superpowers/plans/x.md')",
        "exec('print(1)')\nprint('docs/superpowers/plans/x.md')",
        "p = 'docs/superpowers/plans/x.md'\ndef f(obj):\n    obj.save(p)",
        // A name the program never binds raises; one it binds where the walk cannot follow does not.
        "def f():\n    helper('docs/superpowers/plans/x.md')\nhelper = print\nf()",
        "from shutil import *\ncopy('/tmp/x', 'docs/superpowers/plans/x.md')",
        "import os\nf = os.remove\nlist(map(f, ['docs/superpowers/plans/x.md']))",
        "import os\nos.path.exists = os.remove\nos.path.exists('docs/superpowers/plans/x.md')",
        "p = 'a'\nif c:\n    p = 'docs/superpowers/plans/x.md'\nopen(p, 'w')",
        "cmd = ['cat']\ncmd.append('docs/superpowers/plans/x.md')\nimport subprocess\nsubprocess.run(cmd * 2)",
        "import sys\nopen(sys.argv[1], 'w').write(open('docs/superpowers/plans/x.md').read())",
        // A name bound through a namespace, not by a binding site the walk counts.
        "import builtins\nbuiltins.__dict__['w'] = open\nw('docs/superpowers/plans/x.md', 'w')",
        "__builtins__.w = open\nw('docs/superpowers/plans/x.md', 'w')",
        "import sys\nsys.modules['builtins'].w = open\nw('docs/superpowers/plans/x.md', 'w')",
        "try:\n    pass\nexcept Exception as e:\n    e.save('docs/superpowers/plans/x.md')",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
        assert!(writes(program).iter().any(|w| w.contains("superpowers")), "{program:?} → {:?}", writes(program));
    }
    // Unproven, but it names nothing guarded: not our business.
    assert!(writes("import requests\nrequests.get('https://example.com')").is_empty());
}

#[test]
fn processes_go_to_the_walker_as_command_lines() {
    let found = analysis("import subprocess\nsubprocess.run(['git', 'log', '--', 'docs/superpowers/plans/x.md'])");
    assert!(found.sure);
    assert_eq!(found.commands, ["git log -- docs/superpowers/plans/x.md"]);
    let found = analysis("from subprocess import run\nrun('cp a docs/superpowers/plans/x.md', shell=True)");
    assert_eq!(found.commands, ["cp a docs/superpowers/plans/x.md"]);
    let found = analysis("import subprocess, sys\nsubprocess.run(sys.argv[1:])");
    assert!(!found.sure, "an argv the analysis cannot compute is unproven");
}

#[test]
fn a_parse_over_its_budget_is_judged_by_the_raw_text() {
    let huge: String = (0..40_000).map(|n| format!("x{n} = [[[[{n}]]]]\n")).collect();
    assert!(analysis(&huge).over_budget);
    assert!(!analysis("print(1)\n").over_budget);
}

fn module(args: &[&str]) -> Vec<String> {
    let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    let invocation = invocation(&args, None);
    assert_eq!(invocation.source, Source::Nothing);
    invocation.writes.into_iter().chain(invocation.trees).collect()
}

#[test]
fn modules_run_with_dash_m_write_what_their_command_line_says() {
    assert_eq!(module(&["-m", "json.tool", "/tmp/j.json", PLAN]), [PLAN]);
    assert_eq!(module(&["-m", "json.tool", "--sort-keys", "/tmp/j.json", PLAN]), [PLAN]);
    assert!(module(&["-m", "json.tool", PLAN]).is_empty(), "one operand: the output is standard output");
    assert_eq!(module(&["-m", "zipfile", "-e", "/tmp/a.zip", "docs/superpowers"]), ["docs/superpowers"]);
    assert_eq!(module(&["-um", "tarfile", "-e", "/tmp/a.tar"]), ["."]);
    assert!(module(&["-m", "zipfile", "-l", "docs/superpowers/plans.zip"]).is_empty());
    assert!(module(&["-m", "tarfile", "-t", "docs/superpowers/plans.tar"]).is_empty());
    assert_eq!(module(&["-m", "mytool", PLAN, "README.md"]), [PLAN], "an unknown module writes what it names");
    assert!(module(&["-m", "mytool", "README.md"]).is_empty());
    assert!(module(&["-mplatform", PLAN]).is_empty());
}

#[test]
fn a_module_reached_through_another_is_that_module() {
    for program in [
        "import os\nos.path.os.remove('docs/superpowers/plans/x.md')",
        "import glob\nglob.os.remove('docs/superpowers/plans/x.md')",
        "import shlex\nshlex.os.unlink('docs/superpowers/plans/x.md')",
        "import platform\nplatform.os.remove('docs/superpowers/plans/x.md')",
        "import sysconfig\nsysconfig.os.remove('docs/superpowers/plans/x.md')",
        "import uuid\nuuid.os.remove('docs/superpowers/plans/x.md')",
        "import fnmatch\nfnmatch.os.remove('docs/superpowers/plans/x.md')",
        "import posixpath\nposixpath.os.remove('docs/superpowers/plans/x.md')",
        "import argparse\nargparse._os.remove('docs/superpowers/plans/x.md')",
        "import dataclasses\ndataclasses.inspect.os.remove('docs/superpowers/plans/x.md')",
        "from glob import os\nos.remove('docs/superpowers/plans/x.md')",
    ] {
        assert_eq!(writes(program), [PLAN], "{program:?}");
        assert!(analysis(program).sure, "{program:?} is os.remove, computed");
    }
    let found = analysis("import shlex\nshlex.os.system('touch docs/superpowers/plans/x.md')");
    assert_eq!(found.commands, ["touch docs/superpowers/plans/x.md"]);
    // A module's namespace reached some other way is not followed.
    for program in [
        "import sys\nsys.modules['os'].replace('a.md', 'docs/superpowers/plans/x.md')",
        "import shutil\nshutil.copy.__globals__['os'].replace('a.md', 'docs/superpowers/plans/x.md')",
        "import glob\nglob.glob.__globals__.get('os').remove('docs/superpowers/plans/x.md')",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
    }
    // Reads through such a chain, and the module's own names, stay proven.
    for program in [
        "import os\nprint(os.path.os.getcwd(), open('docs/superpowers/plans/x.md').read())",
        "import glob\nprint(glob.glob('docs/superpowers/plans/*.md'))",
        "import datetime\nprint(datetime.datetime.now().isoformat(), datetime.time(1, 2), 'docs/superpowers/plans/x.md')",
        "import os\nprint(os.stat('docs/superpowers/plans/x.md').st_mtime)",
        "import collections\nprint(isinstance({}, collections.abc.Mapping), 'docs/superpowers/plans/x.md')",
    ] {
        assert!(analysis(program).sure, "{program:?} is proven");
        assert!(writes(program).is_empty(), "{program:?}");
    }
}

#[test]
fn unpickling_runs_what_the_data_names() {
    for program in [
        "import pickle\npickle.loads(b'cposix\\nremove\\n(S\\'docs/superpowers/plans/x.md\\'\\ntR.')",
        "import pickle\npickle.load(open('/tmp/p.pickle', 'rb'))\nprint('docs/superpowers/plans/x.md')",
        "import marshal\nmarshal.loads(b'')\nprint('docs/superpowers/plans/x.md')",
        "import shelve\nprint(shelve.open('/tmp/s')['k'], 'docs/superpowers/plans/x.md')",
        "breakpoint()\nprint('docs/superpowers/plans/x.md')",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
        assert!(writes(program).iter().any(|w| w.contains("superpowers")), "{program:?}");
    }
    let dumped = "import pickle\nprint(pickle.dumps(open('docs/superpowers/plans/x.md').read()))";
    assert!(analysis(dumped).sure);
}

#[test]
fn a_writer_passed_as_a_value_writes_what_it_may_be_given() {
    for program in [
        "import pathlib as p\nmax([p.Path('docs/superpowers/plans/x.md')], key=p.Path.unlink)",
        "import os\nmax(['docs/superpowers/plans/x.md'], key=os.path.os.remove)",
        "from pathlib import PosixPath\nsorted([PosixPath('docs/superpowers/plans/x.md')], key=PosixPath.unlink)",
        "import os\nlist(map(os.remove, ['docs/superpowers/plans/x.md']))",
        "import os\nlist(filter(os.unlink, ['docs/superpowers/plans/x.md']))",
        "import functools, os\nfunctools.partial(os.remove, 'docs/superpowers/plans/x.md')()",
        "import os\nlist(map(os.lchown, ['docs/superpowers/plans/x.md'], [0], [0]))",
        "import os\nclass K:\n    __eq__ = os.remove\n'docs/superpowers/plans/x.md' == K()",
        "import os\nclass K:\n    pass\nK.__eq__ = os.remove\n'docs/superpowers/plans/x.md' == K()",
        "import os\nclass K:\n    if True:\n        __del__ = os.remove\n'docs/superpowers/plans/x.md'",
        "import os\ndef f():\n    return os.remove\nmax(['docs/superpowers/plans/x.md'], key=f())",
        "import os\nmax(['docs/superpowers/plans/x.md'], key=(lambda: os.remove)())",
        "import os, json\njson.loads('[\"docs/superpowers/plans/x.md\"]', object_hook=os.remove)",
        "import os\nd = {}\nd['k'] = os.remove\nd['k']('docs/superpowers/plans/x.md')",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
        assert!(writes(program).iter().any(|w| w.contains("superpowers")), "{program:?}");
    }
    // Read-only functions, data and constants passed as values stay proven.
    for program in [
        "import os, glob\nprint(sorted(glob.glob('docs/superpowers/plans/*.md'), key=os.path.getmtime))",
        "import sys\nprint(open('docs/superpowers/plans/x.md').read(), file=sys.stderr)",
        "import subprocess\nsubprocess.run(['git', 'log', 'docs/superpowers/plans/x.md'], stdout=subprocess.PIPE)",
        "import json, sys\njson.dump({'p': 'docs/superpowers/plans/x.md'}, sys.stdout)",
        "print(sorted(['docs/superpowers/plans/x.md'], key=len))",
        "import os\nprint(list(map(os.path.basename, ['docs/superpowers/plans/x.md'])))",
        "import logging\nlogging.basicConfig(level=logging.INFO)\nlogging.info('docs/superpowers/plans/x.md')",
        "class K:\n    path = 'docs/superpowers/plans/x.md'\n    size = len(path)\nprint(K.path)",
    ] {
        assert!(analysis(program).sure, "{program:?} is proven");
        assert!(writes(program).is_empty(), "{program:?}");
    }
}

#[test]
fn a_process_runs_where_its_cwd_says_and_what_its_executable_says() {
    let commands = |program: &str| analysis(program).commands;
    assert_eq!(
        commands("import subprocess as s\ns.run(['touch', 'p.md'], cwd='docs/superpowers/plans')"),
        ["cd docs/superpowers/plans && touch p.md"]
    );
    assert_eq!(commands("import subprocess\nsubprocess.run(['git', 'log'], cwd='src')"), ["cd src && git log"]);
    assert_eq!(
        commands("import subprocess as s\ns.run(['cat', 'docs/superpowers/plans/x.md'], executable='touch')"),
        ["touch docs/superpowers/plans/x.md"]
    );
    assert_eq!(
        commands("import os\nos.execv('/usr/bin/rm', ['cat', 'docs/superpowers/plans/x.md'])"),
        ["/usr/bin/rm docs/superpowers/plans/x.md"]
    );
    assert_eq!(
        commands("import subprocess\nsubprocess.run(['touch \"$0\"', 'docs/superpowers/plans/x.md'], shell=True)"),
        ["/bin/sh -c 'touch \"$0\"' docs/superpowers/plans/x.md"]
    );
    assert_eq!(
        commands("import subprocess\nsubprocess.run('cat a', shell=True, executable='/bin/bash')"),
        ["/bin/bash -c 'cat a'"]
    );
    assert_eq!(commands("import subprocess\nsubprocess.run(['git', 'log'], shell=False)"), ["git log"]);
    let unknown = analysis("import subprocess, sys\nsubprocess.run(['ls'], cwd=sys.argv[1])");
    assert!(!unknown.sure, "a directory the analysis cannot compute");
}

#[test]
fn links_write_what_they_point_to() {
    assert_eq!(writes("import os\nos.link('docs/superpowers/plans/x.md', 'h')"), [PLAN, "h"]);
    assert_eq!(
        writes("import os\nos.symlink('/repo/docs/superpowers/plans/x.md', '/tmp/s')"),
        ["/repo/docs/superpowers/plans/x.md", "/tmp/s"]
    );
    assert_eq!(writes("import os\nos.symlink('plans/x.md', 'docs/superpowers/s')"), [PLAN, "docs/superpowers/s"]);
    assert_eq!(writes("from pathlib import Path\nPath('h').hardlink_to('docs/superpowers/plans/x.md')"), [PLAN, "h"]);
    assert_eq!(
        writes("from pathlib import Path\nPath('docs/s').symlink_to('superpowers/plans/x.md')"),
        ["docs/s", PLAN]
    );
    assert_eq!(writes("import os\nos.symlink('/tmp/a', 'b')"), ["/tmp/a", "b"]);
}

#[test]
fn separators_join_the_path() {
    assert_eq!(writes("import os\nos.remove(os.sep.join(['docs', 'superpowers', 'plans', 'x.md']))"), [PLAN]);
    assert_eq!(writes("import os\nopen(os.path.sep.join(['docs', 'superpowers', 'plans', 'x.md']), 'w')"), [PLAN]);
}

fn run(args: &[&str], stdin: Option<&str>) -> crate::programs::Invocation {
    let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    invocation(&args, stdin)
}

#[test]
fn interactive_reads_standard_input_as_more_program() {
    let code = "open('docs/superpowers/plans/x.md', 'w')";
    for args in [&["-i", "-c", "1"][..], &["-ic", "1"], &["-Bi", "-c", "1"]] {
        assert_eq!(run(args, Some(code)).source, Source::Text(format!("1\n{code}")), "{args:?}");
    }
    assert_eq!(run(&["-i", "s.py"], Some(code)).prelude, format!("{code}\n"));
    // Without `-i` standard input is the program's data; after `-c` an `-i` is its argument.
    assert_eq!(run(&["-c", "1"], Some(code)).source, Source::Text("1".to_string()));
    assert_eq!(run(&["-c", "1", "-i"], Some(code)).source, Source::Text("1".to_string()));
    assert_eq!(run(&["-Wignore", "-c", "1"], Some(code)).source, Source::Text("1".to_string()));
}

#[test]
fn a_pycache_prefix_gets_the_compiled_modules() {
    assert_eq!(
        run(&["-X", "pycache_prefix=docs/superpowers/plans", "-c", "import json"], None).trees,
        ["docs/superpowers/plans"]
    );
    assert_eq!(run(&["-Xpycache_prefix=/tmp/pyc", "-c", "import json"], None).trees, ["/tmp/pyc"]);
    assert!(run(&["-X", "utf8", "-c", "import json"], None).trees.is_empty());
}

#[test]
fn methods_taken_from_their_class_are_judged_as_the_methods() {
    for program in [
        "import os\nprint(sorted(os.listdir('docs/superpowers/plans'), key=str.lower))",
        "from pathlib import Path\nprint(list(map(Path.exists, [Path('docs/superpowers/plans/x.md')])))",
        "from pathlib import Path\nprint(sorted([Path('docs/superpowers/plans/x.md')], key=Path.stat))",
        "print(str.upper('docs/superpowers/plans/x.md'))",
    ] {
        assert!(analysis(program).sure, "{program:?} is proven");
        assert!(writes(program).is_empty(), "{program:?}");
    }
    for program in [
        "from pathlib import Path\nlist(map(Path.write_text, [Path('docs/superpowers/plans/x.md')], ['x']))",
        "from pathlib import Path\nlist(map(Path.touch, [Path('docs/superpowers/plans/x.md')]))",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
    }
}

#[test]
fn yaml_safe_loads_and_dumps_read_and_its_object_building_loaders_do_not() {
    for program in [
        "import yaml\nprint(yaml.safe_load(open('docs/superpowers/plans/x.md')))",
        "import yaml, pathlib\nfor f in pathlib.Path('docs/superpowers/plans').glob('*.md'):\n    yaml.safe_load(f.read_text())",
        "import yaml\nprint(yaml.load(open('docs/superpowers/plans/x.md'), Loader=yaml.SafeLoader))",
        "from yaml import load, CSafeLoader\nload(open('docs/superpowers/plans/x.md'), CSafeLoader)",
        "import yaml\nprint(yaml.dump({'plan': 'docs/superpowers/plans/x.md'}))",
    ] {
        assert_eq!(writes(program), Vec::<String>::new(), "{program}");
    }
    for program in [
        "import yaml\nyaml.load(open('/tmp/y.yml'), Loader=yaml.Loader)\nprint('docs/superpowers/plans/x.md')",
        "import yaml\nyaml.unsafe_load(open('/tmp/y.yml'))\nprint('docs/superpowers/plans/x.md')",
        "import yaml\nyaml.load(open('/tmp/y.yml'))\nprint('docs/superpowers/plans/x.md')",
        "import yaml\nyaml.safe_dump({}, open('docs/superpowers/plans/x.md', 'w'))",
    ] {
        assert_eq!(writes(program), vec![PLAN.to_string()], "{program}");
    }
}

#[test]
fn an_in_memory_database_runs_its_sql_as_sqlite3_judges_it() {
    let read = "import sqlite3\ndb = sqlite3.connect(':memory:')\ndb.execute('create table t(x)')\n\
                db.execute('insert into t values (?)', (open('docs/superpowers/plans/x.md').read(),))\n\
                print(db.execute('select length(x) from t').fetchone())\ndb.commit()";
    assert_eq!(writes(read), Vec::<String>::new());
    assert_eq!(
        writes("import sqlite3\nsqlite3.connect(':memory:').execute(\"VACUUM INTO 'docs/superpowers/plans/x.md'\")"),
        vec![PLAN.to_string()]
    );
    let attach = "import sqlite3\nc = sqlite3.connect(':memory:').cursor()\nc.executescript(\"ATTACH '{PLAN}' AS p\")";
    assert_eq!(writes(&attach.replace("{PLAN}", PLAN)), vec![PLAN.to_string()]);
    let computed =
        "import sqlite3, sys\nsqlite3.connect(':memory:').execute(sys.argv[1])\nprint('docs/superpowers/plans/x.md')";
    assert_eq!(writes(computed), vec![PLAN.to_string()]);
    let extension = "import sqlite3\ndb = sqlite3.connect(':memory:')\ndb.load_extension('./x')\nprint('docs/superpowers/plans/x.md')";
    assert_eq!(writes(extension), vec![PLAN.to_string()]);
    assert_eq!(writes("import sqlite3\nsqlite3.connect('docs/superpowers/plans/x.md')"), vec![PLAN.to_string()]);
    // `execute` passed as a value runs SQL where the analysis does not see it; bound to a name,
    // it is called where it stands.
    let vacuum = "\"VACUUM INTO 'docs/superpowers/plans/x.md'\"";
    let passed = format!("import sqlite3\ndb = sqlite3.connect(':memory:')\nlist(map(db.execute, [{vacuum}]))");
    assert_eq!(writes(&passed), vec![PLAN.to_string()]);
    let bound = format!("import sqlite3\ne = sqlite3.connect(':memory:').execute\ne({vacuum})");
    assert_eq!(writes(&bound), vec![PLAN.to_string()]);
}

#[test]
fn a_dunder_import_of_a_named_module_is_an_import() {
    let read = "import itertools\nfor a, b in itertools.pairwise(sorted(__import__('os').listdir('docs/superpowers/plans'))):\n    print(a, b)";
    assert_eq!(writes(read), Vec::<String>::new());
    assert_eq!(writes("__import__('os').remove('docs/superpowers/plans/x.md')"), [PLAN]);
    assert_eq!(writes("__import__('os.path').path.exists('docs/superpowers/plans/x.md')"), Vec::<String>::new());
    // A module beside the program, or one named at run time, is code the analysis does not read.
    for program in [
        "__import__('helpers').run()\nprint('docs/superpowers/plans/x.md')",
        "import sys\n__import__(sys.argv[1])\nprint('docs/superpowers/plans/x.md')",
        "__import__('os', fromlist=['x'])\nprint('docs/superpowers/plans/x.md')",
    ] {
        assert_eq!(writes(program), [PLAN], "{program}");
    }
}

#[test]
fn a_module_that_goes_where_the_walk_loses_it_is_unproven() {
    for program in [
        "import os\n{'m': os}['m'].replace('a.md', 'docs/superpowers/plans/x.md')",
        "import shutil\n[shutil, shutil][0].copy('a.md', 'docs/superpowers/plans/x.md')",
        "import os\nnext(iter([os])).replace('a.md', 'docs/superpowers/plans/x.md')",
        "import os, glob\n[glob][0].os.replace('a.md', 'docs/superpowers/plans/x.md')",
        "import os\nm = os\nif True:\n    m = os\nm.replace('a.md', 'docs/superpowers/plans/x.md')",
        "import os\n(m := os).replace('a.md', 'docs/superpowers/plans/x.md')",
    ] {
        assert!(!analysis(program).sure, "{program:?} is unproven");
        assert!(writes(program).iter().any(|w| w.contains("superpowers")), "{program:?}");
    }
    // Bound once, a module is followed; a string bound twice is still a string.
    for program in [
        "import os\nm = os\nprint(m.listdir('docs/superpowers/plans'))",
        "p = 'a'\np = 'docs/superpowers/plans/x.md'\nprint(p.replace('x', 'y'))",
    ] {
        assert!(analysis(program).sure, "{program:?} is proven");
        assert!(writes(program).is_empty(), "{program:?}");
    }
}

fn analysis_in(program: &str, temporary: Option<&str>) -> crate::programs::Findings {
    super::analyze(program, crate::programs::Place { dir: Path::new("/repo"), temporary })
}

#[test]
fn what_tempfile_makes_goes_under_a_random_name_in_the_temporary_folder() {
    let read = "open('docs/superpowers/plans/x.md').read()";
    for (program, written) in [
        (format!("import tempfile, shutil\nd = tempfile.mkdtemp()\nshutil.copy('{PLAN}', d)"), "/tmp/tmp*"),
        (
            format!(
                "import tempfile\nwith tempfile.NamedTemporaryFile('w', delete=False, suffix='.md') as f:\n    f.write({read})"
            ),
            "/tmp/tmp*.md",
        ),
        (
            format!(
                "import os, tempfile\nout = os.path.join(tempfile.gettempdir(), 'r.md')\nopen(out, 'w').write({read})"
            ),
            "/tmp/r.md",
        ),
        (
            format!("import tempfile, shutil\nwith tempfile.TemporaryDirectory() as d:\n    shutil.copy('{PLAN}', d)"),
            "/tmp/tmp*",
        ),
        (format!("import tempfile, shutil\nshutil.copy('{PLAN}', tempfile.TemporaryDirectory().name)"), "/tmp/tmp*"),
        (format!("import tempfile, shutil\nshutil.copy('{PLAN}', tempfile.mkstemp(suffix='.md')[1])"), "/tmp/tmp*.md"),
        (
            format!("import tempfile, shutil\nshutil.copy('{PLAN}', tempfile.mkdtemp(prefix='plan-', dir='/var/tmp'))"),
            "/var/tmp/plan-*",
        ),
        (
            format!(
                "import tempfile\nf = tempfile.NamedTemporaryFile('w', delete=False)\nopen(f.name, 'w').write({read})"
            ),
            "/tmp/tmp*",
        ),
    ] {
        assert!(analysis(&program).sure, "{program:?} is proven");
        assert_eq!(writes(&program), [written], "{program:?}");
    }
    // Where the program says, or the line puts, the folder, or under a name that may be
    // approval.md: a guarded location written.
    for program in [
        format!("import tempfile, shutil\nshutil.copy('{PLAN}', tempfile.mkdtemp(dir='docs/superpowers/plans'))"),
        format!("import tempfile, shutil\nshutil.copy('{PLAN}', tempfile.mkdtemp() + '/approval.md')"),
        format!("import tempfile\ntempfile.NamedTemporaryFile('w', prefix='', suffix='.md').write({read})"),
        "import tempfile\nf = tempfile.NamedTemporaryFile(dir='openspec/changes/c', prefix='approval', suffix='.md')"
            .to_string(),
    ] {
        let found = writes(&program);
        assert!(
            found.iter().any(|w| crate::paths::names_guarded(w, crate::paths::Dialect::Program)),
            "{program:?}: {found:?}"
        );
    }
    let plans = analysis_in("import tempfile\ntempfile.mkdtemp()", Some("docs/superpowers/plans"));
    assert!(plans.sure && plans.writes == ["/repo/docs/superpowers/plans/tmp\u{2}"], "{plans:?}");
    // A folder the line or the program sets to a value the analysis does not know: any folder.
    for (program, temporary) in [
        ("import tempfile, shutil\nshutil.copy('docs/superpowers/plans/x.md', tempfile.mkdtemp())", None),
        (
            "import os, tempfile, shutil\nos.environ['TMPDIR'] = 'docs/superpowers/plans'\nshutil.copy('docs/superpowers/plans/x.md', tempfile.mkdtemp())",
            Some("/tmp"),
        ),
        (
            "import tempfile, shutil\ntempfile.tempdir = 'docs/superpowers/plans'\nshutil.copy('docs/superpowers/plans/x.md', tempfile.mkdtemp())",
            Some("/tmp"),
        ),
        (
            "import sys, tempfile, shutil\nshutil.copy('docs/superpowers/plans/x.md', tempfile.mkdtemp(dir=sys.argv[1]))",
            Some("/tmp"),
        ),
    ] {
        assert!(!analysis_in(program, temporary).sure, "{program:?} is unproven");
    }
}

#[test]
fn a_writer_reached_through_its_class_writes_what_it_may_be_given() {
    let path = "import pathlib, operator\np = pathlib.Path('docs/superpowers/plans/x.md')\n";
    for call in [
        "max([p], key=type(p).unlink)",
        "max([p], key=p.__class__.unlink)",
        "t = type(p)\nsorted([p], key=t.unlink)",
        "max([p], key=type(p).__base__.unlink)",
        "max([p], key=p.__class__.__mro__[0].unlink)",
        "max([p], key=p.unlink.__func__)",
        "list(map(type(p).write_text, [p], ['x']))",
        "max([p], key=operator.methodcaller('unlink'))",
        "list(map(operator.call, map(operator.attrgetter('unlink'), [p])))",
        "type(p).unlink(p)",
        "pathlib.Path.unlink(p)",
        "pathlib.Path.write_text(p, 'x')",
        "for q in [p]:\n    max([q], key=q.unlink)",
        "@p.unlink\ndef f():\n    pass",
    ] {
        let program = format!("{path}{call}");
        assert!(writes(&program).contains(&PLAN.to_string()), "{call:?}");
    }
    // The class's function called on a path is that path's writer, and reads stay reads.
    assert_eq!(
        writes(
            "import pathlib\npathlib.Path.write_text(pathlib.Path('/tmp/x'), open('docs/superpowers/plans/x.md').read())"
        ),
        ["/tmp/x"]
    );
    for call in [
        "print(type(p).read_text(p))",
        "print(pathlib.Path.read_text(p))",
        "print(sorted([p], key=type(p).read_text))",
        "print(sorted([p], key=operator.attrgetter('name')))",
        "print(list(map(operator.methodcaller('read_text'), [p])))",
        "for q in [p]:\n    print(type(q).__name__, q.read_text())",
    ] {
        let program = format!("{path}{call}");
        assert!(analysis(&program).sure, "{call:?} is proven");
        assert!(writes(&program).is_empty(), "{call:?}");
    }
}

#[test]
fn a_list_whose_method_goes_as_a_value_is_changed_in_place() {
    let program = "import subprocess\ncmd = ['true']\nlist(map(cmd.append, ['&&', 'rm', 'docs/superpowers/plans/x.md']))\nsubprocess.run(' '.join(cmd), shell=True)";
    assert!(!analysis(program).sure);
    assert_eq!(writes(program), [PLAN]);
}

#[test]
fn a_list_that_goes_on_under_another_name_may_change_there() {
    let run = "subprocess.run(' '.join(cmd), shell=True)";
    for change in [
        "c2 = cmd; c2.extend(['&&', 'rm', 'docs/superpowers/plans/p.md'])",
        "list.extend(cmd, ['&&', 'rm', 'docs/superpowers/plans/p.md'])",
        "import operator\noperator.iadd(cmd, ['&&', 'rm', 'docs/superpowers/plans/p.md'])",
        "[cmd][0].extend(['&&', 'rm', 'docs/superpowers/plans/p.md'])",
        "def add(l):\n    l.extend(['&&', 'rm', 'docs/superpowers/plans/p.md'])\nadd(cmd)",
        "def add(l):\n    l.extend(['&&', 'rm', 'docs/superpowers/plans/p.md'])\nadd(l=cmd)",
        "(cmd).__iadd__(['&&', 'rm', 'docs/superpowers/plans/p.md'])",
        "d = {'c': cmd}\nd['c'].extend(['&&', 'rm', 'docs/superpowers/plans/p.md'])",
    ] {
        for program in [
            format!("import subprocess\ncmd = ['true']\n{change}\n{run}"),
            // Changed after the run in the text, before it when a function runs later.
            format!("import subprocess\ncmd = ['true']\ndef go():\n    {run}\n{change}\ngo()"),
        ] {
            assert!(!analysis(&program).sure, "{program:?} is unproven");
            assert!(writes(&program).iter().any(|w| w.contains("superpowers/plans")), "{program:?}");
        }
    }
    // The items of a list of lists go on with them.
    let nested = "import subprocess\ncmd = [['true']]\nfor part in cmd:\n    part.append('docs/superpowers/plans/p.md')\nsubprocess.run(['rm'] + cmd[0][1:])";
    assert!(!analysis(nested).sure, "{nested:?}");
    for program in [
        "import subprocess\ncmd = ['cat', 'docs/superpowers/plans/p.md']\nprint(' '.join(cmd))\nprint(len(cmd), sorted(cmd))\nsubprocess.run(cmd)",
        "import subprocess\ncmd = ['cat', 'docs/superpowers/plans/p.md']\nfor word in cmd:\n    print(word)\nif cmd and 'x' not in cmd:\n    subprocess.run(cmd, check=True)",
        "import subprocess as sp\ncmd = ['cat', 'docs/superpowers/plans/p.md']\nprint(f'{cmd}', cmd[1:], cmd + ['-n'])\nsp.run(args=cmd)",
        "import subprocess, shlex\ncmd = ['cat', 'docs/superpowers/plans/p.md']\nprint(shlex.join(cmd), list(map(str.upper, cmd)))\nsubprocess.run(cmd)",
    ] {
        assert!(analysis(program).sure, "{program:?} is proven");
        assert!(writes(program).is_empty(), "{program:?}");
    }
}

#[test]
fn a_name_a_loop_binds_again_has_no_one_value() {
    for program in [
        "p = '/tmp/x'\nfor _ in range(2):\n    open(p, 'w')\n    p = 'docs/superpowers/plans/p.md'",
        "p = '/tmp/x'\nwhile True:\n    open(p, 'w')\n    p = 'docs/superpowers/plans/p.md'",
        "p = '/tmp/x'\nfor p in ['docs/superpowers/plans/p.md']:\n    open(p, 'w')",
    ] {
        assert!(writes(program).iter().any(|w| w.contains("superpowers/plans")), "{program:?}");
    }
    let reads = "for _ in range(2):\n    print(open('docs/superpowers/plans/p.md').read())\n    open('/tmp/out', 'w')";
    assert!(writes(reads).iter().all(|w| !w.contains("superpowers")), "{reads:?}");
}
