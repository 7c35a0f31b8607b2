#!/usr/bin/env bash
# A definition without the attribute its prototype carries is complete
# (issue 35 item 7): GNU style, as gnulib writes _GL_ATTRIBUTE_PURE on
# prototypes only, and GCC gives a definition the attributes of the
# declarations before it. fix --all added it again to each such
# definition (six edits on sed where suggest showed none). A prototype
# without the attribute its definition has is still completed (a fix
# interrupted between a .c and its header).
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/p" && cd "$T/p"
cat >api.h <<'C'
#ifndef API_H
#define API_H
int api_square(int x) __attribute__((const));
int api_length(const char *s) __attribute__((pure));
int api_next(int x);
int api_half(int x);
#endif
C
cat >api.c <<'C'
#include "api.h"
int api_square(int x) { return x * x; }
int api_length(const char *s) { int n = 0; for (int i = 0; i < 64 && s[i]; i++) n++; return n; }
int api_next(int x) { return api_square(x) + 1; }
__attribute__((const)) int api_half(int x) { return x / 2; }
C
cat >main.c <<'C'
#include "api.h"
int main(void) { return api_square(2) + api_length("ab") + api_next(1) + api_half(4); }
C
printf '[{"directory":"%s","file":"api.c","arguments":["cc","-c","api.c"]},{"directory":"%s","file":"main.c","arguments":["cc","-c","main.c"]}]\n' "$PWD" "$PWD" >compile_commands.json

check "suggest shows nothing for the functions whose prototype carries the attribute"
run suggest -p . --all
expect_rc 0
expect_stdout_lacks "api_square|api_length"

check "fix --all: no edit of a definition whose prototype has the attribute; the prototype its definition has completed"
run fix -p . --all --dry-run
expect_rc 0
expect_stdout_lacks "^\+.*int api_square\(int x\) \{"
expect_stdout_lacks "^\+.*int api_length\(const char \*s\) \{"
expect_stdout_has "^\+int api_half\(int x\) __attribute__\(\(const\)\);$"
expect_stdout_has "^\+int api_next\(int x\) __attribute__\(\(const\)\);$"
run fix -p . --all
expect_rc 0
expect_stderr_has "^purist: fix: 3 edits in 2 files$"
expect_file_has api.c '^int api_square\(int x\) \{ return x \* x; \}$'
expect_file_has api.c '^int api_length\(const char \*s\)'
expect_file_lacks api.c 'attribute__\(\(pure\)\) int api_length'
compiles api.c main.c

check "a second fix --all changes nothing"
tree_sum . >"$T/sum0"
run fix -p . --all
expect_rc 0
expect_stderr_has "^purist: fix: 0 edits in 0 files$"
tree_sum . >"$T/sum1"
same "$T/sum0" "$T/sum1" "the tree after a second fix --all"
echo ok
