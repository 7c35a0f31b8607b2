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

# The damaged copies are written by bash's own printf from the bytes as
# octal escapes, and each family is linked in one run: purist link reports
# every refused file and goes on, so each copy must be named as refused.
# (A process or two per copy made this test take minutes under load.)
# octal FILE: sets OCT to FILE's bytes as \ooo escapes, 4 characters each.
octal() {
  local b
  OCT=
  for b in $(od -A n -t o1 -v "$1"); do OCT+="\\$b"; done
}
# flipped OFFSET MASK OUT: OUT is the file in OCT with byte OFFSET xor MASK.
flipped() {
  local o=${OCT:$((4 * $1 + 1)):3}
  printf -v o %03o $(((8#$o) ^ $2))
  printf "${OCT:0:$((4 * $1))}\\$o${OCT:$((4 * $1 + 4))}" >"$3"
}
# all_refused WHAT FILE...: one link of them all exits 2 without a crash,
# and each FILE is named as refused.
all_refused() {
  local what=$1 f missing=
  shift
  run link "$@"
  no_crash
  [ "$RC" -eq 2 ] || fail "$what: expected exit 2, got $RC${NL}$(context)"
  for f in "$@"; do
    grep -q -- "^purist: $f: refused" "$T/err" || missing+=" $f"
  done
  [ -z "$missing" ] || fail "$what: not refused:$missing${NL}$(context)"
}

octal good.purist
check "each of the $size bytes flipped (xor 0xff) is refused: damaged_N.purist"
files=()
for ((i = 0; i < size; i++)); do
  flipped "$i" 255 "damaged_$i.purist"; files+=("damaged_$i.purist")
done
all_refused "a byte flipped" "${files[@]}"

check "a low bit flipped in the header, the middle and the last byte is refused"
files=()
for i in 0 8 12 16 24 40 $((size / 2)) $((size - 1)); do
  flipped "$i" 1 "bit0_$i.purist"; files+=("bit0_$i.purist")
done
all_refused "a bit flipped" "${files[@]}"

check "a byte flipped in the second record of a two-record file is refused"
octal two.purist
flipped $((size + 40)) 1 damaged2.purist
refused damaged2.purist "byte $((size + 40)) of two records"

check "every truncation (1..$((size - 1)) bytes) is refused: short_N.purist"
octal good.purist
files=()
for ((n = 1; n < size; n++)); do
  printf "${OCT:0:$((4 * n))}" >"short_$n.purist"; files+=("short_$n.purist")
done
all_refused "a truncation" "${files[@]}"

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
