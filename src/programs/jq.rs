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
            in_place |= matches!(option, "-i" | "--inplace" | "--in-place");
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
    Invocation { language: Language::Jq, source: Source::Nothing, args: Vec::new(), writes, trees: Vec::new(), prelude: String::new() }
}
