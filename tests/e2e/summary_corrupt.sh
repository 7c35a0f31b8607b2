#!/usr/bin/env bash
# Damaged and foreign summary files are refused, never misread
# (docs/summary-format.md): every single-byte change, every truncation,
# random bytes, a text file and an ELF binary each make
# `purist link` exit 2 with a message naming the file, without crashing.
# (The empty file has its own test, summary_empty.sh.)
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >a.c <<'EOF2'
int g;
static int twice(int x) { return 2 * x; }
int peek(int x) { return g + twice(x); }
void poke(int v) { g = v; }
EOF2
printf 'int other(int x) { return x; }\n' >b.c
run summarize -o good.purist a.c
expect_ok
run summarize -o two.purist a.c b.c
expect_ok
size=$(stat -c %s good.purist)
[ "$size" -gt 32 ] || fail "the summary is implausibly small ($size bytes)"

# refused FILE WHAT: link FILE exits 2, no crash, stderr names FILE.
refused() {
  run link "$1"
  no_crash
  [ "$RC" -eq 2 ] || fail "$2: expected exit 2, got $RC${NL}$(context)"
  grep -q -- "$1" "$T/err" || fail "$2: the message does not name $1${NL}$(context)"
}

check "sanity: the undamaged summary links"
run link good.purist
expect_ok
expect_stdout_has '^a\.c:3: peek: pure'

# flip FILE OFFSET MASK OUT: OUT is FILE with the byte at OFFSET xor MASK.
flip() {
  local b
  b=$(od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
  cp "$1" "$4"
  # shellcheck disable=SC2059  # the format is the octal escape of the byte
  printf "\\$(printf %03o $((b ^ $3)))" | dd of="$4" bs=1 seek="$2" conv=notrunc status=none
}

check "each of the $size bytes flipped (xor 0xff) is refused: damaged.purist"
for ((i = 0; i < size; i++)); do
  flip good.purist "$i" 255 damaged.purist
  refused damaged.purist "byte $i flipped"
done

check "a low bit flipped in the header, the middle and the last byte is refused"
for i in 0 8 12 16 24 40 $((size / 2)) $((size - 1)); do
  flip good.purist "$i" 1 damaged.purist
  refused damaged.purist "byte $i, bit 0 flipped"
done

check "a byte flipped in the second record of a two-record file is refused"
flip two.purist $((size + 40)) 1 damaged2.purist
refused damaged2.purist "byte $((size + 40)) of two records"

check "every truncation (1..$((size - 1)) bytes) is refused: short.purist"
for ((n = 1; n < size; n++)); do
  head -c "$n" good.purist >short.purist
  refused short.purist "truncated to $n bytes"
done

check "the two-record file cut in its second record is refused"
head -c $((size + 20)) two.purist >short2.purist
refused short2.purist "two records cut in the second"

check "random bytes are refused: random.purist"
head -c 4096 /dev/urandom >random.purist
refused random.purist "random bytes"

check "a text file is refused: a.c"
refused a.c "a C source file"

check "an ELF file (the purist binary) is refused"
cp "$PURIST" elf.purist
refused elf.purist "an ELF binary"

check "a directory is refused"
mkdir dir.purist
refused dir.purist "a directory"

check "a refused file among good ones: exit 2, the bad one named"
run link good.purist random.purist
no_crash
[ "$RC" -eq 2 ] || fail "expected exit 2${NL}$(context)"
expect_stderr_has 'random\.purist'
echo "ok"
