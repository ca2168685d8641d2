//! The analyses wired to one another: the one implementation of [`Analyses`], above bash,
//! PowerShell, programs and patches, so that each of them hands text to the others without
//! importing them (see [`crate::analysis::handoff`]).

use std::path::{Path, PathBuf};

use crate::analysis::Unscannable;
use crate::analysis::answer::Answer;
use crate::analysis::handoff::{Analyses, Invocation, Language, Place, ProgramLimit, Strip};
use crate::{bash, patch, powershell, programs};

/// Every analysis, each handing what it cannot read itself to the one that can.
pub struct Wired;

impl Analyses for Wired {
    fn bash(&self, script: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
        bash::write_targets(script, base, self)
    }

    fn powershell(&self, script: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
        // A script a bash line runs: what the line did before it, the filesystem does not show yet.
        powershell::nested_write_targets(script, base, self)
    }

    fn runs_programs(&self, name: &str) -> bool {
        programs::language_of(name).is_some()
    }

    fn program_run(&self, argv: &[String], stdin: Option<&str>) -> Option<Invocation> {
        programs::invocation(argv, stdin)
    }

    fn shebang_language(&self, text: &str) -> Option<Language> {
        programs::language_of_shebang(text)
    }

    fn program(
        &self,
        language: Language,
        text: Option<&str>,
        args: &[String],
        place: Place,
        unseen_code: bool,
    ) -> Answer<ProgramLimit> {
        programs::analyze(language, text, args, place, unseen_code)
    }

    fn patch_files(&self, text: &str, strip: Strip) -> Option<Vec<String>> {
        patch::files_written(text, strip).ok().map(|files| files.into_iter().map(|file| file.path).collect())
    }
}

/// The files a bash command line writes when run in `base`, every hand-over followed.
pub fn bash_write_targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    bash::write_targets(command, base, &Wired)
}

/// The files a PowerShell command line writes when run in `base`, every hand-over followed.
pub fn powershell_write_targets(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    powershell::write_targets(command, base, &Wired)
}

/// The bash analysis without its cache, every hand-over followed.
#[cfg(test)]
pub(crate) fn bash_write_targets_uncached(command: &str, base: &Path) -> Result<Vec<PathBuf>, Unscannable> {
    bash::write_targets_uncached(command, base, &Wired)
}

/// The bash analysis of a persistent shell in `scope`, every hand-over followed.
#[cfg(test)]
pub(crate) fn bash_write_targets_from(
    command: &str,
    scope: &crate::analysis::scope::Scope<bash::Bash>,
) -> Result<(Vec<PathBuf>, crate::analysis::persistent::Left<crate::analysis::scope::Scope<bash::Bash>>), Unscannable> {
    bash::write_targets_from(command, scope, &Wired)
}

/// The PowerShell analysis of a persistent shell in `state`, every hand-over followed.
#[cfg(test)]
pub(crate) fn powershell_write_targets_from(
    command: &str,
    state: &crate::analysis::scope::Scope<powershell::PowerShell>,
) -> Result<crate::analysis::persistent::Walked<crate::analysis::scope::Scope<powershell::PowerShell>>, Unscannable> {
    powershell::write_targets_from(command, state, &Wired)
}
