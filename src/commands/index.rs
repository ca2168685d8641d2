//! The rows of the command tables by name: a command's row is looked up once per command, so the
//! tables are indexed when first asked instead of searched row by row.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::copies::{COPIES, Copy};
use super::viewers::{VIEWERS, Viewer};
use super::wrappers::{CODED, Coded, WRAPPERS, Wrapper};
use super::writers::{WRITERS, Writer};

/// The row a command name has, in the order the tables are consulted.
#[derive(Clone, Copy)]
pub(super) enum Row {
    Wrapper(&'static Wrapper),
    Coded(&'static Coded),
    Writer(&'static Writer),
    Copy(&'static Copy),
    Viewer(&'static Viewer),
}

/// The row of command `name`, if a table has one (the first table that names it wins).
pub(super) fn row(name: &str) -> Option<Row> {
    static INDEX: OnceLock<HashMap<&'static str, Row, BuildHasherDefault<Fnv>>> = OnceLock::new();
    INDEX.get_or_init(build).get(name).copied()
}

fn build() -> HashMap<&'static str, Row, BuildHasherDefault<Fnv>> {
    let mut index = HashMap::default();
    let rows = (WRAPPERS.iter().map(|row| (row.names, Row::Wrapper(row))))
        .chain(CODED.iter().map(|row| (row.names, Row::Coded(row))))
        .chain(WRITERS.iter().map(|row| (row.names, Row::Writer(row))))
        .chain(COPIES.iter().map(|row| (row.names, Row::Copy(row))))
        .chain(VIEWERS.iter().map(|row| (row.names, Row::Viewer(row))));
    for (names, row) in rows {
        for &name in names {
            index.entry(name).or_insert(row);
        }
    }
    index
}

/// FNV-1a: command names are short and not chosen to collide with one another's buckets in a
/// way that matters (a collision costs a comparison, never a wrong row).
pub(super) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_finds_the_first_table_that_lists_it() {
        let tables: [(&str, Vec<&[&str]>); 5] = [
            ("wrapper", WRAPPERS.iter().map(|row| row.names).collect()),
            ("coded", CODED.iter().map(|row| row.names).collect()),
            ("writer", WRITERS.iter().map(|row| row.names).collect()),
            ("copy", COPIES.iter().map(|row| row.names).collect()),
            ("viewer", VIEWERS.iter().map(|row| row.names).collect()),
        ];
        for (at, (table, rows)) in tables.iter().enumerate() {
            for &name in rows.iter().flat_map(|names| names.iter()) {
                let earlier = tables[..at].iter().any(|(_, rows)| rows.iter().any(|names| names.contains(&name)));
                let found = match row(name) {
                    Some(Row::Wrapper(_)) => "wrapper",
                    Some(Row::Coded(_)) => "coded",
                    Some(Row::Writer(_)) => "writer",
                    Some(Row::Copy(_)) => "copy",
                    Some(Row::Viewer(_)) => "viewer",
                    None => "none",
                };
                if !earlier {
                    assert_eq!(found, *table, "{name}");
                }
            }
        }
        assert!(row("no-such-command").is_none());
    }

    #[test]
    fn every_long_option_a_row_reads_is_one_its_options_know() {
        use super::super::copies::{Recursive, Sources};
        use super::super::options::{Flags, Spec, Valued};
        use super::super::writers::Writes;
        let known = |spec: &Spec<'_>, name: &str| spec.long.contains(&name) || spec.flags.contains(&name);
        let check = |row: &[&str], spec: &Spec<'_>, names: &[&str]| {
            for name in names {
                // An abbreviation resolves only to a name the options list.
                assert!(known(spec, name), "{row:?}: --{name}");
            }
        };
        let flags = |flags: Flags| flags.long;
        let valued = |valued: Valued| valued.long;
        for copy in COPIES {
            let recursive = match copy.recursive {
                Recursive::With(given) => flags(given),
                Recursive::Always => &[],
            };
            let sources = match copy.sources {
                Sources::Unless(given) | Sources::With(given) => flags(given),
                Sources::Never | Sources::Always => &[],
            };
            for names in [recursive, sources, flags(copy.makes_directories), valued(copy.target_directory)] {
                check(copy.names, &copy.options, names);
            }
        }
        for writer in WRITERS {
            if let Writes::Values(given) = &writer.writes {
                check(writer.names, &writer.options, given.long);
            }
        }
        for wrapper in WRAPPERS {
            check(wrapper.names, &wrapper.options, wrapper.writes.long);
            for chdir in wrapper.chdir {
                check(wrapper.names, &wrapper.options, chdir.long);
            }
        }
        for viewer in VIEWERS {
            for names in [viewer.runs.long, viewer.writes.long, viewer.unproven.options.long] {
                check(viewer.names, &viewer.options, names);
            }
        }
    }
}
