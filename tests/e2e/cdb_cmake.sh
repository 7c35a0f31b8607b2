#!/usr/bin/env bash
# A CMake-generated compile database: `purist infer -p build` on a tiny
# two-file project, from inside and outside the source tree, with in-tree
# and out-of-tree build directories, spaces in paths, and sources built for
# two targets.  Paths are relative to the CMake source tree (CMakeCache's
# CMAKE_HOME_DIRECTORY), not to the build dir.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

write_tiny_cmake "$T/proj"
cmake_configure "$T/proj" "$T/proj/build"

expect_tiny() {
  expect_ok
  expect_stdout_has '^src/a\.c:3: sq: const'
  expect_stdout_has '^src/b\.c:3: get: pure'
  expect_stdout_has '^src/b\.c:4: bump: normal'
  local n
  n=$(wc -l <"$T/out")
  [ "$n" -eq 3 ] || fail "expected 3 functions, got $n lines${NL}$(context)"
}

check "infer -p build (in the source dir): three functions, paths relative to the source dir"
cd "$T/proj"
run infer -p build
expect_tiny

check "the definition with a space (GREETING=\"hello world\") reached the parser intact"
# src/a.c has a _Static_assert on it: a mangled definition is a parse error.
expect_stdout_lacks 'error'

check "infer -p build/ (trailing slash) and -pbuild give the same output"
cp "$T/out" "$T/expected"
run infer -p build/
expect_ok
same "$T/expected" "$T/out" "outputs of -p build and -p build/"
run infer -pbuild
expect_ok
same "$T/expected" "$T/out" "outputs of -p build and -pbuild"

check "no -p, run in the source dir: build/compile_commands.json is found, same output"
run infer
expect_ok
same "$T/expected" "$T/out" "outputs of -p build and of no -p"

check "no -p, run in the build dir: ./compile_commands.json is found, same output"
cd build
run infer
expect_ok
same "$T/expected" "$T/out" "outputs of -p build and of no -p in build/"
cd ..

check "-p naming the compile_commands.json file itself works too"
run infer -p build/compile_commands.json
expect_ok
same "$T/expected" "$T/out" "outputs of -p build and -p build/compile_commands.json"

check "infer -p with an absolute path from / : paths still relative to the source dir"
cd /
run infer -p "$T/proj/build"
expect_ok
same "$T/expected" "$T/out" "outputs from the source dir and from /"

check "infer -p from inside the build dir"
cd "$T/proj/build"
run infer -p .
expect_ok
same "$T/expected" "$T/out" "outputs from the source dir and from the build dir"

check "out-of-tree build dir (sibling of the source dir): root is still the source dir"
cmake_configure "$T/proj" "$T/obj"
cd "$T"
run infer -p obj
expect_ok
same "$T/expected" "$T/out" "outputs for in-tree and out-of-tree builds"

check "JSON: \"file\" is relative to the CMake source dir"
run infer -p obj --format=json
expect_rc 0
n=$(json_check_functions "$T/out")
[ "$n" -eq 3 ] || fail "expected 3 function objects, got $n"
expect_json "$T/out" sq file '"src/a.c"'
expect_json "$T/out" sq line 3
expect_json "$T/out" get file '"src/b.c"'
expect_json "$T/out" bump file '"src/b.c"'

check "spaces in the source and build dir names (CMake quotes -I\"/a b/inc\")"
write_tiny_cmake "$T/my proj"
cmake_configure "$T/my proj" "$T/my proj/build dir"
cd "$T/my proj"
run infer -p "build dir"
expect_ok
same "$T/expected" "$T/out" "outputs for the project with and without spaces in its path"

check "the same source compiled for two targets (static + shared) is analysed once"
cat >>"$T/my proj/CMakeLists.txt" <<'EOF2'
add_library(tiny_shared SHARED src/a.c src/b.c)
target_include_directories(tiny_shared PRIVATE inc)
target_compile_definitions(tiny_shared PRIVATE GREETING="hello world")
EOF2
cmake_configure "$T/my proj" "$T/my proj/build dir"
[ "$(grep -c '"file"' "$T/my proj/build dir/compile_commands.json")" -eq 4 ] ||
  fail "test is broken: expected 4 database entries"
run infer -p "build dir"
expect_ok
same "$T/expected" "$T/out" "outputs with one and with two targets per source"
echo "ok"
