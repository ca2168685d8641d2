//! Downloaders: the files `curl` and `wget` save, by option or by the URL's own name.

use super::Arg;
use super::options::{Item, options, spec};
use super::sink::Sink;

/// `curl -o file`, `-O`/`--remote-name` (the URL's last segment, in `--output-dir` or here), and
/// `-J` (a name the server chooses, in that directory).
pub(super) fn curl(args: &[Arg], sink: &mut Sink) {
    let long_values =
        ["output", "data", "header", "user", "request", "url", "form", "config", "cookie", "cookie-jar", "output-dir"];
    let mut remote_name = false;
    let mut server_name = false;
    let mut output_dir = None;
    let mut urls = Vec::new();
    // `--head` is not `--header`: an exact name before the longer ones it begins.
    let flags = ["remote-name", "remote-name-all", "remote-header-name", "head"];
    options(args, &spec("odHuXFKbcAeEmrTwxyYz", &long_values).flags(&flags), |item| match item {
        Item::Short('o' | 'c', file) | Item::Long("output" | "cookie-jar", Some(file)) => sink.write(&file),
        Item::Flag('O') | Item::Long("remote-name" | "remote-name-all", None) => remote_name = true,
        Item::Flag('J') | Item::Long("remote-header-name", None) => server_name = true,
        Item::Long("output-dir", Some(dir)) => output_dir = Some(dir),
        Item::Long("url", Some(url)) => urls.push(url),
        Item::Operand(url) => urls.push(url.clone()),
        _ => {}
    });
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

/// The file name a downloader gives a URL: its path's last segment, without query or fragment.
fn url_file_name(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let path = path.split_once("://").map_or(path, |(_, rest)| rest.split_once('/').map_or("", |(_, path)| path));
    path.rsplit('/').next().filter(|name| !name.is_empty())
}

/// `wget -O file`, `-o/-a log`, and a download's own name in `-P dir` (default: here); a
/// recursive download (`-r`, `-m`) writes a tree there.
pub(super) fn wget(args: &[Arg], sink: &mut Sink) {
    let mut document = false;
    let mut recursive = false;
    let mut prefix = None;
    let mut urls = Vec::new();
    let long = ["output-document", "output-file", "append-output", "directory-prefix", "tries", "timeout", "user"];
    options(args, &spec("OoaPtTeUiDlAR", &long).flags(&["recursive", "mirror"]), |item| match item {
        Item::Short('O', file) | Item::Long("output-document", Some(file)) => {
            sink.write(&file);
            document = true;
        }
        Item::Short('o' | 'a', file) | Item::Long("output-file" | "append-output", Some(file)) => sink.write(&file),
        Item::Short('P', dir) | Item::Long("directory-prefix", Some(dir)) => prefix = Some(dir),
        Item::Flag('r' | 'm') | Item::Long("recursive" | "mirror", None) => recursive = true,
        Item::Operand(url) => urls.push(url),
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
