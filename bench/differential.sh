#!/usr/bin/env bash
# bench/differential.sh — the long run of the differential test against
# GCC (issue 38): purist is never more optimistic than GCC's own verdicts.
#
#   bench/differential.sh [--programs N] [--csmith N] [--chunk N] [--keep]
#
# Runs tests/gcc/differential.sh over N programs of tests/gcc/gen_effects
# (default 2000, seeds 1..N, 12 functions each) and N csmith programs
# (default 200), in chunks of --chunk generated programs (default 250) and
# 25 csmith ones, and prints the sums: functions compared, same class, more
# conservative (with purist's top reasons), more optimistic (must be 0;
# each one is listed) and the allowed kind (pointers to locals or
# read-only data passed to a call, tests/gcc/differences.txt part 7).
# The CI test gcc/differential runs a fixed small seed set of the same.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
programs=2000 ncsmith=200 chunk=250 keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --programs) programs=$2; shift 2 ;;
    --csmith) ncsmith=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/differential.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { echo "differential.sh: $*" >&2; }
. "$root/bench/lib.sh"
bench_workdir

say "building purist (Release) in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target purist purist-engine >/dev/null
"${CC:-cc}" -O2 -o "$work/gen_effects" "$root/tests/gcc/gen_effects.c"
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)

runs=()
for ((a = 1; a <= programs; a += chunk)); do
  b=$((a + chunk - 1)); [ "$b" -le "$programs" ] || b=$programs
  runs+=("--seeds $a-$b")
done
for ((a = 1; a <= ncsmith; a += 25)); do
  b=$((a + 24)); [ "$b" -le "$ncsmith" ] || b=$ncsmith
  runs+=("--seeds none --csmith $a-$b")
done
status=0 n=0
for r in "${runs[@]}"; do
  say "tests/gcc/differential.sh $r"
  # shellcheck disable=SC2086
  n=$((n + 1))
  bash "$root/tests/gcc/differential.sh" "$build/purist" "$work/gen_effects" "$root" $r \
    >"$work/run.$n" 2>&1 || status=1
done
cat "$work"/run.* | awk -v rev="$rev" -v programs="$programs" -v ncsmith="$ncsmith" '
  /^differential: / { n += $2; unseen += $6 }
  /^  same class: / { gsub(/[;:]/, ""); same += $3; cons += $7; opt += $10 }
  /allowed\): / { allowed += $NF }
  /may not return/ { mnr += $8 }
  /^    +[0-9]+  / { c = $1; $1 = ""; sub(/^ /, ""); sub(/g[0-9]+_f[0-9]+/, "a generated function"); why[$0] += c }
  /^    gen|^    csmith/ { bad[++nb] = $0 }
  END {
    printf "commit %s: %d generated programs, %d csmith programs\n", rev, programs, ncsmith
    printf "functions compared: %d (GCC analysed them; %d purist lists that GCC did not)\n", n, unseen
    printf "same class: %d\nmore conservative: %d\nmore optimistic: %d (must be 0)\n", same, cons, opt
    printf "more optimistic, allowed (pointers to locals or read-only data passed to a call): %d\n", allowed
    printf "\"may not return\" vs GCC \"looping\" on the same class: %d\n", mnr
    print "more conservative, by purist'"'"'s reason:"
    for (r in why) printf "  %6d  %s\n", why[r], r | "sort -rn | head -n 12"
    close("sort -rn | head -n 12")
    for (i = 1; i <= nb; i++) print "optimistic:" bad[i]
  }'
[ "$keep" -eq 1 ] && say "kept $work"
exit $status
