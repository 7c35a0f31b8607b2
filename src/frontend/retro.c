/* retro.c — functions of the TU that return only read-only data, or
 * only blocks they allocate.
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
 * read-only data as a store to memory).
 *
 * An allocator by its body (issue 30, item 1): every `return` yields null
 * or a block it allocated (PROV_FRESH), which it lets out no other way
 * (neither stored beyond its locals nor kept in a local object that
 * escapes) and fills with pointers to its own blocks at most. A caller
 * then owns the block as it owns malloc's: libgcrypt's shape, a `copy`
 * that mallocs, fills and returns, whose caller frees the copy. What only
 * the link knows it judges: such a call is an allocation by a body
 * (SCF_ALLOC), counted with that body's allocator state, or its plain
 * state if a callee keeps the block (link/capture.c); its pointee masks
 * make what the block holds join the caller's own blocks
 * (link/ptrblock.c), as for a block handed back through `&v`. Bodies of
 * other TUs are not known while the caller is walked: their blocks stay
 * memory anywhere. */
#include "frontend/walk.h"

enum { RETRO_NONE, RETRO_RODATA, RETRO_FRESH };

/* Does f hand out the blocks it allocates, and them only? */
static bool retro_allocator(const sum_func *f, uint64_t ret_mask)
{
  const uint8_t leaks = SSF_FRESH_ESCAPES | SSF_FRESH_OUT | SSF_FRESH_IN_OWN | SSF_PTR_OPAQUE;
  return (ret_mask & PROV_FRESH) && !(ret_mask & ~PROV_FRESH) && (f->sflags & SSF_FRESH_RETURNED) &&
         !(f->sflags & leaks) && !(f->ownc & ~PROV_FRESH);
}

void fe_retro_note(fe_tu *t, uint32_t fi, uint64_t ret_mask)
{
  const sum_func *f = &t->sum->funcs.v[fi];
  bool sure = !(f->flags & (SFF_WEAK | SFF_NOIPA));
  uint32_t kind = !sure ? RETRO_NONE
                  : (ret_mask & PROV_RODATA) && !(ret_mask & ~PROV_RODATA) ? RETRO_RODATA
                  : retro_allocator(f, ret_mask) ? RETRO_FRESH : RETRO_NONE;
  if (kind || ptrmap_get(&t->ret_rodata, (uint64_t)fi + 1)) ptrmap_put(&t->ret_rodata, (uint64_t)fi + 1, kind);
}

static uint32_t retro_kind(const fe_tu *t, uint32_t fi)
{
  const uint32_t *v = ptrmap_get(&t->ret_rodata, (uint64_t)fi + 1);
  return v ? *v : RETRO_NONE;
}

bool fe_retro_returns_rodata(const fe_tu *t, uint32_t fi)
{
  return retro_kind(t, fi) == RETRO_RODATA;
}

bool fe_retro_returns_fresh(const fe_tu *t, uint32_t fi)
{
  return retro_kind(t, fi) == RETRO_FRESH;
}
