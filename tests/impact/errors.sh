#!/usr/bin/env bash
# purist impact on bad input: a TU the compiler rejects is reported and
# left out of both sides; a compiler that does not exist is one line and
# exit 2; no temporary tree is left behind either way.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
write_unit_project "$P"
# Parses for the analysis (libclang defines __clang__), fails with GCC: the
# failure is the compiler's alone, as with a flag only the real compiler
# rejects.
cat >"$P/src/broken.c" <<'C'
#include "unit.h"
#ifndef __clang__
#error this file does not build with this compiler
#endif
int unit_broken(int code) { return unit_scale(code) + unit_scale(code); }
C
write_cdb "$P" gcc-12 src/unit.c src/convert.c src/broken.c
cd "$P"

check "a TU that does not compile before is reported and left out; the rest is measured (exit 2)"
run impact -p . --format=json
expect_rc 2
expect_stderr_has "src/broken.c: left out: it does not compile as it is"
expect_stderr_has "#error this file does not build"
cp "$T/out" "$T/a.json"
expect_top "$T/a.json" calls_removed 2
expect_top "$T/a.json" files_compared 2
[ "$(json_count "$T/a.json" unit_broken)" -eq 0 ] || fail "unit_broken must be left out of both sides$(show "$T/a.json")"
expect_no_tree

check "a source generated into a build tree (CMakeCache.txt beside it) is compiled too"
mkdir -p "$P/build"
: >"$P/build/CMakeCache.txt"
printf '#include "unit.h"\nint unit_generated(int code) { return unit_scale(code); }\n' >"$P/build/gen.c"
write_cdb "$P" gcc-12 src/unit.c src/convert.c build/gen.c
run impact -p . --format=json
expect_rc 0
expect_top "$T/out" files_compared 3
expect_no_tree
rm -rf "$P/build"

check "a compiler that is not found: one line naming it, exit 2, no tree"
write_cdb "$P" no-such-compiler-xyz src/unit.c src/convert.c
run impact -p . --quiet
expect_usage_error "compiler 'no-such-compiler-xyz' not found"
expect_no_tree

check "a compiler path that is not there: the same"
write_cdb "$P" /nonexistent/bin/gcc src/unit.c src/convert.c
run impact -p .
expect_rc 2
expect_stderr_has "compiler '/nonexistent/bin/gcc' not found"
expect_stdout_empty
expect_no_tree

check "a TU that reads no file the attributes go into is not compiled, and says so"
printf 'int other_fn(int x) { return x + 1; }\n' >"$P/src/other.c"
write_cdb "$P" gcc-12 src/unit.c src/convert.c src/other.c
run impact -p . --format=json
expect_rc 0
expect_top "$T/out" files_compared 2
expect_top "$T/out" files_unchanged 1
expect_top "$T/out" calls_removed 2
run impact -p .
expect_rc 0
expect_stdout_has "1 file not compiled: it reads no file the attributes go into"
expect_no_tree

check "every TU fails to compile: exit 2, nothing measured, no tree"
# unit_scale's body is here (src/unit.c set aside: another definition of
# it would hold the attribute back), so the plan edits unit.h, which both read.
mv "$P/src/unit.c" "$T/unit.c.aside"
cat >"$P/src/unit_gcc_only.c" <<'C'
#include "unit.h"
#ifndef __clang__
#error this file does not build with this compiler either
#endif
static const int few[2] = { 1, 2 };
int unit_scale(int code) { return few[code & 1]; }
C
write_cdb "$P" gcc-12 src/broken.c src/unit_gcc_only.c
run impact -p . --quiet
expect_rc 2
expect_stderr_has "no file could be compiled"
expect_stdout_empty
expect_no_tree
mv "$T/unit.c.aside" "$P/src/unit.c"
rm "$P/src/unit_gcc_only.c"

check "an unwritable TMPDIR: one clear error, exit 2"
write_cdb "$P" gcc-12 src/unit.c src/convert.c
TMPDIR=$T/does-not-exist run impact -p . --quiet
expect_rc 2
expect_stderr_has "could not create a temporary directory"
echo "ok"
