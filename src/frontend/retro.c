/* retro.c — functions of the TU that return only read-only data.
 *
 * A pointer a call returns may point anywhere, except when the callee is
 * a body of this TU whose every `return` yields null or an address in
 * read-only static data (a gperf lookup's `&wordlist[key]`, a switch of
 * string literals): reading through it reads read-only memory, as GCC
 * sees once it has the body (gnulib's uc_composition is const for GCC 12
 * because of that). The fact is taken only from bodies walked before the
 * call's (a static helper defined above its callers, the usual order; the
 * noreturn rounds of parse.c walk again and may pick up later ones), and
 * only from bodies the program is sure to link: not weak, not noipa. An
 * external body of a -fPIC TU counts although it may be interposed: every
 * call is judged by the body purist analyses (a call of an interposable
 * const function is a const call, link/solve.c), and what that body
 * returns is part of it (GnuTLS's exported algorithm lookups). A write
 * through such a pointer is still a write (walk_expr.c counts a store into
 * read-only data as a store to memory). */
#include "frontend/walk.h"

void fe_retro_note(fe_tu *t, uint32_t fi, uint64_t ret_mask)
{
  const sum_func *f = &t->sum->funcs.v[fi];
  bool sure = !(f->flags & (SFF_WEAK | SFF_NOIPA));
  bool ro = sure && (ret_mask & PROV_RODATA) && !(ret_mask & ~PROV_RODATA);
  if (ro) ptrmap_put(&t->ret_rodata, (uint64_t)fi + 1, 1);
  else if (ptrmap_get(&t->ret_rodata, (uint64_t)fi + 1)) ptrmap_put(&t->ret_rodata, (uint64_t)fi + 1, 0);
}

bool fe_retro_returns_rodata(const fe_tu *t, uint32_t fi)
{
  const uint32_t *v = ptrmap_get(&t->ret_rodata, (uint64_t)fi + 1);
  return v && *v;
}
