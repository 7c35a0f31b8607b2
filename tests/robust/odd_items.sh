#!/usr/bin/env bash
# Issue 23, the odd inputs: inputs that are not C said, not dropped
# (item 11); compile databases with a byte order mark, a file name that
# is not UTF-8, `-x c` on another suffix, a spaced name written unquoted,
# two entries for one file whose first fails (item 19); fix on a file
# with CR-only line endings, report --verify naming a directory,
# libclang's own leak on a refused command line suppressed in the
# sanitizer build by tests/lsan.supp (item 20); a UTF-16 source (item 9);
# control characters in file names and quoted lines (item 17).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
unset PURIST_CACHE_DIR
printf 'int ok(int x) { return x + 1; }\n' >ok.c
printf 'int cxx_sq(int x) { return x * x; }\n' >x.cc
printf 'int plain_neg(int x) { return -x; }\n' >nosuffix
mkdir adir

check "a directory, x.cc, a file without suffix on the command line: each said, exit 2, ok.c analysed"
run infer --no-cache ok.c adir x.cc nosuffix
expect_rc 2
expect_stderr_has '^adir: is a directory$'
expect_stderr_has '^x\.cc: not a C file \(\.c, \.i, \.h\): left out; add -- -x c to analyse it as C$'
expect_stderr_has '^nosuffix: not a C file'
expect_stdout_has '^ok\.c:1: ok: const'
check "only non-C files: an error, not an empty exit 0"
run infer --no-cache x.cc
expect_rc 2
expect_stderr_has 'x\.cc: not a C file'
check "-x c makes them C"
run infer --no-cache x.cc nosuffix -- -x c
expect_rc 0
expect_stdout_has '^x\.cc:1: cxx_sq: const'
expect_stdout_has '^nosuffix:1: plain_neg: const'

# db NAME JSON: a database in directory NAME.
db() { mkdir -p "$1" && printf '%s' "$2" >"$1/compile_commands.json"; }
check "a database with a UTF-8 byte order mark is read"
db bom $'\xEF\xBB\xBF'"[{\"directory\":\"$T\",\"file\":\"ok.c\",\"arguments\":[\"cc\",\"-c\",\"ok.c\"]}]"
run infer -p bom --no-cache
expect_rc 0
expect_stdout_has 'ok: const'

check "a file name that is not UTF-8 (Latin-1) no longer refuses the database: both files analysed"
printf 'int latin_one(void) { return 1; }\n' >$'lat\xE9n.c'
db latin "[{\"directory\":\"$T\",\"file\":\"ok.c\",\"arguments\":[\"cc\",\"-c\",\"ok.c\"]},{\"directory\":\"$T\",\"file\":\"lat"$'\xE9'"n.c\",\"arguments\":[\"cc\",\"-c\",\"lat"$'\xE9'"n.c\"]}]"
run infer -p latin --no-cache
expect_rc 0
expect_stdout_has 'ok: const'
expect_stdout_has 'latin_one: const'

check "an entry compiling x.cc with -x c is C"
db xc "[{\"directory\":\"$T\",\"file\":\"x.cc\",\"arguments\":[\"gcc\",\"-x\",\"c\",\"-c\",\"x.cc\"]}]"
run infer -p xc --no-cache
expect_rc 0
expect_stdout_has 'cxx_sq: const'

check "a spaced name written unquoted in \"command\" is the source, not two inputs (was error 4)"
printf 'int spaced_two(void) { return 2; }\n' >'my file.c'
db spaced "[{\"directory\":\"$T\",\"file\":\"my file.c\",\"command\":\"cc -O2 -c my file.c -o my.o\"}]"
run infer -p spaced --no-cache
expect_rc 0
expect_stdout_has 'spaced_two: const'

check "two entries for one file, the first failing: the next one is tried"
printf '#ifdef BROKEN\n#error this build of twice.c is broken\n#endif\nint twice(int x) { return 2 * x; }\n' >twice.c
db two "[{\"directory\":\"$T\",\"file\":\"twice.c\",\"arguments\":[\"cc\",\"-DBROKEN\",\"-c\",\"twice.c\"]},{\"directory\":\"$T\",\"file\":\"twice.c\",\"arguments\":[\"cc\",\"-c\",\"twice.c\"]}]"
run infer -p two --no-cache
expect_rc 0
expect_stdout_has 'twice: const'
expect_stderr_has "note: .*twice\.c: the compile database's first command for it failed to parse; analysed with its command number 2 of 2"
check "both failing: the first's errors, exit 2"
db two "[{\"directory\":\"$T\",\"file\":\"twice.c\",\"arguments\":[\"cc\",\"-DBROKEN\",\"-c\",\"twice.c\"]},{\"directory\":\"$T\",\"file\":\"twice.c\",\"arguments\":[\"cc\",\"-DBROKEN\",\"-O2\",\"-c\",\"twice.c\"]}]"
run infer -p two --no-cache
expect_rc 2
expect_stderr_has 'this build of twice\.c is broken'

check "a command line libclang refuses (error 4): an input error, and no leak report in the sanitizer build"
run infer --no-cache ok.c -- -Xclang -bogus-option
expect_rc 2
expect_stderr_has 'ok\.c: error: libclang could not parse this file'

check "fix on CR-only line endings places every edit where LF would"
mkdir lf cr
cat >lf/m.h <<'EOF2'
int m_a(int x);
int m_b(int x);
int m_c(const int *p);
EOF2
cat >lf/m.c <<'EOF2'
#include "m.h"
int m_a(int x) { return x + 1; }
int m_b(int x) { return m_a(x) * 2; }
int m_c(const int *p) { return *p; }
EOF2
for f in m.h m.c; do tr '\n' '\r' <lf/$f >cr/$f; done
(cd lf && "$PURIST" fix --no-cache m.c >"$T/lf.out" 2>"$T/lf.err") || fail "fix on LF failed$NL$(show "$T/lf.err")"
(cd cr && "$PURIST" fix --no-cache m.c >"$T/out" 2>"$T/err") || fail "fix on CR failed$NL$(show "$T/err")"
grep -q '6 edits' "$T/lf.err" || fail "the LF fix made no 6 edits$NL$(show "$T/lf.err")"
grep -q '6 edits' "$T/err" || fail "the CR-only fix did not place all 6 edits$NL$(show "$T/err")"
for f in m.h m.c; do
  tr '\r' '\n' <cr/$f | cmp -s - lf/$f || fail "$f fixed with CR endings differs from the LF fix$NL$(tr '\r' '\n' <cr/$f)"
done
check "report --verify DIR says 'is a directory', not a JSON parse error"
run report --html --no-cache --verify adir ok.c
expect_rc 2
expect_stderr_has '^purist: adir: is a directory$'

check "a UTF-16 source is an input error naming the encoding, not 'warning: compiler flags' and exit 0"
printf 'int wide_one(int x) { return x; }\n' | iconv -f UTF-8 -t UTF-16LE | { printf '\377\376'; cat; } >u16.c
run infer --no-cache u16.c ok.c
expect_rc 2
expect_stderr_has 'u16\.c: error: the file is UTF-16LE \(it starts with a byte order mark\)'
expect_stdout_has 'ok: const'

check "ESC and BEL in a file name and a quoted line, a newline in a file name: escaped in text output"
mkdir ctl
printf 'int esc_sq(int x) { return x * x; } /* \a */\n' >ctl/$'e\x1b[31m.c'
printf 'int nl_one(int x) { return x + 1; }\n' >ctl/$'n\nl.c'
cd ctl
# suggest --all: these functions gain nothing, so by default suggest prints none
for cmd in "suggest --all" infer; do
  run $cmd --no-cache $'e\x1b[31m.c' $'n\nl.c'
  expect_rc 0
  if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out"; then fail "$cmd: a control character reached the output$NL$(context)"; fi
  expect_stdout_has '^e<U\+001B>\[31m\.c:1'
  expect_stdout_has '^n<U\+000A>l\.c:1'
done
run suggest --all --no-cache $'e\x1b[31m.c'
expect_stdout_has '^    1 \| int esc_sq\(int x\) \{ return x \* x; \} /\* <U\+0007> \*/$'
check "clang's own diagnostics relayed on stderr: escaped too (a file name, a quoted #include)"
printf 'int bad(int x) { return x +; }\n' >$'b\x1b[31m.c'
printf '#include "i\a\x1b]0;t.h"\nint ok(int x) { return x; }\n' >$'n\nm.c'
run infer --no-cache $'b\x1b[31m.c' $'n\nm.c'
expect_rc 2
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/err"; then fail "a control character reached stderr$NL$(context)"; fi
expect_stderr_has '^[^ ]*b<U\+001B>\[31m\.c:1:[0-9]+: error: expected expression'
expect_stderr_has "^[^ ]*n<U\\+000A>m\\.c:1:10: (fatal )?error: 'i<U\\+0007><U\\+001B>\\]0;t\\.h' file not found"
cd ..
check "a finding on a 1 MB line quotes a window of it, caret in place (issue 23 probe)"
{ printf 'int g; '; head -c 1000000 /dev/zero | tr '\0' ' '; printf 'int f(int x) __attribute__((const)); int f(int x) { g = x; return x; }\n'; } >long.c
run check --no-cache long.c
expect_rc 1
[ "$(wc -c <"$T/out")" -lt 4000 ] || fail "$(wc -c <"$T/out") bytes of output for two quoted lines"
expect_stdout_has '^    1 \| \.\.\. +int f\(int x\) __attribute__'
# the caret under the 'f' of the first quoted line
awk 'NR == 2 { i = index($0, "int f(") + 4 } NR == 3 { exit !(substr($0, i, 1) == "^") }' "$T/out" || fail "caret misplaced$NL$(context)"
echo ok
