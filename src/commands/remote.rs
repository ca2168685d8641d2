//! Commands that reach another machine (`ssh`, `scp`). The other machine may be this one
//! (`localhost`, a name that resolves here), so what they run or copy there is judged as if here:
//! the remote command as shell text, a remote path as the path it spells. An option that runs a
//! local program, reads a configuration or writes a local file makes the line an unknown
//! command's.

use super::copies::COPIES;
use super::options::{Item, operands, options, prefix_spec, spec};
use super::sink::Sink;
use super::{Arg, unknown};

/// ssh's flags that neither run, read nor write anything local (`-M`, `-s` are not here).
const SSH_FLAGS: &str = "46AaCfGgKkNnqTtVvXxYy";
/// ssh's options with a value that is no local file or command: port, user, identity (read),
/// cipher, MAC, bind address and interface, escape character, jump host, query, control command,
/// tag, stdio forward.
const SSH_VALUES: &str = "pliceBbJmQOPW";
/// Every option of ssh's that takes a value (`-E log`, `-F config`, `-o option`, `-S socket`,
/// `-L`/`-R`/`-D` forwards that may be local sockets, `-I` a PKCS#11 library, `-w` a tunnel).
const SSH_ALL_VALUES: &str = "BbcDEeFIiJLlmOopPQRSWw";

/// `ssh [opts] host [command…]`: the command, its words joined as ssh joins them, runs in a shell
/// there; without one, that shell reads standard input. What the line feeds it may be run too.
pub(super) fn ssh(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut plain = true;
    let mut words = Vec::new();
    // ssh reads options before and after the host, up to the command.
    let mut rest = args;
    loop {
        let start = options(rest, &prefix_spec(SSH_ALL_VALUES, &[]), |item| {
            plain &= match item {
                Item::Flag(letter) => SSH_FLAGS.contains(letter),
                Item::Short(letter, value) => SSH_VALUES.contains(letter) && !value.dynamic,
                _ => false,
            };
        });
        let Some(operand) = rest.get(start) else { break };
        words.push(operand);
        rest = rest.get(start + 1..).unwrap_or_default();
        if words.len() > 1 || rest.first().is_none_or(|next| !next.text.starts_with('-') || next.dynamic) {
            words.extend(rest);
            break;
        }
    }
    if !plain || words.iter().any(|word| word.dynamic && !word.pipe) {
        unknown::analyze("ssh", args, stdin, sink);
        return;
    }
    if let Some(command) = words.get(1..).filter(|command| !command.is_empty()) {
        let text: Vec<&str> = command.iter().map(|word| word.text.as_str()).collect();
        sink.script(&text.join(" "));
    } else if let Some(stdin) = stdin {
        sink.script(stdin);
    }
    // The remote shell, or its command (`ssh host sh`), may run what the line feeds it: the
    // guarded locations that input names count as written, as for an unknown command.
    if stdin.is_some() || !sink.job.producer.is_empty() {
        unknown::analyze("ssh", &[], stdin, sink);
    }
}

/// scp's flags (`-r` copies trees).
const SCP_FLAGS: &str = "346ABCOpqRrTv";
/// scp's options with a value that is no local file or command written: cipher, identity, jump
/// host, bandwidth, port, sftp option.
const SCP_VALUES: &str = "ciJlPX";
/// Every option of scp's that takes a value (`-F config`, `-o option`, `-S program`, `-D sftp
/// server` run or read what the line does not show).
const SCP_ALL_VALUES: &str = "cDFiJlPoSX";

/// `scp [opts] source… destination`: a copy, as `cp` judges one, with `[user@]host:` dropped from
/// each path (a remote path is judged as the path it spells: the host may be this machine).
pub(super) fn scp(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let mut plain = true;
    let mut recursive = false;
    let files = operands(args, &spec(SCP_ALL_VALUES, &[]));
    options(args, &spec(SCP_ALL_VALUES, &[]), |item| match item {
        Item::Flag(letter) => {
            plain &= SCP_FLAGS.contains(letter);
            recursive |= letter == 'r';
        }
        Item::Short(letter, _) => plain &= SCP_VALUES.contains(letter),
        Item::Long(..) => plain = false,
        Item::Operand(_) => {}
    });
    let Some(cp) = COPIES.iter().find(|row| row.names.contains(&"cp")) else { return };
    if !plain || files.len() < 2 {
        unknown::analyze("scp", args, stdin, sink);
        return;
    }
    let mut copied: Vec<Arg> = recursive.then(|| Arg::literal("-r")).into_iter().collect();
    copied.push(Arg::literal("--"));
    copied.extend(files.into_iter().map(path_here));
    cp.run(&copied, sink);
}

/// The path an scp operand names: `host:path` and `user@host:path` as `path` (`.` for `host:`),
/// `scp://host[:port]/path` as `path`; a local path as it is.
fn path_here(arg: &Arg) -> Arg {
    let text = arg.text.as_str();
    let path = match text.strip_prefix("scp://") {
        Some(url) => url.split_once('/').map_or(".", |(_, path)| path),
        None if text.split('/').next().is_some_and(|head| head.contains(':')) => {
            text.split_once(':').map_or(text, |(_, path)| path)
        }
        None => text,
    };
    let path = if path.is_empty() { "." } else { path };
    Arg { text: path.to_string(), ..arg.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_paths_are_read_as_the_paths_they_spell() {
        let here = |text| path_here(&Arg::literal(text)).text;
        assert_eq!(here("build@ci:/tmp/"), "/tmp/");
        assert_eq!(here("ci:docs/superpowers/plans/p.md"), "docs/superpowers/plans/p.md");
        assert_eq!(here("ci:"), ".");
        assert_eq!(here("scp://ci:22/srv/x"), "srv/x");
        assert_eq!(here("./a:b"), "./a:b");
        assert_eq!(here("docs/superpowers/plans/p.md"), "docs/superpowers/plans/p.md");
    }
}
