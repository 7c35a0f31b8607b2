#!/usr/bin/env bash
# The smaller items of issue 12 (item 8), each a check: a directory where
# a file belongs says "is a directory"; errors per TU are capped at 20;
# bad compile-database entries are reported and the rest analysed; --why
# with two static functions of one name prints both (or takes FILE:NAME);
# --root must exist; -p with files reports on them; PURIST_SAMPLE must be a
# number from 1; a missing -include file or @response file fails the TU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../e2e/lib.sh" "$@"
cd "$T"
mkdir -p dir p2/compile_commands.json
printf 'int ok(int x) { return x + 1; }\n' >ok.c

check "a directory given to link, --kb, --baseline, --from or as the database"
for args in "link dir" "infer --kb dir ok.c" "check --baseline dir ok.c" "fix --from dir" "infer -p p2"; do
  run $args
  expect_rc 2
  expect_stderr_has '[Ii]s a directory'
  expect_stdout_empty
done

check "a random file: 20 errors, then one 'too many errors' line"
# A committed file, not awk's rand(): mawk and gawk give different sequences.
cp "$here/random_chars.c" junk.c
run infer --no-cache junk.c ok.c
expect_rc 2
[ "$(count_lines 'junk\.c:[0-9]+:[0-9]+: error:' "$T/err")" -eq 20 ] || fail "expected 20 errors${NL}$(context)"
expect_stderr_has "^$T/junk\.c: error: too many errors emitted, [0-9]+ more not shown\$"
expect_stdout_has '^ok\.c:1: ok: const'

check "\"arguments\": [1,2,3] is reported; [null, {valid}] reports entry 0 and analyses the rest"
mkdir -p db1 db2
printf '[{"directory":"%s","file":"ok.c","arguments":[1,2,3]}]\n' "$T" >db1/compile_commands.json
run infer -p db1 --no-cache
expect_rc 2
expect_stderr_has 'db1/compile_commands\.json: entry 0: "arguments" must hold strings; element 0 is not one'
printf '[null, {"directory":"%s","file":"ok.c","arguments":["cc","-c","ok.c"]}, {"directory":"%s","file":"ok.c","arguments":["cc",2]}]\n' "$T" "$T" >db2/compile_commands.json
run infer -p db2 --no-cache
expect_rc 2
expect_stderr_has 'db2/compile_commands\.json: entry 0 is not an object'
expect_stderr_has 'db2/compile_commands\.json: entry 2: "arguments" must hold strings; element 1 is not one'
expect_stdout_has 'ok\.c:1: ok: const'
run summarize -p db2 --no-cache -o "$T/db2.sum"
expect_rc 2

check "--why h with two static h: both chains; FILE:NAME picks one"
mkdir -p why
printf 'int g;\nstatic int h(int x) { return x + 1; }\nint a(int x) { return h(x); }\n' >why/a.c
printf 'int g;\nstatic int h(int x) { g++; return x; }\nint b(int x) { return h(x); }\n' >why/b.c
(cd why && "$PURIST" infer --no-cache --why h a.c b.c >"$T/out" 2>"$T/err") || fail "--why h failed${NL}$(show "$T/err")"
expect_stdout_has '^a\.c:2:12: h: const'
expect_stdout_has '^b\.c:2:12: h: normal'
(cd why && "$PURIST" infer --no-cache --why b.c:h a.c b.c >"$T/out" 2>"$T/err") || fail "--why b.c:h failed"
expect_stdout_has '^b\.c:2:12: h: normal'
expect_stdout_lacks 'a\.c'
(cd why && "$PURIST" infer --no-cache --why "$T/why/a.c:h" a.c b.c >"$T/out" 2>"$T/err") || fail "--why /abs/a.c:h failed"
expect_stdout_has '^a\.c:2:12: h: const'
expect_stdout_lacks 'b\.c'
run infer --no-cache --why c.c:h why/a.c why/b.c
expect_rc 2
expect_stderr_has "no function named 'c\.c:h'"

check "--root /nonexistent is a usage error; -p DIR with files reports on them"
run infer --root /nonexistent ok.c
expect_usage_error '--root /nonexistent: not an existing directory'
run infer --root ok.c ok.c
expect_usage_error '--root ok\.c: not an existing directory'
# -p DIR with files named is clang-tidy's form since issue 20 (e2e/cli_forms):
# the database's bad entries are still reported, and the file named is.
run infer -p db2 ok.c
expect_rc 2
expect_stderr_has 'db2/compile_commands\.json: entry 0 is not an object'
expect_stdout_has 'ok\.c:1: ok: const'

check "PURIST_SAMPLE=-1, 0, an overflow, past LONG_MAX (issue 23 item 7) or text is refused by verify"
for v in -1 0 99999999999999999999999 9223372036854775808 18446744073709551615 abc; do
  PURIST_SAMPLE=$v run verify --no-cache ok.c -- true
  expect_usage_error "PURIST_SAMPLE=$v: wants a whole number from 1"
done

check "-include /nonexistent.h and @/missing.rsp fail the TU, as in gcc"
run infer --no-cache ok.c -- -include /nonexistent.h
expect_rc 2
expect_stderr_has "'/nonexistent\.h' file not found"
expect_stdout_lacks 'ok: const'
run infer --no-cache ok.c -- @/missing.rsp
expect_rc 2
expect_stderr_has "ok\.c: error: response file @/missing\.rsp: No such file or directory"
printf -- '-DX=1\n' >flags.rsp
run infer --no-cache ok.c -- @flags.rsp
expect_ok
echo ok
