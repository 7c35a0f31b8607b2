#!/usr/bin/env bash
# The configuration file .purist (issue 20 item 2): YAML found from the
# project root upward (or --config FILE, or none with --no-config); checks,
# exclude/include globs (the report, not the analysis), knowledge-base
# files relative to it, strictness, spelling; the command line overrides
# it (--checks after its checks, as clang-tidy); purist config --dump
# prints the effective settings; a bad file is exit 2 naming file:line.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/ws/proj/src" "$T/ws/proj/tests" "$T/ws/proj/tools" "$T/ws/proj/build"
P=$T/ws/proj
cd "$P"
# lib_scale is a library function without a body: only a knowledge base
# says it is const. main.c has a misuse error; tests/t.c a function.
cat >src/main.c <<'EOF2'
int lib_scale(int x);
int level;
__attribute__((const)) int wrong(void) { return level; }
int scaled(int x) { return lib_scale(x) + 1; }
EOF2
cat >tests/t.c <<'EOF2'
int helper_in_tests(int x) { return x - 1; }
EOF2
printf 'lib_scale const - multiplies by a constant factor\n' >tools/my.kb
echo "CMAKE_HOME_DIRECTORY:INTERNAL=$P" >build/CMakeCache.txt
cat >build/compile_commands.json <<EOF2
[
  {"directory": "$P", "file": "src/main.c", "arguments": ["cc", "-c", "src/main.c"]},
  {"directory": "$P", "file": "tests/t.c", "arguments": ["cc", "-c", "tests/t.c"]}
]
EOF2

check "no .purist: everything reported, lib_scale unknown"
run infer -p build
expect_ok
expect_stdout_has '^tests/t\.c:1: helper_in_tests'
expect_stdout_has '^src/main\.c:4: scaled: normal'

check ".purist at the project root: exclude narrows the report, kb is relative to the file"
cat >.purist <<'EOF2'
# purist's settings for this project
exclude: [tests/**]
kb:
  - tools/my.kb
EOF2
cd "$T"   # run from elsewhere: found from the root (the CMake source directory) upward
run infer -p "$P/build"
expect_ok
expect_stdout_lacks 'helper_in_tests'
expect_stdout_has '^src/main\.c:4: scaled: const'

check "--exclude on the command line replaces the file's"
run infer -p "$P/build" --exclude=src
expect_ok
expect_stdout_has 'helper_in_tests'
expect_stdout_lacks 'src/main\.c'

check "found upward: a .purist in a directory above the root"
mv "$P/.purist" "$T/ws/.purist"
sed -i 's|tools/my.kb|proj/tools/my.kb|' "$T/ws/.purist"
run infer -p "$P/build"
expect_ok
expect_stdout_lacks 'helper_in_tests'
expect_stdout_has '^src/main\.c:4: scaled: const'

check "--no-config reads none; --config FILE reads that one"
run infer -p "$P/build" --no-config
expect_ok
expect_stdout_has 'helper_in_tests'
printf 'include: [tests]\n' >"$T/other.yaml"
run infer -p "$P/build" --config "$T/other.yaml"
expect_ok
expect_stdout_has 'helper_in_tests'
expect_stdout_lacks 'src/main\.c'
rm "$T/ws/.purist"

check "checks: off in the file; --checks on the command line comes after it (clang-tidy)"
cd "$P"
run check -p build
expect_rc 1
expect_stdout_has 'wrong'
printf 'checks:\n  misuse: off\n' >.purist
run check -p build
expect_rc 0
expect_stdout_lacks "'wrong'"
printf 'checks: "*,-misuse*"\n' >.purist
run check -p build
expect_rc 0
run check -p build --checks='misuse'
expect_rc 1
expect_stdout_has 'wrong'

check "strict, whole-program, spelling: the file sets them, the options win"
printf 'spelling: c23\nstrict: true\nwhole-program: yes\n' >.purist
run fix -p build --dry-run --all --kb tools/my.kb
expect_rc 0
expect_stdout_has '^\+.*\[\[gnu::const\]\].*scaled|^\+.*scaled.*\[\[gnu::const\]\]'
run fix -p build --dry-run --all --kb tools/my.kb --spelling=gnu
expect_stdout_has '^\+.*__attribute__\(\(const\)\)'

check "config --dump: the effective settings, as a .purist that reads back the same"
printf 'exclude: [tests]\nfail-on: warning\nkb: [tools/my.kb]\n' >.purist
run config -p build --dump --checks=-cheat
expect_ok
expect_stdout_has "^# purist's settings: $P/\\.purist, then the command line"
expect_stdout_has "^exclude: \\['tests'\\]$"
expect_stdout_has "^fail-on: warning$"
expect_stdout_has "^kb: \\['$P/tools/my\\.kb'\\]$"
expect_stdout_has "^checks: \\['-cheat'\\]$"
expect_stdout_has "^strict: false$"
grep -v '^#' "$T/out" >"$T/dump.yaml"
run config -p build --config "$T/dump.yaml"
expect_ok
grep -v '^#' "$T/out" >"$T/dump2.yaml"
same "$T/dump.yaml" "$T/dump2.yaml" "config --dump, and the dump of that dump"

check "a bad file: exit 2, naming the file, the line and what is wrong"
printf 'exclude: [tests]\nexlude: src\n' >.purist
run infer -p build
expect_usage_error "\\.purist:2:1: error: unknown key 'exlude' \\(the keys: .*exclude"
printf 'exclude: [tests\nstrict: true\n' >.purist
run infer -p build
expect_usage_error '\.purist:2:[0-9]+: error: .*YAML'
printf 'strict: maybe\n' >.purist
run infer -p build
expect_usage_error "\\.purist:1:9: error: 'strict' wants true or false"
printf 'checks:\n  misuse: sometimes\n' >.purist
run infer -p build
expect_usage_error "\\.purist:2:11: error: checks: wants CHECK: on or off"
printf -- '- a\n- b\n' >.purist
run infer -p build
expect_usage_error "\\.purist:1:1: error: .*'key: value'"
run infer -p build --config "$T/missing.yaml"
expect_usage_error 'missing\.yaml: No such file'

check "an empty .purist is no settings"
: >.purist
run infer -p build
expect_ok
echo "ok"
