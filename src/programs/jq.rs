//! jq and yq: their filters cannot write files, but `-i`/`--inplace` (yq, and jq look-alikes that
//! offer it) rewrites every input file.

use super::{Invocation, Language, Source};

/// Options that take a value, with how many words follow.
fn value_words(option: &str) -> usize {
    match option {
        "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => 2,
        "-f" | "--from-file" | "--indent" | "-L" | "-p" | "-o" | "-I" | "--input-format" | "--output-format"
        | "--front-matter" | "--expression" | "--split-exp" => 1,
        _ => 0,
    }
}

/// `-i`, also among other flags (`-yi`: python yq's argparse and go yq's pflag bundle them),
/// `--inplace`, `--in-place`.
fn rewrites_in_place(option: &str) -> bool {
    if let Some(long) = option.strip_prefix("--") {
        return matches!(long, "inplace" | "in-place");
    }
    let flags = option.strip_prefix('-').unwrap_or_default();
    // The letters before one that takes a value (`-w 80`, `-I 2`, `-o json`): `-wi` is a width.
    flags.chars().take_while(|letter| !"fLpoIw".contains(*letter)).any(|letter| letter == 'i')
}

pub fn invocation(command: &str, args: &[String]) -> Invocation {
    let mut in_place = false;
    let mut filter_from_file = false;
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if arg == "--" {
            operands.extend(args.get(at..).unwrap_or_default().iter().cloned());
            break;
        }
        if arg.starts_with('-') && arg != "-" {
            let option = arg.split('=').next().unwrap_or(arg);
            in_place |= rewrites_in_place(option);
            filter_from_file |= matches!(option, "-f" | "--from-file");
            if !arg.contains('=') {
                at += value_words(option);
            }
            continue;
        }
        operands.push(arg.clone());
    }
    // yq's `eval`/`e` subcommand comes first.
    if command == "yq"
        && operands.first().is_some_and(|first| matches!(first.as_str(), "eval" | "e" | "eval-all" | "ea"))
    {
        operands.remove(0);
    }
    let files = operands.into_iter().skip(usize::from(!filter_from_file));
    let writes = if in_place { files.collect() } else { Vec::new() };
    Invocation { writes, ..Invocation::new(Language::Jq, Source::Nothing, Vec::new()) }
}

#[cfg(test)]
mod tests {
    use super::rewrites_in_place;

    #[test]
    fn in_place_is_read_in_a_bundle_too() {
        for option in ["-i", "-yi", "-Yi", "-iy", "-Pi", "--inplace", "--in-place"] {
            assert!(rewrites_in_place(option), "{option}");
        }
        for option in ["-y", "-r", "-wi", "-Ii", "--indent", "--indentless", "--in", "-", "--yaml-output"] {
            assert!(!rewrites_in_place(option), "{option}");
        }
    }
}
