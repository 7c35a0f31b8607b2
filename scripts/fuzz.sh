#!/usr/bin/env bash
# Runs purist's libFuzzer targets (docs/fuzzing.md).
#   scripts/fuzz.sh [-t SECONDS] [-j PARALLEL] [-b BUILD_DIR] [TARGET...]
# Builds BUILD_DIR (default build-fuzz) with CC=clang-19 -DPURIST_FUZZ=ON,
# then gives each target SECONDS (default 20: the CI smoke run) starting
# from its seeds in tests/fuzz/corpus/<target>; what a run finds new is
# kept in BUILD_DIR/corpus/<target>, never in the tree. A crash, a leak, a
# sanitizer report or a timeout fails the run (exit 1) and leaves the input
# as BUILD_DIR/crash-<target>-*; the last lines of each log give the
# executions and the coverage (cov: edges, ft: features).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=20 par=1 build=build-fuzz
while getopts t:j:b: o; do
  case $o in t) secs=$OPTARG ;; j) par=$OPTARG ;; b) build=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(summary elfsec cdb kb writers config cachelex)
CC=clang-19 cmake -S . -B "$build" -DPURIST_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz >/dev/null
run() {   # one target: its log is $build/fuzz-<t>.log
  local t=$1 work=$build/corpus/$1
  mkdir -p "$work"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice "$build/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/crash-$t-" "$work" "tests/fuzz/corpus/$t" \
    >"$build/fuzz-$t.log" 2>&1
}
# failed TARGET: says so, with the end of its log (the sanitizer's report).
failed() {
  echo "fuzz: $1 FAILED: $build/fuzz-$1.log" >&2
  tail -n 60 "$build/fuzz-$1.log" >&2 || true
  ls "$build"/crash-"$1"-* 2>/dev/null >&2 || true
}
fail=0 pids=() names=()
for t in "${targets[@]}"; do
  run "$t" & pids+=($!) names+=("$t")
  if [ ${#pids[@]} -ge "$par" ]; then
    wait "${pids[0]}" || { failed "${names[0]}"; fail=$((fail + 1)); }
    pids=("${pids[@]:1}") names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { failed "${names[$i]}"; fail=$((fail + 1)); }
done
for t in "${targets[@]}"; do
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$t.log" 2>/dev/null || true)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$build/fuzz-$t.log" 2>/dev/null | tail -n 1 || true)
  echo "fuzz: $t: ${execs:-?} executions in ${secs}s, $cov"
done
echo "fuzz: $((${#targets[@]} - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
