#!/usr/bin/env bash
# Which TUs purist impact compiles: every TU that reads a file the plan
# edits, and no other. The analysis already knows what each TU read, so
# the compiler is asked (-M) only about the others; a TU the compiler
# reads the edit in but clang's parse did not (an #if on __clang__) is
# still compiled and measured.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
write_unit_project "$P"
# GCC reads unit.h here; the analysis, told to take clang's #if branches
# (--compiler-view=clang), sees neither the header nor the calls (a
# declaration it saw would be edited too, and so read).
cat >"$P/src/gcc_reads.c" <<'C'
#ifndef __clang__
#include "unit.h"
int gcc_twice(int code) { return unit_scale(code) * unit_scale(code); }
#endif
int clang_only(void) { return 0; }
C
printf 'int other_fn(int x) { return x + 1; }\n' >"$P/src/other.c"
# The database's compiler logs every command it runs, then runs gcc-12.
mkdir -p "$T/bin"
cat >"$T/bin/cc-log" <<EOS
#!/bin/sh
printf '%s\n' "\$*" >>"$T/cc.log"
exec gcc-12 "\$@"
EOS
chmod +x "$T/bin/cc-log"
write_cdb "$P" "$T/bin/cc-log" src/unit.c src/convert.c src/gcc_reads.c src/other.c
cd "$P"

check "a TU whose #ifs read the edited header only under GCC is compiled and measured"
: >"$T/cc.log"
run impact -p . --format=json --compiler-view=clang
expect_rc 0
expect_top "$T/out" files_compared 3
expect_top "$T/out" files_unchanged 1
# convert.c: 3 calls -> 1 (const: the store is no barrier), gcc_reads.c: 2 -> 1
[ "$(json_count "$T/out" gcc_twice)" -ge 1 ] || fail "gcc_twice must be compared$(show "$T/out")"
expect_top "$T/out" calls_removed 3
got=$(jq -c .compared "$T/out")
[ "$got" = '["src/unit.c","src/convert.c","src/gcc_reads.c"]' ] || fail "compared: $got$(show "$T/out")"

check "the compiler is asked which files a TU reads only where the analysis did not see it read the edit"
deps_of() { grep -e ' -M' "$T/cc.log" | grep -c "src/$1" || true; }
[ "$(deps_of convert.c)" -eq 0 ] || fail "convert.c was asked (-M) though the analysis saw it read unit.h$(show "$T/cc.log")"
[ "$(deps_of unit.c)" -eq 0 ] || fail "unit.c was asked (-M) though the analysis saw it read unit.h$(show "$T/cc.log")"
[ "$(deps_of gcc_reads.c)" -eq 1 ] || fail "gcc_reads.c must be asked once (-M)$(show "$T/cc.log")"
[ "$(deps_of other.c)" -eq 1 ] || fail "other.c must be asked once (-M)$(show "$T/cc.log")"
# Both sides compile the three, without debug information.
[ "$(grep -c -e ' -g0 -S ' "$T/cc.log")" -eq 6 ] || fail "expected 6 compiles to assembly$(show "$T/cc.log")"
expect_no_tree
echo "ok"
