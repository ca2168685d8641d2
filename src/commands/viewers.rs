//! Readers that run a command they are given: a pager (`man -P`, `bat --pager`, `PAGER=…`), a
//! preprocessor (`LESSOPEN='|cmd %s' less f`, `rg --pre cmd`), a browser (`man -H`). A row each:
//! the options and variables whose value is a command line it runs, the files it writes, and what
//! runs text the line does not show.

use super::effects::{Effect, Variable};
use super::options::{Item, Spec, Valued, options, spec};
use super::sink::Sink;
use super::{Arg, quote, unknown};

/// One reader that may run a command line.
pub(super) struct Viewer {
    pub names: &'static [&'static str],
    pub options: Spec<'static>,
    /// Options whose value is a command line it runs.
    pub runs: Valued,
    /// Variables whose value, set by the line, is a command line it runs; `%s` in it is the
    /// file being read (`LESSOPEN`, `LESSCLOSE`).
    pub variables: &'static [&'static str],
    /// Options whose value is a file it writes (`less -o log`).
    pub writes: Valued,
    /// What runs commands the line does not show (`rg --pre cmd` runs `cmd` on every file it
    /// searches; `bat cache`, `vale sync`, `glow config` write or open an editor): it is then
    /// judged as an unknown command.
    pub unproven: Unproven,
}

/// Options, subcommands and variables that make a [`Viewer`] an unknown command.
pub(super) struct Unproven {
    pub options: Valued,
    pub subcommands: &'static [&'static str],
    pub variables: &'static [&'static str],
}

const fn viewer(names: &'static [&'static str], options: Spec<'static>) -> Viewer {
    Viewer {
        names,
        options,
        runs: Valued::NONE,
        variables: &[],
        writes: Valued::NONE,
        unproven: Unproven { options: Valued::NONE, subcommands: &[], variables: &[] },
    }
}

const PAGER: Valued = Valued { short: "", long: &["pager"] };

pub(super) const VIEWERS: &[Viewer] = &[
    Viewer {
        variables: &["LESSOPEN", "LESSCLOSE"],
        writes: Valued { short: "oO", long: &["log-file", "LOG-FILE"] },
        ..viewer(
            &["less", "zless", "more"],
            spec("bhjkoOpPtTxyz#", &["log-file", "LOG-FILE", "lesskey-file", "pattern", "prompt", "tag", "tag-file"]),
        )
    },
    Viewer {
        runs: Valued { short: "PH", long: &["pager", "html"] },
        variables: &["MANPAGER", "PAGER", "BROWSER"],
        // `--html[=browser]` (a browser only after `=`); `-H` takes the next word too, which only
        // over-reads a line that runs no browser.
        ..viewer(
            &["man"],
            spec("PHCMSsmLReEpT", &["pager", "config-file", "manpath", "sections", "locale"]).flags(&["html"]),
        )
    },
    Viewer {
        runs: PAGER,
        variables: &["BAT_PAGER", "PAGER"],
        unproven: Unproven { options: Valued::NONE, subcommands: &["cache"], variables: &["BAT_CONFIG_PATH"] },
        ..viewer(&["bat", "batcat"], spec("lHmr", &["pager", "language", "map-syntax", "line-range"]).exact())
    },
    Viewer {
        runs: PAGER,
        variables: &["DELTA_PAGER", "BAT_PAGER", "PAGER"],
        ..viewer(&["delta"], spec("", &["pager", "config", "features", "syntax-theme"]).exact())
    },
    Viewer { variables: &["MDCAT_PAGER", "PAGER"], ..viewer(&["mdcat", "mdless"], spec("", &["columns"]).exact()) },
    Viewer {
        variables: &["PAGER"],
        unproven: Unproven { options: Valued::NONE, subcommands: &["config"], variables: &[] },
        ..viewer(&["glow"], spec("sw", &["style", "width", "config"]).exact())
    },
    Viewer { runs: PAGER, ..viewer(&["ack", "ag"], spec("ABCGgm", &["pager", "ackrc", "type", "ignore-dir"])) },
    Viewer {
        unproven: Unproven {
            options: Valued { short: "", long: &["pre", "hostname-bin"] },
            subcommands: &[],
            variables: &["RIPGREP_CONFIG_PATH"],
        },
        ..viewer(&["rg"], spec("efgtTmABCEMrj", &["pre", "pre-glob", "hostname-bin", "regexp", "file", "glob"]).exact())
    },
    Viewer {
        unproven: Unproven { options: Valued::NONE, subcommands: &["sync"], variables: &[] },
        ..viewer(&["vale"], spec("", &["config", "output", "ext", "glob", "minAlertLevel", "filter"]).exact())
    },
];

/// Whether `name` run with `args` is a viewer that runs and writes nothing of its own: no option
/// that runs a command, writes a file or makes it unknown, no such subcommand (`less -R`). Its
/// variables are judged where the line sets them.
pub(super) fn reads_only(name: &str, args: &[Arg]) -> bool {
    let Some(viewer) = VIEWERS.iter().find(|viewer| viewer.names.contains(&name)) else { return false };
    let mut quiet = true;
    let mut first = None;
    options(args, &viewer.options, |item| {
        quiet &= viewer.unproven.options.value(&item).is_none()
            && viewer.runs.value(&item).is_none()
            && viewer.writes.value(&item).is_none();
        if let Item::Operand(arg) = item {
            first.get_or_insert_with(|| arg.text.clone());
        }
    });
    quiet && !first.is_some_and(|sub| viewer.unproven.subcommands.contains(&sub.as_str()))
}

impl Viewer {
    pub fn run(&self, name: &str, args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
        let set = |variable: &&str| matches!(sink.job.environment.variable(variable), Variable::Set(_));
        let mut unproven = self.unproven.variables.iter().any(set);
        let mut scripts = Vec::new();
        let mut files = Vec::new();
        options(args, &self.options, |item| {
            unproven |= self.unproven.options.value(&item).is_some();
            scripts.extend(self.runs.value(&item));
            if let Some(file) = self.writes.value(&item) {
                sink.write(&file);
            }
            if let Item::Operand(arg) = item {
                files.push(arg.clone());
            }
        });
        unproven |= files.first().is_some_and(|sub| self.unproven.subcommands.contains(&sub.text.as_str()));
        if unproven {
            unknown::analyze(name, args, stdin, sink);
            return;
        }
        for script in &scripts {
            sink.script(&script.text);
        }
        for variable in self.variables {
            let environment = sink.job.environment.clone();
            sink.push(Effect::VariableCommand { variable: variable.to_string(), files: files.clone(), environment });
        }
    }
}

/// The command lines a pager variable's value runs: `%s` stands for each file in turn
/// (`LESSOPEN='|cat %s'`; standard input is `-`), and the `|` or `-` before it only says how
/// its output is read.
pub fn variable_command_lines(value: &str, files: &[Arg]) -> Vec<String> {
    let command = value.trim_start_matches(['|', '-']);
    if !command.contains("%s") {
        return vec![command.to_string()];
    }
    if files.is_empty() {
        return vec![command.replace("%s", "-")];
    }
    files.iter().map(|file| command.replace("%s", &quote(&file.text))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pager_variable_runs_once_per_file() {
        let files = [Arg::literal("a b.md"), Arg::literal("c.md")];
        assert_eq!(variable_command_lines("|cat %s", &files), ["cat 'a b.md'", "cat 'c.md'"]);
        assert_eq!(variable_command_lines("||-lesspipe %s", &[]), ["lesspipe -"]);
        assert_eq!(variable_command_lines("most", &files), ["most"]);
    }
}
