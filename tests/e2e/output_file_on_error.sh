#!/usr/bin/env bash
# -o FILE and failures: when purist fails before it has anything to write
# (here: --why of an unknown function), the FILE a user named must not be
# clobbered: an existing report keeps its contents (or, as compilers do,
# is removed) — never silently truncated to nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int f(int x) { return x; }\n' >f.c
printf 'an earlier report\n' >report.txt
cp report.txt report.keep

check "--why unknown -o report.txt: exit 2, one line on stderr"
run infer --why no_such_function -o report.txt f.c
expect_usage_error 'no_such_function'

check "report.txt is not left truncated"
if [ -e report.txt ]; then
  same report.keep report.txt "report.txt before and after the failed run"
fi

check "a fresh -o path is not created as an empty file"
run infer --why no_such_function -o fresh.txt f.c
expect_rc 2
[ ! -e fresh.txt ] || [ -s fresh.txt ] || fail "purist left an empty fresh.txt behind"
echo "ok"
