#!/usr/bin/env bash
# The link step of `purist cc` moves the binary's summaries into a sidecar,
# BINARY.purist, so the shipped binary is the size of the plain one (issue 24
# item 2); `purist link BINARY` reads the sidecar; strip leaves it alone;
# PURIST_CC_EMBED=1
# keeps the summaries inside (and removes a stale sidecar); CMake needs
# CMAKE_C_LINKER_LAUNCHER too; `-r` and archives keep the sections. A
# shared library linked without purist cc (libtool links with the compiler
# configure found, not make's CC) keeps its objects' sections, and purist
# link says so, with the ways out (issue 35 item 6).
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
copy_examples "$T/mk"
write_examples_makefile "$T/mk"
cd "$T/mk"

check "make CC=gcc, then make CC=\"purist cc gcc\": demo.purist beside demo, demo as small as the plain one"
make -j2 CC=gcc >plain.log 2>&1 || fail "plain make failed${NL}$(show plain.log)"
plain=$(wc -c <demo)
make clean >/dev/null 2>&1 || true
rm -f demo libexstats.a src/*.o
make -j2 CC="$PURIST cc gcc" >make.log 2>&1 || fail "make failed${NL}$(show make.log)"
[ -s demo.purist ] || fail "no demo.purist after the link step${NL}$(show make.log)"
[ -z "$(section_offset demo)" ] || fail "demo still has a .purist section"
[ -n "$(section_offset src/main.o)" ] || fail "the objects lost their sections"
size=$(wc -c <demo)
[ "$size" -le $((plain + plain / 100)) ] || fail "demo is $size bytes, the plain build's $plain"
./demo </dev/null >/dev/null || fail "demo does not run"

check "purist link demo (the sidecar) == infer of the sources, no note"
run infer src/*.c -- $EX_FLAGS
expect_ok
cp "$T/out" infer.txt
run link demo
expect_ok
same infer.txt "$T/out" "infer of the sources and link of demo"
[ ! -s "$T/err" ] || fail "link printed on stderr${NL}$(show "$T/err")"

check "strip demo: the sidecar still describes it"
strip demo
run link demo
expect_ok
same infer.txt "$T/out" "infer of the sources and link of the stripped demo"

check "PURIST_CC_EMBED=1: the section stays in demo and the stale demo.purist goes"
rm -f demo
PURIST_CC_EMBED=1 make CC="$PURIST cc gcc" demo >embed.log 2>&1 || fail "make failed${NL}$(show embed.log)"
[ -n "$(section_offset demo)" ] || fail "PURIST_CC_EMBED=1: demo has no .purist section"
[ ! -e demo.purist ] || fail "PURIST_CC_EMBED=1 left demo.purist"
run link demo
expect_ok
same infer.txt "$T/out" "infer of the sources and link of the embedded demo"

check "gcc -r through purist cc: a relocatable object keeps its section, no sidecar"
"$PURIST" cc gcc -r -o all.o src/num.o src/grid.o || fail "gcc -r failed"
[ -n "$(section_offset all.o)" ] || fail "all.o has no .purist section"
[ ! -e all.o.purist ] || fail "a sidecar for a relocatable object"

check "a user's file named like a sidecar is never removed"
echo "my notes" >notes.purist
"$PURIST" cc gcc -o notes src/main.o libexstats.a 2>side.err || fail "link failed${NL}$(show side.err)"
grep -q "my notes" notes.purist || fail "notes.purist was overwritten"
grep -q 'notes\.purist exists and is not a summary file' side.err || fail "no warning${NL}$(show side.err)"
[ -n "$(section_offset notes)" ] || fail "notes lost its summaries"
PURIST_CC_EMBED=1 "$PURIST" cc gcc -o notes src/main.o libexstats.a || fail "link failed"
grep -q "my notes" notes.purist || fail "notes.purist was removed"

check "cmake with CMAKE_C_COMPILER_LAUNCHER and CMAKE_C_LINKER_LAUNCHER: build/demo.purist"
copy_examples "$T/cm"
cd "$T/cm"
cmake -S . -B build -DCMAKE_C_COMPILER_LAUNCHER="$PURIST;cc" -DCMAKE_C_LINKER_LAUNCHER="$PURIST;cc" >cmake.log 2>&1 ||
  fail "cmake failed${NL}$(show cmake.log)"
cmake --build build -j2 >build.log 2>&1 || fail "the build failed${NL}$(show build.log)"
[ -s build/demo.purist ] || fail "no build/demo.purist${NL}$(show build.log)"
[ -z "$(section_offset build/demo)" ] || fail "build/demo still has a .purist section"
run infer -p build
expect_ok
cp "$T/out" infer.txt
run link build/demo
expect_ok
same infer.txt "$T/out" "infer -p build and link build/demo"

check "a shared library linked by plain gcc from purist cc's objects (libtool's way): link reads it and says why it is bigger"
mkdir -p "$T/lt" && cd "$T/lt"
printf 'int lt_square(int x) { return x * x; }\nint lt_sum(int x) { return lt_square(x) + 1; }\n' >lt.c
"$PURIST" cc gcc -fPIC -c lt.c -o lt.o || fail "purist cc failed"
gcc -shared -o libplain.so lt.o || fail "gcc -shared failed"
run link libplain.so
expect_rc 0
expect_stdout_has "lt_sum: const"
expect_stderr_has "^purist: note: libplain\.so holds its objects' \.purist sections \([0-9]+ bytes, [0-9]+% of the file\): it was linked without purist cc.*libtool.*configure with CC=\"purist cc gcc\", or remove them with strip -R \.purist"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "one line expected${NL}$(context)"
run link libplain.so --quiet
expect_ok

check "the same library linked through purist cc: a sidecar, no note; an executable with its section: no note"
"$PURIST" cc gcc -shared -o libours.so lt.o || fail "purist cc gcc -shared failed"
[ -s libours.so.purist ] || fail "no libours.so.purist"
run link libours.so
expect_ok
cd "$T/mk"
run link demo   # PURIST_CC_EMBED=1 above: the section inside, on purpose
expect_ok
echo "ok"
