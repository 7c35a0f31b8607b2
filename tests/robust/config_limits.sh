#!/usr/bin/env bash
# Issue 31 items 9, 10, 11: the configuration and the files it names are
# read with bounds. --kb, --baseline, kb: and --config naming a FIFO or
# /dev/zero are refused at once (they used to block or eat memory); a
# .purist nested 300 KB deep is refused in no time (it took > 30 s); a
# duplicate key is an error naming both lines (a repeated checks: was
# merged, hiding a misuse error); a second YAML document is an error.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
mkdir -p "$T/top/proj" && cd "$T/top/proj"
printf 'int g;\n__attribute__((const)) int f(int x) { g = x; return x; }\n' >f.c
mkfifo "$T/fifo"

check "item 9: --kb, --baseline, --config and kb: naming a FIFO or /dev/zero: refused at once, exit 2"
for args in "--kb $T/fifo" "--kb /dev/zero" "--baseline $T/fifo" "--baseline /dev/zero" \
            "--config $T/fifo" "--config /dev/zero"; do
  set +e
  # shellcheck disable=SC2086
  timeout 20 "$PURIST" check $args f.c >"$T/out" 2>"$T/err"
  RC=$?
  set -e
  LAST="purist check $args f.c"
  [ "$RC" -ne 124 ] || fail "blocked for ever${NL}$(context)"
  expect_rc 2
  expect_stderr_has 'not a regular file'
done
printf 'kb: [%s]\n' "$T/fifo" >"$T/top/.purist"
set +e; timeout 20 "$PURIST" check f.c >"$T/out" 2>"$T/err"; RC=$?; set -e
LAST="purist check f.c (kb: a FIFO)"
[ "$RC" -ne 124 ] || fail "blocked for ever${NL}$(context)"
expect_rc 2
expect_stderr_has 'not a regular file'

check "item 10: a .purist of 300 KB of '[': a clear error at once"
head -c 300000 /dev/zero | tr '\0' '[' >"$T/top/.purist"
start=$(date +%s)
run check f.c
[ $(($(date +%s) - start)) -lt 5 ] || fail "took $(($(date +%s) - start)) s"
expect_rc 2
expect_stderr_has "\.purist:1:[0-9]*: error: nested more than 64 levels deep"
head -c 2000000 /dev/zero | tr '\0' '#' >"$T/top/.purist"
run check f.c
expect_rc 2
expect_stderr_has "\.purist: larger than 1024 KiB"

check "item 11: a duplicate key is an error naming both lines"
printf 'checks: "-*"\nexclude: []\nchecks: "*"\n' >"$T/top/.purist"
run check f.c
expect_rc 2
expect_stderr_has "\.purist:3:1: error: duplicate key 'checks' \(first at line 1\)"
printf 'checks: {misuse: off, misuse: on}\n' >"$T/top/.purist"
run check f.c
expect_rc 2
expect_stderr_has "duplicate key 'misuse'"

check "item 11: a second YAML document is an error"
printf 'checks: "*"\n---\nchecks: "-*"\n' >"$T/top/.purist"
run check f.c
expect_rc 2
expect_stderr_has "\.purist:2: error: a second YAML document"

check "a sane .purist still works (the misuse error is reported)"
printf 'checks: "*"\n' >"$T/top/.purist"
run check f.c
expect_rc 1
expect_stdout_has "declared const but writes global"
