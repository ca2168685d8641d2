//! The script a `pwsh`/`powershell` process runs, read from its command line: `-Command`/`-c`
//! (the rest of the line, or standard input for `-`), `-EncodedCommand` (base64 of UTF-16LE),
//! `-WorkingDirectory`, and Windows PowerShell's bare command text. A script file (`-File`, a
//! `.ps1` operand) is run as `& 'x.ps1' args…`, which the PowerShell walk reads.

/// Is this program a PowerShell host?
pub fn is_powershell(program: &str) -> bool {
    // Asked of every bash command's name: no allocation.
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = name
        .len()
        .checked_sub(4)
        .filter(|&at| name.get(at..).is_some_and(|ext| ext.eq_ignore_ascii_case(".exe")))
        .and_then(|at| name.get(..at))
        .unwrap_or(name);
    ["pwsh", "powershell", "pwsh-preview", "pwsh-lts"].iter().any(|host| stem.eq_ignore_ascii_case(host))
}

/// The PowerShell text `args` (after the program name) make the host run, prefixed with a
/// `Set-Location` when `-WorkingDirectory` is given; `None` when it runs no text of the line.
pub fn invoked_script(args: &[String], stdin: Option<&str>) -> Option<String> {
    let mut workdir = None;
    let mut script = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let Some(name) = arg.strip_prefix('-').or_else(|| arg.strip_prefix('/')).map(str::to_ascii_lowercase) else {
            // Windows PowerShell runs the rest as a command; pwsh runs a script file.
            script = Some(if arg.to_ascii_lowercase().ends_with(".ps1") {
                script_file_call(args.get(at - 1..).unwrap_or_default())
            } else {
                args.get(at - 1..).unwrap_or_default().join(" ")
            });
            break;
        };
        let name = name.trim_start_matches('-');
        let is = |full: &str, shortest: usize| name.len() >= shortest && full.starts_with(name);
        if is("command", 1) || is("commandwithargs", 8) || name == "cwa" {
            let rest = args.get(at..).unwrap_or_default();
            script = match rest {
                [dash] if dash == "-" => stdin.map(str::to_string),
                _ => Some(rest.join(" ")),
            };
            break;
        }
        if is("encodedcommand", 1) || name == "ec" {
            script = args.get(at).and_then(|encoded| decode_utf16_base64(encoded));
            break;
        }
        if is("file", 1) {
            script = args.get(at..).filter(|rest| !rest.is_empty()).map(script_file_call);
            break;
        }
        if is("workingdirectory", 2) || name == "wd" {
            workdir = args.get(at).cloned();
            at += 1;
            continue;
        }
        let takes_value = is("executionpolicy", 2)
            || name == "ep"
            || is("encodedarguments", 8)
            || name == "ea"
            || is("inputformat", 2)
            || name == "if"
            || is("outputformat", 2)
            || name == "of"
            || is("windowstyle", 1)
            || is("configurationname", 3)
            || is("settingsfile", 2)
            || is("custompipename", 2)
            || is("version", 1)
            || is("psconsolefile", 3);
        if takes_value {
            at += 1;
        }
    }
    let script = match script {
        Some(script) => script,
        // No command on the line: the host reads its script from standard input.
        None if at >= args.len() && !args.iter().any(|a| is_file_switch(a)) => stdin?.to_string(),
        None => return None,
    };
    Some(match workdir {
        Some(dir) => format!("Set-Location -LiteralPath '{}'\n{script}", dir.replace('\'', "''")),
        None => script,
    })
}

/// `-File x.ps1 a -Name b -Flag:c` as the script it runs: `& 'x.ps1' 'a' -Name 'b' -Flag:'c'` (the
/// walk reads the file). A word spelled as a parameter's name binds to the script's parameter of
/// that name, as the host binds it; any other word is a string.
fn script_file_call(words: &[String]) -> String {
    let quote = |word: &str| format!("'{}'", word.replace('\'', "''"));
    let mut call = vec!["&".to_string()];
    for (at, word) in words.iter().enumerate() {
        let (name, value) = word.split_once(':').map_or((word.as_str(), None), |(name, value)| (name, Some(value)));
        let parameter = name.strip_prefix('-').is_some_and(|name| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        call.push(match value {
            _ if at == 0 || !parameter => quote(word),
            Some(value) => format!("{name}:{}", quote(value)),
            None => name.to_string(),
        });
    }
    call.join(" ")
}

fn is_file_switch(arg: &str) -> bool {
    let name = arg.trim_start_matches(['-', '/']).to_ascii_lowercase();
    !name.is_empty() && "file".starts_with(&name) && arg.starts_with(['-', '/'])
}

/// `-EncodedCommand`'s text: base64 of UTF-16LE. `None` when it is not valid base64.
pub fn decode_utf16_base64(encoded: &str) -> Option<String> {
    let bytes = decode_base64(encoded)?;
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [low, high] => u16::from_le_bytes([*low, *high]),
            _ => 0,
        })
        .collect();
    Some(String::from_utf16_lossy(&units))
}

fn decode_base64(encoded: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(encoded.len() / 4 * 3);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for byte in encoded.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        // Only the bits not yet written out are kept.
        buffer = ((buffer << 6) | u32::from(value)) & 0x3fff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((buffer >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}
