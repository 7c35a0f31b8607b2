#!/usr/bin/env bash
# Cache entries that are not regular files (issue 12, item 3): a FIFO in
# place of an entry blocked open() forever; a symbolic link to /dev/zero
# read without bound. Now each is a miss with one warning a run, the
# output is right, and the entry is rebuilt.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
P=$T/proj
write_generated_project "$P" 4
cd "$P"
unset PURIST_CACHE_DIR
# A hang must fail the test, not stall it.
runt() { set +e; timeout 60 "$PURIST" "$@" >"$T/out" 2>"$T/err"; RC=$?; set -e; LAST="purist $*"; }

runt infer -p . --no-cache
expect_ok
cp "$T/out" "$T/ref.out"
runt infer -p .
expect_ok

check "a result entry replaced by a FIFO: a miss, one warning, right output"
r=$(find "$XC" -name '*.r' | sort | head -n 1)
rm "$r" && mkfifo "$r"
runt infer -p . --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output with a FIFO entry"
[ "$(grep -c 'warning: cache:' "$T/err")" -eq 1 ] || fail "expected one warning${NL}$(context)"
expect_stderr_has "purist: warning: cache: .*\.r is not a regular file \(a FIFO\); treated as a miss"
expect_stderr_has 'cache: 3 hits, 1 misses, 1 parsed'
[ -f "$r" ] || fail "the FIFO was not replaced by a rebuilt entry"

check "a manifest that is a symlink to /dev/zero, and another to a FIFO: one warning, right output"
ms=($(find "$XC" -name '*.m' | sort))
rm "${ms[0]}" "${ms[1]}"
ln -s /dev/zero "${ms[0]}"
mkfifo "$T/fifo"
ln -s "$T/fifo" "${ms[1]}"
runt infer -p . --stats -j2
expect_rc 0
same "$T/ref.out" "$T/out" "output with symlinked manifests"
[ "$(grep -c 'warning: cache:' "$T/err")" -eq 1 ] || fail "expected one warning${NL}$(context)"
expect_stderr_has "warning: cache: .*\.m is a symbolic link, not a regular file; treated as a miss"
expect_stderr_has 'cache: 2 hits, 2 misses, 2 parsed'

check "a directory in place of an entry: a miss, one warning"
r=$(find "$XC" -name '*.r' | sort | tail -n 1)
rm "$r" && mkdir "$r"
runt infer -p . --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output with a directory entry"
expect_stderr_has "warning: cache: .*\.r is not a regular file \(a directory\); treated as a miss"

check "--quiet: no warning"
runt infer -p . --quiet
expect_rc 0
[ ! -s "$T/err" ] || fail "--quiet printed something${NL}$(context)"

check "a source file that is a FIFO: no hang in the cache's hashing"
printf 'int ok(int x) { return x; }\n' >"$T/ok.c"
mkfifo "$T/pipe.c"
runt infer --cache-dir "$T/c2" "$T/ok.c" "$T/pipe.c"
expect_rc 2
expect_stderr_has "pipe\.c: error: not a regular file"
no_crash
expect_stdout_has '^.*ok\.c:1: ok: const'
echo ok
