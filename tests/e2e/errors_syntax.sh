#!/usr/bin/env bash
# A translation unit with a syntax error next to a good one: the error is
# reported as file:line:col: error: ..., the good TU is still analysed and
# listed, the broken TU's functions count as unknown, and the exit status
# is 2.  The output (text or JSON) stays well-formed.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >good.c <<'EOF2'
int helper(int x);
int good(int x)
{
  return x * 3;
}
int uses_bad(int x)
{
  return helper(x);
}
EOF2
cat >bad.c <<'EOF2'
int helper(int x)
{
  return x +;
}
EOF2
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "good.c", "arguments": ["cc", "-c", "good.c"]},
  {"directory": "$T/p", "file": "bad.c", "arguments": ["cc", "-c", "bad.c"]}
]
EOF2

check "text: exit 2, the error as bad.c:3:13: error: ..."
run infer
expect_rc 2
expect_stderr_has '(^|/)bad\.c:3:13: error: '

check "text: the good TU's functions are listed"
expect_stdout_has '^good\.c:2: good: const'
expect_stdout_has '^good\.c:6: uses_bad: normal'

check "JSON: exit 2, a complete object listing the good TU's functions"
run infer --format=json
expect_rc 2
n=$(json_check_functions "$T/out")
[ "$n" -ge 2 ] || fail "expected at least the 2 functions of good.c, got $n${NL}$(context)"
expect_json "$T/out" good class '"const"'
expect_json "$T/out" uses_bad class '"normal"'

check "--quiet does not hide the error"
run infer --quiet
expect_rc 2
expect_stderr_has '(^|/)bad\.c:3:13: error: '

check "-j1 and -j4 report the same"
run infer -j1
cp "$T/out" "$T/out1"; cp "$T/err" "$T/err1"
expect_rc 2
run infer -j4
expect_rc 2
same "$T/out1" "$T/out" "stdout of -j1 and -j4"
same "$T/err1" "$T/err" "stderr of -j1 and -j4"

check "files mode: the same (purist infer good.c bad.c)"
run infer good.c bad.c
expect_rc 2
expect_stderr_has '(^|/)bad\.c:3:13: error: '
expect_stdout_has '^good\.c:2: good: const'
echo "ok"
