#!/usr/bin/env bash
# purist fix on the bundled example project (a CMake compile database):
# the fixed tree builds with gcc-12 and clang-19 at -Wall -Werror, infer
# then reports the same classes with `declared` set where fix wrote, the
# project's own macros (EX_PURE, EX_CONST) are used where they are defined
# before the declaration, a second run changes nothing, and --dry-run's
# diff is exactly what the real run writes.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../../examples" && pwd)

cp -r "$SRC" "$T/ex"
cp -r "$SRC" "$T/ex-dry"
rm -rf "$T/ex/build" "$T/ex-dry/build"   # a build dir of the checkout is not part of the copy
cd "$T/ex"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || fail "cmake on the example failed"
(cd "$T/ex-dry" && cmake -S . -B build >/dev/null) || fail "cmake on the example copy failed"
run infer -p build --format=json
expect_rc 0
classes "$T/out" >"$T/before"

check "fix without --all: only the suggestions that gain (calls in other files), a note counts the rest"
(cd "$T/ex-dry" && "$PURIST" fix -p build --dry-run >"$T/gain.diff" 2>"$T/gain.err") || fail "fix --dry-run failed"
grep -q '^+const char \*table_unit_name(int idx) __attribute__((const));$' "$T/gain.diff" ||
  fail "table_unit_name (2 calls in other files gain) should be edited${NL}$(show "$T/gain.diff")"
grep -q 'grid_rows' "$T/gain.diff" && fail "grid_rows (called only in its own file) should not be edited${NL}$(show "$T/gain.diff")"
grep -Eq '^note: [0-9]+ suggestions without gain not applied .*--all applies them$' "$T/gain.err" ||
  fail "a note should count what was left${NL}$(show "$T/gain.err")"

check "fix --dry-run prints a diff and writes nothing"
tree_sum . >"$T/sum0"
run fix --all -p build --dry-run
expect_rc 0
cp "$T/out" "$T/dry.diff"
expect_stdout_has '^\+\+\+ b/include/grid\.h$'
expect_stdout_has '^\+int grid_rows\(int items, int cols\) EX_CONST;$'
tree_sum . >"$T/sum1"
same "$T/sum0" "$T/sum1" "the tree before and after --dry-run"

check "fix writes the attributes: the project's macros where visible, __attribute__ elsewhere"
run fix --all -p build
expect_rc 0
expect_stdout_has "^include/grid\.h:14:5: 'grid_rows': add EX_CONST$"
expect_stdout_has "^src/grid\.c:17:5: 'grid_rows': add EX_CONST$"
expect_file_has include/grid.h '^int grid_rows\(int items, int cols\) EX_CONST;$'
expect_file_has src/grid.c '^EX_CONST int grid_rows\(int items, int cols\)$'
# table.h includes no header that defines EX_CONST: spelled out there.
expect_file_has include/table.h '^const char \*table_unit_name\(int idx\) __attribute__\(\(const\)\);$'
expect_file_has include/util.h '^EX_CONST static inline int ex_min\(int a, int b\)$'
expect_stderr_has "^src/num\.c:[0-9]+:[0-9]+: note: 'num_checked_div' is pure only if it is known to return normally"
expect_stderr_has "^src/main\.c:70:5: note: 'text_count_upper' is not made pure: its value is discarded here"
# 29 suggestions; the 3 definitions whose prototype alone is declared
# (num_div_ceil's) are complete, GNU style, and left alone (issue 35 item 7;
# issue 23 item 5 completed them too)
expect_stderr_has '^purist: fix: 29 edits in 11 files$'
expect_stdout_lacks "^src/num\.c:[0-9]+:[0-9]+: 'num_div_ceil'"

check "the dry run's diff is what the real run wrote (patch -p1 on the untouched copy)"
(cd "$T/ex-dry" && patch -s -p1 <"$T/dry.diff") || fail "patch -p1 rejected the --dry-run diff"
for f in include/grid.h include/util.h src/table.c src/layout.c; do
  same "$T/ex/$f" "$T/ex-dry/$f" "$f fixed and $f patched from the dry run"
done

check "the fixed example builds with gcc-12 and clang-19 at -Wall -Wextra -Werror"
cd "$T/ex"
CFLAGS_EXTRA="-Iinclude -D_POSIX_C_SOURCE=200809L" compiles src/*.c

check "infer reports the same classes, now declared where fix wrote"
run infer -p build --format=json
expect_rc 0
classes "$T/out" >"$T/after"
awk '{print $1, $2}' "$T/before" >"$T/before.cls"
awk '{print $1, $2}' "$T/after" >"$T/after.cls"
same "$T/before.cls" "$T/after.cls" "classes before and after fix"
grep -qx 'grid_rows const const' "$T/after" || fail "grid_rows not declared const:${NL}$(show "$T/after")"
grep -qx 'table_unit_factor pure pure' "$T/after" || fail "table_unit_factor not declared pure"
grep -qx 'num_checked_div pure none' "$T/after" || fail "num_checked_div (may not return) was declared"
grep -qx 'text_count_upper pure none' "$T/after" || fail "text_count_upper (discarded call) was declared"
n=$(awk '$2 != "normal" && $3 == "none"' "$T/before" | wc -l)
m=$(awk '$2 != "normal" && $3 == "none"' "$T/after" | wc -l)
[ "$m" -lt "$n" ] || fail "no function gained its attribute ($n undeclared before, $m after)"

check "a second run changes nothing (idempotent)"
tree_sum . >"$T/sum2"
run fix --all -p build
expect_rc 0
expect_stdout_empty
expect_stderr_has '^purist: fix: 0 edits in 0 files$'
tree_sum . >"$T/sum3"
same "$T/sum2" "$T/sum3" "the tree after the first and the second run"
echo "ok"
