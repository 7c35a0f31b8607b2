# shellcheck shell=bash
# lib.sh — helpers for the tests of `purist impact`, on top of
# tests/e2e/lib.sh (which sets $PURIST, $T and the run/expect helpers).
# Every run gets TMPDIR=$T/tmp, so a test can see that no temporary tree
# is left behind.
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" "$@"

# The figures are GCC 12's (Debian 12): the fixtures' compile databases
# name gcc-12 itself, not whatever cc points to.
command -v gcc-12 >/dev/null || fail "gcc-12 is not installed (scripts/deps.sh installs gcc)"
mkdir -p "$T/tmp"
export TMPDIR=$T/tmp

# write_cdb DIR COMPILER FILE...: DIR/compile_commands.json compiling each
# FILE (relative to DIR) with COMPILER -O2 -Iinclude -c, as CMake writes it.
write_cdb() {
  local dir=$1 cc=$2 f sep=""
  shift 2
  {
    echo "["
    for f in "$@"; do
      printf '%s{"directory":"%s","command":"%s -O2 -Iinclude -o %s.o -c %s","file":"%s"}\n' \
        "$sep" "$dir" "$cc" "${f%.c}" "$dir/$f" "$dir/$f"
      sep=","
    done
    echo "]"
  } >"$dir/compile_commands.json"
}

# expect_no_tree: no purist-impact-* directory is left in $TMPDIR.
expect_no_tree() {
  local left
  left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'purist-impact-*' | head -n 3)
  [ -z "$left" ] || fail "temporary tree left behind: $left${NL}$(context)"
}

# json_top FILE KEY: the raw value of a top-level key of impact's JSON.
json_top() { json_flat "$1" | sed -n "s/^$2${TAB}//p" | head -n 1; }

# expect_top FILE KEY VALUE
expect_top() {
  local got
  got=$(json_top "$1" "$2")
  [ "$got" = "$3" ] || fail "$1: expected \"$2\": $3, got '${got:-<missing>}'${NL}$(show "$1")"
}

# write_unit_project DIR: a const lookup (src/unit.c) called three times
# around a store through an out-pointer (src/convert.c); include/unit.h
# also declares unit_broken, for a test's own third file.
write_unit_project() {
  mkdir -p "$1/include" "$1/src"
  cat >"$1/include/unit.h" <<'C'
int unit_scale(int code);
int unit_convert(int code, int value, int *scaled);
int unit_broken(int code);
C
  cat >"$1/src/unit.c" <<'C'
#include "unit.h"
static const int scales[8] = { 1, 10, 100, 1000, 60, 3600, 24, 7 };
int unit_scale(int code) { return scales[code & 7]; }
C
  cat >"$1/src/convert.c" <<'C'
#include "unit.h"
int unit_convert(int code, int value, int *scaled)
{
  int s = unit_scale(code);
  *scaled = value * s;              /* a store pure cannot see past */
  int again = unit_scale(code);
  return s + again + unit_scale(code);
}
C
}
