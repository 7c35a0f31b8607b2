/* asmscan.h — call instructions per function, read from compiler assembly.
 *
 * A function is a label that a `.type NAME, @function` (or %function)
 * directive declared; it lasts until its `.size NAME, …` or the next
 * function. Parts the compiler split off (NAME.cold, NAME.part.0,
 * NAME.isra.0, NAME.constprop.0) count for NAME: a C name has no dot.
 *
 * What counts as a call:
 *   x86 / x86-64   call, callq, calll (direct and indirect); a jmp or
 *                  conditional jump to a symbol that is not a local label
 *                  (.L…): a tail call. An indirect jmp is not counted (it is
 *                  a switch's jump table as often as a tail call).
 *   AArch64, ARM   bl, blr, blx; b / b.cond to a non-local symbol (tail call).
 *   RISC-V         call, tail, jal to a symbol.
 * Only x86-64 is tested (with GCC 12 and clang 19); other targets are read
 * by the same rules. */
#ifndef PURIST_ASMSCAN_H
#define PURIST_ASMSCAN_H
#include "util/vec.h"

typedef struct {
  char *name;       /* the C function's name (split parts folded in) */
  unsigned calls;
} asmscan_fn;

typedef VEC(asmscan_fn) asmscan_fns;

/* Scans the assembly text (NUL-terminated) and appends one entry per
 * function, in order of first appearance. */
void asmscan_text(const char *text, asmscan_fns *out);
void asmscan_fns_free(asmscan_fns *f);

/* The C name a symbol stands for: up to the first dot. Caller frees. */
char *asmscan_base_name(const char *sym, size_t len);

#endif
