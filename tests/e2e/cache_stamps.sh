#!/usr/bin/env bash
# A warm run does not read a file whose stamp (device, inode, size,
# modification and change times) is what an earlier run recorded when it
# read it (src/cache/cache_stat.c); anything else is read and hashed as
# before. An edit that keeps the size and puts the modification time
# back (touch -d) is still seen (the change time moved), and so is an
# edit made right after a run read the file (its record is too recent
# to be trusted: git's racily clean entries). Every run prints what a run
# without the cache prints.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat > h.h <<'EOF2'
static inline int scale(int x) { return x * 2; }
EOF2
cat > a.c <<'EOF2'
#include "h.h"
int counter;
int twice(int x) { return scale(x); }
EOF2
cat > b.c <<'EOF2'
int plain(int x) { return x + 1; }
EOF2
printf '[{"directory":"%s","file":"a.c","arguments":["cc","-c","a.c"]},
{"directory":"%s","file":"b.c","arguments":["cc","-c","b.c"]}]\n' "$PWD" "$PWD" > compile_commands.json

# same_as_uncached WHAT HITS MISSES PARSED: check --stats -p . through the
# cache, its stats line, and stdout, stderr and status as without it.
same_as_uncached() {
  run check --stats --format=json -p .
  grep -qx "purist: cache: $2 hits, $3 misses, $4 parsed" "$T/err" || fail "$1: expected $2 hits, $3 misses, $4 parsed${NL}$(context)"
  cp "$T/out" "$T/c.out"
  local rc=$RC
  grep -Ev '^purist: (cache|compiler view):' "$T/err" > "$T/c.err" || true
  run check --format=json --no-cache -p .
  [ "$RC" -eq "$rc" ] || fail "$1: exit status $rc with the cache, $RC without"
  same "$T/out" "$T/c.out" "$1: stdout with and without the cache"
  same "$T/err" "$T/c.err" "$1: stderr with and without the cache"
}
index() { find "$XC" -name '*.i' | wc -l; }

check "a cold run records the files it read, with their stamps"
sleep 2.2   # the files' times well before the run's reading: their records are trusted
same_as_uncached "cold" 0 2 2
[ "$(index)" -eq 1 ] || fail "expected one index of files (.i) in the cache, found $(index)"
same_as_uncached "warm" 2 0 0

check "an edit that keeps the size and the modification time (touch -d) is seen"
cp -p h.h "$T/ref"   # its modification time, to the nanosecond
sed -i 's/x \* 2/x \* 3/' h.h
touch -r "$T/ref" h.h
[ "$(stat -c '%y %s' h.h)" = "$(stat -c '%y %s' "$T/ref")" ] || fail "touch did not put the time back"
same_as_uncached "same size, same mtime" 1 1 1
grep -q 'x \* 3' h.h

check "a real change of the header's meaning shows in the findings, through the same path"
sleep 2.2
cat > h.h <<'EOF2'
extern int counter;
static inline int scale(int x) { counter++; return x * 2; }
EOF2
same_as_uncached "header writes a global" 1 1 1

check "an edit right after the run that read the file, same size and time, is seen"
# The run reads h.h in the second it was written: its record is too
# recent to trust (a file system with whole-second times would give the
# edit below the same stamp). The edit keeps size and modification time.
sed -i 's/counter++/counter--/' h.h
same_as_uncached "written just before the run" 1 1 1
cp -p h.h "$T/ref"
sed -i 's/counter--/counter++/' h.h
touch -r "$T/ref" h.h
[ "$(stat -c '%y %s' h.h)" = "$(stat -c '%y %s' "$T/ref")" ] || fail "touch did not put the time back"
same_as_uncached "edited just after the run" 2 0 0   # the variant stored before: a hit on the right bytes

check "an index damaged or another user's is ignored: every file read, the same output"
for i in "$XC"/*/*.i; do printf 'garbage' | dd of="$i" bs=1 seek=40 conv=notrunc 2>/dev/null; done
same_as_uncached "damaged index" 2 0 0
[ "$(index)" -eq 1 ] || fail "the damaged index was not written again"
same_as_uncached "rewritten index" 2 0 0
echo "ok"
