#!/usr/bin/env bash
# A compile database with "command" strings as build tools write them:
# shell quoting (-DNAME="a b", '-DSQ=x y', CMake's \"\\\"...\\\"\" style),
# compiler wrappers (ccache gcc ...), dependency-file flags (-MD -MF dep.d,
# -MMD -MF, -MD alone) that purist must NOT act on, and -Werror, which must
# not turn a warning into a failed parse.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/inc"
cd "$T/p"
cat >inc/cfg.h <<'EOF2'
#define STR_(x) #x
#define STR(x) STR_(x)
EOF2
# m.c: NAME must be the two tokens a b (from -DNAME="a b" after shell
# unquoting), X must be defined, and it has an unused variable: a warning
# under -Wall, an error under -Werror.
cat >m.c <<'EOF2'
#include "cfg.h"
#ifndef X
#error X is not defined: flags were lost
#endif
_Static_assert(sizeof STR(NAME) == 4, "NAME must expand to: a b");
int name_len(int a)
{
  int unused;
  return a + (int)sizeof STR(NAME);
}
EOF2
# n.c: SQ must be x y (single-quoted in the command), LIT the string "l m"
# (CMake-style escaping).
cat >n.c <<'EOF2'
#include "cfg.h"
_Static_assert(sizeof STR(SQ) == 4, "SQ must expand to: x y");
_Static_assert(sizeof LIT == 4, "LIT must be the string \"l m\"");
int twice(int v) { int unused; return 2 * v; }
EOF2
# o.c: -MD without -MF would write o.d next to the object.
cat >o.c <<'EOF2'
int one(void) { return 1; }
EOF2
printf 'original contents, must survive\n' >dep.d
cp dep.d dep.d.orig
cat >compile_commands.json <<EOF2
[
  {
    "directory": "$T/p",
    "file": "m.c",
    "command": "ccache gcc -DNAME=\"a b\" -DX -Iinc -Wall -Wextra -Werror -MD -MF dep.d -MT m.o -c m.c -o m.o"
  },
  {
    "directory": "$T/p",
    "file": "n.c",
    "command": "/usr/bin/ccache /usr/bin/gcc '-DSQ=x y' -DLIT=\"\\\\\"l m\\\\\"\" -Iinc -Wall -Werror=unused-variable -MMD -MP -MF newdep.d -MT n.o -o n.o -c n.c"
  },
  {
    "directory": "$T/p",
    "file": "o.c",
    "command": "gcc -MD -c o.c -o o.o"
  }
]
EOF2

check "infer on a command-string database: all three files parse, exit 0"
run infer --format=json
expect_ok
n=$(json_check_functions "$T/out")
[ "$n" -eq 3 ] || fail "expected 3 function objects, got $n${NL}$(context)"
expect_json "$T/out" name_len file '"m.c"'
expect_json "$T/out" name_len class '"const"'
expect_json "$T/out" twice class '"const"'
expect_json "$T/out" one class '"const"'

check "-MD -MF dep.d: the existing dep.d is untouched"
same dep.d.orig dep.d "dep.d before and after purist"

check "-MMD -MF newdep.d: newdep.d is not created"
[ ! -e newdep.d ] || fail "purist created newdep.d"

check "-MD alone: o.d is not created; no object files either"
for f in o.d m.d n.d m.o n.o o.o; do
  [ ! -e "$f" ] || fail "purist created $f"
done

check "text output agrees, nothing on stderr (-Werror did not fail the parse)"
run infer
expect_ok
expect_stdout_has '^m\.c:6: name_len: const'
expect_stdout_has '^n\.c:4: twice: const'
expect_stdout_has '^o\.c:1: one: const'

check "sanity of this test: with -Werror honoured, m.c would not compile"
if command -v gcc >/dev/null; then
  if gcc -fsyntax-only -DNAME="a b" -DX -Iinc -Wall -Werror m.c 2>/dev/null; then
    fail "test is broken: m.c compiles cleanly with -Wall -Werror"
  fi
fi

check "sanity of this test: a mangled -DNAME makes m.c fail (so the quoting check is real)"
sed -i 's/-DNAME=\\"a b\\"/-DNAME=a/' compile_commands.json
grep -q -- '-DNAME=a -DX' compile_commands.json || fail "test is broken: could not edit the database"
run infer
expect_rc 2
expect_stderr_has '(^|/)m\.c:5:[0-9]+: error: '
echo "ok"
