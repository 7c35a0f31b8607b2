#!/usr/bin/env bash
# A compile database that lists a source file which does not exist (a
# generated file not generated yet, a stale database): exit 2, a line that
# names the file and says it does not exist, no crash.  (Given on the
# command line instead, the same file gives "gone.c: No such file or
# directory"; the database case should be as clear.)
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int good(int x) { return x; }\n' >good.c
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "good.c", "arguments": ["cc", "-c", "good.c"]},
  {"directory": "$T/p", "file": "gone.c", "arguments": ["cc", "-c", "gone.c"]}
]
EOF2

check "infer: exit 2, no crash"
run infer
expect_rc 2

check "exactly one line on stderr names gone.c"
n=$(count_lines 'gone\.c' "$T/err")
[ "$n" -eq 1 ] || fail "expected one line naming gone.c, got $n${NL}$(context)"

check "that line says the file does not exist"
grep 'gone\.c' "$T/err" | grep -Eiq 'no such file|does not exist|not found|missing' ||
  fail "the line naming gone.c does not say that it is missing${NL}$(context)"

check "summarize: exit 2 too, and the same clear line"
run summarize -o out.purist
expect_rc 2
grep 'gone\.c' "$T/err" | grep -Eiq 'no such file|does not exist|not found|missing' ||
  fail "the line naming gone.c does not say that it is missing${NL}$(context)"
echo "ok"
