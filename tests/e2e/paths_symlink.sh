#!/usr/bin/env bash
# A project reached through a symbolic link (a checkout under a symlinked
# home or workspace, macOS's /tmp -> /private/tmp): the root and the files
# name the same directory, so "file" must still be relative to the root,
# whichever spelling of the path CMake, the database or --root uses.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

write_tiny_cmake "$T/real"
ln -s real "$T/link"

check "CMake configured through the symlink: infer -p link/build prints src/... paths"
cmake_configure "$T/link" "$T/link/build"
grep -q "^CMAKE_HOME_DIRECTORY:INTERNAL=$T/link\$" "$T/link/build/CMakeCache.txt" ||
  echo "  (note: CMake recorded the source dir as $(grep CMAKE_HOME_DIRECTORY "$T/link/build/CMakeCache.txt"))"
cd "$T"
run infer -p link/build
expect_ok
expect_stdout_has '^src/a\.c:3: sq: const'
expect_stdout_has '^src/b\.c:4: bump: normal'

check "the same from inside the symlinked tree (cd link; infer -p build)"
cd "$T/link"
run infer -p build
expect_ok
expect_stdout_has '^src/a\.c:3: sq: const'

check "--root spelled through the symlink"
cd "$T"
run infer -p link/build --root link --format=json
expect_rc 0
expect_json "$T/out" sq file '"src/a.c"'

check "a hand-written database in a symlinked directory (root = its directory)"
mkdir -p "$T/real2"
ln -s real2 "$T/link2"
printf 'int one(void) { return 1; }\n' >"$T/real2/one.c"
cat >"$T/real2/compile_commands.json" <<EOF2
[{"directory": "$T/link2", "file": "one.c", "arguments": ["cc", "-c", "one.c"]}]
EOF2
run infer -p link2
expect_ok
expect_stdout_has '^one\.c:1: one: const'
echo "ok"
