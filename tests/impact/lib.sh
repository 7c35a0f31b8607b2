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
