/* rotable.c — reads through read-only tables defined in another TU (issue
 * 30, item 6; the front end's half is frontend/rotable.c).
 *
 * A read flagged SEF_RO_TABLE names the table its pointer was loaded
 * from; the TU that defines the table vouches that every pointer in it
 * points to read-only data with an empty slot function "TABLE.*". Before
 * the solve, each such read of a vouched table becomes a read of
 * read-only data (SE_READ_CONST); the others stay reads of memory. The
 * same for a lookup function's result, named after the function and
 * vouched for by the TU defining it, when only one TU defines it. */
#include "link/solve_int.h"
#include <string.h>

static bool rotable_vouched(const link_prog *p, uint32_t table, ptrmap *memo)
{
  uint32_t *hit = ptrmap_get(memo, (uint64_t)table + 1);
  if (hit) return *hit == 2;
  char *slot = xasprintf("%s.*", strtab_get(p->strs, table));
  long fi = link_find(p, slot);
  free(slot);
  const link_func *f = fi >= 0 ? &p->funcs.v[fi] : NULL;
  bool yes = f && (f->flags & SFF_SLOT) && link_has_body(f) && f->neff == 0 && f->ncall == 0;
  /* A lookup defined more than once (a test double, another program of
   * the database): one definition's word does not cover the others. */
  long named = link_find(p, strtab_get(p->strs, table));
  if (named >= 0 && (p->funcs.v[named].lflags & (LF_JOIN | LF_CONFLICT | LF_ALT))) yes = false;
  ptrmap_put(memo, (uint64_t)table + 1, yes ? 2 : 1);
  return yes;
}

void link_resolve_ro_tables(link_prog *p)
{
  ptrmap memo = {0};
  for (size_t i = 0; i < p->effs.n; i++) {
    sum_effect *e = &p->effs.v[i];
    if (e->kind == SE_READ_MEM && (e->flags & SEF_RO_TABLE) && rotable_vouched(p, e->name, &memo))
      e->kind = SE_READ_CONST;
  }
  ptrmap_free(&memo);
}
