#!/usr/bin/env bash
# The same external function defined in several TUs (a link error for one
# program, but common in a database of many: every test defines main, a
# test double replaces a library function). As a linker per program would
# (issue 19 item 3): each definition is listed at its own place; a call in
# a TU that defines the name resolves to that definition; a call from
# elsewhere to the join of all of them (the safe answer). No warning by
# default; --verbose says so in a note, paths relative to the root.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >d1.c <<'EOF2'
int twice(int x) { return 2 * x; }
int call1(int x) { return twice(x); }
EOF2
cat >d2.c <<'EOF2'
int scale;
int twice(int x) { return x * scale; }
int call2(int x) { return twice(x); }
EOF2
cat >d3.c <<'EOF2'
int twice(int x);
int call3(int x) { return twice(x); }
EOF2

check "infer: exit 0, each definition listed at its place with its own class"
run infer d1.c d2.c d3.c
expect_rc 0
[ "$(count_lines ': twice: ' "$T/out")" -eq 2 ] || fail "twice should be listed twice${NL}$(context)"
expect_stdout_has '^d1\.c:1: twice: const — '
expect_stdout_has "^d2\.c:2: twice: pure — reads global 'scale'"

check "a call in a defining TU resolves to its own definition"
expect_stdout_has '^d1\.c:2: call1: const'
expect_stdout_has '^d2\.c:3: call2: pure'

check "a call from a TU defining none: the join of all definitions, named in the reason"
expect_stdout_has '^d3\.c:2: call3: pure — calls twice \(pure: defined in 2 files \(d1\.c, d2\.c\): the join of them\)'

check "no warning by default"
[ ! -s "$T/err" ] || fail "expected nothing on stderr${NL}$(context)"

check "--verbose: one note naming both definitions"
run infer --verbose d1.c d2.c d3.c
expect_rc 0
[ "$(count_lines "note: 'twice' is defined 2 times \(d1\.c:1, d2\.c:2\)" "$T/err")" -eq 1 ] ||
  fail "expected one note${NL}$(context)"

check "the same in any input order and with -j1/-j4"
run infer d1.c d2.c d3.c
cp "$T/out" "$T/fwd"
for j in 1 4; do
  run infer -j$j d3.c d2.c d1.c
  expect_rc 0
  same "$T/fwd" "$T/out" "infer in two input orders"
done

check "JSON: two twice objects, external"
run infer --format=json d1.c d2.c d3.c
expect_rc 0
json_check_functions "$T/out" >/dev/null
n=$(json_count "$T/out" twice)
[ "$n" -eq 2 ] || fail "twice appears $n times in JSON${NL}$(context)"

check "two summaries linked together: the same"
run summarize -o "$T/1.purist" d1.c
expect_ok
run summarize -o "$T/2.purist" d2.c
expect_ok
run summarize -o "$T/3.purist" d3.c
expect_ok
run link "$T/1.purist" "$T/2.purist" "$T/3.purist"
expect_rc 0
same "$T/fwd" "$T/out" "infer and link of the summaries"

check "main in two programs: no warning, each main analysed"
printf 'int main(void) { return 0; }\n' >m1.c
printf 'int helper(int);\nint main(int c, char **v) { (void)v; return helper(c); }\nint helper(int x) { return x; }\n' >m2.c
run infer m1.c m2.c
expect_ok
[ "$(count_lines ': main: const' "$T/out")" -eq 2 ] || fail "expected two const mains${NL}$(context)"

check "a static function of the same name in two TUs is no join either"
printf 'static int twice(int x) { return 2 * x; }\nint s1(int x) { return twice(x); }\n' >s1.c
printf 'static int twice(int x) { return x + x; }\nint s2(int x) { return twice(x); }\n' >s2.c
run infer s1.c s2.c
expect_ok
[ "$(count_lines ': twice: const' "$T/out")" -eq 2 ] || fail "expected two const twice${NL}$(context)"

echo "ok"
