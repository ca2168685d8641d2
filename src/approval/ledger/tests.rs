use std::fs;
use std::path::{Path, PathBuf};

use super::format::{MAX_APPROVALS, MAX_BYTES};
use super::*;
use crate::approval::Kind;

fn design(change: &str, at: &str) -> Approval {
    Approval { change_id: change.into(), kind: Kind::Design, by: "owner".into(), at: at.into(), plan: None }
}

fn plan(change: &str, at: &str, name: &str, sha: char) -> Approval {
    Approval {
        change_id: change.into(),
        kind: Kind::Plan,
        by: "owner".into(),
        at: at.into(),
        plan: Some(PlanBinding {
            path: format!("docs/superpowers/plans/{name}.md"),
            sha256: sha.to_string().repeat(64),
        }),
    }
}

fn root() -> PathBuf {
    PathBuf::from("/home/me/my repo")
}

fn sample() -> Ledger {
    let mut ledger = Ledger::new(&root(), "2026-10-25T09:00:00Z");
    ledger.put(design("feat", "2026-10-25T10:00:00Z"));
    ledger.put(plan("feat", "2026-10-25T11:30:00Z", "p", 'a'));
    ledger
}

#[test]
fn a_ledger_reads_back_as_written() {
    let ledger = sample();
    let text = ledger.render();
    assert!(
        text.contains("\napproval-gates ledger 1\nroot /home/me/my%20repo\nsealed 2026-10-25T09:00:00Z\n"),
        "{text}"
    );
    assert!(text.contains("\ndesign feat owner 2026-10-25T10:00:00Z\n"), "{text}");
    assert_eq!(Ledger::parse(text.as_bytes(), &root()), Ok(ledger));
}

#[test]
fn odd_roots_and_values_stay_one_field() {
    for odd in ["/r/a b\nc", "/r/100%", "/r/ünï", "/r/#x", "/r/tab\there"] {
        let root = PathBuf::from(odd);
        let mut ledger = Ledger::new(&root, "now");
        ledger.put(Approval { by: "Jane Doe # qa".into(), at: "25 Oct, 10:00".into(), ..design("c", "x") });
        let text = ledger.render();
        assert_eq!(Ledger::parse(text.as_bytes(), &root), Ok(ledger), "{text}");
        assert!(Ledger::parse(text.as_bytes(), Path::new("/r/other")).is_err());
    }
}

#[test]
fn the_latest_approval_of_a_change_and_kind_counts() {
    let mut ledger = sample();
    ledger.put(design("feat", "2026-10-26T10:00:00Z"));
    assert_eq!(ledger.get("feat", Kind::Design).map(|a| a.at.as_str()), Some("2026-10-26T10:00:00Z"));
    assert_eq!(ledger.approvals().len(), 2);
    // Two lines of one change and kind in a file: the later one, as the writer would leave it.
    let text = format!("{}design feat owner LATER\n", sample().render());
    let read = Ledger::parse(text.as_bytes(), &root()).expect("reads");
    assert_eq!(read.get("feat", Kind::Design).map(|a| a.at.as_str()), Some("LATER"));
}

#[test]
fn comments_blank_lines_crlf_and_unknown_kinds_are_read_past() {
    let text = "# c\n\napproval-gates ledger 1\r\nroot /home/me/my%20repo\r\n  \n# later:\nreview feat qa T\ndesign feat owner T\n";
    let ledger = Ledger::parse(text.as_bytes(), &root()).expect("reads");
    assert_eq!(ledger.get("feat", Kind::Design).map(|a| a.at.as_str()), Some("T"));
    assert_eq!(ledger.sealed_at(), None);
    let no_final_newline = "approval-gates ledger 1\nroot /home/me/my%20repo\ndesign feat owner T";
    assert!(Ledger::parse(no_final_newline.as_bytes(), &root()).is_ok());
}

#[test]
fn a_ledger_that_does_not_read_is_refused_whole() {
    let head = "approval-gates ledger 1\nroot /home/me/my%20repo\n";
    let sha = "a".repeat(64);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "does not start with"),
        ("root /home/me/my%20repo\n".into(), "does not start with"),
        ("approval-gates ledger 2\nroot /x\n".into(), "a version this approval-gates does not read"),
        ("approval-gates ledger 1\n".into(), "names no repository root"),
        ("approval-gates ledger 1\nroot /elsewhere\n".into(), "the ledger of another repository (/elsewhere)"),
        (format!("{head}root /home/me/my%20repo\n"), "line 3 names a second root"),
        (format!("{head}approval-gates ledger 1\n"), "line 3 repeats the header"),
        (format!("{head}design feat owner\n"), "line 3 is not `design"),
        (format!("{head}design ../x owner T\n"), "line 3 names an unsafe change id"),
        (format!("{head}design feat owner T extra\n"), "line 3 is not `design"),
        (format!("{head}design feat own%zzer T\n"), "line 3 is not `design"),
        (format!("{head}design feat own\u{e9}r T\n"), "line 3 is not `design"),
        (format!("{head}plan feat owner T docs/superpowers/plans/p.md {}\n", &sha[..63]), "line 3 has a sha256"),
        (
            format!("{head}plan feat owner T docs/superpowers/plans/p.md {}\n", sha.to_uppercase()),
            "line 3 has a sha256",
        ),
        (format!("{head}plan feat owner T docs/other/p.md {sha}\n"), "line 3 names a plan outside"),
        (format!("{head}plan feat owner T docs/superpowers/plans/../p.md {sha}\n"), "line 3 names a plan outside"),
        (format!("{head}sealed a\nsealed b\n"), "line 4 seals the repository a second time"),
        (format!("{head}design feat owner T\n\u{0}\u{ff}"), "line 4 is not a ledger line"),
        (format!("{head}Design feat owner T\n"), "line 3 is not a ledger line"),
    ];
    for (text, reason) in cases {
        let refused = Ledger::parse(text.as_bytes(), &root()).expect_err(&text);
        assert!(refused.to_string().contains(reason), "{text:?}: {refused}");
    }
    let not_text = [head.as_bytes(), b"design feat owner \xff\n"].concat();
    assert_eq!(Ledger::parse(&not_text, &root()), Err(Unreadable::BadLine { line: 3, reason: "is not text" }));
}

#[test]
fn the_caps_are_the_writer_s_and_the_reader_s() {
    let huge = vec![b'#'; MAX_BYTES + 1];
    assert_eq!(Ledger::parse(&huge, &root()), Err(Unreadable::TooLarge { bytes: MAX_BYTES + 1 }));
    let mut text = String::from("approval-gates ledger 1\nroot /home/me/my%20repo\n");
    for n in 0..=MAX_APPROVALS {
        text.push_str(&format!("design c{n} o T\n"));
    }
    assert_eq!(Ledger::parse(text.as_bytes(), &root()), Err(Unreadable::TooManyApprovals));
}

// The store.

struct State {
    _dir: tempfile::TempDir,
    folder: PathBuf,
    root: PathBuf,
}

fn state() -> State {
    let dir = tempfile::tempdir().expect("test fixture");
    let base = fs::canonicalize(dir.path()).expect("test fixture");
    let root = base.join("repo");
    fs::create_dir_all(root.join("openspec/changes/feat")).expect("test fixture");
    State { folder: base.join("state").join(location::FOLDER), root, _dir: dir }
}

fn record_in(state: &State, approvals: Vec<Approval>) -> Result<Recorded, UpdateError> {
    location::with_folder(Some(&state.folder), || record(&state.root, approvals, "2026-10-25T09:00:00Z"))
}

fn seal(state: &State) -> Seal {
    location::with_folder(Some(&state.folder), || seal_of(&state.root))
}

#[test]
fn the_first_record_seals_the_repository_in_a_private_folder() {
    let state = state();
    assert_eq!(seal(&state), Seal::Open);
    let recorded = record_in(&state, vec![design("feat", "T1")]).expect("recorded");
    assert!(recorded.sealed_now);
    assert_eq!(recorded.file, location::ledger_file(&state.folder, &state.root));
    assert!(recorded.file.file_name().unwrap().to_string_lossy().starts_with("repo-"));
    let Seal::Sealed(sealed) = seal(&state) else { panic!("sealed") };
    assert_eq!(sealed.by_ancestor, None);
    assert_eq!(sealed.ledger.expect("reads").get("feat", Kind::Design).map(|a| a.at.clone()), Some("T1".into()));
    assert!(!record_in(&state, vec![design("feat", "T2")]).expect("recorded").sealed_now);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).expect("test fixture").permissions().mode() & 0o777;
        assert_eq!(mode(&state.folder), 0o700);
        assert_eq!(mode(&state.folder.join(location::REPOS)), 0o700);
        assert_eq!(mode(&recorded.file), 0o600);
    }
    let mut left: Vec<_> =
        fs::read_dir(state.folder.join(location::REPOS)).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, vec![std::ffi::OsString::from(store::LOCK_FILE), recorded.file.file_name().unwrap().to_owned()]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let lock = fs::metadata(state.folder.join(location::REPOS).join(store::LOCK_FILE)).unwrap();
        assert_eq!(lock.permissions().mode() & 0o777, 0o200, "only a writer of the folder can take the lock");
    }
}

#[test]
fn a_repository_inside_a_sealed_one_is_sealed() {
    let state = state();
    record_in(&state, vec![]).expect("sealed");
    let nested = state.root.join("sub/worktree");
    fs::create_dir_all(&nested).unwrap();
    let Seal::Sealed(sealed) = location::with_folder(Some(&state.folder), || seal_of(&nested)) else {
        panic!("sealed")
    };
    assert_eq!(sealed.by_ancestor.as_deref(), Some(state.root.as_path()));
    assert_eq!(sealed.ledger.expect("empty").approvals(), &[]);
    // The directory above is not sealed by the one below.
    assert_eq!(location::with_folder(Some(&state.folder), || seal_of(state.root.parent().unwrap())), Seal::Open);
}

#[test]
fn no_folder_refuses_to_record_and_seals_nothing() {
    let state = state();
    let refused = location::with_folder(None, || record(&state.root, vec![design("feat", "T")], "T"));
    assert_eq!(refused, Err(UpdateError::NoFolder));
    assert_eq!(location::with_folder(None, || seal_of(&state.root)), Seal::Open);
}

#[test]
fn an_unwritable_folder_writes_nothing() {
    let state = state();
    // A file where the state directory should be: the same refusal a read-only mount gives.
    fs::create_dir_all(state.folder.parent().unwrap().parent().unwrap()).unwrap();
    fs::write(state.folder.parent().unwrap(), "not a folder").unwrap();
    match record_in(&state, vec![design("feat", "T")]) {
        Err(UpdateError::Unwritable { .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn symlinks_are_never_written_through_nor_read() {
    use std::os::unix::fs::symlink;
    let state = state();
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir_all(state.folder.parent().unwrap()).unwrap();
    symlink(elsewhere.path(), &state.folder).unwrap();
    assert!(matches!(
        record_in(&state, vec![design("feat", "T")]),
        Err(UpdateError::Unsafe { reason: "it is a symlink", .. })
    ));
    assert_eq!(fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    fs::remove_file(&state.folder).unwrap();

    record_in(&state, vec![design("feat", "T")]).expect("recorded");
    let file = location::ledger_file(&state.folder, &state.root);
    let forged = elsewhere.path().join("forged.ledger");
    let mut ledger = Ledger::new(&state.root, "T");
    ledger.put(design("other", "T"));
    fs::write(&forged, ledger.render()).unwrap();
    fs::remove_file(&file).unwrap();
    symlink(&forged, &file).unwrap();
    let Seal::Sealed(sealed) = seal(&state) else { panic!("a symlinked ledger still seals") };
    let broken = sealed.ledger.expect_err("and counts for nothing");
    assert_eq!(broken.problem, Problem::NotAFile { reason: "it is a symlink" });
    match record_in(&state, vec![design("feat", "T")]) {
        Err(UpdateError::Broken(refused)) => assert_eq!(refused.file, file),
        other => panic!("{other:?}"),
    }
    assert_eq!(fs::read_to_string(&forged).unwrap(), ledger.render());
}

#[test]
fn a_broken_ledger_is_left_for_the_owner() {
    let state = state();
    record_in(&state, vec![design("feat", "T")]).expect("recorded");
    let file = location::ledger_file(&state.folder, &state.root);
    fs::write(&file, "approval-gates ledger 1\nroot /elsewhere\n").unwrap();
    assert!(matches!(record_in(&state, vec![design("feat", "T2")]), Err(UpdateError::Broken(_))));
    assert_eq!(fs::read_to_string(&file).unwrap(), "approval-gates ledger 1\nroot /elsewhere\n");
}

#[test]
fn past_the_cap_gone_changes_make_room_else_nothing_is_written() {
    let state = state();
    let many: Vec<Approval> = (0..MAX_APPROVALS).map(|n| design(&format!("gone{n}"), "T")).collect();
    record_in(&state, many).expect("at the cap");
    record_in(&state, vec![design("feat", "T")]).expect("the gone changes make room");
    let Seal::Sealed(sealed) = seal(&state) else { panic!() };
    assert_eq!(sealed.ledger.unwrap().approvals(), &[design("feat", "T")]);

    for n in 0..MAX_APPROVALS {
        fs::create_dir_all(state.root.join(format!("openspec/changes/c{n}"))).unwrap();
    }
    let present: Vec<Approval> = (0..MAX_APPROVALS).map(|n| design(&format!("c{n}"), "T")).collect();
    assert!(matches!(record_in(&state, present), Err(UpdateError::Full { .. })));
    let Seal::Sealed(sealed) = seal(&state) else { panic!() };
    assert_eq!(sealed.ledger.unwrap().approvals(), &[design("feat", "T")]);
}

#[test]
fn concurrent_threads_never_lose_a_record() {
    let state = state();
    std::thread::scope(|scope| {
        for worker in 0..4 {
            let state = &state;
            scope.spawn(move || {
                for n in 0..25 {
                    record_in(state, vec![design(&format!("w{worker}-{n}"), "T")]).expect("recorded");
                }
            });
        }
    });
    let Seal::Sealed(sealed) = seal(&state) else { panic!() };
    assert_eq!(sealed.ledger.unwrap().approvals().len(), 100);
}

#[test]
fn a_reader_never_sees_a_ledger_being_replaced_as_broken() {
    let state = state();
    record_in(&state, vec![design("feat", "T")]).expect("recorded");
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) || reads == 0 {
                let sealed = location::with_folder(Some(&state.folder), || seal_of(&state.root));
                let Seal::Sealed(sealed) = sealed else { panic!("unsealed while being written") };
                assert!(sealed.ledger.is_ok(), "{:?}", sealed.ledger);
                reads += 1;
            }
            reads
        });
        for n in 0..100 {
            record_in(&state, vec![design(&format!("c{n}"), "T")]).expect("recorded");
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(reader.join().unwrap() > 0);
    });
}

/// Set by [`concurrent_processes_never_lose_a_record`] for the copies of this test binary it starts.
const WORKER_ENV: &str = "APPROVAL_GATES_LEDGER_WORKER";

#[test]
#[ignore = "a worker process of concurrent_processes_never_lose_a_record"]
fn ledger_worker() {
    let Ok(spec) = std::env::var(WORKER_ENV) else { return };
    let mut parts = spec.splitn(3, '\n');
    let (folder, root, name) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
    for n in 0..20 {
        location::with_folder(Some(Path::new(folder)), || {
            record(Path::new(root), vec![design(&format!("{name}-{n}"), "T")], "T").expect("recorded")
        });
    }
}

#[test]
fn concurrent_processes_never_lose_a_record() {
    let state = state();
    let exe = std::env::current_exe().unwrap();
    let workers: Vec<_> = (0..4)
        .map(|worker| {
            std::process::Command::new(&exe)
                .args(["--ignored", "--exact", "approval::ledger::tests::ledger_worker", "--quiet"])
                .env(WORKER_ENV, format!("{}\n{}\np{worker}", state.folder.display(), state.root.display()))
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut worker in workers {
        assert!(worker.wait().unwrap().success());
    }
    let Seal::Sealed(sealed) = seal(&state) else { panic!() };
    let ledger = sealed.ledger.unwrap();
    assert_eq!(ledger.approvals().len(), 80);
    for worker in 0..4 {
        for n in 0..20 {
            assert!(ledger.get(&format!("p{worker}-{n}"), Kind::Design).is_some(), "p{worker}-{n} lost");
        }
    }
}

#[test]
fn the_ledger_folder_its_contents_and_its_state_directory_are_reached() {
    let state = state();
    let base = state.folder.parent().unwrap().to_path_buf();
    location::with_folder(Some(&state.folder), || {
        for reached in
            [state.folder.clone(), state.folder.join("repos/x.ledger"), state.folder.join("REPOS"), base.clone()]
        {
            assert!(reaches_ledger(&reached), "{}", reached.display());
        }
        for free in [base.parent().unwrap().to_path_buf(), base.join("other"), state.root.join("x"), PathBuf::from("/")]
        {
            assert!(!reaches_ledger(&free), "{}", free.display());
        }
    });
    let home = std::env::var_os("HOME").map(PathBuf::from).filter(|h| h.is_absolute());
    if let Some(home) = home {
        let folder = home.join(".local/state/approval-gates");
        location::with_folder(Some(&folder), || {
            assert!(reaches_ledger(&home.join(".local")));
            assert!(reaches_ledger(&home.join(".local/state")));
            assert!(!reaches_ledger(&home));
            assert!(!reaches_ledger(&home.join(".bashrc")));
        });
    }
}

#[test]
fn the_folder_comes_from_the_environment() {
    use std::ffi::OsString;
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| OsString::from(v))
    };
    if cfg!(windows) {
        return;
    }
    assert_eq!(
        location::folder_from(env(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")])),
        Some(PathBuf::from("/s/approval-gates"))
    );
    assert_eq!(
        location::folder_from(env(&[("XDG_STATE_HOME", "rel"), ("HOME", "/h")])),
        Some(PathBuf::from("/h/.local/state/approval-gates"))
    );
    assert_eq!(location::folder_from(env(&[("HOME", "/h/")])), Some(PathBuf::from("/h/.local/state/approval-gates")));
    assert_eq!(location::folder_from(env(&[("HOME", "h")])), None);
    assert_eq!(location::folder_from(env(&[])), None);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn approvals() -> impl Strategy<Value = Vec<Approval>> {
        let value = "[ -~]{1,16}";
        let one = (
            "[a-z][a-z0-9-]{0,8}",
            value,
            value,
            prop::option::of(("[a-z0-9_]{1,8}", prop::sample::select(vec!['0', '7', 'a', 'f']))),
        )
            .prop_map(|(change, by, at, plan)| match plan {
                None => Approval { change_id: change, kind: Kind::Design, by, at, plan: None },
                Some((name, sha)) => Approval { by, at, ..super::plan(&change, "x", &name, sha) },
            });
        prop::collection::vec(one, 0..8)
    }

    proptest! {
        #[test]
        fn any_bytes_read_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            let _ = Ledger::parse(&bytes, &root());
            let mut with_head = b"approval-gates ledger 1\nroot /home/me/my%20repo\n".to_vec();
            with_head.extend_from_slice(&bytes);
            let _ = Ledger::parse(&with_head, &root());
        }

        #[test]
        fn what_is_written_reads_back(approvals in approvals()) {
            let mut ledger = Ledger::new(&root(), "T");
            approvals.into_iter().for_each(|a| ledger.put(a));
            prop_assert_eq!(Ledger::parse(ledger.render().as_bytes(), &root()), Ok(ledger));
        }

        /// A ledger cut short anywhere (a torn copy) holds nothing the original did not: each
        /// approval it still yields is one of the original's, or the last line's with its final
        /// field cut, which can match no approval.md the owner's channels wrote.
        #[test]
        fn a_torn_ledger_holds_nothing_new(approvals in approvals(), cut in any::<prop::sample::Index>()) {
            let mut ledger = Ledger::new(&root(), "T");
            approvals.into_iter().for_each(|a| ledger.put(a));
            let text = ledger.render();
            let torn = &text.as_bytes()[..cut.index(text.len() + 1)];
            if let Ok(read) = Ledger::parse(torn, &root()) {
                let last = read.approvals().len().saturating_sub(1);
                for (index, approval) in read.approvals().iter().enumerate() {
                    let original = ledger.get(&approval.change_id, approval.kind);
                    let same = original == Some(approval);
                    let cut_short = index == last
                        && original.is_some_and(|o| o.plan.is_none() && o.at.starts_with(&approval.at) && o.at != approval.at);
                    prop_assert!(same || cut_short, "{:?} from {:?}", approval, torn);
                }
            }
        }
    }
}
