#!/usr/bin/env bash
# How fix spells an attribute: the project's own macro (written out as
# __attribute__ or as [[gnu::]]), a system header's macro the project
# already writes (__attribute_const__), [[gnu::]] when that is the
# project's habit, else __attribute__((…)); and --spelling=gnu|c23|
# macro:NAME[,NAME] to choose. Each result compiles with gcc-12 and
# clang-19 at -Wall -Werror.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

check "a project macro written as __attribute__((…)) is used, after the declarator"
api_project macro_gnu '#define MY_PURE __attribute__((pure))
#define MY_CONST __attribute__((__const__))'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) MY_CONST;$'
expect_file_has api.h '^int total\(const int \*v, int n\) MY_PURE;$'
expect_file_has api.c '^MY_CONST int sq\(int x\)'
compiles api.c

check "a project macro written as [[gnu::const]] goes before the declaration"
api_project macro_c23 '#define MY_C [[gnu::const]]'
run fix api.c
expect_rc 0
expect_file_has api.h '^MY_C int sq\(int x\);$'
expect_file_has api.h '^int total\(const int \*v, int n\) __attribute__\(\(pure\)\);$'
CFLAGS_EXTRA=-std=gnu2x compiles api.c

check "a project that writes [[gnu::…]] gets [[gnu::…]]"
api_project habit_c23 '[[gnu::const]] int twice(int x);
[[gnu::const]] int twice(int x);'
run fix api.c
expect_rc 0
expect_file_has api.h '^\[\[gnu::const\]\] int sq\(int x\);$'
expect_file_has api.h '^\[\[gnu::pure\]\] int total\(const int \*v, int n\);$'
expect_file_has api.c '^\[\[gnu::const\]\] int sq\(int x\)'
CFLAGS_EXTRA=-std=gnu2x compiles api.c

check "a system header's macro is used only if the project already writes it"
api_project system_macro '#include <sys/cdefs.h>
int twice(int x) __attribute_const__;'
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute_const__;$'
expect_file_has api.h '^int total\(const int \*v, int n\) __attribute__\(\(pure\)\);$'
compiles api.c

check "no habit at all: __attribute__((…))"
api_project plain ''
run fix api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute__\(\(const\)\);$'
expect_file_has api.c '^__attribute__\(\(pure\)\) int total\(const int \*v, int n\)$'
compiles api.c

check "--spelling=gnu and --spelling=c23 override what the project uses"
api_project force_gnu '#define MY_CONST __attribute__((const))'
run fix --spelling=gnu api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute__\(\(const\)\);$'
api_project force_c23 '#define MY_CONST __attribute__((const))'
run fix --spelling=c23 api.c
expect_rc 0
expect_file_has api.h '^\[\[gnu::const\]\] int sq\(int x\);$'
expect_file_has api.c '^\[\[gnu::pure\]\] int total\(const int \*v, int n\)$'
CFLAGS_EXTRA=-std=gnu2x compiles api.c

check "--spelling=macro:A,B: each macro for the attribute it expands to, in either order"
api_project force_macro '#define A_CONST __attribute__((const))
#define B_PURE __attribute__((pure))
#define C_PURE __attribute__((pure))'
run fix --spelling=macro:C_PURE,A_CONST api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) A_CONST;$'
expect_file_has api.h '^int total\(const int \*v, int n\) C_PURE;$'
compiles api.c

check "--spelling=macro:NAME the project does not define: one clear line, exit 2, nothing written"
api_project no_macro ''
cp api.h "$T/h0"
run fix --spelling=macro:NOPE api.c
expect_usage_error "^purist: --spelling=macro:NOPE: the analysed code defines no macro NOPE that expands to exactly"
same "$T/h0" api.h "api.h before and after the refused run"
run fix --spelling=bogus api.c
expect_usage_error "^purist: --spelling wants gnu, c23, std or macro:NAME\[,NAME\], not 'bogus'$"

check "a requested macro defined only after a declaration is not used there (note), but after it"
api_project late_macro ''
cat >>api.h <<'EOF2'
#define LATE_CONST __attribute__((const))
int cube(int x);
EOF2
echo 'int cube(int x) { return x * x * x; }' >>api.c
run fix --spelling=macro:LATE_CONST api.c
expect_rc 0
expect_file_has api.h '^int sq\(int x\) __attribute__\(\(const\)\);$'
expect_file_has api.h '^int cube\(int x\) LATE_CONST;$'
expect_stderr_has "^api\.h:2:5: note: macro LATE_CONST is not defined before this declaration"
compiles api.c
echo "ok"
