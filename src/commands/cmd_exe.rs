//! `cmd.exe`'s own commands, as `cmd /c` runs them: a row each, and what a command's words write.
//! Paths stay as typed (`\` or `/`); the caller places them and knows what a program it does not
//! find here does.

/// What one of cmd's own commands does.
#[derive(Debug, PartialEq, Eq)]
pub enum CmdEffect<'w> {
    /// Writes `path`; `wildcard`: a wildcard in its last component may match approval.md.
    Write { path: &'w str, wildcard: bool },
    /// Writes the entry of `dir` that has the last component of `name`.
    WriteEntry { dir: EntryDir<'w>, name: &'w str, wildcard: bool },
    /// Changes the current directory.
    Cd(&'w str),
    /// Starts `cmd` again with the same arguments.
    Cmd,
}

/// The directory a [`CmdEffect::WriteEntry`] is made in.
#[derive(Debug, PartialEq, Eq)]
pub enum EntryDir<'w> {
    Is(&'w str),
    /// The directory that holds this path (`ren dir\a b` makes `dir\b`).
    ParentOf(&'w str),
}

enum Shape {
    /// `copy a+b dest`: the destination, and each source's name in it.
    Copy,
    /// A copy that removes its sources.
    Move,
    /// Every operand is removed.
    Remove,
    /// `ren path new-name`: the path, and the new name beside it.
    Rename,
    ChangeDirectory,
    /// Writes nothing its words name.
    Reads,
    /// `cmd` itself.
    Cmd,
}

struct Row {
    names: &'static [&'static str],
    shape: Shape,
}

const ROWS: &[Row] = &[
    Row { names: &["copy", "xcopy"], shape: Shape::Copy },
    Row { names: &["move"], shape: Shape::Move },
    Row { names: &["del", "erase", "rd", "rmdir"], shape: Shape::Remove },
    Row { names: &["ren", "rename"], shape: Shape::Rename },
    Row { names: &["cd", "chdir", "pushd"], shape: Shape::ChangeDirectory },
    Row {
        names: &[
            "type", "echo", "dir", "more", "findstr", "find", "fc", "comp", "popd", "mkdir", "md", "set", "rem", "ver",
            "where", "cls", "title", "exit", "call",
        ],
        shape: Shape::Reads,
    },
    Row { names: &["cmd"], shape: Shape::Cmd },
];

/// What `program` (lowercase, without `.exe`) does given `args`; `None` when it is not one of
/// cmd's own commands.
pub fn effects<'w>(program: &str, args: &'w [String]) -> Option<Vec<CmdEffect<'w>>> {
    let row = ROWS.iter().find(|row| row.names.contains(&program))?;
    // `/y`, `/-y`, `/s`: options; a longer word starting with `/` is a path.
    let operands: Vec<&'w str> =
        args.iter().filter(|word| !(word.starts_with('/') && word.len() <= 3)).map(String::as_str).collect();
    let mut effects = Vec::new();
    match row.shape {
        Shape::Copy | Shape::Move => {
            let mut parts: Vec<&'w str> = operands.iter().flat_map(|word| word.split('+')).collect();
            parts.retain(|part| !part.is_empty());
            let destination = if parts.len() >= 2 { parts.pop().unwrap_or(".") } else { "." };
            effects.push(CmdEffect::Write { path: destination, wildcard: false });
            for source in parts {
                effects.push(CmdEffect::WriteEntry { dir: EntryDir::Is(destination), name: source, wildcard: true });
                if matches!(row.shape, Shape::Move) {
                    effects.push(CmdEffect::Write { path: source, wildcard: true });
                }
            }
        }
        Shape::Remove => {
            effects.extend(operands.into_iter().map(|path| CmdEffect::Write { path, wildcard: true }));
        }
        Shape::Rename => {
            if let [source, new_name, ..] = operands.as_slice() {
                effects.push(CmdEffect::Write { path: source, wildcard: true });
                effects.push(CmdEffect::WriteEntry {
                    dir: EntryDir::ParentOf(source),
                    name: new_name,
                    wildcard: false,
                });
            }
        }
        Shape::ChangeDirectory => effects.extend(operands.first().map(|dir| CmdEffect::Cd(dir))),
        Shape::Reads => {}
        Shape::Cmd => effects.push(CmdEffect::Cmd),
    }
    Some(effects)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_move_writes_its_destination_the_entries_made_there_and_its_sources() {
        let args = words("/y a.txt+b.txt out");
        assert_eq!(
            effects("move", &args),
            Some(vec![
                CmdEffect::Write { path: "out", wildcard: false },
                CmdEffect::WriteEntry { dir: EntryDir::Is("out"), name: "a.txt", wildcard: true },
                CmdEffect::Write { path: "a.txt", wildcard: true },
                CmdEffect::WriteEntry { dir: EntryDir::Is("out"), name: "b.txt", wildcard: true },
                CmdEffect::Write { path: "b.txt", wildcard: true },
            ])
        );
    }

    #[test]
    fn readers_write_nothing_and_programs_are_not_rows() {
        assert_eq!(effects("type", &words("plans\\x.md")), Some(Vec::new()));
        assert_eq!(effects("notepad", &words("plans\\x.md")), None);
    }
}
