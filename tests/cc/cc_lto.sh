#!/usr/bin/env bash
# An executable linked with -flto: GCC's linker plugin drops the .purist
# sections of the objects compiled with -flto (found on redis, whose
# Makefile adds -flto=auto). purist link of such a binary warns that
# functions are missing and points at the objects, which still hold the
# sections and give what infer gives; a binary built without -flto gets
# no such warning.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"

mkdir -p "$T/lto" && cd "$T/lto"
cat >twice.c <<'C'
int twice(int x) { return 2 * x; }
C
cat >main.c <<'C'
#include <stdio.h>
int twice(int x);
int main(void) { printf("%d\n", twice(21)); return 0; }
C

check "objects compiled with -flto -g keep .purist; the linked binary warns"
# As in redis: the program's objects with -flto, a library's without.
"$PURIST" cc gcc -O2 -g -flto -c twice.c -o twice.o 2>cc.err || fail "purist cc failed${NL}$(show cc.err)"
"$PURIST" cc gcc -O2 -g -c main.c -o main.o 2>>cc.err || fail "purist cc failed${NL}$(show cc.err)"
[ -s cc.err ] && fail "purist cc printed something${NL}$(show cc.err)"
gcc -O2 -g -flto -o app twice.o main.o
run link twice.o main.o
expect_ok
expect_stdout_has 'twice: const'
cp "$T/out" objs.txt
run link app
expect_rc 0
expect_stderr_has 'app was linked with -flto'
expect_stderr_has 'run purist link on those objects or archives'
expect_stdout_has 'main: normal'
expect_stdout_lacks 'twice: const'

check "the same program linked without -flto: no warning, same as the objects"
for f in twice main; do "$PURIST" cc gcc -O2 -g -c $f.c -o $f.o; done
gcc -O2 -g -o app twice.o main.o
run link app
expect_ok
same objs.txt "$T/out" "link of the objects and of the binary"
if grep -q 'flto' "$T/err"; then fail "a warning about -flto without -flto${NL}$(show "$T/err")"; fi

check "--quiet: no warning"
"$PURIST" cc gcc -O2 -g -flto -c twice.c -o twice.o
gcc -O2 -g -flto -o app twice.o main.o
run link app --quiet
expect_ok
[ -s "$T/err" ] && fail "--quiet printed${NL}$(show "$T/err")"
echo "ok"
