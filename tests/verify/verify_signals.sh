#!/usr/bin/env bash
# The runtime keeps its SIGSEGV/SIGTRAP handlers once a const call was
# checked; a program that sets its own afterwards still reads them back,
# gets its own faults and traps, and the read check still sees a const
# function reading a global. A fault left at the default action kills.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild sig "$VDIR/signals"
cd "$T/sig"
./plain >plain.out
grep -q "own handler read back: 1" plain.out || fail "the fixture itself is broken${NL}$(show plain.out)"
grep -q "faults 3 traps 1" plain.out || fail "the fixture itself is broken${NL}$(show plain.out)"

check "the program's handlers get its signals; the read check still works after them"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
expect_verified "weighted verify-global-read"

check "the same at PURIST_SAMPLE=100 (only the first calls checked)"
PURIST_SAMPLE=100 run verify -p . --format=json -o v.json -- ./prog
expect_verified "weighted verify-global-read"

check "a fault at SIGSEGV's default action ends the program as without the runtime"
set +e; ./plain crash >/dev/null; prc=$?; set -e
[ "$prc" -eq 139 ] || fail "the plain build should die of SIGSEGV (139), got $prc"
run verify -p . --format=json -o v.json -- ./prog crash
[ "$RC" -eq 139 ] || fail "exit status 139 (SIGSEGV) expected${NL}$(context)"
