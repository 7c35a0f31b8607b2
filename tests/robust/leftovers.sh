#!/usr/bin/env bash
# Issue 23 item 16: nothing left behind. verify sent SIGTERM (what
# timeout(1) sends) passes it on to the command, which ends, and removes
# its scratch directory; an impact killed by SIGKILL (no handler runs)
# leaves its project copy, which the next run removes, as it does a
# verify's; a directory of a live run, or one just written, is kept.
set -euo pipefail
. "$(dirname "$0")/../impact/lib.sh" "$@"
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
cd "$T"
printf 'int ok(int x) { return x + 1; }\n' >ok.c
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }

check "verify sent SIGTERM: the command is ended too, the scratch directory removed"
cat >"$T/slow" <<SH
#!/bin/sh
echo \$\$ >"$T/slow.pid"
exec sleep 60
SH
chmod +x "$T/slow"
rm -f "$T/slow.pid"
"$PURIST" verify --no-cache ok.c -- "$T/slow" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 1 100); do [ -s "$T/slow.pid" ] && break; sleep 0.1; done
[ -s "$T/slow.pid" ] || fail "the command never started$NL$(show "$T/err")"
[ -n "$(find "$TMPDIR" -maxdepth 1 -name 'purist-verify.*')" ] || fail "no scratch directory while running"
kill -TERM $pid
set +e
wait $pid
RC=$?
set -e
LAST="purist verify -- slow, sent SIGTERM"
[ "$RC" -eq 143 ] || fail "expected exit status 143 (the command's SIGTERM), got $RC$NL$(context)"
child=$(cat "$T/slow.pid")
for i in $(seq 1 30); do alive "$child" || break; sleep 0.1; done
if alive "$child"; then kill "$child"; fail "the command still runs after verify's SIGTERM"; fi
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1)
[ -z "$left" ] || fail "left in TMPDIR: $left"

check "impact killed by SIGKILL: its copy stays; the next run removes it (and a killed verify's)"
P=$T/proj
mkdir -p "$P/include" "$P/src"
printf 'int sq(int x);\n' >"$P/include/sq.h"
printf '#include "sq.h"\nint sq(int x) { return x * x; }\n' >"$P/src/sq.c"
cat >"$T/slowcc" <<SH
#!/bin/sh
echo \$\$ >>"$T/pids"
exec sleep 60
SH
chmod +x "$T/slowcc"
write_cdb "$P" "$T/slowcc" src/sq.c
: >"$T/pids"
(cd "$P" && exec "$PURIST" impact -p . -j1 >"$T/out" 2>"$T/err") &
pid=$!
for i in $(seq 1 200); do [ -s "$T/pids" ] && break; sleep 0.1; done
[ -s "$T/pids" ] || fail "the slow compiler never started$NL$(show "$T/err")"
kill -KILL $pid
wait $pid 2>/dev/null || true
for p in $(cat "$T/pids"); do kill "$p" 2>/dev/null || true; done
copy=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name "purist-impact-$pid-*")
[ -n "$copy" ] || fail "no copy named purist-impact-$pid-* after the kill: $(ls "$TMPDIR")"
mkdir "$TMPDIR/purist-verify.$pid-abcdef" "$TMPDIR/purist-verify.$pid-fresh"
mkdir "$TMPDIR/purist-impact-$$-alive"   # this shell's: alive
touch -d '5 minutes ago' "$copy" "$TMPDIR/purist-verify.$pid-abcdef" "$TMPDIR/purist-impact-$$-alive"
run verify --no-cache ok.c -- true
expect_rc 0
[ ! -e "$copy" ] || fail "the killed impact's copy is still there"
[ ! -e "$TMPDIR/purist-verify.$pid-abcdef" ] || fail "the killed verify's directory is still there"
[ -d "$TMPDIR/purist-verify.$pid-fresh" ] || fail "a directory changed a moment ago was removed"
[ -d "$TMPDIR/purist-impact-$$-alive" ] || fail "the directory of a live process was removed"
echo ok
