#!/usr/bin/env bash
# Issue 31 item 7: `check` and `report --html` on a call chain 100,000
# deep with a declared const at the top: no crash (the noreturn check
# recursed once per level and overflowed the stack at 100,000; 80,000
# passed). The chain is generated: f100000 returns its argument, each
# f(i) calls f(i+1), f0 is declared const. And item 8: suggest on its
# summaries is linear (counting the hidden suggestions was quadratic).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
n=100000
{
  echo "int f$n(int x) { return x; }"
  awk -v n="$n" 'BEGIN { for (i = n - 1; i >= 1; i--) printf "int f%d(int x) { return f%d(x) + 1; }\n", i, i + 1 }'
  echo "__attribute__((const)) int f0(int x) { return f1(x) + 1; }"
} >deep.c

check "check on a 100,000-deep chain: no crash, f0's const is right"
run check --no-cache deep.c
no_crash
expect_rc 0

check "report --html on it: no crash, a page"
run report --html --no-cache -o deep.html deep.c
no_crash
expect_rc 0
[ -s deep.html ] || fail "no page written${NL}$(context)"

check "item 8: suggest is linear in the chain's depth, as infer is (100,000 deep: was 36 s against infer's 1 s)"
run summarize --no-cache -o deep.purist deep.c
expect_rc 0
start=$(date +%s)
run infer deep.purist
expect_rc 0
infer_s=$(($(date +%s) - start))
start=$(date +%s)
run suggest deep.purist
expect_rc 0
took=$(($(date +%s) - start))
# Linear: a small multiple of infer's time on the same summaries (this
# holds in a sanitizer build too, where both are slower).
[ "$took" -le $((4 * infer_s + 5)) ] || fail "suggest took $took s on a 100,000-deep chain, infer $infer_s s"
# Every function of the chain is counted among those without gain (the
# text output's last line, on stdout since issue 35).
expect_stdout_has "0 suggestions with a gain; 10000[01] without"
