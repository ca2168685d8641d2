#!/usr/bin/env bash
# Instructions per guard call, counted by callgrind: the numbers a change to the core is judged by
# before and after (wall clock swings on a shared machine; instruction counts do not).
#
#   bench/callgrind.sh                 the current checkout
#   bench/callgrind.sh REV_A REV_B     two revisions side by side, each built in a git worktree
#   npm run bench:instructions [-- REV_A REV_B]
#
# Each case of examples/instructions.rs (`--list`) runs in its own process under
# `valgrind --tool=callgrind`, collecting only inside the harness's `judge_measured`, so the
# repository setup, the parsers' one-time setup and any warm-up are not counted; the count is
# divided by the case's calls. Both revisions run the current checkout's harness on the current
# checkout's corpora, so they judge the same calls. Counts repeat to within a few hundredths of a
# percent (the hash maps' random seeds); the build is the release profile (LTO) with symbols, so a
# first build takes minutes.
#
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null; then
  echo "callgrind.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 1
fi
if [ $# -ne 0 ] && [ $# -ne 2 ]; then
  echo "usage: bench/callgrind.sh [REV_A REV_B]" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/approval-gates-callgrind.XXXXXXXX")
worktrees=()
cleanup() {
  for tree in "${worktrees[@]}"; do git -C "$here" worktree remove --force "$tree" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# build DIR TARGET_DIR OUT: the harness of DIR, release with symbols, copied to OUT.
build() {
  local dir=$1 target=$2 out=$3 features=()
  echo "building the harness in $dir ..." >&2
  # A revision from before the harness has no such feature, and builds the copied example as is.
  grep -q '^instructions-harness' "$dir/Cargo.toml" && features=(--features instructions-harness)
  CARGO_TARGET_DIR=$target CARGO_PROFILE_RELEASE_STRIP=false cargo build --quiet --release --no-default-features \
    "${features[@]}" --example instructions --manifest-path "$dir/Cargo.toml" >&2
  cp "$target/release/examples/instructions" "$out"
}

# measure BINARY: "case calls instructions-per-call" per case, in a fresh repository each.
measure() {
  local binary=$1 name calls total
  for name in $("$binary" --list | cut -f1); do
    rm -rf "$work/repo" "$work/home"
    mkdir -p "$work/home/state"
    calls=$(HOME="$work/home" XDG_STATE_HOME="$work/home/state" valgrind --tool=callgrind --toggle-collect='*judge_measured*' \
      --callgrind-out-file="$work/callgrind.out" "$binary" "$name" "$work/repo" \
      --bash-corpus "$here/__test__/fixtures/bash-targets.jsonl" \
      --pwsh-corpus "$here/__test__/fixtures/pwsh-targets.jsonl" 2>"$work/valgrind.log" |
      sed -n 's/^[^:]*: \([0-9]*\) calls.*/\1/p') || { cat "$work/valgrind.log" >&2; exit 1; }
    total=$(sed -n 's/^summary: *//p' "$work/callgrind.out")
    if [ -z "$calls" ] || [ -z "$total" ] || [ "$total" -eq 0 ]; then
      echo "callgrind.sh: case $name counted nothing" >&2
      cat "$work/valgrind.log" >&2
      exit 1
    fi
    echo "$name $calls $((total / calls))"
  done
}

if [ $# -eq 0 ]; then
  build "$here" "$here/target" "$work/instructions"
  printf '%-18s %7s %14s\n' case calls instr/call
  measure "$work/instructions" | while read -r name calls per; do printf '%-18s %7s %14s\n' "$name" "$calls" "$per"; done
  exit 0
fi

results=()
for side in a b; do
  rev=$([ $side = a ] && echo "$1" || echo "$2")
  tree="$work/tree-$side"
  git -C "$here" worktree add --quiet --detach "$tree" "$rev"
  worktrees+=("$tree")
  # The current checkout's harness, so both sides judge the same calls through the same code.
  mkdir -p "$tree/examples"
  cp "$here/examples/instructions.rs" "$tree/examples/instructions.rs"
  # One target directory for both sides: the dependencies are built once.
  build "$tree" "$work/target" "$work/instructions-$side"
  measure "$work/instructions-$side" >"$work/result-$side"
  results+=("$work/result-$side")
done

label_a=$(git -C "$here" rev-parse --short "$1")
label_b=$(git -C "$here" rev-parse --short "$2")
printf '%-18s %7s %14s %14s %8s\n' case calls "$1 ($label_a)" "$2 ($label_b)" change
paste -d' ' "${results[0]}" "${results[1]}" | while read -r name calls per_a _ _ per_b; do
  change=$(awk -v a="$per_a" -v b="$per_b" 'BEGIN { printf "%+.2f%%", (b - a) * 100 / a }')
  printf '%-18s %7s %14s %14s %8s\n' "$name" "$calls" "$per_a" "$per_b" "$change"
done
