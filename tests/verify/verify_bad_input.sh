#!/usr/bin/env bash
# Bad input: a watched function in no program, the runtime without
# purist verify, an unwritable report directory, a bad command line.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild prog "$VDIR/prog" "$VDIR/extra/unlinked.c"
cd "$T/prog"
./plain >plain.out

check "a watched function that is in no program: one note, the rest as usual"
run verify -p . --format=json -o v.json -- ./prog
expect_rc 1
diags v.json >got
[ "$(grep -c verify-missing got)" -eq 1 ] || fail "one verify-missing note expected${NL}$(show got)"
grep -q "^never_linked verify-missing" got || fail "the note should be about never_linked${NL}$(show got)"
[ "$(wc -l <got)" -eq 7 ] || fail "the six findings and the note expected${NL}$(show got)"

check "the runtime flags without purist verify: the program runs normally"
env -u PURIST_WATCH -u PURIST_REPORT ./prog >alone.out 2>alone.err
same plain.out alone.out "outputs"
[ ! -s alone.err ] || fail "nothing on stderr expected${NL}$(show alone.err)"

check "an unwritable report directory: a message on stderr, the program unaffected"
printf 'counted_len pure\nno_such_function const\n' >watch
set +e
PURIST_WATCH=$PWD/watch PURIST_REPORT=$T/no/such/dir ./prog 3 >unw.out 2>unw.err
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "exit status 3 expected, got $rc"
same plain.out unw.out "outputs"
grep -q "purist-rt: .*no/such/dir.*cannot write the report" unw.err || fail "no message about the report${NL}$(show unw.err)"

check "a watch list that cannot be read: a message, the program unaffected"
PURIST_WATCH=$T/missing-watch ./prog >nw.out 2>nw.err
same plain.out nw.out "outputs"
grep -q "cannot read the watch list" nw.err || fail "no message about the watch list${NL}$(show nw.err)"

check "a program without the runtime: nothing was watched, said, exit 2 (issue 31 item 13: it was 0)"
run verify -p . -- ./plain
expect_rc 2
expect_stderr_has "nothing was watched: no process loaded libpurist-rt"

check "usage errors"
run verify -p .
expect_usage_error "verify needs a command after --"
run verify -p . -- ./no-such-program
expect_rc 2
expect_stderr_has "no-such-program: cannot run it"
run rt-flags
expect_usage_error "rt-flags needs --cflags or --ldflags"

check "rt-flags --ldflags on a tree whose generated header is missing: says which, exit 2, no flags"
mkdir -p "$T/gen/src" && cd "$T/gen"
printf '#include "config.h"\nint scaled(int x) { return x * FACTOR; }\n' >src/a.c
printf 'int plus1(int x) { return x + 1; }\n' >src/b.c
printf '[{"directory":"%s","file":"src/a.c","arguments":["cc","-c","src/a.c"]},{"directory":"%s","file":"src/b.c","arguments":["cc","-c","src/b.c"]}]\n' "$PWD" "$PWD" >compile_commands.json
run rt-flags -p . --ldflags
expect_rc 2
expect_stdout_empty
expect_stderr_has "^purist: rt-flags --ldflags: 1 file could not be analysed, so its functions would get no wrapper; the first error: .*src/a\.c:1:10: error: 'config\.h' file not found; a header the build generates is missing"
check "once the header exists, the flags"
printf '#define FACTOR 3\n' >src/config.h
run rt-flags -p . --ldflags
expect_rc 0
expect_stdout_has "purist-verify/wrappers\.o"
