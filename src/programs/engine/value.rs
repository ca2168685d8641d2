//! Values: strings with holes ([`HOLE`]) for what the program computes at run time.

use crate::analysis::formats::{self, Printf};
use crate::analysis::values::needs_no_shell_quotes;
use crate::programs::lex::{HOLE, NAME_HOLE};

/// The longest string value computed; a longer one is unknown (joining the same literal a
/// thousand times must not cost quadratic time).
const MAX_VALUE_BYTES: usize = 4 << 10;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    /// A string, with [`HOLE`] for unknown parts.
    Str(String),
    List(Vec<Val>),
    /// What `require('x')`/`import` of module `x` gives.
    Module(String),
    Unknown,
}

impl Val {
    pub fn text(&self) -> Option<&str> {
        match self {
            Val::Str(text) => Some(text),
            _ => None,
        }
    }
}

pub(super) fn concat(left: Val, right: Val, separator: &str) -> Val {
    let piece = |val: Val| match val {
        Val::Str(text) => text,
        _ => HOLE.to_string(),
    };
    if matches!((&left, &right), (Val::Unknown, Val::Unknown)) {
        return Val::Unknown;
    }
    let (left, right) = (piece(left), piece(right));
    if left.len() + right.len() > MAX_VALUE_BYTES {
        return Val::Unknown;
    }
    if separator.is_empty() || left.is_empty() || left.ends_with('/') || right.starts_with('/') && separator == "/" {
        if separator == "/" && right.starts_with('/') {
            // An absolute right side replaces the left (os.path.join, pathlib, path.resolve).
            return Val::Str(right);
        }
        return Val::Str(left + &right);
    }
    Val::Str(format!("{left}{separator}{right}"))
}

/// A mode or flags value that allows writing (`'w'`, `'a+'`, `'r+'`, `'x'`, unknown).
pub fn writes_mode(mode: &Val) -> bool {
    match mode {
        Val::Str(text) => {
            text.contains(HOLE) || text.contains(['w', 'a', 'x', '+', 'W', 'A']) || text.contains("WRITE")
        }
        // `{ flag: 'w' }` objects and computed modes.
        _ => true,
    }
}

pub(super) fn join_dir(dir: &str, path: &str) -> String {
    if dir.is_empty() { path.to_string() } else { format!("{}/{path}", dir.trim_end_matches('/')) }
}

/// `sprintf('%s/x', d)`, `'%s/x' % d`: the format filled from the arguments' values.
pub(super) fn percent_filled(format: &str, args: Vec<Val>) -> String {
    let texts: Vec<Option<&str>> = args.iter().map(Val::text).collect();
    printf_filled(format, &texts)
}

/// A printf-style format filled from `args`, the texts of its arguments in order (`None` for one
/// that is not a known string): each conversion prints its argument (the next one, or the one
/// its `%2$s` names) where that is exact ([`formats`]); a hole for an unknown argument, a named
/// one (`%(d)s`, `%{d}`), one past [`MAX_VALUE_BYTES`] and anything a conversion changes
/// inexactly. A value with holes printed whole keeps them.
pub fn printf_filled(format: &str, args: &[Option<&str>]) -> String {
    let mut out = String::new();
    let mut next = 0;
    let take = |at: usize| args.get(at).copied().flatten();
    for piece in formats::printf_pieces(format) {
        let conversion = match piece {
            Printf::Text(text) => {
                out.push_str(text);
                continue;
            }
            Printf::Conversion(conversion) => conversion,
        };
        let stars: Option<Vec<&str>> = (0..conversion.stars())
            .map(|_| {
                next += 1;
                take(next - 1)
            })
            .collect();
        let value = match (conversion.name, conversion.index) {
            (Some(_), _) => None,
            (None, Some(index)) => index.checked_sub(1).and_then(take),
            (None, None) => {
                next += 1;
                take(next - 1)
            }
        };
        let printed = match (value, stars) {
            (Some(text), Some(stars)) if !text.contains(HOLE) => conversion.print(text, &stars),
            (Some(text), Some(stars)) => {
                let whole = conversion.letter == 's' && conversion.print_text(text, &stars).as_deref() == Some(text);
                whole.then(|| text.to_string())
            }
            _ => None,
        };
        match printed {
            Some(text) if out.len() + text.len() <= MAX_VALUE_BYTES => out.push_str(&text),
            _ => out.push(HOLE),
        }
    }
    out
}

/// `line` as the walker runs it when the program changed its directory to `dir` first (`dir`
/// empty: where the program runs).
pub fn run_in(dir: &str, line: String) -> String {
    if dir.is_empty() { line } else { format!("cd {} && {line}", shell_word(dir)) }
}

/// What a part of a started command line the analysis could not compute becomes: an unquoted
/// `*`, so the shell's analysis reads it as any name that could stand there (P-18:
/// `system('cp', x, "docs/superpowers/$d/p.md")` may write a plan).
pub const COMPUTED_PART: &str = "*";

pub use crate::analysis::values::wildcarded;

/// A word quoted for bash, with holes and wildcards left outside the quotes: a wildcard may be a
/// pattern the program expanded (`glob('docs/*/plans/p.md')[0]`), so the walk reads it as one.
pub fn shell_word(text: &str) -> String {
    if needs_no_shell_quotes(text) {
        return text.to_string();
    }
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str(r"'\''"),
            HOLE | NAME_HOLE | '*' | '?' | '[' => {
                out.push('\'');
                out.push(c);
                out.push('\'');
            }
            other => out.push(other),
        }
    }
    out.push('\'');
    out
}

/// The last component of a path (`/tmp/x/approval.md` → `approval.md`).
pub fn base_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Where a copy of `source` lands when `destination` is a change folder (`cp(src, dir)` puts it
/// there under its own name): a file named `approval.md`, or one whose name the analysis could
/// not compute, is that change's approval.
pub fn copied_into(source: Option<&str>, destination: &str) -> Option<String> {
    let dir = destination.trim_end_matches('/');
    if !crate::paths::is_change_dir(std::path::Path::new(dir)) {
        return None;
    }
    let landed = match source {
        Some(source) => format!("{dir}/{}", base_name(source)),
        None => format!("{dir}/{HOLE}"),
    };
    let program = crate::paths::Dialect::Program;
    let guarded = crate::paths::names_guarded(&landed, program) || !guarded_matches(&landed).is_empty();
    guarded.then_some(landed)
}

/// Adds `item` to `list` unless it is there already (the findings keep each path once).
pub fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The guarded locations a written path with computed parts (holes) or wildcards could be: the
/// holes read as `*`, matched like a glob (P-18: a value the analysis cannot compute may be any
/// guarded location the program spells around it).
pub fn guarded_matches(path: &str) -> Vec<String> {
    let pattern = wildcarded(path);
    if !pattern.contains(['*', '?', '[']) {
        return Vec::new();
    }
    let parent = |path: &str| path.rsplit_once('/').map_or(String::new(), |(dir, _)| dir.to_string());
    let program = crate::paths::Dialect::Program;
    // A last component that could be `approval.md` counts only inside a folder that is guarded
    // or that the pattern matched (`out/*.md` is not a change's approval); a folder the pattern
    // matched (`docs/superpowers/*lans`) counts as itself.
    crate::paths::guarded_glob_matches(&pattern)
        .into_iter()
        .filter(|spelled| crate::paths::names_guarded(spelled, program))
        .filter(|spelled| {
            let folder = parent(spelled);
            base_name(spelled) != crate::paths::APPROVAL_FILE
                || folder != parent(&pattern)
                || crate::paths::names_guarded(&folder, program)
                || crate::paths::is_change_dir(std::path::Path::new(&folder))
        })
        .collect()
}
