#!/usr/bin/env bash
# Issue 31 item 6: a compile in another mount namespace (a container or
# sandbox sharing the host's network namespace, the tree at the same path)
# must not be summarised by the host's summary server from the host's
# files: f writes a global in the namespace's m.c and is const in the
# host's; the namespace's object must say normal (it said const).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for unshare -m"; exit 77; }
unshare -m true 2>/dev/null || { echo "SKIP: unshare -m is not permitted here"; exit 77; }
cd "$T"
mkdir src alt
printf 'int g;\nint f(int x) { return x + 1; }\n' >src/m.c
printf 'int g;\nint f(int x) { g = x; return x + 1; }\n' >alt/m.c
# This test's own server name (the environment is part of it).
export PURIST_CC_SERVER_IDLE=5 PURIST_CC_SERVER_STATS=$T/stats

check "the host's compile starts a server and is const"
(cd src && "$PURIST" cc gcc -c m.c -o "$T/host.o") || fail "purist cc failed"
run link host.o
expect_ok
expect_stdout_has "f: const"

check "a compile in another mount namespace, same path, other file: normal, from its own files"
unshare -m sh -c 'mount --bind "$1/alt" "$1/src" && cd "$1/src" && "$2" cc gcc -c m.c -o "$1/ns.o"' _ "$T" "$PURIST" ||
  fail "purist cc in the namespace failed"
run link ns.o
expect_ok
expect_stdout_has "f: normal — writes global 'g'"
