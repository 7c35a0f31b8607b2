#!/usr/bin/env bash
# A project's attribute macro is used by fix however its definition is
# written: over two lines (a line splice, also one splitting the word
# __attribute__) and as another attribute macro's name; a macro that is
# no attribute is not taken for one. The front end reads a macro's tokens only when its
# definition's line can hold an attribute (fixfacts.c, ff_may_be_attr):
# each of these must still be read.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# project DIR HEADER-PROLOGUE: api.h declares sq (const) and total (pure)
# after PROLOGUE; api.c defines them.
project() {
  rm -rf "$T/$1" && mkdir "$T/$1" && cd "$T/$1"
  printf '%s\n' "$2" >api.h
  cat >>api.h <<'EOF2'
int sq(int x);
int total(const int *v, int n);
EOF2
  cat >api.c <<'EOF2'
#include "api.h"
int sq(int x) { return x * x; }
int total(const int *v, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
EOF2
}

check "a macro whose attribute is on the next line (a line splice)"
project splice '#define MY_PURE \
  __attribute__((pure))
#define MY_CONST \
  __attribute__((__const__))'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) MY_CONST;$'
expect_file_has api.h '^int total\(const int \*v, int n\) MY_PURE;$'
compiles api.c

check "a line splice inside the word __attribute__"
project split_word '#define MY_CONST __attri\
bute__((const))'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) MY_CONST;$'
compiles api.c

check "a macro naming another attribute macro (--spelling=macro: takes only attribute macros)"
project alias '#define BASE_CONST __attribute__((const))
#define API_CONST BASE_CONST'
run fix --spelling=macro:API_CONST api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) API_CONST;$'
compiles api.c

check "a line with no attribute: plain macros are not taken for one"
project plain '#define MY_ONE 1
#define MY_NAME "pure"
#define MY_EXPR (2 + 3)'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute__\(\(const\)\);$'
compiles api.c

echo "ok"
