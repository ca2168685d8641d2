//! Editors that rewrite their file operands in place when asked: `sed -i`, `perl -i`; and what
//! sed's own commands write and run.

use super::Arg;
use super::options::{Spec, spec, value_of};
use super::sink::Sink;

/// sed's long options (the short ones are read by hand: `-i` takes an attached suffix).
const SED: Spec<'static> =
    spec("efl", &["expression", "file", "line-length"]).flags(&["in-place", "sandbox", "null-data", "zero-terminated"]);

/// One sed command line, read.
#[derive(Default)]
struct Sed<'a> {
    in_place: bool,
    sandbox: bool,
    /// `-z`: records end at NUL, not at a newline.
    null_data: bool,
    scripts: Vec<Arg>,
    /// The operands: the script first when no `-e`/`-f` gave one, then the input files.
    files: Vec<&'a Arg>,
    script_given: bool,
}

impl<'a> Sed<'a> {
    /// Reads sed's words; an unreadable `-f` script is judged on the way, as an unknown command.
    fn read(args: &'a [Arg], sink: &mut Sink) -> Sed<'a> {
        let mut sed = Sed::default();
        let mut at = 0;
        let mut only_operands = false;
        while let Some(arg) = args.get(at) {
            at += 1;
            let text = arg.text.as_str();
            if only_operands || arg.dynamic || !text.starts_with('-') || text == "-" {
                sed.files.push(arg);
                continue;
            }
            if text == "--" {
                only_operands = true;
            } else if let Some(long) = text.strip_prefix("--") {
                let (typed, attached) = long.split_once('=').map_or((long, None), |(name, value)| (name, Some(value)));
                let next = args.get(at).filter(|_| attached.is_none());
                let mut takes_next = false;
                for name in SED.long_names(typed) {
                    match name {
                        "in-place" => sed.in_place = true,
                        "sandbox" => sed.sandbox = true,
                        "null-data" | "zero-terminated" => sed.null_data = true,
                        "expression" => {
                            sed.script_given = true;
                            sed.scripts.extend(attached.map(|script| value_of(script, arg)).or_else(|| next.cloned()));
                        }
                        "file" => {
                            sed.script_given = true;
                            unreadable_script(arg, next, sink);
                        }
                        _ => {}
                    }
                    takes_next |= attached.is_none() && SED.long.contains(&name);
                }
                at += usize::from(takes_next);
            } else {
                for (offset, letter) in text.char_indices().skip(1) {
                    let rest = text.get(offset + letter.len_utf8()..).unwrap_or_default();
                    match letter {
                        'i' => {
                            sed.in_place = true;
                            // BSD: `sed -i '' …` takes the empty suffix as its own word.
                            if rest.is_empty() && args.get(at).is_some_and(|next| next.text.is_empty() && !next.dynamic)
                            {
                                at += 1;
                            }
                            break;
                        }
                        'z' => sed.null_data = true,
                        'e' | 'f' | 'l' => {
                            sed.script_given |= letter != 'l';
                            if letter == 'e' && rest.is_empty() {
                                sed.scripts.extend(args.get(at).cloned());
                            } else if letter == 'e' {
                                sed.scripts.push(Arg { text: rest.to_string(), ..arg.clone() });
                            } else if letter == 'f' {
                                let file = args.get(at).filter(|_| rest.is_empty());
                                unreadable_script(arg, file, sink);
                            }
                            at += usize::from(rest.is_empty());
                            break;
                        }
                        _ => {}
                    }
                }
            }
        }
        if !sed.script_given && let Some(first) = sed.files.first() {
            sed.scripts.push((*first).clone());
        }
        sed
    }

    /// The files it reads, `-` for its standard input.
    fn inputs(&self) -> &[&'a Arg] {
        self.files.get(usize::from(!self.script_given)..).unwrap_or_default()
    }

    /// Whether it reads its standard input: no input file, or `-`.
    fn reads_stdin(&self) -> bool {
        self.inputs().is_empty() || self.inputs().iter().any(|file| file.text == "-" && !file.dynamic && !file.pipe)
    }

    /// What its scripts write and run (`w`, `e`), and what they run of what it reads (`e`
    /// alone, `s///e`), unless `--sandbox` refuses them.
    fn scan(&self, sink: &mut Sink) -> Runs {
        let mut runs = Runs::default();
        if !self.sandbox {
            for script in &self.scripts {
                scan_script(&script.text, script, &mut runs, sink);
            }
        }
        runs
    }
}

/// `sed -i[SUFFIX]`, `--in-place[=SUFFIX]`: the files after the script; and what the script
/// itself writes or runs (`w file`, `s/…/…/w file`, `e command`), and, through `e` alone or the
/// `s///e` flag, the text it reads, its standard input (`stdin` when the line shows it) or its
/// files.
pub(super) fn sed(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let sed = Sed::read(args, sink);
    let runs = sed.scan(sink);
    if runs.input() {
        run_input(&sed, args, stdin, runs.exact(), sink);
    }
    if sed.in_place {
        for file in sed.inputs() {
            sink.write(file);
        }
    }
}

/// Whether sed with these arguments runs what it reads on its standard input (`… | sed e`).
pub(super) fn sed_runs_its_input(args: &[Arg], sink: &mut Sink) -> bool {
    let sed = Sed::read(args, sink);
    sed.reads_stdin() && sed.scan(sink).input()
}

/// sed's `e` alone and the `s///e` flag run the pattern space as a shell command, `sh -c` one
/// record at a time (P-18). The text it reads, when the line shows it (`stdin`, a `<(…)` whose
/// output is known) and the pattern space is that text (`exact`), is judged as those commands;
/// else it reaches an unknown command: its words and what it reads. A file it reads is read by
/// the walk, which judges the command again with that text on its standard input.
fn run_input(sed: &Sed, args: &[Arg], stdin: Option<&str>, exact: bool, sink: &mut Sink) {
    let inputs = sed.inputs();
    let files: Vec<Arg> =
        inputs.iter().filter(|file| !file.pipe && file.text != "-").map(|&file| file.clone()).collect();
    if !files.is_empty() {
        let rest = args.iter().filter(|arg| !inputs.iter().any(|input| std::ptr::eq(*input, *arg)));
        let argv = std::iter::once(Arg::literal("sed")).chain(rest.cloned()).collect();
        sink.reads_files(argv, &files);
    }
    let printed = inputs.iter().filter(|file| file.pipe).map(|file| (!file.dynamic).then_some(file.text.as_str()));
    let texts = sed.reads_stdin().then_some(stdin).into_iter().chain(printed);
    let separator = if sed.null_data { '\0' } else { '\n' };
    for text in texts {
        match text {
            Some(text) if exact && text.split(separator).count() <= MAX_RECORDS => {
                for record in text.split(separator).filter(|record| !record.trim().is_empty()) {
                    sink.script(record);
                }
            }
            _ => super::unknown::analyze("sed", args, text, sink),
        }
    }
}

/// Records of sed's input judged one by one as commands `e` runs; past them, the text reaches an
/// unknown command.
const MAX_RECORDS: usize = 64;

/// What a sed script runs of the text it reads.
#[derive(Default)]
struct Runs {
    /// `e` commands without a command of their own: each runs the pattern space.
    bare: usize,
    /// The `s///e` flag: runs the pattern space after a substitution.
    substituted: bool,
    /// A command that changes the pattern space, or a label a branch may loop back to: what `e`
    /// runs may then be other than the record read (`s`, `y`, `c`, `N`, `G`, `g`, `x`, `D`, `:`).
    changes: bool,
}

impl Runs {
    fn input(&self) -> bool {
        self.bare > 0 || self.substituted
    }

    /// The pattern space each `e` runs is the record read: one `e` (a second would run the first
    /// one's output), nothing changing the pattern space, no loop.
    fn exact(&self) -> bool {
        self.bare == 1 && !self.substituted && !self.changes
    }
}

/// `sed -f file`: a script the table does not read; its words count as an unknown command's.
fn unreadable_script(option: &Arg, value: Option<&Arg>, sink: &mut Sink) {
    let words: Vec<Arg> = std::iter::once(option).chain(value).cloned().collect();
    super::unknown::analyze("sed", &words, None, sink);
}

/// What one sed script writes and runs: the file of every `w`/`W` command and `s///w` flag, the
/// command line of every `e` command, and in `runs` what it runs of the text it reads.
fn scan_script(text: &str, word: &Arg, runs: &mut Runs, sink: &mut Sink) {
    let chars: Vec<char> = text.chars().collect();
    let rest_of_line = |from: usize| -> (String, usize) {
        let end = chars.iter().skip(from).position(|&c| c == '\n').map_or(chars.len(), |n| from + n);
        (chars.get(from..end).unwrap_or_default().iter().collect::<String>().trim().to_string(), end)
    };
    let mut at = 0;
    while at < chars.len() {
        at = skip_address(&chars, at);
        let Some(&command) = chars.get(at) else { break };
        at += 1;
        match command {
            'w' | 'W' => {
                let (file, end) = rest_of_line(at);
                sed_writes(&file, word, sink);
                at = end;
            }
            'e' => {
                let (line, end) = rest_of_line(at);
                if line.is_empty() {
                    runs.bare += 1;
                } else {
                    sink.script(&line);
                }
                at = end;
            }
            'r' | 'R' | 'a' | 'i' | 'c' | ':' | '#' => {
                runs.changes |= matches!(command, 'c' | ':');
                at = rest_of_line(at).1;
            }
            // A label or a number, up to `;`.
            'b' | 't' | 'T' | 'q' | 'Q' | 'l' | 'L' => {
                while chars.get(at).is_some_and(|c| !matches!(c, ';' | '\n' | '}')) {
                    at += 1;
                }
            }
            's' | 'y' => {
                runs.changes = true;
                let Some(&delimiter) = chars.get(at) else { break };
                at += 1;
                for _ in 0..2 {
                    at = past_delimiter(chars.as_slice(), at, delimiter);
                }
                if command == 's' {
                    while let Some(&flag) = chars.get(at).filter(|c| !matches!(c, ';' | '\n' | '}')) {
                        at += 1;
                        if flag == 'e' {
                            runs.substituted = true;
                        } else if flag == 'w' {
                            let (file, end) = rest_of_line(at);
                            sed_writes(&file, word, sink);
                            at = end;
                        }
                    }
                }
            }
            'N' | 'G' | 'g' | 'x' | 'D' => runs.changes = true,
            _ => {}
        }
    }
}

/// Past the next unescaped `delimiter` from `at` (a regex or a replacement of `s`, `y` or an
/// address).
fn past_delimiter(chars: &[char], mut at: usize, delimiter: char) -> usize {
    while let Some(&c) = chars.get(at) {
        at += if c == '\\' { 2 } else { 1 };
        if c == delimiter {
            break;
        }
    }
    at
}

/// Past a command's address (`1`, `$`, `/re/`, `\%re%`, `1,5`, `0~2`, `!`) and the blanks and
/// separators before it.
fn skip_address(chars: &[char], mut at: usize) -> usize {
    while let Some(&c) = chars.get(at) {
        match c {
            '/' | '\\' => {
                let delimiter = if c == '\\' { chars.get(at + 1).copied().unwrap_or('/') } else { '/' };
                at = past_delimiter(chars, at + if c == '\\' { 2 } else { 1 }, delimiter);
            }
            '0'..='9' | '$' | ',' | '~' | '!' | '+' | ' ' | '\t' | ';' | '\n' | '{' | '}' | 'I' | 'M' => at += 1,
            _ => break,
        }
    }
    at
}

/// A sed write to `file`; `/dev/stdout` and `/dev/stderr` are not files.
fn sed_writes(file: &str, word: &Arg, sink: &mut Sink) {
    if file.is_empty() || matches!(file, "/dev/stdout" | "/dev/stderr") {
        return;
    }
    sink.write(&Arg { text: file.to_string(), glob: false, ..word.clone() });
}

/// `perl -i[EXT]`, `-pi -e …`, `-lpi`, `-0777pi`: the files after the script.
pub(super) fn perl(args: &[Arg], sink: &mut Sink) {
    let mut in_place = false;
    let mut script_given = false;
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let text = arg.text.as_str();
        if !operands.is_empty() || arg.dynamic || !text.starts_with('-') || text == "-" {
            operands.push(arg);
            continue;
        }
        if text == "--" {
            operands.extend(args.get(at..).unwrap_or_default());
            break;
        }
        let mut letters = text.char_indices().skip(1).peekable();
        while let Some((offset, letter)) = letters.next() {
            let rest = text.get(offset + letter.len_utf8()..).unwrap_or_default();
            match letter {
                'i' => {
                    in_place = true;
                    break;
                }
                'e' | 'E' => {
                    script_given = true;
                    at += usize::from(rest.is_empty());
                    break;
                }
                'I' | 'M' | 'm' => {
                    at += usize::from(rest.is_empty());
                    break;
                }
                // `-l[octal]`, `-0[octal]`, `-0x[hex]`: digits, then more switches.
                'l' | '0' => {
                    let hex = letter == '0' && letters.next_if(|&(_, c)| c == 'x').is_some();
                    while letters.next_if(|&(_, c)| if hex { c.is_ascii_hexdigit() } else { c.is_digit(8) }).is_some() {
                    }
                }
                'x' | 'C' | 'd' | 'D' | 'V' | 'F' => break,
                _ => {}
            }
        }
    }
    if in_place {
        for file in operands.iter().skip(usize::from(!script_given)) {
            sink.write(file);
        }
    }
}
