#!/usr/bin/env bash
# The same external function defined in two TUs (a link error for a real
# build, but common in analysed trees: two programs in one database, a
# test double): purist lists it once, classifies it normal (which body the
# linker would keep is unknown) and warns once on stderr naming both places;
# --quiet drops the warning; callers are normal through it.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >d1.c <<'EOF2'
int twice(int x) { return 2 * x; }
int call1(int x) { return twice(x); }
EOF2
cat >d2.c <<'EOF2'
int twice(int x) { return x + x; }
EOF2

check "infer: exit 0, twice listed once, normal"
run infer d1.c d2.c
expect_rc 0
n=$(count_lines ': twice: ' "$T/out")
[ "$n" -eq 1 ] || fail "twice listed $n times${NL}$(context)"
expect_stdout_has ': twice: normal — '

check "one warning on stderr naming twice and both files"
n=$(count_lines 'twice' "$T/err")
[ "$n" -eq 1 ] || fail "expected one warning line about twice, got $n${NL}$(context)"
expect_stderr_has 'warning'
grep 'twice' "$T/err" | grep -q 'd1\.c' || fail "the warning does not name d1.c${NL}$(context)"
grep 'twice' "$T/err" | grep -q 'd2\.c' || fail "the warning does not name d2.c${NL}$(context)"

check "its caller is normal through it"
expect_stdout_has '^d1\.c:2: call1: normal — calls twice'

check "JSON: one twice object, class normal, external"
run infer --format=json d1.c d2.c
expect_rc 0
json_check_functions "$T/out" >/dev/null
n=$(json_count "$T/out" twice)
[ "$n" -eq 1 ] || fail "twice appears $n times in JSON${NL}$(context)"
expect_json "$T/out" twice class '"normal"'
expect_json "$T/out" twice linkage '"external"'

check "the same with the files in the other order and -j1/-j4: still once, normal"
for j in 1 4; do
  run infer -j$j d2.c d1.c
  expect_rc 0
  [ "$(count_lines ': twice: ' "$T/out")" -eq 1 ] || fail "twice not listed once${NL}$(context)"
  expect_stdout_has ': twice: normal'
done

check "--quiet: no warning, same stdout"
run infer d1.c d2.c
cp "$T/out" "$T/loud"
run infer --quiet d1.c d2.c
expect_ok
same "$T/loud" "$T/out" "stdout with and without --quiet"

check "two summaries linked together: the same conflict, once"
run summarize -o "$T/1.purist" d1.c
expect_ok
run summarize -o "$T/2.purist" d2.c
expect_ok
run link "$T/1.purist" "$T/2.purist"
expect_rc 0
same "$T/loud" "$T/out" "infer and link of the two summaries"
[ "$(count_lines 'twice' "$T/err")" -eq 1 ] || fail "link: expected one warning${NL}$(context)"

check "a static function of the same name in two TUs is NOT a conflict"
printf 'static int twice(int x) { return 2 * x; }\nint s1(int x) { return twice(x); }\n' >s1.c
printf 'static int twice(int x) { return x + x; }\nint s2(int x) { return twice(x); }\n' >s2.c
run infer s1.c s2.c
expect_ok
[ "$(count_lines ': twice: const' "$T/out")" -eq 2 ] || fail "expected two const twice${NL}$(context)"

echo "ok"
