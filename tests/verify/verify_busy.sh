#!/usr/bin/env bash
# While another thread keeps writing a global, an honest pure function is
# not blamed for that thread's writes; a lying one called while no other
# thread runs still is. Found running redis-server under purist verify:
# its I/O threads' writes were reported against connGetState, sdsavail, …
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild busy "$VDIR/busy"
cd "$T/busy"
./plain >plain.out
grep -q "spans: done" plain.out && grep -qE "^[0-9]+ 5$" plain.out || fail "the fixture itself is broken${NL}$(show plain.out)"

check "another thread's writes are not the watched function's"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
expect_verified "tally verify-global-write"
