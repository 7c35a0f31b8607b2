#!/usr/bin/env bash
# Issue 23 items 13 and 14: nothing blocks or grows without bound. An
# @response file that is a FIFO, names itself or is larger than 16 MiB is
# refused (the FIFO blocked the parent for ever, before --tu-timeout could
# apply); an #include of /dev/zero or of a FIFO is refused by the parse
# worker (it grew by gigabytes until the 300 s limit), whose memory is
# capped by PURIST_PARSE_MEMORY_MIB.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
unset PURIST_CACHE_DIR
printf 'int ok(int x) { return x + 1; }\n' >ok.c
mkfifo pipe.rsp pipe.h

# run_limited SECONDS ARGS...: run, but a hang is a failure, not a stuck test.
run_limited() {
  local limit=$1
  shift
  set +e
  timeout "$limit" "$PURIST" "$@" >"$T/out" 2>"$T/err"
  RC=$?
  set -e
  LAST="purist $*"
  [ "$RC" -ne 124 ] || fail "still running after ${limit}s$NL$(context)"
}

check "@FIFO: refused at once, no hang"
run_limited 20 infer --no-cache ok.c -- @pipe.rsp
expect_rc 2
expect_stderr_has 'response file @pipe\.rsp: (not a regular file|No such device)'
check "a response file naming itself, directly or through another: refused"
printf -- '-DA=1 @self.rsp\n' >self.rsp
printf -- '-DB=1 @two.rsp\n' >one.rsp
printf -- '-DC=1 @one.rsp\n' >two.rsp
for r in self one; do
  run_limited 20 infer --no-cache ok.c -- @$r.rsp
  expect_rc 2
  expect_stderr_has "response file @$r\\.rsp: it names itself"
done
check "a response file larger than 16 MiB: refused"
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >big.rsp
run_limited 60 infer --no-cache ok.c -- @big.rsp
expect_rc 2
expect_stderr_has 'response file @big\.rsp: larger than 16 MiB'
check "a response file whose size says 0 but that never ends (/proc/self/pagemap): refused at once"
run_limited 20 infer --no-cache ok.c -- @/proc/self/pagemap
expect_rc 2
expect_stderr_has 'response file @/proc/self/pagemap: '
check "a good response file is not refused"
printf -- '-DN=3\n' >good.rsp
run_limited 60 infer --no-cache ok.c -- @good.rsp
expect_rc 0
expect_stdout_has 'ok: const'

check "#include of /dev/zero, /dev/urandom, a FIFO: an error in a second, the other file analysed"
for inc in /dev/zero /dev/urandom pipe.h; do
  printf '#include "%s"\nint z(int x) { return x; }\n' "$inc" >inc.c
  run_limited 30 infer --no-cache inc.c ok.c
  expect_rc 2
  expect_stderr_has "inc\\.c:1:10: error: .*$(basename $inc)"
  expect_stdout_has 'ok: const'
done
check "#include \"/dev/null\" is still an empty file"
printf '#include "/dev/null"\nint z(int x) { return x; }\n' >null.c
run_limited 30 infer --no-cache null.c
expect_rc 0
expect_stdout_has 'z: const'

check "PURIST_PARSE_MEMORY_MIB caps the worker: 64 MiB cannot parse, the TU fails alone"
if grep -aq __asan_init "$PURIST"; then
  echo "skipped: the ASan build runs without the cap"
else
  PURIST_PARSE_MEMORY_MIB=64 run_limited 60 infer --no-cache ok.c
  expect_rc 2
  expect_stderr_has 'ok\.c: error: .*(process parsing this file|crashed)'
  PURIST_PARSE_MEMORY_MIB=0 run_limited 60 infer --no-cache ok.c
  expect_rc 0
fi
echo ok
