#!/usr/bin/env bash
# Summaries: `purist summarize -o x.purist` then `purist link x.purist`
# prints exactly what `purist infer` prints, in text and in JSON (README:
# "prints what infer prints").
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# compare_infer_link DESCRIPTION [infer/summarize args...]: runs infer (text
# and JSON), summarize, and link of the summary in the cwd; the outputs of
# infer and link must be byte-identical.
compare_infer_link() {
  local what=$1
  shift
  run infer "$@"
  expect_ok
  cp "$T/out" "$T/infer.txt"
  run infer --format=json "$@"
  expect_ok
  cp "$T/out" "$T/infer.json"
  rm -f "$T/x.purist"
  run summarize -o "$T/x.purist" "$@"
  expect_ok
  expect_stdout_empty
  [ -s "$T/x.purist" ] || fail "summarize wrote no (or an empty) $T/x.purist"
  run link "$T/x.purist"
  expect_ok
  same "$T/infer.txt" "$T/out" "$what: text of infer and of link"
  run link --format=json "$T/x.purist"
  expect_ok
  same "$T/infer.json" "$T/out" "$what: JSON of infer and of link"
}

check "CMake project: summarize -p build, link == infer -p build (run from the source dir)"
write_tiny_cmake "$T/proj"
cmake_configure "$T/proj" "$T/proj/build"
cd "$T/proj"
compare_infer_link "tiny CMake project" -p build

check "link from another directory with --root gives the same as infer"
cd /
run link --root "$T/proj" "$T/x.purist"
expect_ok
same "$T/infer.txt" "$T/out" "infer (root = source dir) and link --root"

check "a function declared before another is defined: effects stay with their function"
# peek is declared (and so numbered) before poke is defined; their bodies
# are seen in the opposite order.
mkdir -p "$T/fwd"
cd "$T/fwd"
cat >a.c <<'EOF2'
int peek(void);
int g;
void poke(void) { g = 1; }
int peek(void) { return g; }
EOF2
compare_infer_link "forward declaration (effects)" a.c

check "... and calls stay with their function"
cat >b.c <<'EOF2'
static inline int clamp(int x) { return x < 0 ? 0 : x; }
int f(int x);
static int helper(int x) { return clamp(x) + 1; }
int f(int x) { if (x > 0) return f(x - 1) + helper(x); return helper(x); }
EOF2
compare_infer_link "forward declaration (calls)" b.c

check "a 30-file generated project (recursion, statics, globals): link == infer"
write_generated_project "$T/gen" 30
cd "$T/gen"
compare_infer_link "generated project"

check "--strict works on link as on infer"
run infer --strict -p "$T/gen"
expect_ok
cp "$T/out" "$T/strict_infer.txt"
run link --strict "$T/x.purist"
expect_ok
same "$T/strict_infer.txt" "$T/out" "--strict output of infer and link"
echo "ok"
