#!/usr/bin/env bash
# The example project built by make (CC="purist cc gcc") and by CMake
# (CMAKE_C_COMPILER_LAUNCHER="purist;cc"): purist link of the executable,
# of the archive and main.o, and of a shared object prints exactly what
# purist infer prints for the sources; check, suggest and explain accept
# the executable in place of the compile database; strip keeps the section,
# strip -R .purist removes it.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"

check "make -j2 CC=\"purist cc gcc\": link demo == infer of the sources"
copy_examples "$T/mk"
write_examples_makefile "$T/mk"
cd "$T/mk"
make -j2 CC="$PURIST cc gcc" >make.log 2>&1 || fail "make failed${NL}$(show make.log)"
grep -q 'purist cc: warning' make.log && fail "the build printed purist messages${NL}$(show make.log)"
# shellcheck disable=SC2086  # EX_FLAGS is a list of flags
run infer src/*.c -- $EX_FLAGS
expect_ok
cp "$T/out" infer.txt
[ "$(wc -l <infer.txt)" -ge 40 ] || fail "infer listed too few functions${NL}$(show infer.txt)"
run link demo
expect_ok
same infer.txt "$T/out" "infer of the sources and link of demo"
run link libexstats.a src/main.o
expect_ok
same infer.txt "$T/out" "infer of the sources and link of libexstats.a + main.o"
run infer demo --format=json
expect_ok
cp "$T/out" link.json
# shellcheck disable=SC2086
run infer --format=json src/*.c -- $EX_FLAGS
same "$T/out" link.json "infer --format=json of the sources and of demo"

check "a shared object (gcc -shared) of -fPIC objects"
make clean >/dev/null 2>&1 || true
rm -f src/*.o
make -j2 CC="$PURIST cc gcc" CFLAGS="$EX_FLAGS -fPIC" libexstats.a src/main.o >make.log 2>&1 ||
  fail "make failed${NL}$(show make.log)"
gcc -shared -o libexstats.so src/num.o src/grid.o src/layout.o src/table.o src/text.o src/log.o src/config.o
gcc -o demo_so src/main.o -L. -lexstats -Wl,-rpath,"$PWD"
./demo_so </dev/null >/dev/null || fail "the program linked against the .so does not run"
run link libexstats.so src/main.o
expect_rc 0
# linked by plain gcc, not purist cc: its sections are inside, and a note says so (issue 35 item 6)
[ "$(grep -c . "$T/err")" -eq 1 ] && grep -q "^purist: note: libexstats.so holds its objects' .purist sections" "$T/err" ||
  fail "expected only the note on the sections inside the .so${NL}$(context)"
same infer.txt "$T/out" "infer of the sources and link of libexstats.so + main.o"

check "cmake -DCMAKE_C_COMPILER_LAUNCHER=\"purist;cc\": link build/demo == infer -p build"
copy_examples "$T/cm"
cd "$T/cm"
cmake -S . -B build -DCMAKE_C_COMPILER_LAUNCHER="$PURIST;cc" >cmake.log 2>&1 || fail "cmake failed${NL}$(show cmake.log)"
cmake --build build -j2 >build.log 2>&1 || fail "the build failed${NL}$(show build.log)"
run infer -p build
expect_ok
cp "$T/out" infer.txt
run link build/demo
expect_ok
same infer.txt "$T/out" "infer -p build and link build/demo"
for cmd in check suggest explain; do
  run "$cmd" -p build --format=json --fail-on=never
  cp "$T/out" "$cmd.db.json"
  run "$cmd" build/demo --format=json --fail-on=never
  expect_rc 0
  same "$cmd.db.json" "$T/out" "$cmd -p build and $cmd build/demo"
done

check "strip keeps the section (symbols and debug only); strip -R .purist removes it: a note, exit 2"
strip -o demo.stripped build/demo
run link demo.stripped
expect_ok
same infer.txt "$T/out" "infer -p build and link of the stripped demo"
strip -R .purist -o demo.nosum build/demo
[ -z "$(section_offset demo.nosum)" ] || fail "strip -R .purist kept the section"
run link demo.nosum
expect_rc 2
expect_stderr_has 'note: demo\.nosum: no \.purist section'
echo "ok"
