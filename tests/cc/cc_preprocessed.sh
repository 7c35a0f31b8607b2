#!/usr/bin/env bash
# A compile of preprocessed output (.i, as distcc's servers see a TU):
# the summary names the original files and lines from the line markers,
# so link of the objects prints what infer prints for the sources — when
# the .i is compiled in another directory (a farm's scratch directory:
# GCC's working-directory marker, written with -g, resolves relative
# names), and without -g in the build's own directory.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
copy_examples "$T/p"
cd "$T/p"
# shellcheck disable=SC2086  # EX_FLAGS is a list of flags
run infer src/*.c -- $EX_FLAGS
expect_ok
# A .i has no macros left: the one thing its summary cannot know is the
# macro a witness comes from (", in expansion of macro 'errno'").
sed "s/, in expansion of macro '[^']*'//" "$T/out" > infer.txt
mkdir -p "$T/farm"

check "GCC's .i (with -g) compiled in another directory: link == infer"
for f in src/*.c; do
  b=$(basename "$f" .c)
  # shellcheck disable=SC2086
  gcc $EX_FLAGS -E "$f" -o "$T/farm/$b.i"
  (cd "$T/farm" && "$PURIST" cc gcc -O2 -g -std=c11 -c "$b.i" -o "$b.o") || fail "purist cc failed on $b.i"
  [ -n "$(section_offset "$T/farm/$b.o")" ] || fail "$b.o has no .purist section"
done
run link "$T"/farm/*.o
expect_ok
same infer.txt "$T/out" "infer of the sources and link of the objects built from .i files"

check "without -g, compiled in the build directory: relative names resolve there"
mkdir -p pp
for f in src/*.c; do
  b=$(basename "$f" .c)
  # shellcheck disable=SC2086
  gcc ${EX_FLAGS/-g /} -E "$f" -o "pp/$b.i"
  grep -q '//"$' "pp/$b.i" && fail "a working-directory marker without -g"
  "$PURIST" cc gcc -O2 -std=c11 -c "pp/$b.i" -o "pp/$b.o" || fail "purist cc failed on $b.i"
done
run link pp/*.o
expect_ok
same infer.txt "$T/out" "infer of the sources and link of the objects built from .i files without -g"
echo "ok"
