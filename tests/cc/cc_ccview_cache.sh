#!/usr/bin/env bash
# `purist cc` keeps what GCC predefines (`gcc -dM -E`) on disk between
# compiles (issue 24 item 3): the second compile reads it instead of running
# the compiler again; another compiler executable (here the same script
# rewritten) gets another entry; PURIST_CC_CACHE=0 keeps nothing.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
cd "$T"
mkdir bin
printf '#!/bin/sh\nexec /usr/bin/gcc "$@"\n' >bin/gcc
chmod +x bin/gcc
cat >m.c <<'EOF2'
#ifdef PURIST_MARK_CACHED
int marked(int x) { return x; }
#endif
int plain_fn(int x) { return x + 1; }
EOF2
export PURIST_CC_CACHE=$T/cache

check "the first compile stores the compiler's macros"
"$PURIST" cc "$T/bin/gcc" -O2 -c m.c -o m.o || fail "purist cc failed"
n=$(ls cache/ccview-*.dm 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || fail "expected one cache entry, found $n"
grep -q '#define __GNUC__ ' cache/ccview-*.dm || fail "the entry is not gcc -dM -E's output"

check "the next compile reads them (a macro added to the entry is seen)"
echo '#define PURIST_MARK_CACHED 1' >>cache/ccview-*.dm
"$PURIST" cc "$T/bin/gcc" -O2 -c m.c -o m2.o || fail "purist cc failed"
run link m2.o
expect_ok
expect_stdout_has 'marked'

check "another compiler executable (rewritten) is asked again: its own entry"
sleep 1
printf '#!/bin/sh\n# rewritten\nexec /usr/bin/gcc "$@"\n' >bin/gcc
"$PURIST" cc "$T/bin/gcc" -O2 -c m.c -o m3.o || fail "purist cc failed"
run link m3.o
expect_ok
expect_stdout_lacks 'marked'
[ "$(ls cache/ccview-*.dm | wc -l)" -eq 2 ] || fail "expected a second entry"

check "PURIST_CC_CACHE=0: nothing is stored or read"
rm -rf cache
PURIST_CC_CACHE=0 "$PURIST" cc "$T/bin/gcc" -O2 -c m.c -o m4.o || fail "purist cc failed"
[ ! -e cache ] || fail "PURIST_CC_CACHE=0 made a cache"
echo "ok"
