#!/usr/bin/env bash
# bench/html.sh — how `purist report --html` and its page cope with a large
# project: 50,000 functions by default (bench/gen_project.c, 250 TUs x 200).
#
#   bench/html.sh [--project DIR] [--tus N] [--funcs N] [--seed S] [--keep]
#
# Prints: the time to write the report and its size; then, in headless
# chromium (playwright-core, as the tests use it), the time from navigation
# to a rendered page, to narrow the table with the filter box, to sort it by
# callers, and to open a function's panel. Each page figure is the best of 3.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project= ntu=250 nfunc=200 seed=1 runs=3 keep=0
. "$root/bench/lib.sh"
bench_args "$0" 2,11 "$@"

say() { echo "html.sh: $*" >&2; }
bench_build bench_gen_project
bench_workdir
say "installing playwright-core (npm ci)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 sh "$root/tests/diag/npm_setup.sh" "$root/tests/html" "$build/html-node" >&2

bench_project
say "$desc"
start=$(date +%s.%N)
"$build/purist" report --html --fail-on=never --quiet -p "$project" -o "$work/report.html"
end=$(date +%s.%N)
echo "commit: $rev"
echo "project: $ntu TUs x $nfunc functions"
printf 'purist report --html: %.1f s (analysis included), %s bytes\n' "$(echo "$end - $start" | bc)" "$(stat -c %s "$work/report.html")"
node "$root/bench/html_measure.mjs" "$build/html-node" "$work/report.html"
