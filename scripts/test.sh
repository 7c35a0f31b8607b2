#!/usr/bin/env bash
# The README's second command, and what CI runs (.ci/run): installs what is
# missing (scripts/deps.sh --test: the build set and what the tests use),
# then builds and runs the whole test suite twice — a normal build
# and one under AddressSanitizer + UndefinedBehaviorSanitizer — and gives
# each libFuzzer target a 20-second smoke run (docs/fuzzing.md); a failure
# in any of them fails the run, after all three ran. The release suite runs
# in the demo's build/ (the same configuration), so after scripts/demo.sh
# it is not built twice.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs=$(nproc)
failed=()
for variant in release asan; do
  case $variant in
    # The demo's build directory and configuration (scripts/demo.sh): after
    # the demo this build has nothing left to do.
    release) dir=build extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPURIST_SANITIZE=OFF -DPURIST_FUZZ=OFF)
             skip=() ;;
    # The deps tests check the machine, not purist's code: once is enough.
    asan) dir=build-test-asan extra=(-DPURIST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
          skip=(-LE '^deps$') ;;
  esac
  echo "== $variant build in $dir (${SECONDS} s)" >&2
  cmake -S . -B "$dir" "${extra[@]}" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  echo "== $variant tests (${SECONDS} s)" >&2
  # A failure does not stop the run: CI reports every variant's failures.
  # intercept_tls_get_addr=0: GCC 12's sanitizer runtime takes a dynamic
  # TLS block whose address is 16 past a page boundary for a glibc 2.19
  # header and reads a bogus range from it, so LeakSanitizer's tracer
  # crashes at exit ("Tracer caught signal 11") wherever malloc happens to
  # place libLLVM's TLS there (google/sanitizers#1322; fixed in LLVM 17).
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" -j"$jobs" --output-on-failure "${skip[@]}" || failed+=("$variant tests")
done
echo "== fuzz smoke run (${SECONDS} s)" >&2
scripts/fuzz.sh -t 20 -j "$jobs" -b build-test-fuzz || failed+=("fuzz smoke run")
if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED after ${SECONDS} s: ${failed[*]}" >&2
  exit 1
fi
echo "== all passed in ${SECONDS} s" >&2
