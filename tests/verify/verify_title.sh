#!/usr/bin/env bash
# A program that overwrites its environment block to set its process title
# (as redis-server does) still gets its report written at exit: the runtime
# keeps its own copy of PURIST_REPORT. Found running redis-server under
# purist verify: the server's report was silently missing.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild title "$VDIR/title"
cd "$T/title"
./plain >plain.out
grep -q "sum 21, 5 calls" plain.out || fail "the fixture itself is broken${NL}$(show plain.out)"

check "the report of a program that retitled itself is read"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
expect_verified "tally verify-global-write"
