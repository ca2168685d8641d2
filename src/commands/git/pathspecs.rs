//! git's pathspecs: the magic read off them, the paths they reach, and those
//! `--pathspec-from-file` reads.

use super::super::feeders::is_stdin;
use super::super::options::abbreviates;
use super::super::sink::Sink;
use super::super::{Arg, Effect, has_wildcard};
use crate::paths::{self, glob_matches};

/// What git writes of the files under a pathspec, and from where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Restore {
    /// The work tree, from a revision (`checkout <rev> --`, `restore --source`): any file under it.
    FromRevision,
    /// The work tree, from the index (`checkout --`, `restore`): the files that differ from it.
    FromIndex,
    /// The index only (`reset <rev> --`, `restore --staged`): what a later restore from the index
    /// brings back.
    IntoIndex,
}

/// One pathspec of `checkout`/`restore`/`reset`: the path it names, written unless into the index
/// only; and what else `restore` reaches under it: from a revision, the tree; from the index,
/// the files the line may have made differ from it ([`Effect::RestoresNamed`]); into the index,
/// what a later restore from it brings back ([`Effect::Stages`]). Magic (`:(icase)x`, `:/x`,
/// `:(top)x`) is read off: `icase` is the path in any case, so its lower case too (the guarded
/// names are lower case); `:/` and `:(top)` start at the top of the work tree, not where git
/// runs (`cd src && git checkout HEAD~1 -- :/` is the whole repository): those writes go to
/// `top`, relative to it; a glob (which in a pathspec crosses `/`) reaches the tree under the
/// directory before its first wildcard. An exclusion (`:!x`, `:^x`) writes nothing.
pub(super) fn pathspec_write(spec: &Arg, restore: Restore, top: &mut Vec<Effect>, sink: &mut Sink) {
    let Some(pathspec) = Pathspec::read(&spec.text) else { return };
    if pathspec.top {
        top.extend(sink.collected("", |top| pathspec_paths_write(&pathspec, spec, restore, top)));
    } else {
        pathspec_paths_write(&pathspec, spec, restore, sink);
    }
}

/// [`pathspec_write`] of a pathspec with its magic read off.
fn pathspec_paths_write(pathspec: &Pathspec, spec: &Arg, restore: Restore, sink: &mut Sink) {
    let glob = has_wildcard(&pathspec.path) && !pathspec.literal;
    let mut spellings = vec![pathspec.path.clone()];
    if pathspec.icase && pathspec.path.to_lowercase() != pathspec.path {
        spellings.push(pathspec.path.to_lowercase());
    }
    for text in spellings {
        let text = if text.is_empty() { ".".to_string() } else { text };
        let path = Arg { text, glob: spec.glob || glob, ..spec.clone() };
        // A glob reaches guarded files only beneath the folder before its first wildcard, and
        // only when its last part can end in a guarded name.
        let root = match glob {
            true => may_match_a_guarded_name(&path.text).then(|| before_wildcards(&path)),
            false => Some(path.clone()),
        };
        if restore != Restore::IntoIndex {
            sink.write(&path);
        }
        match (restore, root) {
            (Restore::IntoIndex, Some(root)) => sink.stage(&root),
            (Restore::FromIndex, Some(root)) => sink.restore_named(&root),
            (Restore::FromRevision, Some(root)) if glob => sink.write_tree(&root, None, true),
            (Restore::FromRevision, _) => sink.write_tree(&path, None, false),
            (_, None) => {}
        }
    }
}

/// The folder a pathspec glob starts from: the directory before its first wildcard.
fn before_wildcards(glob: &Arg) -> Arg {
    let before = glob.text.find(['*', '?', '[']).map_or(glob.text.as_str(), |at| &glob.text[..at]);
    let dir = before.rsplit_once('/').map_or(".", |(dir, _)| if dir.is_empty() { "/" } else { dir });
    Arg { text: dir.to_string(), glob: false, ..glob.clone() }
}

/// Could a pathspec glob (whose `*` crosses `/`) end in a guarded file's name: `approval.md`, or
/// the Markdown files of the plans and sdd folders? `'*.js'` cannot; `'*.md'`, `'docs/*'` can.
fn may_match_a_guarded_name(pattern: &str) -> bool {
    let last = pattern.rsplit('/').next().unwrap_or(pattern).to_ascii_lowercase();
    glob_matches(&last, paths::APPROVAL_FILE) || last.ends_with(".md") || last.ends_with(['*', '?', ']'])
}

/// A pathspec with its magic read off.
struct Pathspec {
    path: String,
    icase: bool,
    literal: bool,
    /// `:/`, `:(top)`: from the top of the work tree, not where git runs.
    top: bool,
}

impl Pathspec {
    /// `None` for an exclusion.
    fn read(text: &str) -> Option<Pathspec> {
        let mut pathspec = Pathspec { path: text.to_string(), icase: false, literal: false, top: false };
        let Some(magic) = text.strip_prefix(':') else { return Some(pathspec) };
        if let Some(long) = magic.strip_prefix('(') {
            let (words, path) = long.split_once(')').unwrap_or((long, ""));
            for word in words.split(',') {
                match word.split(':').next().unwrap_or(word) {
                    "exclude" => return None,
                    "icase" => pathspec.icase = true,
                    "literal" => pathspec.literal = true,
                    "top" => pathspec.top = true,
                    _ => {}
                }
            }
            pathspec.path = path.to_string();
            return Some(pathspec);
        }
        // Short magic: `:/`, `:!`, `:^`, up to an optional second `:`.
        let end = magic.find(|c: char| !matches!(c, '/' | '!' | '^')).unwrap_or(magic.len());
        let (short, rest) = magic.split_at(end);
        if short.contains(['!', '^']) {
            return None;
        }
        pathspec.top = short.contains('/');
        pathspec.path = rest.strip_prefix(':').unwrap_or(rest).to_string();
        Some(pathspec)
    }
}

/// A command's words with `--pathspec-from-file` read off.
pub(super) enum FromFile {
    /// Not given.
    Absent,
    /// The words with the pathspecs it names put after `--`.
    Read(Vec<Arg>),
    /// A file for the walk to read: the command is judged again with its text on standard input,
    /// with these words (`--pathspec-from-file=-` in place of the option).
    File { file: Arg, words: Vec<Arg> },
}

/// `--pathspec-from-file=<file>` (`-`, `/dev/stdin`: standard input; `--pathspec-file-nul`:
/// NUL-separated): the pathspecs are what the file holds. A process substitution whose output the
/// walk knows (`<(echo …)`) and standard input the line shows (a heredoc, a here-string, `echo …
/// |`; a `<` file or `cat f |` the walk reads) are read here; from another
/// command, that command's words are what it may feed (P-18, as for an unknown command); a file
/// named is read by the walk ([`FromFile::File`]); one it cannot read, or a name it could not
/// compute, may hold anything: every guarded location the line names, which for a command that
/// writes only the index (`into_index`) a later restore from the index reaches anyway.
pub(super) fn from_file(args: &[Arg], stdin: Option<&str>, into_index: bool, sink: &mut Sink) -> FromFile {
    let mut words = Vec::new();
    let (mut file, mut nul) = (None, false);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        // A value the walk could not compute (`=<(cat list)`) after a name it knows is still one.
        let option = arg.text.strip_prefix("--").filter(|long| !arg.dynamic || long.contains('='));
        let (name, value) = match option.map(|long| long.split_once('=').unwrap_or((long, ""))) {
            Some(("", _)) => {
                words.push(arg.clone());
                words.extend(rest.by_ref().cloned());
                break;
            }
            Some(split) => split,
            None => ("", ""),
        };
        if abbreviates(name, "pathspec-from-file", "pathspec-fr") {
            file = match arg.text.contains('=') {
                true => Some(Arg { text: value.to_string(), ..arg.clone() }),
                false => rest.next().cloned(),
            };
        } else if abbreviates(name, "pathspec-file-nul", "pathspec-fi") {
            nul = true;
        } else {
            words.push(arg.clone());
        }
    }
    let Some(file) = file else { return FromFile::Absent };
    let shown = match () {
        _ if file.pipe && !file.dynamic => Some(file.text.as_str()),
        _ if is_stdin(&file) => stdin,
        _ => None,
    };
    let unknown = |sink: &mut Sink| {
        if !into_index {
            sink.push(Effect::RunsUnseen);
        }
        Vec::new()
    };
    let named: Vec<Arg> = match shown {
        Some(text) => pathspecs_in(text, nul).into_iter().map(|path| Arg::literal(&path)).collect(),
        // A name the walk could not compute, or a substitution whose output it does not know.
        None if file.dynamic => unknown(sink),
        // A file the walk could not read (`< f`, `cat f |`).
        None if is_stdin(&file)
            && matches!(sink.job.producer.first(), Some(first) if first.text == "<" || first.text == "cat") =>
        {
            unknown(sink)
        }
        None if is_stdin(&file) => {
            sink.job.producer.get(1..).unwrap_or_default().iter().filter(|arg| !arg.pipe).cloned().collect()
        }
        None => {
            let mut reread = vec![Arg::literal("--pathspec-from-file=-")];
            reread.extend(nul.then(|| Arg::literal("--pathspec-file-nul")));
            reread.extend(words);
            return FromFile::File { file, words: reread };
        }
    };
    if !words.iter().any(|word| word.text == "--" && !word.dynamic) {
        words.push(Arg::literal("--"));
    }
    words.extend(named);
    FromFile::Read(words)
}

/// The pathspecs a `--pathspec-from-file` text holds, as git reads them: one a line, a line in
/// double quotes read with C escapes; with `--pathspec-file-nul`, NUL-separated and literal.
fn pathspecs_in(text: &str, nul: bool) -> Vec<String> {
    let lines = text.split(if nul { '\0' } else { '\n' }).filter(|line| !line.is_empty());
    if nul {
        return lines.map(str::to_string).collect();
    }
    let lines = lines.map(|line| line.strip_suffix('\r').unwrap_or(line));
    lines.map(|line| c_unquoted(line).unwrap_or_else(|| line.to_string())).collect()
}

/// A line in double quotes with C escapes (`"a\tb"`, `"\303\251"`); `None` for any other.
fn c_unquoted(line: &str) -> Option<String> {
    let inner = line.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            bytes.extend(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        let escaped = match chars.next()? {
            'a' => 0x07,
            'b' => 0x08,
            'f' => 0x0c,
            'n' => b'\n',
            'r' => b'\r',
            't' => b'\t',
            'v' => 0x0b,
            digit @ '0'..='3' => {
                let digits = [Some(digit), chars.next(), chars.next()];
                let octal: String = digits.iter().flatten().collect();
                u8::from_str_radix(&octal, 8).ok()?
            }
            other => u8::try_from(other).ok()?,
        };
        bytes.push(escaped);
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::{Pathspec, may_match_a_guarded_name, pathspecs_in};

    #[test]
    fn pathspec_magic_is_read_off() {
        let read = |text: &str| Pathspec::read(text).map(|spec| (spec.path, spec.icase, spec.literal || spec.top));
        assert_eq!(read("docs/x.md"), Some(("docs/x.md".to_string(), false, false)));
        assert_eq!(read(":(icase)DOCS/X.MD"), Some(("DOCS/X.MD".to_string(), true, false)));
        assert_eq!(read(":(literal)a*b"), Some(("a*b".to_string(), false, true)));
        assert_eq!(read(":(top)a"), Some(("a".to_string(), false, true)));
        assert_eq!(read(":/docs"), Some(("docs".to_string(), false, true)));
        assert_eq!(read(":/"), Some((String::new(), false, true)));
        assert_eq!(read(":/:x"), Some(("x".to_string(), false, true)));
        // Exclusions write nothing.
        assert_eq!(read(":!docs"), None);
        assert_eq!(read(":^docs"), None);
        assert_eq!(read(":(exclude)docs"), None);
    }

    #[test]
    fn pathspec_globs_reach_guarded_names_only_when_they_can_end_in_one() {
        for pattern in ["*.md", "*.MD", "openspec/changes/*/approv*", "docs/*", "*", "a?", "plans/[pq]"] {
            assert!(may_match_a_guarded_name(pattern), "{pattern}");
        }
        for pattern in ["*.js", "src/*.rs", "*.md.bak", "approval*.txt"] {
            assert!(!may_match_a_guarded_name(pattern), "{pattern}");
        }
    }

    #[test]
    fn pathspecs_from_a_file_are_read_as_git_reads_them() {
        assert_eq!(pathspecs_in("a.md\r\nb c.md\n\n", false), ["a.md", "b c.md"]);
        assert_eq!(pathspecs_in("\"d\\157cs/x\\tq.md\"\n", false), ["docs/x\tq.md"]);
        assert_eq!(pathspecs_in("a\nb\0c\0", true), ["a\nb", "c"]);
        // Quotes are C quotes only around a whole line, and not in NUL mode.
        assert_eq!(pathspecs_in("\"a\"\0", true), ["\"a\""]);
        assert_eq!(pathspecs_in("a\"b\"\n", false), ["a\"b\""]);
    }
}
