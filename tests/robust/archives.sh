#!/usr/bin/env bash
# Issue 12 item 4: damaged archives are reported member by member, never
# silently dropped. Each damaged member header (size 0, -1, not a number,
# larger than the archive; a bad end marker; a bad long name; an archive
# cut short in its last member) names the member and exits 2 while the
# members before it are linked; a thin archive (ar rcT) is read through
# the files it names, and one that names itself is refused, not followed
# forever; an object whose .purist section lies past its end, or whose
# section headers are cut short (a cut object, a member one byte too
# short: issue 23 item 6), is "damaged", not "no section".
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/../cc/cc_lib.sh"
cd "$T"
cat >first.c <<'EOF2'
int first_sq(int x) { return x * x; }
EOF2
cat >second_member_with_a_long_name.c <<'EOF2'
int counter;
int second_get(void) { return counter; }
EOF2
cat >third.c <<'EOF2'
int third_one(void) { return 1; }
EOF2
for f in first second_member_with_a_long_name third; do
  "$PURIST" cc gcc -O2 -c "$f.c" || fail "purist cc failed on $f.c"
done
ar rcD lib.a first.o second_member_with_a_long_name.o third.o

# put FILE OFFSET TEXT: writes TEXT over FILE's bytes at OFFSET.
put() { printf '%s' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# header_of FILE NAME: the offset of the member header whose name field starts with NAME.
header_of() { grep -boa -- "$2" "$1" | head -n 1 | cut -d: -f1; }

check "an intact archive: every member linked, exit 0"
run link lib.a
expect_rc 0
expect_stdout_has 'first_sq: const'
expect_stdout_has 'second_get: pure'
expect_stdout_has 'third_one: const'

third=$(header_of lib.a 'third.o/')
[ -n "$third" ] || fail "no header for third.o in lib.a"
for size in '0         ' '-1        ' 'abc       ' '99999999  '; do
  check "third.o's size field '${size%% *}': third.o named, exit 2, first_sq still linked"
  cp lib.a bad.a
  put bad.a $((third + 48)) "$size"
  run link bad.a
  expect_rc 2
  expect_stderr_has 'bad\.a\(third\.o\): damaged archive member'
  expect_stdout_has 'first_sq: const'
done

check "a bad end marker (fmag) in third.o's header: named, exit 2"
cp lib.a bad.a
put bad.a $((third + 58)) 'x'
run link bad.a
expect_rc 2
expect_stderr_has 'bad\.a\(third\.o\): damaged archive member: bad end marker'
expect_stdout_has 'second_get: pure'

check "a long name pointing past the long-name table: exit 2, the member named by its place"
long=$(header_of lib.a '/0 ')
[ -n "$long" ] || fail "no long-name reference in lib.a"
cp lib.a bad.a
put bad.a "$long" '/9999'
run link bad.a
expect_rc 2
expect_stderr_has "bad\.a\(member at byte $long\): damaged archive member: bad long name"
expect_stdout_has 'third_one: const'

check "an archive cut short in its last member: that member named, exit 2"
cp lib.a bad.a
truncate -s $(($(stat -c %s lib.a) - 100)) bad.a
run link bad.a
expect_rc 2
expect_stderr_has 'bad\.a\(third\.o\): damaged archive member: cut short'
expect_stdout_has 'second_get: pure'

check "a thin archive (ar rcT): its members are read from the files it names"
mkdir sub
ar rcT sub/thin.a first.o second_member_with_a_long_name.o third.o
run link sub/thin.a
expect_rc 0
expect_stdout_has 'first_sq: const'
expect_stdout_has 'second_get: pure'
expect_stdout_has 'third_one: const'

check "a thin archive whose member file is gone: that member named, exit 2"
mv third.o third.o.away
run link sub/thin.a
expect_rc 2
expect_stderr_has 'thin\.a\(.*third\.o\): damaged archive member: .*No such file'
expect_stdout_has 'first_sq: const'
mv third.o.away third.o

check "a thin archive that names itself: refused, no loop"
ar rcT self.a first.o
# The member's name (in the long-name table) becomes the archive itself.
off=$(header_of self.a 'first.o/')
[ -n "$off" ] || fail "no name first.o in self.a's long-name table"
put self.a "$off" $'self.a/\n'
timeout 20 "$PURIST" link self.a >out 2>err && rc=0 || rc=$?
[ "$rc" -eq 2 ] || fail "expected exit 2, got $rc$NL$(show err)"
grep -q 'names itself' err || fail "no 'names itself'$NL$(show err)"

check "an object whose .purist section lies past its end: damaged, exit 2"
cp first.o far.o
sec=$(readelf -SW far.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.purist .*/\1/p')
shoff=$(readelf -hW far.o | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
[ -n "$sec" ] && [ -n "$shoff" ] || fail "cannot find .purist in far.o"
# sh_offset: 8 bytes at +24 of the 64-byte section header; 0x00ffffff is past the end.
printf '\xff\xff\xff\x00' | dd of=far.o bs=1 seek=$((shoff + sec * 64 + 24)) conv=notrunc status=none
run link far.o third.o
expect_rc 2
expect_stderr_has 'far\.o: damaged: its \.purist section lies past its end'
expect_stdout_has 'third_one: const'

check "an object cut anywhere in its section headers: damaged, exit 2 (issue 23 item 6)"
size=$(stat -c %s first.o)
shoff=$(readelf -hW first.o | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
for cut in $((shoff + 1)) $((shoff + (size - shoff) / 2)) $((size - 1)); do
  head -c $cut first.o >cut.o
  run link cut.o third.o
  expect_rc 2
  expect_stderr_has 'cut\.o: .*(truncated|damaged)'
  expect_stdout_has 'third_one: const'
done

check "an archive member whose size field is one too small: damaged, exit 2"
first=$(header_of lib.a 'first.o/')
[ -n "$first" ] || fail "no header for first.o in lib.a"
fsize=$(dd if=lib.a bs=1 skip=$((first + 48)) count=10 status=none | tr -d ' ')
cp lib.a bad.a
put bad.a $((first + 48)) "$(printf '%-10s' $((fsize - 1)))"
run link bad.a
expect_rc 2
expect_stderr_has 'bad\.a\(first\.o\): .*(truncated|damaged)'
expect_stdout_lacks 'first_sq'
echo "PASS"
