#!/usr/bin/env bash
# Finding the compile database without -p (DESIGN §4: with no files and no
# -p, look in . and then build/), and analysing named files with flags after
# `--` when there is no database at all.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/src" "$T/p/inc" "$T/p/build"
cd "$T/p"
printf 'int sq(int x);\n' >inc/t.h
cat >src/a.c <<'EOF2'
#include "t.h"
#ifndef X
#error X is not defined: flags after -- were lost
#endif
int sq(int x) { return x * x; }
EOF2
cat >src/b.c <<'EOF2'
#include "t.h"
int quad(int x) { return sq(sq(x)); }
EOF2

check "no database anywhere, no files: exit 2 with one line saying what to do"
run infer
expect_usage_error 'compile_commands\.json'

check "files + -- -Iinc -DX, no database: both files analysed, paths relative to the cwd"
run infer src/a.c src/b.c -- -Iinc -DX
expect_ok
expect_stdout_has '^src/a\.c:5: sq: const'
expect_stdout_has '^src/b\.c:2: quad: const'
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "expected exactly 2 lines${NL}$(context)"
cp "$T/out" "$T/files.txt"

check "files without the flags they need: the include error is reported, exit 2"
run infer src/a.c src/b.c
expect_rc 2
expect_stderr_has "(^|/)src/a\\.c:1:10: error: .*t\\.h"

check "compile_commands.json in build/ only: found without -p"
cat >build/compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "src/a.c", "arguments": ["cc", "-Iinc", "-DX", "-c", "src/a.c"]},
  {"directory": "$T/p", "file": "src/b.c", "arguments": ["cc", "-Iinc", "-c", "src/b.c"]}
]
EOF2
run infer
expect_ok
expect_stdout_has '(^|/)src/a\.c:5: sq: const'
expect_stdout_has '(^|/)src/b\.c:2: quad: const'

check "compile_commands.json in . takes precedence over build/"
# The one in . lists only b.c (and a.c under another name would not parse).
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "src/b.c", "arguments": ["cc", "-Iinc", "-c", "src/b.c"]}
]
EOF2
run infer
expect_ok
expect_stdout_has '^src/b\.c:2: quad: normal'   # sq is not in this database
expect_stdout_lacks 'src/a\.c'

check "in . (the database's directory is the root): paths relative to ."
run infer --format=json
expect_rc 0
expect_json "$T/out" quad file '"src/b.c"'

check "named files win over a database in .: only the named file is analysed"
run infer src/a.c -- -Iinc -DX
expect_ok
expect_stdout_has '^src/a\.c:5: sq: const'
expect_stdout_lacks 'quad'

check "from a subdirectory, files given relative to it: paths relative to the cwd"
cd src
run infer a.c b.c -- -I../inc -DX
expect_ok
expect_stdout_has '^a\.c:5: sq: const'
expect_stdout_has '^b\.c:2: quad: const'
echo "ok"
