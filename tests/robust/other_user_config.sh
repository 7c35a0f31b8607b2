#!/usr/bin/env bash
# Issue 31 item 3: a .purist found walking up, or a kb: file, that another
# user owns or others can write steers nothing: ignored, with a one-line
# warning naming the file and its owner. The walk stops at a repository
# root (.git). --config FILE named explicitly is still read.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/other_user_lib.sh"
chmod 755 "$T"
mkdir -p "$T/x/proj" && cd "$T/x/proj"
printf 'int g;\n__attribute__((const)) int f(int x) { g = x; return x; }\nint r(void);\nint nd(void) { return r(); }\n' >f.c
chown "$OU" "$T/x"

check "another user's .purist above the project (checks: \"-*\") hides nothing: warned, ignored"
as_other sh -c "printf 'checks: \"-*\"\n' >'$T/x/.purist'"
run check f.c
expect_rc 1
expect_stdout_has "declared const but writes global"
expect_stderr_has "^purist: warning: ignoring the configuration $T/x/.purist: it is owned by user $OU \\(uid $OUID\\)$"
[ "$(grep -c warning "$T/err")" -eq 1 ] || fail "expected one warning${NL}$(context)"

check "a .purist others can write (root's own): ignored"
rm -f "$T/x/.purist"
printf 'checks: "-*"\n' >"$T/x/.purist"
chown root "$T/x/.purist"; chmod 666 "$T/x/.purist"
run check f.c
expect_rc 1
expect_stderr_has "ignoring the configuration $T/x/.purist: it is writable by others"

check "--config naming another user's file is still read"
chown "$OU" "$T/x/.purist"; chmod 644 "$T/x/.purist"
run check --config "$T/x/.purist" f.c
expect_rc 0
expect_stdout_lacks "declared const"

check "a kb: file another user owns is ignored (root's .purist names it)"
mkdir "$T/y" && cd "$T/y" && cp "$T/x/proj/f.c" .
printf 'r const - a lie\n' >evil.kb
chown "$OU" evil.kb
printf 'kb: [evil.kb]\n' >.purist
run infer f.c
expect_rc 0
expect_stderr_has "ignoring the knowledge base $T/y/evil.kb: it is owned by user $OU"
expect_stdout_lacks "nd: const"
expect_stdout_has "nd: normal"

check "the walk stops at a repository root: a .purist above .git is not read"
mkdir -p "$T/z/repo/.git" "$T/z/repo/src" && cp "$T/x/proj/f.c" "$T/z/repo/src/"
printf 'checks: "-*"\n' >"$T/z/.purist"
cd "$T/z/repo/src"
run check f.c
expect_rc 1
expect_stdout_has "declared const but writes global"
echo ok
