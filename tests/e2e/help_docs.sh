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
check "cmake --install puts the man page and the bash completion in place"
B=$(dirname "$PURIST")   # the build directory
[ -f "$B/CMakeCache.txt" ] || fail "$PURIST is not in a CMake build directory"
cmake --install "$B" --prefix "$T/inst" >"$T/install.log" 2>&1 || fail "cmake --install failed${NL}$(show "$T/install.log")"
MAN=$T/inst/share/man/man1/purist.1
COMP=$T/inst/share/bash-completion/completions/purist
[ -s "$MAN" ] || fail "no $MAN${NL}$(show "$T/install.log")"
[ -s "$COMP" ] || fail "no $COMP${NL}$(show "$T/install.log")"

check "the man page renders without a warning and names every command and option --help names"
groff -man -Tutf8 -ww -z "$MAN" 2>"$T/groff.err" || fail "groff failed${NL}$(show "$T/groff.err")"
[ ! -s "$T/groff.err" ] || fail "groff warns:${NL}$(show "$T/groff.err")"
groff -man -Tascii -P-cbou "$MAN" 2>/dev/null | tr -s ' \n' '  ' >"$T/man.txt"
run --help
for c in $cmds; do grep -q "purist $c " "$T/man.txt" || fail "the man page lacks the command $c"; done
for opt in $(grep -Eo -- '--[a-z][a-z-]*' "$T/out" | sort -u); do
  grep -q -- "$opt" "$T/man.txt" || fail "the man page lacks $opt, which --help names"
done

check "the bash completion completes commands, options and their values"
cat >"$T/comp.sh" <<EOF2
. "$COMP"
t() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _purist; echo "\${COMPREPLY[*]}"; }
t purist inf
t purist check --form
t purist check --format = j
t purist fix --dr
t purist help cc
t purist check --fail-on w
EOF2
bash "$T/comp.sh" >"$T/comp.out" 2>&1 || fail "the completion script failed${NL}$(show "$T/comp.out")"
printf '%s\n' infer --format= json --dry-run cc warning >"$T/comp.want"
same "$T/comp.want" "$T/comp.out" "completions"
echo "ok"
