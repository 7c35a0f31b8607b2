#!/usr/bin/env bash
# Issue 23 items 10 and 18. A valid cache entry stored under another
# file's key (copied over it) gave that file the other's summary, and its
# functions vanished: each entry now carries its key, and one under the
# wrong key is discarded and rebuilt. A directory in place of an entry
# made every write fail and turned the cache off in every later run;
# `purist cache clean` left it: now the write replaces it, and clean
# removes it.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
unset PURIST_CACHE_DIR
printf 'int a_one(void) { return 1; }\n' >a.c
printf 'int b_two(void) { return 2; }\n' >b.c

check "an entry copied over another file's: discarded, the file's own functions reported"
run infer --cache-dir ca a.c
expect_ok
run infer --cache-dir cb b.c
expect_ok
am=$(find ca -name '*.m') ar=$(find ca -name '*.r') bm=$(find cb -name '*.m') br=$(find cb -name '*.r')
[ -n "$am" ] && [ -n "$bm" ] || fail "no entries written"
# b's entries replaced by a's, each under b's names; a's result beside them.
cp "$am" "$bm"
cp "$ar" "$br"
mkdir -p "cb/$(basename "$(dirname "$ar")")"
cp "$ar" "cb/${ar#ca/}"
run infer --cache-dir cb b.c
expect_rc 0
expect_stdout_has '^b\.c:1: b_two: const'
expect_stdout_lacks 'a_one'
expect_stderr_has 'discarded a damaged entry for .*b\.c .*stored under another key'
run infer --cache-dir cb b.c --stats
expect_stdout_has '^b\.c:1: b_two: const'
expect_stderr_has 'cache: 1 hits'

check "a directory in place of an entry: replaced by the entry, the cache stays on"
rm -rf cb
run infer --cache-dir cb b.c
r=$(find cb -name '*.r')
rm "$r"
mkdir -p "$r/inside"
run infer --cache-dir cb b.c --stats
expect_rc 0
expect_stdout_has 'b_two: const'
if grep -q 'cannot write' "$T/err"; then fail "the directory turned the cache off$NL$(context)"; fi
[ -f "$r" ] || fail "the entry was not written in the directory's place"
run infer --cache-dir cb b.c --stats
expect_stderr_has 'cache: 1 hits, 0 misses, 0 parsed'

check "cache clean removes a directory named as an entry"
rm "$r"
mkdir -p "$r/inside"
run cache clean --cache-dir cb
expect_rc 0
[ ! -e cb ] || fail "cache clean left: $(find cb)"
echo ok
