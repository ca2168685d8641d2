//! Temporary repositories for the unit tests.

use std::fs;
use std::path::{Path, PathBuf};

use crate::plan::sha256_hex;

pub struct Repo {
    _dir: Option<tempfile::TempDir>,
    pub root: PathBuf,
}

impl Repo {
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = fs::canonicalize(dir.path()).expect("canonical temp dir");
        Repo { _dir: Some(dir), root }
    }

    /// A repository at `root`, left in place (inside another test repository).
    pub fn at(root: PathBuf) -> Repo {
        Repo { _dir: None, root }
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    pub fn write(&self, relative: &str, content: &str) -> &Repo {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, content).expect("write");
        self
    }

    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.path(relative)).unwrap_or_default()
    }

    /// proposal.md, design.md and builder-check.md of change `id`.
    pub fn change(&self, id: &str) -> &Repo {
        for file in ["proposal.md", "design.md", "builder-check.md"] {
            self.write(&format!("openspec/changes/{id}/{file}"), "# text\n");
        }
        self
    }

    pub fn approval(&self, id: &str, text: &str) -> &Repo {
        self.write(&format!("openspec/changes/{id}/approval.md"), text)
    }

    pub fn approve_design(&self, id: &str) -> &Repo {
        self.approval(id, "design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\n")
    }

    pub fn plan_text(id: &str) -> String {
        format!("# Plan\n\n**Spec:** openspec/changes/{id}/design.md\n\n- [ ] task 1\n")
    }

    pub fn plan(&self, name: &str, id: &str) -> &Repo {
        self.write(&format!("docs/superpowers/plans/{name}.md"), &Self::plan_text(id))
    }

    /// A design and a plan section binding the plan's current bytes.
    pub fn approve_plan(&self, id: &str, name: &str) -> &Repo {
        let sha = sha256_hex(self.read(&format!("docs/superpowers/plans/{name}.md")).as_bytes());
        self.approval(
            id,
            &format!(
                "design:\n  by: owner\n  at: 2026-10-25T10:00:00Z\nplan:\n  by: owner\n  at: 2026-10-25T11:30:00Z\n  sha256: {sha}\n"
            ),
        )
    }

    pub fn exists(&self, relative: &str) -> bool {
        Path::new(&self.path(relative)).exists()
    }
}
