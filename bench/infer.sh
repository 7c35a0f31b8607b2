#!/usr/bin/env bash
# bench/infer.sh — how long `purist infer` takes next to the compiler's own
# front end on the same translation units.
#
#   bench/infer.sh                      generated project (bench/gen_project.c)
#   bench/infer.sh --project DIR        any project with DIR/compile_commands.json
#
# Options: --tus N --funcs N --seed S   size of the generated project (250, 200, 1)
#          --runs N                     repetitions, best taken (3)
#          --keep                       keep the generated project and the logs
#
# Measures, in one run, each repeated and the best kept:
#   (a) clang-19 -fsyntax-only over every TU, one after the other, each in its
#       entry's directory with its own arguments (less -o, -c and -M*);
#   (b) purist infer -j1 --no-cache --format=json -p DIR -o /dev/null;
# the ratio (b)/(a) (goal <= 1.15), purist's peak RSS, and the same two with
# every core busy: purist -j$(nproc), clang in $(nproc) parallel shards.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project= ntu=250 nfunc=200 seed=1 runs=3 keep=0
. "$root/bench/lib.sh"
bench_args "$0" 2,17 "$@"

say() { echo "infer.sh: $*" >&2; }

# Tools: clang-19 and jq are needed; GNU time measures peak RSS (installed if
# missing and we are root, else /proc/PID/status VmHWM is sampled).
apt_install() {
  [ "$(id -u)" -eq 0 ] || return 1
  say "installing $*"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v clang-19 >/dev/null || apt_install clang-19 || { say "clang-19 is needed"; exit 2; }
command -v jq >/dev/null || apt_install jq || { say "jq is needed"; exit 2; }
bench_setup_time
bench_build bench_gen_project
bench_workdir

bench_project
cdb=$project/compile_commands.json
[ -r "$cdb" ] || { say "$cdb: not found"; exit 2; }

# The clang commands, prepared once so the timed loop only runs them.
cmds=$work/clang.sh
bench_tu_commands "$project" "$cmds" "clang-19 -fsyntax-only" '2>>"$BENCH_LOG" || fails=$((fails + 1))'
printf 'echo "$fails" > "$BENCH_FAILS"\n' >> "$cmds"
sed -i '1i fails=0' "$cmds"

ncpu=$(nproc)
# The same commands in $ncpu shards, round robin, for the parallel comparison.
for ((s = 0; s < ncpu; s++)); do
  { echo 'fails=0'; awk -v n="$ncpu" -v s="$s" 'NR > 1 && /^cd / && (NR - 2) % n == s' "$cmds";
    echo 'echo "$fails" > "$BENCH_FAILS"'; } > "$work/shard$s.sh"
done

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# Runs the clang commands; prints the wall time. $1: 1 for sequential, else sharded.
run_clang() {
  local t0 t1
  : > "$work/clang.log"
  t0=$(now)
  if [ "$1" -eq 1 ]; then
    BENCH_LOG=$work/clang.log BENCH_FAILS=$work/fails bash "$cmds"
  else
    for ((s = 0; s < ncpu; s++)); do
      BENCH_LOG=$work/clang.log BENCH_FAILS=$work/fails.$s bash "$work/shard$s.sh" &
    done
    wait
  fi
  t1=$(now)
  secs "$t0" "$t1"
}

# Runs purist infer -j$1; prints "wall_seconds peak_rss_kib".
run_purist() {
  local t0 t1 rc=0 rss
  t0=$(now)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$work/rss" "$purist" infer -j"$1" --no-cache --format=json -p "$project" -o /dev/null \
      2>"$work/purist.log" || rc=$?
    rss=$(tail -n 1 "$work/rss")
  else
    "$purist" infer -j"$1" --no-cache --format=json -p "$project" -o /dev/null 2>"$work/purist.log" &
    local pid=$! hwm=0 v
    while kill -0 "$pid" 2>/dev/null; do
      v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
      [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
      sleep 0.01
    done
    wait "$pid" || rc=$?
    rss=$hwm
  fi
  t1=$(now)
  # 0: no findings, 1: findings of error severity; both are a full run.
  if [ "$rc" -gt 1 ]; then
    cp "$work/purist.log" "${TMPDIR:-/tmp}/purist-bench-infer.log"
    say "purist infer -j$1 exited with $rc; its messages: ${TMPDIR:-/tmp}/purist-bench-infer.log"
  fi
  echo "$(secs "$t0" "$t1") $rss"
}

best() { tr ' ' '\n' | grep . | sort -g | head -n 1; }

say "$ntus TUs; $runs runs of each, interleaved"
clang_times=() purist_times=() purist_rss=0
for ((r = 1; r <= runs; r++)); do
  clang_times+=("$(run_clang 1)")
  read -r t m < <(run_purist 1)
  purist_times+=("$t")
  [ "$m" -gt "$purist_rss" ] && purist_rss=$m
  say "run $r: clang ${clang_times[-1]} s, purist -j1 $t s"
done
clang_fails=$(cat "$work/fails")
clang_par=() purist_par=() purist_par_rss=0
for ((r = 1; r <= runs; r++)); do
  clang_par+=("$(run_clang "$ncpu")")
  read -r t m < <(run_purist "$ncpu")
  purist_par+=("$t")
  [ "$m" -gt "$purist_par_rss" ] && purist_par_rss=$m
  say "run $r: clang x$ncpu ${clang_par[-1]} s, purist -j$ncpu $t s"
done

cb=$(echo "${clang_times[*]}" | best)
pb=$(echo "${purist_times[*]}" | best)
cpb=$(echo "${clang_par[*]}" | best)
ppb=$(echo "${purist_par[*]}" | best)
ratio=$(awk -v p="$pb" -v c="$cb" 'BEGIN { printf "%.3f", p / c }')
pratio=$(awk -v p="$ppb" -v c="$cpb" 'BEGIN { printf "%.3f", p / c }')
verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.15 ? "meets the goal" : "MISSES the goal") }')
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

cat <<EOF

project    $desc
           $ntus TUs, compile database $cdb
purist     $rev (Release)
machine    $ncpu cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo); $(clang-19 --version | head -n 1)

sequential (best of $runs)
  clang-19 -fsyntax-only, one TU after another   $cb s   (runs: ${clang_times[*]})
  purist infer -j1 --format=json                 $pb s   (runs: ${purist_times[*]})
  ratio purist / clang                           $ratio   (goal <= 1.15: $verdict)
  purist peak RSS                                $(mib "$purist_rss")   [$rss_method]

all $ncpu cores (best of $runs)
  clang-19 -fsyntax-only, $ncpu shards in parallel   $cpb s   (runs: ${clang_par[*]})
  purist infer -j$ncpu --format=json                 $ppb s   (runs: ${purist_par[*]})
  ratio purist / clang                           $pratio
  purist peak RSS                                $(mib "$purist_par_rss")
EOF
if [ "$clang_fails" -gt 0 ]; then
  echo "note: $clang_fails clang-19 commands failed (first lines of their errors below)"
  head -n 5 "$work/clang.log"
fi
[ "$keep" -eq 1 ] && echo "kept: $work"
exit 0
