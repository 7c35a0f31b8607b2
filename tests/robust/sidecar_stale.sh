#!/usr/bin/env bash
# Issue 31 item 12: a link killed between writing the sidecar's temporary
# and renaming it left BINARY.purist.tmp.PID for ever. The sidecar is now
# written (and renamed) before the section is stripped, and the next link
# sweeps the temporaries of processes that are gone — never those of a
# running one, never another user's.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
printf 'int twice(int x) { return 2 * x; }\nint main(void) { return twice(0); }\n' >main.c
"$PURIST" cc gcc -O2 -c main.c -o main.o || fail "purist cc failed"
dead=99999999   # above any pid_max: no such process
echo stale >"demo.purist.tmp.$dead"
echo stale >"demo.purist.tmp.$dead.x1y2z3"
echo live >"demo.purist.tmp.$$.keep"
echo mine >"demo.purist.tmp.notapid"

check "the link sweeps dead processes' temporaries, keeps a live one's and other names"
"$PURIST" cc gcc main.o -o demo || fail "purist cc (link) failed"
[ -s demo.purist ] || fail "no sidecar"
[ ! -e "demo.purist.tmp.$dead" ] && [ ! -e "demo.purist.tmp.$dead.x1y2z3" ] ||
  fail "a dead process's temporary is still there: $(ls demo.purist.tmp.* 2>/dev/null)"
[ -e "demo.purist.tmp.$$.keep" ] || fail "a running process's temporary was removed"
[ -e demo.purist.tmp.notapid ] || fail "a file that is no temporary of ours was removed"
run link demo
expect_ok
expect_stdout_has "twice: const"
