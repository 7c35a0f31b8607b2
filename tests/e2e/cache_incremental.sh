#!/usr/bin/env bash
# The summary cache decides right what to parse again: a warm run parses
# nothing and prints byte for byte what a run without the cache prints
# (stdout and the TUs' messages on stderr); a changed header re-parses only
# the TUs that include it; a changed .c only itself; a touched file whose
# contents did not change nothing; a changed flag, --kb or CPATH misses; --strict
# (a link-time option) hits and still prints what --strict prints uncached.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

P=$T/proj
write_generated_project "$P" 6
# f1 and f2 (only) include a second header; f4 has a flag clang does not
# know, so its TU carries a message a hit must print too.
echo 'static inline int extra(int x) { return x + 1; }' >"$P/inc/extra.h"
sed -i '1i #include "extra.h"' "$P/src/f1.c" "$P/src/f2.c"
# f5 writes a global only on a path that ends in a noreturn call, which
# --strict judges differently.
printf 'int doomed_hits;\nint doomed(int x)\n{\n  if (x < 0) { doomed_hits++; __builtin_trap(); }\n  return x;\n}\n' >>"$P/src/f5.c"
sed -i 's|"-Iinc", "-c", "src/f4.c"|"-Iinc", "-fbogus-flag-xyz", "-c", "src/f4.c"|' "$P/compile_commands.json"
cd "$P"

# stats RUN-DESCRIPTION HITS MISSES PARSED: the last run's --stats line.
stats() {
  local want="purist: cache: $2 hits, $3 misses, $4 parsed"
  [ "$(grep -c '^purist: cache:' "$T/err")" -eq 1 ] || fail "$1: expected one stats line${NL}$(context)"
  grep -qx -- "$want" "$T/err" || fail "$1: expected '$want'${NL}$(context)"
}
# without_stats FILE: stderr less the stats line.
without_stats() { grep -v -e '^purist: cache:' -e '^purist: compiler view:' "$1" || true; }

check "without the cache: the reference output"
run infer -p . --no-cache
expect_rc 0
cp "$T/out" "$T/ref.out"; cp "$T/err" "$T/ref.err"
grep -q "f4.c: warning: compiler flags:" "$T/ref.err" || fail "no flag warning for f4.c${NL}$(context)"
[ ! -e "$XC" ] && [ ! -e .purist-cache ] || fail "--no-cache created a cache"

check "cold run: every TU parsed, cache created in \$XDG_CACHE_HOME/purist, nothing in the project"
run infer -p . --stats
expect_rc 0
stats "cold" 0 6 6
[ -f "$XC/CACHEDIR.TAG" ] || fail "no $XC/CACHEDIR.TAG"
[ ! -e .purist-cache ] || fail "a cache was written into the project"
same "$T/ref.out" "$T/out" "cold output and uncached output"

check "warm run: nothing parsed; stdout and stderr identical to the uncached run"
run infer -p . --stats
expect_rc 0
stats "warm" 6 0 0
same "$T/ref.out" "$T/out" "warm output and uncached output"
without_stats "$T/err" >"$T/warm.err"
same "$T/ref.err" "$T/warm.err" "warm messages and uncached messages"

check "warm run without --stats: stderr byte-identical to the uncached run"
run infer -p .
same "$T/ref.out" "$T/out" "output"
same "$T/ref.err" "$T/err" "messages"

check "warm run in JSON: identical to the uncached JSON"
run infer -p . --format=json --no-cache
cp "$T/out" "$T/ref.json"
run infer -p . --format=json --stats
stats "warm json" 6 0 0
same "$T/ref.json" "$T/out" "JSON output"

check "a header only f1 and f2 include changes: those two are parsed"
echo 'static inline int extra2(int x) { return x + 2; }' >>inc/extra.h
run infer -p . --stats
stats "extra.h changed" 4 2 2

check "the header every TU includes changes: all parsed"
echo 'int added_later(int);' >>inc/gen.h
run infer -p . --stats
stats "gen.h changed" 0 6 6

check "one .c file changes: only it is parsed, and the output follows the change"
echo 'int added_fn(int x) { return x * 3; }' >>src/f3.c
run infer -p . --stats
stats "f3.c changed" 5 1 1
expect_stdout_has '^src/f3.c:[0-9]+: added_fn: const'
run infer -p . --no-cache
cp "$T/out" "$T/ref2.out"
run infer -p .
same "$T/ref2.out" "$T/out" "output after the change, cached and uncached"

check "touched without a change in contents: nothing parsed (contents decide, not times)"
touch src/*.c inc/*.h
run infer -p . --stats
stats "touched" 6 0 0

check "a header changed and changed back: the earlier summary is a hit again"
cp inc/extra.h "$T/extra.h.saved"
echo 'int transient_decl(void);' >>inc/extra.h   # a token change (a comment would hit: cache_comment_edit)
run infer -p . --stats
stats "extra.h edited" 4 2 2
cp "$T/extra.h.saved" inc/extra.h
run infer -p . --stats
stats "extra.h restored" 6 0 0

check "a flag of one entry changes: that TU misses"
sed -i 's|"-Iinc", "-c", "src/f0.c"|"-Iinc", "-DLEVEL=2", "-c", "src/f0.c"|' compile_commands.json
run infer -p . --stats
stats "flag changed" 5 1 1

check "--kb adds knowledge: every TU misses, and the next run with it hits"
printf 'my_lib_fn const - from my library\n' >"$T/my.kb"
run infer -p . --stats --kb "$T/my.kb"
stats "--kb" 0 6 6
run infer -p . --stats --kb "$T/my.kb"
stats "--kb again" 6 0 0
run infer -p . --stats
stats "without --kb again" 6 0 0

check "an include path from the environment (CPATH) changes: every TU misses"
mkdir -p "$T/envinc"
CPATH=$T/envinc run infer -p . --stats
stats "CPATH set" 0 6 6
run infer -p . --stats
stats "CPATH unset again" 6 0 0

check "--strict is applied at link time: hits, and the output is --strict's"
run infer -p . --strict --no-cache
cp "$T/out" "$T/strict.out"
run infer -p . --strict --stats
stats "--strict" 6 0 0
same "$T/strict.out" "$T/out" "--strict output, cached and uncached"
grep 'doomed:' "$T/ref2.out" >"$T/doomed.plain"
grep 'doomed:' "$T/strict.out" >"$T/doomed.strict"
! cmp -s "$T/doomed.plain" "$T/doomed.strict" || fail "--strict should change doomed's line: $(cat "$T/doomed.strict")"

check "the summarize command uses the cache too"
run summarize -p . -o "$T/all.purist" --stats
stats "summarize" 6 0 0
run link "$T/all.purist" -p .
same "$T/ref2.out" "$T/out" "link of cached summaries and infer"
