#!/usr/bin/env bash
# bench/link.sh — how long `purist link` takes on a million functions.
#
#   bench/link.sh [--funcs N] [--tus N] [--seed S] [--runs N] [--breakdown] [--keep]
#
# Builds purist (Release) and bench_gen_summaries, writes synthetic summaries
# (bench/gen_summaries.c; default 1,000,000 function definitions in 5,000
# TUs), then times `purist link OUT.purist --format=json -o /dev/null`,
# best of --runs (3), with its peak RSS. Goals: <= 5 s and <= 1 GiB.
# --breakdown also times the same link with --format=text and with --why
# (link and solve, no listing), to tell the output's cost from the rest.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
nfuncs=1000000 ntu=5000 seed=1 runs=3 breakdown=0 keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --funcs) nfuncs=$2; shift 2 ;;
    --tus) ntu=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --breakdown) breakdown=1; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "link.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "link.sh: $*" >&2; }

. "$root/bench/lib.sh"
bench_setup_time
bench_build bench_gen_summaries
bench_workdir
sums=$work/bench.purist

say "generating summaries: $nfuncs functions in $ntu TUs (seed $seed)"
t0=$(date +%s.%N)
gen_msg=$("$build/bench/bench_gen_summaries" "$sums" "$nfuncs" "$ntu" "$seed")
t1=$(date +%s.%N)
gen_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')

# Runs purist with the given arguments; prints "wall_seconds peak_rss_kib".
run_purist() {
  local t0 t1 rc=0 rss
  t0=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$work/rss" "$purist" "$@" 2>"$work/purist.log" || rc=$?
    rss=$(tail -n 1 "$work/rss")
  else
    "$purist" "$@" 2>"$work/purist.log" &
    local pid=$! hwm=0 v
    while kill -0 "$pid" 2>/dev/null; do
      v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
      [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
      sleep 0.01
    done
    wait "$pid" || rc=$?
    rss=$hwm
  fi
  t1=$(date +%s.%N)
  if [ "$rc" -gt 1 ]; then
    cp "$work/purist.log" "${TMPDIR:-/tmp}/purist-bench-link.log"
    say "purist $* exited with $rc; its messages: ${TMPDIR:-/tmp}/purist-bench-link.log"
  fi
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $rss"
}

# Times `purist link SUMS ARGS...` $runs times; sets best (s), rss (KiB, max) and all.
measure() {
  local t m
  best= rss=0 all=()
  for ((r = 1; r <= runs; r++)); do
    read -r t m < <(run_purist link "$sums" "$@")
    all+=("$t")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    [ "$m" -gt "$rss" ] && rss=$m
    say "purist link $* — run $r: $t s, $m KiB"
  done
}

mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

measure --format=json -o /dev/null
json_best=$best json_rss=$rss json_all=("${all[@]}")
tverdict=$(awk -v t="$json_best" 'BEGIN { print (t <= 5 ? "meets the goal" : "MISSES the goal") }')
mverdict=$(awk -v k="$json_rss" 'BEGIN { print (k <= 1048576 ? "meets the goal" : "MISSES the goal") }')

cat <<EOF

summaries  $gen_msg
           generated in $gen_secs s
purist     $rev (Release)
machine    $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)

purist link --format=json -o /dev/null (best of $runs)
  wall time        $json_best s   (runs: ${json_all[*]})   goal <= 5 s: $tverdict
  peak RSS         $(mib "$json_rss")   goal <= 1 GiB: $mverdict   [$rss_method]
EOF

if [ "$breakdown" -eq 1 ]; then
  measure --format=text -o /dev/null
  text_best=$best text_rss=$rss
  # --why prints one function's chain: the whole link and solve, no listing.
  measure --why mod0_fn3 -o /dev/null
  why_best=$best why_rss=$rss
  cat <<EOF

breakdown (best of $runs)
  link + solve, no listing (--why)   $why_best s   $(mib "$why_rss")
  ... + text listing                 $text_best s   $(mib "$text_rss")
  ... + JSON listing                 $json_best s   $(mib "$json_rss")
EOF
fi
[ "$keep" -eq 1 ] && echo "kept: $work"
exit 0
