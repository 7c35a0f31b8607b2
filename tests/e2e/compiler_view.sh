#!/usr/bin/env bash
# The build compiler's view of the preprocessor (issue 14.5): a compile
# command that runs GCC is parsed with that GCC's predefined macros (no
# __clang__, GCC's __GNUC__, the command's -O/-std/-m flags), so attribute
# macros guarded on the compiler count as the build compiles them;
# --compiler-view=clang parses with libclang's own. Each distinct compiler
# and flag set is asked once; a TU the GCC view cannot parse falls back to
# clang's and says so; a compiler that cannot be run is said once.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
command -v gcc >/dev/null || fail "gcc is not installed (scripts/deps.sh)"

mkdir -p "$T/p" "$T/bin" && cd "$T/p"
cat >attrs.h <<'EOF2'
#if defined(__GNUC__) && !defined(__clang__)
#define GCC_CONST __attribute__((const))
#else
#define GCC_CONST
#endif
#if defined(__clang__)
#define CLANG_PURE __attribute__((pure))
#else
#define CLANG_PURE
#endif
#if __GNUC__ >= 5
#define NEW_PURE __attribute__((pure))
#else
#define NEW_PURE
#endif
#ifdef __OPTIMIZE__
#define OPT_CONST __attribute__((const))
#else
#define OPT_CONST
#endif
EOF2
cat >a.c <<'EOF2'
#include "attrs.h"
int level = 1;
void set_level(int l) { level = l; }
int scaled(int x) GCC_CONST;
int scaled(int x) { return x * level; }
int bumped(int x) CLANG_PURE;
int bumped(int x) { level += x; return level; }
int reset(int x) NEW_PURE;
int reset(int x) { level = x; return 0; }
EOF2
cat >b.c <<'EOF2'
#include "attrs.h"
extern int level;
int opt_read(int x) OPT_CONST;
int opt_read(int x) { return x + level; }
EOF2
# db FILE-FLAGS...: compile_commands.json running $CC on a.c and b.c.
db() {
  local b_flags=$1
  cat >compile_commands.json <<EOF2
[{"directory": "$T/p", "file": "a.c", "arguments": ["$CC", "-c", "a.c"]},
 {"directory": "$T/p", "file": "b.c", "arguments": ["$CC", $b_flags "-c", "b.c"]}]
EOF2
}

check "build view (default): the GCC-only attribute macro is seen, misuse reported"
CC=gcc db '"-O2",'
run check -p . --no-cache --stats
expect_rc 1
expect_stdout_has "'scaled' is declared const but reads global 'level'"
expect_stdout_has "'reset' is declared pure but writes global 'level'"
expect_stdout_lacks "'bumped'"
expect_stdout_has "'opt_read' is declared const but reads global 'level'"
expect_stderr_has '^purist: compiler view: 2 parsed with GCC.s macros, 0 fell back to clang.s, 0 with clang.s$'

check "--compiler-view=clang: clang's macros (__clang__, __GNUC__ 4): the other attributes"
run check -p . --no-cache --compiler-view=clang --stats
expect_rc 1
expect_stdout_lacks "'scaled'|'reset'"
expect_stdout_has "'bumped' is declared pure but writes global 'level'"
expect_stderr_has 'compiler view: 0 parsed with GCC.s macros, 0 fell back to clang.s, 2 with clang.s$'

check "the command's flags reach the compiler: without -O2 there is no __OPTIMIZE__"
CC=gcc db ''
run check -p . --no-cache
expect_rc 1
expect_stdout_lacks "'opt_read'"
expect_stdout_has "'scaled' is declared const"

check "flags in an @response file reach the compiler too; its -o and sources do not"
printf -- '-O2 -o should-not-exist.o b.c\n' >flags.rsp
CC=gcc db '"@flags.rsp",'
run check -p . --no-cache
expect_rc 1
expect_stdout_has "'opt_read' is declared const but reads global 'level'"
[ ! -e should-not-exist.o ] || fail "the response file's -o was passed to gcc -dM -E"
rm -f flags.rsp

check "-std=c23 (clang 19's name) is asked as -std=c2x, which GCC 12 knows: no fallback"
CC=gcc db '"-std=c23",'
run check -p . --no-cache --stats
expect_rc 1
! grep -Eq 'fell back to clang.s view|failed \(exit' "$T/err" || fail "the GCC view should not fail${NL}$(context)"
expect_stderr_has '^purist: compiler view: 2 parsed with GCC.s macros'

check "a bad --compiler-view is a usage error"
run check -p . --compiler-view=icc
expect_usage_error 'compiler-view wants build or clang'

check "a target-prefixed gcc is asked, once per distinct flag set; its own macros are built-in"
cat >"$T/bin/x86_64-linux-gnu-gcc" <<EOF2
#!/bin/sh
echo "\$*" >>"$T/asked"
case " \$* " in
  *" -dM "*) gcc "\$@" && echo '#define VENDOR_PURE __attribute__((pure))' ;;
  *) exec gcc "\$@" ;;
esac
EOF2
chmod +x "$T/bin/x86_64-linux-gnu-gcc"
cat >c.c <<'EOF2'
int first(const int *v) VENDOR_PURE;
int first(const int *v) { return v[0]; }
int second(const int *v) { return v[1]; }
EOF2
cat >compile_commands.json <<EOF2
[{"directory": "$T/p", "file": "a.c", "arguments": ["$T/bin/x86_64-linux-gnu-gcc", "-I.", "-c", "a.c"]},
 {"directory": "$T/p", "file": "b.c", "arguments": ["$T/bin/x86_64-linux-gnu-gcc", "-I.", "-DX=1", "-c", "b.c"]},
 {"directory": "$T/p", "file": "c.c", "arguments": ["ccache", "$T/bin/x86_64-linux-gnu-gcc", "-O1", "-c", "c.c"]}]
EOF2
rm -f "$T/asked"
run infer -p . --no-cache --format=json -j 1
expect_rc 0
expect_json "$T/out" first declared '"pure"'
[ "$(wc -l <"$T/asked")" -eq 2 ] || fail "expected 2 questions (no flags; -O1), got:${NL}$(show "$T/asked")"
grep -q -- '-O1 -dM -E -x c /dev/null' "$T/asked" || fail "-O1 should be passed:${NL}$(show "$T/asked")"
! grep -q -- '-DX' "$T/asked" || fail "-D is the command line's, not asked:${NL}$(show "$T/asked")"

check "fix does not write the compiler's own macro into a file that does not use it"
mkdir -p "$T/q" && cd "$T/q"
printf 'int third(const int *v) { return v[2]; }\n' >q.c
cat >compile_commands.json <<EOF2
[{"directory": "$T/q", "file": "q.c", "arguments": ["$T/bin/x86_64-linux-gnu-gcc", "-c", "q.c"]}]
EOF2
run fix --all -p . --no-cache --dry-run
expect_rc 0
expect_stdout_has '^\+__attribute__\(\(pure\)\) int third'
expect_stderr_has 'macro VENDOR_PURE is predefined by the compiler, not defined in a source file'
cd "$T/p"

check "a -D of a name GCC predefines wins, as in GCC"
cat >d.c <<'EOF2'
#if __GNUC__ == 99
int ninety_nine(const int *v) __attribute__((pure));
#endif
int ninety_nine(const int *v) { return *v; }
EOF2
run infer --format=json d.c -- -D__GNUC__=99
expect_ok
expect_json "$T/out" ninety_nine declared '"pure"'

check "a TU GCC's macros make unparsable falls back to clang's view, and says so"
cat >e.c <<'EOF2'
#ifndef __clang__
_Decimal32 price;
#endif
int sq(int x) { return x * x; }
EOF2
run infer --no-cache --format=json e.c --stats
expect_rc 0
expect_json "$T/out" sq class '"const"'
# Said in the user's words (issue 20): what happened and what to do, no "view".
expect_stderr_has "e\.c: warning: does not parse with the predefined macros of cc, its compiler \(.*e\.c:2:1: GNU decimal type.*\), so it was parsed with clang's predefined macros instead; .*--compiler-view=clang"
expect_stderr_lacks_view() { ! grep -q 'compiler view:' "$T/err" || [ "$(grep -c 'compiler view:' "$T/err")" -eq "$(grep -c '^purist: compiler view: [0-9]' "$T/err")" ] || fail "jargon 'compiler view:' on stderr${NL}$(context)"; }
expect_stderr_lacks_view
expect_stderr_has 'compiler view: 0 parsed with GCC.s macros, 1 fell back to clang.s, 0 with clang.s$'
run infer --quiet e.c
expect_ok

check "a compiler that cannot be run: clang's view, said once"
cat >compile_commands.json <<EOF2
[{"directory": "$T/p", "file": "a.c", "arguments": ["/nonexistent/bin/gcc-9", "-c", "a.c"]},
 {"directory": "$T/p", "file": "b.c", "arguments": ["/nonexistent/bin/gcc-9", "-c", "b.c"]}]
EOF2
run infer -p . --no-cache
expect_rc 0
[ "$(count_lines "cannot run the compiler /nonexistent/bin/gcc-9 \\(No such file or directory\\) to learn its predefined macros: install it or correct compile_commands.json, or give --compiler-view=clang to stop asking; parsed with clang's predefined macros instead" "$T/err")" -eq 1 ] ||
  fail "expected one warning${NL}$(context)"

check "a file that parses with neither compiler's macros: one note saying the errors are in the code or its flags"
printf 'int broken(int x) { return x +; }\n' >bad.c
run infer bad.c --
expect_rc 2
expect_stderr_has "bad\.c: note: it parses neither with the predefined macros of cc, its compiler, nor with clang's own: the errors below are in the code or in its flags"
expect_stderr_has 'bad\.c:1:31: error: expected expression'
expect_stderr_lacks_view
run infer -q bad.c --
expect_rc 2
! grep -q 'note: it parses neither' "$T/err" || fail "--quiet shows the note${NL}$(context)"

check "no cc at all (files named on the command line): clang's view, nothing to say"
mkdir -p "$T/nocc" && ln -sf "$(command -v dirname)" "$T/nocc/dirname"
PATH="$T/nocc" run infer --no-cache --format=json a.c --stats --   # "--": no database (the one here names gcc-9)
expect_rc 0
expect_json "$T/out" bumped declared '"pure"'
[ "$(count_lines 'warning' "$T/err")" -eq 0 ] || fail "no warning expected${NL}$(context)"

check "cc that is clang: clang's view, nothing to say"
printf '#!/bin/sh\nexec clang-19 "$@"\n' >"$T/bin/cc" && chmod +x "$T/bin/cc"
PATH="$T/bin:$PATH" run infer --no-cache --format=json a.c --stats --
expect_rc 0
expect_json "$T/out" bumped declared '"pure"'
expect_stderr_has 'compiler view: 0 parsed with GCC.s macros, 0 fell back to clang.s, 1 with clang.s$'
[ "$(count_lines 'warning' "$T/err")" -eq 0 ] || fail "no warning expected${NL}$(context)"

check "the cache keys on the view: a warm run with the other view parses again"
CC=gcc db '"-O2",'
run check -p . --stats
expect_rc 1
run check -p . --stats
expect_stderr_has '^purist: cache: 2 hits, 0 misses, 0 parsed$'
expect_stdout_has "'scaled' is declared const"
run check -p . --stats --compiler-view=clang
expect_stderr_has '^purist: cache: 0 hits, 2 misses, 2 parsed$'
expect_stdout_lacks "'scaled'"
