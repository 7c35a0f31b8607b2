#!/usr/bin/env bash
# Attribute macros that no source file defines (issue 13.1): -D on the
# command line, a file the command line -include's, and a compile
# database's -D. Their location has no file; purist used to index the
# fix facts' TU order by it and crash (exit 139). Checked for infer,
# check, suggest and fix, and fix's spelling: such a macro is written into
# a file only if the project already writes it there; else fix writes the
# attribute out and says why.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p" && cd "$T/p"
cat >m.c <<'EOF2'
int counter;
int rd(const int *p) PURE_FN;
int rd(const int *p) { return *p; }
int sq(int x) CONST_FN;
int sq(int x) { return x * x; }
int bump(int x) PURE_FN;
int bump(int x) { counter += x; return counter; }
int tw(int x) { return x + x; }
int first(const int *v) { return v[0]; }
EOF2
PD='-DPURE_FN=__attribute__((pure))'
CD='-DCONST_FN=__attribute__((const))'

check "infer with -D attribute macros: no crash, the declared attributes are seen"
run infer --format=json m.c -- "$PD" "$CD"
expect_ok
expect_json "$T/out" rd declared '"pure"'
expect_json "$T/out" sq declared '"const"'
expect_json "$T/out" bump declared '"pure"'
expect_json "$T/out" rd class '"pure"'

check "the plain command line of the issue (one -D, one prototype)"
printf 'int f(int *p) PURE_FN;\n' >one.c
run infer one.c -- "$PD"
expect_rc 0

check "check with -D macros: the misuse through the macro is reported at its declaration"
run check m.c -- "$PD" "$CD"
expect_rc 1
expect_stdout_has "^m\.c:6:5: error: 'bump' is declared pure but writes global 'counter'"
expect_stdout_lacks "'rd'|'sq'"

check "suggest with -D macros"
run suggest --all m.c -- "$PD" "$CD"
expect_rc 0
expect_stdout_has "'tw' can be declared const"
expect_stdout_has "'first' can be declared pure"

check "fix: the project writes the -D macros on its declarations, so fix uses them"
cp m.c m0.c
run fix --all m.c -- "$PD" "$CD"
expect_rc 0
grep -q '^CONST_FN int tw(int x)' m.c || fail "tw should get CONST_FN:${NL}$(show m.c)"
grep -q '^PURE_FN int first(const int \*v)' m.c || fail "first should get PURE_FN:${NL}$(show m.c)"
gcc-12 -Wall -Werror -c "$PD" "$CD" m.c -o /dev/null 2>"$T/cc.err" || fail "gcc rejects the fixed file:${NL}$(show "$T/cc.err")"

check "fix --fix-misuse removes the -D macro from the wrong declaration"
cp m0.c m.c
run fix --all --fix-misuse m.c -- "$PD" "$CD"
expect_rc 0
grep -q '^int bump(int x);' m.c || fail "bump's PURE_FN should be removed:${NL}$(show m.c)"

check "fix: a -D macro the project does not write is not written into files; a note says why"
cat >n.c <<'EOF2'
int sq2(int x) { return x * x; }
int first2(const int *v) { return v[0]; }
EOF2
run fix --all n.c -- "$PD" "$CD"
expect_rc 0
grep -q '^__attribute__((const)) int sq2' n.c || fail "sq2 should get __attribute__((const)):${NL}$(show n.c)"
grep -q '^__attribute__((pure)) int first2' n.c || fail "first2 should get __attribute__((pure)):${NL}$(show n.c)"
expect_stderr_has "macro CONST_FN is defined on the compile command \(-D\), not in a source file"
[ "$(count_lines 'macro CONST_FN is defined' "$T/err")" -eq 1 ] || fail "the note should be said once${NL}$(context)"

check "-include'd attribute macros: seen before the main file's declarations"
cat >attrs.h <<'EOF2'
#define MY_CONST __attribute__((const))
#define MY_PURE __attribute__((pure))
EOF2
cat >i.c <<'EOF2'
int tw3(int x) MY_CONST;
int tw3(int x) { return x + x; }
int sq3(int x);
int sq3(int x) { return x * x; }
int first3(const int *v) { return v[0]; }
EOF2
run infer --format=json i.c -- -include attrs.h
expect_ok
expect_json "$T/out" tw3 declared '"const"'
run fix --all i.c -- -include attrs.h
expect_rc 0
grep -q '^int sq3(int x) MY_CONST;' i.c || fail "sq3 should get MY_CONST (written by the project):${NL}$(show i.c)"
grep -q '^__attribute__((pure)) int first3' i.c || fail "first3 should get the attribute written out:${NL}$(show i.c)"
expect_stderr_has "macro MY_PURE is defined in a file the compile command -include's"

check "a macro defined after a declaration in the main file is not used for it (TU order still holds)"
cat >o.c <<'EOF2'
int early(int x);
#define LATE_CONST __attribute__((const))
int uses(int x) LATE_CONST;
int early(int x) { return x + 1; }
int uses(int x) { return x; }
EOF2
run fix --all o.c
expect_rc 0
grep -q '^int early(int x) __attribute__((const));' o.c || fail "early's prototype precedes LATE_CONST:${NL}$(show o.c)"

check "a compile database with -D attribute macros"
mkdir -p "$T/db" && cp m0.c "$T/db/m.c" && cd "$T/db"
cat >compile_commands.json <<EOF2
[{"directory": "$T/db", "file": "m.c",
  "arguments": ["gcc", "-DPURE_FN=__attribute__((pure))", "-DCONST_FN=__attribute__((const))", "-c", "m.c"]}]
EOF2
run check -p . --no-cache
expect_rc 1
expect_stdout_has "'bump' is declared pure but writes global 'counter'"

check "an error inside a -D macro's expansion makes the TU fail, located at the expansion"
cd "$T/p"
run infer one.c -- '-DPURE_FN=__attribute__((pure)) +'
expect_rc 2
expect_stderr_has 'one\.c:1:15: error: .*\(in a macro of the compile command\)'

check "a missing -include'd file is an error of that TU, not a driver warning"
run infer one.c -- -include no-such-header.h "$PD"
expect_rc 2
expect_stderr_has "one\.c: <built-in>:[0-9]+:[0-9]+: error: 'no-such-header\.h' file not found"

check "an unknown flag is still only a warning"
run infer one.c -- -fno-such-flag "$PD"
expect_rc 0
expect_stderr_has 'warning: compiler flags: .*-fno-such-flag'
