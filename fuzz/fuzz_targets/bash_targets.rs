#![no_main]
//! The bash parser and target finder, then the gate entry (`bash`): see [`shell_command`].
use approval_gates::analyses::bash_write_targets as write_targets;
use approval_gates_fuzz::shell_command;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|command: &str| shell_command(command, write_targets, "bash"));
