#!/usr/bin/env bash
# An empty file is not a summary (a summary file holds one or more records,
# docs/summary-format.md): `purist link empty.purist` must refuse it, exit 2
# with a message naming it, rather than silently report an empty program —
# a zero-length file is what a crashed or interrupted writer leaves behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int one(void) { return 1; }\n' >a.c
run summarize -o good.purist a.c
expect_ok
: >empty.purist

check "link empty.purist: exit 2, the message names empty.purist"
run link empty.purist
no_crash
[ "$RC" -eq 2 ] || fail "expected exit 2, got $RC${NL}$(context)"
expect_stderr_has 'empty\.purist'

check "link good.purist empty.purist: exit 2, the message names empty.purist"
run link good.purist empty.purist
no_crash
[ "$RC" -eq 2 ] || fail "expected exit 2, got $RC${NL}$(context)"
expect_stderr_has 'empty\.purist'
echo "ok"
