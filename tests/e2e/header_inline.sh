#!/usr/bin/env bash
# A `static inline` function defined in a header and included by three TUs
# is one function to the user: it appears exactly once (text and JSON, with
# -j1 and -j4, through infer and through link), at the header's file:line.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/inc"
cd "$T/p"
cat >inc/util.h <<'EOF2'
#ifndef UTIL_H
#define UTIL_H
static inline int clamp01(int x)
{
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
#endif
EOF2
for n in 1 2 3; do
  printf '#include "util.h"\nint use%d(int v) { return clamp01(v + %d); }\n' $n $n >u$n.c
done
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "u1.c", "arguments": ["cc", "-Iinc", "-c", "u1.c"]},
  {"directory": "$T/p", "file": "u2.c", "arguments": ["cc", "-Iinc", "-c", "u2.c"]},
  {"directory": "$T/p", "file": "u3.c", "arguments": ["cc", "-Iinc", "-c", "u3.c"]}
]
EOF2

for j in 1 4; do
  check "text, -j$j: clamp01 listed exactly once, at inc/util.h:3"
  run infer -j$j
  expect_ok
  n=$(count_lines ': clamp01: ' "$T/out")
  [ "$n" -eq 1 ] || fail "clamp01 listed $n times${NL}$(context)"
  expect_stdout_has '^inc/util\.h:3: clamp01: const'
  [ "$(wc -l <"$T/out")" -eq 4 ] || fail "expected 4 functions (clamp01, use1..3)${NL}$(context)"

  check "JSON, -j$j: one clamp01 object, internal linkage"
  run infer -j$j --format=json
  expect_ok
  [ "$(json_check_functions "$T/out")" -eq 4 ] || fail "expected 4 function objects${NL}$(context)"
  n=$(json_count "$T/out" clamp01)
  [ "$n" -eq 1 ] || fail "clamp01 appears $n times in JSON${NL}$(context)"
  expect_json "$T/out" clamp01 file '"inc/util.h"'
  expect_json "$T/out" clamp01 line 3
  expect_json "$T/out" clamp01 class '"const"'
  expect_json "$T/out" clamp01 linkage '"internal"'
done

check "callers see it: use1..use3 are const"
for n in 1 2 3; do expect_json "$T/out" use$n class '"const"'; done

check "through summarize + link: still exactly once"
run summarize -o "$T/u.purist"
expect_ok
run link "$T/u.purist"
expect_ok
n=$(count_lines ': clamp01: ' "$T/out")
[ "$n" -eq 1 ] || fail "link lists clamp01 $n times${NL}$(context)"

check "one summary per TU linked from three files: still exactly once"
for n in 1 2 3; do
  run summarize -o "$T/u$n.purist" u$n.c -- -Iinc
  expect_ok
done
run link "$T/u1.purist" "$T/u2.purist" "$T/u3.purist"
expect_ok
n=$(count_lines ': clamp01: ' "$T/out")
[ "$n" -eq 1 ] || fail "link of three summaries lists clamp01 $n times${NL}$(context)"

check "no conflict warning for it (it is not defined more than once by the user)"
run infer
expect_ok
echo "ok"
