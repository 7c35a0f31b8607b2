#!/usr/bin/env bash
# Several threads calling an honest watched pure function: no report at all
# (the page snapshots are per thread; nothing is misattributed).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild threads "$VDIR/threads"
cd "$T/threads"

check "the threaded program prints the same with and without the runtime"
./plain >plain.out
./prog >prog.out
same plain.out prog.out "outputs of the plain and the instrumented program"

check "verify finds nothing, at every call and when sampling"
for sample in 1 7; do
  PURIST_SAMPLE=$sample run verify -p . --format=json -o v.json -- ./prog
  expect_rc 0
  json_flat v.json >flat
  grep -q $'^diagnostics\t\\[\\]' flat || fail "no diagnostics expected at PURIST_SAMPLE=$sample${NL}$(show v.json)"
  expect_stderr_has "1 process reported; 1 of 1 watched functions were called"
done
