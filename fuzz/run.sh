#!/usr/bin/env bash
# Fuzz every target for SECONDS each (default 60), seeded from fuzz/seeds/ and the test fixtures,
# under AddressSanitizer: a panic, a memory error, an input over 1 s or RSS over 1 GiB stops it and
# leaves the input in fuzz/artifacts/<target>/. Then every input of the corpus and of the artifacts
# is replayed on a build without the sanitizer (which slows tree-sitter about 25-fold), where one
# slower than 100 ms fails the target. Turn a finding into a regression test. Needs cargo-fuzz
# (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets the stable toolchain take cargo-fuzz's flags.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls fuzz/fuzz_targets | sed 's/\.rs$//'))
export RUSTC_BOOTSTRAP=1

seed() { # seed <target>: fuzz/seeds/<target>, plus each line of the bash corpus for bash targets
  local corpus=fuzz/corpus/$1
  mkdir -p "$corpus"
  cp -n fuzz/seeds/"$1"/* "$corpus"/ 2>/dev/null || true
  if [ -f fuzz/seeds/"$1".from-corpus ] && [ -f __test__/fixtures/bash-targets.jsonl ]; then
    node -e '
      const fs = require("fs"), path = require("path"), dir = process.argv[1]
      fs.readFileSync("__test__/fixtures/bash-targets.jsonl", "utf8").split("\n").filter(Boolean)
        .forEach((line, i) => { const c = JSON.parse(line); if (c.cmd) fs.writeFileSync(path.join(dir, "fixture-" + i), c.cmd) })
    ' "$corpus"
  fi
}

status=0
printf '%-16s %8s %10s %8s %8s  %s\n' target seconds runs cov rss_mb 'result (ASan fuzzing, then a 100 ms replay)'
for target in "${targets[@]}"; do
  seed "$target"
  log=fuzz/artifacts/$target.log
  mkdir -p fuzz/artifacts/"$target"
  FUZZ_TIME_LIMIT_MS=1000 cargo fuzz run --release "$target" fuzz/corpus/"$target" -- \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=1024 -print_final_stats=1 >"$log" 2>&1
  code=$?
  if [ $code -eq 0 ]; then
    # -runs=0: run every input of the corpus once, mutate nothing.
    FUZZ_TIME_LIMIT_MS=100 cargo fuzz run --release --sanitizer none "$target" fuzz/corpus/"$target" \
      fuzz/seeds/"$target" -- -runs=0 -rss_limit_mb=1024 >"$log.replay" 2>&1
    code=$?
    [ $code -eq 0 ] || log=$log.replay
  fi
  runs=$(grep -oE 'stat::number_of_executed_units: +[0-9]+' "$log" | awk '{print $2}')
  rss=$(grep -oE 'stat::peak_rss_mb: +[0-9]+' "$log" | awk '{print $2}')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  if [ $code -eq 0 ]; then result=ok; else result="FAILED (see $log)"; status=1; fi
  printf '%-16s %8s %10s %8s %8s  %s\n' "$target" "$seconds" "${runs:-?}" "${cov:-?}" "${rss:-?}" "$result"
done
exit $status
