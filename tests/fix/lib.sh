# shellcheck shell=bash
# lib.sh — helpers for the tests of `purist fix`, on top of tests/e2e/lib.sh
# (which sets $PURIST, $T and the run/expect helpers).
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" "$@"

# compiles FILES... with gcc-12 and clang-19 at -Wall -Werror (extra flags
# in $CFLAGS_EXTRA); fails the test with the compiler's words if either
# complains.
compiles() {
  local cc f
  for cc in gcc-12 clang-19; do
    command -v "$cc" >/dev/null || fail "$cc is not installed (scripts/deps.sh)"
    for f in "$@"; do
      # shellcheck disable=SC2086
      "$cc" -std=gnu11 -Wall -Wextra -Werror ${CFLAGS_EXTRA:-} -c "$f" -o /dev/null 2>"$T/cc.err" ||
        fail "$cc -Wall -Werror rejects the fixed $f:${NL}$(show "$T/cc.err")"
    done
  done
}

# classes JSON: "name class declared" per function of infer --format=json,
# sorted (json_flat prints functions.N.KEY<TAB>VALUE).
classes() {
  json_flat "$1" | awk -F'\t' '
    $1 ~ /^functions\.[0-9]+\.(name|class|declared)$/ {
      split($1, k, "."); gsub(/"/, "", $2); v[k[2] "." k[3]] = $2; if (k[2] + 0 > n) n = k[2] + 0 }
    END { for (i = 0; i <= n; i++) if ((i ".name") in v) print v[i ".name"], v[i ".class"], v[i ".declared"] }' | sort
}

# tree_sum DIR: one checksum line per file, to tell whether anything changed.
tree_sum() { (cd "$1" && find . -type f ! -path './build*' -print0 | sort -z | xargs -0 md5sum); }

# expect_file_has FILE REGEX / expect_file_lacks FILE REGEX
expect_file_has() { grep -Eq -- "$2" "$1" || fail "$1 should match /$2/:${NL}$(show "$1")"; }
expect_file_lacks() { ! grep -Eq -- "$2" "$1" || fail "$1 should not match /$2/:${NL}$(show "$1")"; }

# api_project DIR HEADER-PROLOGUE: in $T/DIR (made afresh, and made the
# current directory) api.h declares sq (const) and total (pure) after
# PROLOGUE; api.c defines them.
api_project() {
  rm -rf "$T/$1" && mkdir "$T/$1" && cd "$T/$1"
  printf '%s\n' "$2" >api.h
  cat >>api.h <<'EOF2'
int sq(int x);
int total(const int *v, int n);
EOF2
  cat >api.c <<'EOF2'
#include "api.h"
int sq(int x) { return x * x; }
int total(const int *v, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
EOF2
}
