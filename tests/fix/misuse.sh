#!/usr/bin/env bash
# --fix-misuse (only on request): a const that should be pure is
# downgraded, a wrong attribute removed (alone, inside a list, or a macro),
# a deliberate cheat left alone; a weaker attribute than the body allows
# (pure where const holds) is a suggestion and is upgraded by default.
# --include-may-not-return gates functions that may not return. The
# results compile, and `purist check` then finds no misuse.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >m.h <<'EOF2'
#define M_CONST __attribute__((const))
int level_on(int l) __attribute__((const));
int counter_next(void) __attribute__((pure));
int deref(const int *p) __attribute__((nonnull, const));
int bump(void) M_CONST;
int cached(void) __attribute__((const));
int weaker(int x) __attribute__((pure));
int halve_to_one(int n);
void set_verbosity(int v);
int fenced(int x) __attribute__((const));
EOF2
cat >m.c <<'EOF2'
#include "m.h"
int verbosity = 1;
static int count;
int level_on(int l) { return l <= verbosity; }
int counter_next(void) { return ++count; }
int deref(const int *p) { return *p; }
int bump(void) { return count++; }
int cached(void)
{
  static int done, v;
  if (!done) { v = 42; done = 1; }
  return v;
}
int weaker(int x) { return x + 1; }
int halve_to_one(int n) { while (n > 1) n = n / 2 + (n & 1); return n; }
void set_verbosity(int v) { verbosity = v; }
int fenced(int x) { __asm__ volatile("" ::: "memory"); return x * 2; }
EOF2
cp m.h "$T/m.h.orig"

check "without --fix-misuse: wrong attributes stay; pure upgraded to const; may-not-return gated"
run fix m.c
expect_rc 0
expect_file_has m.h '^int level_on\(int l\) __attribute__\(\(const\)\);$'
expect_file_has m.h '^int counter_next\(void\) __attribute__\(\(pure\)\);$'
expect_file_has m.h '^int weaker\(int x\) __attribute__\(\(const\)\);$'
expect_file_has m.h '^int halve_to_one\(int n\);$'
expect_stdout_has "^m\.h:7:5: 'weaker': pure -> const$"
expect_stderr_has "^m\.c:15:5: note: 'halve_to_one' is const only if it is known to return normally; not edited without --include-may-not-return$"

check "--fix-misuse: const -> pure, removal alone / in a list / of a macro; the cheat stays"
run fix --fix-misuse m.c
expect_rc 0
expect_file_has m.h '^int level_on\(int l\) __attribute__\(\(pure\)\);$'
expect_file_has m.h '^int counter_next\(void\);$'
expect_file_has m.h '^int deref\(const int \*p\) __attribute__\(\(nonnull, pure\)\);$'
expect_file_has m.h '^int bump\(void\);$'
expect_file_has m.h '^int cached\(void\) __attribute__\(\(const\)\);$'
expect_stdout_has "^m\.h:3:5: 'counter_next': remove pure$"
expect_stdout_has "^m\.h:2:5: 'level_on': const -> pure$"
expect_stderr_has "^m\.c:8:5: note: 'cached' cheats deliberately \(see purist check\); its attribute is left alone$"
expect_file_has m.h '^int fenced\(int x\) __attribute__\(\(const\)\);$'   # a compiler barrier only
expect_stderr_has "^m\.c:17:5: note: 'fenced' is beyond its attribute only by a compiler barrier"
compiles m.c

check "purist check finds no misuse left (the cheat is a note)"
run check m.c
expect_rc 0
expect_stdout_lacks 'error:'

check "--include-may-not-return applies the gated suggestion"
run fix --include-may-not-return m.c
expect_rc 0
expect_file_has m.h '^int halve_to_one\(int n\) M_CONST;$'   # the project's macro
compiles m.c

check "a second run with every option changes nothing"
cp m.h "$T/m.h.1"; cp m.c "$T/m.c.1"
run fix --fix-misuse --include-may-not-return m.c
expect_rc 0
expect_stdout_empty
same "$T/m.h.1" m.h "m.h after the first and second run"
same "$T/m.c.1" m.c "m.c after the first and second run"
echo "ok"
