#!/usr/bin/env bash
# Issue 12 item 7: verify loses no findings. A watched program that execs,
# calls _exit, or whose own SIGSEGV handler calls _exit still reports its
# violation (_exit and exec* are interposed: the report is written first);
# one killed by SIGKILL is named as "ended without a report (killed?)",
# never "not linked"; after a fork the per-process reports merge into the
# counts of the whole run ("every checked call (5)", not "on its only
# checked call"). The fixture is tests/robust/lost (never sanitized).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/../verify/vlib.sh"

vbuild lost "$(dirname "$0")/lost"
cd "$T/lost"
violation="error: 'counted' is declared pure but wrote global 'calls_made' \(api.c:5:3\) on every checked call \(2\)"

check "return from main: the violation (the baseline)"
run verify -p . -- ./prog exit
expect_rc 1
expect_stdout_has "$violation"

for how in _exit exec handler; do
  check "$how: the violation is reported, not 'not linked'"
  run verify -p . -- ./prog $how
  [ "$RC" -ne 0 ] || fail "exit 0 with the violation lost$NL$(context)"
  expect_stdout_has "$violation"
  grep -q 'no process loaded libpurist-rt' "$T/err" && fail "says 'not linked'$NL$(context)"
done

check "SIGKILL: 'ended without a report (killed?)', never 'not linked'"
run verify -p . -- ./prog kill
[ "$RC" -eq 137 ] || fail "exit status 137 (SIGKILL) expected$NL$(context)"
expect_stderr_has "process [0-9]+ \(.*/prog\) ended without a report \(killed\?\)"
grep -q 'no process loaded libpurist-rt' "$T/err" && fail "says 'not linked'$NL$(context)"

check "quick_exit: the violation is reported (issue 23 item 8)"
run verify -p . -- ./prog quick_exit
expect_rc 1
expect_stdout_has "$violation"

check "exit_group, RLIMIT_NOFILE 3: a process without a report is exit 2, never 0"
for how in exit_group nofile; do
  run verify -p . -- ./prog $how
  expect_rc 2
  expect_stderr_has "process [0-9]+ \(.*/prog\) ended without a report"
  expect_stderr_has "1 process wrote no report"
done

check "a soft RLIMIT_NOFILE of 3: the runtime raises it for its report"
run verify -p . -- ./prog nofile-soft
expect_rc 1
expect_stdout_has "$violation"

check "a watched call left by longjmp: closed at the jump, the calls after it are checked (issue 23)"
run verify -p . -- ./prog longjmp
expect_rc 1
expect_stdout_has "wrote global 'calls_made' \(api.c:5:3\) on every checked call \(4\)"
grep -q 'never returned' "$T/err" && fail "the frame left by longjmp is still open at exit$NL$(context)"
check "a longjmp within the watched function's own frame does not close it"
run verify -p . -- ./prog longjmp-inside
expect_rc 1
expect_stdout_has "'jumps_inside' is declared pure but wrote global 'calls_made'"

check "fork: the two processes' reports merge into the counts of the run"
run verify -p . -- ./prog fork
expect_rc 1
expect_stdout_has "wrote global 'calls_made' \(api.c:5:3\) on every checked call \(5\)"
expect_stderr_has "2 processes reported"

check "an exec that fails: the process goes on, its calls counted once"
run verify -p . -- ./prog exec-missing
expect_rc 1
expect_stdout_has "on every checked call \(2\)"
expect_stderr_has "1 process reported"
echo "PASS"
