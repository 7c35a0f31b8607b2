#!/usr/bin/env bash
# Paths inside reasons follow the rule of "file" (DESIGN §4): relative to
# the project root when inside it.  Every other reason does so already
# ("writes static 'counter' (src/b.c:4:19)"); the reason naming a function
# defined in two TUs (a caller in a third TU calls their join) must too,
# in text and in JSON, and so must --verbose's note.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/src"
cd "$T/p"
printf 'int twice(int x) { return 2 * x; }\nint call1(int x) { return twice(x); }\n' >src/d1.c
printf 'int k;\nint twice(int x) { return x + k; }\n' >src/d2.c
printf 'int twice(int x);\nint call3(int x) { return twice(x); }\n' >src/d3.c
R=$(cd "$T" && pwd -P)

check "text: the conflict reason names src/d1.c and src/d2.c, not absolute paths"
run infer --verbose src/d1.c src/d2.c src/d3.c
expect_rc 0
expect_stdout_has 'call3: pure — .*src/d1\.c, src/d2\.c'
expect_stdout_lacks "($T|$R)/"
expect_stderr_has "^note: 'twice' is defined 2 times \(src/d1\.c:1, src/d2\.c:2\)"
grep -Eq "($T|$R)/" "$T/err" && fail "the note should name relative paths${NL}$(context)"

check "JSON: the same"
run infer --quiet --format=json src/d1.c src/d2.c src/d3.c
expect_rc 0
expect_stdout_lacks "($T|$R)/"

check "via -p with a CMake-less database at the root: the same"
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "src/d1.c", "arguments": ["cc", "-c", "src/d1.c"]},
  {"directory": "$T/p", "file": "src/d2.c", "arguments": ["cc", "-c", "src/d2.c"]},
  {"directory": "$T/p", "file": "src/d3.c", "arguments": ["cc", "-c", "src/d3.c"]}
]
EOF2
cd /
run infer --verbose -p "$T/p"
expect_rc 0
expect_stdout_lacks "($T|$R)/"
grep -Eq "($T|$R)/" "$T/err" && fail "the note should name relative paths${NL}$(context)"
echo "ok"
