//! A sed script read as GNU sed compiles it (`compile_program`): where each command starts, past
//! addresses and regexes whose delimiter is escaped or inside a bracket expression (`/[/]/`,
//! `\%a%`), past the labels, file names and texts commands take, so that every command that
//! writes a file or runs one is found where sed finds it.

/// What one command of a script does that the gates care about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Command {
    /// `w file`, `W file`, the `s///w file` flag.
    Writes(String),
    /// `e command`: the command as sed hands it to the shell.
    Runs(String),
    /// `e` alone: runs the pattern space.
    RunsPatternSpace,
    /// The `s///e` flag: runs the pattern space after the substitution.
    RunsSubstituted,
    /// Changes the pattern space (`s`, `y`, `c`, `N`, `G`, `g`, `x`, `D`) or is a label a branch
    /// may loop back to (`:`).
    Changes,
}

/// The commands of `script` that write, run or change the pattern space, in order. Past a point
/// where sed would stop with an error the reading goes on, finding at most more than sed runs.
pub(super) fn commands(script: &str) -> Vec<Command> {
    let mut reader = Reader { chars: script.chars().collect(), at: 0 };
    let mut found = Vec::new();
    while let Some(letter) = reader.command() {
        match letter {
            'w' | 'W' => found.push(Command::Writes(reader.file_name())),
            'r' | 'R' | '#' => {
                reader.file_name();
            }
            'e' => {
                reader.skip_blanks();
                found.push(match reader.peek() {
                    None | Some('\n') => Command::RunsPatternSpace,
                    Some(_) => Command::Runs(reader.text()),
                });
            }
            'a' | 'i' | 'c' => {
                if letter == 'c' {
                    found.push(Command::Changes);
                }
                reader.skip_blanks();
                reader.text();
            }
            ':' | 'b' | 't' | 'T' | 'v' => {
                if letter == ':' {
                    found.push(Command::Changes);
                }
                reader.label();
            }
            'q' | 'Q' | 'l' | 'L' => {
                reader.skip_blanks();
                reader.digits();
            }
            's' => reader.substitution(&mut found),
            'y' => {
                found.push(Command::Changes);
                let Some(delimiter) = reader.next() else { break };
                reader.delimited(delimiter, false);
                reader.delimited(delimiter, false);
            }
            'N' | 'G' | 'g' | 'x' | 'D' => found.push(Command::Changes),
            _ => {}
        }
    }
    found
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let next = self.peek();
        self.at += usize::from(next.is_some());
        next
    }

    /// Past spaces and tabs (sed's `in_nonblank`).
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.at += 1;
        }
    }

    fn next_nonblank(&mut self) -> Option<char> {
        self.skip_blanks();
        self.next()
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
    }

    /// The next command's letter: past the separators before it, its addresses and `!`.
    fn command(&mut self) -> Option<char> {
        while self.peek().is_some_and(|c| c == ';' || c.is_whitespace()) {
            self.at += 1;
        }
        let first = self.next()?;
        let mut letter = first;
        if self.address(first) {
            letter = self.next_nonblank()?;
            if letter == ',' {
                let second = self.next_nonblank()?;
                self.address(second);
                letter = self.next_nonblank()?;
            }
        }
        if letter == '!' {
            letter = self.next_nonblank()?;
        }
        Some(letter)
    }

    /// Past one address that starts with `first` (`/re/I`, `\%re%`, `5`, `0~2`, `+3`, `$`);
    /// false when `first` starts none.
    fn address(&mut self, first: char) -> bool {
        match first {
            '/' | '\\' => {
                let delimiter = if first == '\\' { self.next() } else { Some('/') };
                if let Some(delimiter) = delimiter {
                    self.delimited(delimiter, true);
                }
                self.skip_blanks();
                while matches!(self.peek(), Some('I' | 'M')) {
                    self.at += 1;
                    self.skip_blanks();
                }
            }
            '0'..='9' => {
                self.digits();
                self.skip_blanks();
                if self.peek() == Some('~') {
                    self.at += 1;
                    self.skip_blanks();
                    self.digits();
                }
            }
            '+' | '~' => {
                self.skip_blanks();
                self.digits();
            }
            '$' => {}
            _ => return false,
        }
        true
    }

    /// Past the `delimiter` that closes a regex (`regex`) or a replacement (sed's `match_slash`):
    /// an escaped one does not close it, nor, in a regex, one inside a bracket expression; a
    /// newline leaves it unclosed (an error: sed stops there).
    fn delimited(&mut self, delimiter: char, regex: bool) {
        while let Some(c) = self.peek().filter(|&c| c != '\n') {
            self.at += 1;
            if c == delimiter {
                return;
            }
            if c == '\\' {
                self.next();
            } else if c == '[' && regex && !self.bracket() {
                return;
            }
        }
    }

    /// Past the `]` closing a bracket expression (sed's `snarf_char_class`): a `]` first (after
    /// an optional `^`) is a member, and so is one inside `[:…:]`, `[.….]` or `[=…=]`; false when
    /// a newline or the end comes first.
    fn bracket(&mut self) -> bool {
        if self.peek() == Some('^') {
            self.at += 1;
        }
        if self.peek() == Some(']') {
            self.at += 1;
        }
        // 0: outside a class; 1: after its `[`; 2: after the opening `.`, `:` or `=`; 3: after
        // the closing one.
        let (mut state, mut class) = (0u8, ' ');
        while let Some(c) = self.peek().filter(|&c| c != '\n') {
            self.at += 1;
            match c {
                '.' | ':' | '=' if state == 1 => {
                    (state, class) = (2, c);
                    continue;
                }
                '.' | ':' | '=' if state == 2 && c == class => {
                    state = 3;
                    continue;
                }
                '[' => {
                    if state == 0 {
                        state = 1;
                    }
                    continue;
                }
                ']' if state <= 1 => return true,
                ']' if state == 3 => state = 0,
                _ => {}
            }
            state &= !1;
        }
        false
    }

    /// A file name, after the blanks before it, to the end of the line (sed's `read_filename`).
    fn file_name(&mut self) -> String {
        self.skip_blanks();
        let mut name = String::new();
        while let Some(c) = self.next().filter(|&c| c != '\n') {
            name.push(c);
        }
        name
    }

    /// A label, up to a blank, `;`, `}`, `#` or the end of the line (sed's `read_label`).
    fn label(&mut self) {
        self.skip_blanks();
        while self.peek().is_some_and(|c| !matches!(c, '\n' | ' ' | '\t' | ';' | '}' | '#')) {
            self.at += 1;
        }
    }

    /// The text of `a`, `i`, `c` or `e` (sed's `read_text`), with its escapes as sed reads them:
    /// up to a newline that no `\` escapes; a `\` first starts it with the character after it, on
    /// the next line when that is a newline.
    fn text(&mut self) -> String {
        let mut raw = String::new();
        if self.peek() == Some('\\') {
            self.at += 1;
            match self.next() {
                Some('\n') | None => {}
                Some(lead) => raw.push(lead),
            }
        }
        while let Some(c) = self.next().filter(|&c| c != '\n') {
            raw.push(c);
            if c == '\\'
                && let Some(escaped) = self.next()
            {
                raw.push(escaped);
            }
        }
        unescaped(&raw)
    }

    /// `s/re/replacement/flags` after the `s` (sed's `mark_subst_opts` for the flags).
    fn substitution(&mut self, found: &mut Vec<Command>) {
        found.push(Command::Changes);
        let Some(delimiter) = self.next() else { return };
        self.delimited(delimiter, true);
        self.delimited(delimiter, false);
        loop {
            self.skip_blanks();
            match self.peek() {
                Some('w') => {
                    self.at += 1;
                    found.push(Command::Writes(self.file_name()));
                    return;
                }
                Some('e') => {
                    self.at += 1;
                    found.push(Command::RunsSubstituted);
                }
                Some('g' | 'p' | 'i' | 'I' | 'm' | 'M' | '0'..='9') => self.at += 1,
                // `;`, a newline, `}`, `#`, the end, or a flag sed refuses.
                _ => return,
            }
        }
    }
}

/// A command's text with sed's escapes read (`normalize_text`): `\a`, `\f`, `\n`, `\r`, `\t`,
/// `\v`, `\` and a newline, `\dNNN`, `\oNNN`, `\xHH`, `\cX`; a `\` before any other character is
/// dropped (`\l` is `l`).
fn unescaped(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut text = String::with_capacity(raw.len());
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        at += 1;
        let Some(&escape) = chars.get(at).filter(|_| c == '\\') else {
            text.push(c);
            continue;
        };
        at += 1;
        match escape {
            'a' => text.push('\x07'),
            'f' => text.push('\x0c'),
            'n' | '\n' => text.push('\n'),
            'r' => text.push('\r'),
            't' => text.push('\t'),
            'v' => text.push('\x0b'),
            'd' | 'o' | 'x' => {
                let base = match escape {
                    'd' => 10,
                    'o' => 8,
                    _ => 16,
                };
                let (byte, used) = number(chars.get(at..).unwrap_or_default(), base);
                at += used;
                text.push(if used == 0 { escape } else { char::from(byte) });
            }
            'c' => {
                if let Some(&control) = chars.get(at) {
                    at += 1 + usize::from(control == '\\');
                    let byte = u8::try_from(control.to_ascii_uppercase()).ok().map(|byte| byte ^ 0x40);
                    text.push(byte.map_or(control, char::from));
                }
            }
            other => text.push(other),
        }
    }
    text
}

/// The byte the digits starting `digits` give in `base` (sed's `convert_number`: as many as stay
/// under 256 in place value, so three decimal or octal digits, two hexadecimal), and how many.
fn number(digits: &[char], base: u32) -> (u8, usize) {
    let (mut value, mut used, mut place) = (0u32, 0, 1u32);
    while place <= 255
        && let Some(digit) = digits.get(used).and_then(|c| c.to_digit(base))
    {
        value = value * base + digit;
        used += 1;
        place *= base;
    }
    (value as u8, used)
}

#[cfg(test)]
mod tests {
    use super::{Command, commands, unescaped};

    fn writes(script: &str) -> Vec<String> {
        let found = commands(script).into_iter();
        found.filter_map(|command| if let Command::Writes(file) = command { Some(file) } else { None }).collect()
    }

    fn runs(script: &str) -> Vec<String> {
        let found = commands(script).into_iter();
        found.filter_map(|command| if let Command::Runs(line) = command { Some(line) } else { None }).collect()
    }

    #[test]
    fn a_delimiter_escaped_or_in_a_bracket_expression_does_not_end_the_regex() {
        for script in [
            "/[/]/w out",
            "/[^/]/w out",
            "/[]/]/w out",
            "/[^]/]/w out",
            "/[[:alpha:]/]/w out",
            "/[[:alpha:]]/w out",
            "/[[.-.]/]/w out",
            "/a\\/b/w out",
            "\\%[%]%w out",
            "\\%a\\%b%w out",
            "/x/I,/y/Mw out",
            "/x/ I !w out",
            "1,$!{/[/]/w out\n}",
            "0~3w out",
            "$w out",
            "/a/,+2 w out",
        ] {
            assert_eq!(writes(script), ["out"], "{script}");
        }
    }

    #[test]
    fn a_substitution_reads_its_regex_then_its_replacement() {
        assert_eq!(writes("s/[/]/x/w out"), ["out"]);
        assert_eq!(writes("s|a|b|w out"), ["out"]);
        assert_eq!(writes("s/a/b/gp2w out"), ["out"]);
        assert_eq!(writes("s/a/b/ g w out"), ["out"]);
        // A bracket in the replacement is a character: `[` there, then `/` ends it.
        assert_eq!(writes("s/a/[/w out"), ["out"]);
        assert_eq!(writes("y/[/x/;w out"), ["out"]);
        assert_eq!(commands("s/a/b/e"), [Command::Changes, Command::RunsSubstituted]);
        assert_eq!(writes("s/w x/y/;p"), Vec::<String>::new());
        assert_eq!(writes("s/a/b/;s/[w]/x/"), Vec::<String>::new());
    }

    #[test]
    fn labels_end_at_a_blank_or_a_semicolon() {
        assert_eq!(writes(":x w out"), ["out"]);
        assert_eq!(writes(":x;w out"), ["out"]);
        assert_eq!(writes("bx w out\n:x"), ["out"]);
        assert_eq!(writes("$!{bx};w out\n:x"), ["out"]);
        assert_eq!(writes("tx#c\nw out"), ["out"]);
    }

    #[test]
    fn file_names_go_to_the_end_of_the_line() {
        assert_eq!(writes("w a b;p\nW c"), ["a b;p", "c"]);
        assert_eq!(writes("r in\nw out"), ["out"]);
        assert_eq!(writes("# w x\nw out"), ["out"]);
    }

    #[test]
    fn texts_go_on_past_an_escaped_newline_with_their_escapes_read() {
        assert_eq!(writes("a foo\\\nw x\np"), Vec::<String>::new());
        assert_eq!(writes("1a\\\nw x"), Vec::<String>::new());
        // `a\\`: the text is a backslash; the next line is a command.
        assert_eq!(writes("1a\\\\\nw out"), ["out"]);
        assert_eq!(runs("1e\\\ntouch x"), ["touch x"]);
        assert_eq!(runs("1e\\touch x"), ["touch x"]);
        assert_eq!(runs("1e touch a \\\nb"), ["touch a \nb"]);
        assert_eq!(runs("e touch 'p\\lans' \\x70\\o160\\d112\\x7"), ["touch 'plans' ppp\x07"]);
        assert_eq!(commands("1e\np"), [Command::RunsPatternSpace]);
        assert_eq!(commands("e  "), [Command::RunsPatternSpace]);
        assert_eq!(runs("e;p"), [";p"]);
    }

    #[test]
    fn escapes_are_read_as_sed_reads_them() {
        assert_eq!(unescaped("\\t\\n\\\n\\q\\"), "\t\n\nq\\");
        assert_eq!(unescaped("\\x4a\\x4A1\\o1011\\d0651\\xg"), "JJ1A1A1xg");
        assert_eq!(unescaped("\\ca\\c"), "\x01");
    }
}
