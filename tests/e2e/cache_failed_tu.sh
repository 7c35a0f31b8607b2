#!/usr/bin/env bash
# A TU with errors is cached with its errors (issue 32 item 3: on git, 31
# test files that never parse were parsed again on every warm run, three
# quarters of a one-file check): a warm run prints the same messages and
# output as a parse would, without parsing. The entry holds while the files
# the TU read are unchanged and no header it did not find has appeared in
# a directory it could be found in (cache_absent.c): creating the header
# (in a -I directory, an -isystem one, a subdirectory not there before, or
# the includer's own directory), fixing a header with the error, or
# removing the header again is a miss, and each run equals a --no-cache run.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
mkdir -p "$P/inc" "$P/sys"
cd "$P"
cat > a.c <<'EOF'
#include "gen.h"
int gen_twice(int x) { return 2 * GEN_VALUE * x; }
EOF
cat > b.c <<'EOF'
#include <later.h>
int later_value(void) { return LATER; }
EOF
cat > c.c <<'EOF'
#include "sub/deep.h"
int deep_value(void) { return DEEP; }
EOF
cat > d.c <<'EOF'
#include "bad.h"
int uses_bad(void) { return BAD; }
EOF
echo '#define BAD (1 +)' > bad.h
cat > e.c <<'EOF'
int gen_twice(int x);
int later_value(void);
int counter;
int calls_all(int x) { return gen_twice(x) + later_value(); }
void bump(void) { counter++; }
EOF
args() { printf '"arguments":["cc","-Iinc","-isystem","sys","-c","%s"]' "$1"; }
{
  echo '['
  for f in a b c d; do printf '{"directory":"%s","file":"%s.c",%s},\n' "$PWD" "$f" "$(args $f.c)"; done
  printf '{"directory":"%s","file":"e.c",%s}]\n' "$PWD" "$(args e.c)"
} > compile_commands.json

stats() {
  local want="purist: cache: $2 hits, $3 misses, $4 parsed"
  grep -qx -- "$want" "$T/err" || fail "$1: expected '$want'${NL}$(context)"
}
# reference STEP: the same command without the cache, as $T/ref.{out,err}.
reference() {
  run infer -p . --no-cache --format=json
  cp "$T/out" "$T/ref.out"
  grep -v '^purist: cache:' "$T/err" > "$T/ref.err" || true
  REF_RC=$RC
}
# like_reference WHAT: the last cached run printed what --no-cache printed.
like_reference() {
  [ "$RC" -eq "$REF_RC" ] || fail "$1: exit $RC, without the cache $REF_RC${NL}$(context)"
  same "$T/ref.out" "$T/out" "$1: output with and without the cache"
  grep -v '^purist: \(cache\|compiler view\):' "$T/err" > "$T/err.nostats" || true   # --stats' lines
  same "$T/ref.err" "$T/err.nostats" "$1: messages with and without the cache"
}

check "cold: four files with errors, each parsed"
reference
run infer -p . --stats --format=json
expect_rc 2
stats "cold" 0 5 5
expect_stderr_has "'gen.h' file not found"
expect_stderr_has "'later.h' file not found"
expect_stderr_has "'sub/deep.h' file not found"
expect_stderr_has 'bad.h:1:.*error'
like_reference "cold"

check "warm: nothing parsed, the same errors and output"
run infer -p . --stats --format=json
stats "warm" 5 0 0
like_reference "warm"

# A watch is a directory: a header created in inc/ is a miss for every
# TU that missed a header inc/ is searched for (a.c, b.c, c.c), not for
# d.c (its error is in a header it read) nor e.c (no error).
check "a header created in the -I directory: the TUs that looked there are parsed again, a.c now analysed"
echo '#define GEN_VALUE 3' > inc/gen.h
reference
grep -q '"gen_twice"' "$T/ref.out" || fail "gen_twice is not in the reference output"
run infer -p . --stats --format=json
stats "gen.h created" 2 3 3
expect_stderr_lacks "'gen.h' file not found"
like_reference "gen.h created"

check "a header created in the -isystem directory"
echo '#define LATER 4' > sys/later.h
reference
run infer -p . --stats --format=json
stats "later.h created" 3 2 2   # b.c and c.c looked in sys/
expect_stderr_lacks "'later.h' file not found"
like_reference "later.h created"

check "a subdirectory created, still without the header: parsed again, the same error"
mkdir sub
reference
run infer -p . --stats --format=json
stats "sub/ created" 4 1 1
expect_stderr_has "'sub/deep.h' file not found"
like_reference "sub/ created"
run infer -p . --stats --format=json
stats "sub/ created, warm" 5 0 0

check "then the header in it: parsed again and analysed"
echo '#define DEEP 5' > sub/deep.h
reference
run infer -p . --stats --format=json
stats "sub/deep.h created" 4 1 1
expect_stderr_lacks "'sub/deep.h' file not found"
like_reference "sub/deep.h created"

check "the header with the error fixed: parsed again"
echo '#define BAD 1' > bad.h
reference
run infer -p . --stats --format=json
expect_rc 0
stats "bad.h fixed" 4 1 1
like_reference "bad.h fixed"

check "a header removed again: the error is back, not the stored success"
rm inc/gen.h
reference
run infer -p . --stats --format=json
expect_rc 2
stats "gen.h removed" 4 1 1
expect_stderr_has "'gen.h' file not found"
like_reference "gen.h removed"

check "a header appearing beside the includer (a quoted include's first place)"
echo '#define GEN_VALUE 7' > gen.h
reference
run infer -p . --stats --format=json
expect_rc 0
stats "gen.h beside a.c" 4 1 1
like_reference "gen.h beside a.c"

check "check FILE on the warm cache: no parse"
rm gen.h
run infer -p . --stats
run check -p . --stats e.c
stats "check, warm" 5 0 0

check "damaged token records (.k, one per TU) are never trusted, their files lexed: the same output, no note"
# The files' last edits a second behind, a warm run's index vouches for
# them (cache_stat.c trusts no stamp of the second the index is written
# in): only e.c, edited below, needs its record. Without the pause a fast
# machine read all five damaged records, and none was left to count.
sleep 1
run infer -p . --format=json
run infer -p . --format=json --no-cache
cp "$T/out" "$T/ref.out"
grep -v '^purist: \(cache\|compiler view\):' "$T/err" > "$T/ref.err" || true
REF_RC=$RC
nk=0
while IFS= read -r k; do
  case $((nk % 3)) in
    0) : > "$k" ;;                                        # empty
    1) printf 'PURISTCK garbage' > "$k" ;;                 # bad header
    2) printf '\001' | dd of="$k" bs=1 seek=40 conv=notrunc 2>/dev/null ;;   # a flipped byte: bad checksum
  esac
  nk=$((nk + 1))
done < <(find "$XC" -name '*.k')
[ "$nk" -eq 5 ] || fail "expected a token record per TU (5), found $nk"
echo '/* a comment: a.c is found by its tokens */' >> e.c
run infer -p . --stats --format=json
expect_stderr_has '^purist: cache: 5 hits, 0 misses, 0 parsed \(1 of the hits after edits of comments'
like_reference "damaged .k"
expect_stderr_lacks 'discarded'

check "token records are counted and pruned with the rest"
nk=$(find "$XC" -name '*.k' | wc -l)
[ "$nk" -ge 4 ] || fail "expected token records (e.c's damaged one removed), found $nk"
echo 'int another(void) { return 1; }' >> e.c   # a token change: a parse, so the run writes and prunes
run infer -p . --cache-max-size=1 --format=json
no_crash
left=$(find "$XC" -name '*.k' | wc -l)
[ "$left" -eq 0 ] || fail "a 1-byte limit left $left token entries:${NL}$(find "$XC" -name '*.k')"
