#!/usr/bin/env bash
# A header read by other compilers too (issue 29, item 6): one that tests
# _MSC_VER or __GNUC__ gets the attribute through a macro fix defines once,
# before the first declaration it edits, as __attribute__((…)) for GCC and
# Clang and as nothing for the others; a second run reuses the macro. The
# preprocessed header for a compiler without __GNUC__ (gcc -undef) holds
# no __attribute__. Near miss: a header with no such test gets the
# attribute written out, as before.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p" && cd "$T/p"
cat >api.h <<'EOF2'
#ifndef API_H
#define API_H
#if defined(_MSC_VER)
# define API_EXPORT __declspec(dllexport)
#else
# define API_EXPORT
#endif
/* Squares. */
API_EXPORT int api_square(int x);
API_EXPORT int api_cube(int x);
API_EXPORT int api_level(void);
#endif
EOF2
cat >plain.h <<'EOF2'
int plain_twice(int x);
EOF2
cat >api.c <<'EOF2'
#include "api.h"
#include "plain.h"
int api_level_value = 3;
int api_square(int x) { return x * x; }
int api_cube(int x) { return x * x * x; }
int api_level(void) { return api_level_value; }
int plain_twice(int x) { return 2 * x; }
EOF2
cat >use.c <<'EOF2'
#include "api.h"
#include "plain.h"
int use(int x) { return api_square(x) + api_square(x) + api_cube(x) + api_cube(x) + api_level() + api_level() + plain_twice(x) + plain_twice(x); }
EOF2
printf '[{"directory": "%s", "file": "%s/api.c", "command": "cc -O2 -c api.c"},\n {"directory": "%s", "file": "%s/use.c", "command": "cc -O2 -c use.c"}]\n' \
  "$T/p" "$T/p" "$T/p" "$T/p" >compile_commands.json

run fix -p . --root "$T/p"
expect_rc 0
check "fix: the guarded header gets PURIST_CONST and PURIST_PURE, each defined once before its first use"
expect_file_has api.h '^API_EXPORT int api_square\(int x\) PURIST_CONST;$'
expect_file_has api.h '^API_EXPORT int api_cube\(int x\) PURIST_CONST;$'
expect_file_has api.h '^API_EXPORT int api_level\(void\) PURIST_PURE;$'
[ "$(grep -c '^#ifndef PURIST_CONST$' api.h)" = 1 ] || fail "PURIST_CONST is not defined exactly once:${NL}$(show api.h)"
[ "$(grep -c '^#ifndef PURIST_PURE$' api.h)" = 1 ] || fail "PURIST_PURE is not defined exactly once:${NL}$(show api.h)"
def=$(grep -n '^#ifndef PURIST_CONST$' api.h | cut -d: -f1)
use=$(grep -n 'api_square(int x) PURIST_CONST' api.h | cut -d: -f1)
[ "$def" -lt "$use" ] || fail "PURIST_CONST is defined after its first use:${NL}$(show api.h)"
expect_stderr_has "api.h: note: it tests _MSC_VER or __GNUC__, so the attribute is written as PURIST_CONST"
check "fix: a header of that project with no compiler test gets the macro too, and says why"
expect_file_has plain.h '^int plain_twice\(int x\) PURIST_CONST;$'
expect_stderr_has "plain.h: note: the project is compiled by MSVC too \(api.h tests _MSC_VER\)"

check "the fixed files compile, and a compiler without __GNUC__ sees no GNU attribute"
compiles api.c use.c
gcc -E -undef -P api.h >"$T/pp.txt"
! grep -q '__attribute__' "$T/pp.txt" || fail "the header preprocessed without __GNUC__ still has __attribute__:${NL}$(show "$T/pp.txt")"
gcc -E -P api.h >"$T/pp-gnu.txt"
grep -q 'api_square(int x) __attribute__((__const__));' "$T/pp-gnu.txt" || fail "GCC does not see the attribute:${NL}$(show "$T/pp-gnu.txt")"

check "a second run keeps the header as it is: the macro is the project's now"
cp api.h "$T/api.h.once"
run fix --all -p . --root "$T/p"
expect_rc 0
cmp -s api.h "$T/api.h.once" || fail "the second fix changed api.h:${NL}$(diff "$T/api.h.once" api.h || true)"
check "fix --all: a .c definition of that project gets the macro (no prototype elsewhere)"
cat >own.c <<'EOF2'
static int own_half(int x) { return x / 2; }
int own_use(int x) { return own_half(x) + own_half(x + 1); }
EOF2
printf '[{"directory": "%s", "file": "%s/api.c", "command": "cc -O2 -c api.c"},\n {"directory": "%s", "file": "%s/own.c", "command": "cc -O2 -c own.c"}]\n' \
  "$T/p" "$T/p" "$T/p" "$T/p" >compile_commands.json
run fix --all -p . --root "$T/p"
expect_rc 0
expect_file_has own.c '^PURIST_CONST static int own_half\(int x\)'
[ "$(grep -c '^#ifndef PURIST_CONST$' own.c)" = 1 ] || fail "PURIST_CONST is not defined once in own.c:${NL}$(show own.c)"
compiles own.c

check "fix: a second #if group the first definition of the macro is outside of gets its own (opus_custom.h)"
mkdir -p "$T/r" && cd "$T/r"
cat >two.h <<'EOF2'
#ifndef TWO_H
#define TWO_H
#if defined(_MSC_VER)
# define TWO_API __declspec(dllexport)
#else
# define TWO_API
#endif
#if !defined(TWO_BUILD) || defined(TWO_ENC)
TWO_API int enc_size(int ch);
#endif
#if !defined(TWO_BUILD) || defined(TWO_DEC)
TWO_API int dec_size(int ch);
TWO_API int dec_frames(int ch);
#endif
#endif
EOF2
cat >enc.c <<'EOF2'
#define TWO_BUILD
#define TWO_ENC
#include "two.h"
int enc_size(int ch) { return 4 * ch; }
EOF2
cat >dec.c <<'EOF2'
#define TWO_BUILD
#define TWO_DEC
#include "two.h"
int dec_size(int ch) { return 8 * ch; }
int dec_frames(int ch) { return ch + 1; }
EOF2
cat >use.c <<'EOF2'
#include "two.h"
int use(int ch) { return enc_size(ch) + enc_size(ch) + dec_size(ch) + dec_size(ch) + dec_frames(ch) + dec_frames(ch); }
EOF2
printf '[{"directory": "%s", "file": "%s/enc.c", "command": "cc -O2 -c enc.c"},\n {"directory": "%s", "file": "%s/dec.c", "command": "cc -O2 -c dec.c"},\n {"directory": "%s", "file": "%s/use.c", "command": "cc -O2 -c use.c"}]\n' \
  "$T/r" "$T/r" "$T/r" "$T/r" "$T/r" "$T/r" >compile_commands.json
run fix -p . --root "$T/r"
expect_rc 0
[ "$(grep -c '^#ifndef PURIST_CONST$' two.h)" = 2 ] || fail "PURIST_CONST should be defined once per #if group:${NL}$(show two.h)"
expect_file_has two.h '^TWO_API int dec_frames\(int ch\) PURIST_CONST;$'
compiles enc.c dec.c use.c

check "fix near miss: a project testing only __GNUC__ writes the attribute out in a header that does not test"
mkdir -p "$T/q" && cd "$T/q"
cat >vis.h <<'EOF2'
#if defined(__GNUC__) && __GNUC__ >= 4
# define VIS_EXPORT __attribute__((visibility("default")))
#else
# define VIS_EXPORT
#endif
VIS_EXPORT int vis_square(int x);
EOF2
cat >plain.h <<'EOF2'
int plain_twice(int x);
EOF2
cat >lib.c <<'EOF2'
#include "vis.h"
#include "plain.h"
int vis_square(int x) { return x * x; }
int plain_twice(int x) { return 2 * x; }
EOF2
cat >use.c <<'EOF2'
#include "vis.h"
#include "plain.h"
int use(int x) { return vis_square(x) + vis_square(x) + plain_twice(x) + plain_twice(x); }
EOF2
printf '[{"directory": "%s", "file": "%s/lib.c", "command": "cc -O2 -c lib.c"},\n {"directory": "%s", "file": "%s/use.c", "command": "cc -O2 -c use.c"}]\n' \
  "$T/q" "$T/q" "$T/q" "$T/q" >compile_commands.json
run fix -p . --root "$T/q"
expect_rc 0
expect_file_has vis.h '^VIS_EXPORT int vis_square\(int x\) PURIST_CONST;$'
expect_file_has plain.h '^int plain_twice\(int x\) __attribute__\(\(const\)\);$'
compiles lib.c use.c
echo "ok"
