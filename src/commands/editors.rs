//! Editors that rewrite their file operands in place when asked: `sed -i`, `perl -i`.

use super::Arg;
use super::sink::Sink;

/// `sed -i[SUFFIX]`, `--in-place[=SUFFIX]`: the files after the script.
pub(super) fn sed(args: &[Arg], sink: &mut Sink) {
    let mut in_place = false;
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
                "expression" | "file" => {
                    script_given = true;
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
                        at += usize::from(rest.is_empty());
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    if in_place {
        for file in files.iter().skip(usize::from(!script_given)) {
            sink.write(file);
        }
    }
}

/// `perl -i[EXT]`, `-pi -e …`: the files after the script.
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
        for (offset, letter) in text.char_indices().skip(1) {
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
                'l' | '0' | 'x' | 'C' | 'd' | 'D' | 'V' | 'F' => break,
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
