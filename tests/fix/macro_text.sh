#!/usr/bin/env bash
# A project's attribute macro is used by fix however its definition is
# written: over two lines (a line splice, also one splitting the word
# __attribute__) and as another attribute macro's name; a macro that is
# no attribute is not taken for one. The front end reads a macro's tokens only when its
# definition's line can hold an attribute (fixfacts.c, ff_may_be_attr):
# each of these must still be read.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

check "a macro whose attribute is on the next line (a line splice)"
api_project splice '#define MY_PURE \
  __attribute__((pure))
#define MY_CONST \
  __attribute__((__const__))'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) MY_CONST;$'
expect_file_has api.h '^int total\(const int \*v, int n\) MY_PURE;$'
compiles api.c

check "a line splice inside the word __attribute__"
api_project split_word '#define MY_CONST __attri\
bute__((const))'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) MY_CONST;$'
compiles api.c

check "a macro naming another attribute macro (--spelling=macro: takes only attribute macros)"
api_project alias '#define BASE_CONST __attribute__((const))
#define API_CONST BASE_CONST'
run fix --spelling=macro:API_CONST api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) API_CONST;$'
compiles api.c

check "a line with no attribute: plain macros are not taken for one"
api_project plain '#define MY_ONE 1
#define MY_NAME "pure"
#define MY_EXPR (2 + 3)'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute__\(\(const\)\);$'
compiles api.c

echo "ok"
