//! Claude Code's side of the hook: where its configuration lives, as this process sees it.

use approval_gates::gates::claude_code::ConfigPlaces;

/// Claude Code's configuration and this package's files, from the environment Claude Code gave
/// this hook, with the executable that is judging the call: an agent that rewrote it would run
/// its own code outside the sandbox at the next call.
pub fn config_places() -> ConfigPlaces {
    let places = ConfigPlaces::from_env(|name| std::env::var_os(name));
    match std::env::current_exe() {
        Ok(exe) => {
            let real = std::fs::canonicalize(&exe).unwrap_or_else(|_| exe.clone());
            places.with_owner_path(&exe).with_owner_path(&real)
        }
        Err(_) => places,
    }
}
