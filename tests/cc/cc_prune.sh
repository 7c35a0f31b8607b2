#!/usr/bin/env bash
# The summaries `purist cc` embeds are small (issue 24 item 1): a TU keeps
# what it defines, calls and attributes, not every prototype of the headers
# it includes, and the record is zstd-packed (format 5, header flag 1).
# The link of such objects says what the analysis of the sources says, and
# fix from them never spells an attribute on a header prototype with a
# macro that a TU including the header without using it may lack.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
cd "$T"
{
  echo 'int sq(int x);'
  echo 'int cube(int x);'
  for i in $(seq 1 300); do echo "int api_function_number_$i(const char *name, int value, double scale);"; done
} >h.h
cat >a.c <<'EOF2'
#define CONST_FN __attribute__((const))
#include "h.h"
int sq(int x) { return x * x; }
int cube(int x) { return sq(x) * x; }
int api_function_number_7(const char *name, int value, double scale) { return name[0] + value * (int)scale; }
EOF2
cat >b.c <<'EOF2'
#include "h.h"
int table[4];
int b_get(int i) { return table[i & 3] + api_function_number_7("x", i, 1.0); }
int main(void) { return 0; }
EOF2
for f in a b; do
  "$PURIST" cc gcc -O2 -c "$f.c" || fail "purist cc failed on $f.c"
done

check "the object's section is small beside the whole record, version 8 and packed"
run summarize a.c -o whole.sum
expect_ok
whole=$(wc -c <whole.sum)
sec=$(readelf -SW a.o | sed -n 's/.*\] \.purist  *[A-Z_]*  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
[ -n "$sec" ] || fail "a.o has no .purist section"
sec=$((16#$sec))
[ "$sec" -lt $((whole / 8)) ] || fail "a.o's section is $sec bytes, the whole record $whole: the header's prototypes were kept"
off=$(section_offset a.o)
head=$(od -A n -t u1 -j $((off + 8)) -N 8 a.o | tr -s ' ' | sed 's/^ //')
[ "$head" = "8 0 0 0 1 0 0 0" ] || fail "a.o's record header (version, flags) is '$head', wanted format 8 with flag 1 (zstd)"

check "link of the objects == infer of the sources"
run infer a.c b.c
expect_ok
cp "$T/out" infer.txt
gcc -o prog a.o b.o || fail "the link failed"
run link prog
expect_ok
same infer.txt "$T/out" "infer of the sources and link of prog"
run link a.o b.o
expect_ok
same infer.txt "$T/out" "infer of the sources and link of a.o b.o"

check "fix --from prog --all: h.h gets __attribute__((const)), not a.c's macro b.c lacks; both still compile"
run fix --from prog --all   # every suggestion, gain or not
expect_rc 0
grep -q '^int sq(int x) __attribute__((const));' h.h || fail "h.h:${NL}$(show h.h)"
! grep -q 'CONST_FN' h.h || fail "h.h names a macro b.c does not define:${NL}$(show h.h)"
for f in a b; do gcc -O2 -c "$f.c" -o "$f.2.o" 2>"$f.err" || fail "$f.c no longer compiles${NL}$(show "$f.err")"; done
echo "ok"
