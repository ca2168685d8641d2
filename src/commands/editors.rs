//! Editors that rewrite their file operands in place when asked: `sed -i`, `perl -i`; and what
//! sed's own commands write and run.

mod sed_script;

use super::Arg;
use super::options::{Spec, spec, value_of};
use super::sink::Sink;
use sed_script::Command;

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
        if !sed.script_given
            && let Some(first) = sed.files.first()
        {
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
    /// alone, `s///e`), unless `--sandbox` refuses them. sed reads its scripts as one, a line
    /// each: a text that ends in `\` goes on in the next (`-e '1e\' -e 'cmd'`).
    fn scan(&self, sink: &mut Sink) -> Runs {
        let mut runs = Runs::default();
        let whole = self.scripts.iter().cloned().reduce(|all, next| Arg {
            text: format!("{}\n{}", all.text, next.text),
            dynamic: all.dynamic || next.dynamic,
            holes: all.holes.joined(all.dynamic, next.holes, next.dynamic),
            ..all
        });
        let Some(script) = whole.filter(|_| !self.sandbox) else { return runs };
        for command in sed_script::commands(&script.text) {
            match command {
                Command::Writes(file) => sed_writes(&file, &script, sink),
                Command::Runs(line) => sink.script(&line),
                Command::RunsPatternSpace => runs.bare += 1,
                Command::RunsSubstituted => runs.substituted = true,
                Command::Changes => runs.changes = true,
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
