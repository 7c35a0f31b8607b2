#!/usr/bin/env bash
# Issue 23 items 1, 2, 3 and 12: what purist writes never destroys a user's
# file. --write-baseline naming an analysed source or the database, and
# -o or --write-baseline naming a header the code includes, are refused
# (exit 2, the file untouched); -o is written to a temporary file beside it
# and renamed, so a write that fails (a full disk, here a file size limit)
# leaves the previous output whole; a write to a full standard output is
# an error, not exit 0.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
P=$T/proj
write_generated_project "$P" 30
cd "$P"
unset PURIST_CACHE_DIR

# refused FLAG OUT WHAT ARGS...: purist ARGS FLAG OUT is refused, OUT unchanged.
refused() {
  local flag=$1 out=$2 what=$3
  shift 3
  cp "$out" "$T/before"
  run "$1" "$flag" "$out" "${@:2}"
  expect_rc 2
  expect_stderr_has "^purist: $flag $out is the input file .*$what: refusing to overwrite it\$"
  same "$T/before" "$out" "$out after the refused run"
}

check "--write-baseline naming a source, the database, a source named on the command line"
refused --write-baseline src/f3.c 'src/f3\.c' check -p . --no-cache
refused --write-baseline compile_commands.json 'compile_commands\.json' check -p . --no-cache
refused --write-baseline src/f1.c 'src/f1\.c' check --no-cache src/f0.c src/f1.c -- -Iinc
check "-o or --write-baseline naming a header the analysed code includes"
refused -o inc/gen.h 'inc/gen\.h' infer -p . --no-cache
refused -o inc/gen.h 'inc/gen\.h' check -p . --no-cache --format=json
refused -o inc/gen.h 'inc/gen\.h' fix --dry-run -p . --no-cache
refused -o inc/gen.h 'inc/gen\.h' summarize -p . --no-cache
refused -o inc/gen.h 'inc/gen\.h' report --html -p . --no-cache
refused --write-baseline inc/gen.h 'inc/gen\.h' check -p . --no-cache
check "--baseline B --write-baseline B still updates the baseline"
run check -p . --no-cache --write-baseline "$T/b.json"
expect_rc 0
run check -p . --no-cache --baseline "$T/b.json" --write-baseline "$T/b.json"
expect_rc 0

# A file size limit of 4 KiB makes every write past it fail (EFBIG, with
# SIGXFSZ ignored), as a full disk does.
check "-o whose write fails leaves the previous output whole: infer, infer --format=json, fix --dry-run, suggest (--all: every suggestion, enough output)"
for cmd in "infer" "infer --format=json" "fix --all --dry-run" "suggest --all --format=json"; do
  run $cmd -p . --no-cache -o "$T/prev.out"
  [ "$(wc -c <"$T/prev.out")" -gt 8192 ] || fail "$cmd: the output is too small for the test$NL$(context)"
  cp "$T/prev.out" "$T/before"
  set +e
  # (stdout and stderr through pipes: the limit would cut them too)
  (trap '' XFSZ; ulimit -f 4; exec "$PURIST" $cmd -p . --no-cache -o "$T/prev.out") \
    > >(cat >"$T/out") 2> >(cat >"$T/err")
  RC=$?
  wait
  set -e
  LAST="purist $cmd -o (4 KiB file size limit)"
  expect_rc 2
  expect_stderr_has "prev\.out"
  same "$T/before" "$T/prev.out" "$cmd: the previous output after a failed write"
  leftover=$(find "$T" -maxdepth 1 -name 'prev.out.*')
  [ -z "$leftover" ] || fail "$cmd: a temporary file was left: $leftover"
done

check "-o keeps an existing output's mode, writes through a symlink, writes to /dev/null"
chmod 640 "$T/prev.out"
run infer -p . --no-cache -o "$T/prev.out"
expect_ok
[ "$(stat -c %a "$T/prev.out")" = 640 ] || fail "mode of the output became $(stat -c %a "$T/prev.out")"
ln -s prev.out "$T/link.out"
run infer -p . --no-cache --format=json -o "$T/link.out"
expect_ok
[ -L "$T/link.out" ] || fail "-o replaced the symlink by a file"
grep -q '"functions"' "$T/prev.out" || fail "-o through a symlink did not write its target"
run infer -p . --no-cache -o /dev/null
expect_ok
[ -c /dev/null ] || fail "/dev/null is no longer a device"

check "a full standard output is an error: --help, --version, rt-flags, infer"
for args in "--help" "--version" "rt-flags --cflags" "infer -p . --no-cache"; do
  set +e
  "$PURIST" $args >/dev/full 2>"$T/err"
  RC=$?
  set -e
  LAST="purist $args >/dev/full"
  : >"$T/out"
  expect_rc 2
  expect_stderr_has 'standard output'
  [ "$(count_lines 'standard output' "$T/err")" -eq 1 ] || fail "the failure said more than once$NL$(context)"
done
echo ok
