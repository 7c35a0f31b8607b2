# shellcheck shell=bash
# cc_lib.sh — helpers for the tests of `purist cc` (summaries in objects),
# sourced after tests/e2e/lib.sh.
CC_TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EXAMPLES=$(cd "$CC_TESTS_DIR/../../examples" && pwd)
# The flags CMake gives the example project (examples/CMakeLists.txt).
EX_FLAGS="-D_POSIX_C_SOURCE=200809L -Iinclude -O2 -g -DNDEBUG -Wall -Wextra -std=c11"

# copy_examples DIR: a fresh copy of examples/ in DIR (real path, no symlinks).
copy_examples() {
  mkdir -p "$1"
  cp -r "$EXAMPLES/." "$1/"
  rm -rf "$1/build"
}

# write_examples_makefile DIR: a plain Makefile for the example project:
# in-source objects, relative paths, the library as an archive.
write_examples_makefile() {
  cat >"$1/Makefile" <<MK
CFLAGS = $EX_FLAGS
LIBOBJ = src/num.o src/grid.o src/layout.o src/table.o src/text.o src/log.o src/config.o
demo: src/main.o libexstats.a
	\$(CC) -o \$@ src/main.o libexstats.a
libexstats.a: \$(LIBOBJ)
	ar rcs \$@ \$(LIBOBJ)
%.o: %.c
	\$(CC) \$(CFLAGS) -c \$< -o \$@
MK
}

# section_offset FILE: the file offset of FILE's .purist section (empty if none).
section_offset() {
  local hex
  hex=$(readelf -SW "$1" | sed -n 's/.*\] \.purist  *[A-Z_]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p' | head -n 1)
  [ -z "$hex" ] || echo $((16#$hex))
}

# flip_byte FILE OFFSET: xors the byte at OFFSET with 0x20, in place.
flip_byte() {
  local b
  b=$(od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
  # shellcheck disable=SC2059  # the format is the octal escape of the byte
  printf "\\$(printf %03o $((b ^ 32)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
