#!/usr/bin/env bash
# fix is idempotent when a loop's bound calls a function whose purity is
# only inferred (found on redis): the caller's counted loop is proven finite
# at link once the callee is known pure, so the first run edits both the
# callee and the caller, and a second run changes nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >scan.c <<'EOF2'
#include <string.h>
static inline size_t len(const char *s) { return strlen(s); }
int f(const char *n);
int f(const char *n)
{
  for (size_t i = 0; i < len(n); i++)
    if (n[i] == 'x') return 1;
  return 0;
}
EOF2

check "the first run makes both len and f pure"
run fix --all scan.c
expect_rc 0
expect_file_has scan.c '^__attribute__\(\(pure\)\) static inline size_t len\(const char \*s\)'
expect_file_has scan.c '^int f\(const char \*n\) __attribute__\(\(pure\)\);$'
expect_stderr_has '^purist: fix: 3 edits in 1 file'
compiles scan.c

check "a bound calling a normal function stays may-not-return, and infer says why"
cat >bump.c <<'EOF2'
static int calls;
static int lim(int n) { calls++; return n; }
int sum_to(int n);
int sum_to(int n) { int s = 0; for (int i = 0; i < lim(n); i++) s += i; return s; }
EOF2
run infer --format=json bump.c --
expect_rc 0
expect_stdout_has '"may_not_return_reason": "for loop not provably finite: its bound calls .lim., which is not pure or const at bump.c:4:'
rm bump.c

check "a second run changes nothing"
tree_sum . >"$T/sum0"
run fix --all scan.c
expect_rc 0
tree_sum . >"$T/sum1"
same "$T/sum0" "$T/sum1" "the tree after the first and the second run"
