//! getopt over expanded words: which options take a value, where options stop, and the groups
//! of options and flags a table row names.

use super::Arg;
use super::argv::has_wildcard;

/// One option or operand of a command line.
pub(super) enum Item<'a> {
    Operand(&'a Arg),
    /// A short option without a value.
    Flag(char),
    /// A short option with its value (attached or the next word).
    Short(char, Arg),
    /// A long option, with its value (`--x=v`, or the next word for one that takes a value).
    Long(&'a str, Option<Arg>),
}

/// Which options take a value: short letters, long names.
pub(super) struct Spec<'a> {
    pub short: &'a str,
    pub long: &'a [&'a str],
    /// Options end at the first operand (the rest is a command or its arguments).
    pub stop_at_operand: bool,
}

pub(super) const fn spec<'a>(short: &'a str, long: &'a [&'a str]) -> Spec<'a> {
    Spec { short, long, stop_at_operand: false }
}

pub(super) const fn prefix_spec<'a>(short: &'a str, long: &'a [&'a str]) -> Spec<'a> {
    Spec { short, long, stop_at_operand: true }
}

pub(super) fn value_of(text: &str, from: &Arg) -> Arg {
    Arg { text: text.to_string(), dynamic: from.dynamic, glob: from.glob && has_wildcard(text), pipe: false }
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
            match long.split_once('=') {
                Some((name, value)) => each(Item::Long(name, Some(value_of(value, arg)))),
                None if spec.long.contains(&long) => {
                    at += 1;
                    each(Item::Long(long, args.get(at).cloned()));
                }
                None => each(Item::Long(long, None)),
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
