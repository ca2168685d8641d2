//! `find`: what its tests select beneath its starting points, and what its actions do to it:
//! `-exec cmd {} ;` runs `cmd` on it (in the directory holding it with `-execdir`), `-delete`
//! removes it, `-fprint FILE` and the like write FILE.

use super::Arg;
use super::argv::has_wildcard;
use super::feeders::{fed_words, shown_file};
use super::sink::{Next, Sink};
use crate::paths::{self, glob_matches};

/// `find [-H|-L|-P|-D opts|-Olevel] [starting points] [expression]`.
pub(super) fn find(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) -> Option<Vec<Next>> {
    // `-H`, `-L`, `-P`, `-D opts`, `-O3` come before the starting points.
    let mut leading = 0;
    while let Some(arg) = args.get(leading).filter(|arg| !arg.dynamic) {
        match arg.text.as_str() {
            "-H" | "-L" | "-P" => leading += 1,
            "-D" => leading += 2,
            text if text.starts_with("-O") => leading += 1,
            _ => break,
        }
    }
    let first_expression = args
        .iter()
        .skip(leading)
        .position(|arg| !arg.dynamic && (arg.text.starts_with('-') || arg.text == "(" || arg.text == "!"))
        .map_or(args.len(), |offset| leading + offset);
    let primaries = primaries(args.get(first_expression..).unwrap_or_default());
    let mut roots: Vec<Arg> = args.get(leading.min(first_expression)..first_expression).unwrap_or_default().to_vec();
    let mut unknown = false;
    for primary in &primaries {
        match primary {
            Primary::Valued("-files0-from", file) => unknown |= !files0_from(file, stdin, sink, &mut roots),
            Primary::Valued("-fprint" | "-fprint0" | "-fls", file) | Primary::Printf(file) => sink.write(file),
            _ => {}
        }
    }
    if roots.is_empty() {
        roots.push(Arg::literal("."));
    }
    let found = selected(&roots, &primaries, unknown, args);
    Some(actions(&found, &primaries, sink))
}

/// Jobs all of one line's `-execdir`s may be judged as, one per place each runs in; past them,
/// the places left count as trees written whole.
const MAX_PLACES: usize = 32;

/// The commands find's actions run on what it found: `-delete` and `-exec` once, `{}` standing
/// for each; `-execdir` in each place, `{}` as `./name` there.
fn actions(found: &[Found], primaries: &[Primary], sink: &mut Sink) -> Vec<Next> {
    let in_place = primaries.iter().filter(|primary| matches!(primary, Primary::Run { in_place: true, .. })).count();
    // Each found has at most two places.
    let followed = found.len().min(MAX_PLACES / 2 / in_place.max(1));
    if in_place > 0 {
        for found in found.get(followed..).unwrap_or_default() {
            sink.write_tree(&found.path, None, false);
        }
    }
    let mut nexts = Vec::new();
    for primary in primaries {
        let (words, in_place) = match primary {
            Primary::Delete => (vec![Arg::literal("rm"), Arg::literal("{}")], false),
            Primary::Run { command, in_place } => (command.to_vec(), *in_place),
            _ => continue,
        };
        if !in_place {
            let roots = found.iter().map(|found| found.path.clone()).collect();
            nexts.push(Next { roots: Some(roots), reads_input: false, ..Next::with(words) });
            continue;
        }
        for (dir, name) in found.iter().take(followed).flat_map(Found::places) {
            let words = words.clone();
            nexts.push(Next { dir: Some(dir), roots: Some(vec![name]), reads_input: false, ..Next::with(words) });
        }
    }
    nexts
}

/// One element of find's expression, as far as what it writes goes.
enum Primary<'a> {
    /// `!`, `-not`: the next test or group is negated.
    Not,
    /// `(` and `)`.
    Open,
    Close,
    /// `-o`, `-or`: what follows is another branch.
    Or,
    /// A test or option and its value (`-path P`, `-maxdepth 1`, `-fprint FILE`).
    Valued(&'a str, &'a Arg),
    /// `-fprintf FILE FORMAT`.
    Printf(&'a Arg),
    /// `-exec cmd… ;` and the like; `in_place` for `-execdir`/`-okdir`.
    Run {
        command: &'a [Arg],
        in_place: bool,
    },
    Delete,
    /// Anything else: an operator, a test or action without a value.
    Other,
}

/// find's primaries that take one value.
const VALUED: &[&str] = &[
    "-amin",
    "-anewer",
    "-atime",
    "-cmin",
    "-cnewer",
    "-context",
    "-ctime",
    "-fstype",
    "-gid",
    "-group",
    "-ilname",
    "-iname",
    "-inum",
    "-ipath",
    "-iregex",
    "-iwholename",
    "-links",
    "-lname",
    "-mmin",
    "-mtime",
    "-name",
    "-newer",
    "-path",
    "-perm",
    "-regex",
    "-samefile",
    "-size",
    "-type",
    "-uid",
    "-used",
    "-user",
    "-wholename",
    "-xtype",
    "-regextype",
    "-maxdepth",
    "-mindepth",
    "-files0-from",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
];

fn primaries(expression: &[Arg]) -> Vec<Primary<'_>> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(arg) = expression.get(at) {
        at += 1;
        let text = if arg.dynamic { "" } else { arg.text.as_str() };
        let primary = match text {
            "!" | "-not" => Primary::Not,
            "(" => Primary::Open,
            ")" => Primary::Close,
            "-o" | "-or" => Primary::Or,
            "-delete" => Primary::Delete,
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let rest = expression.get(at..).unwrap_or_default();
                let end =
                    rest.iter().position(|a| !a.dynamic && (a.text == ";" || a.text == "+")).unwrap_or(rest.len());
                at += end + 1;
                let in_place = text.ends_with("dir");
                Primary::Run { command: rest.get(..end).unwrap_or_default(), in_place }
            }
            "-fprintf" => {
                let file = expression.get(at);
                at += 2;
                file.map_or(Primary::Other, Primary::Printf)
            }
            // `-newerXY reference`
            _ if VALUED.contains(&text) || text.starts_with("-newer") => {
                at += 1;
                expression.get(at - 1).map_or(Primary::Other, |value| Primary::Valued(text, value))
            }
            _ => Primary::Other,
        };
        found.push(primary);
    }
    found
}

/// `-files0-from FILE`: the starting points are the NUL-separated names FILE holds (`-`:
/// standard input; a file the line wrote with text it shows). Whether they are known; else the guarded locations the file's name names
/// stand for them.
fn files0_from(file: &Arg, stdin: Option<&str>, sink: &Sink, roots: &mut Vec<Arg>) -> bool {
    let Some(text) = shown_file(file, stdin, sink) else {
        roots.extend(fed_words(&[Arg::literal("<"), file.clone()]));
        roots.extend(fed_words(sink.job.producer).into_iter().filter(|_| file.text == "-"));
        return false;
    };
    // A name holds no NUL; one line a name, too, to be safe.
    roots.extend(text.split(['\0', '\n']).filter(|name| !name.is_empty()).map(Arg::literal));
    true
}

/// Something find may select, and pass to `-delete` or `-exec`.
struct Found {
    path: Arg,
    /// A starting point or a folder: it or anything beneath it.
    tree: bool,
}

impl Found {
    /// Where `-execdir` runs for it, with what `{}` is there: in the directory holding it, and in
    /// it for what it holds.
    fn places(&self) -> Vec<(Arg, Arg)> {
        let text = match self.path.text.trim_end_matches('/') {
            "" if self.path.text.starts_with('/') => "/",
            "" => ".",
            text => text,
        };
        // A starting point `.` or `/` runs in itself, as `./.`.
        let (dir, name) = match text.rsplit_once('/') {
            _ if text == "." || text == "/" => (text, "."),
            Some(("", name)) => ("/", name),
            Some((dir, name)) => (dir, name),
            None => (".", text),
        };
        let place = |dir: &str, name: &str| {
            (Arg { text: dir.to_string(), ..self.path.clone() }, Arg { text: format!("./{name}"), ..self.path.clone() })
        };
        let mut places = vec![place(dir, name)];
        if self.tree && text != dir {
            places.push(place(text, "."));
        }
        places
    }
}

/// What find's tests may select beneath `roots` (P-18): each starting point (it and what it
/// holds), and the guarded locations the tests name in any form: a whole-path test's own
/// location (`-path ./docs/superpowers/plans/p.md`, `-samefile F`), the guarded folders a
/// whole-path pattern spells (`-path '*plans/*'`, `-regex` read as such a pattern), approval.md
/// when a name test can match it. When a test cannot be evaluated (`-inum`, a regex beyond a
/// pattern's reach, a computed value), every guarded location the line names beneath the
/// starting points. A negated test (`-not -path './node_modules/*'`) excludes what it matches,
/// so it names nothing (docs/decisions.md#p-18).
fn selected(roots: &[Arg], primaries: &[Primary], mut unknown: bool, line: &[Arg]) -> Vec<Found> {
    let folders_only = named_apart_from_approval(primaries);
    let mut found: Vec<Found> =
        roots.iter().map(|root| Found { path: starting_point(root, folders_only), tree: true }).collect();
    let mut add = |path: Arg, tree: bool| {
        if !found.iter().any(|found| found.path == path) {
            found.push(Found { path, tree });
        }
    };
    let mut regextype = "emacs";
    for (primary, selecting) in primaries.iter().zip(selecting(primaries)) {
        match primary {
            Primary::Valued("-regextype", kind) => regextype = &kind.text,
            Primary::Valued(_, _) if !selecting => {}
            Primary::Valued(test, value) => match selects(test, value, regextype) {
                Selects::Nothing => {}
                Selects::Unknown => unknown = true,
                Selects::Named(name) if glob_matches(name, paths::APPROVAL_FILE) => {
                    roots.iter().for_each(|root| add(beneath(root, paths::APPROVAL_FILE), false));
                }
                Selects::Named(_) => {}
                Selects::Path(path) => add(path, false),
                Selects::Patterns(patterns) => patterns.iter().for_each(|pattern| spelled(pattern, roots, &mut add)),
            },
            _ => {}
        }
    }
    if unknown {
        for word in line {
            for location in paths::everything_named(&word.text, paths::Dialect::Bash) {
                roots.iter().for_each(|root| add(beneath(root, &location.to_string_lossy()), true));
            }
        }
    }
    found
}

/// A glob starting point is each folder and file it matches, and find's tests apply to those as
/// to what lies beneath them: tested by names none of which is approval.md, the files it matches
/// are not approval.md (`find src/* -name '*.o' -delete`), and only the folders it matches may
/// be guarded ones (`find docs/super*/pl* -delete`): the pattern as a folder's, `src/*/`.
fn starting_point(root: &Arg, folders_only: bool) -> Arg {
    match root.glob && folders_only {
        true => Arg { text: format!("{}/", root.text.trim_end_matches('/')), ..root.clone() },
        false => root.clone(),
    }
}

/// Whether every entry an action gets passes a name test (`-name`, `-iname`) that cannot match
/// approval.md: one branch, whose tests name no approval.md and compute nothing unknown.
fn named_apart_from_approval(primaries: &[Primary]) -> bool {
    let mut named = false;
    for (primary, selecting) in primaries.iter().zip(selecting(primaries)) {
        match primary {
            Primary::Or => return false,
            Primary::Valued(test, value) if selecting => match selects(test, value, "emacs") {
                Selects::Named(name) if !glob_matches(name, paths::APPROVAL_FILE) => named = true,
                Selects::Named(_) | Selects::Unknown => return false,
                Selects::Nothing | Selects::Path(_) | Selects::Patterns(_) => {}
            },
            _ => {}
        }
    }
    named
}

/// For each primary, whether it is a test that selects what an action gets: one in a branch of
/// the top-level `-o` that holds an action, and neither negated nor in a negated group. A test
/// negated, or in a branch without an action (`-path ./docs/superpowers/plans -prune -o …`),
/// keeps entries from the actions instead.
fn selecting(primaries: &[Primary]) -> Vec<bool> {
    let mut branches = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, primary) in primaries.iter().enumerate() {
        match primary {
            Primary::Open => depth += 1,
            Primary::Close => depth = depth.saturating_sub(1),
            Primary::Or if depth == 0 => {
                branches.push(start..at);
                start = at + 1;
            }
            _ => {}
        }
    }
    branches.push(start..primaries.len());
    let mut out = vec![false; primaries.len()];
    for branch in branches {
        let within = primaries.get(branch.clone()).unwrap_or_default();
        if !within.iter().any(|primary| matches!(primary, Primary::Delete | Primary::Run { .. })) {
            continue;
        }
        let (mut negated_groups, mut not) = (Vec::new(), false);
        for (at, primary) in branch.zip(within) {
            let in_negated = negated_groups.last().copied().unwrap_or(false);
            match primary {
                Primary::Not => {
                    not = !not;
                    continue;
                }
                Primary::Open => negated_groups.push(not || in_negated),
                Primary::Close => {
                    negated_groups.pop();
                }
                Primary::Valued(..) => {
                    if let Some(slot) = out.get_mut(at) {
                        *slot = !not && !in_negated;
                    }
                }
                _ => {}
            }
            not = false;
        }
    }
    out
}

/// What one of find's tests selects, as far as reaching a guarded location goes.
enum Selects<'a> {
    /// Nothing by its name or path (`-type f`, `-mtime 1`).
    Nothing,
    /// Entries whose name this pattern matches (`-name`).
    Named(&'a str),
    /// The one entry at this path (`-samefile F`).
    Path(Arg),
    /// Entries whose whole path one of these patterns matches (`-path`, `-regex`).
    Patterns(Vec<String>),
    /// Entries the analysis cannot tell (`-inum`, a value it could not compute).
    Unknown,
}

fn selects<'a>(test: &str, value: &'a Arg, regextype: &str) -> Selects<'a> {
    let path_test = matches!(test, "-path" | "-ipath" | "-wholename" | "-iwholename");
    let regex_test = matches!(test, "-regex" | "-iregex");
    let name_test = matches!(test, "-name" | "-iname" | "-samefile");
    match test {
        "-inum" => Selects::Unknown,
        _ if value.dynamic && (path_test || regex_test || name_test) => Selects::Unknown,
        "-name" | "-iname" => Selects::Named(&value.text),
        "-samefile" => Selects::Path(value.clone()),
        _ if path_test => Selects::Patterns(vec![value.text.clone()]),
        _ if regex_test => regex_patterns(&value.text, regextype).map_or(Selects::Unknown, Selects::Patterns),
        _ => Selects::Nothing,
    }
}

/// What a whole-path test's pattern selects beneath `roots`: the one path it matches when it has
/// no wildcards; else the guarded folders it spells, and approval.md when its last part can match
/// that name.
fn spelled(pattern: &str, roots: &[Arg], add: &mut impl FnMut(Arg, bool)) {
    if !has_wildcard(pattern) {
        add(Arg::literal(&unescaped(pattern)), false);
        return;
    }
    let last = pattern.rsplit('/').next().unwrap_or(pattern);
    for root in roots.iter().filter(|root| !root.dynamic) {
        for folder in paths::guarded_folders_spelled(&root.text, pattern) {
            add(Arg { text: folder, ..root.clone() }, true);
        }
        if glob_matches(last, paths::APPROVAL_FILE) {
            add(beneath(root, paths::APPROVAL_FILE), false);
        }
    }
}

/// `text` beneath the starting point `root`.
fn beneath(root: &Arg, text: &str) -> Arg {
    Arg { text: format!("{}/{text}", root.text.trim_end_matches('/')), ..root.clone() }
}

/// A whole-path pattern without wildcards, as the path it matches: fnmatch's `\x` is `x`.
fn unescaped(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next().unwrap_or(c) } else { c });
    }
    out
}

/// Whole-path patterns one regular expression may stand for before it counts as beyond them.
const MAX_REGEX_PATTERNS: usize = 16;

/// The whole-path patterns that together match at least what a regular expression find matches
/// against the whole path matches (`-regex`, read by `-regextype`: emacs's `\(a\|b\)` by
/// default, `(a|b)` for the POSIX-extended kinds): each alternative spelled out, a repeated
/// element as `*`, `.` as `?`, bracket expressions as they are. `None` for what a pattern cannot
/// stand for (back-references, classes like `\w`), or past [`MAX_REGEX_PATTERNS`].
fn regex_patterns(regex: &str, regextype: &str) -> Option<Vec<String>> {
    let extended = !matches!(regextype, "emacs" | "posix-basic" | "grep" | "ed" | "sed" | "findutils-default");
    let reader = RegexReader { chars: regex.chars().collect(), extended };
    let mut at = usize::from(regex.starts_with('^'));
    let patterns = reader.alternatives(&mut at, 0)?;
    (at >= reader.chars.len()).then_some(patterns)
}

/// Reads a regular expression of one syntax into whole-path patterns.
struct RegexReader {
    chars: Vec<char>,
    /// `(`, `|`, `{` are operators (and `\(` literal), as in POSIX extended syntax.
    extended: bool,
}

/// Groups one regular expression may nest before it counts as beyond a pattern.
const MAX_REGEX_DEPTH: usize = 8;

impl RegexReader {
    /// The operator `op` (`(`, `)`, `|`, `{`, `}`) at `at`, in this syntax's spelling.
    fn operator(&self, at: usize, op: char) -> Option<usize> {
        match (self.extended, self.chars.get(at), self.chars.get(at + 1)) {
            (true, Some(&c), _) if c == op => Some(1),
            (false, Some('\\'), Some(&c)) if c == op => Some(2),
            _ => None,
        }
    }

    /// The alternatives from `at` to the end or a closing group.
    fn alternatives(&self, at: &mut usize, depth: usize) -> Option<Vec<String>> {
        if depth > MAX_REGEX_DEPTH {
            return None;
        }
        let mut all = Vec::new();
        let mut current = vec![String::new()];
        while *at < self.chars.len() && self.operator(*at, ')').is_none() {
            if let Some(width) = self.operator(*at, '|') {
                *at += width;
                all.append(&mut current);
                current.push(String::new());
                continue;
            }
            let mut choices = self.atom(at, depth)?;
            if self.quantified(at)? {
                // Repeated, or absent: anything, at the pattern's coarseness.
                choices = vec!["*".to_string()];
            }
            current = current.iter().flat_map(|head| choices.iter().map(move |tail| format!("{head}{tail}"))).collect();
            if current.len() + all.len() > MAX_REGEX_PATTERNS {
                return None;
            }
        }
        all.append(&mut current);
        Some(all)
    }

    /// One element at `at`: its patterns.
    fn atom(&self, at: &mut usize, depth: usize) -> Option<Vec<String>> {
        if let Some(width) = self.operator(*at, '(') {
            *at += width;
            let inner = self.alternatives(at, depth + 1)?;
            *at += self.operator(*at, ')')?;
            return Some(inner);
        }
        let &c = self.chars.get(*at)?;
        *at += 1;
        let literal = |c: char| Some(vec![if "*?[\\".contains(c) { format!("\\{c}") } else { c.to_string() }]);
        match c {
            '.' => Some(vec!["?".to_string()]),
            '$' if *at == self.chars.len() => Some(vec![String::new()]),
            '[' => {
                let negated = matches!(self.chars.get(*at), Some('^'));
                let start = *at + usize::from(negated);
                let end = self.chars.get(start + 1..)?.iter().position(|&c| c == ']')? + start + 1;
                let members: String = self.chars.get(start..end)?.iter().collect();
                *at = end + 1;
                Some(vec![format!("[{}{members}]", if negated { "!" } else { "" })])
            }
            '\\' => {
                let &escaped = self.chars.get(*at)?;
                *at += 1;
                // `\w`, `\1` and the like: beyond a pattern.
                escaped.is_ascii_punctuation().then_some(())?;
                literal(escaped)
            }
            '*' | '+' | '?' | '^' | '$' => None,
            '{' | '|' | ')' if self.extended => None,
            c => literal(c),
        }
    }

    /// Whether a repetition follows at `at` (`*`, `+`, `?`, `{m,n}`), consumed; `None` for a
    /// malformed one.
    fn quantified(&self, at: &mut usize) -> Option<bool> {
        let mut repeated = false;
        loop {
            match self.chars.get(*at) {
                Some('*') => *at += 1,
                Some('+' | '?') if self.extended || !matches!(self.chars.get(at.wrapping_sub(1)), Some('\\')) => {
                    *at += 1
                }
                Some('\\') if !self.extended && matches!(self.chars.get(*at + 1), Some('+' | '?')) => *at += 2,
                _ => match self.operator(*at, '{') {
                    Some(width) => {
                        let close = (*at + width..self.chars.len()).find(|&end| self.operator(end, '}').is_some())?;
                        *at = close + self.operator(close, '}')?;
                    }
                    None => return Some(repeated),
                },
            }
            repeated = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::regex_patterns;

    #[test]
    fn a_regex_is_read_as_the_patterns_that_match_at_least_what_it_matches() {
        let read = |regex: &str, kind: &str| regex_patterns(regex, kind);
        assert_eq!(read("./docs/p\\.md", "emacs"), Some(vec!["?/docs/p.md".to_string()]));
        assert_eq!(read("^.*/[^/]*\\.md$", "emacs"), Some(vec!["*/*.md".to_string()]));
        assert_eq!(read("[^.]x", "emacs"), Some(vec!["[!.]x".to_string()]));
        let either = Some(vec!["*/a/x".to_string(), "*/b/x".to_string()]);
        assert_eq!(read(".*/\\(a\\|b\\)/x", "emacs"), either);
        assert_eq!(read(".*/(a|b)/x", "posix-extended"), either);
        // In emacs syntax `(` and `|` are characters; a repetition is any text.
        assert_eq!(read("(a|b)", "emacs"), Some(vec!["(a|b)".to_string()]));
        assert_eq!(read("x+y{2}z?", "posix-extended"), Some(vec!["***".to_string()]));
        // Beyond a pattern: classes by name, back-references, too many alternatives.
        assert_eq!(read(".*/\\w+", "emacs"), None);
        assert_eq!(read("\\(a\\)\\1", "emacs"), None);
        assert_eq!(read(&"\\(a\\|b\\)".repeat(5), "emacs"), None);
    }
}
