#!/usr/bin/env bash
# Issue 23, residual of item 13: libclang does not read @response files
# (clang's driver main does, libclang does not), so flags held in one were
# silently lost: a -D or -I there changed nothing. purist expands them
# itself, in a database entry ("arguments" or "command", relative to its
# directory), in the flags after --, nested, and the cache keys on what
# they hold. A file naming another a thousand times over is refused, not
# read a million times.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
P=$T/proj
mkdir -p "$P/src" "$P/inc" "$P/build" "$T/elsewhere"
cd "$P"
unset PURIST_CACHE_DIR
cat >src/a.c <<'C'
#ifdef FROM_RSP
int g;
int f(int x) { g = x; return x; }
#else
int f(int x) { return x * 2; }
#endif
C
cat >src/b.c <<'C'
#include "only_in_rsp.h"
int h(int x) { return twice(x); }
C
printf 'static inline int twice(int x) { return 2 * x; }\n' >inc/only_in_rsp.h
printf -- '-DFROM_RSP\n' >flags.rsp
printf -- '-I%s/inc\n' "$P" >inner.rsp
printf -- '-Wall @inner.rsp\n' >outer.rsp

check "flags after --: a -D only in the response file counts"
run infer --no-cache src/a.c -- @flags.rsp
expect_ok
expect_stdout_has "f: normal — writes global 'g'"
check "nested: an -I only in an inner response file finds the header"
run infer --no-cache src/b.c -- @outer.rsp
expect_ok
expect_stdout_has 'h: const'

check "a database entry, \"arguments\" and \"command\", relative to its directory"
cat >build/compile_commands.json <<J
[{"directory":"$P","file":"src/a.c","arguments":["cc","-c","@flags.rsp","src/a.c"]},
 {"directory":"$P","file":"src/b.c","command":"cc -c @outer.rsp src/b.c"}]
J
cd "$T/elsewhere"
run infer --no-cache -p "$P/build"
expect_ok
expect_stdout_has "f: normal — writes global 'g'"
expect_stdout_has 'h: const'
check "flags after -- with a database: relative to the current directory"
printf '[{"directory":"%s","file":"src/a.c","arguments":["cc","-c","src/a.c"]}]\n' "$P" >"$T/elsewhere/compile_commands.json"
printf -- '-DFROM_RSP\n' >here.rsp
run infer --no-cache -p . -- @here.rsp
expect_ok
expect_stdout_has "f: normal — writes global 'g'"
check "an unreadable one after -- with a database: still refused, named"
run infer --no-cache -p . -- @missing.rsp
expect_rc 2
expect_stderr_has "error: response file @$T/elsewhere/missing\\.rsp: No such file"

check "the cache keys on what the response file holds"
cd "$P"
export PURIST_CACHE_DIR=$T/cache
run infer src/a.c -- @flags.rsp
expect_stdout_has "f: normal"
printf -- '-DNOT_IT\n' >flags.rsp
run infer src/a.c -- @flags.rsp
expect_ok
expect_stdout_has 'f: const'
unset PURIST_CACHE_DIR

check "a response file naming another 1000 times, nested: refused at once"
for i in 1 2 3; do
  n=$((i + 1))
  : >"l$i.rsp"
  for _ in $(seq 1000); do printf '@l%s.rsp ' "$n" >>"l$i.rsp"; done
done
printf -- '-DX\n' >l4.rsp
set +e
timeout 60 "$PURIST" infer --no-cache src/a.c -- @l1.rsp >"$T/out" 2>"$T/err"
RC=$?
set -e
LAST="purist infer --no-cache src/a.c -- @l1.rsp"
[ "$RC" -ne 124 ] || fail "still running after 60s"
expect_rc 2
expect_stderr_has 'response file @l1\.rsp: more than 1024 response files'
echo ok
