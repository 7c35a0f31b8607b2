#!/usr/bin/env bash
# Help as C tools ship it (issue 20 item 3): purist --help, purist help
# CMD and purist CMD --help for every command (cc too), all from one table;
# --version names purist's version, its commit and libclang's version.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
cd "$T"

check "--version: purist's version, the commit, libclang's version"
run --version
expect_ok
expect_stdout_has '^purist [0-9]+\.[0-9]+\.[0-9]+$'
expect_stdout_has '^commit [0-9a-f]{7,}(-dirty)?$|^commit unknown$'
expect_stdout_has '^libclang .*clang version [0-9]+'

check "--help: the clang-tidy forms first, every command, exit 0"
run --help
expect_ok
expect_stdout_has '^  purist check -p build src/a\.c'
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$T/out")
[ "$(echo "$cmds" | wc -l)" -ge 12 ] || fail "expected the command list${NL}$(context)"

check "purist help CMD and purist CMD --help: the same text, for every command"
for c in $cmds; do
  run help "$c"
  expect_ok
  expect_stdout_has "^usage: purist $c "
  cp "$T/out" "$T/help1"
  run "$c" --help
  expect_ok
  same "$T/help1" "$T/out" "purist help $c and purist $c --help"
done

check "purist cc --help is purist's help, not the compiler's"
run cc --help
expect_ok
expect_stdout_has '^usage: purist cc COMPILER ARGS'
expect_stdout_has 'CMAKE_C_COMPILER_LAUNCHER'

check "a command's help lists its own options, not others'"
run help fix
expect_stdout_has '[-]-dry-run'
expect_stdout_lacks '[-]-why'
run infer -h
expect_stdout_has '[-]-why=NAME'
expect_stdout_lacks '[-]-dry-run'

check "help of an unknown command: exit 2 naming it"
run help frobnicate
expect_usage_error 'frobnicate'

check "no line of any help is wider than 79 columns"
for c in "" $cmds; do
  # shellcheck disable=SC2086
  run help $c
  ! awk 'length > 79 { print; bad = 1 } END { exit !bad }' "$T/out" || fail "purist help $c: a line wider than 79${NL}$(context)"
done
echo "ok"
