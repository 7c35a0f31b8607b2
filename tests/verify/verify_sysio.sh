#!/usr/bin/env bash
# issue 33: `purist verify` never changes what the program does. Functions
# that wrongly promise purity write to stderr, append to a file, relay bytes
# through pipes between a parent and a forked child and block a signal; the
# run under verify is byte-identical to the plain run (stdout, stderr, the
# file, the exit status), and each of them is reported as making system
# calls (verify-syscall). Before: the const function writing to stderr,
# called 3 times, printed 6 lines (the re-execution check repeated it) and
# nothing was reported.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/vlib.sh"

vbuild sysio "$VDIR/sysio"
cd "$T/sysio"
set +e; ./plain plain.txt >plain.out 2>plain.err; prc=$?; set -e
[ "$prc" -eq 7 ] || fail "the plain build should exit 7, got $prc${NL}$(show plain.err)"
[ "$(grep -c '^say ' plain.err)" -eq 3 ] || fail "the fixture itself is broken${NL}$(show plain.err)"
grep -q "sigsys handler read back 1, handled 1" plain.out || fail "the fixture itself is broken${NL}$(show plain.out)"

# run with a time limit: before the fix the re-executed read() in the
# forked child waited for ever for a byte the parent never sent.
run() {
  set +e
  timeout 120 "$PURIST" "$@" >"$T/out" 2>"$T/err"
  RC=$?
  set -e
  LAST="purist $*"
  [ "$RC" -ne 124 ] || fail "verify hung (killed after 120 s)${NL}$(context)"
}

# The command's stderr under verify, without purist's own lines.
prog_err() { grep -v '^purist' "$T/err" || true; }

if [ "$(uname -m)" = x86_64 ] && [ "$(uname -r | awk -F. '{ print ($1 > 5 || ($1 == 5 && $2 >= 11)) }')" = 1 ]; then
  sud=1
else
  sud=0
fi

for sample in 1 2; do
  check "PURIST_SAMPLE=$sample: stdout, stderr, the file and the exit status are the plain run's"
  rm -f v.txt
  PURIST_SAMPLE=$sample run verify -p . --format=json -o v.json -- ./prog v.txt
  [ "$RC" -eq 7 ] || fail "exit status 7 (the program's) expected${NL}$(context)"
  same plain.out "$T/out" "stdout under verify"
  prog_err >got.err
  same plain.err got.err "the program's stderr under verify"
  same plain.txt v.txt "the file the program wrote under verify"
  if [ "$sud" = 1 ]; then
    diags v.json >got
    printf '%s\n' "append_line verify-syscall" "mask_block verify-syscall" "relay verify-syscall" \
      "say verify-global-read" "say verify-syscall" >want
    same want got "the functions and checks reported"
  fi
done

if [ "$sud" = 1 ]; then
  check "the message names the system calls, the function and the calls that made them"
  run verify -p . -- ./prog v2.txt
  expect_stdout_has "say.h:5:5: error: 'say' is declared const but made the system call write \(3 of 3 checked calls, called at say.c:9\) \[purist-verify-syscall\]"
  expect_stdout_has "'say' is declared const but read global 'stderr' \(say.c:9:11\) \[purist-verify-global-read\]"
  expect_stdout_has "'relay' is declared pure but made the system calls read \(5 of 5 checked calls, called at say.c:26\) and write \(5 of 5 checked calls, called at say.c:28\)"
  expect_stdout_has "'mask_block' is declared const but made the system call rt_sigprocmask \(1 of 1 checked calls, called at say.c:37\)"
  expect_stdout_has "'append_line' is declared pure but made the system calls openat \(4 of 4 checked calls, called at say.c:16\)"
  expect_stdout_has "'append_line' is declared pure but made the system calls .*write \(4 of 4 checked calls, called at say.c:19\)"
fi

check "without system call checking (PURIST_SYSCALLS=off) nothing runs twice, and verify says so once"
rm -f v.txt
PURIST_SYSCALLS=off run verify -p . --format=json -o v.json -- ./prog v.txt
[ "$RC" -eq 7 ] || fail "exit status 7 (the program's) expected${NL}$(context)"
same plain.out "$T/out" "stdout under verify"
prog_err >got.err
same plain.err got.err "the program's stderr under verify"
same plain.txt v.txt "the file the program wrote under verify"
[ "$(grep -c 'system calls were not checked' "$T/err")" -eq 1 ] ||
  fail "one note that system calls were not checked expected (two processes ran)${NL}$(context)"
