#!/usr/bin/env bash
# The command-line forms a clang-tidy user types (issue 20 item 1):
# -p DIR FILE... (the whole database analysed, the report on the files
# named), -p=DIR / -pDIR / --build-path, --opt=value and --opt value, flags
# after -- added to every database entry, a database in build/ found for
# files named without -p, FILE -- FLAGS without one, and errors that name
# the culprit and say what to do.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/src" "$T/p/inc" "$T/p/build"
cd "$T/p"
cat >inc/t.h <<'EOF2'
int sq(int x);
int twice_sq(int x);
EOF2
# a.c's twice_sq is const only because b.c's sq is: a fact from the rest
# of the database. Each file has one wrong attribute (a misuse error).
cat >src/a.c <<'EOF2'
#include "t.h"
#ifndef FROM_DB
#error the database's flags were not used
#endif
int a_level;
__attribute__((const)) int a_wrong(void) { return a_level; }
int twice_sq(int x) { return 2 * sq(x); }
EOF2
cat >src/b.c <<'EOF2'
#include "t.h"
#ifdef EXTRA
int extra_seen(void) { return 1; }
#endif
int b_level;
__attribute__((const)) int b_wrong(void) { return b_level; }
int sq(int x) { return x * x; }
EOF2
# A CMake build tree: its source directory is the project root.
echo "CMAKE_HOME_DIRECTORY:INTERNAL=$T/p" >build/CMakeCache.txt
cat >build/compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "src/a.c", "arguments": ["cc", "-Iinc", "-DFROM_DB", "-c", "src/a.c"]},
  {"directory": "$T/p", "file": "src/b.c", "arguments": ["cc", "-Iinc", "-c", "src/b.c"]}
]
EOF2

check "-p build src/a.c: only a.c is reported, with b.c's facts (twice_sq const through sq)"
run infer -p build src/a.c
expect_ok
expect_stdout_has '^src/a\.c:7: twice_sq: const'
expect_stdout_lacks 'src/b\.c'
cp "$T/out" "$T/narrow.txt"

check "-p=build, -pbuild, --build-path build, --build-path=build: the same"
for form in -p=build -pbuild "--build-path build" --build-path=build; do
  # shellcheck disable=SC2086
  run infer $form src/a.c
  expect_ok
  same "$T/narrow.txt" "$T/out" "infer $form src/a.c and -p build src/a.c"
done

check "check -p build src/a.c: a.c's misuse only, b.c's hidden"
run check -p build src/a.c
expect_rc 1
expect_stdout_has 'src/a\.c:6:.*a_wrong'
expect_stdout_lacks 'b_wrong'
run check -p build
expect_rc 1
expect_stdout_has 'b_wrong'

check "fix -p build src/b.c edits b.c only (sq), not a.c (twice_sq)"
cp src/a.c "$T/a.before"
run fix -p build src/b.c -q
expect_rc 0
grep -q 'const.*sq\|sq.*const' src/b.c || fail "sq was not made const in b.c${NL}$(show src/b.c)"
same "$T/a.before" src/a.c "src/a.c before and after fix -p build src/b.c"

check "summarize -p build src/a.c: a.c's summary only, with its database flags"
run summarize -p build src/a.c -o a.sum
expect_ok
run link a.sum --root "$T/p"
expect_ok
expect_stdout_has '^src/a\.c:6: a_wrong'
expect_stdout_lacks 'b_wrong|src/b\.c'

check "a file the database does not compile: exit 2 naming it and saying what to do"
printf 'int lone(void) { return 1; }\n' >src/lone.c
run infer -p build src/lone.c
expect_usage_error 'src/lone\.c is not compiled by .*build/compile_commands\.json.*-- '

check "a file named as the project root sees it, from elsewhere: the error says where it is"
cd src
run infer -p ../build src/a.c
expect_usage_error 'src/a\.c: No such file or directory \(files are named from the current directory; the database compiles .*/p/src/a\.c\)$'
run infer -p ../build src/none.c
expect_usage_error 'src/none\.c: No such file or directory$'
cd ..

check "flags after -- with -p are added to every entry (clang-tidy's --extra-arg)"
run infer -p build -- -DEXTRA
expect_ok
expect_stdout_has '^src/b\.c:3: extra_seen: const'
run infer -p build
expect_stdout_lacks 'extra_seen'

check "a file named without -p: build/compile_commands.json is used, said in one line"
run infer src/a.c
expect_rc 0
expect_stdout_has '^src/a\.c:7: twice_sq: const'
expect_stdout_lacks 'src/b\.c'
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "expected one line on stderr${NL}$(context)"
expect_stderr_has 'using build/compile_commands\.json .*-p build'
run infer -q src/a.c
expect_ok

check "FILE -- FLAGS: no database, these flags only"
run infer src/b.c -- -Iinc -DEXTRA
expect_ok
expect_stdout_has '^src/b\.c:3: extra_seen: const'

check "a parse failure without a database suggests -p"
run infer src/b.c --
expect_rc 2
expect_stderr_has "t\\.h' file not found"
expect_stderr_has 'hint: .*-p build src/b\.c'

check "-o=FILE and --output FILE write FILE (never a file named '=FILE')"
run infer -p build -o=out1.txt
expect_ok
[ -s out1.txt ] && [ ! -e =out1.txt ] || fail "-o=out1.txt did not write out1.txt${NL}$(ls)"
run infer -p build --output out2.txt
expect_ok
same out1.txt out2.txt "-o=out1.txt and --output out2.txt"
run infer -p build --output=out3.txt
same out1.txt out3.txt "-o=out1.txt and --output=out3.txt"

check "--jobs 2, --jobs=2, -j2, -j=2, -j 2: the same"
for form in "--jobs 2" --jobs=2 -j2 -j=2 "-j 2"; do
  # shellcheck disable=SC2086
  run infer -p build $form
  expect_ok
  same out1.txt "$T/out" "infer $form"
done

check "--format json and --format=json, --root DIR and --root=DIR"
run infer -p build --format json
expect_ok
cp "$T/out" "$T/j1"
run infer -p build --format=json --root="$T/p"
expect_ok
same "$T/j1" "$T/out" "--format json and --format=json --root=DIR"

check "unknown and malformed options: exit 2, one line naming them"
run infer -p build --jbos 2
expect_usage_error "unknown option '--jbos'; did you mean --jobs\\?"
run infer -p build --frobnicate=3
expect_usage_error "unknown option '--frobnicate'"
run infer -p build -x
expect_usage_error "unknown option '-x'"
run infer -p build --quiet=yes
expect_usage_error '--quiet takes no value'
run infer -p build --format
expect_usage_error '--format needs a value'
run infer -p build -qv
expect_usage_error "'-qv'"

check "--exclude and --include narrow the report, not the analysis"
run infer -p build --exclude='src/b*'
expect_ok
expect_stdout_has '^src/a\.c:7: twice_sq: const'
expect_stdout_lacks 'src/b\.c'
run infer -p build --include=src/b.c
expect_ok
expect_stdout_has '^src/b\.c'
expect_stdout_lacks 'src/a\.c'
run infer -p build --exclude src
expect_ok
expect_stdout_empty

check "--checks: clang-tidy's globs over check names"
run check -p build --checks='-misuse*'
expect_rc 0
expect_stdout_lacks 'a_wrong|b_wrong'
run check -p build --checks='-*,misuse*' --format=json
expect_rc 1
[ "$(json_flat "$T/out" | grep -c '^diagnostics\.[0-9]*\.check')" -eq 2 ] || fail "expected the two misuse errors${NL}$(context)"
run check -p build --checks='cheat?*,=x'
expect_usage_error "'=x'"
echo "ok"
