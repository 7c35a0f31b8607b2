#!/usr/bin/env bash
# Progress when stderr is not a terminal (issue 20 item 5): a CI log gets a
# plain line "[done/total] file" every few seconds once the run has lasted
# that long (libgit2 was 63 s of silence), never the terminal's rewritten
# status line; a short run prints nothing; --progress=plain|none|auto and
# PURIST_PROGRESS choose; --quiet silences auto. The interval is 5 s;
# PURIST_PROGRESS_INTERVAL shortens it here, and a slow file (a macro bomb
# under --tu-timeout) makes the run long enough on any machine — and shows
# that lines keep coming while one file takes long. A line is printed only
# when the count moved; while it stands still, every 6 intervals a line
# with the time elapsed names the file still running, so a log never
# repeats a line (issue 35 item 3: "[1/14] lib/xmlrole.c" four times).
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
unset PURIST_PROGRESS
P=$T/proj
write_generated_project "$P" 12
cd "$P"
{
  echo '#define M0(x) x+x'
  for i in $(seq 1 16); do echo "#define M$i(x) M$((i - 1))(M$((i - 1))(x))"; done
  echo 'int bomb(void) { return M16(1); }'
} >src/bomb.c
# The bomb first, so the others finish while it runs.
sed -i 's|^\[|[{"directory": "'"$P"'", "arguments": ["cc", "-c", "src/bomb.c"], "file": "src/bomb.c"},|' compile_commands.json

check "auto, stderr not a terminal, a long run: plain lines '[n/13] file', relative to the root"
start=$(date +%s%N)
PURIST_PROGRESS_INTERVAL=0.2 run infer -p . --no-cache -j2 --tu-timeout 5
took_ms=$((($(date +%s%N) - start) / 1000000))
expect_rc 2
grep -Eq '^\[[0-9]+/13\] src/f[0-9]+\.c$' "$T/err" || fail "no plain progress line${NL}$(context)"
grep -q $'\r' "$T/err" && fail "a terminal's status line (carriage return) in a log${NL}$(context)"
grep -q $'\033' "$T/err" && fail "escape sequences in a log${NL}$(context)"
n=$(grep -Ec '^\[[0-9]+/13\] ' "$T/err")
[ "$n" -ge 3 ] || fail "only $n progress lines while the bomb ran 5 s at 0.2 s intervals${NL}$(context)"
[ "$n" -le $((took_ms / 200 + 1)) ] || fail "$n progress lines in $took_ms ms at 0.2 s: not one per interval${NL}$(context)"
grep -q '^\[12/13\] ' "$T/err" || fail "no line while the last, slow file was parsed${NL}$(context)"

cp "$T/out" "$T/ref.out"

check "no line repeats the one before it"
rep=$(grep -E '^\[[0-9]+/13\] ' "$T/err" | uniq -d)
[ -z "$rep" ] || fail "a progress line repeated: $rep${NL}$(context)"

check "while the count stands still, every 6 intervals a line names the file still running"
printf '[{"directory": "%s", "arguments": ["cc", "-c", "src/bomb.c"], "file": "src/bomb.c"}]\n' "$P" >"$T/bomb.json"
PURIST_PROGRESS_INTERVAL=0.2 run infer -p "$T/bomb.json" --root . --no-cache -j1 --tu-timeout 3
expect_rc 2
grep -Eq '^\[0/1\] 0:0[0-9] elapsed; still working on src/bomb\.c$' "$T/err" ||
  fail "no line naming src/bomb.c while the count stood still${NL}$(context)"
n=$(grep -Ec '^\[0/1\]' "$T/err")
[ "$n" -le 4 ] || fail "$n lines in 3 s: more than one every 6 intervals (1.2 s) after the first${NL}$(context)"

check "the lines go to stderr only: stdout is what it is without progress"
PURIST_PROGRESS_INTERVAL=0.2 run infer -p . --no-cache -j2 --tu-timeout 3 --progress=none
[ -z "$(grep -E '^\[[0-9]+/' "$T/err")" ] || fail "--progress=none printed progress${NL}$(context)"
same "$T/ref.out" "$T/out" "stdout with and without progress"

check "a run shorter than the interval prints nothing"
rm src/bomb.c
sed -i 's|^\[{"directory": "[^"]*", "arguments": \["cc", "-c", "src/bomb.c"\], "file": "src/bomb.c"},|[|' compile_commands.json
PURIST_PROGRESS_INTERVAL=60 run infer -p . --no-cache
expect_ok

check "--quiet silences auto; PURIST_PROGRESS=plain and --progress=plain print even then"
PURIST_PROGRESS_INTERVAL=0.01 run infer -p . --no-cache --quiet -j1
expect_ok
PURIST_PROGRESS_INTERVAL=0.01 PURIST_PROGRESS=plain run infer -p . --no-cache -j1
expect_stderr_has '^\[[0-9]+/12\] src/f[0-9]+\.c$'
PURIST_PROGRESS_INTERVAL=0.01 PURIST_PROGRESS=none run infer -p . --no-cache -j1 --progress=plain
expect_stderr_has '^\[[0-9]+/12\] src/f[0-9]+\.c$'
PURIST_PROGRESS_INTERVAL=0.01 PURIST_PROGRESS=plain run infer -p . --no-cache -j1 --progress=none
expect_ok

check "bad values are usage errors"
run infer -p . --progress=always
expect_usage_error "--progress wants auto, plain or none, not 'always'"
echo "ok"
