//! What `echo` and `printf` print given known words, and the escapes they decode.

use crate::analysis::formats::{self, Printf};
use crate::analysis::values::needs_no_shell_quotes;
use crate::commands::{Arg, ansi_c};

/// What `echo` or `printf` print given these words, when every word is known.
pub fn printed(argv: &[Arg]) -> Option<String> {
    let (name, args) = argv.split_first()?;
    if name.dynamic || args.iter().any(|arg| arg.dynamic || arg.pipe) {
        return None;
    }
    match name.text.as_str() {
        "echo" => Some(echo(args)),
        "printf" => {
            let args = match args.first() {
                Some(first) if first.text == "--" => args.get(1..).unwrap_or_default(),
                // `printf -v name …` assigns instead of printing.
                Some(first) if first.text.starts_with('-') && first.text.len() > 1 => return None,
                _ => args,
            };
            let (format, rest) = args.split_first()?;
            let rest: Vec<&str> = rest.iter().map(|arg| arg.text.as_str()).collect();
            printf(&format.text, &rest)
        }
        _ => None,
    }
}

/// bash's `echo`: `-n`, `-e`, `-E` flags first, escapes only with `-e`.
fn echo(args: &[Arg]) -> String {
    let mut newline = true;
    let mut escapes = false;
    let mut at = 0;
    while let Some(flags) = args.get(at).and_then(|arg| arg.text.strip_prefix('-')) {
        if flags.is_empty() || !flags.chars().all(|c| matches!(c, 'n' | 'e' | 'E')) {
            break;
        }
        for flag in flags.chars() {
            match flag {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        at += 1;
    }
    let text = args.get(at..).unwrap_or_default().iter().map(|arg| arg.text.as_str()).collect::<Vec<_>>().join(" ");
    if !escapes {
        return if newline { text + "\n" } else { text };
    }
    let (mut decoded, stopped) = echo_escapes(&text);
    if newline && !stopped {
        decoded.push('\n');
    }
    decoded
}

/// The escapes of `echo -e` and printf's `%b`: those of `$'…'`, `\0NNN` for octal, and `\c`,
/// which ends the output (the flag says so).
fn echo_escapes(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut pending = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            pending.push(c);
            continue;
        }
        match chars.next() {
            Some('c') => {
                out.push_str(&ansi_c(&pending));
                return (out, true);
            }
            Some('0') => {
                // `\0NNN`: up to three octal digits after the zero.
                pending.push('\\');
                let mut digits = 0;
                while digits < 3 && chars.peek().is_some_and(|d| d.is_digit(8)) {
                    pending.extend(chars.next());
                    digits += 1;
                }
                if digits == 0 {
                    pending.push('0');
                }
            }
            Some(other) => {
                pending.push('\\');
                pending.push(other);
            }
            None => pending.push('\\'),
        }
    }
    out.push_str(&ansi_c(&pending));
    (out, false)
}

/// printf's output: the format reused until the arguments are consumed, each conversion
/// printing its argument ([`formats`]), the format's escapes decoded; `None` where a conversion
/// does not print exactly its argument's text (`%f`, `%x` of `0x1f`, …).
fn printf(format: &str, args: &[&str]) -> Option<String> {
    let pieces = formats::printf_pieces(format);
    let mut out = String::new();
    let mut next = 0;
    // Each round consumes at least one argument, so this ends.
    for _ in 0..=args.len() {
        let before = next;
        if printf_once(&pieces, args, &mut next, &mut out)? {
            break;
        }
        if next >= args.len() || next == before {
            break;
        }
    }
    Some(out)
}

/// One pass of the format; `true` when `%b`'s `\c` ended all output.
fn printf_once(pieces: &[Printf], args: &[&str], next: &mut usize, out: &mut String) -> Option<bool> {
    let mut literal = String::new();
    let mut take = || {
        let arg = args.get(*next).copied().unwrap_or_default();
        *next += 1;
        arg
    };
    for piece in pieces {
        let conversion = match piece {
            Printf::Text(text) => {
                literal.push_str(text);
                continue;
            }
            Printf::Conversion(conversion) => conversion,
        };
        out.push_str(&ansi_c(&literal));
        literal.clear();
        let stars: Vec<&str> = (0..conversion.stars()).map(|_| take()).collect();
        let arg = take();
        match conversion.letter {
            'b' => {
                let (decoded, stopped) = echo_escapes(arg);
                out.push_str(&conversion.print_text(&decoded, &stars)?);
                if stopped {
                    return Some(true);
                }
            }
            // `%q` quotes what the shell would: the same text when nothing needs quoting.
            'q' if needs_no_shell_quotes(arg) => {
                out.push_str(&conversion.print_text(arg, &stars)?);
            }
            _ => out.push_str(&conversion.print(arg, &stars)?),
        }
    }
    out.push_str(&ansi_c(&literal));
    Some(false)
}
