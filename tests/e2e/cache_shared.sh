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

check "the cache's figure (\$XC/usage): kept by each run that writes; a scan only past the limit or a day on"
# A run that wrote used to stat every entry of the cache to learn whether
# the limit was passed (90,000 of them in a cache shared by a few
# projects: longer than a warm one-file run itself).
cd "$T/a"; run cache clean; run infer -p . --cache-max-size 0; cd "$T/b"; run infer -p . --cache-max-size 0
n=0
touch_a() { n=$((n + 1)); echo "int added_$n(void) { return $n; }" >> "$T/a/src/f0.c"; }   # a token edit: a run that writes
touch_a; cd "$T/a"; run infer -p . --cache-max-size 1G; expect_ok
read -r tag ver figure counted < "$XC/usage" || fail "no figure in $XC/usage after a run with a limit"
[ "$tag $ver" = "purist-cache-usage 1" ] || fail "usage: $(cat "$XC/usage")"
[ "$figure" -eq "$(cache_bytes)" ] || fail "the figure $figure after a scan is not what cache stats counts, $(cache_bytes)"
full=$(cache_bytes)
limit=$((full / 2))
# A figure under the limit is believed: no scan, nothing pruned, though
# the cache holds twice the limit; what the run wrote is added.
printf 'purist-cache-usage 1 0 %s\n' "$(date +%s)" > "$XC/usage"
touch_a; run infer -p . --cache-max-size "$limit"; expect_ok
read -r tag ver figure counted < "$XC/usage"
[ "$figure" -gt 0 ] && [ "$figure" -lt "$limit" ] || fail "the figure $figure does not hold what the run wrote (limit $limit)"
[ "$(cache_bytes)" -ge "$full" ] || fail "the cache was scanned and pruned though its figure was under the limit"
# A figure counted more than a day ago is counted again: pruned to the limit.
printf 'purist-cache-usage 1 0 %s\n' "$(($(date +%s) - 2 * 86400))" > "$XC/usage"
touch_a; run infer -p . --cache-max-size "$limit"; expect_ok
[ "$(cache_bytes)" -le "$limit" ] || fail "a day-old figure was believed: the cache holds $(cache_bytes) bytes, over $limit"
# A damaged figure is counted again too.
run infer -p . --cache-max-size 0; cd "$T/b"; run infer -p . --cache-max-size 0; cd "$T/a"
[ "$(cache_bytes)" -gt "$limit" ] || fail "the cache did not grow past the limit again"
printf 'garbage\n' > "$XC/usage"
touch_a; run infer -p . --cache-max-size "$limit"; expect_ok
[ "$(cache_bytes)" -le "$limit" ] || fail "a damaged figure was believed: the cache holds $(cache_bytes) bytes, over $limit"
# A run past the limit by its figure scans, prunes and writes the exact figure.
printf 'purist-cache-usage 1 %s %s\n' "$((limit * 4))" "$(date +%s)" > "$XC/usage"
touch_a; run infer -p . --cache-max-size "$limit"; expect_ok
read -r tag ver figure counted < "$XC/usage"
[ "$figure" -eq "$(cache_bytes)" ] || fail "after a prune the figure $figure is not the cache's $(cache_bytes)"
run cache clean
[ ! -e "$XC" ] || fail "cache clean left $XC (its figure?): $(ls -A "$XC")"

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
