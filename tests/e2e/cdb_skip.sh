#!/usr/bin/env bash
# Compile-database entries left out of the analysis (issue 35 item 1): a
# configure probe bear recorded (conftest.c, meant not to compile) made
# every command exit 2, and --exclude did not help (it narrows the report,
# the file is still parsed). Probes — conftest.c, CMakeFiles/CMakeScratch/,
# CMakeFiles/*/CompilerIdC/ — are now left out without being parsed, and
# --skip GLOB (.purist skip:) leaves out others; one line on stderr says
# what and why; JSON, SARIF and the HTML report list them (reason
# "skipped", not a failure); a file named on the command line is analysed
# all the same.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
P=$T/proj
mkdir -p "$P/src" "$P/CMakeFiles/3.28.3/CompilerIdC" "$P/CMakeFiles/CMakeScratch/TryCompile-x1"
cd "$P"
cat >src/lib.c <<'C'
int twice(int x) { return 2 * x; }
int quad(int x) { return twice(twice(x)); }
C
cat >src/gen.c <<'C'
int generated(int x) { return x - 1; }
C
# A probe: a header this system lacks, and a function that must never show.
probe='#include <no_such_header_for_probe.h>
int probe_fn(void) { return NO_SUCH_MACRO; }'
echo "$probe" >conftest.c
echo "$probe" >CMakeFiles/3.28.3/CompilerIdC/CMakeCCompilerId.c
echo "$probe" >CMakeFiles/CMakeScratch/TryCompile-x1/src.c
entries=""
for f in conftest.c src/lib.c CMakeFiles/3.28.3/CompilerIdC/CMakeCCompilerId.c \
         CMakeFiles/CMakeScratch/TryCompile-x1/src.c src/gen.c; do
  entries="$entries${entries:+,}{\"directory\":\"$P\",\"file\":\"$f\",\"arguments\":[\"cc\",\"-c\",\"$f\"]}"
done
echo "[$entries]" >compile_commands.json

check "a database with broken probes: check exits 0, the probes are not parsed"
run check -p .
expect_rc 0
grep -q "no_such_header_for_probe" "$T/err" && fail "a probe was parsed${NL}$(context)"
# (and the note that the project declares no pure or const function)
[ "$(grep -vc 'nothing to check' "$T/err")" -eq 1 ] || fail "expected one line on stderr${NL}$(context)"
expect_stderr_has "^purist: note: 3 compile-database entries left out of the analysis: 3 configure or CMake probes, meant not to compile \(conftest\.c, CMakeFiles/3\.28\.3/CompilerIdC/CMakeCCompilerId\.c, CMakeFiles/CMakeScratch/TryCompile-x1/src\.c\)$"

check "infer lists no probe function; the others are analysed"
run infer -p . --format=json
expect_rc 0
[ "$(json_count "$T/out" probe_fn)" -eq 0 ] || fail "probe_fn was analysed${NL}$(context)"
expect_json "$T/out" quad class '"const"'
expect_json "$T/out" generated class '"const"'

check "JSON lists them under not_analysed with reason skipped"
json_flat "$T/out" >"$T/flat"
[ "$(grep -c "^not_analysed\.[0-9]*\.reason${TAB}\"skipped\"$" "$T/flat")" -eq 3 ] ||
  fail "expected 3 skipped entries${NL}$(show "$T/flat")"
grep -q "^not_analysed\.0\.file${TAB}\"conftest.c\"$" "$T/flat" || fail "conftest.c not listed${NL}$(show "$T/flat")"
grep -q "^not_analysed\.0\.message${TAB}\"left out of the analysis: a configure probe\"$" "$T/flat" ||
  fail "conftest.c's reason${NL}$(show "$T/flat")"

check "SARIF: notes, and the invocation still successful"
run check -p . --format=sarif
expect_rc 0
json_flat "$T/out" >"$T/flat"
grep -q "^runs\.0\.invocations\.0\.executionSuccessful${TAB}true$" "$T/flat" || fail "not successful${NL}$(show "$T/flat")"
[ "$(grep -c "^runs\.0\.invocations\.0\.toolExecutionNotifications\.[0-9]*\.level${TAB}\"note\"$" "$T/flat")" -eq 3 ] ||
  fail "expected 3 notes${NL}$(show "$T/flat")"

check "--quiet: no line"
run check -p . --quiet
expect_ok

check "--exclude still analyses a file; --skip leaves it out (gen.c made not to compile)"
echo 'int generated(int x) { return x - ; }' >src/gen.c
run check -p . --exclude 'src/gen.c'
expect_rc 2
run infer -p . --skip 'src/gen.c' --format=json
expect_rc 0
[ "$(json_count "$T/out" generated)" -eq 0 ] || fail "gen.c was analysed${NL}$(context)"
expect_stderr_has "^purist: note: 4 compile-database entries left out of the analysis: 3 configure or CMake probes, .*, 1 matching --skip \(src/gen\.c\)$"
json_flat "$T/out" | grep -q "left out of the analysis: --skip 'src/gen.c'" || fail "gen.c's reason${NL}$(context)"

check ".purist skip: does the same, and config --dump shows it"
printf 'skip: [src/gen*.c]\n' >.purist
run check -p .
expect_rc 0
expect_stderr_has "1 matching --skip \(src/gen\.c\)$"
run config --dump -p .
expect_rc 0
expect_stdout_has "^skip: \['src/gen\*\.c'\]$"
rm .purist

check "a file named on the command line is analysed even when it matches"
echo 'int generated(int x) { return x - 1; }' >src/gen.c
run infer -p . src/gen.c --skip 'src/*' --format=json
expect_rc 0
[ "$(json_count "$T/out" generated)" -eq 1 ] || fail "src/gen.c, named, was left out${NL}$(context)"

check "nothing left to analyse: an input error that says why"
run check -p . --skip 'src/**'
expect_rc 2
expect_stderr_has "^purist: every entry of the compile database is left out: 5 compile-database entries"

check "report --html lists the files not analysed and why"
run report --html -p . -o "$T/r.html"
expect_rc 0
grep -q '"not_analysed":\[{"file":"conftest.c","reason":"skipped","message":"left out of the analysis: a configure probe"}' "$T/r.html" ||
  fail "the page's data does not list conftest.c${NL}$(context)"
echo ok
