//! getopt over expanded words: which options take a value, where options stop, and the groups
//! of options and flags a table row names.

use super::Arg;

/// One option or operand of a command line.
pub(super) enum Item<'a> {
    Operand(&'a Arg),
    /// A short option without a value.
    Flag(char),
    /// A short option with its value (attached or the next word).
    Short(char, Arg),
    /// A long option by the row's name for it (`--t=d` is `target-directory`), with its value
    /// (`--x=v`, or the next word for one that takes a value).
    Long(&'a str, Option<Arg>),
}

/// Which options take a value: short letters, long names; and the long names without one.
#[derive(Clone, Copy)]
pub(super) struct Spec<'a> {
    pub short: &'a str,
    pub long: &'a [&'static str],
    /// Long options without a value (or with an optional `=value`) the row reads, and those a
    /// longer name begins with: getopt takes an exact name before the longer ones it begins
    /// (`--backup` is not `--backup-dir`).
    pub flags: &'a [&'static str],
    /// Options end at the first operand (the rest is a command or its arguments).
    pub stop_at_operand: bool,
    /// The tool takes a long option by its exact name only (popt, hand-written parsers).
    pub exact: bool,
}

pub(super) const fn spec<'a>(short: &'a str, long: &'a [&'static str]) -> Spec<'a> {
    Spec { short, long, flags: &[], stop_at_operand: false, exact: false }
}

pub(super) const fn prefix_spec<'a>(short: &'a str, long: &'a [&'static str]) -> Spec<'a> {
    Spec { short, long, flags: &[], stop_at_operand: true, exact: false }
}

impl<'a> Spec<'a> {
    pub const fn flags(self, flags: &'a [&'static str]) -> Spec<'a> {
        Spec { flags, ..self }
    }

    pub const fn exact(self) -> Spec<'a> {
        Spec { exact: true, ..self }
    }

    /// The long options `typed` stands for: the one it names, else every one it begins (getopt_long,
    /// Getopt::Long and argparse take an unambiguous prefix; the tool refuses an ambiguous one, so
    /// reading it as each only over-refuses a line that fails), else itself, an option the row
    /// does not know.
    pub fn long_names<'t>(&self, typed: &'t str) -> impl Iterator<Item = &'t str> + use<'a, 't> {
        let known = self.long.iter().chain(self.flags).map(|name| -> &'t str { name });
        let exact = known.clone().any(|name| name == typed);
        let begun = !exact && !self.exact && known.clone().any(|name| name.starts_with(typed));
        (!begun).then_some(typed).into_iter().chain(known.filter(move |name| begun && name.starts_with(typed)))
    }

    fn takes_value(&self, name: &str) -> bool {
        self.long.contains(&name)
    }
}

pub(super) fn value_of(text: &str, from: &Arg) -> Arg {
    Arg::part_of(text, from)
}

/// Walks `args` as getopt would; returns where it stopped (the first operand when the spec stops
/// there, else `args.len()`).
pub(super) fn options<'a>(args: &'a [Arg], spec: &Spec<'_>, mut each: impl FnMut(Item<'a>)) -> usize {
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let text = arg.text.as_str();
        if text == "--" && !arg.dynamic {
            at += 1;
            if spec.stop_at_operand {
                return at;
            }
            for rest in args.get(at..).unwrap_or_default() {
                each(Item::Operand(rest));
            }
            return args.len();
        }
        if let Some(long) = text.strip_prefix("--").filter(|_| !arg.dynamic) {
            let (typed, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value_of(value, arg))),
                None => (long, None),
            };
            let next = match &attached {
                None if spec.long_names(typed).any(|name| spec.takes_value(name)) => {
                    at += 1;
                    args.get(at).cloned()
                }
                _ => None,
            };
            for name in spec.long_names(typed) {
                let value = match &attached {
                    Some(value) => Some(value.clone()),
                    None if spec.takes_value(name) => next.clone(),
                    None => None,
                };
                each(Item::Long(name, value));
            }
            at += 1;
            continue;
        }
        if let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty() && !arg.dynamic) {
            for (offset, letter) in cluster.char_indices() {
                if spec.short.contains(letter) {
                    let rest = cluster.get(offset + letter.len_utf8()..).unwrap_or_default();
                    if rest.is_empty() {
                        at += 1;
                        if let Some(value) = args.get(at) {
                            each(Item::Short(letter, value.clone()));
                        }
                    } else {
                        each(Item::Short(letter, value_of(rest, arg)));
                    }
                    break;
                }
                each(Item::Flag(letter));
            }
            at += 1;
            continue;
        }
        if spec.stop_at_operand {
            return at;
        }
        each(Item::Operand(arg));
        at += 1;
    }
    args.len()
}

pub(super) fn operands<'a>(args: &'a [Arg], spec: &Spec<'_>) -> Vec<&'a Arg> {
    let mut found = Vec::new();
    options(args, spec, |item| {
        if let Item::Operand(arg) = item {
            found.push(arg);
        }
    });
    found
}

/// Whether long option `name` is `full` or an abbreviation of it at least as long as `shortest`
/// (git's parse-options takes any unambiguous prefix).
pub(super) fn abbreviates(name: &str, full: &str, shortest: &str) -> bool {
    name.len() >= shortest.len() && full.starts_with(name)
}

pub(super) fn static_is(arg: Option<&Arg>, text: &str) -> bool {
    arg.is_some_and(|arg| !arg.dynamic && arg.text == text)
}

/// Options a row names by their letters and long names: their values are what it writes, or
/// where it runs.
#[derive(Clone, Copy)]
pub(super) struct Valued {
    pub short: &'static str,
    pub long: &'static [&'static str],
}

impl Valued {
    pub const NONE: Valued = Valued { short: "", long: &[] };

    /// The value `item` gives one of these options.
    pub fn value(&self, item: &Item<'_>) -> Option<Arg> {
        match item {
            Item::Short(letter, value) if self.short.contains(*letter) => Some(value.clone()),
            Item::Long(name, Some(value)) if self.long.contains(name) => Some(value.clone()),
            _ => None,
        }
    }
}

/// Options without a value a row names by their letters and long names.
#[derive(Clone, Copy)]
pub(super) struct Flags {
    pub short: &'static str,
    pub long: &'static [&'static str],
}

impl Flags {
    pub const NONE: Flags = Flags { short: "", long: &[] };

    pub fn given(&self, item: &Item<'_>) -> bool {
        match item {
            Item::Flag(letter) => self.short.contains(*letter),
            Item::Long(name, None) => self.long.contains(name),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longs(words: &[&str], spec: &Spec<'_>) -> Vec<String> {
        let args: Vec<Arg> = words.iter().map(|word| Arg::literal(word)).collect();
        let mut found = Vec::new();
        options(&args, spec, |item| match item {
            Item::Long(name, value) => found.push(format!("{name}={}", value.map_or("-".to_string(), |v| v.text))),
            Item::Operand(arg) => found.push(arg.text.clone()),
            _ => {}
        });
        found
    }

    #[test]
    fn a_long_option_may_be_any_prefix_that_names_one_option() {
        let rsync = spec("", &["backup-dir", "log-file", "log-file-format"]).flags(&["backup", "dry-run"]);
        assert_eq!(longs(&["--backup-d", "d", "a"], &rsync), ["backup-dir=d", "a"]);
        assert_eq!(longs(&["--backup-d=d", "a"], &rsync), ["backup-dir=d", "a"]);
        // An exact name wins over the longer ones it begins.
        assert_eq!(longs(&["--backup", "a", "b"], &rsync), ["backup=-", "a", "b"]);
        assert_eq!(longs(&["--log-file", "l", "a"], &rsync), ["log-file=l", "a"]);
        assert_eq!(longs(&["--dry", "a"], &rsync), ["dry-run=-", "a"]);
        // Ambiguous: every option it may be, the next word the value of those that take one.
        assert_eq!(longs(&["--log-f", "l", "a"], &rsync), ["log-file=l", "log-file-format=l", "a"]);
        assert_eq!(longs(&["--b", "x", "a"], &rsync), ["backup-dir=x", "backup=-", "a"]);
        assert_eq!(longs(&["--b=x", "a"], &rsync), ["backup-dir=x", "backup=x", "a"]);
        // Unknown to the row: itself, taking no value.
        assert_eq!(longs(&["--checksum", "a", "b"], &rsync), ["checksum=-", "a", "b"]);
        assert_eq!(longs(&["--", "--backup-d", "a"], &rsync), ["--backup-d", "a"]);
        // popt and hand-written parsers take exact names only.
        assert_eq!(longs(&["--backup-d", "d", "a"], &rsync.exact()), ["backup-d=-", "d", "a"]);
    }
}
