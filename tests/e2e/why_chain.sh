#!/usr/bin/env bash
# --why NAME: the chain of first causes, one line per step.  Here a chain of
# three functions across three files (top -> middle -> bottom) ends in a
# write to a global: three lines, in call order, the last naming the global.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >a.c <<'EOF2'
int middle(int x);
int top(int x)
{
  return middle(x) + 1;
}
EOF2
cat >b.c <<'EOF2'
int bottom(int x);
int middle(int x)
{
  return bottom(x) * 2;
}
EOF2
cat >c.c <<'EOF2'
int total_calls;
int bottom(int x)
{
  total_calls = total_calls + 1;
  return x;
}
EOF2
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "a.c", "arguments": ["cc", "-c", "a.c"]},
  {"directory": "$T/p", "file": "b.c", "arguments": ["cc", "-c", "b.c"]},
  {"directory": "$T/p", "file": "c.c", "arguments": ["cc", "-c", "c.c"]}
]
EOF2

check "--why top: exit 0, exactly three lines"
run infer --why top
expect_ok
n=$(wc -l <"$T/out")
[ "$n" -eq 3 ] || fail "expected 3 lines (top, middle, bottom), got $n${NL}$(context)"

check "the lines are the steps in call order, each at its function's file:line"
sed -n 1p "$T/out" | grep -Eq '^a\.c:2(:[0-9]+)?: top: normal\b.*middle' || fail "line 1 should be top calling middle${NL}$(context)"
sed -n 2p "$T/out" | grep -Eq '^b\.c:2(:[0-9]+)?: middle: normal\b.*bottom' || fail "line 2 should be middle calling bottom${NL}$(context)"
sed -n 3p "$T/out" | grep -Eq '^c\.c:2(:[0-9]+)?: bottom: normal\b' || fail "line 3 should be bottom${NL}$(context)"

check "the last line names the global and where it is written"
sed -n 3p "$T/out" | grep -q "total_calls" || fail "the last line does not name total_calls${NL}$(context)"
sed -n 3p "$T/out" | grep -Eq 'c\.c:4(:[0-9]+)?' || fail "the last line does not give the write's location c.c:4${NL}$(context)"

check "--why=middle: two lines, from middle"
run infer --why=middle
expect_ok
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "expected 2 lines${NL}$(context)"
sed -n 1p "$T/out" | grep -q 'middle' || fail "first line should be middle${NL}$(context)"

check "--why of a const function: one line with its reason"
printf 'int sq(int x) { return x * x; }\n' >d.c
run infer --why sq a.c b.c c.c d.c
expect_ok
[ "$(wc -l <"$T/out")" -eq 1 ] || fail "expected 1 line${NL}$(context)"
expect_stdout_has '^d\.c:1(:[0-9]+)?: sq: const'

check "--why -o FILE: the chain goes to FILE"
run infer --why top -o "$T/why.txt"
expect_ok
expect_stdout_empty
[ "$(wc -l <"$T/why.txt")" -eq 3 ] || fail "expected 3 lines in the -o file${NL}$(show "$T/why.txt")"

check "link of the summaries explains the same chain"
run summarize -o "$T/p.purist"
expect_ok
run infer --why top
cp "$T/out" "$T/why_infer"
run link --why top "$T/p.purist"
expect_ok
same "$T/why_infer" "$T/out" "--why from infer and from link"
echo "ok"
