#!/usr/bin/env bash
# The Debian packages the sandboxed suites need, installed from Debian's archive when missing:
# bubblewrap (the confinement the sealing and execution-oracle tests run commands in) and socat
# (Claude Code's sandbox needs it beside bubblewrap). Needs root (CI runs as root); elsewhere it
# says what to install and exits 0, and the suites that need the packages say they were skipped.
#
# The execution oracle (docs/oracle.md) runs every corpus row and generated case for real, so the
# interpreters and small tools the corpora name are installed too: ruby, php, lua, gawk, the other
# shells (zsh, mksh, ksh, busybox), rsync, sponge (moreutils), cpio, dos2unix, uudecode
# (sharutils), expect, parallel and tree. Left out for their size: R (r-base-core and its
# libraries), pandoc, cmake and fish; the oracle counts the rows that need them as inconclusive.
set -euo pipefail
packages=(bubblewrap socat
  ruby php-cli lua5.4 gawk zsh mksh ksh busybox rsync moreutils cpio dos2unix sharutils expect parallel tree)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "system-packages: missing ${missing[*]}; install them (Debian: apt-get install ${missing[*]}) to run the sandboxed suites" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
