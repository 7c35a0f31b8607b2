#!/usr/bin/env bash
# Issue 23 item 15: verify of a program under a 100 µs SIGALRM interval
# timer (tests/robust/alarm) finishes. Its handler calls a watched
# function: the handler's records waited for a lock the code it
# interrupted held (the report at exit, a finding being recorded), and in
# a guarded const call its every access faulted, so it outlasted the
# interval and the program never went on (60 s and more; plain, 1 s).
# Asynchronous signals now wait while a checked call runs, which also
# keeps the handler's writes from being blamed on the function it
# interrupted ('square' wrote static 'alarms').
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/../verify/vlib.sh"

vbuild alarm "$(dirname "$0")/alarm"
cd "$T/alarm"
./plain >plain.out || fail "the plain program failed$NL$(show plain.out)"
grep -q 'done 1' plain.out || fail "the plain program took no alarm$NL$(show plain.out)"

check "verify finishes, reports the real violation and no write of the handler's"
set +e
timeout 120 "$PURIST" verify -p . -- ./prog >"$T/out" 2>"$T/err"
RC=$?
set -e
LAST="purist verify -p . -- ./prog (100 µs SIGALRM)"
[ "$RC" -ne 124 ] || fail "verify still running after 120 s$NL$(context)"
expect_rc 1
expect_stdout_has "'counted' is declared pure but wrote global 'calls_made' \(api\.c:5:3\) on every checked call"
expect_stdout_lacks "alarms"
expect_stdout_lacks "'square'"
echo "PASS"
