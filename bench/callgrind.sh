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
# checkout's corpora, so they judge the same calls. A run's count varies by up to a few tenths of
# a percent (the core's hash maps have random seeds), so each case runs CALLGRIND_RUNS times
# (default 3) and the median is reported. The repository lives under TMPDIR, whose length shows in
# the counts: compare numbers of one invocation. The build is the release profile (LTO) with
# symbols, so a first build takes minutes.
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

# Runs per case; the median is reported.
runs=${CALLGRIND_RUNS:-3}
# The folder's name holds no guarded name: a path through a folder named like the ledger's
# (`approval-gates`) takes the ledger's slower checks at every target, which a repository elsewhere
# does not (measured: +1.2% on bash's first sight), so such a name would measure that case alone.
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind-bench.XXXXXXXX")
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

# count BINARY CASE: "calls instructions" of one run of CASE, in a fresh repository.
count() {
  local binary=$1 name=$2 calls total
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
  echo "$calls $total"
}

# measure BINARY: "case calls instructions-per-call" per case, the median of $runs runs.
measure() {
  local binary=$1 name calls total run
  for name in $("$binary" --list | cut -f1); do
    for ((run = 0; run < runs; run++)); do count "$binary" "$name"; done >"$work/runs"
    calls=$(head -n1 "$work/runs" | cut -d' ' -f1)
    total=$(cut -d' ' -f2 "$work/runs" | sort -n | sed -n "$(((runs + 1) / 2))p")
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

# A revision as given, with its commit when it is a name.
label() {
  local sha
  sha=$(git -C "$here" rev-parse --short "$1")
  case $sha in "$1"*) echo "$1" ;; *) echo "$1 ($sha)" ;; esac
}
printf '%-18s %7s %14s %14s %8s\n' case calls "$(label "$1")" "$(label "$2")" change
paste -d' ' "${results[0]}" "${results[1]}" | while read -r name calls per_a _ _ per_b; do
  change=$(awk -v a="$per_a" -v b="$per_b" 'BEGIN { printf "%+.2f%%", (b - a) * 100 / a }')
  printf '%-18s %7s %14s %14s %8s\n' "$name" "$calls" "$per_a" "$per_b" "$change"
done
