#!/usr/bin/env bash
# suggest's order does not depend on the order the summaries come in:
# static functions of the same name in several TUs, with equal gains, are
# listed by place (found on redis: a static dictGenHashFunction in one TU
# and a global one in another came out in compile-database order from
# `suggest -p` and in link-line order from `suggest OBJECTS`).
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p" && cd "$T/p"
for f in one two three; do
  cat >$f.c <<C
static int square(const int *p) { return *p * *p; }
int use_$f(const int *p) { return square(p) + 1; }
C
done

check "suggest of one two three and of three two one: the same bytes"
run suggest --all one.c two.c three.c
expect_rc 0
cp "$T/out" fwd.txt
[ "$(grep -c "'square' can be declared pure" fwd.txt)" -eq 3 ] ||
  fail "expected three suggestions for square${NL}$(show fwd.txt)"
run suggest --all three.c two.c one.c
expect_rc 0
same fwd.txt "$T/out" "suggest in two input orders"

check "the same from summaries linked in either order"
for f in one two three; do run summarize $f.c -o $f.purist; expect_ok; done
run suggest --all two.purist three.purist one.purist
expect_rc 0
same fwd.txt "$T/out" "suggest of sources and of summaries in another order"
echo "ok"
