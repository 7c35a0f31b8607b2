#!/usr/bin/env bash
# -o naming an input (issue 12, item 6): `infer -p P -o P/u.c`, `report
# --html -o P/main.c` and `summarize -o P/compile_commands.json`
# overwrote the source or the database. Now purist refuses, as gcc does,
# comparing files by device and inode (other spellings, symlinks, hard
# links), exit 2, and the input is untouched.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
P=$T/proj
write_generated_project "$P" 3
cd "$P"
unset PURIST_CACHE_DIR
ln -s src/f2.c link.c
ln src/f1.c hard.c

# refused OUT WHAT ARGS...: purist ARGS -o OUT is refused and OUT unchanged.
refused() {
  local out=$1 what=$2
  shift 2
  cp "$out" "$T/before"
  run "$1" -o "$out" "${@:2}"
  expect_usage_error "^purist: -o $out is the input file .*$what: refusing to overwrite it\$"
  same "$T/before" "$out" "$out after the refused run"
}

check "infer -o a source of the database"
refused src/f0.c 'src/f0\.c' infer -p . --no-cache
check "another spelling, a symlink, a hard link"
refused ./src/../src/f0.c 'src/f0\.c' check -p . --no-cache
refused link.c 'src/f2\.c' suggest -p . --no-cache
refused hard.c 'src/f1\.c' explain -p . --no-cache
check "report --html -o a source"
refused src/f1.c 'src/f1\.c' report --html -p . --no-cache
check "summarize -o the compile database"
refused compile_commands.json 'compile_commands\.json' summarize -p . --no-cache
check "fix --dry-run -o a source"
refused src/f2.c 'src/f2\.c' fix --dry-run -p . --no-cache
check "files named on the command line, link inputs, --kb, --baseline"
refused src/f0.c 'src/f0\.c' infer --no-cache src/f0.c src/f1.c -- -Iinc
run summarize -p . --no-cache -o "$T/all.sum"
expect_rc 0
refused "$T/all.sum" 'all\.sum' link "$T/all.sum"
printf 'strlen pure\n' >"$T/my.kb"
refused "$T/my.kb" 'my\.kb' infer -p . --no-cache --kb "$T/my.kb"
run check -p . --no-cache --write-baseline "$T/base.json"
expect_rc 0
refused "$T/base.json" 'base\.json' check -p . --no-cache --baseline "$T/base.json"

check "a header holding only macros and types (no declaration), from a parse and from the cache"
printf '#define LIMIT 4\ntypedef int count_t;\n' >inc/limits.h
sed -i '1i #include "limits.h"' src/f1.c
refused inc/limits.h 'inc/limits\.h' infer -p . --no-cache
refused inc/limits.h 'inc/limits\.h' check -p . --no-cache --write-baseline /dev/null
export PURIST_CACHE_DIR=$T/cache
run infer -p .
expect_ok
refused inc/limits.h 'inc/limits\.h' infer -p .
refused inc/limits.h 'inc/limits\.h' summarize -p .
cp inc/limits.h "$T/before"
run check -p . --write-baseline inc/limits.h
expect_usage_error '^purist: --write-baseline inc/limits\.h is the input file .*inc/limits\.h: refusing to overwrite it$'
same "$T/before" inc/limits.h "inc/limits.h after --write-baseline"
unset PURIST_CACHE_DIR

check "an output that is no input is written (new, or replacing another file)"
run infer -p . --no-cache -o "$T/new.txt"
expect_ok
[ -s "$T/new.txt" ] || fail "no output written"
run infer -p . --no-cache -o "$T/new.txt"
expect_ok
echo ok
