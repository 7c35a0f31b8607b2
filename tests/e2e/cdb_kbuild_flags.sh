#!/usr/bin/env bash
# Linux kbuild's GCC-only code generation flags in a compile database
# (make; scripts/clang-tools/gen_compile_commands.py): clang rejects them
# ("unknown argument", "unsupported option … for target"), which purist
# printed once per file (483 lines on a tinyconfig build). None changes
# what the C means, so they are dropped as -fconserve-stack is; a flag
# clang does not know and purist does not list is still reported, once
# for all the files whose flags draw the same warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int f(int x) { return x; }\n' >a.c
printf 'int g(int x) { return x + 1; }\n' >b.c
kbuild='-mpreferred-stack-boundary=3 -mrecord-mcount -fmin-function-alignment=16 -fno-partial-inlining -fno-ipa-cp-clone -femit-struct-debug-baseonly -fasan-shadow-offset=0xdffffc0000000000 -fconserve-stack -fno-allow-store-data-races'
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "a.c", "command": "gcc -nostdinc $kbuild -c -o a.o a.c"}
]
EOF2

check "infer with kbuild's GCC-only flags: no flag warning for a.c"
run infer
expect_ok
expect_stdout_has '^a\.c:1: f: const'

check "a flag purist does not know is still reported (b.c)"
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "b.c", "command": "gcc -nostdinc -fno-such-gcc-flag -c -o b.o b.c"}
]
EOF2
run infer
expect_stderr_has 'b\.c: warning: compiler flags: .*-fno-such-gcc-flag'

check "the same flag warning of several files is said once, with their number"
printf 'int h(int x) { return x - 1; }\n' >c.c
printf 'int k(int x) { return x * 2; }\n' >d.c
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "b.c", "command": "gcc -nostdinc -fno-such-gcc-flag -c -o b.o b.c"},
  {"directory": "$T/p", "file": "c.c", "command": "gcc -nostdinc -fno-such-gcc-flag -c -o c.o c.c"},
  {"directory": "$T/p", "file": "d.c", "command": "gcc -nostdinc -fno-such-gcc-flag -c -o d.o d.c"}
]
EOF2
run infer
expect_stdout_has '^d\.c:1: k: const'
[ "$(grep -c 'compiler flags' "$T/err")" = 1 ] || fail "expected one flag warning, got:${NL}$(show "$T/err")"
expect_stderr_has 'b\.c: warning: compiler flags: .*-fno-such-gcc-flag.* \(and 2 more files with the same flags\)'
echo "ok"
