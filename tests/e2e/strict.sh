#!/usr/bin/env bash
# --strict (DESIGN §2): effects on paths that end in a call to a noreturn
# function count only as reads by default (see docs/decisions.md), and the
# function gets may-not-return; --strict counts them in full.  A function
# that prints to stderr and then calls abort() on bad input is pure (may not
# return) by default and normal with --strict.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >s.c <<'EOF2'
#include <stdio.h>
#include <stdlib.h>

int check_pos(int x)
{
  if (x < 0) {
    fprintf(stderr, "negative: %d\n", x);
    abort();
  }
  return x * 2;
}

int uses_check(int x) { return check_pos(x) + 1; }

int plain(int x) { return x + 1; }
EOF2

check "default: check_pos is pure (its I/O before abort() counts only as a read), may not return"
run infer --format=json s.c
expect_ok
json_check_functions "$T/out" >/dev/null
expect_json "$T/out" check_pos class '"pure"'
expect_json "$T/out" check_pos may_not_return true
expect_json "$T/out" uses_check class '"pure"'
expect_json "$T/out" plain may_not_return false

check "default text: 'pure, may not return'"
run infer s.c
expect_ok
expect_stdout_has '^s\.c:4: check_pos: pure, may not return'

check "--strict: check_pos is normal (still may not return), its reason names the I/O"
run infer --strict --format=json s.c
expect_ok
expect_json "$T/out" check_pos class '"normal"'
expect_json "$T/out" check_pos may_not_return true
json_field "$T/out" check_pos reason | grep -q 'fprintf' ||
  fail "the --strict reason should name fprintf${NL}$(show "$T/out")"

check "--strict propagates to callers; functions without such paths are unchanged"
expect_json "$T/out" uses_check class '"normal"'
expect_json "$T/out" plain class '"const"'
expect_json "$T/out" plain may_not_return false

check "--strict text: 'normal, may not return'"
run infer --strict s.c
expect_ok
expect_stdout_has '^s\.c:4: check_pos: normal, may not return'
echo "ok"
