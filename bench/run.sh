#!/usr/bin/env bash
# bench/run.sh — the benchmarks of issue 5, as ratios measured in one run.
#
#   bench/run.sh                        generated project (bench/gen_project.c)
#   bench/run.sh --project DIR          any project with DIR/compile_commands.json
#
# Options: --tus N --funcs N --seed S   size of the generated project (250, 200, 1)
#          --runs N                     repetitions of each timing, best kept (3)
#          --no-scale                   skip the peak-RSS growth (2x, 4x projects)
#          --keep                       keep the scratch directory
#
# Every purist run is `purist infer --format=json -o /dev/null`; the cache is
# a scratch directory (--cache-dir), never the project's own.
#   1. cold infer -j1 --no-cache   vs  clang-19 -fsyntax-only over the same TUs   (goal <= 1.15)
#   2. cold infer -j1 (writes the cache)  vs  gcc -O2 -flto -Wsuggest-attribute=pure
#      -Wsuggest-attribute=const building the project: every TU compiled one
#      after another, then the LTO link (-flto=1, -shared)                         (goal <= 0.3)
#   3. infer -j2 --no-cache  vs  -j1 --no-cache: the speed-up                      (goal >= 1.8)
#      and threads vs processes: the same two-way split as two processes
#      (purist summarize -j1 on each half of the database, at once) + purist link
#   4. warm infer -j1 (nothing changed)  vs  cold infer -j1                        (goal <= 0.05)
#   5. infer after one .c file changed, -j1 and -j$(nproc) (the default, which
#      links cached summaries while the changed TU is parsed)  vs  that TU's
#      parse (summarize of its entry alone, --no-cache) + the link of all
#      summaries (purist link)                                                      (goal <= 1)
#   6. peak RSS of infer -j$(nproc) --no-cache on the generated project at 1x, 2x
#      and 4x the TUs (same functions per TU), and per function.
# Step 5 appends a comment to one source file of the project and restores
# it (contents and time) afterwards, also when interrupted.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project= ntu=250 nfunc=200 seed=1 runs=3 keep=0 scale=1
. "$root/bench/lib.sh"
bench_args "$0" 2,25 "$@"

say() { echo "run.sh: $*" >&2; }
for tool in clang-19 gcc jq; do
  command -v "$tool" >/dev/null || { say "$tool is needed (scripts/deps.sh installs it)"; exit 2; }
done
bench_setup_time
bench_build bench_gen_project
bench_workdir
gen() { "$build/bench/bench_gen_project" "$1" "$2" "$nfunc" "$seed"; }

[ -n "$project" ] && scale=0   # the growth needs the generator
bench_project
cdb=$project/compile_commands.json
[ -r "$cdb" ] || { say "$cdb: not found"; exit 2; }

now() { date +%s.%N; }
best() { tr ' ' '\n' | grep . | sort -g | head -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
verdict() { awk -v r="$1" -v g="$2" -v op="$3" 'BEGIN { ok = op == "le" ? r <= g : r >= g; print ok ? "meets the goal" : "MISSES the goal" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

# timed LOG CMD...: runs CMD, prints "seconds peak_rss_kib"; CMD's stderr
# goes to LOG. Exit status 0 or 1 (findings) is a complete run.
timed() {
  local log=$1 t0 t1 rc=0 rss=0
  shift
  t0=$(now)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$work/rss" "$@" 2>"$log" || rc=$?
    rss=$(tail -n 1 "$work/rss")
  else
    "$@" 2>"$log" || rc=$?
  fi
  t1=$(now)
  if [ "$rc" -gt 1 ]; then say "$* exited with $rc; see $log"; keep=1; fi
  awk -v a="$t0" -v b="$t1" -v m="$rss" 'BEGIN { printf "%.3f %d\n", b - a, m }'
}

# best_of NAME CMD...: the best time of --runs runs; sets NAME (seconds)
# and NAME_rss (largest peak RSS).
best_of() {
  local name=$1 times=() t m rss=0
  shift
  for ((r = 0; r < runs; r++)); do
    read -r t m < <("$@")
    times+=("$t")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  printf -v "$name" '%s' "$(echo "${times[*]}" | best)"
  printf -v "${name}_rss" '%s' "$rss"
  say "$name: ${times[*]} s"
}

infer() {   # infer LOG ARGS...: purist infer on the project, JSON to /dev/null
  local log=$1
  shift
  timed "$log" "$purist" infer --format=json -o /dev/null -p "$project" "$@"
}

# The compiler commands, prepared before any clock starts.
bench_tu_commands "$project" "$work/clang.sh" "clang-19 -fsyntax-only" '2>>"$BENCH_LOG" || true'
mkdir -p "$work/obj"
gflags='-O2 -flto -fPIC -Wsuggest-attribute=pure -Wsuggest-attribute=const'
bench_tu_commands "$project" "$work/gcc.sh" "gcc" "$gflags -c -o $work/obj/@N@.o 2>>\"\$BENCH_LOG\" || true"
echo "gcc ${gflags/-flto/-flto=1} -shared -o $work/lib.so $work/obj/*.o 2>>\"\$BENCH_LOG\" || true" >>"$work/gcc.sh"
say "$ntus TUs"

run_script() { BENCH_LOG=$2 timed /dev/null bash "$1"; }

# 1. the front end against clang's
best_of clang run_script "$work/clang.sh" "$work/clang.log"
best_of nocache1 infer "$work/p1.log" -j1 --no-cache
# 2. against a GCC LTO build (also cold purist with the cache being written)
best_of gccb run_script "$work/gcc.sh" "$work/gcc.log"
gcc_sugg=$(grep -c 'Wsuggest-attribute=' "$work/gcc.log" || true)
gcc_fail=$(grep -c ': error:' "$work/gcc.log" || true)
cold() { rm -rf "$work/cache"; infer "$work/cold.log" -j1 --cache-dir "$work/cache"; }
best_of cold1 cold
# 3. two threads
best_of nocache2 infer "$work/p2.log" -j2 --no-cache
# 3b. processes instead of threads: each half of the database summarised
# by its own process, both at once, then linked
half=$(( ($(jq length "$cdb") + 1) / 2 ))
for h in 0 1; do
  mkdir -p "$work/half$h"
  range=$([ "$h" -eq 0 ] && echo ":$half" || echo "$half:")
  jq --arg p "$project" "map(.directory |= (if startswith(\"/\") then . else \$p + \"/\" + . end)) | .[$range]" \
    "$cdb" >"$work/half$h/compile_commands.json"
done
cat >"$work/procs.sh" <<EOS
"$purist" summarize -j1 --no-cache -p "$work/half0" -o "$work/half0.purist" &
"$purist" summarize -j1 --no-cache -p "$work/half1" -o "$work/half1.purist" &
wait
"$purist" link "$work/half0.purist" "$work/half1.purist" --format=json -o /dev/null
EOS
best_of procs2 timed "$work/procs.log" bash "$work/procs.sh"
# 4. warm: nothing changed
best_of warm1 infer "$work/warm.log" -j1 --cache-dir "$work/cache" --stats
warm_stats=$(grep '^purist: cache:' "$work/warm.log" || true)

# 5. one .c file changed: the first entry's file, restored afterwards
edit_file=$(jq -r '.[0] | if (.file | startswith("/")) then .file else .directory + "/" + .file end' "$cdb")
cp -p "$edit_file" "$work/edit.orig"
restore() { cp -p "$work/edit.orig" "$edit_file"; }
trap 'restore; [ "$keep" -eq 1 ] || rm -rf "$work"' EXIT
ncpu=$(nproc)
edited() { restore; echo "/* bench edit $RANDOM */" >>"$edit_file"; infer "$work/edit.log" "$1" --cache-dir "$work/cache" --stats; }
best_of edit1 edited -j1
best_of editn edited -j"$ncpu"
edit_stats=$(grep '^purist: cache:' "$work/edit.log" || true)
mkdir -p "$work/one"
jq '[.[0]]' "$cdb" >"$work/one/compile_commands.json"
best_of parse_one timed "$work/one.log" "$purist" summarize -j1 --no-cache -p "$work/one" -o "$work/one.purist"
"$purist" summarize -j2 -p "$project" --cache-dir "$work/cache" -o "$work/all.purist" 2>/dev/null || true
best_of link_all timed "$work/link.log" "$purist" link "$work/all.purist" --format=json -o /dev/null
restore
nfuncs=$("$purist" infer --format=json -p "$project" --cache-dir "$work/cache" 2>/dev/null | jq '.functions | length')

# 6. peak RSS as the project grows
rss_rows=()
if [ "$scale" -eq 1 ]; then
  for mult in 1 2 4; do
    p=$work/scale$mult
    [ "$mult" -eq 1 ] && p=$project || { say "generating $((ntu * mult)) TUs"; gen "$p" $((ntu * mult)) >/dev/null; }
    read -r t m < <(timed "$work/scale.log" "$purist" infer --format=json -o "$work/scale.json" -p "$p" -j"$ncpu" --no-cache)
    nf=$(jq '.functions | length' "$work/scale.json")
    rss_rows+=("$mult $((ntu * mult)) $nf $m $t")
    say "scale ${mult}x: $nf functions, $(mib "$m"), $t s"
  done
fi

r1=$(ratio "$nocache1" "$clang")
r2=$(ratio "$cold1" "$gccb")
r3=$(ratio "$nocache1" "$nocache2")
r4=$(ratio "$warm1" "$cold1")
budget=$(awk -v a="$parse_one" -v b="$link_all" 'BEGIN { printf "%.3f", a + b }')
r5=$(ratio "$edit1" "$budget")
r5n=$(ratio "$editn" "$budget")
cat <<EOF

project    $desc
           $ntus TUs, $nfuncs functions; compile database $cdb
purist     $rev (Release)
machine    $ncpu cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo); $(clang-19 --version | head -n 1); $(gcc --version | head -n 1)
load       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the end; best of $runs run(s) each

                                                           seconds   ratio    goal
1. purist infer -j1 --no-cache                             $nocache1
   clang-19 -fsyntax-only, one TU after another            $clang   $r1   <= 1.15: $(verdict "$r1" 1.15 le)
2. purist infer -j1, cold cache (written)                  $cold1
   gcc $gflags, TUs one after another + LTO link (-flto=1 -shared)
                                                           $gccb   $r2   <= 0.3: $(verdict "$r2" 0.3 le)
   (gcc printed $gcc_sugg attribute suggestions, $gcc_fail errors)
3. purist infer -j2 --no-cache                             $nocache2   speed-up $r3   >= 1.8: $(verdict "$r3" 1.8 ge)
   two processes (summarize -j1 on each half) + link        $procs2   threads/processes $(ratio "$nocache2" "$procs2")
4. purist infer -j1, warm cache, nothing changed           $warm1   $r4   <= 0.05: $(verdict "$r4" 0.05 le)
   ($warm_stats)
5. purist infer -j1 after editing $(basename "$edit_file")           $edit1   $r5
   the same, -j$ncpu (the default: the parse overlaps the link) $editn   $r5n   <= 1: $(verdict "$r5n" 1 le)
   that TU's parse ($parse_one s) + link of all summaries ($link_all s)
                                                           $budget
   ($edit_stats)
   peak RSS of the cold -j1 run: $(mib "$cold1_rss"); [$rss_method]
EOF
if [ ${#rss_rows[@]} -gt 0 ]; then
  echo
  echo "6. peak RSS of purist infer -j$ncpu --no-cache as the project grows"
  echo "   size  TUs    functions  peak RSS     KiB/function  seconds"
  for row in "${rss_rows[@]}"; do
    read -r mult n nf m t <<<"$row"
    printf '   %dx    %-6d %-10d %-12s %-13s %s\n' "$mult" "$n" "$nf" "$(mib "$m")" \
      "$(awk -v m="$m" -v f="$nf" 'BEGIN { printf "%.2f", m / f }')" "$t"
  done
  read -r _ _ f1 m1 _ <<<"${rss_rows[0]}"
  read -r _ _ f4 m4 _ <<<"${rss_rows[2]}"
  echo "   growth 1x -> 4x: $(awk -v a="$m1" -v b="$m4" -v f="$f1" -v g="$f4" \
    'BEGIN { printf "RSS x%.2f for functions x%.2f; %.2f KiB per added function", b / a, g / f, (b - a) / (g - f) }')"
fi
[ "$keep" -eq 1 ] && echo "kept: $work"
exit 0
