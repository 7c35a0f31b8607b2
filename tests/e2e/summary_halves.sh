#!/usr/bin/env bash
# Summaries of two halves of a project, written separately and linked
# together, equal infer on the whole project: calls, global reads/writes and
# mutual recursion that cross from one half to the other are resolved at
# link time, and static functions of the same name stay apart.  The order of
# the summary files on the command line and concatenating them (cat a b >
# ab, docs/summary-format.md) do not matter.
#
# Each file defines its static helper first and its public functions in the
# order the header declares them, so this test checks the merging of halves
# apart from the order of a function's declaration and definition within a
# TU, which summary_roundtrip.sh checks.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

N=8
mkdir -p "$T/p/inc" "$T/p/src"
cd "$T/p"
{
  for ((k = 0; k < N; k++)); do
    echo "extern int counter$k;"
    echo "int f$k(int x);"
    echo "int g$k(void);"
    echo "void s$k(int v);"
    echo "int t$k(int x);"
    echo "int r$k(int x);"
  done
} >inc/api.h
for ((k = 0; k < N; k++)); do
  {
    if ((k == 2)); then
      echo "extern int counter2;"
      echo "static int helper(int x) { return x * counter2; }   /* pure */"
    else
      echo "static int helper(int x) { return x * $((k + 1)); }   /* const */"
    fi
    echo '#include "api.h"'
    echo "int counter$k;"
    if ((k < N - 1)); then
      echo "int f$k(int x) { return f$((k + 1))(x) + helper(x); }"
    else
      echo "int f$k(int x) { return helper(x); }"
    fi
    echo "int g$k(void) { return counter$(((k + 5) % N)); }"
    echo "void s$k(int v) { counter$k = v; }"
    echo "int t$k(int x) { s$(((k + 3) % N))(x); return x; }"
    if ((k == 0)); then
      echo "int r$k(int x) { return x > 0 ? r4(x - 1) : 0; }"
    elif ((k == 4)); then
      echo "int r$k(int x) { return x > 0 ? r0(x - 2) : 1; }"
    else
      echo "int r$k(int x) { return x + $k; }"
    fi
  } >src/h$k.c
done
A=(src/h0.c src/h1.c src/h2.c src/h3.c)
B=(src/h4.c src/h5.c src/h6.c src/h7.c)

check "sanity: infer on the whole project"
run infer "${A[@]}" "${B[@]}" -- -Iinc
expect_ok
cp "$T/out" "$T/whole.txt"
run infer --format=json "${A[@]}" "${B[@]}" -- -Iinc
expect_ok
cp "$T/out" "$T/whole.json"
[ "$(json_check_functions "$T/whole.json")" -eq $((6 * N)) ] || fail "expected $((6 * N)) functions"
# The cross-half facts the link must get right.
expect_json "$T/whole.json" f0 class '"pure"'     # via f1 -> f2 -> helper of h2.c
expect_json "$T/whole.json" f3 class '"const"'
expect_json "$T/whole.json" t6 class '"normal"'   # via s1 in the other half
expect_json "$T/whole.json" r0 may_not_return true  # r0 <-> r4 across halves

check "summarize each half separately"
run summarize -o "$T/a.purist" "${A[@]}" -- -Iinc
expect_ok
run summarize -o "$T/b.purist" "${B[@]}" -- -Iinc
expect_ok

check "link a.purist b.purist == infer on the whole (text)"
run link "$T/a.purist" "$T/b.purist"
expect_ok
same "$T/whole.txt" "$T/out" "infer on the whole and link of the halves"

check "link a.purist b.purist == infer on the whole (JSON)"
run link --format=json "$T/a.purist" "$T/b.purist"
expect_ok
same "$T/whole.json" "$T/out" "infer on the whole and link of the halves (JSON)"

check "link b.purist a.purist (other order) gives the same"
run link --format=json "$T/b.purist" "$T/a.purist"
expect_ok
same "$T/whole.json" "$T/out" "link a b and link b a"

check "cat a.purist b.purist > ab.purist is a valid summary file with the same result"
cat "$T/a.purist" "$T/b.purist" >"$T/ab.purist"
run link --format=json "$T/ab.purist"
expect_ok
same "$T/whole.json" "$T/out" "link a b and link of the concatenation"

check "one half alone: the other half's functions are unknown (normal), not invented"
run link --format=json "$T/a.purist"
expect_ok
expect_json "$T/out" f3 class '"normal"'     # f4 is in the other half
[ "$(json_count "$T/out" f4)" -eq 0 ] || fail "f4 is not in half a, yet link listed it${NL}$(show "$T/out")"
echo "ok"
