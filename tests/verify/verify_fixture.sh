#!/usr/bin/env bash
# The issue's fixture: two honest functions and five that lie, one way each
# (now_tick two ways: it reads the clock, a vDSO call, and so returns
# something else each time). `purist verify` reports exactly those, each with its kind; the
# program's output and exit status are those of the plain build.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild prog "$VDIR/prog"
cd "$T/prog"

check "the instrumented program, run alone, behaves as the plain build"
./plain >plain.out; ./prog >prog.out 2>prog.err
same plain.out prog.out "outputs of the plain and the instrumented program"
[ ! -s prog.err ] || fail "the instrumented program wrote to stderr:${NL}$(show prog.err)"
set +e; ./prog 7 >/dev/null; rc=$?; set -e
[ "$rc" -eq 7 ] || fail "exit status 7 expected from ./prog 7, got $rc"

check "verify reports exactly the five dishonest functions, each with its kind"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
same plain.out "$T/out" "the command's stdout under verify"
diags v.json >got
printf '%s\n' "counted_len verify-global-write" "fill_first verify-heap-write" \
  "level_name verify-cheat" "now_tick verify-nondeterministic" "now_tick verify-syscall" \
  "scaled verify-global-read" >want
same want got "the functions and checks reported"
json_flat v.json >flat
grep -q $'^diagnostics.0.file\t"api.h"' flat || fail "diagnostics should be at the declarations in api.h${NL}$(show flat)"
grep -Eq $'severity\t"note"' flat || fail "the memoisation should be a note${NL}$(show flat)"

check "text: the memoisation names its statics and where they are written"
run verify -p . -- ./prog
expect_rc 1
expect_stdout_has "api.h:11:13: note: 'level_name' is declared const but wrote static 'names' \(api.c:[0-9]+:[0-9]+\) and static 'ready' .* on its first call only .* memoisation \[purist-verify-cheat\]"
expect_stdout_has "error: 'counted_len' is declared pure but wrote global 'calls_made' \(api.c:20:3\) on every checked call"
expect_stdout_has "^5 errors, 1 note generated"
expect_stdout_has "error: 'now_tick' is declared const but made the system call clock_gettime through the vDSO \\(4 of 4 checked calls, called at api.c:47\\) \\[purist-verify-syscall\\]"

check "the command's own output and exit status are kept"
run verify -p . --fail-on=never -- ./prog 5
expect_rc 5
run verify -p . --format=json -o v.json --fail-on=never -- ./prog
expect_rc 0

check "a program killed by a signal still reports; the status says which signal"
run verify -p . --format=json -o v.json -- ./prog die
[ "$RC" -eq 143 ] || fail "exit status 143 (SIGTERM) expected${NL}$(context)"
[ "$(diags v.json | wc -l)" -eq 6 ] || fail "six findings expected after a death by SIGTERM${NL}$(context)"

check "SARIF output"
run verify -p . --format=sarif -o v.sarif -- ./prog
expect_rc 1
grep -Eq '"ruleId": *"(purist-)?verify-heap-write"' v.sarif || fail "no verify-heap-write rule in the SARIF log${NL}$(show v.sarif)"

check "PURIST_SAMPLE=100 still checks the first two calls: memoisation is told from a violation"
PURIST_SAMPLE=100 run verify -p . --format=json -o v.json -- ./prog
diags v.json | grep -q "level_name verify-cheat" || fail "memoisation not seen at PURIST_SAMPLE=100${NL}$(context)"

check "PURIST_ABORT=1 stops the program at the first violation"
PURIST_ABORT=1 run verify -p . --format=json -o v.json -- ./prog
[ "$RC" -eq 134 ] || fail "exit status 134 (SIGABRT) expected${NL}$(context)"
[ "$(diags v.json | wc -l)" -eq 1 ] || fail "one finding expected with PURIST_ABORT=1${NL}$(show v.json)"
