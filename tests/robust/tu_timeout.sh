#!/usr/bin/env bash
# A macro bomb (issue 12, item 2) keeps libclang busy for hours: with
# --tu-timeout the file is reported and skipped, the others are analysed,
# exit 2, and the run ends soon after the limit.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
{
  echo '#define M0(x) x+x'
  for i in $(seq 1 16); do echo "#define M$i(x) M$((i - 1))(M$((i - 1))(x))"; done
  echo 'int bomb(void) { return M16(1); }'
} >bomb.c
printf 'int ok(int x) { return x + 1; }\n' >ok.c
printf 'int ok2(int x) { return x * 2; }\n' >ok2.c

check "--tu-timeout 2: the bomb is reported and skipped, the others analysed, exit 2"
start=$(date +%s)
run infer --no-cache --tu-timeout 2 -j1 bomb.c ok.c ok2.c
took=$(( $(date +%s) - start ))
expect_rc 2
expect_stderr_has "^$T/bomb\.c: error: parsing took longer than 2 s \(--tu-timeout\); it is not analysed"
expect_stderr_has '1 of 3 files could not be analysed'
expect_stdout_has '^ok\.c:1: ok: const'
expect_stdout_has '^ok2\.c:1: ok2: const'
[ "$took" -lt 60 ] || fail "the run took $took s with --tu-timeout 2"

check "check goes on too (findings of the other files, exit 2)"
run check --no-cache --tu-timeout 2 bomb.c ok.c
expect_rc 2
expect_stderr_has 'bomb\.c: error: parsing took longer than 2 s'

check "bad values are usage errors"
for v in -1 abc 1.5 ''; do
  run infer --tu-timeout "$v" ok.c
  expect_usage_error "--tu-timeout wants seconds from 0 \(no limit\)"
done
run infer --tu-timeout 0 ok.c
expect_ok
echo "ok"
