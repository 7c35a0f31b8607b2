#!/usr/bin/env bash
# Deeply nested code (issue 12, item 1): 10,000 nested `if (x)` and a
# `return x+x+…` of 100,000 terms overflowed libclang's stack and killed
# the whole run (SIGSEGV). Now each TU is parsed in a worker process on a
# thread with a large stack: both parse. A TU that still crashes the parse
# (forced here with a 1 MiB stack, PURIST_PARSE_STACK_MIB) fails alone
# with "file: error: …"; the other files are analysed; exit 2.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
awk 'BEGIN { print "int nest(int x) {"; for (i = 0; i < 10000; i++) print "if (x)"; print "x++;"; print "return x; }" }' >ifs.c
awk 'BEGIN { printf "int terms(int x) { return x"; for (i = 1; i < 100000; i++) printf "+x"; print "; }" }' >terms.c
printf 'int ok(int x) { return x + 1; }\n' >ok.c

check "10,000 nested ifs and 100,000 terms parse; every function is classified"
run infer --no-cache ok.c ifs.c terms.c
expect_ok
for f in nest terms ok; do expect_stdout_has "^[a-z]+\.c:1: $f: const — "; done

check "the same through the cache, with -j1 (one worker for all three)"
run infer --cache-dir "$T/cache" -j1 ok.c ifs.c terms.c
expect_ok
run infer --cache-dir "$T/cache" -j1 --stats ok.c ifs.c terms.c
expect_rc 0
expect_stderr_has 'cache: 3 hits, 0 misses, 0 parsed'
expect_stdout_has '^ifs\.c:1: nest: const'

check "purist cc: the compile wrapper parses in a worker too; 10,000 nested ifs get a summary"
run cc gcc -c ifs.c -o ifs.o
expect_ok
readelf -S ifs.o | grep -q '\.purist' || fail "ifs.o has no .purist section"

check "a parse that still crashes fails its file alone: error, others analysed, exit 2"
# Under ASan the worker's own stack-overflow report would be the test's
# "sanitizer" failure: let the signal end it, as in a release build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
PURIST_PARSE_STACK_MIB=1 run infer --no-cache -j1 ifs.c ok.c terms.c
expect_rc 2
expect_stderr_has "^$T/ifs\.c: error: crashed while parsing this file \(SIGSEGV"
expect_stderr_has "^$T/terms\.c: error: crashed while parsing this file \(SIGSEGV"
expect_stderr_has '2 of 3 files could not be analysed'
expect_stdout_has '^ok\.c:1: ok: const'
expect_stdout_lacks 'nest|terms'

check "purist cc: a parse that crashes costs the summary, not the object or the build"
rm -f ifs.o
PURIST_PARSE_STACK_MIB=1 run cc gcc -c ifs.c -o ifs.o
expect_rc 0
expect_stderr_has 'purist cc: warning: 1 of 1 objects built without a purist summary: ifs\.c: .*crashed while parsing'
[ -s ifs.o ] || fail "ifs.o was not built"
readelf -S ifs.o | grep -q '\.purist' && fail "ifs.o has a .purist section after a crashed parse"
echo "ok"
