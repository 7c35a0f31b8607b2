#!/usr/bin/env bash
# An edit of comments or spacing costs no parse (issue 32 item 2): the
# cache keys each file on its preprocessing tokens, and a hit on files
# whose tokens only moved moves the summary's locations with them. What
# every command prints (infer --format=json, check, suggest --all, fix
# --dry-run) and what fix writes are those of a run without the cache on
# the edited tree, line numbers moved; a real token change re-parses the
# TUs that include the file, and a file whose lines are values (__LINE__)
# or a C89 TU (no // comments) is parsed again.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
write_generated_project "$P" 6
# f1 includes a header with an attribute macro fix reuses and a function
# already declared pure (attribute positions); f3 one that uses __LINE__.
cat >"$P/inc/extra.h" <<'EOF'
#define PURE_FN __attribute__((pure))
int already(int x) PURE_FN;
static inline int extra(int x) { return x + 1; }
EOF
printf 'static const int where = __LINE__;\nstatic inline int here(void) { return where; }\n' >"$P/inc/lined.h"
sed -i '1i #include "extra.h"' "$P/src/f1.c"
printf 'int already(int x) { return x + shared1 + extra(x); }\n' >>"$P/src/f1.c"
sed -i '1i #include "lined.h"' "$P/src/f3.c"
cd "$P"

# stats DESCRIPTION HITS MISSES PARSED [MOVED]: the last run's --stats line.
stats() {
  local want="purist: cache: $2 hits, $3 misses, $4 parsed"
  [ -n "${5:-}" ] && want="$want ($5 of the hits after edits of comments or spacing only)"
  grep -qx -- "$want" "$T/err" || fail "$1: expected '$want'${NL}$(context)"
}

# outputs NAME: infer --format=json, check, suggest --all and fix
# --dry-run into $T/NAME.*, each run's exit status checked.
outputs() {
  local cache=() name=$1
  shift
  cache=("$@")
  run infer -p . --format=json "${cache[@]}"; expect_rc 0; cp "$T/out" "$T/$name.json"
  run check -p . "${cache[@]}"; cp "$T/out" "$T/$name.check"; cp "$T/err" "$T/$name.check.err"
  run suggest --all -p . "${cache[@]}"; cp "$T/out" "$T/$name.suggest"
  run fix --dry-run -p . "${cache[@]}"; expect_rc 0; cp "$T/out" "$T/$name.fix"
}

# same_outputs A B: every output of A is byte-identical to B's.
same_outputs() {
  for ext in json check check.err suggest fix; do same "$T/$1.$ext" "$T/$2.$ext" "$ext of $1 and $2"; done
}

check "cold run: every TU parsed"
run infer -p . --stats
stats "cold" 0 6 6

check "a comment line atop the header every TU includes, a comment inside a line, spacing, a comment in a .c: no TU parsed"
sed -i '1i /* Copyright: a line added above everything. */' inc/gen.h
sed -i 's|^int f3(int x);|int /* hot */  f3(int x);|' inc/gen.h
sed -i 's|^#define PURE_FN|\n\n#define   PURE_FN|' inc/extra.h
sed -i 's|^int g2(int x)$|// g2 reads a global\nint g2(int x)|' src/f2.c
run infer -p . --format=json --stats
stats "comment edits" 6 0 0 6
grep -q '"name": "common_clamp", "file": "inc/gen.h", "line": 2,' "$T/out" ||
  fail "common_clamp's line did not move to 2${NL}$(context)"
outputs cached
outputs ref --no-cache
same_outputs ref cached
grep -q "^inc/gen.h:[0-9]*:16: warning: 'f3'" "$T/ref.suggest" || fail "no suggestion at f3's moved column${NL}$(show "$T/ref.suggest")"

check "the next run hits exactly: the moved result was stored again"
run infer -p . --stats
stats "after the moved hit" 6 0 0

check "another comment edit, then fix: the files it writes are those an uncached fix writes"
sed -i '1d' inc/gen.h
sed -i 's|^void set0(int v);|/* set0:\n   writes shared0 */\nvoid set0(int v);|' inc/gen.h
rm -rf "$T/copy"
cp -r "$P" "$T/copy"
sed -i "s|\"directory\": \"$P\"|\"directory\": \"$T/copy\"|" "$T/copy/compile_commands.json"
run fix --all -p . --stats
expect_rc 0
stats "fix after a comment edit" 6 0 0 6
(cd "$T/copy" && "$PURIST" fix --all -p . --no-cache >/dev/null 2>&1) || fail "uncached fix failed"
for f in inc/gen.h inc/extra.h src/f0.c src/f1.c src/f2.c src/f3.c src/f4.c src/f5.c; do
  same "$T/copy/$f" "$f" "$f as fixed through moved summaries and uncached"
done
grep -q '__attribute__' inc/gen.h || fail "fix wrote no attribute into gen.h${NL}$(show inc/gen.h)"

check "a token changes in the shared header: every TU parsed"
run infer -p . --stats
sed -i 's|^int f0(int x)|int f0(int y)|' inc/gen.h
run infer -p . --stats
stats "token edit" 0 6 6

check "damaged position tables: a comment edit parses again (right lines, no crash); the tables are rebuilt"
run infer -p . --stats
stats "warm before damage" 6 0 0
n=0
# Invert byte 40 of each table: writing a fixed byte left a table whole
# whenever it already held that byte there (its paths vary run to run).
for f in "$XC"/*/*.t; do
  b=$(od -An -tu1 -j40 -N1 "$f" | tr -d ' ')
  printf "\\$(printf '%03o' $((255 - b)))" | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
  n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no position table in the cache"
sed -i '1i /* after the damage */' inc/gen.h
run infer -p . --format=json --stats
stats "tables damaged" 0 6 6
cp "$T/out" "$T/dmg.json"
run infer -p . --format=json --no-cache
same "$T/out" "$T/dmg.json" "JSON with damaged tables and uncached"
sed -i '1i /* and one more */' inc/gen.h
run infer -p . --stats
stats "tables rebuilt" 6 0 0 6

check "spacing the preprocessor sees (a #define's parameter list) is a token change"
printf '#define TWICE(x) ((x) * 2)\n' >>inc/extra.h
run infer -p . --stats
stats "define added" 5 1 1
sed -i 's|^#define TWICE(x)|#define TWICE (x)|' inc/extra.h
run infer -p . --stats
stats "define made object-like" 5 1 1

check "a comment in a header using __LINE__: its TU is parsed, the others not"
sed -i '1i // where is a line number' inc/lined.h
run infer -p . --stats
stats "__LINE__ header" 5 1 1

check "a C89 TU (// is no comment there) is parsed after a comment edit; the others move"
sed -i 's|"-Iinc", "-c", "src/f4.c"|"-Iinc", "-std=c89", "-c", "src/f4.c"|' compile_commands.json
run infer -p . --stats
stats "-std=c89 added" 5 1 1
sed -i '1i // one more comment' inc/gen.h
run infer -p . --stats
stats "comment edit with a C89 TU" 5 1 1 5
run infer -p . --format=json --no-cache
cp "$T/out" "$T/ref2.json"
run infer -p . --format=json
same "$T/ref2.json" "$T/out" "JSON after the last edits, cached and uncached"
