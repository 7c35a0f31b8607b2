#!/usr/bin/env bash
# A Meson build directory: its compile database names sources as
# ../src/a.c from the build directory, and meson-info/meson-info.json
# names the source tree it was configured from. That tree, not the build
# directory, is the project root: paths print relative to it, fix may edit
# the project's headers, and a .purist file there is read. (Meson itself
# is not needed: the two files are written as Meson 1.0 writes them.)
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

write_tiny_cmake "$T/proj"
mkdir -p "$T/proj/build/meson-info"
cat >"$T/proj/build/compile_commands.json" <<EOF2
[
  { "directory": "$T/proj/build",
    "command": "cc -I../inc -DGREETING=\"\\\\\"hello world\\\\\"\" -O2 -o a.o -c ../src/a.c",
    "file": "../src/a.c", "output": "a.o" },
  { "directory": "$T/proj/build",
    "command": "cc -I../inc -DGREETING=\"\\\\\"hello world\\\\\"\" -O2 -o b.o -c ../src/b.c",
    "file": "../src/b.c", "output": "b.o" }
]
EOF2
cat >"$T/proj/build/meson-info/meson-info.json" <<EOF2
{"meson_version": {"full": "1.0.1", "major": 1, "minor": 0, "patch": 1},
 "directories": {"source": "$T/proj", "build": "$T/proj/build", "info": "$T/proj/build/meson-info"},
 "introspection": {"version": {"full": "1.0.0", "major": 1, "minor": 0, "patch": 0}},
 "build_files_updated": false, "error": false}
EOF2

check "infer -p build: paths relative to the Meson source tree, not ../src"
cd "$T/proj"
run infer -p build
expect_ok
expect_stdout_has '^src/a\.c:3: sq: const'
expect_stdout_has '^src/b\.c:3: get: pure'
expect_stdout_lacks '\.\./src'

check "the same from the build directory and from /"
cp "$T/out" "$T/expected"
cd "$T/proj/build"
run infer -p .
expect_ok
same "$T/expected" "$T/out" "outputs from the source dir and from the build dir"
cd /
run infer -p "$T/proj/build"
expect_ok
same "$T/expected" "$T/out" "outputs from the source dir and from /"

check "fix edits the project's header, which lies outside the build directory"
cd "$T/proj"
run fix -p build
expect_rc 0
grep -q 'int sq(int x) __attribute__((const));' inc/t.h ||
  fail "sq's prototype in inc/t.h was not edited${NL}$(cat inc/t.h)${NL}$(context)"

check "a damaged meson-info.json: the database's directory is the root (sources outside it print whole), no crash"
echo '{ not json' >"$T/proj/build/meson-info/meson-info.json"
run infer -p build
expect_ok
expect_stdout_has "^$T/proj/src/a\\.c:3: sq: const"
echo "ok"
