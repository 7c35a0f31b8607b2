#!/usr/bin/env bash
# Determinism (README: "the output is the same for every N"): on a generated
# project of 30 files — cross-file calls, mutual recursion across files,
# statics with the same name in every file, a static inline header function,
# globals read in one file and written in another — infer's JSON and text
# are byte-identical for -j1, -j2 and -j8, and across repeated runs; so are
# the summaries written by summarize.  (That link of these summaries equals
# infer is checked in summary_roundtrip.sh.)
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

N=30
write_generated_project "$T/p" $N
cd "$T/p"

check "sanity: -j1 JSON is complete (contract keys, $((N * 5 + 1)) functions)"
run infer --format=json -j1
expect_ok
n=$(json_check_functions "$T/out")
[ "$n" -eq $((N * 5 + 1)) ] || fail "expected $((N * 5 + 1)) functions (f g set loop helper per file + common_clamp), got $n"
cp "$T/out" "$T/ref.json"

for j in 2 8 1; do
  check "JSON with -j$j is byte-identical to -j1"
  run infer --format=json -j$j
  expect_ok
  same "$T/ref.json" "$T/out" "JSON of -j1 and -j$j"
done

check "a second run of -j8 gives the same bytes again"
run infer --format=json -j8
expect_ok
same "$T/ref.json" "$T/out" "JSON of two -j8 runs"

check "text output: -j1, -j2, -j8 identical"
run infer -j1
expect_ok
cp "$T/out" "$T/ref.txt"
for j in 2 8; do
  run infer -j$j
  expect_ok
  same "$T/ref.txt" "$T/out" "text of -j1 and -j$j"
done

check "default -j (all cores) gives the same JSON"
run infer --format=json
expect_ok
same "$T/ref.json" "$T/out" "JSON of -j1 and the default"

check "summarize -j1 and -j8 write byte-identical summaries"
run summarize -j1 -o "$T/s1.purist"
expect_ok
run summarize -j8 -o "$T/s8.purist"
expect_ok
same "$T/s1.purist" "$T/s8.purist" "summaries of -j1 and -j8"

echo "ok"
