#!/usr/bin/env bash
# Where fix puts an attribute, per form of declaration, and that each
# placement compiles with gcc-12 and clang-19 at -Wall -Werror: after the
# declarator of a prototype (also a multi-line one, one with attributes
# already, `extern`, two declarators in one declaration), before the
# return type of a definition (also `static inline`, the return type on
# its own line), after attribute macros that expand to nothing in this
# configuration (`int f(int) OPT_CONST;`), a name a prefixing macro
# renames (`#define f lib_f`, written as f). A prototype made by a
# function-like macro and a K&R definition are left alone with a note.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >forms.h <<'EOF2'
#ifndef FORMS_H
#define FORMS_H
#define DECLARE_GETTER(name) int name(int)
extern int f_extern(int x);
int f_multi(const int *v,
            int n);
int f_attrs(const int *p) __attribute__((nonnull(1)))
    __attribute__((warn_unused_result));
DECLARE_GETTER(f_macro);
int f_one(int a), f_two(int b);
#define OPT_EMPTY
#define OPT_ATTRS(a)
int f_empty(int x) OPT_EMPTY;
int f_empty_args(int x) OPT_ATTRS(const) /* configured out */;
#define f_renamed lib_f_renamed   /* a prefixing macro, as nettle's and GMP's */
int f_renamed(int x);
#define LIB_NAME(x) lib_##x
#define f_pasted LIB_NAME(f_pasted)   /* GMP's #define mpn_add_n __MPN(add_n) */
int f_pasted(int x);
#endif
EOF2
cat >forms.c <<'EOF2'
#include "forms.h"
extern int f_extern(int x);
int f_extern(int x) { return x + 1; }
int f_multi(const int *v, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
int
f_attrs(const int *p)
{
  return *p;
}
int f_macro(int x) { return x; }
int f_one(int a) { return a; }
int f_two(int b) { return -b; }
int f_empty(int x) { return x * 5; }
int f_empty_args(int x) { return x * 7; }
int f_renamed(int x) { return x * 9; }
int f_pasted(int x) { return x * 11; }
static inline int f_static_inline(int a) { return a * 3; }
static int f_static(int a);
static int f_static(int a) { return f_static_inline(a) + 1; }
int use(int x)
{
  int v[2] = { x, x };
  return f_extern(x) + f_multi(v, 2) + f_attrs(v) + f_macro(x) + f_one(x) + f_two(x) + f_static(x) + f_empty(x) + f_empty_args(x) + f_renamed(x) + f_pasted(x);
}
EOF2
cat >knr.c <<'EOF2'
int knr_add(a, b)
  int a;
  int b;
{
  return a + b;
}
EOF2
cp knr.c "$T/knr.orig"

run fix --all forms.c knr.c
expect_rc 0

check "prototypes: after the declarator (extern, multi-line, existing attributes, two declarators)"
expect_file_has forms.h '^extern int f_extern\(int x\) __attribute__\(\(const\)\);$'
expect_file_has forms.h '^            int n\) __attribute__\(\(pure\)\);$'
expect_file_has forms.h '^    __attribute__\(\(warn_unused_result\)\) __attribute__\(\(pure\)\);$'
expect_file_has forms.h '^int f_one\(int a\) __attribute__\(\(const\)\), f_two\(int b\) __attribute__\(\(const\)\);$'
expect_file_has forms.c '^extern int f_extern\(int x\) __attribute__\(\(const\)\);$'
expect_file_has forms.c '^static int f_static\(int a\) __attribute__\(\(const\)\);$'

check "prototypes ending in attribute macros that expand to nothing: after them, before the ';'"
expect_file_has forms.h '^int f_empty\(int x\) OPT_EMPTY __attribute__\(\(const\)\);$'
expect_file_has forms.h '^int f_empty_args\(int x\) OPT_ATTRS\(const\) __attribute__\(\(const\)\) /\* configured out \*/;$'

check "definitions: before the return type (static inline, return type on its own line)"
expect_file_has forms.c '^__attribute__\(\(const\)\) int f_extern\(int x\) \{ return x \+ 1; \}$'
expect_file_has forms.c '^__attribute__\(\(pure\)\) int f_multi\(const int \*v, int n\)$'
expect_file_has forms.c '^__attribute__\(\(pure\)\) int$'
expect_file_has forms.c '^__attribute__\(\(const\)\) static inline int f_static_inline\(int a\)'
expect_file_has forms.c '^__attribute__\(\(const\)\) static int f_static\(int a\) \{'

check "a name an object-like macro renames (#define f_renamed lib_f_renamed) is edited as written"
expect_file_has forms.h '^int f_renamed\(int x\) __attribute__\(\(const\)\);$'
expect_file_has forms.c '^__attribute__\(\(const\)\) int f_renamed\(int x\) \{'
expect_file_has forms.h '^int f_pasted\(int x\) __attribute__\(\(const\)\);$'

check "a prototype made by a function-like macro is left alone, and so is the definition, with a note"
expect_file_has forms.h '^DECLARE_GETTER\(f_macro\);$'
expect_stderr_has "^forms\.h:9:1: note: 'f_macro' is not edited: this prototype, the one other files see, cannot be: its name comes from a macro"
expect_file_has forms.c '^int f_macro\(int x\)'

check "a K&R definition is left alone, with a note saying what to do"
same "$T/knr.orig" knr.c "knr.c before and after fix"
expect_stderr_has "^knr\.c:1:5: note: 'knr_add' is not edited: it is a K&R-style definition \(give it a prototype first\)$"
expect_stderr_has '^purist: fix: 23 edits in 2 files$'

check "every placement compiles with gcc-12 and clang-19 at -Wall -Wextra -Werror"
compiles forms.c

check "infer sees every attribute fix wrote: the classes, declared"
run infer --format=json forms.c
expect_rc 0
classes "$T/out" >"$T/cls"
for f in f_extern f_one f_two f_static f_static_inline f_empty f_empty_args lib_f_renamed lib_f_pasted use; do
  grep -qx "$f const const" "$T/cls" || fail "$f not declared const:${NL}$(show "$T/cls")"
done
for f in f_multi f_attrs; do
  grep -qx "$f pure pure" "$T/cls" || fail "$f not declared pure:${NL}$(show "$T/cls")"
done

check "idempotent: a second run edits nothing"
cp forms.h "$T/h1"; cp forms.c "$T/c1"
run fix --all forms.c knr.c
expect_rc 0
expect_stdout_empty
same "$T/h1" forms.h "forms.h after the first and second run"
same "$T/c1" forms.c "forms.c after the first and second run"
check "every prototype made by a macro: the definition is left alone too, the note says why (pcre2.h)"
mkdir -p "$T/m" && cd "$T/m"
cat >api.h <<'EOF2'
#define API_FUNCTIONS \
int api_width(const int *w); \
int api_scale(int x);
API_FUNCTIONS
EOF2
cat >api.c <<'EOF2'
#include "api.h"
int api_width(const int *w) { return *w; }
int api_scale(int x) { return 3 * x; }
EOF2
cat >use.c <<'EOF2'
#include "api.h"
int use(const int *w) { return api_width(w) + api_width(w) + api_scale(*w) + api_scale(*w); }
EOF2
printf '[{"directory": "%s", "file": "%s/api.c", "command": "cc -O2 -c api.c"},\n {"directory": "%s", "file": "%s/use.c", "command": "cc -O2 -c use.c"}]\n' \
  "$T/m" "$T/m" "$T/m" "$T/m" >compile_commands.json
cp api.c "$T/api.c.before"
run fix -p . --root "$T/m"
expect_rc 0
same "$T/api.c.before" api.c "api.c (an attribute on the definitions gains nothing in use.c)"
expect_stderr_has "api.h:4:1: note: 'api_width' is not edited: this prototype, the one other files see, cannot be: its name comes from a macro \\(edit the macro by hand\\); pure on the definition alone"
expect_stderr_has "'api_scale' is not edited: this prototype"
echo "ok"
