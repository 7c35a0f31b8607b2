#!/usr/bin/env bash
# How paths are printed (DESIGN §4): "file" is relative to the project root
# when inside it, absolute otherwise.  The root is the CMake source tree for
# a CMake build dir, else the database's directory; --root overrides it.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

# A CMake project whose sources include a header from outside the project,
# which defines a static inline function.
write_tiny_cmake "$T/proj"
mkdir -p "$T/vendor"
cat >"$T/vendor/ext.h" <<'EOF2'
static inline int ext_twice(int x)
{
  return 2 * x;
}
EOF2
cat >>"$T/proj/src/b.c" <<'EOF2'
#include "ext.h"
int uses_ext(int x) { return ext_twice(x); }
EOF2
cat >>"$T/proj/CMakeLists.txt" <<EOF2
target_include_directories(tiny PRIVATE "$T/vendor")
EOF2
cmake_configure "$T/proj" "$T/proj/build"
# What the tests compare with: the real path of the temp dir.
R=$(cd "$T" && pwd -P)

check "CMake build: root is the source dir; the header outside it is absolute"
cd "$T/proj"
run infer -p build --format=json
expect_rc 0
json_check_functions "$T/out" >/dev/null
expect_json "$T/out" sq file '"src/a.c"'
expect_json "$T/out" uses_ext file '"src/b.c"'
got=$(json_field "$T/out" ext_twice file)
case $got in
  "\"$T/vendor/ext.h\""|"\"$R/vendor/ext.h\"") ;;
  *) fail "ext_twice is outside the root: expected its absolute path, got $got${NL}$(show "$T/out")" ;;
esac

check "text output: the same paths"
run infer -p build
expect_ok
expect_stdout_has '^src/a\.c:3: sq: const'
expect_stdout_has "^($T|$R)/vendor/ext\\.h:1: ext_twice: const"

check "--root DIR overrides the CMake source dir (absolute --root)"
run infer -p build --root "$T" --format=json
expect_rc 0
expect_json "$T/out" sq file '"proj/src/a.c"'
expect_json "$T/out" ext_twice file '"vendor/ext.h"'

check "--root relative to the cwd, --root=DIR spelling"
cd "$T/proj/src"
run infer -p ../build --root=.. --format=json
expect_rc 0
expect_json "$T/out" sq file '"src/a.c"'

check "--root . from the src dir: files in it are relative, src/../inc and above absolute"
run infer -p ../build --root . --format=json
expect_rc 0
expect_json "$T/out" sq file '"a.c"'
got=$(json_field "$T/out" ext_twice file)
case $got in
  "\"$T/vendor/ext.h\""|"\"$R/vendor/ext.h\"") ;;
  *) fail "ext_twice is outside --root: expected its absolute path, got $got${NL}$(show "$T/out")" ;;
esac

check "the reasons follow the same rule: locations inside the root are relative"
cd "$T/proj"
run infer -p build
expect_ok
expect_stdout_has "^src/b\\.c:4: bump: normal — writes static 'counter' \\(src/b\\.c:4:[0-9]+\\)"

check "a non-CMake database: the root is the database's directory"
mkdir -p "$T/hand/db" "$T/hand/src"
printf 'int one(void) { return 1; }\n' >"$T/hand/db/in.c"
printf 'int two(void) { return 2; }\n' >"$T/hand/src/out.c"
cat >"$T/hand/db/compile_commands.json" <<EOF2
[
  {"directory": "$T/hand/db", "file": "in.c", "arguments": ["cc", "-c", "in.c"]},
  {"directory": "$T/hand/src", "file": "out.c", "arguments": ["cc", "-c", "out.c"]}
]
EOF2
cd /
run infer -p "$T/hand/db" --format=json
expect_rc 0
expect_json "$T/out" one file '"in.c"'
got=$(json_field "$T/out" two file)
case $got in
  "\"$T/hand/src/out.c\""|"\"$R/hand/src/out.c\"") ;;
  *) fail "out.c is outside the root: expected its absolute path, got $got${NL}$(show "$T/out")" ;;
esac

check "... and --root moves it"
run infer -p "$T/hand/db" --root "$T/hand" --format=json
expect_rc 0
expect_json "$T/out" one file '"db/in.c"'
expect_json "$T/out" two file '"src/out.c"'

check "a path that merely starts with the root's name is outside it (root /x/db, file /x/dbx/f.c)"
mkdir -p "$T/hand/dbx"
printf 'int three(void) { return 3; }\n' >"$T/hand/dbx/f.c"
cat >"$T/hand/db/compile_commands.json" <<EOF2
[
  {"directory": "$T/hand/dbx", "file": "f.c", "arguments": ["cc", "-c", "f.c"]}
]
EOF2
run infer -p "$T/hand/db" --format=json
expect_rc 0
got=$(json_field "$T/out" three file)
case $got in
  "\"$T/hand/dbx/f.c\""|"\"$R/hand/dbx/f.c\"") ;;
  *) fail "expected the absolute path of dbx/f.c, got $got${NL}$(show "$T/out")" ;;
esac
echo "ok"
