#!/usr/bin/env bash
# C23's [[unsequenced]] / [[reproducible]] under `purist verify` (issue 15):
# checked as const / pure, with the standard's allowances — a store through
# a pointer argument is a note (verify-allowed-c23), a memo a note in a
# reproducible function (verify-cheat) but an error in an unsequenced one
# (not stateless); a global read in an unsequenced function is an error,
# in a reproducible one nothing.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild c23 "$VDIR/c23"
cd "$T/c23"
./plain >plain.out

check "verify reports the C23 promises by the standard's rules"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
same plain.out "$T/out" "the command's stdout under verify"
diags v.json >got
printf '%s\n' "counted verify-global-write" "memo_r verify-cheat" "memo_u verify-global-write" \
  "reads_level verify-global-read" "split verify-allowed-c23" >want
same want got "the functions and checks reported"

check "the messages speak C23"
run verify -p . -- ./prog
expect_rc 1
expect_stdout_has "error: 'memo_u' is declared \[\[unsequenced\]\] but wrote static 'cache_u'.*stateless"
expect_stdout_has "note: 'memo_r' is declared \[\[reproducible\]\] but wrote static 'cache_r'.*C23 allows this"
expect_stdout_has "note: 'split' is declared \[\[unsequenced\]\] but wrote into the heap block its argument 2 points to.*allowed"
expect_stdout_has "^api.h:13:5: error: .memo_u. is declared"
echo ok
