#!/usr/bin/env bash
# `purist cache clean` while a run is under way (issue 32 item 3): a run
# opens each cache shard directory once and keeps it; a clean from another
# terminal removes the shards (and keeps the cache directory when it holds
# something not purist's). The run's later entries must still be written:
# a shard it holds that was removed is made again, instead of a warning
# "cannot write" and a run that stops caching.
#
# The run is stopped deterministically between its phases, with no hook:
# one TU's compiler is a gcc that waits for a file before answering the
# compiler-view question (`gcc -dM -E`), which purist asks when it comes to
# that TU (-j1: in database order). The TUs before it have written their
# entries into most of the 256 shards by then; the clean runs while it
# waits; the TUs after it write into shards the run had opened.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
command -v gcc >/dev/null || fail "gcc is not installed (scripts/deps.sh)"
unset PURIST_CACHE_DIR

before=100 after=20
mkdir -p "$T/p/src" "$T/bin" "$T/cache"
cd "$T/p"
for ((i = 0; i < before; i++)); do echo "int a$i(int x) { return x + $i; }" >"src/a$i.c"; done
echo 'int waits(int x) { return x - 1; }' >src/wait.c
for ((i = 0; i < after; i++)); do echo "int b$i(int x) { return x * $i; }" >"src/b$i.c"; done
real_gcc=$(command -v gcc)
cat >"$T/bin/gcc" <<EOF
#!/bin/sh
: >"$T/asked"
while [ ! -e "$T/go" ]; do sleep 0.05; done
exec "$real_gcc" "\$@"
EOF
chmod +x "$T/bin/gcc"
{
  echo '['
  for ((i = 0; i < before; i++)); do echo "{\"directory\":\"$T/p\",\"file\":\"src/a$i.c\",\"arguments\":[\"cc\",\"-c\",\"src/a$i.c\"]},"; done
  echo "{\"directory\":\"$T/p\",\"file\":\"src/wait.c\",\"arguments\":[\"$T/bin/gcc\",\"-c\",\"src/wait.c\"]},"
  for ((i = 0; i < after; i++)); do
    sep=$([ $i -lt $((after - 1)) ] && echo , || true)
    echo "{\"directory\":\"$T/p\",\"file\":\"src/b$i.c\",\"arguments\":[\"cc\",\"-c\",\"src/b$i.c\"]}$sep"
  done
  echo ']'
} >compile_commands.json
# Something of the user's beside the entries: clean leaves the directory.
echo "notes kept with the cache" >"$T/cache/README"

check "a run whose cache is cleaned halfway goes on writing its entries, without a warning"
set +e
"$PURIST" check -j1 -p . --cache-dir "$T/cache" --stats --progress=none >"$T/out" 2>"$T/err" &
pid=$!
set -e
w=0
while [ ! -e "$T/asked" ] && [ $w -lt 1200 ]; do sleep 0.1; w=$((w + 1)); done
[ -e "$T/asked" ] || { kill "$pid"; fail "the run never asked the waiting gcc"; }
n=$(find "$T/cache" -name '*.r' | wc -l)
[ "$n" -eq "$before" ] || { touch "$T/go"; wait "$pid" || true; fail "expected $before results stored before the waiting TU, found $n"; }
"$PURIST" cache clean --cache-dir "$T/cache" 2>"$T/clean.err" || { touch "$T/go"; fail "cache clean failed: $(cat "$T/clean.err")"; }
[ -z "$(find "$T/cache" -name '*.r')" ] || { touch "$T/go"; fail "cache clean left results behind"; }
touch "$T/go"
set +e
wait "$pid"
RC=$?
set -e
LAST="purist check -j1 -p . --cache-dir $T/cache --stats (cache cleaned halfway)"
expect_rc 0
if grep -q 'warning: cache' "$T/err"; then fail "the run warned about the cache${NL}$(context)"; fi
n=$(find "$T/cache" -name '*.r' | wc -l)
[ "$n" -eq $((after + 1)) ] || fail "expected the $((after + 1)) results of the TUs after the clean, found $n${NL}$(context)"

check "the next run hits exactly the entries written after the clean"
touch "$T/go"
run check -j1 -p . --cache-dir "$T/cache" --stats --progress=none
expect_rc 0
grep -qx "purist: cache: $((after + 1)) hits, $before misses, $before parsed" "$T/err" ||
  fail "expected $((after + 1)) hits and $before misses${NL}$(context)"
echo "ok"
