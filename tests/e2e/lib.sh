# shellcheck shell=bash
# lib.sh — shared helpers for the end-to-end tests of the purist command line.
#
# Each test script does:
#     set -euo pipefail
#     . "$(dirname "$0")/lib.sh" "$@"
# which sets $PURIST (the binary under test, made absolute), $T (a fresh
# scratch directory, removed on exit) and the helpers below.  A test prints
# one "check: ..." line per thing it checks and exits non-zero at the first
# failure, saying what was expected and what happened.

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/purist" >&2
  exit 2
fi
case "$1" in
  /*) PURIST=$1 ;;
  *) PURIST=$PWD/$1 ;;
esac
T=$(mktemp -d "${TMPDIR:-/tmp}/purist-e2e.XXXXXX")
# The summary cache's default home ($XDG_CACHE_HOME/purist): this test's
# own, outside $T (so $T holds only what the test makes), removed with it.
# $XC is the cache directory a run without --cache-dir uses.
XDG_CACHE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/purist-e2e-cache.XXXXXX")
export XDG_CACHE_HOME
XC=$XDG_CACHE_HOME/purist
trap 'chmod -R u+rwx "$T" "$XDG_CACHE_HOME" 2>/dev/null; rm -rf "$T" "$XDG_CACHE_HOME"' EXIT
# Byte-wise matching of the em dash in text output, whatever the locale.
export LC_ALL=C
NL=$'\n'
TAB=$'\t'

# check DESCRIPTION: announces the next check.
check() { echo "check: $*"; }

# fail MESSAGE...: reports a failure and ends the test.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# show FILE: a file's contents indented, for failure messages.
show() { sed 's/^/    | /' "$1" 2>/dev/null | head -n 60; }

# run ARGS...: runs purist in the current directory; stdout goes to $T/out,
# stderr to $T/err, the exit status to $RC.  Never fails by itself.
run() {
  set +e
  "$PURIST" "$@" >"$T/out" 2>"$T/err"
  RC=$?
  set -e
  LAST="purist $*"
}

# context: what the last run printed, for failure messages.
context() {
  echo "  command: $LAST (in $PWD)"
  echo "  exit status: $RC"
  echo "  stdout:"; show "$T/out"
  echo "  stderr:"; show "$T/err"
}

# no_crash: the last run ended by exit(), not by a signal or a sanitizer.
no_crash() {
  if grep -Eq 'Sanitizer|runtime error:|Assertion .* failed' "$T/err"; then
    fail "purist reported a memory error, a leak, undefined behaviour or a failed assertion${NL}$(context)"
  fi
  if [ "$RC" -ge 124 ]; then
    fail "purist crashed or was killed (status $RC)${NL}$(context)"
  fi
}

# expect_rc N: the last run exited with status N.
expect_rc() {
  no_crash
  [ "$RC" -eq "$1" ] || fail "expected exit status $1, got $RC${NL}$(context)"
}

# expect_ok: the last run succeeded and printed nothing on stderr.
expect_ok() {
  expect_rc 0
  [ ! -s "$T/err" ] || fail "expected nothing on stderr${NL}$(context)"
}

# expect_stdout_has REGEX / expect_stderr_has REGEX (grep -E).
expect_stdout_has() {
  grep -Eq -- "$1" "$T/out" || fail "stdout should match /$1/${NL}$(context)"
}
expect_stderr_has() {
  grep -Eq -- "$1" "$T/err" || fail "stderr should match /$1/${NL}$(context)"
}
expect_stdout_lacks() {
  ! grep -Eq -- "$1" "$T/out" || fail "stdout should not match /$1/${NL}$(context)"
}
expect_stderr_lacks() {
  ! grep -Eq -- "$1" "$T/err" || fail "stderr should not match /$1/${NL}$(context)"
}

# expect_stdout_empty
expect_stdout_empty() {
  [ ! -s "$T/out" ] || fail "expected nothing on stdout${NL}$(context)"
}

# expect_usage_error REGEX: exit 2, nothing on stdout, exactly one line on
# stderr, and that line matches REGEX (it names the culprit).
expect_usage_error() {
  expect_rc 2
  expect_stdout_empty
  local n
  n=$(wc -l <"$T/err")
  [ "$n" -eq 1 ] || fail "expected exactly one line on stderr, got $n${NL}$(context)"
  expect_stderr_has "$1"
}

# same FILE1 FILE2 WHAT: the files are byte-identical.
same() {
  cmake -E compare_files "$1" "$2" >/dev/null 2>&1 && return 0
  if command -v diff >/dev/null; then
    fail "$3 differ:${NL}$(diff "$1" "$2" | head -n 40)"
  fi
  fail "$3 differ:${NL}  $1:${NL}$(show "$1")${NL}  $2:${NL}$(show "$2")"
}

# count_lines REGEX FILE: how many lines of FILE match.
count_lines() { grep -Ec -- "$1" "$2" || true; }

# JSON is read through json_flat (json_flat.c, built here on first use with
# the C compiler and jansson), so the checks do not depend on purist's
# layout: it validates the document and prints each leaf as PATH<TAB>VALUE,
# e.g. "functions.3.name<TAB>"sq"".
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
json_flat_tool() {
  if [ ! -x "$T/json_flat" ]; then
    "${CC:-cc}" -std=c99 -O1 -o "$T/json_flat" "$E2E_DIR/json_flat.c" -ljansson 2>"$T/json_flat.log" ||
      fail "could not build the JSON checker tests/e2e/json_flat.c (needs jansson):${NL}$(show "$T/json_flat.log")"
  fi
  echo "$T/json_flat"
}

# json_flat FILE: FILE (any JSON) flattened; fails the test if not JSON.
json_flat() {
  local tool
  tool=$(json_flat_tool)
  "$tool" "$1" 2>"$T/json_flat.err" || fail "$(cat "$T/json_flat.err")${NL}$(show "$1")"
}

# json_check_functions FILE: FILE is purist's infer JSON: valid JSON,
# "version": 1, and every function object carries the contract keys with
# values of the documented shapes (DESIGN.md §4).  Prints the number of
# function objects.
json_check_functions() {
  local tool
  tool=$(json_flat_tool)
  "$tool" --infer "$1" >"$T/json_flat.out" 2>"$T/json_flat.err" ||
    fail "infer JSON contract: $(cat "$T/json_flat.err")${NL}$(show "$1")"
  grep -Ec "^functions\.[0-9]+\.name${TAB}" "$T/json_flat.out" || true
}

# json_count FILE NAME: how many function objects are named NAME.
json_count() {
  json_flat "$1" | grep -Ec "^functions\.[0-9]+\.name${TAB}\"$2\"\$" || true
}

# json_func FILE NAME: KEY<TAB>VALUE lines of the first function named NAME.
json_func() {
  local flat idx
  flat=$(json_flat "$1")
  idx=$(printf '%s\n' "$flat" | sed -n "s/^functions\.\([0-9]*\)\.name${TAB}\"$2\"\$/\1/p" | head -n 1)
  [ -n "$idx" ] || return 0
  printf '%s\n' "$flat" | sed -n "s/^functions\.$idx\.//p"
}

# json_field FILE NAME KEY: the raw JSON value of KEY in function NAME.
json_field() {
  json_func "$1" "$2" | sed -n "s/^$3${TAB}//p" | head -n 1
}

# expect_json FILE NAME KEY VALUE: function NAME has KEY: VALUE (raw JSON).
expect_json() {
  local got
  got=$(json_field "$1" "$2" "$3")
  [ "$got" = "$4" ] || fail "$1: function $2: expected \"$3\": $4, got '${got:-<missing>}'${NL}$(show "$1")"
}

# write_tiny_cmake DIR: a two-file CMake project in DIR (src/a.c, src/b.c,
# inc/t.h) with a definition whose value holds a space.
write_tiny_cmake() {
  mkdir -p "$1/src" "$1/inc"
  cat >"$1/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(tiny C)
add_library(tiny STATIC src/a.c src/b.c)
target_include_directories(tiny PRIVATE inc)
target_compile_definitions(tiny PRIVATE GREETING="hello world")
EOF
  cat >"$1/inc/t.h" <<'EOF'
int sq(int x);
int get(void);
void bump(void);
EOF
  cat >"$1/src/a.c" <<'EOF'
#include "t.h"
_Static_assert(sizeof GREETING == 12, "GREETING must be \"hello world\"");
int sq(int x)
{
  return x * x;
}
EOF
  cat >"$1/src/b.c" <<'EOF'
#include "t.h"
static int counter;
int get(void) { return counter + sq(2); }
void bump(void) { counter++; }
EOF
}

# cmake_configure SRC BUILD: configures SRC into BUILD with a compile database.
cmake_configure() {
  cmake -S "$1" -B "$2" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$T/cmake.log" 2>&1 ||
    fail "cmake could not configure the test project:${NL}$(show "$T/cmake.log")"
  [ -f "$2/compile_commands.json" ] || fail "cmake wrote no $2/compile_commands.json"
}

# write_generated_project DIR N: N source files in DIR/src with a header in
# DIR/inc and DIR/compile_commands.json: cross-file calls, recursion across
# files (every 5th f closes a cycle back to f0), a static helper() of the
# same name in every file, a static inline header function, globals read in
# one file and written in another, loops.  Function i of each kind is fI,
# gI, setI, loopI; 5 per file plus common_clamp.
write_generated_project() {
  local dir=$1 n=$2 i next far sep
  mkdir -p "$dir/src" "$dir/inc"
  {
    echo "static inline int common_clamp(int x) { return x < 0 ? 0 : x; }"
    for ((i = 0; i < n; i++)); do
      echo "int f$i(int x);"
      echo "int g$i(int x);"
      echo "void set$i(int v);"
      echo "extern int shared$i;"
    done
  } >"$dir/inc/gen.h"
  for ((i = 0; i < n; i++)); do
    next=$(((i + 1) % n))
    far=$(((i * 7 + 3) % n))
    {
      echo '#include "gen.h"'
      echo "int shared$i;"
      echo "static int local_state;"
      echo "static int helper(int x) { return common_clamp(x) + $i; }"
      echo "int f$i(int x)"
      echo "{"
      if ((i % 5 == 4)); then
        echo "  if (x > 0) return f0(x - 1) + helper(x);"
      elif ((i < n - 1)); then
        echo "  if (x > 0) return f$next(x - 1) + helper(x);"
      fi
      echo "  return helper(x);"
      echo "}"
      echo "int g$i(int x)"
      echo "{"
      if ((i % 3 == 0)); then
        echo "  set$far(x);"
      fi
      echo "  return shared$far + local_state + f$i(x);"
      echo "}"
      echo "void set$i(int v) { shared$i = v; local_state++; }"
      echo "int loop$i(int n) { int s = 0; while (n != $i) { s += n; n = n / 2; } return s; }"
    } >"$dir/src/f$i.c"
  done
  {
    echo "["
    for ((i = 0; i < n; i++)); do
      sep=","; ((i == n - 1)) && sep=""
      echo "  {\"directory\": \"$dir\", \"file\": \"src/f$i.c\", \"arguments\": [\"cc\", \"-Iinc\", \"-c\", \"src/f$i.c\"]}$sep"
    done
    echo "]"
  } >"$dir/compile_commands.json"
}
