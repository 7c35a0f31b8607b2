#!/usr/bin/env bash
# fix's safety rules: a file changed since the analysis (content hash) is
# refused and reported, the others are still fixed, exit 2; a read-only
# file or an unwritable directory likewise; files outside the project root
# and system headers are never touched; a written file keeps its mode and
# no temporary file stays behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# proj DIR: two modules, a and b, each a header and a source.
proj() {
  rm -rf "$T/$1" && mkdir -p "$T/$1/inc" && cd "$T/$1"
  echo 'int a_sq(int x);' >inc/a.h
  printf '#include "a.h"\nint a_sq(int x) { return x * x; }\n' >a.c
  echo 'int b_neg(int x);' >inc/b.h
  printf '#include "b.h"\nint b_neg(int x) { return -x; }\n' >b.c
}

check "a file changed since it was analysed (summaries from --from) is refused; the rest is fixed"
proj changed
run summarize -o "$T/s.purist" a.c b.c -- -Iinc
expect_rc 0
echo '/* edited meanwhile */' >>inc/b.h
cp inc/b.h "$T/b.h.edited"; cp b.c "$T/b.c.orig"
run fix --from "$T/s.purist"
expect_rc 2
expect_stderr_has '^inc/b\.h: error: not edited: it changed since it was analysed \(run purist fix again\)$'
same "$T/b.h.edited" inc/b.h "the changed header and the header after fix"
expect_file_has inc/a.h '^int a_sq\(int x\) __attribute__\(\(const\)\);$'
expect_file_has a.c '^__attribute__\(\(const\)\) int a_sq'
expect_file_has b.c '^__attribute__\(\(const\)\) int b_neg'   # b.c itself did not change

check "a read-only file: a clear error, the others still fixed, exit 2"
proj readonly
chmod 444 inc/b.h
cp inc/b.h "$T/b.h.orig"
run fix a.c b.c -- -Iinc
expect_rc 2
expect_stderr_has '^inc/b\.h: error: not edited: the file is read-only$'
same "$T/b.h.orig" inc/b.h "the read-only header before and after"
expect_file_has inc/a.h '__attribute__\(\(const\)\);$'
chmod 644 inc/b.h

check "an unwritable directory: a clear error, the others still fixed, exit 2"
proj unwritable_dir
chmod 555 inc
run fix a.c b.c -- -Iinc
chmod 755 inc
expect_rc 2
expect_stderr_has '^inc/a\.h: error: not edited: its directory is not writable'
expect_stderr_has '^inc/b\.h: error: not edited: its directory is not writable'
expect_file_lacks inc/a.h attribute
expect_file_has a.c '^__attribute__\(\(const\)\) int a_sq'

check "files outside the root and system headers are never touched"
proj roots
mkdir -p "$T/outside" sys
echo 'int ext_twice(int x);' >"$T/outside/ext.h"
echo 'int sys_half(int x);' >sys/sysapi.h
cat >c.c <<'EOF2'
#include "ext.h"
#include <sysapi.h>
int ext_twice(int x) { return 2 * x; }
int sys_half(int x) { return x / 2; }
EOF2
cp "$T/outside/ext.h" "$T/ext.orig"; cp sys/sysapi.h "$T/sys.orig"
run fix --root . a.c b.c c.c -- -Iinc "-I$T/outside" -isystem sys
expect_rc 0
same "$T/ext.orig" "$T/outside/ext.h" "the header outside the root"
same "$T/sys.orig" sys/sysapi.h "the system header"
expect_stderr_has "ext\.h:1:5: note: 'ext_twice' is not edited: it is outside the project root$"
expect_file_has c.c '^__attribute__\(\(const\)\) int ext_twice'
# A function a system header declares is the library's business: suggest
# names none, so fix edits none (not even its definition here).
expect_file_has c.c '^int sys_half'

check "a written file keeps its mode; no temporary file is left"
proj modes
chmod 640 a.c
chmod 600 inc/b.h
run fix a.c b.c -- -Iinc
expect_rc 0
[ "$(stat -c %a a.c)" = 640 ] || fail "a.c mode changed to $(stat -c %a a.c)"
[ "$(stat -c %a inc/b.h)" = 600 ] || fail "inc/b.h mode changed to $(stat -c %a inc/b.h)"
left=$(find . -name '.*purist-*')
[ -z "$left" ] || fail "temporary files left behind: $left"
check "a damaged --from summary file: one clear line, exit 2, nothing written"
proj damaged
tree_sum . >"$T/d0"
head -c 100 "$T/s.purist" >"$T/cut.purist"
run fix --from "$T/cut.purist"
expect_usage_error "^purist: .*cut\.purist: refused at byte 0: truncated summary$"
tree_sum . >"$T/d1"
same "$T/d0" "$T/d1" "the tree before and after the refused run"
echo "ok"
