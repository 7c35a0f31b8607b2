#!/usr/bin/env bash
# Paths inside reasons follow the rule of "file" (DESIGN §4): relative to
# the project root when inside it.  Every other reason does so already
# ("writes static 'counter' (src/b.c:4:19)"); the reason of a function
# defined in two TUs must too, in text and in JSON.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/src"
cd "$T/p"
printf 'int twice(int x) { return 2 * x; }\nint call1(int x) { return twice(x); }\n' >src/d1.c
printf 'int twice(int x) { return x + x; }\n' >src/d2.c
R=$(cd "$T" && pwd -P)

check "text: the conflict reason names src/d1.c and src/d2.c, not absolute paths"
run infer --quiet src/d1.c src/d2.c
expect_rc 0
expect_stdout_has 'twice: normal — .*src/d1\.c.*src/d2\.c'
expect_stdout_lacks "($T|$R)/"

check "JSON: the same"
run infer --quiet --format=json src/d1.c src/d2.c
expect_rc 0
expect_stdout_lacks "($T|$R)/"

check "via -p with a CMake-less database at the root: the same"
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "src/d1.c", "arguments": ["cc", "-c", "src/d1.c"]},
  {"directory": "$T/p", "file": "src/d2.c", "arguments": ["cc", "-c", "src/d2.c"]}
]
EOF2
cd /
run infer --quiet -p "$T/p"
expect_rc 0
expect_stdout_lacks "($T|$R)/"
echo "ok"
