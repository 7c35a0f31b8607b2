#!/usr/bin/env bash
# Shared include prefixes (issue 32 item 1): TUs that start with the same
# #include lines (and simple #defines before them) under the same flags are
# parsed with one precompiled header of those lines, built once a second TU
# starts so, and every output is byte-identical to a run without sharing
# (the default; PURIST_PCH=1 turns sharing on): infer's JSON, check,
# suggest --all, fix --dry-run, the cache's dependency lists (a header edit
# still invalidates). A header without an include guard is shared too (the
# main file's prefix lines are blanked, not skipped by guards); a #define
# that steers a header is part of the prefix; errors in the prefix are
# parsed as before.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
unset PURIST_CACHE_DIR PURIST_PCH_DIR
export PURIST_PCH=1
P=$T/p
mkdir -p "$P/src" "$P/include"
cat >"$P/include/base.h" <<'H'
#ifndef BASE_H
#define BASE_H
#include <stddef.h>
#include <string.h>
#define PURE_FN __attribute__((pure))
#define CONST_FN __attribute__((const))
#define SQUARE_BODY(x) { return (x) * (x); }
#define GETTER(name, field) static inline int name(const struct box *b) { return b->field; }
struct box { int w, h; const char *label; };
static inline int box_area(const struct box *b) { return b->w * b->h; }
static inline int twice(int x) { return x + x; }
static inline int sq(int x) SQUARE_BODY(x)
GETTER(box_w, w)
GETTER(box_h, h)
extern int counter;
int bump(void);
#ifdef FEATURE_X
#define FEATURE_VALUE counter
#else
#define FEATURE_VALUE 7
#endif
int label_len(const struct box *b) PURE_FN;
int cube(int x) CONST_FN;
int wrong_const(const struct box *b) CONST_FN;
__attribute__((noreturn)) void die(const char *why);
#endif
H
cat >"$P/include/util.h" <<'H'
#pragma once
#include "base.h"
static inline size_t span(const char *a, const char *b) { return (size_t)(b - a); }
int sum_boxes(const struct box *v, int n);
H
cat >"$P/include/noguard.h" <<'H'
static inline int unguarded_helper(int x) { return x - 1; }
H
cat >"$P/src/a.c" <<'C'
/* a.c: the usual prefix */
#include "base.h"
#include "util.h"   /* a comment on the line */
#include <stdlib.h>

int counter;
int bump(void) { return ++counter; }
int label_len(const struct box *b) { return (int)strlen(b->label); }
int cube(int x) { return x * x * x; }
int wrong_const(const struct box *b) { return b->w; }
int area_of(const struct box *b) { return box_area(b) + twice(sq(b->h)) + box_w(b); }
C
cat >"$P/src/b.c" <<'C'
// b.c: the same prefix, another comment above it

#include "base.h"
#include "util.h"   /* a comment on the line */
#include <stdlib.h>
#define LOCAL_SQ(v) sq(v)
int sum_boxes(const struct box *v, int n) { int s = 0; for (int i = 0; i < n; i++) s += box_area(&v[i]); return s; }
int uses_counter(void) { return counter + box_h(NULL); }
int local_sq(int v) { return LOCAL_SQ(v) + twice(v); }
void stop(void) { die("stop"); }
size_t first_span(const char *s) { return span(s, s + strlen(s)); }
C
cat >"$P/src/c.c" <<'C'
#include "base.h"
#include "noguard.h"
int c_fn(int x) { return unguarded_helper(x) + cube(x); }
C
cat >"$P/src/f.c" <<'C'
#include "base.h"
#include "noguard.h"
int f_fn(int x) { return unguarded_helper(x) * 2; }
C
cat >"$P/src/g.c" <<'C'
#define FEATURE_X
#include "base.h"
int g_fn(void) { return FEATURE_VALUE; }
C
cat >"$P/src/h.c" <<'C'
#define FEATURE_X
#include "base.h"
int h_fn(void) { return FEATURE_VALUE + 1; }
C
cat >"$P/src/i.c" <<'C'
#include "base.h"
int i_fn(void) { return FEATURE_VALUE + 2; }
C
cat >"$P/src/d.c" <<'C'
#define D_LOCAL 1
#include "base.h"
#include "util.h"   /* a comment on the line */
#include <stdlib.h>
int d_fn(int x) { return D_LOCAL + sq(x); }
C
cat >"$P/src/e.c" <<'C'
#include "base.h"
#include "util.h"   /* a comment on the line */
#include <stdlib.h>
int e_fn(const struct box *b) { return label_len(b) + wrong_const(b); }
int e_rand(void) { return rand(); }
C
: >"$P/compile_commands.json.tmp"
{
  echo '['
  sep=''
  for f in a b c d e f g h i; do
    printf '%s{"directory": "%s", "file": "src/%s.c", "command": "cc -O2 -Iinclude -DNDEBUG -c src/%s.c -o %s.o"}\n' \
      "$sep" "$P" "$f" "$f" "$f"
    sep=','
  done
  echo ']'
} >"$P/compile_commands.json"
rm -f "$P/compile_commands.json.tmp"
cd "$P"

# outputs NAME: infer's JSON, check's and suggest --all's reports into $T/NAME.*
outputs() {
  local name=$1; shift
  run infer -p . --format=json --no-cache -j1 "$@"; expect_rc 0; cp "$T/out" "$T/$name.infer"
  run check -p . --no-cache -j1 "$@"; cp "$T/out" "$T/$name.check"; echo "$RC" >"$T/$name.check.rc"
  run suggest --all -p . --no-cache -j1 "$@"; cp "$T/out" "$T/$name.suggest"; echo "$RC" >"$T/$name.suggest.rc"
  run fix --all --dry-run -p . --no-cache -j1 "$@"; cp "$T/out" "$T/$name.fix"; echo "$RC" >"$T/$name.fix.rc"
}

check "infer, check and suggest --all: the same bytes with shared prefixes and without (PURIST_PCH unset)"
PURIST_PCH= outputs off
outputs on
for k in infer check check.rc suggest suggest.rc fix fix.rc; do
  same "$T/off.$k" "$T/on.$k" "$k without sharing and with it"
done
grep -q '"area_of"' "$T/on.infer" || fail "infer's JSON lacks area_of${NL}$(show "$T/on.infer")"
grep -q 'wrong_const' "$T/on.check" || fail "check does not report wrong_const${NL}$(show "$T/on.check")"
grep -q '"g_fn"[^}]*"class": *"pure"' "$T/on.infer" || fail "g_fn (FEATURE_X defined first) is not pure${NL}$(show "$T/on.infer")"
grep -q '"i_fn"[^}]*"class": *"const"' "$T/on.infer" || fail "i_fn (no FEATURE_X) is not const${NL}$(show "$T/on.infer")"

check "the prefixes were shared: PCHs in the cache, none refused for an unguarded header"
run infer -p . --format=json -j1 --stats; expect_rc 0
same "$T/off.infer" "$T/out" "infer through the cache"
npch=$(find "$XC/pch" -name '*.pch' | wc -l)
[ "$npch" -ge 2 ] || fail "expected PCHs in $XC/pch, found $npch:${NL}$(ls -la "$XC/pch")"
nno=$(grep -lx 'no' "$XC/pch"/*.meta | wc -l || true)
[ "$nno" -eq 0 ] || fail "expected no refusal, got $nno:${NL}$(grep -A1 -x no "$XC/pch"/*.meta)"
grep -q 'include/base.h$' "$XC/pch"/*.meta || fail "no PCH's record lists base.h"

check "a warm run with the PCH still in the store: the same bytes, every TU from the cache"
run infer -p . --format=json -j1 --stats; expect_rc 0
same "$T/off.infer" "$T/out" "infer warm"
expect_stderr_has 'purist: cache: 9 hits, 0 misses, 0 parsed'

touch "$T/before-edit"; sleep 1
check "a header edit invalidates the TUs that include it (the PCH's files are in their dependency lists)"
sed -i 's/static inline int twice(int x) { return x + x; }/static inline int twice(int x) { int bump(void); return x + bump(); }/' include/base.h
run infer -p . --format=json -j1 --stats; expect_rc 0; cp "$T/out" "$T/edited.on"
expect_stderr_has 'purist: cache: 0 hits, 9 misses, 9 parsed'
PURIST_PCH= run infer -p . --format=json --no-cache -j1; cp "$T/out" "$T/edited.off"
same "$T/edited.off" "$T/edited.on" "infer after the header edit, without sharing and with it"
grep -q '"box_area"' "$T/edited.on" || fail "box_area missing after the edit"
! cmp -s "$T/edited.on" "$T/off.infer" || fail "the header edit changed nothing in infer's output"
for f in "$XC/pch"/*.pch; do
  [ "$f" -nt "$T/before-edit" ] || fail "the PCH of the edited prefix was not built again: $f"
done

check "without a cache (--no-cache) the run's PCHs go to a temporary directory, removed at the end"
before=$(ls "${TMPDIR:-/tmp}" | grep -c '^purist-pch\.' || true)
run infer -p . --format=json --no-cache -j1; expect_rc 0
after=$(ls "${TMPDIR:-/tmp}" | grep -c '^purist-pch\.' || true)
[ "$after" -le "$before" ] || fail "a purist-pch.* directory was left in ${TMPDIR:-/tmp}"

check "an error in a shared header: the same messages and exit status as without sharing"
echo 'int broken(void) { return undeclared_thing; }' >>include/util.h
PURIST_PCH= run infer -p . --format=json --no-cache -j1; cp "$T/out" "$T/err.off.out"; sed "s|$P|P|g" "$T/err" >"$T/err.off.err"; rc_off=$RC
run infer -p . --format=json --no-cache -j1; sed "s|$P|P|g" "$T/err" >"$T/err.on.err"
[ "$RC" = "$rc_off" ] || fail "exit status $RC with sharing, $rc_off without"
same "$T/err.off.out" "$T/out" "infer's JSON with an error in a header"
same "$T/err.off.err" "$T/err.on.err" "the messages with an error in a header"
echo "pch_prefix: ok"
