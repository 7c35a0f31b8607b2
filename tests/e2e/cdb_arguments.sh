#!/usr/bin/env bash
# A bear-style compile database ("arguments" arrays), written by hand with
# relative "directory" (relative to the database's directory) and relative
# "file" (relative to "directory"), and with flags whose meaning matters:
# include paths relative to the entry's directory and -D values with spaces.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/src/lib" "$T/p/inc"
cat >"$T/p/inc/t.h" <<'EOF2'
int sq(int x);
EOF2
cat >"$T/p/src/lib/a.c" <<'EOF2'
#include "t.h"
_Static_assert(sizeof(MSG) == 4, "MSG must be \"a b\"");
int sq(int x) { return x * x; }
EOF2
cat >"$T/p/src/b.c" <<'EOF2'
#include "t.h"
#ifndef WANT_B
#error WANT_B is not defined: flags were lost
#endif
int cube(int x) { return x * sq(x); }
EOF2
# The database lives at the project root; one entry runs in src/lib, the
# other at the root itself.
cat >"$T/p/compile_commands.json" <<'EOF2'
[
  {
    "directory": "src/lib",
    "file": "a.c",
    "arguments": ["/usr/bin/gcc", "-c", "-I../../inc", "-DMSG=\"a b\"", "-o", "a.o", "a.c"]
  },
  {
    "directory": ".",
    "file": "src/b.c",
    "arguments": ["cc", "-Iinc", "-DWANT_B", "-O2", "-c", "src/b.c", "-o", "build/b.o"]
  }
]
EOF2

check "infer -p . on a hand-written arguments database with relative directory and file"
cd "$T/p"
run infer -p .
expect_ok
expect_stdout_has '^src/lib/a\.c:3: sq: const'
expect_stdout_has '^src/b\.c:5: cube: const'
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "expected exactly 2 functions${NL}$(context)"

check "the same from another directory: relative entries resolve against the database, not the cwd"
cd /
run infer -p "$T/p" --format=json
expect_rc 0
n=$(json_check_functions "$T/out")
[ "$n" -eq 2 ] || fail "expected 2 function objects, got $n"
expect_json "$T/out" sq file '"src/lib/a.c"'
expect_json "$T/out" cube file '"src/b.c"'
expect_json "$T/out" cube class '"const"'

check "purist wrote no object files (-o of the compile command is not honoured)"
[ ! -e "$T/p/src/lib/a.o" ] || fail "purist created src/lib/a.o"
[ ! -e "$T/p/build" ] || fail "purist created build/"
echo "ok"
