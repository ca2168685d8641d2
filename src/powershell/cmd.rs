//! `cmd /c …` and `cmd /k …` as PowerShell runs them: the line is cut into commands at `&`, `&&`,
//! `||` and `|` outside double quotes (`^` escapes one character), and each command into words
//! and redirections (`>`, `>>`, `N>`, `N>>`; `2>&1` and `<` write nothing).

/// One command of a `cmd` line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The words, quotes removed.
    pub words: Vec<String>,
    /// Files opened for writing by redirections.
    pub redirected: Vec<String>,
}

/// The text `cmd` runs, from its arguments: what follows `/c` or `/k` (`/c` may be glued to it).
pub fn script(args: &[String]) -> Option<String> {
    let at = args.iter().position(|arg| {
        let lower = arg.to_ascii_lowercase();
        lower.starts_with("/c") || lower.starts_with("/k") || lower.starts_with("/r")
    })?;
    let first = args.get(at)?.get(2..).unwrap_or_default();
    let mut parts: Vec<&str> = Vec::new();
    if !first.is_empty() {
        parts.push(first);
    }
    parts.extend(args.get(at + 1..).unwrap_or_default().iter().map(String::as_str));
    Some(parts.join(" "))
}

pub fn steps(line: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut words: Vec<(String, bool)> = Vec::new();
    let mut word = String::new();
    let mut quoted_word = false;
    let mut in_quotes = false;
    let mut chars = line.chars().peekable();
    let finish_word = |word: &mut String, quoted: &mut bool, words: &mut Vec<(String, bool)>| {
        if !word.is_empty() || *quoted {
            words.push((std::mem::take(word), *quoted));
        }
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                quoted_word = true;
            }
            '^' if !in_quotes => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            '&' | '|' if !in_quotes => {
                finish_word(&mut word, &mut quoted_word, &mut words);
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                steps.push(step(std::mem::take(&mut words)));
            }
            '>' | '<' if !in_quotes => {
                // `2>`: the digit before is the stream, not a word.
                if word.len() == 1 && word.chars().all(|d| d.is_ascii_digit()) && !quoted_word {
                    word.clear();
                }
                finish_word(&mut word, &mut quoted_word, &mut words);
                let mut operator = c.to_string();
                if chars.peek() == Some(&'>') {
                    chars.next();
                    operator.push('>');
                }
                if chars.peek() == Some(&'&') {
                    // `2>&1`: a merge.
                    chars.next();
                    operator.push('&');
                }
                words.push((operator, false));
            }
            c if c.is_whitespace() && !in_quotes => finish_word(&mut word, &mut quoted_word, &mut words),
            _ => word.push(c),
        }
    }
    finish_word(&mut word, &mut quoted_word, &mut words);
    steps.push(step(words));
    steps.retain(|step| !step.words.is_empty() || !step.redirected.is_empty());
    steps
}

fn step(words: Vec<(String, bool)>) -> Step {
    let mut step = Step::default();
    let mut iter = words.into_iter();
    while let Some((word, quoted)) = iter.next() {
        match word.as_str() {
            ">" | ">>" if !quoted => {
                if let Some((file, _)) = iter.next() {
                    step.redirected.push(file);
                }
            }
            "<" | "<>" | ">&" | ">>&" | "<&" if !quoted => {
                iter.next();
            }
            _ => step.words.push(word),
        }
    }
    step
}
