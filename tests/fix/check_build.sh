#!/usr/bin/env bash
# fix --check-build (issue 29, item 6): after writing, every TU of the
# compile database is compiled again with its own command; when one that
# compiled before no longer does, every edit is undone and fix exits 2
# with the compiler's words. The compiler here is the project's own
# script, standing for one that rejects GNU attributes: it fails on any
# source or header holding "__attribute__". Near misses: with gcc the same
# edits stand, exit 0; a TU that did not compile before fix does not count.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p" && cd "$T/p"
cat >picky-cc <<'EOF2'
#!/bin/sh
# A compiler without GNU attributes: fails when the file or a header of
# this directory spells one, else hands over to gcc.
for a in "$@"; do
  case "$a" in *.c) src="$a" ;; esac
done
if grep -l '__attribute__' "$src" ./*.h 2>/dev/null | grep -q .; then
  echo "picky-cc: error: unknown attribute in $(grep -l '__attribute__' "$src" ./*.h | head -1)" >&2
  exit 1
fi
exec gcc "$@"
EOF2
chmod +x picky-cc
cat >lib.h <<'EOF2'
int lib_square(int x);
EOF2
cat >lib.c <<'EOF2'
#include "lib.h"
int lib_square(int x) { return x * x; }
EOF2
cat >main.c <<'EOF2'
#include "lib.h"
int twice(int x) { return lib_square(x) + lib_square(x); }
EOF2
cat >broken.c <<'EOF2'
int broken(void) { return undeclared_name; }
EOF2
db() {
  printf '[{"directory": "%s", "file": "%s/lib.c", "command": "%s -O2 -c lib.c -o lib.o"},\n' "$T/p" "$T/p" "$1"
  printf ' {"directory": "%s", "file": "%s/main.c", "command": "%s -O2 -c main.c -o main.o"}]\n' "$T/p" "$T/p" "$1"
}
db "$T/p/picky-cc" >compile_commands.json
cp lib.h "$T/lib.h.orig"

run fix --check-build -p . --root "$T/p"
expect_rc 2
check "fix --check-build: the edit that breaks the build is undone, with the compiler's words"
cmp -s lib.h "$T/lib.h.orig" || fail "lib.h was not restored:${NL}$(show lib.h)"
expect_stderr_has "no longer compiles after the edits"
expect_stderr_has "picky-cc: error: unknown attribute"
expect_stderr_has "every edit undone: the files are as they were"

check "near miss: without --check-build the same edit is written (and breaks that build)"
run fix -p . --root "$T/p"
expect_rc 0
expect_file_has lib.h '__attribute__\(\(const\)\)'
cp "$T/lib.h.orig" lib.h

check "near miss: with gcc the edits stand, exit 0"
db gcc >compile_commands.json
run fix --check-build -p . --root "$T/p"
expect_rc 0
expect_file_has lib.h '^int lib_square\(int x\) __attribute__\(\(const\)\);$'
expect_stderr_has "all 2 files of the compile database still compile"

check "near miss: a TU that did not compile before fix does not undo the edits"
cp "$T/lib.h.orig" lib.h
{ db gcc | sed '$ s/}]$/},/'; printf ' {"directory": "%s", "file": "%s/broken.c", "command": "gcc -c broken.c"}]\n' "$T/p" "$T/p"; } >compile_commands.json
run fix --check-build -p . --root "$T/p"
expect_file_has lib.h '__attribute__\(\(const\)\)'
expect_stderr_lacks "every edit undone"
echo "ok"
