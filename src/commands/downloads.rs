//! Downloaders: the files `curl` and `wget` save, by option or by the URL's own name.

use super::effects::Variable;
use super::feeders::shown_file;
use super::options::{Item, options, spec, value_of};
use super::sink::Sink;
use super::{Arg, unknown};
use crate::paths;

/// curl's options that take a value, by their long names.
const CURL_LONG: &[&str] = &[
    "abstract-unix-socket",
    "alt-svc",
    "aws-sigv4",
    "cacert",
    "capath",
    "cert",
    "cert-type",
    "ciphers",
    "config",
    "connect-timeout",
    "connect-to",
    "continue-at",
    "cookie",
    "cookie-jar",
    "create-file-mode",
    "crlfile",
    "curves",
    "data",
    "data-ascii",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "delegation",
    "dns-interface",
    "dns-ipv4-addr",
    "dns-ipv6-addr",
    "dns-servers",
    "doh-url",
    "dump-header",
    "egd-file",
    "engine",
    "etag-compare",
    "etag-save",
    "expect100-timeout",
    "form",
    "form-string",
    "ftp-account",
    "ftp-alternative-to-user",
    "ftp-method",
    "ftp-port",
    "ftp-ssl-ccc-mode",
    "happy-eyeballs-timeout-ms",
    "header",
    "hostpubmd5",
    "hostpubsha256",
    "hsts",
    "interface",
    "json",
    "keepalive-time",
    "key",
    "key-type",
    "krb",
    "libcurl",
    "limit-rate",
    "local-port",
    "login-options",
    "mail-auth",
    "mail-from",
    "mail-rcpt",
    "max-filesize",
    "max-redirs",
    "max-time",
    "netrc-file",
    "noproxy",
    "oauth2-bearer",
    "output",
    "output-dir",
    "parallel-max",
    "pass",
    "pinnedpubkey",
    "preproxy",
    "proto",
    "proto-default",
    "proto-redir",
    "proxy",
    "proxy-cacert",
    "proxy-capath",
    "proxy-cert",
    "proxy-cert-type",
    "proxy-ciphers",
    "proxy-crlfile",
    "proxy-header",
    "proxy-key",
    "proxy-key-type",
    "proxy-pass",
    "proxy-pinnedpubkey",
    "proxy-service-name",
    "proxy-tls13-ciphers",
    "proxy-tlsauthtype",
    "proxy-tlspassword",
    "proxy-tlsuser",
    "proxy-user",
    "pubkey",
    "quote",
    "random-file",
    "range",
    "rate",
    "referer",
    "request",
    "request-target",
    "resolve",
    "retry",
    "retry-delay",
    "retry-max-time",
    "sasl-authzid",
    "service-name",
    "socks4",
    "socks4a",
    "socks5",
    "socks5-gssapi-service",
    "socks5-hostname",
    "speed-limit",
    "speed-time",
    "ssl-sessions",
    "stderr",
    "telnet-option",
    "tftp-blksize",
    "time-cond",
    "tls-max",
    "tls13-ciphers",
    "tlsauthtype",
    "tlspassword",
    "tlsuser",
    "trace",
    "trace-ascii",
    "trace-config",
    "unix-socket",
    "upload-file",
    "url",
    "url-query",
    "user",
    "user-agent",
    "variable",
    "write-out",
];

/// curl's options without a value that the row reads, and those a longer name begins: an exact
/// name before the longer ones (`--head` is not `--header`, `--ssl` not `--ssl-sessions`).
const CURL_FLAGS: &[&str] = &[
    "remote-name",
    "remote-name-all",
    "remote-header-name",
    "head",
    "crlf",
    "ftp-ssl-ccc",
    "netrc",
    "parallel",
    "socks5-gssapi",
    "ssl",
];

/// `curl -o file` (in `--output-dir`), `-O`/`--remote-name` (the URL's last segment, in
/// `--output-dir` or here), `-J` (a name the server chooses, in that directory), the files its
/// other options write (`-D`, `--trace`, `--stderr`, `-c`, `--etag-save`, …, `-w '%output{f}'`),
/// and `-T file` to a `file://` URL (that path). `-K file` reads options from a file: from the
/// text the line shows, else the line is judged as an unknown command's (P-18).
pub(super) fn curl(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let spec = spec("EKCbcdDFPHmoUQreXYytzTuAwx", CURL_LONG).flags(CURL_FLAGS);
    let mut configs = Vec::new();
    options(args, &spec, |item| {
        if let Item::Short('K', file) | Item::Long("config", Some(file)) = item {
            configs.push(file);
        }
    });
    let mut line = Vec::new();
    let mut unread = false;
    for file in &configs {
        // A config file the line shows: a process substitution's output, standard input (`-K -`).
        match shown_file(file, stdin, sink) {
            Some(text) => line.extend(config_options(text)),
            None => unread = true,
        }
    }
    if unread {
        unknown::analyze("curl", args, stdin, sink);
    }
    line.extend_from_slice(args);
    let mut remote_name = false;
    let mut server_name = false;
    let mut output_dir = None;
    let mut outputs = Vec::new();
    let mut uploads = Vec::new();
    let mut urls = Vec::new();
    options(&line, &spec, |item| match item {
        Item::Short('o', file) | Item::Long("output", Some(file)) => outputs.push(file),
        Item::Short('c' | 'D', file)
        | Item::Long(
            "cookie-jar" | "dump-header" | "trace" | "trace-ascii" | "stderr" | "libcurl" | "etag-save" | "hsts"
            | "alt-svc" | "ssl-sessions",
            Some(file),
        ) => sink.write(&file),
        Item::Short('w', format) | Item::Long("write-out", Some(format)) => {
            for file in written_by_format(&format.text) {
                sink.write(&value_of(file, &format));
            }
        }
        Item::Short('T', file) | Item::Long("upload-file", Some(file)) => uploads.push(file),
        Item::Flag('O') | Item::Long("remote-name" | "remote-name-all", None) => remote_name = true,
        Item::Flag('J') | Item::Long("remote-header-name", None) => server_name = true,
        Item::Long("output-dir", Some(dir)) => output_dir = Some(dir),
        Item::Long("url", Some(url)) => urls.push(url),
        Item::Operand(url) => urls.push(url.clone()),
        _ => {}
    });
    for output in outputs.iter().filter(|output| output.dynamic || output.text != "-") {
        // `--output-dir` is put before every `-o` name, even an absolute one.
        match &output_dir {
            Some(dir) => sink.write(&Arg { text: format!("{}/{}", dir.text, output.text), ..output.clone() }),
            None => sink.write(output),
        }
    }
    for upload in &uploads {
        for url in &urls {
            if let Some(path) = paths::file_uri_path(&url.text) {
                let path = Arg { text: path, ..url.clone() };
                match path.text.ends_with('/') {
                    true => sink.write_into(&path, upload, true),
                    false => sink.write(&path),
                }
            }
        }
    }
    if !remote_name {
        return;
    }
    let dir = output_dir.unwrap_or_else(|| Arg::literal("."));
    for url in &urls {
        if let Some(name) = url_file_name(&url.text) {
            sink.write_into(&dir, &Arg { text: name.to_string(), ..url.clone() }, true);
        }
    }
    if server_name {
        sink.write_named(dir);
    }
}

/// A curl config file's lines as command-line words: `output = "f"`, `--output f`, `-o f`,
/// `silent`; `#` starts a comment.
fn config_options(text: &str) -> Vec<Arg> {
    let mut words = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
        let end = line.find(|c: char| c.is_whitespace() || c == '=' || c == ':').unwrap_or(line.len());
        let (name, rest) = line.split_at(end);
        let value = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '=' || c == ':').trim_end();
        words.push(Arg::literal(&if name.starts_with('-') { name.to_string() } else { format!("--{name}") }));
        if !value.is_empty() {
            let unquoted = value.strip_prefix('"').map_or(value.to_string(), |quoted| {
                quoted.strip_suffix('"').unwrap_or(quoted).replace("\\\"", "\"").replace("\\\\", "\\")
            });
            words.push(Arg::literal(&unquoted));
        }
    }
    words
}

/// The files `-w '%output{file}'` (or `%output{>>file}`) sends the rest of the output to.
fn written_by_format(format: &str) -> Vec<&str> {
    let mut files = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find("%output{") {
        rest = rest.get(at + "%output{".len()..).unwrap_or_default();
        let end = rest.find('}').unwrap_or(rest.len());
        files.push(rest.get(..end).unwrap_or_default().trim_start_matches(">>"));
        rest = rest.get(end..).unwrap_or_default();
    }
    files
}

/// The file name a downloader gives a URL: its path's last segment, without query or fragment.
fn url_file_name(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let path = path.split_once("://").map_or(path, |(_, rest)| rest.split_once('/').map_or("", |(_, path)| path));
    path.rsplit('/').next().filter(|name| !name.is_empty())
}

/// `wget -O file`, `-o/-a log`, the files its other options write (`--save-cookies`,
/// `--warc-file` prefix, `--hsts-file`, `--rejected-log`), and a download's own name in `-P dir`
/// (default: here); a recursive download (`-r`, `-m`) writes a tree there. `-e`/`--execute`
/// commands are read as the options they set; a `--config` file or `$WGETRC` the line does not
/// show judges the line as an unknown command's (P-18).
pub(super) fn wget(args: &[Arg], stdin: Option<&str>, sink: &mut Sink) {
    let long = [
        "output-document",
        "output-file",
        "append-output",
        "directory-prefix",
        "tries",
        "timeout",
        "user",
        "execute",
        "input-file",
        "base",
        "wait",
        "quota",
        "user-agent",
        "level",
        "accept",
        "reject",
        "domains",
        "include-directories",
        "exclude-directories",
        "config",
        "save-cookies",
        "load-cookies",
        "warc-file",
        "warc-tempdir",
        "hsts-file",
        "rejected-log",
        "post-file",
        "body-file",
        "password",
        "header",
        "referer",
        "cut-dirs",
        "backups",
        "method",
        "post-data",
        "body-data",
    ];
    let spec = spec("eoaiBtOTwQPUlARDIX", &long).flags(&["recursive", "mirror"]);
    let mut line = Vec::new();
    let mut unread = matches!(sink.job.environment.variable("WGETRC"), Variable::Set(_));
    let mut configs = Vec::new();
    options(args, &spec, |item| match item {
        Item::Short('e', command) | Item::Long("execute", Some(command)) => line.extend(wgetrc_option(&command)),
        Item::Long("config", Some(file)) => configs.push(file),
        _ => {}
    });
    for file in &configs {
        match shown_file(file, None, sink) {
            Some(text) => line.extend(text.lines().flat_map(|command| wgetrc_option(&value_of(command, file)))),
            None => unread = true,
        }
    }
    if unread {
        unknown::analyze("wget", args, stdin, sink);
    }
    line.extend_from_slice(args);
    let mut document = false;
    let mut recursive = false;
    let mut prefix = None;
    let mut urls = Vec::new();
    options(&line, &spec, |item| match item {
        Item::Short('O', file) | Item::Long("output-document", Some(file)) => {
            sink.write(&file);
            document = true;
        }
        Item::Short('o' | 'a', file)
        | Item::Long("output-file" | "append-output" | "save-cookies" | "hsts-file" | "rejected-log", Some(file)) => {
            sink.write(&file)
        }
        // The archive, `prefix.warc.gz` (its index and metadata files lie beside it).
        Item::Long("warc-file", Some(prefix)) => {
            sink.write(&Arg { text: format!("{}.warc.gz", prefix.text), ..prefix })
        }
        Item::Short('P', dir) | Item::Long("directory-prefix", Some(dir)) => prefix = Some(dir),
        Item::Flag('r' | 'm') | Item::Long("recursive" | "mirror", None) => recursive = true,
        Item::Operand(url) => urls.push(url.clone()),
        _ => {}
    });
    if document {
        return;
    }
    let dir = prefix.unwrap_or_else(|| Arg::literal("."));
    if recursive {
        sink.write_tree(&dir, None, true);
    }
    sink.write_named(dir.clone());
    for url in urls {
        let name = url_file_name(&url.text).unwrap_or("index.html");
        sink.write_into(&dir, &Arg { text: name.to_string(), ..url.clone() }, true);
    }
}

/// A `.wgetrc` command (`output_document = f`; names ignore case, `_` and `-`) as the option
/// that sets the same, for the commands that write or place files.
fn wgetrc_option(command: &Arg) -> Option<Arg> {
    let (name, value) = command.text.split_once('=')?;
    let name: String = name.trim().chars().filter(|c| !matches!(c, '_' | '-')).collect::<String>().to_lowercase();
    let option = match name.as_str() {
        "outputdocument" => "output-document",
        "logfile" => "output-file",
        "dirprefix" => "directory-prefix",
        "savecookies" => "save-cookies",
        "warcfile" => "warc-file",
        "hstsfile" => "hsts-file",
        "rejectedlog" => "rejected-log",
        "recursive" | "mirror" if matches!(value.trim(), "on" | "1" | "yes") => {
            return Some(Arg::literal("--recursive"));
        }
        _ => return None,
    };
    Some(Arg { text: format!("--{option}={}", value.trim()), ..command.clone() })
}
