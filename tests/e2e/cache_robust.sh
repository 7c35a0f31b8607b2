#!/usr/bin/env bash
# The summary cache under bad conditions: damaged entries are noted,
# discarded and rebuilt; an unusable cache directory gives one warning and
# a correct run; two runs at once on one cold cache both print the right
# output and leave a cache a third run hits entirely; TUs with errors are
# cached with their errors and print them every time; `cache clean`; --no-cache,
# --cache-dir, PURIST_CACHE_DIR; files named without a database.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
write_generated_project "$P" 8
cd "$P"
unset PURIST_CACHE_DIR

stats() {
  local want="purist: cache: $2 hits, $3 misses, $4 parsed"
  grep -qx -- "$want" "$T/err" || fail "$1: expected '$want'${NL}$(context)"
}

run infer -p . --no-cache
expect_ok
cp "$T/out" "$T/ref.out"

check "--no-cache writes nothing"
[ ! -e "$XC" ] && [ ! -e .purist-cache ] || fail "--no-cache created a cache"

check "a damaged result: one note naming the file, rebuilt, correct output"
run infer -p .
expect_ok
victim=$(find "$XC" -name '*.r' | sort | head -n 1)
printf 'garbage' | dd of="$victim" bs=1 seek=40 conv=notrunc 2>/dev/null
run infer -p . --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output after a damaged entry"
[ "$(grep -c 'discarded a damaged entry' "$T/err")" -eq 1 ] || fail "expected one note${NL}$(context)"
expect_stderr_has 'purist: note: cache: discarded a damaged entry for /.*/src/f[0-9]\.c \(.*\.r: bad checksum\)'
stats "damaged result" 7 1 1
run infer -p . --stats
stats "after the rebuild" 8 0 0
[ "$(grep -c note "$T/err")" -eq 0 ] || fail "the rebuilt entry is still reported${NL}$(context)"

check "a truncated manifest: noted, rebuilt"
victim=$(find "$XC" -name '*.m' | sort | head -n 1)
truncate -s 20 "$victim"
run infer -p . --stats
same "$T/ref.out" "$T/out" "output after a truncated manifest"
expect_stderr_has 'discarded a damaged entry .*\.m: not a cache entry|discarded a damaged entry .*\.m: truncated'
stats "truncated manifest" 7 1 1

check "an empty result file (a crash mid-write elsewhere): noted, rebuilt"
victim=$(find "$XC" -name '*.r' | sort | tail -n 1)
: >"$victim"
run infer -p . --stats
same "$T/ref.out" "$T/out" "output after an empty entry"
stats "empty result" 7 1 1

check "a cache directory that cannot be created: one warning, correct output, exit 0"
run infer -p . --cache-dir "$P/compile_commands.json/cache" -j4 --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output without a usable cache"
[ "$(grep -c warning "$T/err")" -eq 1 ] || fail "expected exactly one warning${NL}$(context)"
expect_stderr_has '^purist: warning: cache: cannot use the cache directory .*compile_commands.json/cache: .*compile_commands.json is not a directory; running without the cache$'
expect_stderr_has '^purist: cache: off, 8 parsed$'
run infer -p . --cache-dir "$P/compile_commands.json/cache" --quiet
[ ! -s "$T/err" ] || fail "--quiet should silence the warning${NL}$(context)"

if [ "$(id -u)" -ne 0 ]; then
  check "a read-only cache directory: one warning, correct output"
  mkdir "$T/ro" && chmod 555 "$T/ro"
  run infer -p . --cache-dir "$T/ro/c" -j4
  expect_rc 0
  same "$T/ref.out" "$T/out" "output with a read-only cache directory"
  [ "$(grep -c warning "$T/err")" -eq 1 ] || fail "expected exactly one warning${NL}$(context)"
fi

check "--cache-dir and PURIST_CACHE_DIR choose the directory"
run infer -p . --cache-dir "$T/c1" --stats
stats "--cache-dir cold" 0 8 8
[ -f "$T/c1/CACHEDIR.TAG" ] || fail "no cache in --cache-dir"
PURIST_CACHE_DIR=$T/c1 run infer -p . --stats
stats "PURIST_CACHE_DIR warm" 8 0 0
PURIST_CACHE_DIR=$T/c1 run infer -p . --stats --cache-dir "$T/c2"
stats "--cache-dir wins over the environment" 0 8 8

check "two runs at once on a cold cache: both right; a third run hits everything"
rm -rf "$T/cc"
set +e
"$PURIST" infer -p . --cache-dir "$T/cc" -j2 >"$T/o1" 2>"$T/e1" &
p1=$!
"$PURIST" infer -p . --cache-dir "$T/cc" -j2 >"$T/o2" 2>"$T/e2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
set -e
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] || fail "concurrent runs exited $r1 and $r2: $(cat "$T/e1" "$T/e2")"
[ ! -s "$T/e1" ] && [ ! -s "$T/e2" ] || fail "concurrent runs printed on stderr: $(cat "$T/e1" "$T/e2")"
same "$T/ref.out" "$T/o1" "first concurrent run's output"
same "$T/ref.out" "$T/o2" "second concurrent run's output"
run infer -p . --cache-dir "$T/cc" --stats
stats "after the concurrent runs" 8 0 0
[ -z "$(find "$T/cc" -name '*.tmp*')" ] || fail "temporary files left in the cache"

check "a file with errors is cached with its errors: printed on every run, from the entry"
echo 'int broken( { return 0; }' >src/f7.c
run infer -p . --stats
expect_rc 2
cp "$T/err" "$T/err1"
stats "errors" 7 1 1
run infer -p . --stats
expect_rc 2
stats "errors again" 8 0 0
grep -v '^purist: \(cache\|compiler view\):' "$T/err1" > "$T/err1.msgs" || true
grep -v '^purist: \(cache\|compiler view\):' "$T/err" > "$T/err2.msgs" || true   # --stats' own lines
same "$T/err1.msgs" "$T/err2.msgs" "messages of two runs over a file with errors"
expect_stderr_has 'f7.c:1:13: error'

check "files named without a database: cached in the user cache too, nothing in the current directory"
mkdir "$T/loose" && cd "$T/loose"
printf 'int twice(int x) { return 2 * x; }\n' >t.c
run infer t.c --stats
expect_rc 0
expect_stderr_has '^purist: cache: 0 hits, 1 misses, 1 parsed$'
run infer t.c --stats
expect_stderr_has '^purist: cache: 1 hits, 0 misses, 0 parsed$'
[ -z "$(ls -A)" ] || [ "$(ls -A)" = t.c ] || fail "something appeared in the current directory: $(ls -A)"
run infer t.c --stats --cache-dir "$T/lc"
expect_stderr_has '^purist: cache: 0 hits, 1 misses, 1 parsed$'
run infer t.c --stats --cache-dir "$T/lc"
expect_stderr_has '^purist: cache: 1 hits, 0 misses, 0 parsed$'
expect_stdout_has '^t.c:1: twice: const'
cd "$P"

check "without HOME and XDG_CACHE_HOME (a bare service account): no cache, the run goes on"
(unset XDG_CACHE_HOME HOME; run infer -p . --stats; expect_stderr_has '^purist: cache: off, 8 parsed$'; no_crash)

check "cache clean empties the shared cache; an old .purist-cache beside the database goes too"
run infer -p . --cache-dir "$P/.purist-cache"   # what purist before issue 20 wrote
[ -f .purist-cache/CACHEDIR.TAG ] || fail "could not make an old-style cache"
run cache clean -p .
expect_rc 0
expect_stderr_has "^purist: cache: removed [0-9]+ entries from $XC\$"
expect_stderr_has '^purist: cache: removed [0-9]+ entries from .*/proj/.purist-cache$'
[ ! -e .purist-cache ] || fail ".purist-cache is still there"
[ ! -e "$XC" ] || fail "$XC is still there"
run cache clean -p .
expect_rc 0
expect_stderr_has 'removed 0 entries'

check "cache clean --cache-dir; and it refuses a directory that is not a cache"
run cache clean --cache-dir "$T/c1"
expect_rc 0
[ ! -e "$T/c1" ] || fail "$T/c1 is still there"
mkdir "$T/mine" && echo keep >"$T/mine/file"
run cache clean --cache-dir "$T/mine"
expect_usage_error 'not a purist cache'
[ -f "$T/mine/file" ] || fail "cache clean removed a file that is not its own"
run cache
expect_usage_error 'cache wants a subcommand'
