#!/usr/bin/env bash
# purist impact interrupted mid-build (SIGINT as Ctrl-C sends it, SIGTERM as
# a CI timeout does): the compilers it started are killed, the temporary
# tree is removed, and it dies of the signal (exit status 128 + signal).
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
mkdir -p "$P/include" "$P/src"
printf 'int sq(int x);\n' >"$P/include/sq.h"
printf '#include "sq.h"\nint sq(int x) { return x * x; }\n' >"$P/src/sq.c"
printf '#include "sq.h"\nint four(int x) { return sq(x) + sq(x); }\n' >"$P/src/four.c"
# A compiler that takes its time: it records its own pid and its sleep's, so
# the test can see that both are gone afterwards.
cat >"$T/slowcc" <<SH
#!/bin/sh
echo \$\$ >>"$T/pids"
sleep 60 &
echo \$! >>"$T/pids"
wait
exec gcc-12 "\$@"
SH
chmod +x "$T/slowcc"
write_cdb "$P" "$T/slowcc" src/sq.c src/four.c
cd "$P"

# alive PID: the process exists and is not a zombie (state in /proc: no ps
# on a minimal system).
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }

# interrupt SIG STATUS: starts impact, waits until both compilers run,
# sends SIG, expects STATUS, no tree and no compiler left.
interrupt() {
  : >"$T/pids"
  # A script's background job starts with SIGINT ignored; impact keeps an
  # ignored signal ignored, so give it the default a terminal would.
  env --default-signal=INT,TERM "$PURIST" impact -p . -j2 >"$T/out" 2>"$T/err" &
  local pid=$! i
  for i in $(seq 1 200); do
    [ "$(wc -l <"$T/pids")" -ge 4 ] && break
    sleep 0.1
  done
  [ "$(wc -l <"$T/pids")" -ge 4 ] || fail "the slow compilers never started$(show "$T/err")"
  [ -n "$(find "$TMPDIR" -maxdepth 1 -name 'purist-impact-*')" ] || fail "no temporary tree while compiling"
  kill -"$1" "$pid"
  set +e
  wait "$pid"
  RC=$?
  set -e
  LAST="purist impact, sent SIG$1"
  [ "$RC" -eq "$2" ] || fail "expected exit status $2 after SIG$1, got $RC${NL}$(context)"
  expect_no_tree
  # A killed grandchild is reaped by init, not at once: allow it a moment;
  # a process left running (sleep 60) would still be there.
  for p in $(cat "$T/pids"); do
    for i in $(seq 1 30); do
      alive "$p" || break
      sleep 0.1
    done
    ! alive "$p" || fail "process $p (a compiler or its child) still runs after SIG$1: $(tr '\0' ' ' </proc/"$p"/cmdline)"
  done
}

check "SIGINT mid-build: exit 130, tree removed, compilers killed"
interrupt INT 130
check "SIGTERM mid-build: exit 143, tree removed, compilers killed"
interrupt TERM 143
echo "ok"
