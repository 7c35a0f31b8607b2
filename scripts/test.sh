#!/usr/bin/env bash
# The README's second command, and what CI runs (.ci/run): installs what is
# missing (scripts/deps.sh --test: the build set and what the tests use),
# then builds and runs the whole test suite twice — a normal build
# and one under AddressSanitizer + UndefinedBehaviorSanitizer — and gives
# each libFuzzer target a 20-second smoke run (docs/fuzzing.md); a crash in
# any of them fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs=$(nproc)
for variant in release asan; do
  dir=build-test-$variant
  extra=()
  [ "$variant" = asan ] && extra=(-DPURIST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
  echo "== $variant build" >&2
  cmake -S . -B "$dir" "${extra[@]}" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  echo "== $variant tests" >&2
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" -j"$jobs" --output-on-failure
done
echo "== fuzz smoke run" >&2
scripts/fuzz.sh -t 20 -j "$jobs" -b build-test-fuzz
