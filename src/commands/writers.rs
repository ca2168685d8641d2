//! Commands whose writes are one shape: these operands, or these options' values, are the files
//! they write. A row each.

use super::Arg;
use super::options::{Spec, Valued, operands, options, spec, value_of};
use super::sink::Sink;

/// One command that writes where its words say.
pub(super) struct Writer {
    pub names: &'static [&'static str],
    pub options: Spec<'static>,
    pub writes: Writes,
}

/// Which of a [`Writer`]'s words are the files it writes.
pub(super) enum Writes {
    /// Every operand.
    Operands,
    /// The values of these options.
    Values(Valued),
    /// The value of every word `key=value` with this key and `=` (`dd of=file`).
    Assigned(&'static str),
    /// Every operand is a directory made: no file is written.
    Directories,
}

pub(super) const WRITERS: &[Writer] = &[
    Writer { names: &["tee"], options: spec("", &[]), writes: Writes::Operands },
    Writer {
        names: &["rm", "rmdir", "unlink", "shred"],
        options: spec("ns", &["iterations", "size", "random-source"]),
        writes: Writes::Operands,
    },
    Writer { names: &["touch"], options: spec("rdt", &["reference", "date"]), writes: Writes::Operands },
    Writer { names: &["truncate"], options: spec("sr", &["size", "reference"]), writes: Writes::Operands },
    Writer { names: &["sudoedit"], options: spec("CDghpRTUu", &[]), writes: Writes::Operands },
    Writer {
        names: &["sort"],
        options: spec("ktoST", &["key", "field-separator", "output", "buffer-size", "temporary-directory"]),
        writes: Writes::Values(Valued { short: "o", long: &["output"] }),
    },
    Writer { names: &["dd"], options: spec("", &[]), writes: Writes::Assigned("of=") },
    Writer { names: &["mkdir"], options: spec("mZ", &["mode", "context"]), writes: Writes::Directories },
];

impl Writer {
    pub fn run(&self, args: &[Arg], sink: &mut Sink) {
        match &self.writes {
            Writes::Operands => {
                for arg in operands(args, &self.options) {
                    sink.write(arg);
                }
            }
            Writes::Values(valued) => {
                options(args, &self.options, |item| {
                    if let Some(file) = valued.value(&item) {
                        sink.write(&file);
                    }
                });
            }
            Writes::Directories => {
                for arg in operands(args, &self.options) {
                    sink.make_directory(arg);
                }
            }
            Writes::Assigned(key) => {
                for arg in args {
                    if let Some(file) = arg.text.strip_prefix(key) {
                        sink.write(&value_of(file, arg));
                    }
                }
            }
        }
    }
}
