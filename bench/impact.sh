#!/usr/bin/env bash
# bench/impact.sh — what `purist impact` costs against one build of the TUs
# it compiles (issue 29 item 5: target ≤ 2×).
#
#   bench/impact.sh -p BUILD [--root ROOT] [--purist PATH] [-j N] [--runs N] [--all]
#
# BUILD holds the project's compile_commands.json; ROOT is the project's
# source tree (default: the current directory). The summary cache is warmed
# first (one `purist suggest`), as a user who ran suggest before impact has
# it. Then, --runs times (default 2), interleaved: `purist impact -j N`
# (--all: the --all plan), and one build of exactly the TUs it compiled
# (its JSON's `compared`) with the database's own commands, -j N, objects
# to /dev/null. Prints wall and CPU (user+sys, children included) of both
# and their ratios. Needs jq and GNU time (scripts/deps.sh --test).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$here/bench/lib.sh"     # bench_db_option, bench_db_check

root=$(pwd) build= purist= jobs=$(nproc 2>/dev/null || echo 1) runs=2 all=
while [ $# -gt 0 ]; do
  case $1 in
    -p|--root|--purist|-j*) bench_db_option "$@"; shift "$bench_used" ;;
    --runs) runs=$2; shift 2 ;;
    --all) all=--all; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/impact.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { echo "impact.sh: $*" >&2; }
for t in jq /usr/bin/time; do command -v $t >/dev/null || { say "needs $t"; exit 2; }; done
bench_db_check "$here"
keep=0
bench_workdir

# timed OUT CMD...: runs CMD, appends "wall cpu" (seconds) to OUT.
timed() {
  local out=$1
  shift
  /usr/bin/time -o "$work/t" -f '%e %U %S' "$@"
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/t" >> "$out"
}

# build_script: one line per TU impact compared (the database's first
# entry for it), objects to /dev/null.
build_script() {
  bench_tu_commands "$build" "$work/all.cmds" '"$CC_OF_ENTRY"' '-c -o /dev/null'
  jq -r '.[] | .file as $f | (if ($f | startswith("/")) then $f else "\(.directory)/\($f)" end)' \
    "$build/compile_commands.json" > "$work/files"
  jq -r '.compared[]' "$work/impact.json" | sed "s|^|$root/|" | sort -u > "$work/compared"
  paste -d '\t' "$work/files" <(jq -r '.[] | if .arguments then .arguments[0] else (.command | split(" ")[0]) end' \
    "$build/compile_commands.json") "$work/all.cmds" |
    awk -F '\t' 'NR == FNR { want[$0] = 1; next } ($1 in want) && !seen[$1]++ {
                   sub(/"\$CC_OF_ENTRY"/, $2, $3); print $3 }' "$work/compared" - > "$work/build.cmds"
  [ -s "$work/build.cmds" ] || { say "impact compiled no TU: nothing to compare"; exit 2; }
}

say "warming the summary cache"
"$purist" suggest -p "$build" --root "$root" -j "$jobs" --quiet >/dev/null 2>&1 || true
: > "$work/impact.times"
: > "$work/build.times"
for r in $(seq 1 "$runs"); do
  timed "$work/impact.times" "$purist" impact -p "$build" --root "$root" -j "$jobs" $all --quiet --format=json \
    -o "$work/impact.json"
  [ "$r" -gt 1 ] || build_script
  timed "$work/build.times" xargs -d '\n' -P "$jobs" -I{} bash -c '{}' < "$work/build.cmds"
done
n=$(wc -l < "$work/build.cmds")
echo "impact of $(jq -r .files_compared "$work/impact.json") TUs ($(jq -r .files_unchanged "$work/impact.json") not compiled), -j $jobs, $runs runs:"
paste "$work/impact.times" "$work/build.times" | awk -v n="$n" '
  { printf "  run %d: impact %.2f s wall, %.2f s CPU; build of the %d TUs %.2f s wall, %.2f s CPU: %.2fx wall, %.2fx CPU\n",
           NR, $1, $2, n, $3, $4, $1 / $3, $2 / $4 }'
