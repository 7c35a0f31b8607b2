#!/usr/bin/env bash
# `purist cc` hands the summaries to a summary server (src/cc/ccserver.h,
# issue 24 item 3): the objects are the same as without it
# (PURIST_CC_SERVER=0), the compile's own environment and standard error
# are used, the server holds none of the build's pipes, and it ends when
# idle.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
cd "$T"
# A name of our own: a server started by another test (other settings)
# is not ours to watch. Idle for 15 s: under ASan on a loaded machine the
# compile after the server's answer took longer than 3 s, and the server
# was gone before the test looked for it (the end is awaited up to 60 s).
export PURIST_CC_SERVER_IDLE=15 PURIST_CC_SERVER_STATS=$T/stats
cat >m.c <<'EOF2'
#include <string.h>
int twice(int x) { return 2 * x; }
size_t len(const char *s) { return strlen(s); }
EOF2
# The servers started with our settings (this shell has them too: only
# processes running __cc-server count).
servers() {
  local e n=0
  for e in $(grep -lsF "PURIST_CC_SERVER_STATS=$T/stats" /proc/[0-9]*/environ 2>/dev/null); do
    tr '\0' ' ' <"${e%/environ}/cmdline" 2>/dev/null | grep -q __cc-server && n=$((n + 1))
  done
  echo "$n"
}
section() { objcopy --dump-section .purist="$2" "$1" /dev/null 2>/dev/null || fail "$1 has no .purist section"; }

check "the purist that a build runs for every compile does not load libclang"
if ldd "$PURIST" | grep -q 'libclang'; then fail "$PURIST links libclang"; fi
[ -x "$(dirname "$PURIST")/purist-engine" ] || fail "no purist-engine beside $PURIST"

check "the summary made by the server is the one made in the launcher"
"$PURIST" cc gcc -O2 -c m.c -o a.o || fail "purist cc failed"
[ "$(servers)" -ge 1 ] || fail "no summary server is running"
PURIST_CC_SERVER=0 "$PURIST" cc gcc -O2 -c m.c -o b.o || fail "purist cc failed"
section a.o a.sec
section b.o b.sec
cmp -s a.sec b.sec || fail "the two summaries differ"
run link a.o
expect_ok
expect_stdout_has 'twice'

check "the compile's environment is the one used (PURIST_CC_CACHE of this compile)"
PURIST_CC_CACHE=$T/ccv "$PURIST" cc gcc -O2 -c m.c -o c.o || fail "purist cc failed"
ls ccv/ccview-*.dm >/dev/null 2>&1 || fail "the server did not use this compile's PURIST_CC_CACHE"

check "its warnings reach the compile's standard error"
printf 'int f(void) { return 1 +; }\n' >bad.c
cat >gcc-ok <<'EOF2'
#!/bin/sh
# a compiler that accepts anything: writes an empty object
for a; do case $prev in -o) out=$a ;; esac; prev=$a; done
gcc -c -x c /dev/null -o "$out"
EOF2
chmod +x gcc-ok
"$PURIST" cc ./gcc-ok -c bad.c -o bad.o 2>err.txt || fail "purist cc failed"
grep -q 'purist cc: warning: 1 of 1 objects built without a purist summary' err.txt \
  || { show err.txt; fail "no warning on the compile's stderr"; }

check "a command substitution returns at once: the server keeps no pipe of the build open"
start=$(date +%s)
out=$(PURIST_CC_SERVER_IDLE=60 PURIST_CC_SERVER_STATS=$T/other "$PURIST" cc gcc -O2 -c m.c -o d.o 2>&1; echo done)
[ "$out" = done ] || fail "unexpected output: $out"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "the compile's pipe stayed open"

check "a server ends when idle, and reports its CPU when asked"
for _ in $(seq 200); do [ "$(servers)" -eq 0 ] && break; sleep 0.3; done
[ "$(servers)" -eq 0 ] || fail "a summary server is still running"
[ -s stats ] || fail "no stats written"
awk 'NF != 2 { exit 1 }' stats || fail "malformed stats: $(cat stats)"
echo "ok"
