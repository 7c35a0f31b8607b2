#!/usr/bin/env bash
# purist cc runs the compile unchanged: the same exit status, stdout and
# stderr as the compiler alone, signals passed on; only a successful C
# compile to an object gets a .purist section, and a TU libclang cannot
# analyse leaves the object exactly as the compiler made it, with one warning.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
cd "$T"
cat >ok.c <<'EOF2'
#include <stdio.h>
int twice(int x) { return 2 * x; }
int main(void) { printf("%d\n", twice(21)); return 0; }
EOF2
cat >bad.c <<'EOF2'
int broken(int x) { return x + ; }
EOF2
cat >nested.c <<'EOF2'
int outer(int x) { int inner(int y) { return y + 1; } return inner(x); }
EOF2
printf 'int other(void) { return 7; }\n' >two.c

# same_as_compiler ARGS...: `purist cc gcc ARGS` and `gcc ARGS` agree on
# exit status, stdout and stderr.
same_as_compiler() {
  set +e
  gcc "$@" >"$T/g.out" 2>"$T/g.err"; local grc=$?
  "$PURIST" cc gcc "$@" >"$T/p.out" 2>"$T/p.err"; local prc=$?
  set -e
  [ "$grc" -eq "$prc" ] || fail "gcc $*: exit $grc, through purist cc $prc${NL}$(show "$T/p.err")"
  same "$T/g.out" "$T/p.out" "stdout of gcc $*"
  same "$T/g.err" "$T/p.err" "stderr of gcc $*"
}

check "a failing compile: gcc's status and diagnostics, nothing more"
same_as_compiler -c bad.c -o bad.o
[ ! -e bad.o ] || fail "an object appeared for a failed compile"
check "-E, -S, -M, linking, -fsyntax-only: output unchanged"
same_as_compiler -E ok.c
same_as_compiler -S ok.c -o ok.s
same_as_compiler -M ok.c
same_as_compiler -fsyntax-only ok.c
same_as_compiler ok.c -o prog
[ -z "$(section_offset prog)" ] || fail "linking (no -c) must not embed a summary"
check "an assembler input compiles and gets no summary"
same_as_compiler -c ok.s -o asm.o
[ -z "$(section_offset asm.o)" ] || fail "an assembled object got a .purist section"
check "C++ (g++) is passed through without a summary"
if command -v g++ >/dev/null; then
  printf 'int cxx(int x) { return x; }\n' >x.cpp
  run cc g++ -c x.cpp -o x.o
  expect_ok
  [ -z "$(section_offset x.o)" ] || fail "a C++ object got a .purist section"
fi

check "-c with the default object name; several sources at once"
run cc gcc -O2 -c ok.c
expect_ok
[ -n "$(section_offset ok.o)" ] || fail "ok.o has no .purist section"
run cc gcc -c ok.c two.c
expect_ok
[ -n "$(section_offset ok.o)" ] && [ -n "$(section_offset two.o)" ] || fail "ok.o and two.o both need a .purist section"
run link ok.o two.o
expect_ok
expect_stdout_has '^ok\.c:2: twice: const'
expect_stdout_has '^two\.c:1: other: const'

check "the program built from purist cc objects runs as before"
gcc -o prog2 ok.o && [ "$(./prog2)" = 42 ] || fail "the linked program does not run"

check "a TU only GCC accepts (nested function): one warning, the object byte-identical to gcc's"
gcc -c nested.c -o nested_gcc.o
run cc gcc -c nested.c -o nested.o
expect_rc 0
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "expected one warning line${NL}$(context)"
expect_stderr_has '^purist cc: warning: .*nested\.c'
cmp -s nested.o nested_gcc.o || fail "the object differs from gcc's own"

check "the compiler's exit status, its death by a signal, a missing compiler"
run cc sh -c 'exit 3'
expect_rc 3
set +e
"$PURIST" cc sh -c 'kill -TERM $$' 2>/dev/null; rc=$?
set -e
[ "$rc" -eq 143 ] || fail "a compiler killed by SIGTERM: expected status 143, got $rc"
run cc ./no-such-compiler -c ok.c
[ "$RC" -eq 127 ] || fail "a missing compiler: expected status 127 (as a shell), got $RC"
expect_stderr_has 'no-such-compiler'

check "a signal to purist cc reaches the compiler"
"$PURIST" cc sh -c 'sleep 20 >/dev/null 2>&1 & trap "echo got-term >signalled; kill $!; exit 9" TERM; wait' &
pid=$!
for _ in $(seq 50); do pgrep -P "$pid" >/dev/null && break; sleep 0.1; done
sleep 0.3
kill -TERM "$pid"
set +e
wait "$pid"; rc=$?
set -e
[ -f signalled ] || fail "the compiler did not receive SIGTERM"
[ "$rc" -eq 9 ] || fail "expected the compiler's exit status 9, got $rc"
echo "ok"
