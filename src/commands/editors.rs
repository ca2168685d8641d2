//! Editors that rewrite their file operands in place when asked: `sed -i`, `perl -i`.

use super::Arg;
use super::sink::Sink;

/// `sed -i[SUFFIX]`, `--in-place[=SUFFIX]`: the files after the script; and what the script
/// itself writes or runs (`w file`, `s/…/…/w file`, `e command`).
pub(super) fn sed(args: &[Arg], sink: &mut Sink) {
    let mut in_place = false;
    let mut sandbox = false;
    let mut scripts: Vec<Arg> = Vec::new();
    let mut script_given = false;
    let mut files = Vec::new();
    let mut at = 0;
    let mut only_operands = false;
    while let Some(arg) = args.get(at) {
        at += 1;
        let text = arg.text.as_str();
        if only_operands || arg.dynamic || !text.starts_with('-') || text == "-" {
            files.push(arg);
            continue;
        }
        if text == "--" {
            only_operands = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            match name {
                "in-place" => in_place = true,
                "sandbox" => sandbox = true,
                "expression" | "file" => {
                    script_given = true;
                    match long.split_once('=') {
                        Some((_, script)) if name == "expression" => {
                            scripts.push(Arg { text: script.to_string(), ..arg.clone() })
                        }
                        _ if name == "expression" => scripts.extend(args.get(at).cloned()),
                        _ => unreadable_script(arg, args.get(at), sink),
                    }
                    at += usize::from(!long.contains('='));
                }
                "line-length" => at += usize::from(!long.contains('=')),
                _ => {}
            }
        } else {
            for (offset, letter) in text.char_indices().skip(1) {
                let rest = text.get(offset + letter.len_utf8()..).unwrap_or_default();
                match letter {
                    'i' => {
                        in_place = true;
                        // BSD: `sed -i '' …` takes the empty suffix as its own word.
                        if rest.is_empty() && args.get(at).is_some_and(|next| next.text.is_empty() && !next.dynamic) {
                            at += 1;
                        }
                        break;
                    }
                    'e' | 'f' | 'l' => {
                        script_given |= letter != 'l';
                        if letter == 'e' && rest.is_empty() {
                            scripts.extend(args.get(at).cloned());
                        } else if letter == 'e' {
                            scripts.push(Arg { text: rest.to_string(), ..arg.clone() });
                        } else if letter == 'f' {
                            unreadable_script(arg, args.get(at).filter(|_| rest.is_empty()), sink);
                        }
                        at += usize::from(rest.is_empty());
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    if !script_given && let Some(first) = files.first() {
        scripts.push((*first).clone());
    }
    // `e` without a command and `s///e` run text the line does not show (P-18): every guarded
    // location the words name.
    if !sandbox && scripts.iter().fold(false, |unseen, script| sed_script(&script.text, script, sink) | unseen) {
        super::unknown::analyze("sed", args, None, sink);
    }
    if in_place {
        for file in files.iter().skip(usize::from(!script_given)) {
            sink.write(file);
        }
    }
}

/// `sed -f file`: a script the table does not read; its words count as an unknown command's.
fn unreadable_script(option: &Arg, value: Option<&Arg>, sink: &mut Sink) {
    let words: Vec<Arg> = std::iter::once(option).chain(value).cloned().collect();
    super::unknown::analyze("sed", &words, None, sink);
}

/// What one sed script writes and runs: the file of every `w`/`W` command and `s///w` flag, and
/// the command line of every `e` command; `true` when it runs text the line does not show (`e`
/// alone, the `s///e` flag).
fn sed_script(text: &str, word: &Arg, sink: &mut Sink) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let rest_of_line = |from: usize| -> (String, usize) {
        let end = chars.iter().skip(from).position(|&c| c == '\n').map_or(chars.len(), |n| from + n);
        (chars.get(from..end).unwrap_or_default().iter().collect::<String>().trim().to_string(), end)
    };
    let mut unseen_command = false;
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
                    unseen_command = true;
                } else {
                    sink.script(&line);
                }
                at = end;
            }
            'r' | 'R' | 'a' | 'i' | 'c' | ':' | '#' => at = rest_of_line(at).1,
            // A label or a number, up to `;`.
            'b' | 't' | 'T' | 'q' | 'Q' | 'l' | 'L' => {
                while chars.get(at).is_some_and(|c| !matches!(c, ';' | '\n' | '}')) {
                    at += 1;
                }
            }
            's' | 'y' => {
                let Some(&delimiter) = chars.get(at) else { break };
                at += 1;
                for _ in 0..2 {
                    at = past_delimiter(chars.as_slice(), at, delimiter);
                }
                if command == 's' {
                    while let Some(&flag) = chars.get(at).filter(|c| !matches!(c, ';' | '\n' | '}')) {
                        at += 1;
                        if flag == 'e' {
                            unseen_command = true;
                        } else if flag == 'w' {
                            let (file, end) = rest_of_line(at);
                            sed_writes(&file, word, sink);
                            at = end;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    unseen_command
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
