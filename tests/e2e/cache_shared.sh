#!/usr/bin/env bash
# The cache lives where caches live (issue 20 item 6): by default
# $XDG_CACHE_HOME/purist (else ~/.cache/purist), one cache for every
# project (its keys hold paths and contents), nothing written into a
# source tree — not even for a compile database in the source root, as
# bear writes it — unless --cache-dir says so; a size limit
# (--cache-max-size, default 1G) pruned least recently used first;
# `purist cache stats`. lib.sh points XDG_CACHE_HOME at a scratch
# directory: a test never writes the user's own ~/.cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
unset PURIST_CACHE_DIR
write_generated_project "$T/a" 8
write_generated_project "$T/b" 8
sed -i 's/int shared/int other_shared/' "$T/b/src/"*.c   # b's sources differ from a's
find "$T/a" "$T/b" | sort >"$T/tree.before"

stats() {
  local want="purist: cache: $2 hits, $3 misses, $4 parsed"
  grep -qx -- "$want" "$T/err" || fail "$1: expected '$want'${NL}$(context)"
}
# cache_bytes: what `purist cache stats` says the cache holds, in bytes.
cache_bytes() {
  "$PURIST" cache stats | sed -n 's/^size: .*(\([0-9]*\) bytes)$/\1/p'
}

check "two projects share \$XDG_CACHE_HOME/purist; each hits its own entries"
cd "$T/a"; run infer -p . --stats; expect_rc 0; stats "a cold" 0 8 8
cd "$T/b"; run infer -p . --stats; expect_rc 0; stats "b cold" 0 8 8
cd "$T/a"; run infer -p . --stats; expect_rc 0; stats "a warm" 8 0 0
cd "$T/b"; run infer -p . --stats; expect_rc 0; stats "b warm" 8 0 0
[ -f "$XC/CACHEDIR.TAG" ] || fail "no cache in $XC"

check "nothing was written into either source tree (their databases are in the source roots, as bear's)"
find "$T/a" "$T/b" | sort >"$T/tree.after"
same "$T/tree.before" "$T/tree.after" "the source trees before and after"

check "without XDG_CACHE_HOME: ~/.cache/purist"
mkdir "$T/home"
cd "$T/a"
(unset XDG_CACHE_HOME; HOME=$T/home run infer -p . --stats; stats "HOME cold" 0 8 8)
[ -f "$T/home/.cache/purist/CACHEDIR.TAG" ] || fail "no cache in \$HOME/.cache/purist"
rm -rf "$T/home"

check "cache stats: the directory, what it holds, the limit"
run cache stats
expect_ok
expect_stdout_has "^cache directory: $XC\$"
expect_stdout_has '^files cached: +16 '
expect_stdout_has '^size: .*\([0-9]+ bytes\)$'
expect_stdout_has '^limit: +1\.0 GiB \('
run cache stats --cache-max-size 0
expect_stdout_has '^limit: +none'

check "--cache-max-size: the cache is pruned to the limit, least recently used first"
cd "$T/a"; run cache clean; run infer -p . --cache-max-size 0; expect_ok
one=$(cache_bytes)
[ "$one" -gt 0 ] || fail "the cache holds nothing after a run"
limit=$((one * 3 / 2))          # room for one project and a half, not two
sleep 0.1                       # a's entries are older than b's
cd "$T/b"; run infer -p . --cache-max-size "$limit" --stats; expect_rc 0; stats "b cold" 0 8 8
now=$(cache_bytes)
[ "$now" -le "$limit" ] || fail "the cache holds $now bytes, over the limit $limit"
cd "$T/b"; run infer -p . --cache-max-size "$limit" --stats; stats "b, the newest, kept whole" 8 0 0
cd "$T/a"; run infer -p . --cache-max-size 0 --stats
grep -Eq '^purist: cache: [0-7] hits, [1-8] misses' "$T/err" || fail "a's older entries were not the ones pruned${NL}$(context)"

check "a hit counts as a use: what was read last is pruned last"
write_generated_project "$T/c" 8
sed -i 's/int shared/int third_shared/' "$T/c/src/"*.c
cd "$T/a"; run cache clean
run infer -p . --cache-max-size 0; cd "$T/b"; run infer -p . --cache-max-size 0
sleep 0.1
cd "$T/a"; run infer -p . --cache-max-size 0 --stats; stats "a warm" 8 0 0   # a: used after b
sleep 0.1
# c's cold run writes past a limit that holds two projects and a third of
# one: the least recently used, b, goes; a, older than b but read since, stays.
cd "$T/c"; run infer -p . --cache-max-size $((one * 7 / 3)) --stats; stats "c cold" 0 8 8
cd "$T/a"; run infer -p . --cache-max-size 0 --stats; stats "a, read after b was written, kept whole" 8 0 0
cd "$T/b"; run infer -p . --cache-max-size 0 --stats
grep -Eq '^purist: cache: [0-7] hits, [1-8] misses' "$T/err" || fail "b, the least recently used, was not pruned${NL}$(context)"

check "bad sizes are usage errors; K, M, G and 0 are accepted"
for v in -1 1X abc '' 10Q 99999999999T; do
  run cache stats --cache-max-size "$v"
  expect_usage_error "--cache-max-size wants a size such as 500M"
done
for v in 10K 500M 2G 2GiB 0 4096; do run cache stats --cache-max-size "$v"; expect_ok; done

check "an old .purist-cache beside the database: cache stats names it, cache clean removes it"
cd "$T/a"
run infer -p . --cache-dir "$T/a/.purist-cache"
run cache stats -p .
expect_stdout_has "^old cache: +$T/a/.purist-cache \(no longer used"
run cache clean -p .
expect_rc 0
expect_stderr_has "removed [0-9]+ entries from $T/a/.purist-cache\$"
[ ! -e "$T/a/.purist-cache" ] || fail "the old cache is still there"
echo "ok"
