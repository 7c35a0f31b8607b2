#!/usr/bin/env bash
# bench/verify.sh — what libpurist-rt costs a call-heavy program (issue 6).
#
#   bench/verify.sh [--build DIR] [--calls N] [--keep]
#
# Builds purist and libpurist-rt (Release), then the program in
# bench/verify/ twice with -O2: plain, and with `purist rt-flags --cflags`
# and `purist rt-flags -p DIR --ldflags` (hooks in every function, the
# wrappers). Runs each under the runtime as `purist verify` would (its
# environment; the analysis of the project is not timed) at PURIST_SAMPLE=1
# and =100, best of 5 CPU times, and prints the slowdowns as ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
calls=2000000
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift ;;
    --calls) calls=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--build DIR] [--calls N] [--keep]" >&2; exit 2 ;;
  esac
  shift
done
say() { echo "verify-bench: $*" >&2; }

build=$(mkdir -p "$build" && cd "$build" && pwd)
if [ ! -f "$build/CMakeCache.txt" ]; then   # an existing build keeps its configuration
  say "configuring $build (Release)"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
fi
say "building purist and libpurist-rt in $build"
cmake --build "$build" -j"$(nproc)" --target purist purist-rt >/dev/null
purist=$build/purist
work=$(mktemp -d "${TMPDIR:-/tmp}/purist-bench.XXXXXX")
[ "$keep" -eq 1 ] || trap 'rm -rf "$work"' EXIT
cp "$root"/bench/verify/* "$work"/
cd "$work"
printf '[{"directory":"%s","file":"work.c","command":"cc -O2 -c work.c"},{"directory":"%s","file":"main.c","command":"cc -O2 -c main.c"}]\n' \
  "$work" "$work" >compile_commands.json
cc -O2 -o plain main.c work.c
cf=$("$purist" rt-flags --cflags)
lf=$("$purist" rt-flags -p . --ldflags)
# shellcheck disable=SC2086
{ cc -O2 $cf -c main.c && cc -O2 $cf -c work.c && cc -o prog main.o work.o $lf; }
printf 'checksum pure\nclampi const\n' >watch
mkdir -p reports

# best CPU time (user + system) of five runs of "$@", in seconds: CPU
# time, not wall time, because the machine may be shared.
best() {
  local b="" t
  for _ in 1 2 3 4 5; do
    t=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null; } 2>&1 | awk '{printf "%.3f", $1 + $2}' )
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a<b)}'; then b=$t; fi
  done
  echo "$b"
}
under_rt() { PURIST_WATCH=$work/watch PURIST_REPORT=$work/reports LD_BIND_NOW=1 PURIST_SAMPLE=$1 ./prog "$calls"; }

[ "$(./plain "$calls")" = "$(under_rt 1)" ] || { say "the instrumented program computed something else"; exit 1; }
t_plain=$(best ./plain "$calls")
t_off=$(best ./prog "$calls")
t_1=$(best under_rt 1)
t_100=$(best under_rt 100)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", (b > 0 ? a / b : 0)}'; }
echo "calls of each watched function: $calls (checksum: pure, over 64..191 bytes; clampi: const)"
echo "plain build:                                  ${t_plain}s"
echo "instrumented, not under verify (nothing watched): ${t_off}s  ratio $(ratio "$t_off" "$t_plain")"
echo "instrumented, PURIST_SAMPLE=1:                 ${t_1}s  ratio $(ratio "$t_1" "$t_plain")"
echo "instrumented, PURIST_SAMPLE=100:               ${t_100}s  ratio $(ratio "$t_100" "$t_plain")"
