#!/usr/bin/env bash
# Bad input to link from objects: a damaged .purist section (in an object
# and inside an executable) is reported, its TU counts as unknown, the rest
# is linked; a record from another format version is refused by name; an
# object without the section gets a note; a function defined in two
# objects is one conflict, reported once; zero padding between records (a
# linker aligning the sections) is skipped; a truncated ELF file is an error.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
cd "$T"
cat >a.c <<'EOF2'
int counter;
int a_get(void) { return counter; }
int twice(int x) { return 2 * x; }
EOF2
cat >b.c <<'EOF2'
int b_sq(int x) { return x * x; }
EOF2
cat >c.c <<'EOF2'
int twice(int x) { return x + x; }
int c_use(int x) { return twice(x) + 1; }
int main(void) { return 0; }
EOF2
for f in a b c; do
  "$PURIST" cc gcc -O2 -c "$f.c" || fail "purist cc failed on $f.c"
done

check "a damaged section in b.o: b.o named, exit 2, a.o and c.o still linked"
cp b.o b_bad.o
flip_byte b_bad.o $(($(section_offset b_bad.o) + 40))
run link a.o b_bad.o c.o
expect_rc 2
expect_stderr_has 'b_bad\.o: refused at byte 0: bad checksum'
expect_stdout_has '^a\.c:2: a_get: pure'
expect_stdout_lacks 'b_sq'

check "a damaged record inside an executable: the rest of its records linked"
gcc -o prog_bad a.o b_bad.o c.o 2>/dev/null || gcc -Wl,--allow-multiple-definition -o prog_bad a.o b_bad.o c.o
run link prog_bad
expect_rc 2
expect_stderr_has 'prog_bad: refused at byte [0-9]+: bad checksum.*; its functions count as unknown'
expect_stdout_has 'a_get: pure'
expect_stdout_has 'c_use'

check "a record from another summary format version: refused with the reason"
cp b.o b_v2.o
off=$(section_offset b_v2.o)
printf '\143' | dd of=b_v2.o bs=1 seek=$((off + 8)) conv=notrunc status=none   # version 99
run link a.o b_v2.o
expect_rc 2
expect_stderr_has 'b_v2\.o: refused at byte 0: summary format version 99 from another purist version, this purist reads version [0-9]+'
expect_stdout_has 'a_get'

check "an object built without purist cc: a note naming it, the rest linked, exit 0"
gcc -O2 -c b.c -o plain.o
run link a.o plain.o
expect_rc 0
expect_stderr_has '^purist: note: plain\.o: no \.purist section'
expect_stdout_has 'a_get'
run link --quiet a.o plain.o
expect_ok

check "twice defined in a.o and c.o: two programs, each its own; a note under --verbose only"
run link a.o c.o
expect_rc 0
[ "$(count_lines "twice" "$T/err")" -eq 0 ] || fail "no conflict line without --verbose${NL}$(context)"
[ "$(count_lines ': twice: const' "$T/out")" -eq 2 ] || fail "each twice is its own, const${NL}$(context)"
run link --verbose a.o c.o
expect_rc 0
[ "$(count_lines "'twice' is defined 2 times" "$T/err")" -eq 1 ] || fail "expected one note${NL}$(context)"
expect_stderr_has 'a\.c.*c\.c'

check "sections aligned to 16 (the linker pads between records with zeros): all records read"
for f in a b; do objcopy --set-section-alignment .purist=16 "$f.o" "${f}16.o"; done
gcc -shared -o lib16.so a16.o b16.o 2>/dev/null || gcc -o lib16.so -r a16.o b16.o
run link a.o b.o
expect_ok
cp "$T/out" want.txt
run link lib16.so
expect_ok
same want.txt "$T/out" "link of a.o b.o and of the padded lib16.so"

check "a truncated object: an error naming it, no crash"
head -c 200 a.o >trunc.o
run link trunc.o b.o
expect_rc 2
expect_stderr_has 'trunc\.o'
echo "ok"
