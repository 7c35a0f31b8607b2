#!/usr/bin/env bash
# GCC keeps neither malloc, alloc_size nor alloc_align beside pure or
# const: it drops them with a -Wattributes warning. Found on redis, whose
# extend_to_usable returns its argument and exists only to carry
# alloc_size; fix made it const and the build printed 77 warnings (an
# error under -Werror). Such functions are left alone with a note; a
# near miss with an unrelated attribute (nonnull) is still edited.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >mem.h <<'EOF2'
#include <stddef.h>
__attribute__((alloc_size(2), noinline)) void *grow_hint(void *p, size_t n);
void *pick(void *p) __attribute__((malloc));
void *aligned_hint(void *p, size_t a) __attribute__((alloc_align(2)));
void *same(void *p) __attribute__((nonnull(1)));
EOF2
cat >mem.c <<'EOF2'
#include "mem.h"
void *grow_hint(void *p, size_t n) { (void)n; return p; }
void *pick(void *p) { return p; }
void *aligned_hint(void *p, size_t a) { (void)a; return p; }
void *same(void *p) { return p; }
EOF2
cp mem.h "$T/mem.h.orig"

run fix mem.c
expect_rc 0

check "malloc, alloc_size, alloc_align: left alone, with a note"
for f in grow_hint pick aligned_hint; do
  expect_stderr_has "note: '$f' is not made const: it is declared malloc, alloc_size or alloc_align"
done
expect_file_has mem.h '^__attribute__\(\(alloc_size\(2\), noinline\)\) void \*grow_hint\(void \*p, size_t n\);$'
expect_file_has mem.c '^void \*pick\(void \*p\) \{'

check "near miss: nonnull beside const is fine"
expect_file_has mem.h '^void \*same\(void \*p\) __attribute__\(\(nonnull\(1\)\)\) __attribute__\(\(const\)\);$'
expect_stderr_has '^purist: fix: 2 edits in 2 files$'

check "no -Wattributes warning with gcc-12 or clang-19 at -Wall -Werror"
compiles mem.c
echo "ok"
