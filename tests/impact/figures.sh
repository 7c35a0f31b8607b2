#!/usr/bin/env bash
# purist impact measures what the attributes buy with the real compiler:
# a const lookup called three times around a store through an out-pointer
# loses 2 calls; a pure call whose value is discarded loses 1.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# --- a const lookup, three calls around a store through an out-pointer ---
P=$T/lookup
write_unit_project "$P"
write_cdb "$P" gcc-12 src/unit.c src/convert.c

check "the lookup is suggested const (what impact will apply)"
cd "$P"
run suggest -p .
expect_stdout_has "'unit_scale' can be declared const"

check "impact: 3 calls before, 1 after: 2 removed, none added (JSON)"
run impact -p . --format=json -j2
expect_rc 0
cp "$T/out" "$T/a.json"
expect_top "$T/a.json" version 1
expect_top "$T/a.json" calls_removed 2
expect_top "$T/a.json" calls_added 0
before=$(json_top "$T/a.json" calls_before)
after=$(json_top "$T/a.json" calls_after)
[ "$((before - after))" -eq 2 ] || fail "calls_before $before - calls_after $after should be 2$(show "$T/a.json")"
expect_json "$T/a.json" unit_convert calls_before 3
expect_json "$T/a.json" unit_convert calls_after 1
expect_json "$T/a.json" unit_convert file '"src/convert.c"'
for k in text_bytes_before text_bytes_after; do
  v=$(json_top "$T/a.json" $k)
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || fail "$k should be a positive byte count, got '$v'$(show "$T/a.json")"
done
[ "$(json_top "$T/a.json" text_bytes_after)" -lt "$(json_top "$T/a.json" text_bytes_before)" ] ||
  fail "two calls fewer should make the text smaller$(show "$T/a.json")"
expect_no_tree

check "the sources themselves are untouched (the edits went into the copy)"
grep -q "const" include/unit.h && fail "impact edited include/unit.h in place"

check "impact: the text report says the same"
run impact -p . -j1
expect_rc 0
expect_stdout_has "^calls: 3 before, 1 after: 2 removed, 0 added$"
expect_stdout_has "src/convert.c: unit_convert: calls 3 -> 1 \(-2\)"
expect_stdout_has "bytes saved"
expect_no_tree

# --- a pure call whose value is discarded -------------------------------
P=$T/discard
mkdir -p "$P/include" "$P/src"
cat >"$P/include/sum.h" <<'C'
int sum_bytes(const unsigned char *p, int n);
void sum_touch(const unsigned char *p, int n, int *hits);
C
cat >"$P/src/sum.c" <<'C'
#include "sum.h"
int sum_bytes(const unsigned char *p, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
C
cat >"$P/src/touch.c" <<'C'
#include "sum.h"
void sum_touch(const unsigned char *p, int n, int *hits)
{
  sum_bytes(p, n);                  /* value thrown away */
  ++*hits;
}
C
write_cdb "$P" gcc-12 src/sum.c src/touch.c

check "impact measures what fix writes: fix leaves sum_bytes alone (its value is discarded), 0 removed"
cd "$P"
run fix -p . --dry-run
expect_stdout_lacks "sum_bytes.*pure"
run impact -p . --format=json
expect_rc 0
expect_top "$T/out" calls_removed 0

check "impact --all measures fix --all's plan: the discarded pure call is deleted, 1 removed"
run impact -p . --all --format=json
expect_rc 0
cp "$T/out" "$T/b.json"
expect_top "$T/b.json" calls_removed 1
expect_top "$T/b.json" calls_added 0
expect_json "$T/b.json" sum_touch calls_before 1
expect_json "$T/b.json" sum_touch calls_after 0
expect_no_tree
echo "ok"
