#!/usr/bin/env bash
# fix in C23's own words (issue 15): --spelling=std writes [[unsequenced]] /
# [[reproducible]] right after the declarator, on prototypes and
# definitions, for functions GNU const/pure cannot describe too (an
# out-parameter writer, a private memo); automatically for -std=c23 code
# that already writes C23 attributes; the project's macro when it has one;
# --fix-misuse weakens or removes wrong ones. The result parses with
# clang-19 -std=c23 and gcc-12 -std=c2x (both warn that they ignore the
# attribute; neither errors), and a second run changes nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# parses FILES...: clang-19 -std=c23 and gcc-12 -std=c2x accept them (no
# error; the "attribute ignored" warnings are expected).
parses() {
  local f
  for f in "$@"; do
    clang-19 -std=c23 -fsyntax-only "$f" 2>"$T/cc.err" || fail "clang-19 -std=c23 rejects $f:${NL}$(show "$T/cc.err")"
    gcc-12 -std=c2x -fsyntax-only "$f" 2>"$T/cc.err" || fail "gcc-12 -std=c2x rejects $f:${NL}$(show "$T/cc.err")"
  done
}

project() {
  rm -rf "$T/$1" && mkdir "$T/$1" && cd "$T/$1"
  printf '%s\n' "$2" >api.h
  cat >>api.h <<'EOF2'
int sq(int x);
int split(double x, int *e);
void sincos2(double x, double *s, double *c);
int first(const int *p);
int get_level(void);
int memo(int n);
int bump(int *acc);
extern int level;
EOF2
  cat >api.c <<'EOF2'
#include "api.h"
int level;
int sq(int x) { return x * x; }
int split(double x, int *e) { *e = (int)x; return x > 0; }
void sincos2(double x, double *s, double *c)
{
  *s = x;
  *c = 1 - x;
}
int first(const int *p) { return p[0]; }
int get_level(void) { return level; }
int memo(int n)
{
  static int cache = -1;
  if (cache < 0) cache = level * 3;
  return cache + n;
}
int bump(int *acc) { *acc += 1; return *acc; }
static int helper(int x) { return x + 1; }
int use_helper(int x) { return helper(x); }
EOF2
}

check "--spelling=std: after the declarator, on prototypes and definitions"
project written ''
run fix --spelling=std api.c -- -std=c23
expect_rc 0
expect_file_has api.h '^int sq\(int x\) \[\[unsequenced\]\];$'
expect_file_has api.h '^int split\(double x, int \*e\) \[\[unsequenced\]\];$'
expect_file_has api.h '^void sincos2\(double x, double \*s, double \*c\) \[\[unsequenced\]\];$'
expect_file_has api.h '^int first\(const int \*p\) \[\[unsequenced\]\];$'
expect_file_has api.h '^int get_level\(void\) \[\[reproducible\]\];$'
expect_file_has api.h '^int memo\(int n\) \[\[reproducible\]\];$'
expect_file_has api.h '^int bump\(int \*acc\);$'
expect_file_has api.c '^int sq\(int x\) \[\[unsequenced\]\] \{ return x \* x; \}$'
expect_file_has api.c '^static int helper\(int x\) \[\[unsequenced\]\] \{'
expect_file_has api.c '^void sincos2\(double x, double \*s, double \*c\) \[\[unsequenced\]\]$'
expect_file_lacks api.c 'gnu::|__attribute__'
parses api.c

check "a second run changes nothing"
before=$(tree_sum .)
run fix --spelling=std api.c -- -std=c23
expect_rc 0
[ "$before" = "$(tree_sum .)" ] || fail "the second fix --spelling=std changed files:${NL}$(show "$T/out")"

check "infer reads back what fix wrote"
run infer --format=json api.c -- -std=c23
expect_rc 0
expect_json "$T/out" split declared_c23 '"unsequenced"'
expect_json "$T/out" split c23 '"unsequenced"'
expect_json "$T/out" memo declared '"reproducible"'
expect_json "$T/out" bump c23 '"none"'

check "automatic for -std=c23 code that already writes C23 attributes, with the project's macro"
project auto '#define UNSEQ [[unsequenced]]
#define REPRO [[__reproducible__]]
int twice(int x) UNSEQ;'
printf 'int twice(int x) { return 2 * x; }\n' >>api.c
run fix api.c -- -std=c23
expect_rc 0
expect_file_has api.h '^int sq\(int x\) UNSEQ;$'
expect_file_has api.h '^int get_level\(void\) REPRO;$'
expect_file_has api.c '^int sq\(int x\) UNSEQ \{'
parses api.c

check "not automatic without -std=c23, nor when the project writes no C23 attribute"
project notstd '#define UNSEQ [[unsequenced]]
int twice(int x) UNSEQ;'
printf 'int twice(int x) { return 2 * x; }\n' >>api.c
run fix api.c -- -std=gnu17
expect_rc 0
expect_file_lacks api.h 'sq\(int x\) UNSEQ'
expect_file_has api.h '__attribute__\(\(const\)\)'
project nohabit ''
run fix api.c -- -std=c23
expect_rc 0
expect_file_lacks api.h 'unsequenced'

check "--fix-misuse: unsequenced on a reproducible body is weakened, on a writer removed"
rm -rf "$T/misuse" && mkdir "$T/misuse" && cd "$T/misuse"
cat >m.c <<'EOF2'
int level;
int hits;
int get_level(void) [[unsequenced]];
int get_level(void) { return level; }
int count(int x) [[__unsequenced__]];
int count(int x) { hits++; return x; }
EOF2
run fix --spelling=std --fix-misuse m.c -- -std=c23
expect_rc 0
expect_file_has m.c '^int get_level\(void\) \[\[reproducible\]\];$'
expect_file_has m.c '^int count\(int x\);$'
parses m.c
before=$(tree_sum .)
run fix --spelling=std --fix-misuse m.c -- -std=c23
[ "$before" = "$(tree_sum .)" ] || fail "the second --fix-misuse run changed files"
echo "ok"
